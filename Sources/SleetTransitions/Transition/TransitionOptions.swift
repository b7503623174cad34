import SleetMath
import SleetShatter

/// The inputs some styles need besides the container and the direction.
/// An option a style does not use must stay nil (``Transition`` refuses it,
/// so a mistaken combination is never silently ignored).
public struct TransitionOptions: Hashable, Sendable {
  /// zoom: the image's rect on the screen it leaves **on push** (the
  /// photo-feed cell), container points. Required by zoom.
  public var imageRect: Rect?
  /// zoom: the image's rect on the screen it arrives at **on push** (the
  /// detail screen). Required by zoom. Pop flies from `targetRect` back to
  /// `imageRect` (seed 002a keeps both rects and swaps them).
  public var targetRect: Rect?
  /// circleReveal: the button's frame on the from screen of the push.
  /// Required by circleReveal.
  public var button: Rect?
  /// checkerboard, explode, glassBreak: the tile divisor (default
  /// ``CheckerboardPlan/defaultDivisor``, 10: Apple's sample; seed 002's
  /// article writes 8).
  public var divisor: Int?
  /// explode, glassBreak: the random seed (default 0).
  public var seed: UInt64?

  /// - Complexity: O(1).
  public init(
    imageRect: Rect? = nil, targetRect: Rect? = nil, button: Rect? = nil, divisor: Int? = nil,
    seed: UInt64? = nil
  ) {
    self.imageRect = imageRect
    self.targetRect = targetRect
    self.button = button
    self.divisor = divisor
    self.seed = seed
  }
}
