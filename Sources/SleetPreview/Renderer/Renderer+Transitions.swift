import SleetMath
import SleetTransitions

extension Renderer {
  /// Draws a transition frame of any style: clears `image` to `background`
  /// (straight alpha, premultiplied as ``RGBAImage/clear(to:)`` does;
  /// transparent by default, what a container with no background colour
  /// shows), then each layer in order.
  ///
  /// The layers are drawn in array order (the frame is already back to front;
  /// nothing is sorted), each as a perspective-correct textured quad with the
  /// source-over blend of ``Rasterizer/drawQuads(_:textures:into:options:)``:
  /// its ``TransitionLayer/corners`` (container points, mapped through
  /// ``viewTransform``), its ``TransitionLayer/textureCorners`` and its
  /// ``TransitionLayer/opacity``, showing
  ///
  /// - ``TransitionContent/fromScreen``, ``TransitionContent/toScreen``: the
  ///   `from` or `to` snapshot;
  /// - ``TransitionContent/image``: `image`, the zoom style's flying image;
  /// - ``TransitionContent/color(_:)`` c: the premultiplied colour
  ///   `(r·a, g·a, b·a, a)` times the opacity, exactly, at every covered pixel.
  ///   It is drawn as a 1 × 1 texture of that colour whose texture corners all
  ///   sit on the texel's centre: the texel-space point is then
  ///   `(½·D)/D = ½` exactly for the homography's denominator D (scaling by ½
  ///   commutes with rounding), where bilinear sampling returns the texel
  ///   itself: every pixel whose centre passes the quad's coverage test,
  ///   edges included, gets exactly that colour.
  ///
  /// A layer with a ``TransitionLayer/mask`` is drawn only inside the ellipse
  /// inscribed in the mask rect (container points, mapped through
  /// ``viewTransform``), with an antialiased edge: each pixel's sample is
  /// multiplied by the coverage
  ///
  /// ```
  /// coverage = clamp(0.5 − d, 0, 1),  d = k0·(k0 − 1)/k1  (pixels),
  /// k0 = |u|, k1 = |A⁻ᵀu|, u = A⁻¹(p − c)
  /// ```
  ///
  /// for the ellipse `c + A·(unit disc)` in pixels: d is g/|∇g| for
  /// g = √((x/a)² + (y/b)²) − 1, zero on the ellipse, the exact Euclidean
  /// distance for a circle (so a circle's edge is the exact one-pixel ramp,
  /// to Double rounding), first-order accurate for other ellipses; coverage
  /// is 0 outside the ellipse's pixel bounding box grown by one pixel. Where
  /// the coverage is 1 the pixel is what the unmasked layer gives, bit for
  /// bit. A mask of zero (or negative, or non-finite) width or height draws
  /// nothing. See `Rasterizer+OvalMask.swift`.
  ///
  /// Layers with a non-finite corner (behind the eye) draw nothing. The
  /// snapshots and the image may have any pixel size: texture corners are
  /// unit coordinates, so each is stretched over the rect its layer covers.
  /// Bit-identical for any ``RasterOptions``.
  ///
  /// - Precondition: `from` and `to` are non-empty; `image` is given (and
  ///   non-empty) when a layer shows ``TransitionContent/image``.
  /// - Complexity: O(layers + drawn pixels); a few allocations per call (the
  ///   texture and quad lists), none per layer.
  public func render(
    _ frame: TransitionFrame, from fromSnapshot: RGBAImage, to toSnapshot: RGBAImage,
    image flyingImage: RGBAImage? = nil, background: ColorRGBA = .clear, into target: inout RGBAImage
  ) {
    _render(
      layers: frame.layers, from: fromSnapshot, to: toSnapshot, image: flyingImage, background: background,
      into: &target)
  }

  /// ``render(_:from:to:image:into:)`` of a bare layer list (tests build
  /// layers by hand; the frame's own initialiser is not public).
  internal func _render(
    layers: [TransitionLayer], from fromSnapshot: RGBAImage, to toSnapshot: RGBAImage,
    image flyingImage: RGBAImage? = nil, background: ColorRGBA = .clear, into target: inout RGBAImage
  ) {
    let list = _TransitionDrawList(layers, view: viewTransform, from: fromSnapshot, to: toSnapshot, image: flyingImage)
    target.clear(to: background)
    list.draw(into: &target, view: viewTransform, options: options)
  }

  /// The naive twin of ``render(_:from:to:image:into:)`` for tests: the same
  /// layers through the naive quad and masked-quad kernels (every primitive
  /// visits every pixel, one band).
  internal func _renderNaively(
    layers: [TransitionLayer], from fromSnapshot: RGBAImage, to toSnapshot: RGBAImage,
    image flyingImage: RGBAImage? = nil, into target: inout RGBAImage
  ) {
    let list = _TransitionDrawList(layers, view: viewTransform, from: fromSnapshot, to: toSnapshot, image: flyingImage)
    target.clear(toPremultiplied: .zero)
    list.drawNaively(into: &target, view: viewTransform)
  }
}

/// A transition frame's layers as rasterizer work, in layer order: runs of
/// unmasked quads (one ``Rasterizer/drawQuads(_:textures:into:options:)``
/// each) and single masked quads.
internal struct _TransitionDrawList {
  enum Step {
    case quads([TexturedQuad])
    case masked(TexturedQuad, mask: Rect)
  }

  /// from, to, then the image (when given), then one 1 × 1 texture per
  /// distinct colour.
  var textures: [RGBAImage]
  var steps: [Step] = []

  /// Texture corners that put every pixel on the centre of a 1 × 1 texture.
  static let texelCentre = Quad2D(x: 0.5, y: 0.5, width: 0, height: 0)

  init(
    _ layers: [TransitionLayer], view: AffineTransform2D, from: RGBAImage, to: RGBAImage, image: RGBAImage?
  ) {
    precondition(
      from.pixelCount > 0 && to.pixelCount > 0,
      "Renderer.render(_:from:to:image:into:): the from and to snapshots must not be empty")
    textures = [from, to]
    let imageTexture: Int?
    if let image {
      imageTexture = textures.count
      textures.append(image)
    } else {
      imageTexture = nil
    }
    var colourTextures: [ColorRGBA: Int] = [:]
    var run: [TexturedQuad] = []
    run.reserveCapacity(layers.count)
    for (index, layer) in layers.enumerated() {
      var quad = TexturedQuad(
        corners: Quad2D(
          topLeft: view.applying(to: layer.corners.topLeft), topRight: view.applying(to: layer.corners.topRight),
          bottomRight: view.applying(to: layer.corners.bottomRight),
          bottomLeft: view.applying(to: layer.corners.bottomLeft)),
        textureCorners: layer.textureCorners, texture: 0, opacity: layer.opacity)
      switch layer.content {
      case .fromScreen: quad.texture = 0
      case .toScreen: quad.texture = 1
      case .image:
        guard let imageTexture, textures[imageTexture].pixelCount > 0 else {
          preconditionFailure(
            "Renderer.render(_:from:to:image:into:): layer \(index) shows the zoom image (.image); "
              + "pass a non-empty image as `image:`")
        }
        quad.texture = imageTexture
      case .color(let colour):
        if let existing = colourTextures[colour] {
          quad.texture = existing
        } else {
          quad.texture = textures.count
          colourTextures[colour] = textures.count
          textures.append(RGBAImage(width: 1, height: 1, fill: RGBAImage.premultiplied(colour)))
        }
        quad.textureCorners = _TransitionDrawList.texelCentre
      }
      if let mask = layer.mask {
        if !run.isEmpty { steps.append(.quads(run)) }
        run.removeAll(keepingCapacity: true)
        steps.append(.masked(quad, mask: mask))
      } else {
        run.append(quad)
      }
    }
    if !run.isEmpty { steps.append(.quads(run)) }
  }

  /// Draws the steps in order (the fast kernels, banded as `options` says).
  func draw(into target: inout RGBAImage, view: AffineTransform2D, options: RasterOptions) {
    for step in steps {
      switch step {
      case .quads(let quads):
        Rasterizer.drawQuads(quads, textures: textures, into: &target, options: options)
      case .masked(let quad, let mask):
        Rasterizer._drawMaskedQuad(
          quad, textures: textures, mask: mask, view: view, into: &target, options: options)
      }
    }
  }

  /// Draws the steps in order through the naive twins.
  func drawNaively(into target: inout RGBAImage, view: AffineTransform2D) {
    for step in steps {
      switch step {
      case .quads(let quads):
        Rasterizer._drawQuadsNaive(quads, textures: textures, into: &target)
      case .masked(let quad, let mask):
        Rasterizer._drawMaskedQuadNaive(quad, textures: textures, mask: mask, view: view, into: &target)
      }
    }
  }
}
