import SleetMath
import SleetParticles

extension Rasterizer {
  /// Draws sprites in array order into `image`.
  ///
  /// For each draw, a pixel whose centre p maps to sprite-local point
  /// `(u, v) = p · transform⁻¹` inside the drawn rectangle
  /// `−w/2 ≤ u < w/2, −h/2 ≤ v < h/2` (w, h = `pointSize · contentsRect.size`)
  /// is composited with the source
  ///
  /// ```
  /// texel = ((cx + cw/2 + u/pointSize.x) · W, (cy + ch/2 + v/pointSize.y) · H)
  /// s     = sample(sprite, texel) ⊙ (r·a, g·a, b·a, a)            (tint)
  /// sourceOver:  d ← s + d·(1 − s.a)
  /// additive:    d ← s + d            (no clamping; clamped only on output)
  /// ```
  ///
  /// `sample` follows the draw's ``SpriteDraw/sampling``. With ρ the texels
  /// per pixel, the larger length of the pixel-to-texel map's two columns,
  ///
  /// ```
  /// ρ = max(‖(∂tx/∂px, ∂ty/∂px)‖, ‖(∂tx/∂py, ∂ty/∂py)‖)      (constant per draw)
  /// filter = ρ ≤ 1 + 2⁻¹⁶ ? magnificationFilter : minificationFilter
  /// ```
  ///
  /// (the tolerance keeps a sprite that is only rotated at magnification);
  /// `nearest` takes texel (⌊tx⌋, ⌊ty⌋), `linear` is bilinear, and
  /// `trilinear` is bilinear too: sprites have no mip levels, so the bias
  /// has nothing to choose between (docs/rendering.md).
  ///
  /// Draws with a singular or non-finite transform, or a tint alpha ≤ 0, draw
  /// nothing.
  ///
  /// - Precondition: every `draw.sprite` indexes `sprites`.
  /// - Complexity: O(n + Σ bounding-box pixels) per frame, n = `draws.count`,
  ///   plus O(n · bands) bounding-box tests; one allocation (the prepared draws).
  public static func drawSprites(
    _ draws: [SpriteDraw], sprites: [Sprite], into image: inout RGBAImage,
    options: RasterOptions = RasterOptions()
  ) {
    let width = image.width
    let height = image.height
    guard width > 0, height > 0, !draws.isEmpty else { return }
    withExtendedLifetime(sprites) {
      let prepared = _prepare(draws, sprites: sprites, width: width, height: height)
      guard !prepared.isEmpty else { return }
      image.withUnsafeMutableBufferPointer { pixels in
        let target = _SharedPointer(pixels.baseAddress!)
        prepared.withUnsafeBufferPointer { buffer in
          let list = _SharedPointer(buffer)
          _forEachBand(height: height, options: options) { rows in
            _drawSprites(list.value, rows: rows, into: target.value, width: width)
          }
        }
      }
    }
  }

  /// The draws that can touch a `width × height` image, prepared.
  /// Invariant: the texture pointers inside are valid while `sprites` is alive.
  internal static func _prepare(
    _ draws: [SpriteDraw], sprites: [Sprite], width: Int, height: Int
  ) -> [_PreparedSprite] {
    var prepared: [_PreparedSprite] = []
    prepared.reserveCapacity(draws.count)
    for draw in draws {
      precondition(
        draw.sprite >= 0 && draw.sprite < sprites.count,
        "Rasterizer.drawSprites: sprite index \(draw.sprite) outside 0..<\(sprites.count)")
      if let p = _PreparedSprite(draw, sprite: sprites[draw.sprite], width: width, height: height) {
        prepared.append(p)
      }
    }
    return prepared
  }

  /// ``drawSprites(_:sprites:into:options:)`` through the naive twin kernel.
  internal static func _drawSpritesNaive(_ draws: [SpriteDraw], sprites: [Sprite], into image: inout RGBAImage) {
    let (width, height) = (image.width, image.height)
    withExtendedLifetime(sprites) {
      let prepared = _prepare(draws, sprites: sprites, width: width, height: height)
      image.withUnsafeMutableBufferPointer { pixels in
        prepared.withUnsafeBufferPointer {
          _drawSpritesNaive($0, into: pixels.baseAddress!, width: width, height: height)
        }
      }
    }
  }

  /// Kernel: draws prepared sprites clipped to `rows`.
  /// Invariant: `target` holds `width·height` pixels; each prepared box lies
  /// inside the image; texture pointers are alive (the caller extends the
  /// sprites' lifetime). Writes only rows in `rows`, so bands never alias.
  internal static func _drawSprites(
    _ list: UnsafeBufferPointer<_PreparedSprite>, rows: Range<Int>,
    into target: UnsafeMutablePointer<SIMD4<Float>>, width: Int
  ) {
    for d in list {
      let yStart = Swift.max(d.y0, rows.lowerBound)
      let yEnd = Swift.min(d.y1, rows.upperBound)
      if yStart >= yEnd { continue }
      for y in yStart..<yEnd {
        let py = Float(y) + 0.5
        let rowU = py * d.ic + d.itx
        let rowV = py * d.id + d.ity
        let row = target + y * width
        // The row's span inside the rectangle, widened by one pixel each side
        // so that rounding here can never drop a pixel the exact test below
        // accepts (the span only skips work; the test decides coverage).
        var lo = Float(d.x0), hi = Float(d.x1)
        _narrow(&lo, &hi, slope: d.ia, offset: rowU, half: d.halfWidth)
        _narrow(&lo, &hi, slope: d.ib, offset: rowV, half: d.halfHeight)
        let xStart = Swift.max(d.x0, Int(lo.rounded(.down)) - 1)
        let xEnd = Swift.min(d.x1, Int(hi.rounded(.up)) + 1)
        if xStart >= xEnd { continue }
        for x in xStart..<xEnd {
          _shadeSprite(d, px: Float(x) + 0.5, rowU: rowU, rowV: rowV, into: &row[x])
        }
      }
    }
  }

  /// Naive twin of `_drawSprites` for tests: every draw visits every pixel of
  /// the image, with no bounding box or span narrowing. Same per-pixel
  /// arithmetic, so results must match bit for bit.
  internal static func _drawSpritesNaive(
    _ list: UnsafeBufferPointer<_PreparedSprite>, into target: UnsafeMutablePointer<SIMD4<Float>>,
    width: Int, height: Int
  ) {
    for d in list {
      for y in 0..<height {
        let py = Float(y) + 0.5
        let rowU = py * d.ic + d.itx
        let rowV = py * d.id + d.ity
        for x in 0..<width {
          _shadeSprite(d, px: Float(x) + 0.5, rowU: rowU, rowV: rowV, into: &target[y * width + x])
        }
      }
    }
  }

  /// One pixel of one sprite: the coverage test, the sample and the blend.
  @inline(__always)
  internal static func _shadeSprite(
    _ d: _PreparedSprite, px: Float, rowU: Float, rowV: Float, into pixel: inout SIMD4<Float>
  ) {
    let u = px * d.ia + rowU
    let v = px * d.ib + rowV
    // Written so that NaN fails the test and draws nothing.
    guard u >= -d.halfWidth, u < d.halfWidth, v >= -d.halfHeight, v < d.halfHeight else { return }
    let tx = u * d.texelScaleX + d.texelOffsetX
    let ty = v * d.texelScaleY + d.texelOffsetY
    let s =
      (d.isNearest
        ? _sampleNearest(d.texture, width: d.textureWidth, height: d.textureHeight, x: tx, y: ty)
        : _sampleBilinear(d.texture, width: d.textureWidth, height: d.textureHeight, x: tx, y: ty)) * d.tint
    if d.isAdditive {
      pixel = s + pixel
    } else {
      pixel = s + pixel * SIMD4(repeating: 1 - s.w)
    }
  }
}

extension Rasterizer {
  /// Narrows [lo, hi] (pixel x, as left edges) to the x whose centre
  /// c = x + 0.5 satisfies −half ≤ slope·c + offset ≤ half. Bounds stay inside
  /// the original [lo, hi], so they always convert to Int safely.
  @inline(__always)
  internal static func _narrow(_ lo: inout Float, _ hi: inout Float, slope: Float, offset: Float, half: Float) {
    if slope == 0 {
      if !(offset >= -half && offset < half) { hi = lo }
      return
    }
    let a = (-half - offset) / slope - 0.5
    let b = (half - offset) / slope - 0.5
    let first = Swift.min(a, b), last = Swift.max(a, b)
    if first > lo { lo = Swift.min(first, hi) }
    if last < hi { hi = Swift.max(last, lo) }
  }
}

/// A sprite draw reduced to what the inner loop needs.
internal struct _PreparedSprite {
  // pixel → sprite-local: (u, v) = (px·ia + py·ic + itx, px·ib + py·id + ity)
  var ia: Float, ib: Float, ic: Float, id: Float, itx: Float, ity: Float
  var halfWidth: Float, halfHeight: Float
  // sprite-local → texel
  var texelScaleX: Float, texelOffsetX: Float, texelScaleY: Float, texelOffsetY: Float
  var tint: SIMD4<Float>
  var texture: UnsafePointer<SIMD4<Float>>
  var textureWidth: Int, textureHeight: Int
  // Pixel box, clipped to the image: x0..<x1, y0..<y1.
  var x0: Int, x1: Int, y0: Int, y1: Int
  var isAdditive: Bool
  /// Point sampling instead of bilinear (the filter the draw's scale selects is `nearest`).
  var isNearest: Bool

  /// Nil when the draw cannot touch the image.
  /// Invariant: the returned texture pointer is valid while `sprite` is alive.
  init?(_ draw: SpriteDraw, sprite: Sprite, width: Int, height: Int) {
    let t = draw.transform
    let tint = draw.tint
    guard tint.w > 0 else { return nil }
    // Invert in Double: the transform may carry large translations.
    let a = Double(t.a), b = Double(t.b), c = Double(t.c), d = Double(t.d)
    let tx = Double(t.tx), ty = Double(t.ty)
    let det = a * d - b * c
    guard det != 0, det.isFinite, tx.isFinite, ty.isFinite else { return nil }
    let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
    let itx = -(tx * ia + ty * ic), ity = -(tx * ib + ty * id)
    self.ia = Float(ia); self.ib = Float(ib); self.ic = Float(ic); self.id = Float(id)
    self.itx = Float(itx); self.ity = Float(ity)

    let rect = draw.contentsRect
    let hw = abs(sprite.pointSize.x * rect.z) / 2
    let hh = abs(sprite.pointSize.y * rect.w) / 2
    guard hw > 0, hh > 0, hw.isFinite, hh.isFinite else { return nil }
    halfWidth = hw
    halfHeight = hh
    let texW = Float(sprite.image.width), texH = Float(sprite.image.height)
    texelScaleX = texW / sprite.pointSize.x
    texelOffsetX = (rect.x + rect.z / 2) * texW
    texelScaleY = texH / sprite.pointSize.y
    texelOffsetY = (rect.y + rect.w / 2) * texH
    self.tint = SIMD4(tint.x * tint.w, tint.y * tint.w, tint.z * tint.w, tint.w)
    texture = UnsafePointer(sprite.image._storage.base)
    textureWidth = sprite.image.width
    textureHeight = sprite.image.height
    isAdditive = draw.blendMode == .additive
    isNearest = Self.filter(draw.sampling, ia: ia, ib: ib, ic: ic, id: id, sprite: sprite) == .nearest

    // Bounding box of the four corners, in pixels (unrolled: no allocation).
    let p0 = t.applying(to: SIMD2(-hw, -hh)), p1 = t.applying(to: SIMD2(hw, -hh))
    let p2 = t.applying(to: SIMD2(hw, hh)), p3 = t.applying(to: SIMD2(-hw, hh))
    let minX = Swift.min(Swift.min(p0.x, p1.x), Swift.min(p2.x, p3.x))
    let maxX = Swift.max(Swift.max(p0.x, p1.x), Swift.max(p2.x, p3.x))
    let minY = Swift.min(Swift.min(p0.y, p1.y), Swift.min(p2.y, p3.y))
    let maxY = Swift.max(Swift.max(p0.y, p1.y), Swift.max(p2.y, p3.y))
    guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return nil }
    x0 = Int(Swift.max(0, Swift.min(Float(width), minX.rounded(.down))))
    x1 = Int(Swift.max(0, Swift.min(Float(width), maxX.rounded(.up))))
    y0 = Int(Swift.max(0, Swift.min(Float(height), minY.rounded(.down))))
    y1 = Int(Swift.max(0, Swift.min(Float(height), maxY.rounded(.up))))
    guard x0 < x1, y0 < y1 else { return nil }
  }

  /// The filter that applies to a draw whose pixel → sprite-local map has the
  /// linear part (ia, ib; ic, id): magnification when at most one texel maps
  /// to a pixel along either pixel axis (ρ ≤ 1 + 2⁻¹⁶), else minification;
  /// `trilinear` falls back to `linear` (no mip levels).
  /// - Complexity: O(1).
  static func filter(
    _ sampling: SpriteSampling, ia: Double, ib: Double, ic: Double, id: Double, sprite: Sprite
  ) -> SamplingFilter {
    let sx = Double(sprite.image.width) / Double(sprite.pointSize.x)
    let sy = Double(sprite.image.height) / Double(sprite.pointSize.y)
    let alongX = ((ia * sx) * (ia * sx) + (ib * sy) * (ib * sy)).squareRoot()
    let alongY = ((ic * sx) * (ic * sx) + (id * sy) * (id * sy)).squareRoot()
    let texelsPerPixel = Swift.max(alongX, alongY)
    let filter =
      texelsPerPixel <= 1 + 0x1p-16 ? sampling.magnificationFilter : sampling.minificationFilter
    return filter == .trilinear ? .linear : filter
  }
}
