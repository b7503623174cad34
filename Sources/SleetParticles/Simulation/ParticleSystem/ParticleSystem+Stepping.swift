import CSleetKernels
import SleetMath

extension ParticleSystem {
  // MARK: - Seek and step

  /// Jumps to `time` (forward or backward), rebuilding the live set from the
  /// birth schedule.
  /// - Complexity: O(births in the last max-lifetime window of each cell,
  ///   including the parents whose sub-cell windows reach `time`) plus a sort
  ///   of the live particles; independent of `time` itself.
  ///
  /// - Precondition: `time` is finite and ``supports(time:)``.
  public func seek(to time: Double) {
    let t = checkSupported(time, "seek(to:)")
    if usesCellStores {
      seekCellStores(to: t)
      localTime = t
      return
    }
    if tree.nodes.count == 1 && configuration.overflowPolicy == .reject {
      seekCell(0, in: store, to: t)
      localTime = t
      return
    }
    // The live records gather in `born` (advance(to:)'s scratch, empty
    // between calls), so that seeking again, as scrubbing does, reuses its
    // capacity instead of growing a new array of 160-byte records (growing
    // and its page faults are a large share of a seek). Kept up to
    // seekScratchLimit records.
    var live = born
    born = []
    live.removeAll(keepingCapacity: true)
    births.forEachBirthOfEveryCell(after: { t - tree.maximumLifetime($0) }, through: t) { r in
      if r.isAlive(at: t) { self.collect(r, into: &live) }
    }
    let order = Self.canonicalOrder(of: live)
    store.removeAll()
    store.reserve(live.count)
    let drop = configuration.overflowPolicy == .capOldestFirst ? Swift.max(0, live.count - configuration.budget) : 0
    for i in order.dropFirst(drop) { append(live[i]) }
    if live.capacity <= Self.seekScratchLimit {
      live.removeAll(keepingCapacity: true)
      born = live
    }
    store.lastKnownAlive = store.count
    localTime = t
  }

  /// The most records (10 MiB of them) whose scratch ``seek(to:)`` keeps
  /// for the next seek; a larger live set's scratch is freed.
  static let seekScratchLimit = 1 << 16

  /// The indices of `records` in the canonical order (``precedes(_:_:)``),
  /// records that tie keeping their order in `records`: the order a stable
  /// sort of the records gives.
  ///
  /// Why not sort the records: a `BirthRecord` is 160 bytes, and moving
  /// them is most of such a sort, itself a large share of seeking a preset.
  /// This sorts 24-byte keys
  /// (birth time, id, index), whose index breaks ties, so the order is
  /// total and any sort gives the same permutation.
  /// - Complexity: O(n log n), O(n) when `records` is already in order.
  static func canonicalOrder(of records: [BirthRecord]) -> [Int] {
    var inOrder = true
    for i in records.indices.dropFirst() where precedes(records[i], records[i - 1]) {
      inOrder = false
      break
    }
    if inOrder { return Array(records.indices) }
    var keys = records.indices.map { SortKey(birthTime: records[$0].birthTime, id: records[$0].id, index: $0) }
    // precedes(_:_:) with the index last (birth times are never NaN).
    keys.sort { ($0.birthTime, $0.id, $0.index) < ($1.birthTime, $1.id, $1.index) }
    return keys.map(\.index)
  }

  /// Sorts `records` into the canonical order as a stable sort would: the
  /// keys (``canonicalOrder(of:)``), then one gather of the records.
  static func sortCanonically(_ records: inout [BirthRecord]) {
    let order = canonicalOrder(of: records)
    records = order.map { records[$0] }
  }

  /// A record's place in the canonical order: ``canonicalOrder(of:)``'s key.
  private struct SortKey {
    var birthTime: Double
    var id: UInt64
    var index: Int
  }

  /// Moves to `time` incrementally: appends the births since the last time
  /// that are still alive at `time` and drops the dead. Moving backward (or
  /// the first call) seeks. Gives exactly the particles ``seek(to:)`` gives.
  /// - Precondition: `time` is finite and ``supports(time:)``.
  /// - Complexity: O(births in the step that are still alive at `time`, plus
  ///   parents whose sub-cell windows reach it; a step longer than a cell's
  ///   longest lifetime enumerates only its last lifetime, as ``seek(to:)``
  ///   does), amortised; an O(stored particles) count and compaction only
  ///   when the store has doubled past the last live count (or every step
  ///   when capping). No allocations once the buffers have grown.
  public func advance(to time: Double) {
    let t = checkSupported(time, "advance(to:)")
    guard let previous = localTime, t >= previous else {
      seek(to: time)
      return
    }
    if usesCellStores {
      advanceCellStores(from: previous, to: t)
      localTime = t
      return
    }
    let capping = configuration.overflowPolicy == .capOldestFirst
    if tree.nodes.count == 1 && !capping {
      advanceCell(0, in: store, from: previous, to: t)
      localTime = t
      return
    }
    store.dropDeadLeadingBlocks(at: t)
    // The births gather in a local array (the scratch's buffer, taken out):
    // appending to the stored property from the closure pays a dynamic
    // exclusivity check per birth.
    var born = self.born
    self.born = []
    born.removeAll(keepingCapacity: true)
    // Births at or before t − (longest lifetime) are dead at t: a long step
    // skips them, as seeking does.
    births.forEachBirthOfEveryCell(after: { Swift.max(previous, t - tree.maximumLifetime($0)) }, through: t) { r in
      if r.isAlive(at: t) { self.collect(r, into: &born) }
    }
    Self.insertionSort(&born)
    // Dead particles are skipped by the kernel and compacted away once they
    // are an eighth of the store. Counting them is O(n), so it happens here
    // only when the store has grown well past the last known live count (or
    // when capping needs the exact count); `render(into:)` checks every frame
    // with the count it computes anyway.
    if capping || store.hasOutgrownLiveCount(adding: born.count) { store.compactIfMostlyDead(at: t) }
    store.reserve(store.count + born.count)
    for r in born { append(r) }
    born.removeAll(keepingCapacity: true)
    self.born = born
    if capping { store.capAlive(to: configuration.budget, at: t) }
    localTime = t
  }

  /// ``seek(to:)`` of top-level cell `c` alone in `store` (a one-cell
  /// effect's store, or one of ``cellStores``): its births arrive in (birth
  /// time, id) order, so those of its last lifetime are appended straight
  /// to the slab.
  func seekCell(_ c: Int, in store: ParticleStore, to t: Double) {
    store.removeAll()
    appendAliveBirths(node: c, into: store, after: t - tree.maximumLifetime(c), through: t, at: t)
    store.lastKnownAlive = store.count
  }

  /// ``advance(to:)`` of top-level cell `c` alone in `store`, from
  /// `previous` to `t`: the dead leading blocks dropped, a compaction when
  /// the store has grown well past its last live count, then the step's
  /// births appended straight to the slab, all after the stored ones (no
  /// birth list, no sort, one record copy fewer).
  func advanceCell(_ c: Int, in store: ParticleStore, from previous: Double, to t: Double) {
    store.dropDeadLeadingBlocks(at: t)
    if store.hasOutgrownLiveCount() { store.compactIfMostlyDead(at: t) }
    appendAliveBirths(
      node: c, into: store, after: Swift.max(previous, t - tree.maximumLifetime(c)), through: t, at: t)
  }

  /// Appends the births of top-level `node` in (`lo`, `hi`] that are alive
  /// at `t` straight to `store`, in birth order (a store holding only this
  /// cell: they come after every stored particle). A batch of eight that starts a
  /// fresh block and is alive in every lane is written as one block: sampled
  /// straight into the slab by the C kernel
  /// (``ParticleStore/appendSampledBlock(_:times:at:constantsIndex:cell:lanes:avx2:)``),
  /// or, for shapes whose point is placed per lane, sampled and then written
  /// column by column (``ParticleStore/appendBlock(_:times:constantsIndex:cell:)``);
  /// any other batch (a partial one, a dead or never-existing lane, a
  /// partly filled block) goes record by record through
  /// ``append(_:to:)``, the naive twin (`BatchedAppendTests` compares them).
  /// Batches are cut so that the next one starts at a block boundary of
  /// `store`: after a partly filled block, one short batch fills it.
  @inline(__always)
  func appendAliveBirths(node: Int, into store: ParticleStore, after lo: Double, through hi: Double, at t: Double) {
    let batched = paths.blockAppend
    let avx2 = paths.avx2BirthKernels
    // Where the block kernel leaves a batch it cannot append: uninitialised
    // stack memory, one struct for the whole call. The kernel writes every
    // lane array before the fallback reads any, so zeroing its 576 bytes per
    // batch would be wasted.
    withUnsafeTemporaryAllocation(of: sleet_birth_lanes.self, capacity: 1) { buffer in
      let lanes = buffer.baseAddress!
      births.forEachTopLevelBatch(
        node: node, after: lo, through: hi, nextLength: { batched ? 8 - (store.count & 7) : 8 }
      ) { source, times, count, p, _ in
        let fresh = batched && count == 8 && store.count & 7 == 0
        let batch: BirthBatch
        if fresh && source.hasFinalPositions {
          let row = tree.constantsIndex(cell: UInt32(node), birthTime: times[0])
          if store.appendSampledBlock(
            source, times: times, at: t, constantsIndex: row, cell: node, lanes: lanes, avx2: avx2)
          {
            return
          }
          batch = BirthBatch(lanesAt: lanes, first: source.first)
        } else {
          batch = source.sample()
          if fresh && batch.allAlive(times: times, at: t) {
            store.appendBlock(
              batch, times: times, constantsIndex: tree.constantsIndex(cell: UInt32(node), birthTime: times[0]),
              cell: node)
            return
          }
        }
        for l in 0..<count where batch.lifetime[l] > 0 {
          let r = batch.record(l, p.pointee, node: node, birthTime: times[l])
          if r.isAlive(at: t) { append(r, to: store) }
        }
      }
    }
  }

  /// Appends `r` to the store with its constants row.
  @inline(__always)
  func append(_ r: BirthRecord) { append(r, to: store) }

  /// Appends `r` to `store` with its constants row.
  @inline(__always)
  func append(_ r: BirthRecord, to store: ParticleStore) {
    store.append(r, constantsIndex: tree.constantsIndex(cell: r.cell, birthTime: r.birthTime))
  }

  /// Appends `r` to `records`. When capping, memory stays bounded: at twice
  /// the budget the list is sorted and cut to the newest `budget`, which
  /// cannot drop anything the final cut would keep (each dropped record
  /// already has `budget` newer ones).
  func collect(_ r: BirthRecord, into records: inout [BirthRecord]) {
    records.append(r)
    let budget = configuration.budget
    if configuration.overflowPolicy == .capOldestFirst && records.count >= 2 * budget {
      Self.sortCanonically(&records)
      records.removeFirst(records.count - budget)
    }
  }

  /// Sorts records into the canonical order in place, without allocating up
  /// to 256 records: each cell's births arrive in time order, so the input is
  /// nearly sorted. Longer lists (long steps) sort keys and gather once.
  static func insertionSort(_ records: inout [BirthRecord]) {
    guard records.count > 1 else { return }
    // Births of a single cell arrive sorted: one O(n) scan, no moves.
    var sorted = true
    for i in 1..<records.count where precedes(records[i], records[i - 1]) {
      sorted = false
      break
    }
    if sorted { return }
    // A long step (many births): a general sort is cheaper than quadratic.
    if records.count > 256 {
      sortCanonically(&records)
      return
    }
    for i in 1..<records.count {
      let r = records[i]
      var j = i
      while j > 0 && precedes(r, records[j - 1]) {
        records[j] = records[j - 1]
        j -= 1
      }
      records[j] = r
    }
  }

  /// The canonical order of the live set: birth time, then id.
  static func precedes(_ a: BirthRecord, _ b: BirthRecord) -> Bool {
    a.birthTime < b.birthTime || (a.birthTime == b.birthTime && a.id < b.id)
  }

}
