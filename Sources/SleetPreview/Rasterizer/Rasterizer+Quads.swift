extension Rasterizer {
  /// Draws textured quads in array order into `image` with a perspective-correct
  /// (projective) mapping, bilinear filtering and source-over blending.
  ///
  /// For each quad, let `S` be the homography from the unit square to
  /// `corners` and `T` the one from the unit square to `textureCorners` scaled
  /// to texel units (texture width × height). A pixel centre p with
  /// `(s, t) = S⁻¹(p)` in [0, 1)² and texel point `q = T(S⁻¹(p))` in
  /// [0, W] × [0, H] is composited with
  ///
  /// ```
  /// src = bilinear(texture, q) · opacity
  /// d  ← src + d·(1 − src.a)
  /// ```
  ///
  /// Both maps are composed in Double and evaluated per pixel in Float, so an
  /// axis-aligned quad whose size equals its texture's reproduces the texels
  /// exactly at pixel centres. Quads with a non-finite corner, a degenerate
  /// shape, opacity ≤ 0 (or NaN), or an empty texture draw nothing.
  ///
  /// - Precondition: every `quad.texture` indexes `textures`.
  /// - Complexity: O(n + Σ bounding-box pixels), n = `quads.count`, plus
  ///   O(n · bands) bounding-box tests; one allocation (the prepared quads).
  public static func drawQuads(
    _ quads: [TexturedQuad], textures: [RGBAImage], into image: inout RGBAImage,
    options: RasterOptions = RasterOptions()
  ) {
    let width = image.width
    let height = image.height
    guard width > 0, height > 0, !quads.isEmpty else { return }
    withExtendedLifetime(textures) {
      let prepared = _prepare(quads, textures: textures, width: width, height: height)
      guard !prepared.isEmpty else { return }
      image.withUnsafeMutableBufferPointer { pixels in
        let target = _SharedPointer(pixels.baseAddress!)
        prepared.withUnsafeBufferPointer { buffer in
          let list = _SharedPointer(buffer)
          _forEachBand(height: height, options: options) { rows in
            _drawQuads(list.value, rows: rows, into: target.value, width: width)
          }
        }
      }
    }
  }

  /// The quads that can touch a `width × height` image, prepared.
  /// Invariant: the texture pointers inside are valid while `textures` is alive.
  internal static func _prepare(
    _ quads: [TexturedQuad], textures: [RGBAImage], width: Int, height: Int
  ) -> [_PreparedQuad] {
    var prepared: [_PreparedQuad] = []
    prepared.reserveCapacity(quads.count)
    for quad in quads {
      precondition(
        quad.texture >= 0 && quad.texture < textures.count,
        "Rasterizer.drawQuads: texture index \(quad.texture) outside 0..<\(textures.count)")
      if let p = _PreparedQuad(quad, texture: textures[quad.texture], width: width, height: height) {
        prepared.append(p)
      }
    }
    return prepared
  }

  /// ``drawQuads(_:textures:into:options:)`` through the naive twin kernel:
  /// every quad visits every pixel, no bounding box.
  internal static func _drawQuadsNaive(_ quads: [TexturedQuad], textures: [RGBAImage], into image: inout RGBAImage) {
    let (width, height) = (image.width, image.height)
    withExtendedLifetime(textures) {
      let prepared = _prepare(quads, textures: textures, width: width, height: height)
      image.withUnsafeMutableBufferPointer { pixels in
        for q in prepared {
          for y in 0..<height {
            for x in 0..<width {
              _shadeQuad(q, px: Float(x) + 0.5, py: Float(y) + 0.5, into: &pixels[y * width + x])
            }
          }
        }
      }
    }
  }

  /// Kernel: draws prepared quads clipped to `rows`.
  /// Invariant: as for `_drawSprites` — boxes inside the image, textures alive,
  /// writes confined to `rows`.
  internal static func _drawQuads(
    _ list: UnsafeBufferPointer<_PreparedQuad>, rows: Range<Int>,
    into target: UnsafeMutablePointer<SIMD4<Float>>, width: Int
  ) {
    for q in list {
      let yStart = Swift.max(q.y0, rows.lowerBound)
      let yEnd = Swift.min(q.y1, rows.upperBound)
      if yStart >= yEnd { continue }
      for y in yStart..<yEnd {
        let py = Float(y) + 0.5
        let row = target + y * width
        for x in q.x0..<q.x1 {
          _shadeQuad(q, px: Float(x) + 0.5, py: py, into: &row[x])
        }
      }
    }
  }

  /// One pixel of one quad: the coverage test, the sample and the blend.
  @inline(__always)
  internal static func _shadeQuad(_ q: _PreparedQuad, px: Float, py: Float, into pixel: inout SIMD4<Float>) {
    guard let src = _sampleQuad(q, px: px, py: py) else { return }
    pixel = src + pixel * SIMD4(repeating: 1 - src.w)
  }

  /// The quad's premultiplied colour at pixel centre (px, py), opacity
  /// included: nil where the quad does not cover the centre or its texture
  /// point falls outside the texture.
  @inline(__always)
  internal static func _sampleQuad(_ q: _PreparedQuad, px: Float, py: Float) -> SIMD4<Float>? {
    let S = q.screenToSquare
    let w1 = S.m6 * px + S.m7 * py + S.m8
    let s = (S.m0 * px + S.m1 * py + S.m2) / w1
    let t = (S.m3 * px + S.m4 * py + S.m5) / w1
    // NaN or ±∞ (a pixel on the vanishing line) fail and draw nothing.
    guard s >= 0, s < 1, t >= 0, t < 1 else { return nil }
    let T = q.screenToTexel
    let w2 = T.m6 * px + T.m7 * py + T.m8
    let u = (T.m0 * px + T.m1 * py + T.m2) / w2
    let v = (T.m3 * px + T.m4 * py + T.m5) / w2
    guard u >= 0, u <= Float(q.textureWidth), v >= 0, v <= Float(q.textureHeight) else { return nil }
    return _sampleBilinear(
      q.texture, width: q.textureWidth, height: q.textureHeight, x: u, y: v) * SIMD4(repeating: q.opacity)
  }
}

/// A textured quad reduced to what the inner loop needs.
internal struct _PreparedQuad {
  var screenToSquare: _FloatHomography
  var screenToTexel: _FloatHomography
  var opacity: Float
  var texture: UnsafePointer<SIMD4<Float>>
  var textureWidth: Int, textureHeight: Int
  var x0: Int, x1: Int, y0: Int, y1: Int

  /// Nil when the quad cannot touch the image.
  /// Invariant: the returned texture pointer is valid while `texture` is alive.
  init?(_ quad: TexturedQuad, texture image: RGBAImage, width: Int, height: Int) {
    guard quad.opacity > 0, image.width > 0, image.height > 0,
      quad.corners.isFinite, quad.textureCorners.isFinite,
      let toScreen = _Homography.squareToQuad(quad.corners),
      let screenToSquare = toScreen.inverted(),
      let toTexture = _Homography.squareToQuad(quad.textureCorners)
    else { return nil }
    let toTexel = toTexture.scaledOutput(x: Double(image.width), y: Double(image.height))
    let screenToTexel = screenToSquare.followed(by: toTexel)
    guard screenToTexel.isFinite else { return nil }
    self.screenToSquare = _FloatHomography(screenToSquare)
    self.screenToTexel = _FloatHomography(screenToTexel)
    opacity = Swift.min(quad.opacity, 1)
    texture = UnsafePointer(image._storage.base)
    textureWidth = image.width
    textureHeight = image.height
    let c = quad.corners
    let minX = Swift.min(Swift.min(c.topLeft.x, c.topRight.x), Swift.min(c.bottomRight.x, c.bottomLeft.x))
    let maxX = Swift.max(Swift.max(c.topLeft.x, c.topRight.x), Swift.max(c.bottomRight.x, c.bottomLeft.x))
    let minY = Swift.min(Swift.min(c.topLeft.y, c.topRight.y), Swift.min(c.bottomRight.y, c.bottomLeft.y))
    let maxY = Swift.max(Swift.max(c.topLeft.y, c.topRight.y), Swift.max(c.bottomRight.y, c.bottomLeft.y))
    x0 = Int(Swift.max(0, Swift.min(Float(width), minX.rounded(.down))))
    x1 = Int(Swift.max(0, Swift.min(Float(width), maxX.rounded(.up))))
    y0 = Int(Swift.max(0, Swift.min(Float(height), minY.rounded(.down))))
    y1 = Int(Swift.max(0, Swift.min(Float(height), maxY.rounded(.up))))
    guard x0 < x1, y0 < y1 else { return nil }
  }
}
