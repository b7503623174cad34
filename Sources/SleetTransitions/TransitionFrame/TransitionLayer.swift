import SleetMath

/// What a layer shows.
public enum TransitionContent: Hashable, Sendable {
  /// The from screen's snapshot (the screen shown first), or the part of it
  /// given by the layer's ``TransitionLayer/textureCorners``.
  case fromScreen
  /// The to screen's snapshot (the screen shown at the end), or part of it.
  case toScreen
  /// A solid colour (a dimming layer, the container's background, a hidden
  /// view's place).
  case color(ColorRGBA)
  /// The zoom style's flying image.
  case image

  /// The name used by `sleet transition frame --json`: `from`, `to`,
  /// `color` or `image`.
  public var name: String {
    switch self {
    case .fromScreen: "from"
    case .toScreen: "to"
    case .color: "color"
    case .image: "image"
    }
  }
}

/// One layer of a ``TransitionFrame``: a textured (or solid) quadrilateral in
/// the container, with the transform that places it.
///
/// Geometry: ``transform`` maps the **unit square** `(u, v, 0)` (u right, v
/// down, TL = (0, 0)) onto the layer in container space, everything included
/// (bounds, anchor point at the centre, the layer's own 3D transform with any
/// perspective in it, position). ``corners`` are the unit corners projected
/// through it, `(x/w, y/w)` in container points, TL TR BR BL; NaN when a
/// corner lies at or behind the eye (`w ≤ 0`: skip the layer).
/// A layer without a transform of its own and with frame (x, y, w, h) has
/// `transform` = diag(w, h, 1, 1) with row 4 = (x, y, 0, 1) and corners
/// (x, y), (x+w, y), (x+w, y+h), (x, y+h).
public struct TransitionLayer: Hashable, Sendable {
  /// What the layer shows.
  public var content: TransitionContent
  /// The part of the content drawn, as its four corners TL TR BR BL in unit
  /// texture coordinates ((0, 0) top-left, (1, 1) bottom-right of the
  /// snapshot or image): ``Quad2D/unit`` for a whole screen, a sub-square for
  /// a checkerboard tile. Ignored for ``TransitionContent/color(_:)``.
  public var textureCorners: Quad2D
  /// The projected quad in container points, TL TR BR BL.
  public var corners: Quad2D
  /// Unit square → container space, before the perspective divide.
  public var transform: Transform3D
  /// Opacity in [0, 1].
  public var opacity: Float
  /// The oval mask, if any: only the part of the layer inside the ellipse
  /// inscribed in this rect (container points) is drawn. Circle reveal
  /// masks an untransformed full-container layer, so its mask rect is the
  /// same in layer and container coordinates.
  public var mask: Rect?
  /// The largest container-space z of the corners before the perspective
  /// divide (0 for a flat layer). Layers are already in drawing order; depth
  /// is what the shatter styles sorted by, kept for renderers that use a
  /// depth buffer.
  public var depth: Float

  /// - Complexity: O(1).
  public init(
    content: TransitionContent, textureCorners: Quad2D = .unit, corners: Quad2D,
    transform: Transform3D, opacity: Float = 1, mask: Rect? = nil, depth: Float = 0
  ) {
    self.content = content
    self.textureCorners = textureCorners
    self.corners = corners
    self.transform = transform
    self.opacity = opacity
    self.mask = mask
    self.depth = depth
  }
}
