import CSleetKernels
import SleetMath

extension ParticleSystem {
  // MARK: - Birth enumeration

  /// Calls `body` with every particle of `node` (lifetime > 0) born in
  /// (`lo`, `hi`], dead or alive, in no particular order.
  ///
  /// Top-level cells count births with the schedule in their window; a
  /// sub-cell first enumerates the parents born in (lo − maximum emission
  /// age, hi], then each parent's own schedule in its window
  /// (``CellNode/window(origin:parentLifetime:)``), sampled by
  /// ``forEachChildBirth(node:cell:parent:after:through:cursor:_:)``.
  func forEachBirth(node: Int, after lo: Double, through hi: Double, _ body: (BirthRecord) -> Void) {
    guard hi > lo else { return }
    if let parent = tree.nodes[node].parent {
      // Looked up once, not per parent: a copy of the node per parent
      // retained and released its six arrays (perf, 2026-12-03).
      let n = tree.nodes[node]
      let slot = tree.nodes[parent].children.firstIndex(of: node)!
      var skips = 0
      forEachParentBirth(node: parent, slot: slot, after: lo - tree.maximumEmissionAge(node), through: hi) {
        p, cursor in
        if forEachChildBirth(node: node, cell: n, parent: p, after: lo, through: hi, cursor: cursor, body) {
          skips += 1
        }
      }
      // Once per call: the stored property's dynamic exclusivity check per
      // skip cost more than the skip.
      diagnostics.childCursorSkips += skips
    } else {
      forEachTopLevelBirth(node: node, after: lo, through: hi, body)
    }
  }

  /// The births (lifetime > 0) of sub-cell `node` from `parent` in (`lo`,
  /// `hi`], in birth order: when the parent has at least
  /// ``minimumChildBatch`` births in the interval, by ``ChildBirthBatch``,
  /// eight at a time (a batch also ends where the segment changes, so it
  /// may hold fewer); otherwise one by one by the scalar
  /// ``BirthSampler/child(tree:seed:node:parent:k:birthTime:)``.
  /// Same records either way (``ChildBirthBatch``'s invariant), so where the
  /// batches start never changes a birth.
  ///
  /// `cursor` (the parent's ``ChildCursor`` for `node`, kept between steps)
  /// saves the count up to `lo` when the last call ended there, and the
  /// whole call when the next birth comes after `hi`; otherwise, for a
  /// one-rate schedule, the births up to `hi` are walked from it rather than
  /// counted. It is updated to this call. Nil: both counts are made. Returns
  /// whether the cursor skipped the call. `n` is `tree.nodes[node]`, passed
  /// by the caller, which looks it up once for all parents (a copy per
  /// parent retained six arrays).
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
    let oneRate = n.schedule.rates.count == 1
    var last = first
    var nextTime = -Double.infinity
    // The walk gives count(in:upTo: hi) only where count does not return 0
    // early (hi or the window's end at or before its start, a window
    // shorter than the rounding of its start): there, the count.
    if continues && oneRate && Swift.min(hi, window.end) > window.start {
      // A step's births of one parent are few: walk the birth times from
      // the cursor (the prefix up to hi, as the cursor's note explains)
      // rather than count them from the window's start; a long walk falls
      // back to the count.
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
    cursor?.pointee = ChildCursor(hi: hi, next: last, nextTime: nextTime)
    guard last > first else { return false }
    let seed = effect.emitter.seed
    guard paths.childBirthBatches, last - first >= Self.minimumChildBatch else {
      for k in first..<last {
        guard let tb = n.schedule.birthTime(k, in: window) else { break }
        if let r = BirthSampler.child(tree: tree, seed: seed, node: node, parent: p, k: k, birthTime: tb) {
          body(r)
        }
      }
      return false
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
    return false
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

  /// The fewest births of one parent in one call that go through
  /// ``ChildBirthBatch``; fewer are sampled one by one, since an eight-lane
  /// batch of one or two births costs more than they do. `sleet-bench
  /// --filter 'preset fireworks'` (Zen 4, portable, 2026-12-03), whose steps
  /// give most parents no birth or one: `advance+render` 10.5–11.0 µs with
  /// every run batched, 9.9–10.2 from 3 births, 9.9–10.3 from 8; `seek` (all
  /// bursts whole) 39.7–40.9, 40.6–41.5 and 42.4–43.6 µs.
  static let minimumChildBatch = 3

  /// ``forEachBirth(node:after:through:_:)`` of a cell asked for its
  /// sub-cells' parents: from ``parentBirths`` while
  /// ``forEachBirthOfEveryCell(after:through:_:)`` runs, else enumerated
  /// anew.
  ///
  /// The cache holds every birth of the cell in (lo, hi] (`ParentBirths`).
  /// A call asking (`lo`, `hi`] with lo at or above the cache's lo and `hi`
  /// at or above its hi extends it by the births in (cache hi, `hi`] and
  /// yields its records born after `lo`; anything else (a seek back, a jump
  /// past the cache) rebuilds it from the call's floor. That is the same set
  /// of records as enumerating (`lo`, `hi`] anew: the schedule counts the
  /// births in (a, b] as those whose birth time t has a < t ≤ b (its
  /// `count(in:upTo:)` settles against the birth times), so splitting an
  /// interval at any time, or filtering by birth time, neither loses nor
  /// repeats a birth. Only the order differs (earlier births first, then
  /// the extension's), which the canonical order of the collected births
  /// makes irrelevant, except between records equal in birth time and id.
  ///
  /// `body` also gets the record's ``ChildCursor`` for the sub-cell at
  /// `slot` of p's `children` when the record is kept, nil otherwise.
  func forEachParentBirth(
    node p: Int, slot: Int, after lo: Double, through hi: Double,
    _ body: (BirthRecord, UnsafeMutablePointer<ChildCursor>?) -> Void
  ) {
    guard hi > lo else { return }
    guard let floors = parentBirthFloors, floors[p] <= lo else {
      forEachBirth(node: p, after: lo, through: hi) { body($0, nil) }
      return
    }
    // Taken out while in use, so that appending does not copy the records
    // (the recursion below asks only for other cells: ancestors of p).
    var entry = parentBirths[p] ?? ParentBirths(lo: floors[p], hi: floors[p], stride: tree.nodes[p].children.count)
    parentBirths[p] = nil
    if lo < entry.lo || hi < entry.hi || lo > entry.hi {
      entry.reset(to: floors[p])
    }
    if hi > entry.hi {
      forEachBirth(node: p, after: entry.hi, through: hi) { entry.append($0) }
      entry.hi = hi
    }
    entry.forEachRecord(bornAfter: lo, slot: slot) { body($0, $1) }
    parentBirths[p] = entry
  }

  /// ``forEachBirth(node:after:through:_:)`` of every cell c, each after
  /// `lowerBound(c)` and through `hi` (a step's or a seek's enumeration),
  /// with the sub-cells' parents kept in ``parentBirths`` from the previous
  /// call. Before, each kept cell's records at or before the lowest time
  /// this call can ask it from (its floor: c's bound less the maximum
  /// emission ages up the chain, as `forEachBirth` subtracts them) are
  /// dropped.
  ///
  /// Why: a sub-cell's births in a step come from its parents' schedules,
  /// and enumerating the parents anew each step sampled every parent whose
  /// window could reach the step (each rocket and spark of the last 2–4 s
  /// of `fireworks`, most of its step's time: perf, 2026-12-03); kept, only
  /// the parents born in the step are sampled.
  func forEachBirthOfEveryCell(
    after lowerBound: (Int) -> Double, through hi: Double, _ body: (BirthRecord) -> Void
  ) {
    func enumerate() {
      for node in tree.nodes.indices { forEachBirth(node: node, after: lowerBound(node), through: hi, body) }
    }
    guard paths.parentBirthCache, tree.nodes.count > 1, tree.roots.count < tree.nodes.count else {
      enumerate()
      return
    }
    var floors = [Double](repeating: .infinity, count: tree.nodes.count)
    for c in tree.nodes.indices {
      var lo = lowerBound(c)
      var node = c
      while let parent = tree.nodes[node].parent {
        lo = lo - tree.maximumEmissionAge(node)
        floors[parent] = Swift.min(floors[parent], lo)
        node = parent
      }
    }
    if parentBirths.count != tree.nodes.count { parentBirths = Array(repeating: nil, count: tree.nodes.count) }
    for p in parentBirths.indices {
      guard var entry = parentBirths[p] else { continue }
      parentBirths[p] = nil
      if entry.lo <= floors[p] && floors[p] <= entry.hi {
        entry.removeRecords(bornAtOrBefore: floors[p])
        entry.lo = floors[p]
      }
      parentBirths[p] = entry
    }
    parentBirthFloors = floors
    enumerate()
    parentBirthFloors = nil
  }

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
            // Through the pointer: `parameters[segment]` copied the 288-byte
            // parameter set (a memcpy per batch, 3 % of the births profile).
            let p = parameters.baseAddress! + segment
            // In place: `withUnsafePointer(to: sampling)` copied the 880-byte
            // parameters for every batch, and births read 13–15 % slower
            // (sleet-bench, 2026-12-02).
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
}

/// Every birth (lifetime > 0) of one cell born in (lo, hi], in no particular
/// order: a cell's births kept for its sub-cells between steps
/// (``ParticleSystem/forEachParentBirth(node:slot:after:through:_:)``), each
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
  /// cursor for sub-cell `slot` (valid only during the call).
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
/// that enumerated it (``ParticleSystem/forEachChildBirth(node:cell:parent:after:through:cursor:_:)``):
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
/// the count). `fireworks`' step: 27 of about 40 parent calls skipped, and
/// `advance` 3.32–3.65 → 2.54–2.91 µs (portable, Zen 4, docs/benchmarks.md,
/// "Sub-cell steps").
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
