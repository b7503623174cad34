import SleetMath

extension BirthEnumerator {
  // MARK: - Top-level cells

  /// ``forEachBirth(node:after:through:_:)`` for a top-level `node`, in
  /// birth order. Always inlined so that the one-cell paths of ``seek(to:)``
  /// and ``advance(to:)`` get `body` inlined too (no call and no record copy
  /// per birth).
  @inline(__always)
  func forEachTopLevelBirth(node: Int, after lo: Double, through hi: Double, _ body: (BirthRecord) -> Void) {
    forEachTopLevelBatch(node: node, after: lo, through: hi, nextLength: { 8 }) { source, times, count, p, _ in
      let batch = source.sample()
      for l in 0..<count where batch.lifetime[l] > 0 {
        body(batch.record(l, p.pointee, node: node, birthTime: times[l]))
      }
    }
  }

  /// The births of top-level `node` in (`lo`, `hi`], in birth order, as
  /// batches of at most eight consecutive births: `body` gets the batch to
  /// sample (``BirthBatch/Source``), the birth times of its lanes, how many leading lanes
  /// are births of the interval (`count`, 1…8), the parameters they were
  /// sampled with and that segment's number. Lanes whose lifetime is ≤ 0 are
  /// births that never exist: `body` skips them.
  ///
  /// A batch holds at most `nextLength()` births (asked before each batch,
  /// 1…8; the store's appender asks for the rest of its partly filled
  /// block, so that the next batch starts a fresh block), and ends early at
  /// a closed window (the last birth index whose time is nil) and where the
  /// effect's segment changes, so that one parameter set serves all lanes.
  /// Where the batch boundaries fall never changes a lane: lane l of a batch
  /// starting at birth `first` is birth `first + l`, bit for bit.
  @inline(__always)
  func forEachTopLevelBatch(
    node: Int, after lo: Double, through hi: Double, nextLength: () -> Int,
    _ body: (
      _ batch: BirthBatch.Source, _ times: SIMD8<Double>, _ count: Int, _ p: UnsafePointer<CellParameters>,
      _ segment: Int
    ) -> Void
  ) {
    guard hi > lo else { return }
    let n = tree.nodes[node]
    // The simulation starts at local time 0 (the window's origin).
    guard let window = n.window(origin: 0, parentLifetime: nil) else { return }
    let first = n.schedule.count(in: window, upTo: lo)
    let last = n.schedule.count(in: window, upTo: hi)
    guard last > first else { return }
    // Per cell, not per birth: the parameter table, the kernel's flattened
    // parameters (made with the tree: CellNode.birthSampling) and the
    // segment look-up (one segment unless the effect has timed changes).
    let segmented = tree.segmentStarts.count > 1
    precondition(last <= 1 << 56, "birth index out of range")
    // One rate for the whole timeline (no timed changes): eight birth times
    // in one vector step (``BirthSchedule/uniformBirthTimes(_:in:)``).
    let uniformRate = !segmented && n.schedule.rates.count == 1 && n.schedule.rates[0] > 0
    precondition(n.birthSampling.count == n.parameters.count, "every cell has its birth kernels' parameters")
    n.parameters.withUnsafeBufferPointer { parameters in
      n.birthSampling.withUnsafeBufferPointer { sampling in
        // Batches of consecutive births (the last one may be partial): the
        // birth times and segments first, each from the schedule as before; a
        // batch stops at a closed window (nil time) and at a segment change,
        // so all its lanes share one parameter set, and the next batch starts
        // there.
        var times = SIMD8<Double>()
        var k = first
        while k < last {
          let length = Swift.min(Swift.max(1, Swift.min(8, nextLength())), last - k)
          var count = 0
          var closed = false
          var segment = 0
          if uniformRate, let t = n.schedule.uniformBirthTimes(k, in: window, lanes: length) {
            times = t
            count = length
          } else {
            (count, closed, segment) = batchTimes(of: n, in: window, from: k, length: length, segmented: segmented) {
              times[$0] = $1
            }
          }
          if count > 0 {
            // Through the pointer: `parameters[segment]` copies the 288-byte
            // parameter set (a memcpy per batch).
            let p = parameters.baseAddress! + segment
            // In place: `withUnsafePointer(to: sampling)` copies the 880-byte
            // parameters for every batch.
            body(
              BirthBatch.Source(parameters: p, sampling: sampling.baseAddress! + segment, first: k), times, count, p,
              segment)
          }
          if closed { break }
          k += count
        }
      }
    }
  }

  /// The birth times of a batch: births `k`, `k + 1`, … of `n` in
  /// `window`, at most `length`, each passed to `store` with its lane. The
  /// batch ends early at a closed window (the first birth whose time is
  /// nil: `closed`) and, when the effect is `segmented`, where the segment
  /// changes, so that one parameter set (`segment`'s) serves all its lanes.
  @inline(__always)
  func batchTimes(
    of n: CellNode, in window: ActivityWindow, from k: Int, length: Int, segmented: Bool,
    _ store: (Int, Double) -> Void
  ) -> (count: Int, closed: Bool, segment: Int) {
    var count = 0
    var segment = 0
    while count < length {
      guard let tb = n.schedule.birthTime(k + count, in: window) else { return (count, true, segment) }
      if segmented {
        let s = tree.segment(at: tb)
        if count == 0 {
          segment = s
        } else if s != segment {
          break
        }
      }
      store(count, tb)
      count += 1
    }
    return (count, false, segment)
  }
}
