/// The procedural sprites, so that no effect needs an image file. Each is
/// white with coverage in alpha (a particle's colour tints it) and is generated
/// at any pixel size; ``SpriteLibrary`` caches the results.
///
/// Shapes are defined on the normalised square [−1, 1]² (y down) and sampled
/// with 4 × 4 supersampling per pixel, so hard edges are antialiased.
public enum BuiltInSprite: String, CaseIterable, Hashable, Sendable {
  /// A soft round disc: alpha `1 − smoothstep(0.3, 1, r)`.
  case disc
  /// A six-armed snowflake with two pairs of side branches per arm.
  case snowflake
  /// A glowing point with four thin rays: `exp(−6r²)` plus ray falloff,
  /// faded to zero between r = 0.8 and 1.
  case spark
  /// A five-pointed star, one point up, inner/outer radius 0.4.
  case star
  /// A heart (the snow article's `favorite_hl`): `(x² + y² − 1)³ − x²y³ ≤ 0`.
  case heart
  /// A solid rectangle, 2:1, for confetti.
  case confetti

  /// The size in points at particle scale 1.
  public var pointSize: SIMD2<Float> {
    switch self {
    case .confetti: SIMD2(16, 8)
    default: SIMD2(32, 32)
    }
  }

  /// The sprite rendered at `pixelsPerPoint` pixels per point (the pixel size is
  /// `⌈pointSize · pixelsPerPoint⌉`, at least 1), keeping ``pointSize``.
  /// - Precondition: `pixelsPerPoint` finite and > 0.
  /// - Complexity: O(pixels · 16) coverage evaluations.
  public func sprite(pixelsPerPoint: Float = 1) -> Sprite {
    precondition(
      pixelsPerPoint > 0 && pixelsPerPoint.isFinite,
      "BuiltInSprite: pixelsPerPoint must be finite and > 0, got \(pixelsPerPoint)")
    let size = (pointSize * pixelsPerPoint).rounded(.up)
    return Sprite(
      image: image(width: Swift.max(1, Int(size.x)), height: Swift.max(1, Int(size.y))),
      pointSize: pointSize)
  }

  /// The sprite's pixels at an explicit size: premultiplied white, alpha =
  /// coverage averaged over a 4 × 4 grid of samples per pixel.
  /// - Precondition: `width ≥ 1`, `height ≥ 1`.
  /// - Complexity: O(width · height · 16).
  public func image(width: Int, height: Int) -> RGBAImage {
    precondition(width >= 1 && height >= 1, "BuiltInSprite: size must be ≥ 1×1, got \(width)×\(height)")
    var image = RGBAImage(width: width, height: height)
    let grid = 4
    image.withUnsafeMutableBufferPointer { pixels in
      for y in 0..<height {
        for x in 0..<width {
          var sum: Float = 0
          for sy in 0..<grid {
            for sx in 0..<grid {
              // Sample point in [−1, 1]², stratified inside the pixel.
              let u = (Float(x) + (Float(sx) + 0.5) / Float(grid)) / Float(width) * 2 - 1
              let v = (Float(y) + (Float(sy) + 0.5) / Float(grid)) / Float(height) * 2 - 1
              sum += coverage(SIMD2(u, v))
            }
          }
          let a = Swift.min(1, Swift.max(0, sum / Float(grid * grid)))
          pixels[y * width + x] = SIMD4(repeating: a)
        }
      }
    }
    return image
  }

  /// Coverage in [0, 1] at a point of the normalised square (y down).
  internal func coverage(_ p: SIMD2<Float>) -> Float {
    let r = (p * p).sum().squareRoot()
    switch self {
    case .disc:
      return 1 - _smoothstep(0.3, 1, r)
    case .spark:
      let glow = _exp(-6 * r * r)
      let rayX = Swift.max(0, 1 - abs(p.y) * 14) * Swift.max(0, 1 - abs(p.x))
      let rayY = Swift.max(0, 1 - abs(p.x) * 14) * Swift.max(0, 1 - abs(p.y))
      // Windowed so that the sprite ends exactly at its circle.
      return Swift.min(1, glow + rayX + rayY) * (1 - _smoothstep(0.8, 1, r))
    case .confetti:
      return 1
    case .heart:
      let x = p.x * 1.2
      let y = -p.y * 1.2 + 0.1
      let q = x * x + y * y - 1
      return q * q * q - x * x * y * y * y <= 0 ? 1 : 0
    case .star:
      return _insideStar(p) ? 1 : 0
    case .snowflake:
      return _insideSnowflake(p) ? 1 : 0
    }
  }
}

// MARK: - Shape helpers

@inline(__always)
private func _smoothstep(_ e0: Float, _ e1: Float, _ x: Float) -> Float {
  let t = Swift.min(1, Swift.max(0, (x - e0) / (e1 - e0)))
  return t * t * (3 - 2 * t)
}

@inline(__always)
private func _exp(_ x: Float) -> Float { Float(_math_exp(Double(x))) }

private func _math_exp(_ x: Double) -> Double {
  // exp by squaring of a Taylor kernel: deterministic across platforms (no libm).
  // |x| ≤ 6 here; reduce by 2⁻⁸, then square 8 times.
  let y = x / 256
  var e = 1 + y * (1 + y / 2 * (1 + y / 3 * (1 + y / 4 * (1 + y / 5))))
  for _ in 0..<8 { e *= e }
  return e
}

/// Distance from p to the segment a–b.
@inline(__always)
private func _distance(_ p: SIMD2<Float>, _ a: SIMD2<Float>, _ b: SIMD2<Float>) -> Float {
  let ab = b - a
  let t = Swift.min(1, Swift.max(0, ((p - a) * ab).sum() / (ab * ab).sum()))
  let d = p - (a + ab * t)
  return (d * d).sum().squareRoot()
}

/// Unit directions at multiples of 60°, starting straight up (tabulated so the
/// sprite does not depend on libm's sin/cos).
private let _sixDirections: [SIMD2<Float>] = [
  SIMD2(0, -1), SIMD2(0.866_025_4, -0.5), SIMD2(0.866_025_4, 0.5),
  SIMD2(0, 1), SIMD2(-0.866_025_4, 0.5), SIMD2(-0.866_025_4, -0.5),
]

/// (distance along the arm, branch length) of each branch pair.
private let _snowflakeBranches: [(Float, Float)] = [(0.45, 0.3), (0.7, 0.2)]

private func _insideSnowflake(_ p: SIMD2<Float>) -> Bool {
  let halfThickness: Float = 0.07
  for d in _sixDirections {
    let n = SIMD2(-d.y, d.x)
    if _distance(p, .zero, d * 0.92) < halfThickness { return true }
    // Two pairs of branches, angled 60° outward from the arm.
    for (at, length) in _snowflakeBranches {
      let base = d * at
      let out1 = base + (d * 0.5 + n * 0.866_025_4) * length
      let out2 = base + (d * 0.5 - n * 0.866_025_4) * length
      if _distance(p, base, out1) < halfThickness * 0.8 { return true }
      if _distance(p, base, out2) < halfThickness * 0.8 { return true }
    }
  }
  return (p * p).sum() < 0.15 * 0.15
}

/// The ten vertices of a five-pointed star, first point straight up
/// (cos/sin of multiples of 36° tabulated).
private let _starVertices: [SIMD2<Float>] = {
  let cos36: Float = 0.809_017, sin36: Float = 0.587_785_3
  let cos72: Float = 0.309_017, sin72: Float = 0.951_056_5
  // Unit directions at k·36° clockwise from up (y down).
  let dirs: [SIMD2<Float>] = [
    SIMD2(0, -1), SIMD2(sin36, -cos36), SIMD2(sin72, -cos72), SIMD2(sin72, cos72),
    SIMD2(sin36, cos36), SIMD2(0, 1), SIMD2(-sin36, cos36), SIMD2(-sin72, cos72),
    SIMD2(-sin72, -cos72), SIMD2(-sin36, -cos36),
  ]
  return dirs.enumerated().map { i, d in d * (i % 2 == 0 ? 0.98 : 0.98 * 0.4) + SIMD2(0, 0.06) }
}()

private func _insideStar(_ p: SIMD2<Float>) -> Bool {
  // Even–odd crossing test.
  var inside = false
  var j = _starVertices.count - 1
  for i in 0..<_starVertices.count {
    let a = _starVertices[i], b = _starVertices[j]
    if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
      inside.toggle()
    }
    j = i
  }
  return inside
}
