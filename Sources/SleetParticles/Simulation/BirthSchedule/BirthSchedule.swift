/// When the particles of one emitter (a top-level cell, or one sub-cell of one
/// parent particle) are born: a piecewise-constant rate integrated from the
/// start of an activity window.
///
/// ```
/// I(t) = ∫[windowStart, t] rate(τ) dτ            rate piecewise constant
/// birth k (k = 0, 1, 2, …) happens at the t where I(t) = k + 1, if t < windowEnd
/// ```
///
/// so the first birth is at `windowStart + 1/rate`, never at the start
/// (`semantics.md`, "Birth schedule"). A rate change at time t₀ (a key-path
/// change) changes the slope from t₀ on.
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
  /// Births per second in each segment (≥ 0; 0 when the cell is disabled).
  var rates: [Double]

  init(segmentStarts: [Double], rates: [Double]) {
    precondition(segmentStarts.count == rates.count && !rates.isEmpty)
    self.segmentStarts = segmentStarts
    self.rates = rates.map { $0.isFinite && $0 > 0 ? $0 : 0 }
  }

  /// Whether the rate is the same everywhere (the common case: no key-path
  /// changes of this rate), which allows the closed form `start + (k+1)/rate`.
  var isUniform: Bool { rates.allSatisfy { $0 == rates[0] } }

  /// The largest rate of any segment.
  var maximumRate: Double { rates.max() ?? 0 }

  /// The time of birth `k` in the window `[start, end)`, or nil when the
  /// integral never reaches k + 1 before `end`.
  /// - Complexity: O(segments).
  func birthTime(_ k: Int, start: Double, end: Double) -> Double? {
    let target = Double(k) + 1
    if rates.count == 1 {
      let r = rates[0]
      guard r > 0 else { return nil }
      let t = start + target / r
      return t < end ? t : nil
    }
    var accumulated = 0.0
    var j = segment(containing: start)
    while j < rates.count {
      let from = Swift.max(segmentStarts[j], start)
      let to = j + 1 < rates.count ? segmentStarts[j + 1] : .infinity
      let r = rates[j]
      if r > 0 {
        let t = from + (target - accumulated) / r
        if t <= to || j + 1 == rates.count {
          return t < end ? t : nil
        }
        accumulated += r * (to - from)
      }
      if to >= end { return nil }
      j += 1
    }
    return nil
  }

  /// The number of births in `[start, end)` whose time is ≤ `t`.
  /// - Complexity: O(segments).
  func count(start: Double, end: Double, upTo t: Double) -> Int {
    let limit = Swift.min(t, end)
    guard limit > start else { return 0 }
    let integral = self.integral(from: start, to: limit)
    // The floor of the integral is right to within rounding; settle it
    // against the birth times themselves so every path counts the same way.
    var n = Int(Swift.min(integral, Double(Int.max / 2)).rounded(.down))
    while n > 0, let b = birthTime(n - 1, start: start, end: end), b > t { n -= 1 }
    while n > 0, birthTime(n - 1, start: start, end: end) == nil { n -= 1 }
    while let b = birthTime(n, start: start, end: end), b <= t { n += 1 }
    return n
  }

  /// ∫[start, t] rate.
  func integral(from start: Double, to t: Double) -> Double {
    guard t > start else { return 0 }
    if rates.count == 1 { return rates[0] * (t - start) }
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
}
