import SleetMath
import SleetShatter

/// The output of every transition style at one instant: the layers to draw,
/// back to front. One renderer draws every style from this type alone.
///
/// The container is W × H points, y down, origin at its top-left corner.
/// Nothing is drawn behind the first layer (transparent), so styles whose
/// container has a colour start with a ``TransitionContent/color(_:)`` layer.
///
/// Allocate once with ``Transition/makeFrame()`` and reuse it with
/// ``Transition/evaluate(at:into:backend:threads:)``: the layer array keeps its
/// capacity.
public struct TransitionFrame: Sendable {
  /// The style that made the frame.
  public let style: TransitionStyle
  /// The transition time the frame shows, in seconds.
  public internal(set) var time: Double = 0
  /// Whether the transition is over at ``time`` (every value at its end).
  public internal(set) var isComplete: Bool = false
  /// The container size W × H in points: W.
  public let containerWidth: Double
  /// The container height H, points.
  public let containerHeight: Double
  /// The layers, back to front.
  public internal(set) var layers: [TransitionLayer] = []

  /// The shatter styles evaluate into this first (nil for the other styles).
  internal var _shatter: ShatterFrame?
  /// The shatter styles' draw order scratch.
  internal var _order: [Int32] = []

  internal init(style: TransitionStyle, width: Double, height: Double, shatter: ShatterFrame?) {
    self.style = style
    containerWidth = width
    containerHeight = height
    _shatter = shatter
  }

  /// The number of layers.
  @inlinable
  public var count: Int { layers.count }
}
