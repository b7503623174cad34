/// Frame delays on a format's whole-tick clock (WebP: milliseconds, GIF:
/// centiseconds), without drift.
///
/// A format that stores a frame's delay as a whole number of ticks cannot
/// store 1/30 s exactly. Rounding each delay on its own would drift (30 fps
/// in centiseconds: 3 cs a frame is 0.9 s a second, 4 cs is 1.2 s). Instead
/// the *start* of every frame is rounded: frame k starts at
///
/// ```
/// Tₖ = d₀ + d₁ + … + dₖ₋₁              (exact seconds, the FrameDelays' sum)
/// startₖ = ⌊Tₖ · ticksPerSecond + ½⌋   (nearest tick)
/// delayₖ = startₖ₊₁ − startₖ            (ticks)
/// ```
///
/// so each delay is within one tick of exact (30 fps in centiseconds:
/// 3, 3, 4, 3, 3, 4, … cs) and every frame starts within half a tick of its
/// exact time: the total never drifts. Tₖ is summed in `Double`; after the
/// 100 000 frames `sleet` allows, its error is below 10⁻⁹ s, far inside half
/// a tick.
struct _AnimationTicks: Sendable {
  /// Ticks per second: 1000 or 100.
  let ticksPerSecond: Double
  /// Tₖ, the exact start of the next frame in seconds.
  private(set) var elapsed: Double = 0
  /// startₖ of the next frame, in ticks.
  private(set) var startTick = 0

  init(ticksPerSecond: Double) { self.ticksPerSecond = ticksPerSecond }

  /// Advances past a frame shown for `delay`; returns its start and end in ticks.
  mutating func advance(by delay: FrameDelay) -> (start: Int, end: Int) {
    elapsed += delay.seconds
    let start = startTick
    startTick = Int((elapsed * ticksPerSecond).rounded(.toNearestOrAwayFromZero))
    return (start, startTick)
  }
}

/// Why an animation encoder (``WebPAnimationEncoder``, ``GIFStreamEncoder``)
/// could not encode: the library's own message (out of memory, a lossy
/// frame too large for its first partition, a file past 4 GiB, …).
public struct AnimationEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The format and the library's message, e.g. "WebP: …".
  public var reason: String

  /// An error with `reason` as its message.
  public init(reason: String) { self.reason = reason }

  public var description: String { reason }
}
