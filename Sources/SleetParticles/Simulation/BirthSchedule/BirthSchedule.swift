/// When the particles of one emitter (a top-level cell, or one sub-cell of one
/// parent particle) are born: a piecewise-linear rate integrated from the
/// start of an activity window.
///
/// ```
/// I(t) = ∫[window.start, t] rate(τ) dτ           rate piecewise linear
/// birth k (k = 0, 1, 2, …) happens at the t where I(t) = k + 1 − window.phase,
/// if its offset t − window.start is < window.length   (ActivityWindow's rule)
/// ```
///
/// so the first birth is at `window.start + 1/rate` (phase 0: no
/// `timeOffset`), never at the start (`semantics.md`, "Birth schedule"). A rate
/// change at time t₀ (a key-path change) changes the slope of I from t₀ on.
///
/// Segment j's rate is `rates[j] + slopes[j] · (t − segmentStarts[j])`. Every
/// slope is 0 unless a birth rate is animated (`semantics.md`, "Animated
/// birth rates"); a schedule without slopes runs the piecewise-constant code
/// alone, operation for operation. In a sloped segment, with r the rate where
/// the walk enters it and s its slope, the integral after τ seconds and its
/// inverse are
///
/// ```
/// I(τ) = r·τ + ½·s·τ²        τ(rest) = 2·rest / (r + √(r² + 2·s·rest))
/// ```
///
/// the root on which the rate r + s·τ is still ≥ 0, written without the
/// cancellation of (−r + √…)/s; no square root is taken of a negative number
/// (when r² + 2·s·rest < 0 the rest is not reached in the segment).
///
/// Implementation goals, in order: (1) every birth time is a pure function of
/// the schedule and k, computed the same way on every path (seek, step, any
/// thread), so all paths agree bit for bit; (2) counting births up to t costs
/// O(segments), not O(births).
///
/// **Precision:** times and integrals are `Double`; a birth time is within a few
/// ulps of the exact crossing. Counting is exact *with respect to the computed
/// birth times*: `count(upTo: t)` is the number of k with `birthTime(k) ≤ t`.
struct BirthSchedule: Sendable {
  /// Start time of each rate segment, ascending; the first is −∞.
  var segmentStarts: [Double]
  /// Births per second at the start of each segment (≥ 0; 0 when the cell
  /// is disabled).
  var rates: [Double]
  /// Change of the rate per second within each segment (births per second²):
  /// 0 for a constant rate. The first and the last segment (unbounded) have
  /// slope 0, and a segment's rate stays ≥ 0 up to its end.
  var slopes: [Double]
  /// Whether some slope is not 0: only then do the functions below take
  /// their piecewise-linear paths.
  private(set) var isSloped: Bool

  /// A piecewise-constant schedule.
  init(segmentStarts: [Double], rates: [Double]) {
    precondition(segmentStarts.count == rates.count && !rates.isEmpty)
    self.segmentStarts = segmentStarts
    self.rates = rates.map { $0.isFinite && $0 > 0 ? $0 : 0 }
    slopes = Array(repeating: 0, count: rates.count)
    isSloped = false
  }

  /// A piecewise-linear schedule: segment j runs from `rates[j]` with slope
  /// `slopes[j]`. Non-finite slopes and slopes of the unbounded first and
  /// last segments count as 0.
  init(segmentStarts: [Double], rates: [Double], slopes: [Double]) {
    precondition(slopes.count == rates.count)
    self.init(segmentStarts: segmentStarts, rates: rates)
    let last = slopes.count - 1
    self.slopes = slopes.indices.map { j in j > 0 && j < last && slopes[j].isFinite ? slopes[j] : 0 }
    isSloped = self.slopes.contains { $0 != 0 }
  }

  /// The largest rate anywhere: a linear segment's largest is at one of its
  /// ends.
  var maximumRate: Double {
    guard isSloped else { return rates.max() ?? 0 }
    var m = 0.0
    for j in rates.indices {
      m = Swift.max(m, rates[j])
      if slopes[j] != 0 { m = Swift.max(m, rates[j] + slopes[j] * (segmentStarts[j + 1] - segmentStarts[j])) }
    }
    return m
  }

  /// The rate (births per parent second) in force at time `t`.
  func rate(at t: Double) -> Double {
    let j = segment(containing: t)
    guard isSloped, slopes[j] != 0 else { return rates[j] }
    return Swift.max(0, rates[j] + slopes[j] * (t - segmentStarts[j]))
  }

  /// The time of birth `k` in `window`, or nil when the window closes first
  /// (``ActivityWindow/contains(offset:)``):
  ///
  /// ```
  /// uniform rate r:  offset(k) = (k + 1 − phase) / r,   time = start + offset
  /// ```
  ///
  /// With rate segments the integral is walked segment by segment from the
  /// opening; the time is the segment's start plus the rest of the integral
  /// (a change time is never re-rounded through the opening).
  /// - Complexity: O(segments).
  func birthTime(_ k: Int, in window: ActivityWindow) -> Double? {
    // phase ∈ [0, 1); subtracting 0 leaves k + 1 exact.
    let target = Double(k) + 1 - window.phase
    if rates.count == 1 {
      let r = rates[0]
      guard r > 0 else { return nil }
      let offset = target / r
      return window.contains(offset: offset) ? window.start + offset : nil
    }
    if isSloped { return slopedBirthTime(target: target, in: window) }
    var accumulated = 0.0
    var j = segment(containing: window.start)
    while j < rates.count {
      let from = Swift.max(segmentStarts[j], window.start)
      let to = j + 1 < rates.count ? segmentStarts[j + 1] : .infinity
      let r = rates[j]
      if r > 0 {
        let rest = (target - accumulated) / r
        if from + rest <= to || j + 1 == rates.count {
          let offset = (from - window.start) + rest
          return window.contains(offset: offset) ? from + rest : nil
        }
        accumulated += r * (to - from)
      }
      if !window.contains(offset: to - window.start) { return nil }
      j += 1
    }
    return nil
  }

  /// ``birthTime(_:in:)`` of births `k ..< k + lanes` (lanes 1…8) of a
  /// one-rate schedule, in one vector step: lane l is birth k + l, bit for
  /// bit. `Double(k) + l` is exact while k + 8 ≤ 2⁵³, so it equals
  /// `Double(k + l)`; the rest is the scalar path's IEEE operations in its
  /// order, per lane ((target − phase) / r, then start + offset). Lanes at
  /// or past `lanes` are computed and meaningless.
  ///
  /// Nil (the caller then asks per birth) when the schedule has several
  /// segments or no births, when k is too large for the exact sum, or when
  /// birth k + lanes − 1 is outside the window. The offsets grow with l (the
  /// targets do, and dividing by a positive rate keeps their order), so the
  /// last lane asked for decides for all.
  @inline(__always)
  func uniformBirthTimes(_ k: Int, in window: ActivityWindow, lanes: Int) -> SIMD8<Double>? {
    guard rates.count == 1, k >= 0, k <= (1 << 53) - 8, lanes >= 1, lanes <= 8 else { return nil }
    let r = rates[0]
    guard r > 0 else { return nil }
    let lane = SIMD8<Double>(0, 1, 2, 3, 4, 5, 6, 7)
    let target = ((SIMD8(repeating: Double(k)) + lane) + 1) - window.phase
    let offset = target / r
    guard window.contains(offset: offset[lanes - 1]) else { return nil }
    return window.start + offset
  }

  /// The number of births in `window` whose time is ≤ `t`.
  /// - Complexity: O(segments).
  func count(in window: ActivityWindow, upTo t: Double) -> Int {
    let limit = Swift.min(t, window.end)
    guard limit > window.start else { return 0 }
    let integral = self.integral(from: window.start, to: limit) + window.phase
    // The floor of the integral is right to within rounding; settle it
    // against the birth times themselves so every path counts the same way.
    var n = Int(Swift.min(integral, Double(Int.max / 2)).rounded(.down))
    while n > 0, let b = birthTime(n - 1, in: window), b > t { n -= 1 }
    while n > 0, birthTime(n - 1, in: window) == nil { n -= 1 }
    while let b = birthTime(n, in: window), b <= t { n += 1 }
    return n
  }

  /// ∫[start, t] rate.
  func integral(from start: Double, to t: Double) -> Double {
    guard t > start else { return 0 }
    if rates.count == 1 { return rates[0] * (t - start) }
    if isSloped { return slopedIntegral(from: start, to: t) }
    var sum = 0.0
    var j = segment(containing: start)
    while j < rates.count {
      let from = Swift.max(segmentStarts[j], start)
      let to = Swift.min(j + 1 < rates.count ? segmentStarts[j + 1] : .infinity, t)
      if to > from { sum += rates[j] * (to - from) }
      if to >= t { break }
      j += 1
    }
    return sum
  }

  /// The index of the segment whose range contains `t`.
  func segment(containing t: Double) -> Int {
    var lo = 0
    var hi = segmentStarts.count - 1
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if segmentStarts[mid] <= t { lo = mid } else { hi = mid - 1 }
    }
    return lo
  }

  /// ``birthTime(_:in:)`` of a schedule with slopes: the same walk, each
  /// segment inverted by its own law (see the type's comment).
  /// - Complexity: O(segments).
  private func slopedBirthTime(target: Double, in window: ActivityWindow) -> Double? {
    var accumulated = 0.0
    var j = segment(containing: window.start)
    while j < rates.count {
      let from = Swift.max(segmentStarts[j], window.start)
      let to = j + 1 < rates.count ? segmentStarts[j + 1] : .infinity
      let s = slopes[j]
      if s == 0 {
        let r = rates[j]
        if r > 0 {
          let rest = (target - accumulated) / r
          if from + rest <= to || j + 1 == rates.count {
            let offset = (from - window.start) + rest
            return window.contains(offset: offset) ? from + rest : nil
          }
          accumulated += r * (to - from)
        }
      } else {
        let r = Swift.max(0, rates[j] + s * (from - segmentStarts[j]))
        let rest = target - accumulated
        let discriminant = r * r + 2 * s * rest
        if discriminant >= 0 {
          // rest ≤ 0 only by rounding at a segment's end: the birth is at
          // the segment's start, after every earlier one.
          let tau = rest > 0 ? 2 * rest / (r + discriminant.squareRoot()) : 0
          if from + tau <= to {
            let offset = (from - window.start) + tau
            return window.contains(offset: offset) ? from + tau : nil
          }
        }
        accumulated += segmentIntegral(j, from: from, to: to)
      }
      if !window.contains(offset: to - window.start) { return nil }
      j += 1
    }
    return nil
  }

  /// ``integral(from:to:)`` of a schedule with slopes.
  private func slopedIntegral(from start: Double, to t: Double) -> Double {
    var sum = 0.0
    var j = segment(containing: start)
    while j < rates.count {
      let from = Swift.max(segmentStarts[j], start)
      let to = Swift.min(j + 1 < rates.count ? segmentStarts[j + 1] : .infinity, t)
      if to > from { sum += segmentIntegral(j, from: from, to: to) }
      if to >= t { break }
      j += 1
    }
    return sum
  }

  /// ∫[a, b] of segment j's rate (segmentStarts[j] ≤ a ≤ b ≤ the segment's
  /// end): the width times the rate at the midpoint, exact for a linear rate.
  @inline(__always)
  private func segmentIntegral(_ j: Int, from a: Double, to b: Double) -> Double {
    let s = slopes[j]
    if s == 0 { return rates[j] * (b - a) }
    let start = segmentStarts[j]
    return Swift.max(0, (b - a) * (rates[j] + 0.5 * s * ((a - start) + (b - start))))
  }
}
