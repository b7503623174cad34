import SleetMath

/// One behavior parameter over the emitter's time: its value at time 0 and
/// the changes of it, stepped or animated (`docs/semantics.md`, "Animated
/// changes"). A behavior parameter acts with its value at each time, on
/// every live particle.
///
/// Up to four components (a scalar in `x`; `force` in x, y, z; `position`
/// in x, y). A change sets the components its key path names (`force`
/// all three, `force.y` one): `mask` keeps the others.
///
/// ```
/// value(T) = fold over the changes with time ≤ T, in order:
///   stepped, or T ≥ time + duration   →  the change's final value
///   basic animation                   →  start + (target − start)·timing((T − time)/duration)
///   keyframes                         →  piecewise linear in keyTimes at timing((T − time)/duration)
/// ```
///
/// where `start` is the value at the change's own time (a later animation
/// starts from where earlier ones had brought the parameter).
struct ParameterTrack: Hashable, Sendable {
  struct Change: Hashable, Sendable {
    var time: Double
    var duration: Double
    var timing: TimingFunction
    /// Fractions of the duration; empty for a basic animation or a step.
    var keyTimes: [Double]
    var keyValues: [SIMD4<Double>]
    var target: SIMD4<Double>
    /// −1 (all bits) in the components the change sets.
    var mask: SIMD4<Int64>
    /// The value at `time`, before this change (filled by `init`).
    var start: SIMD4<Double> = .zero
  }

  let initial: SIMD4<Double>
  /// Sorted by time (stably).
  let changes: [Change]

  /// A track from `initial` through `changes` (any order: sorted here,
  /// stably, as `Effect` sorts changes).
  init(initial: SIMD4<Double>, changes: [Change]) {
    self.initial = initial
    var sorted = changes.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(
      \.element)
    for i in sorted.indices {
      sorted[i].start = Self.fold(initial, sorted[..<i], at: sorted[i].time)
    }
    self.changes = sorted
  }

  /// A parameter that never changes.
  init(constant value: SIMD4<Double>) {
    initial = value
    changes = []
  }

  /// Whether the value is the same at every time.
  var isConstant: Bool { changes.isEmpty }

  /// The value at emitter time `T`.
  /// - Complexity: O(changes); O(1) for a constant track.
  func value(at T: Double) -> SIMD4<Double> {
    changes.isEmpty ? initial : Self.fold(initial, changes[...], at: T)
  }

  private static func fold(_ initial: SIMD4<Double>, _ changes: ArraySlice<Change>, at T: Double) -> SIMD4<Double> {
    var v = initial
    for c in changes {
      guard c.time <= T else { break }
      let now: SIMD4<Double>
      if c.duration <= 0 || T >= c.time + c.duration {
        now = c.target
      } else {
        // `pace` is the identity for a linear timing function (its Bézier
        // solver is exact only to about 10⁻⁶).
        let y = PropertyChange.pace(c.timing, (T - c.time) / c.duration)
        now = c.keyValues.isEmpty ? c.start + (c.target - c.start) * y : keyframe(c, at: y)
      }
      v.replace(with: now, where: c.mask .!= 0)
    }
    return v
  }

  /// The keyframes of `c` at progress `y`: held before the first key time
  /// and after the last, linear between.
  private static func keyframe(_ c: Change, at y: Double) -> SIMD4<Double> {
    let k = c.keyTimes
    if y <= k[0] { return c.keyValues[0] }
    for i in 1..<k.count where y < k[i] {
      let span = k[i] - k[i - 1]
      guard span > 0 else { return c.keyValues[i] }
      return c.keyValues[i - 1] + (c.keyValues[i] - c.keyValues[i - 1]) * ((y - k[i - 1]) / span)
    }
    return c.keyValues[k.count - 1]
  }
}
