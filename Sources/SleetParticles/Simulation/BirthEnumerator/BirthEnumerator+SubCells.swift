import SleetMath

extension BirthEnumerator {
  // MARK: - Sub-cells

  /// The births (lifetime > 0) of sub-cell `node` from `parent` in (`lo`,
  /// `hi`], in birth order: which of the parent's births fall in the
  /// interval (``childBirthCount(of:in:from:through:walks:)``), then their
  /// records (``sampleChildBirths(node:cell:parent:in:births:_:)``).
  ///
  /// `cursor` (the parent's ``ChildCursor`` for `node`, kept between steps)
  /// saves the count up to `lo` when the last call ended there, and the
  /// whole call when the next birth comes after `hi`; otherwise, for a
  /// one-rate schedule, the births up to `hi` are walked from it rather than
  /// counted. It is updated to this call. Nil: both counts are made. Returns
  /// whether the cursor skipped the call. `n` is `tree.nodes[node]`, passed
  /// by the caller, which looks it up once for all parents (a copy per
  /// parent retains six arrays).
  @discardableResult
  func forEachChildBirth(
    node: Int, cell n: CellNode, parent p: BirthRecord, after lo: Double, through hi: Double,
    cursor: UnsafeMutablePointer<ChildCursor>? = nil, _ body: (BirthRecord) -> Void
  ) -> Bool {
    let continues = cursor.map { $0.pointee.hi == lo } ?? false
    if continues, let cursor, cursor.pointee.nextTime > hi {
      cursor.pointee.hi = hi
      return true
    }
    guard let window = n.window(origin: p.birthTime, parentLifetime: Double(p.lifetime)) else {
      // No window, no births, whatever the interval.
      cursor?.pointee = ChildCursor(hi: hi, next: 0, nextTime: .infinity)
      return false
    }
    let first = continues ? cursor!.pointee.next : n.schedule.count(in: window, upTo: lo)
    let (last, nextTime) = Self.childBirthCount(of: n, in: window, from: first, through: hi, walks: continues)
    cursor?.pointee = ChildCursor(hi: hi, next: last, nextTime: nextTime)
    guard last > first else { return false }
    sampleChildBirths(node: node, cell: n, parent: p, in: window, births: first..<last, body)
    return false
  }

  /// The births of `n` in `window` up to `hi` (`count(in:upTo: hi)`), and
  /// the time of the next one for a one-rate schedule (−∞ otherwise: such
  /// schedules never skip). `first` is the count up to the call's `lo`;
  /// when it comes from a cursor (`walks`) and the schedule has one rate, the
  /// births up to `hi` are walked from it — a step's births of one parent
  /// are few — and more than eight fall back to the count. The walk gives
  /// the count only where the count does not return 0 early (hi or the
  /// window's end at or before its start, a window shorter than the
  /// rounding of its start): there, the count.
  @inline(__always)
  static func childBirthCount(
    of n: CellNode, in window: ActivityWindow, from first: Int, through hi: Double, walks continues: Bool
  ) -> (last: Int, nextTime: Double) {
    let oneRate = n.schedule.rates.count == 1
    var last = first
    var nextTime = -Double.infinity
    if continues && oneRate && Swift.min(hi, window.end) > window.start {
      var walked = 0
      while true {
        guard let tb = n.schedule.birthTime(last, in: window) else {
          nextTime = .infinity
          break
        }
        if tb > hi {
          nextTime = tb
          break
        }
        last += 1
        walked += 1
        if walked == 8 {
          last = n.schedule.count(in: window, upTo: hi)
          nextTime = n.schedule.birthTime(last, in: window) ?? .infinity
          break
        }
      }
    } else {
      last = n.schedule.count(in: window, upTo: hi)
      if oneRate { nextTime = n.schedule.birthTime(last, in: window) ?? .infinity }
    }
    return (last, nextTime)
  }

  /// The records of births `births` of sub-cell `node` (`n`) from `parent`
  /// in `window`: when there are at least ``minimumChildBatch``, by
  /// ``ChildBirthBatch``, eight at a time (a batch also ends where the
  /// segment changes, so it may hold fewer); otherwise one by one by the
  /// scalar ``BirthSampler/child(tree:seed:node:parent:k:birthTime:)``.
  /// Same records either way (``ChildBirthBatch``'s invariant), so where the
  /// batches start never changes a birth.
  @inline(__always)
  func sampleChildBirths(
    node: Int, cell n: CellNode, parent p: BirthRecord, in window: ActivityWindow, births: Range<Int>,
    _ body: (BirthRecord) -> Void
  ) {
    let first = births.lowerBound
    let last = births.upperBound
    let seed = self.seed
    // The batch kernel evaluates the parent's closed form: a parent whose
    // cell has behaviors takes the scalar sampler, which reads its state
    // after them.
    guard paths.childBirthBatches, last - first >= Self.minimumChildBatch, tree.nodes[Int(p.cell)].behaviors == nil
    else {
      for k in first..<last {
        guard let tb = n.schedule.birthTime(k, in: window) else { break }
        if let r = BirthSampler.child(tree: tree, seed: seed, node: node, parent: p, k: k, birthTime: tb) {
          body(r)
        }
      }
      return
    }
    let batch = ChildBirthBatch(parent: p)
    let segmented = tree.segmentStarts.count > 1
    n.parameters.withUnsafeBufferPointer { parameters in
      n.birthSampling.withUnsafeBufferPointer { sampling in
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 8) { buffer in
          // As forEachTopLevelBatch: a batch stops at a closed window (nil
          // time) and where the segment changes, so its lanes share one
          // parameter set. Lanes past a batch's count keep older times (read,
          // never used).
          let times = buffer.baseAddress!
          times.initialize(repeating: 0, count: 8)
          var k = first
          while k < last {
            let (count, closed, segment) = batchTimes(
              of: n, in: window, from: k, length: Swift.min(8, last - k), segmented: segmented
            ) { times[$0] = $1 }
            if count > 0 {
              diagnostics.childBatchesSampled += 1
              batch.sample(
                node: node, first: k, count: count, times: times, parameters.baseAddress! + segment,
                sampling: sampling.baseAddress! + segment, avx2: paths.avx2BirthKernels, body)
            }
            if closed { break }
            k += count
          }
        }
      }
    }
  }

  /// The fewest births of one parent in one call that go through
  /// ``ChildBirthBatch``; fewer are sampled one by one, since an eight-lane
  /// batch of one or two births costs more than they do. Three is the
  /// threshold that serves both an effect whose steps give most parents no
  /// birth or one (`fireworks`' steps) and its seeks, whose bursts are
  /// sampled whole.
  static let minimumChildBatch = 3
}
