import SleetMath

/// Draws the library's per-frame output — particle frames and textured quads
/// (shatter pieces) — into an ``RGBAImage``, the way a GPU renderer would.
///
/// Coordinates: primitives arrive in layer space (points, y down);
/// ``viewTransform`` maps layer space to image pixels (pixel centres at
/// half-integers; see ``RGBAImage``). The renderer never clears: clear the image
/// to the container's background first (``RGBAImage/clear(to:)``).
///
/// All drawing goes through ``Rasterizer`` and is bit-identical for any
/// ``RasterOptions``.
public struct Renderer: Sendable {
  /// Layer space (points) → image pixels, row vectors (`CGAffineTransform`).
  public var viewTransform: AffineTransform2D
  /// Band height and parallelism.
  public var options: RasterOptions

  /// A renderer mapping layer space to pixels by `viewTransform` (identity:
  /// one pixel per point).
  public init(viewTransform: AffineTransform2D = .identity, options: RasterOptions = RasterOptions()) {
    self.viewTransform = viewTransform
    self.options = options
  }

  /// A renderer whose view scales layer points by `pixelsPerPoint` (origin at
  /// the image's top-left corner). Pair it with a ``SpriteLibrary`` of the same
  /// density.
  /// - Precondition: `pixelsPerPoint` finite and > 0.
  public init(pixelsPerPoint: Float, options: RasterOptions = RasterOptions()) {
    precondition(
      pixelsPerPoint > 0 && pixelsPerPoint.isFinite,
      "Renderer: pixelsPerPoint must be finite and > 0, got \(pixelsPerPoint)")
    self.init(
      viewTransform: AffineTransform2D(a: pixelsPerPoint, b: 0, c: 0, d: pixelsPerPoint, tx: 0, ty: 0),
      options: options)
  }
}
