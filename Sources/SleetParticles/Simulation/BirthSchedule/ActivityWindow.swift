/// Where on the timeline one emitter (a top-level cell, or one sub-cell of one
/// parent particle) may give birth, and the phase of its emission clock when
/// the window opens.
///
/// Every caller (seeking, stepping, the peak bound, the time limit and the
/// naive reference) gets its windows from ``CellNode/window(origin:parentLifetime:)``,
/// and every birth is tested against a window by one rule:
///
/// ```
/// birth k happens at  start + offset(k)      offset measured from the opening
/// it belongs to the window  ⇔  offset(k) < length     (half-open: a birth
///                                                      exactly at the end is out)
/// ```
///
/// Membership compares *offsets*, never absolute times: a sub-cell's window
/// that opens at `parentBirth + beginTime` and a top-level window that opens
/// at `beginTime` hold the same births for the same `duration` and rate,
/// whatever the rounding of the absolute times. For a decimal window whose
/// length is a whole number n of birth intervals at an integer rate r, the
/// offset n/r and the length are both the correctly rounded value of the same
/// decimal, so the birth at the end is excluded exactly (tested with [2.3, 2.4)
/// at 150/s: 14 births, top level and sub-cell alike).
struct ActivityWindow: Hashable, Sendable {
  /// Emitter-local time at which the window opens.
  var start: Double
  /// How long it stays open (> 0; `.infinity` for no end), on the parent's
  /// timeline (already divided by the cell's speed).
  var length: Double
  /// The fractional births the emission clock has accumulated when the window
  /// opens, in [0, 1): the cell's `timeOffset` (see
  /// ``CellNode/window(origin:parentLifetime:)``). 0 unless `timeOffset` ≠ 0.
  var phase: Double

  /// The time the window closes, for overlap queries (membership uses
  /// offsets, see above).
  var end: Double { start + length }

  /// Whether a birth `offset` seconds after the opening is in the window.
  @inline(__always)
  func contains(offset: Double) -> Bool { offset < length }
}

extension CellNode {
  /// The activity window of this cell:
  /// - a top-level cell (`parentLifetime` nil): on the emitter's timeline,
  ///   with `origin` 0 (where the simulation starts);
  /// - a sub-cell: on the age of a parent born at `origin` that lives
  ///   `parentLifetime` seconds (a parent emits only while alive).
  ///
  /// ```
  /// opening  o = max(0, beginTime)                  (offsets from origin)
  /// closing  e = beginTime + duration               (duration 0: no end)
  ///          e = min(e, parentLifetime)             (sub-cells)
  /// window   start = origin + o,  length = e − o
  /// ```
  ///
  /// The length is computed without the round trip through absolute times:
  /// `duration` itself when the window opens at `beginTime ≥ 0` and is not cut
  /// short. `nil` when the window is empty.
  ///
  /// **timeOffset.** CAMediaTiming's `timeOffset` shifts a cell's local time
  /// within its active period without moving the period. On the emission
  /// clock that means the clock already reads `timeOffset` when the window
  /// opens: the births fall where the rate's integral from
  /// `opening − timeOffset` crosses a whole number, so the window starts with
  /// phase = frac(timeOffset · rate) (local rate, at the opening) and the first
  /// birth comes (1 − phase)/rate after it. The window, the birth indices
  /// (from 0 at the first birth in the window) and the particles' ages are
  /// unchanged; `docs/particles.md` records this decision.
  func window(origin: Double, parentLifetime: Double?) -> ActivityWindow? {
    let opening = Swift.max(0, beginTime)
    var length = duration > 0 ? (beginTime >= 0 ? duration : beginTime + duration) : .infinity
    if let parentLifetime, !(duration > 0 && beginTime + duration <= parentLifetime) {
      length = parentLifetime - opening
    }
    guard length > 0 else { return nil }
    let start = origin + opening
    var phase = 0.0
    if timeOffset != 0 && speed > 0 {
      // timeOffset is on the cell's local clock; the schedule's rates are
      // per parent second (× speed), so the clock offset in parent seconds
      // is timeOffset / speed.
      let accumulated = timeOffset / speed * schedule.rate(at: start)
      phase = accumulated - accumulated.rounded(.down)
      if !(phase >= 0 && phase < 1) { phase = 0 }
    }
    return ActivityWindow(start: start, length: length, phase: phase)
  }
}
