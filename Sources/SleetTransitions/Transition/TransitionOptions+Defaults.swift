import SleetMath

extension TransitionOptions {
  /// The container the default rects are laid out for: an iPhone's portrait
  /// screen in points (390 × 844), the size `sleet demo` and `sleet render`
  /// use.
  public static let defaultLayoutSize = (width: 390.0, height: 844.0)

  /// The factor the default rects are scaled by in a W × H container:
  /// `s = min(1, W/390, H/844)`. Interface elements keep their size in
  /// points on larger screens (as UIKit lays them out) and shrink with a
  /// container smaller than 390 × 844, so every default fits any container.
  /// - Complexity: O(1).
  public static func defaultLayoutScale(width: Double, height: Double) -> Double {
    Swift.min(1, width / defaultLayoutSize.width, height / defaultLayoutSize.height)
  }

  /// zoom's default ``imageRect``: the photo-feed cell
  /// `(24, 160, 160, 160)·s` (``defaultLayoutScale(width:height:)``).
  /// - Complexity: O(1).
  public static func defaultImageRect(width: Double, height: Double) -> Rect {
    let s = defaultLayoutScale(width: width, height: height)
    return Rect(x: 24 * s, y: 160 * s, width: 160 * s, height: 160 * s)
  }

  /// zoom's default ``targetRect``: the detail screen's image, a square
  /// below an 88·s-point navigation bar, as wide as the container when the
  /// height allows (side `min(W, H − 88·s)`, centred horizontally).
  /// - Complexity: O(1).
  public static func defaultTargetRect(width: Double, height: Double) -> Rect {
    let s = defaultLayoutScale(width: width, height: height)
    let top = 88 * s
    var side = Swift.min(width, height - top)
    // One rounding in `top + side` or `x + side` can land an ulp past the
    // container's edge; the largest side that fits is a few ulps smaller.
    while top + side > height || (width - side) / 2 + side > width { side = side.nextDown }
    return Rect(x: (width - side) / 2, y: top, width: side, height: side)
  }

  /// circleReveal's default ``button``: a 44·s-point button 20·s points in
  /// from the top-right corner's margins, `(W − 64·s, 56·s, 44·s, 44·s)`.
  /// - Complexity: O(1).
  public static func defaultButton(width: Double, height: Double) -> Rect {
    let s = defaultLayoutScale(width: width, height: height)
    return Rect(x: width - 64 * s, y: 56 * s, width: 44 * s, height: 44 * s)
  }

  /// These options with every rect `style` needs and was not given set to
  /// its default for a `width` × `height` container (``defaultImageRect(width:height:)``,
  /// ``defaultTargetRect(width:height:)``, ``defaultButton(width:height:)``);
  /// the given rects and the other options are kept as they are.
  ///
  /// At 390 × 844 points and larger the defaults are those of `sleet demo`.
  /// For a container smaller than 390 × 844 they shrink by
  /// ``defaultLayoutScale(width:height:)`` and always lie inside it.
  /// - Complexity: O(1).
  public func filled(for style: TransitionStyle, width: Double, height: Double) -> TransitionOptions {
    var options = self
    switch style {
    case .zoom:
      if options.imageRect == nil { options.imageRect = Self.defaultImageRect(width: width, height: height) }
      if options.targetRect == nil { options.targetRect = Self.defaultTargetRect(width: width, height: height) }
    case .circleReveal:
      if options.button == nil { options.button = Self.defaultButton(width: width, height: height) }
    case .slide, .fade, .window, .tilt3D, .checkerboard, .explode, .glassBreak:
      break
    }
    return options
  }
}
