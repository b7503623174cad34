extension ParticleSystem {
  /// The births-only source of ``BirthDeltaStream`` (``BirthDeltaStream/Source/birthsOnly``):
  /// appends to `slots` the slots of the particles born after `previous`
  /// (every birth when nil) that are alive at local time `t`, in the
  /// canonical order (birth time, then id), computed from the birth schedule
  /// alone. The store is neither read nor written.
  ///
  /// These are exactly the records ``advance(to:)`` appends to the store
  /// when it steps from `previous` to `t` (``seek(to:)``'s live set when
  /// `previous` is nil): the same cells, the same intervals
  /// (`max(previous, t − longest lifetime of the cell)`, `t`], the same
  /// enumeration (``BirthEnumerator/forEachBirth(node:after:through:_:)``, whose records are
  /// pure functions of the effect, the seed and the birth index, and for a
  /// sub-cell of its parent's record, itself recomputed from the schedule),
  /// the same alive test and the same order. So the slots are bit for bit
  /// those the full system's store gives (tested: `BirthsOnlyStreamTests`).
  ///
  /// `records` is scratch for effects with several cells, reused across
  /// calls.
  /// - Complexity: O(births in the interval) for one cell; with several
  ///   cells, plus each sub-cell's parents born within its longest emission
  ///   age before the interval (as ``advance(to:)``), plus the sort of the
  ///   births (nearly sorted: one O(n) scan for one top-level cell's births).
  func appendAliveBirthSlots(
    after previous: Double?, at t: Double, into slots: inout [GPUBirthSlot], records: inout [BirthRecord]
  ) {
    let start = previous ?? -.infinity
    if tree.nodes.count == 1 {
      // One cell: births arrive in (birth time, id) order, eight at a time
      // (``BirthBatch/writeAliveSlots(times:count:at:node:constantsRow:to:)``,
      // whose scalar twin is the per-record path below). Cell 0's
      // constants row is its segment's number (rows are cell · segments +
      // segment: `constantsIndex(cell:birthTime:)`).
      withUnsafeTemporaryAllocation(of: GPUBirthSlot.self, capacity: 8) { buffer in
        let out = buffer.baseAddress!
        births.forEachTopLevelBatch(
          node: 0, after: Swift.max(start, t - tree.maximumLifetime(0)), through: t, nextLength: { 8 }
        ) { source, times, count, _, segment in
          let written = source.sample().writeAliveSlots(
            times: times, count: count, at: t, node: 0, constantsRow: UInt32(segment), to: out)
          slots.append(contentsOf: UnsafeBufferPointer(start: out, count: written))
        }
      }
      return
    }
    records.removeAll(keepingCapacity: true)
    for node in tree.nodes.indices {
      births.forEachBirth(node: node, after: Swift.max(start, t - tree.maximumLifetime(node)), through: t) { r in
        if r.isAlive(at: t) { records.append(r) }
      }
    }
    Self.insertionSort(&records)
    slots.reserveCapacity(slots.count + records.count)
    for r in records {
      slots.append(GPUBirthSlot(r, constantsRow: tree.constantsIndex(cell: r.cell, birthTime: r.birthTime)))
    }
    records.removeAll(keepingCapacity: true)
  }
}
