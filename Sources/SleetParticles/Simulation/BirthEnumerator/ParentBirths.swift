/// Every birth (lifetime > 0) of one cell born in (lo, hi], in no particular
/// order: a cell's births kept for its sub-cells between steps
/// (``BirthEnumerator/forEachParentBirth(node:slot:after:through:_:)``), each
/// with a ``ChildCursor`` per sub-cell of the cell.
struct ParentBirths {
  var lo: Double
  var hi: Double
  private(set) var records: [BirthRecord] = []
  /// `cursors[i · stride + s]`: record i's emission of the cell's sub-cell
  /// `s` (its index in the cell's `children`).
  private(set) var cursors: [ChildCursor] = []
  /// The cell's number of sub-cells.
  let stride: Int

  init(lo: Double, hi: Double, stride: Int) {
    self.lo = lo
    self.hi = hi
    self.stride = stride
  }

  /// Appends `record` with fresh cursors (``ChildCursor/unset``).
  mutating func append(_ record: BirthRecord) {
    records.append(record)
    cursors.append(contentsOf: repeatElement(.unset, count: stride))
  }

  /// Removes every record (keeping the capacity) and sets the range to
  /// (`floor`, `floor`].
  mutating func reset(to floor: Double) {
    records.removeAll(keepingCapacity: true)
    cursors.removeAll(keepingCapacity: true)
    lo = floor
    hi = floor
  }

  /// Removes the records born at or before `floor` and their cursors,
  /// keeping the others' order.
  mutating func removeRecords(bornAtOrBefore floor: Double) {
    var kept = 0
    for i in records.indices where records[i].birthTime > floor {
      if kept != i {
        records[kept] = records[i]
        for s in 0..<stride { cursors[kept * stride + s] = cursors[i * stride + s] }
      }
      kept += 1
    }
    records.removeLast(records.count - kept)
    cursors.removeLast(cursors.count - kept * stride)
  }

  /// Calls `body` with each record born after `lo` and a pointer to its
  /// cursor for sub-cell `slot` (valid only during the call). Always
  /// inlined into the parent walk (`BirthEnumerator.forEachParentBirth`), so
  /// that each parent's call of the sub-cell's enumeration is direct.
  @inline(__always)
  mutating func forEachRecord(
    bornAfter lo: Double, slot: Int, _ body: (BirthRecord, UnsafeMutablePointer<ChildCursor>) -> Void
  ) {
    precondition(slot >= 0 && slot < stride, "sub-cell slot out of range")
    let records = self.records
    let stride = self.stride
    cursors.withUnsafeMutableBufferPointer { cursors in
      for i in records.indices where records[i].birthTime > lo {
        body(records[i], cursors.baseAddress! + i * stride + slot)
      }
    }
  }
}

/// Where one parent's emission of one sub-cell stood after the last call
/// that enumerated it (``BirthEnumerator/forEachChildBirth(node:cell:parent:after:through:cursor:_:)``):
/// that call's `hi`, the number of births up to it (`count(in:upTo: hi)`),
/// and the time of the next birth.
///
/// Why: a step asks every parent whose window may reach it for its births
/// in (previous, t]; most have none (a `fireworks` spark's parent gives one
/// every third step), and counting them anew took two `count(in:upTo:)`
/// calls, the window and a copy of the cell's node per parent and step. A
/// call whose `lo` is the cursor's `hi` starts at the cursor's count (the
/// same function of the same arguments), skips the parent when the next
/// birth comes after its `hi`, and otherwise walks the birth times from the
/// cursor to `hi` (one-rate schedules; more than eight births fall back to
/// the count). In a `fireworks` step most parent calls are skipped.
///
/// Exact: for a one-rate schedule the birth times grow with k (the offset
/// (k + 1 − phase)/r and the sum start + offset are monotone in IEEE
/// arithmetic) and a closed window drops a suffix of them, so the births up
/// to `hi` are a prefix, and none is born in (lo, hi] when the next one
/// comes after `hi`. Schedules of several rates (timed changes) keep
/// `nextTime` at −∞: they never skip, only the first count is saved.
struct ChildCursor {
  var hi: Double
  var next: Int
  var nextTime: Double

  /// No call yet: `hi` is NaN, which no `lo` equals.
  static let unset = ChildCursor(hi: .nan, next: 0, nextTime: -.infinity)
}
