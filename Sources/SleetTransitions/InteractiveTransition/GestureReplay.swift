/// A recorded pan gesture played through an ``InteractiveTransition``: what
/// UIKit does with an edge pan, as a pure function of the gesture's clock.
///
/// ```
/// τ < t₀ (first sample)          p = 0
/// t₀ ≤ τ < tₙ (last sample)      p = clamp(s·x(τ)/extent, 0, 1)  x(τ): the latest sample at or before τ
/// τ = tₙ                          the finger lifts: finish or cancel by the style's rule
///                                 with the progress of sample n and the velocity s·v
/// τ > tₙ                          the completion runs at completionSpeed (captured at tₙ)
/// ```
///
/// s is +1 for a rightward pan and −1 for a leftward one
/// (``PanGesture/direction``): progress and velocity are measured toward
/// completion (``PanGesture/forwardTranslation(at:)``,
/// ``PanGesture/forwardVelocity``), so a leftward pan replays exactly as its
/// mirror image does. A finger that moves back past its start clamps to 0.
/// Whether the pan may drive the transition's direction is
/// ``PanGesture/check(drives:)``'s question, asked before the replay.
///
/// The transition time at any τ is `p(τ)·D`. ``endClock`` is when the
/// completion lands (tₙ + Δ).
public struct GestureReplay: Hashable, Sendable {
  /// The recorded gesture.
  public let gesture: PanGesture
  /// The translation that completes the gesture: the container width W for an
  /// edge pan.
  public let extent: Double
  /// Whether the transition finishes (true) or cancels (false) when the
  /// finger lifts.
  public let finishes: Bool
  /// The driver after the finger lifted (its completion captured at tₙ).
  public let interaction: InteractiveTransition

  /// Plays `gesture` through a copy of `interaction` (its duration, speed,
  /// curve and finish rule).
  ///
  /// - Precondition: `extent` is positive and finite.
  /// - Complexity: O(log samples).
  public init(_ gesture: PanGesture, extent: Double, interaction: InteractiveTransition) {
    precondition(extent > 0 && extent.isFinite, "GestureReplay: extent must be positive and finite, got \(extent)")
    self.gesture = gesture
    self.extent = extent
    var driver = interaction
    driver.update(
      InteractiveTransition.progress(translation: gesture.forwardTranslation(at: gesture.endTime), extent: extent))
    finishes = driver.endInteraction(velocity: gesture.forwardVelocity, at: gesture.endTime)
    self.interaction = driver
  }

  /// When the completion lands on 1 or 0 (gesture clock, seconds).
  public var endClock: Double { gesture.endTime + interaction.completionDuration }

  /// The progress at gesture clock `clock`.
  /// - Complexity: O(log samples).
  public func progress(at clock: Double) -> Double {
    if clock < gesture.endTime {
      return InteractiveTransition.progress(translation: gesture.forwardTranslation(at: clock), extent: extent)
    }
    return interaction.progress(at: clock)
  }

  /// The transition time at gesture clock `clock`: `progress(at: clock)·D`.
  /// - Complexity: O(log samples).
  public func transitionTime(at clock: Double) -> Double {
    InteractiveTransition.time(forProgress: progress(at: clock), duration: interaction.duration)
  }

  /// How many clocks ``clocks(fps:hold:)`` returns: ⌈(end − t₀)·fps⌉ + 1,
  /// or nil when that is not a count (over 2⁵³, or not finite: a gesture
  /// file can span 10³⁰⁸ s). Check it before asking for the clocks.
  /// - Precondition: `fps` > 0, `hold` ≥ 0.
  /// - Complexity: O(1).
  public func frameCount(fps: Int, hold: Double = 0) -> Int? {
    precondition(fps > 0 && hold >= 0, "GestureReplay: fps must be positive and hold non-negative")
    let frames = ((endClock + hold - gesture.startTime) * Double(fps)).rounded(.up) + 1
    return frames <= 0x1p53 ? Int(frames) : nil
  }

  /// Frame clocks from the first sample to ``endClock`` at `fps`, plus `hold`
  /// seconds of the final state: tₒ + k/fps, the last one clamped to the end.
  /// - Precondition: `fps` > 0, `hold` ≥ 0, and ``frameCount(fps:hold:)`` is
  ///   not nil.
  /// - Complexity: O(frames).
  public func clocks(fps: Int, hold: Double = 0) -> [Double] {
    guard let count = frameCount(fps: fps, hold: hold) else {
      preconditionFailure("GestureReplay.clocks: the gesture spans too long to count its frames (see frameCount)")
    }
    let start = gesture.startTime
    let end = endClock + hold
    return (0..<count).map { Swift.min(end, start + Double($0) / Double(fps)) }
  }
}
