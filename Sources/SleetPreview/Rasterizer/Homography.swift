import SleetMath

/// A 3×3 projective map in Double, column-vector form:
///
/// ```
/// ⎡X⎤   ⎡m0 m1 m2⎤ ⎡x⎤
/// ⎢Y⎥ = ⎢m3 m4 m5⎥ ⎢y⎥ ,   (x', y') = (X/W, Y/W)
/// ⎣W⎦   ⎣m6 m7 m8⎦ ⎣1⎦
/// ```
///
/// Built from quads with Heckbert's square-to-quad construction ("Fundamentals
/// of Texture Mapping and Image Warping", 1989, §2.2.3).
internal struct _Homography: Equatable {
  var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

  /// The map from the unit square — (0,0), (1,0), (1,1), (0,1) — to the quad's
  /// top-left, top-right, bottom-right, bottom-left corners. Nil when the quad
  /// is degenerate (three corners collinear in the projective case).
  static func squareToQuad(_ q: Quad2D) -> _Homography? {
    let x0 = Double(q.topLeft.x), y0 = Double(q.topLeft.y)
    let x1 = Double(q.topRight.x), y1 = Double(q.topRight.y)
    let x2 = Double(q.bottomRight.x), y2 = Double(q.bottomRight.y)
    let x3 = Double(q.bottomLeft.x), y3 = Double(q.bottomLeft.y)
    let sx = x0 - x1 + x2 - x3
    let sy = y0 - y1 + y2 - y3
    if sx == 0 && sy == 0 {
      // A parallelogram: the map is affine.
      return _Homography(m: (x1 - x0, x3 - x0, x0, y1 - y0, y3 - y0, y0, 0, 0, 1))
    }
    let dx1 = x1 - x2, dx2 = x3 - x2
    let dy1 = y1 - y2, dy2 = y3 - y2
    let den = dx1 * dy2 - dx2 * dy1
    guard den != 0 else { return nil }
    let g = (sx * dy2 - dx2 * sy) / den
    let h = (dx1 * sy - sx * dy1) / den
    return _Homography(
      m: (
        x1 - x0 + g * x1, x3 - x0 + h * x3, x0,
        y1 - y0 + g * y1, y3 - y0 + h * y3, y0,
        g, h, 1
      ))
  }

  /// The inverse by the adjugate, scaled so that the bottom-right entry is 1
  /// when it is non-zero. Nil when singular or not finite.
  func inverted() -> _Homography? {
    let (a, b, c, d, e, f, g, h, i) = m
    let A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g
    let det = a * A + b * B + c * C
    guard det != 0, det.isFinite else { return nil }
    var r = (
      A, -(b * i - c * h), b * f - c * e,
      B, a * i - c * g, -(a * f - c * d),
      C, -(a * h - b * g), a * e - b * d
    )
    let s = r.8 != 0 ? 1 / r.8 : 1 / det
    r = (r.0 * s, r.1 * s, r.2 * s, r.3 * s, r.4 * s, r.5 * s, r.6 * s, r.7 * s, r.8 * s)
    let result = _Homography(m: r)
    return result.isFinite ? result : nil
  }

  /// `other ∘ self`: apply self, then other.
  func followed(by other: _Homography) -> _Homography {
    let (a0, a1, a2, a3, a4, a5, a6, a7, a8) = other.m
    let (b0, b1, b2, b3, b4, b5, b6, b7, b8) = m
    return _Homography(
      m: (
        a0 * b0 + a1 * b3 + a2 * b6, a0 * b1 + a1 * b4 + a2 * b7, a0 * b2 + a1 * b5 + a2 * b8,
        a3 * b0 + a4 * b3 + a5 * b6, a3 * b1 + a4 * b4 + a5 * b7, a3 * b2 + a4 * b5 + a5 * b8,
        a6 * b0 + a7 * b3 + a8 * b6, a6 * b1 + a7 * b4 + a8 * b7, a6 * b2 + a7 * b5 + a8 * b8
      ))
  }

  /// Scales the first two rows (x' and y' outputs) by (sx, sy).
  func scaledOutput(x sx: Double, y sy: Double) -> _Homography {
    let (a, b, c, d, e, f, g, h, i) = m
    return _Homography(m: (a * sx, b * sx, c * sx, d * sy, e * sy, f * sy, g, h, i))
  }

  var isFinite: Bool {
    m.0.isFinite && m.1.isFinite && m.2.isFinite && m.3.isFinite && m.4.isFinite
      && m.5.isFinite && m.6.isFinite && m.7.isFinite && m.8.isFinite
  }

  /// Maps a point (in Double, for tests and setup).
  func apply(_ p: SIMD2<Double>) -> SIMD2<Double> {
    let w = m.6 * p.x + m.7 * p.y + m.8
    return SIMD2((m.0 * p.x + m.1 * p.y + m.2) / w, (m.3 * p.x + m.4 * p.y + m.5) / w)
  }

  static func == (l: _Homography, r: _Homography) -> Bool {
    l.m.0 == r.m.0 && l.m.1 == r.m.1 && l.m.2 == r.m.2 && l.m.3 == r.m.3 && l.m.4 == r.m.4
      && l.m.5 == r.m.5 && l.m.6 == r.m.6 && l.m.7 == r.m.7 && l.m.8 == r.m.8
  }
}

/// A homography rounded to Float for the inner loop.
internal struct _FloatHomography {
  var m0: Float, m1: Float, m2: Float, m3: Float, m4: Float, m5: Float
  var m6: Float, m7: Float, m8: Float

  init(_ h: _Homography) {
    (m0, m1, m2) = (Float(h.m.0), Float(h.m.1), Float(h.m.2))
    (m3, m4, m5) = (Float(h.m.3), Float(h.m.4), Float(h.m.5))
    (m6, m7, m8) = (Float(h.m.6), Float(h.m.7), Float(h.m.8))
  }
}
