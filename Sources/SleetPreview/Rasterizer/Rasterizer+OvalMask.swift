import SleetMath

extension Rasterizer {
  /// Draws one textured quad (pixel space, as ``drawQuads(_:textures:into:options:)``)
  /// through an oval mask, source-over:
  ///
  /// ```
  /// src = bilinear(texture, q) · opacity · coverage(p)      (the quad's sample as in drawQuads)
  /// d  ← src + d·(1 − src.a)
  /// ```
  ///
  /// with `coverage` the mask's antialiased coverage at the pixel centre p
  /// (``_PreparedOval``). Where the coverage is 1 the result is bit for bit
  /// what `drawQuads` gives. A mask that cannot be prepared (zero or negative
  /// width or height, not finite, a singular view) draws nothing, as does a
  /// quad `drawQuads` would skip. Bit-identical for any ``RasterOptions``.
  ///
  /// - Precondition: `quad.texture` indexes `textures`.
  /// - Complexity: O(pixels of the quad's box ∩ the mask's box), plus O(bands).
  internal static func _drawMaskedQuad(
    _ quad: TexturedQuad, textures: [RGBAImage], mask: Rect, view: AffineTransform2D,
    into image: inout RGBAImage, options: RasterOptions = RasterOptions()
  ) {
    let (width, height) = (image.width, image.height)
    guard width > 0, height > 0,
      let oval = _PreparedOval(mask, view: view, width: width, height: height)
    else { return }
    withExtendedLifetime(textures) {
      guard var q = _prepare([quad], textures: textures, width: width, height: height).first else { return }
      // Only pixels inside both boxes can be drawn.
      q.x0 = Swift.max(q.x0, oval.x0)
      q.x1 = Swift.min(q.x1, oval.x1)
      q.y0 = Swift.max(q.y0, oval.y0)
      q.y1 = Swift.min(q.y1, oval.y1)
      guard q.x0 < q.x1, q.y0 < q.y1 else { return }
      // The prepared quad holds a texture pointer: shared read-only by the bands.
      let prepared = _SharedPointer(q)
      image.withUnsafeMutableBufferPointer { pixels in
        let target = _SharedPointer(pixels.baseAddress!)
        _forEachBand(height: height, options: options) { rows in
          _drawMaskedQuad(prepared.value, oval, rows: rows, into: target.value, width: width)
        }
      }
    }
  }

  /// Kernel: one prepared quad through a prepared oval, clipped to `rows`.
  ///
  /// Invariants: `q`'s box lies inside the image and inside `m`'s box (the
  /// caller intersected them), so every pixel outside it has coverage 0 or is
  /// not covered by the quad; `q`'s texture is alive; writes are confined to
  /// `rows`, so bands may run in parallel. Each pixel sees the same
  /// operations whatever the band, hence bit-identical output for any
  /// banding.
  internal static func _drawMaskedQuad(
    _ q: _PreparedQuad, _ m: _PreparedOval, rows: Range<Int>,
    into target: UnsafeMutablePointer<SIMD4<Float>>, width: Int
  ) {
    let yStart = Swift.max(q.y0, rows.lowerBound)
    let yEnd = Swift.min(q.y1, rows.upperBound)
    if yStart >= yEnd { return }
    for y in yStart..<yEnd {
      let py = Float(y) + 0.5
      let row = target + y * width
      for x in q.x0..<q.x1 {
        let px = Float(x) + 0.5
        let coverage = m.coverage(px: px, py: py)
        guard coverage > 0, let sample = _sampleQuad(q, px: px, py: py) else { continue }
        let src = sample * SIMD4(repeating: coverage)
        row[x] = src + row[x] * SIMD4(repeating: 1 - src.w)
      }
    }
  }

  /// The naive twin of ``_drawMaskedQuad(_:textures:mask:view:into:options:)``
  /// for tests: one band, every pixel of the image, no boxes, and the
  /// coverage straight from its definition (``_PreparedOval/coverageByDefinition(px:py:)``,
  /// no fast paths).
  internal static func _drawMaskedQuadNaive(
    _ quad: TexturedQuad, textures: [RGBAImage], mask: Rect, view: AffineTransform2D,
    into image: inout RGBAImage
  ) {
    let (width, height) = (image.width, image.height)
    guard width > 0, height > 0,
      let oval = _PreparedOval(mask, view: view, width: width, height: height)
    else { return }
    withExtendedLifetime(textures) {
      guard let q = _prepare([quad], textures: textures, width: width, height: height).first else { return }
      image.withUnsafeMutableBufferPointer { pixels in
        for y in 0..<height {
          for x in 0..<width {
            let (px, py) = (Float(x) + 0.5, Float(y) + 0.5)
            let coverage = oval.coverageByDefinition(px: px, py: py)
            guard coverage > 0, let sample = _sampleQuad(q, px: px, py: py) else { continue }
            let src = sample * SIMD4(repeating: coverage)
            pixels[y * width + x] = src + pixels[y * width + x] * SIMD4(repeating: 1 - src.w)
          }
        }
      }
    }
  }
}

/// An oval mask in pixel space: the ellipse inscribed in a rect of container
/// points, mapped through the view's affine transform, with its antialiased
/// coverage.
///
/// The ellipse is the image of the unit disc under `u ↦ c + A·u`, with
/// `c = view(centre of the rect)` and `A = L·diag(w/2, h/2)`, L the view's
/// linear part (column form: `A = [[a·w/2, c·h/2], [b·w/2, d·h/2]]` for the
/// view's `a b c d`). For a pixel centre p:
///
/// ```
/// u  = A⁻¹·(p − c)
/// k0 = |u|,  k1 = |A⁻ᵀ·u|
/// d  = k0·(k0 − 1) / k1                 signed distance estimate in pixels, < 0 inside
/// coverage = clamp(0.5 − d, 0, 1)        1 at u = 0
///          = 0  when |p.x − c.x| ≥ hx + 1 or |p.y − c.y| ≥ hy + 1
/// ```
///
/// where hx, hy are the ellipse's half extents in pixels
/// (`hx = |(A₀₀, A₀₁)|`, `hy = |(A₁₀, A₁₁)|`): the ellipse's bounding box
/// grown by one pixel bounds the drawn pixels.
///
/// d is g/|∇g| for g = |u| − 1 = √((x/a)² + (y/b)²) − 1 (the ellipse's
/// normalised radius minus one, with ∇ taken in pixels), the first-order
/// distance to the curve. Precision: it vanishes exactly on the ellipse
/// (coverage 0.5 there) and agrees with the true signed distance to first
/// order, with an error of second order in the distance times the
/// curvature. For a circle (A a multiple of a rotation, e.g. a square rect
/// under a uniform scale) it is exactly the Euclidean distance |p − c| − R,
/// so the coverage is the exact one-pixel ramp, up to Double rounding. Near
/// the tips of a very thin ellipse (radius of curvature b²/a below a pixel)
/// the ramp widens; the grown box cuts it off there.
///
/// Evaluated in Double. The fast paths of ``coverage(px:py:)`` return 1 or 0
/// only where the definition clamps to that value with a margin of 0.001 px
/// (`d ≤ −(1 − k0)·σ` inside and `d ≥ (k0 − 1)·σ` outside, σ the smallest
/// singular value of A), so they give the same bits as
/// ``coverageByDefinition(px:py:)``, which the naive twin uses.
internal struct _PreparedOval: Sendable {
  /// c, the centre in pixels.
  var cx: Double, cy: Double
  /// B = A⁻¹, row-major: u = B·(p − c).
  var b00: Double, b01: Double, b10: Double, b11: Double
  /// hx + 1, hy + 1: the grown box's half extents.
  var clipX: Double, clipY: Double
  /// Fast paths on k0²: coverage 1 at or below `innerSquared` (negative: no
  /// fast path), 0 at or above `outerSquared`.
  var innerSquared: Double, outerSquared: Double
  /// The pixels whose centres may lie in the grown box, clipped to the image
  /// (non-empty): x0..<x1, y0..<y1.
  var x0: Int, x1: Int, y0: Int, y1: Int

  /// Nil when the mask draws nothing: zero, negative or non-finite width or
  /// height, a view that is singular or not finite, or a box outside the
  /// `width × height` image.
  init?(_ mask: Rect, view: AffineTransform2D, width: Int, height: Int) {
    guard mask.isFinite, mask.width > 0, mask.height > 0 else { return nil }
    let (a, b, c, d) = (Double(view.a), Double(view.b), Double(view.c), Double(view.d))
    let (tx, ty) = (Double(view.tx), Double(view.ty))
    let centre = mask.center
    cx = centre.x * a + centre.y * c + tx
    cy = centre.x * b + centre.y * d + ty
    let (rx, ry) = (mask.width / 2, mask.height / 2)
    let (a00, a01, a10, a11) = (a * rx, c * ry, b * rx, d * ry)
    let det = a00 * a11 - a01 * a10
    guard det != 0, det.isFinite, cx.isFinite, cy.isFinite else { return nil }
    (b00, b01, b10, b11) = (a11 / det, -a01 / det, -a10 / det, a00 / det)
    let hx = (a00 * a00 + a01 * a01).squareRoot()
    let hy = (a10 * a10 + a11 * a11).squareRoot()
    clipX = hx + 1
    clipY = hy + 1
    // σ_min = |det| / σ_max, σ_max² the larger eigenvalue of AᵀA.
    let p = a00 * a00 + a10 * a10, r = a01 * a01 + a11 * a11, q = a00 * a01 + a10 * a11
    let half = (p - r) / 2
    let largest = (p + r) / 2 + (half * half + q * q).squareRoot()
    let sigma = abs(det) / largest.squareRoot()
    let margin = 0.501 / sigma
    innerSquared = margin < 1 ? (1 - margin) * (1 - margin) : -1
    outerSquared = (1 + margin) * (1 + margin)
    guard b00.isFinite, b01.isFinite, b10.isFinite, b11.isFinite, clipX.isFinite, clipY.isFinite,
      outerSquared.isFinite
    else { return nil }
    // Pixel x has its centre x + 0.5 in the grown box when
    // cx − clipX − 0.5 < x < cx + clipX − 0.5: a superset, clamped before
    // converting.
    func clamp(_ v: Double, _ limit: Int) -> Int { Int(Swift.min(Swift.max(v, 0), Double(limit))) }
    x0 = clamp((cx - clipX - 0.5).rounded(.down), width)
    x1 = clamp((cx + clipX - 0.5).rounded(.down) + 1, width)
    y0 = clamp((cy - clipY - 0.5).rounded(.down), height)
    y1 = clamp((cy + clipY - 0.5).rounded(.down) + 1, height)
    guard x0 < x1, y0 < y1 else { return nil }
  }

  /// The coverage at pixel-space point (px, py), with the fast paths.
  @inline(__always)
  func coverage(px: Float, py: Float) -> Float {
    let dx = Double(px) - cx, dy = Double(py) - cy
    guard abs(dx) < clipX, abs(dy) < clipY else { return 0 }
    let u0 = b00 * dx + b01 * dy
    let u1 = b10 * dx + b11 * dy
    let k0Squared = u0 * u0 + u1 * u1
    if k0Squared <= innerSquared { return 1 }
    if k0Squared >= outerSquared { return 0 }
    return _ramp(u0, u1, k0Squared)
  }

  /// The coverage at (px, py) straight from the definition (no fast paths):
  /// the naive twin's.
  func coverageByDefinition(px: Float, py: Float) -> Float {
    let dx = Double(px) - cx, dy = Double(py) - cy
    guard abs(dx) < clipX, abs(dy) < clipY else { return 0 }
    let u0 = b00 * dx + b01 * dy
    let u1 = b10 * dx + b11 * dy
    return _ramp(u0, u1, u0 * u0 + u1 * u1)
  }

  /// clamp(0.5 − d, 0, 1) with d = k0·(k0 − 1)/k1; 1 at u = 0.
  @inline(__always)
  private func _ramp(_ u0: Double, _ u1: Double, _ k0Squared: Double) -> Float {
    // A⁻ᵀ·u = Bᵀ·u.
    let g0 = b00 * u0 + b10 * u1
    let g1 = b01 * u0 + b11 * u1
    let k1 = (g0 * g0 + g1 * g1).squareRoot()
    guard k1 > 0 else { return 1 }  // u = 0: the centre
    let k0 = k0Squared.squareRoot()
    let coverage = 0.5 - k0 * (k0 - 1) / k1
    return Float(coverage >= 1 ? 1 : coverage > 0 ? coverage : 0)
  }
}
