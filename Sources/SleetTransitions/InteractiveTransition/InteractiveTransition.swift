import SleetMath
import SleetShatter

/// The semantics of `UIPercentDrivenInteractiveTransition` for any
/// ``Transition`` (every style), as a value driven by explicit times (no
/// clocks are read).
///
/// A gesture drives the transition's timeline by progress p ∈ [0, 1]
/// (``update(_:)``); p maps to transition time `p · D`, with D = ``duration``
/// the style's nominal duration (``ShatterTransition/duration``: the animator's
/// `transitionDuration`, 3.0 s for the checkerboard), not the time its last
/// piece lands. When the gesture ends, ``finish(at:)`` plays the rest forward
/// and ``cancel(at:)`` plays it back. Both capture `completionSpeed` and
/// `completionCurve` when called, as
///
/// ```
/// Δ = (1 − p₀)·D / completionSpeed      finish (target 1)
/// Δ =      p₀ ·D / completionSpeed      cancel (target 0)
/// p(τ) = p₀                                                     τ ≤ τ₀
/// p(τ) = p₀ + (target − p₀) · completionCurve((τ − τ₀)/Δ)      τ₀ < τ < τ₀ + Δ
/// p(τ) = target (exactly 1 or 0)                               τ ≥ τ₀ + Δ
/// ```
///
/// where τ is the caller's clock in seconds, τ₀ the time of the call and p₀
/// the progress at τ₀. With the default linear `completionCurve` the
/// transition time runs at exactly `completionSpeed` seconds per second
/// (`t(τ) = p₀·D ± completionSpeed·(τ − τ₀)`), which is the binding rule
/// (`transitions.md`: the animation "runs on to D or back to 0 at
/// completionSpeed in wall time, its own curves still applying"). The
/// per-piece timing curves are untouched: they run on the transition's own
/// timeline, exactly as UIKit resumes the paused layer animations.
///
/// Changing ``completionSpeed`` or ``completionCurve`` while a completion
/// runs does not affect it (its Δ and curve were captured, so p(τ) stays
/// continuous); the new values apply from the next ``finish(at:)`` or
/// ``cancel(at:)``.
///
/// Reversible at any point: ``update(_:)`` takes the transition back under the
/// finger from any phase (an interrupted completion is "caught"), and
/// ``finish(at:)``/``cancel(at:)`` may be called while completing to turn
/// around from the current position (p₀ = p(τ₀) of the running completion).
public struct InteractiveTransition: Hashable, Sendable {
  /// Where the transition is.
  public enum Phase: Hashable, Sendable {
    /// Following ``update(_:)``.
    case interactive
    /// Playing forward to 1 after ``finish(at:)``.
    case finishing
    /// Playing back to 0 after ``cancel(at:)``.
    case cancelling
    /// Landed on 1: the transition completed.
    case finished
    /// Landed on 0: the transition was cancelled.
    case cancelled
  }

  /// D: the transition time that progress 1 maps to, the style's nominal
  /// duration (``Transition/duration``).
  public let duration: Double
  /// How ``endInteraction(velocity:at:)`` decides (the style's
  /// ``TransitionStyle/finishRule``).
  public let finishRule: FinishRule
  /// UIKit's `completionSpeed`: 1 plays the rest at the transition's own pace.
  /// Read by ``finish(at:)`` and ``cancel(at:)``; setting it does not change a
  /// completion already running.
  public var completionSpeed: Double {
    didSet {
      precondition(
        completionSpeed > 0 && completionSpeed.isFinite,
        "InteractiveTransition: completionSpeed must be positive and finite, got \(completionSpeed)")
    }
  }
  /// The curve a completion maps its elapsed fraction through (default
  /// `.linear`: the timeline runs at exactly `completionSpeed`, as the binding
  /// rules say; UIKit's property defaults to easeInOut, see `docs/shatter.md`).
  /// Read by ``finish(at:)`` and ``cancel(at:)``; setting it does not change a
  /// completion already running.
  public var completionCurve: TimingFunction

  private var _mode: _Mode = .interactive
  /// Progress when interactive, or where the running completion started (p₀).
  private var _anchor: Double = 0
  /// The clock time the running completion started (τ₀).
  private var _start: Double = 0
  /// The running completion's length Δ in clock seconds, captured at τ₀.
  private var _span: Double = 0
  /// Where the running completion lands, τ₀ + Δ as the caller computes it
  /// (`clock + completionDuration`): compared directly, so the completion has
  /// landed at exactly that clock (τ − τ₀ ≥ Δ can miss it by an ulp).
  private var _end: Double = 0
  /// The running completion's curve, captured at τ₀.
  private var _curve: TimingFunction = .linear

  private enum _Mode: Hashable, Sendable { case interactive, finishing, cancelling }

  /// - Complexity: O(1).
  public init(
    duration: Double, completionSpeed: Double = 1,
    completionCurve: TimingFunction = .linear, finishRule: FinishRule = .pastHalfOrForward
  ) {
    precondition(
      duration > 0 && duration.isFinite,
      "InteractiveTransition: duration must be positive and finite, got \(duration)")
    precondition(
      completionSpeed > 0 && completionSpeed.isFinite,
      "InteractiveTransition: completionSpeed must be positive and finite, got \(completionSpeed)")
    self.duration = duration
    self.finishRule = finishRule
    self.completionSpeed = completionSpeed
    self.completionCurve = completionCurve
  }

  /// Drives a transition: D is its nominal ``Transition/duration`` (not its
  /// ``Transition/endTime``), the finish rule its style's.
  /// - Complexity: O(1).
  public init(
    _ transition: Transition, completionSpeed: Double = 1,
    completionCurve: TimingFunction = .linear
  ) {
    self.init(
      duration: transition.duration, completionSpeed: completionSpeed,
      completionCurve: completionCurve, finishRule: transition.style.finishRule)
  }

  /// Drives a shatter transition directly (D = ``ShatterTransition/duration``,
  /// finish rule p > 0.5 or v > 0).
  /// - Complexity: O(1).
  public init(
    _ transition: ShatterTransition, completionSpeed: Double = 1,
    completionCurve: TimingFunction = .linear
  ) {
    self.init(
      duration: transition.duration, completionSpeed: completionSpeed,
      completionCurve: completionCurve, finishRule: .pastHalfOrForward)
  }

  /// `updateInteractiveTransition(_:)`: sets the progress (clamped to [0, 1];
  /// NaN is a programmer error) and puts the transition under interactive
  /// control, interrupting any completion.
  /// - Complexity: O(1).
  public mutating func update(_ percentComplete: Double) {
    precondition(!percentComplete.isNaN, "InteractiveTransition.update: progress is NaN")
    _mode = .interactive
    _anchor = Swift.min(Swift.max(percentComplete, 0), 1)
  }

  /// `finishInteractiveTransition()` at clock time `clock`: plays from the
  /// current progress to 1 over `(1 − p₀)·D / completionSpeed`.
  /// - Complexity: O(1).
  public mutating func finish(at clock: Double) { _complete(.finishing, at: clock) }

  /// `cancelInteractiveTransition()` at clock time `clock`: plays from the
  /// current progress back to 0 over `p₀·D / completionSpeed`.
  /// - Complexity: O(1).
  public mutating func cancel(at clock: Double) { _complete(.cancelling, at: clock) }

  private mutating func _complete(_ mode: _Mode, at clock: Double) {
    precondition(clock.isFinite, "InteractiveTransition: clock must be finite, got \(clock)")
    let p = progress(at: clock)
    _anchor = p
    _start = clock
    _mode = mode
    _curve = completionCurve
    _span = (mode == .finishing ? 1 - p : p) * duration / completionSpeed
    _end = clock + _span
  }

  /// Ends a pan gesture the way the reference articles do, by
  /// ``finishRule``: finish when past half way (and, for
  /// ``FinishRule/pastHalfOrForward``, also when moving forward:
  /// `velocity > 0`, in any unit where positive means toward completion),
  /// cancel otherwise. Returns whether it finishes.
  /// - Complexity: O(1).
  @discardableResult
  public mutating func endInteraction(velocity: Double, at clock: Double) -> Bool {
    let finishes = finishRule.finishes(progress: progress(at: clock), velocity: velocity)
    if finishes { finish(at: clock) } else { cancel(at: clock) }
    return finishes
  }

  /// `progress > 0.5 || velocity > 0` (``FinishRule/pastHalfOrForward``).
  /// - Complexity: O(1).
  public static func shouldFinish(progress: Double, velocity: Double) -> Bool {
    progress > 0.5 || velocity > 0
  }

  /// A pan's progress: translation along the gesture's axis over the
  /// distance that completes it, clamped to [0, 1].
  /// - Complexity: O(1).
  public static func progress(translation: Double, extent: Double) -> Double {
    precondition(extent > 0, "InteractiveTransition.progress: extent must be positive, got \(extent)")
    return Swift.min(Swift.max(translation / extent, 0), 1)
  }

  /// Δ: how long the running completion takes in clock seconds, as captured
  /// when it started (0 while interactive).
  public var completionDuration: Double {
    _mode == .interactive ? 0 : _span
  }

  /// The progress at clock time `clock`; exactly 1 or 0 once a completion
  /// has landed.
  /// - Complexity: O(1) (one timing-curve evaluation).
  public func progress(at clock: Double) -> Double {
    let target: Double
    switch _mode {
    case .interactive: return _anchor
    case .finishing: target = 1
    case .cancelling: target = 0
    }
    if clock >= _end { return target }
    let elapsed = clock - _start
    if elapsed <= 0 { return _anchor }
    return _anchor + (target - _anchor) * _curve.value(at: elapsed / _span)
  }

  /// The transition time to evaluate at clock time `clock`: `progress · D`.
  /// - Complexity: O(1).
  public func transitionTime(at clock: Double) -> Double {
    InteractiveTransition.time(forProgress: progress(at: clock), duration: duration)
  }

  /// Progress → transition time: `progress · duration`.
  /// - Complexity: O(1).
  public static func time(forProgress progress: Double, duration: Double) -> Double {
    progress * duration
  }

  /// Transition time → progress, `time / duration` clamped to [0, 1].
  /// - Complexity: O(1).
  public static func progress(forTime time: Double, duration: Double) -> Double {
    Swift.min(Swift.max(time / duration, 0), 1)
  }

  /// The phase at clock time `clock`.
  /// - Complexity: O(1).
  public func phase(at clock: Double) -> Phase {
    switch _mode {
    case .interactive: return .interactive
    case .finishing: return clock >= _end ? .finished : .finishing
    case .cancelling: return clock >= _end ? .cancelled : .cancelling
    }
  }
}

extension ShatterTransition {
  /// Evaluates at an interactive transition's current position (see
  /// ``InteractiveTransition/transitionTime(at:)``).
  /// - Complexity: O(pieces).
  public func evaluate(
    _ interaction: InteractiveTransition, at clock: Double, into frame: inout ShatterFrame,
    backend: TransformBackend = .automatic, threads: Int = 1
  ) {
    evaluate(at: interaction.transitionTime(at: clock), into: &frame, backend: backend, threads: threads)
  }
}

extension Transition {
  /// Evaluates at an interactive transition's current position:
  /// `interaction.transitionTime(at: clock)`.
  /// - Complexity: as ``evaluate(at:into:backend:threads:)``.
  public func evaluate(
    _ interaction: InteractiveTransition, at clock: Double, into frame: inout TransitionFrame,
    backend: TransformBackend = .automatic, threads: Int = 1
  ) {
    evaluate(at: interaction.transitionTime(at: clock), into: &frame, backend: backend, threads: threads)
  }
}
