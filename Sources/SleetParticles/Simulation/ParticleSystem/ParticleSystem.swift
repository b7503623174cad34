import Dispatch
import SleetMath
import Synchronization

/// A running particle effect: the particles of an ``Effect`` at any time, as a
/// pure function of (effect, seed, time).
///
/// ```swift
/// let system = try ParticleSystem(effect: effect)
/// var frame = ParticleFrame()
/// for n in 0..<600 {
///   system.advance(to: Double(n) / 60)   // or system.seek(to: 7.5)
///   system.render(into: &frame)          // frame.instances, in render order
/// }
/// ```
///
/// Every particle's state is the closed form of its ``BirthRecord``; births
/// happen at times the ``BirthSchedule`` computes from the birth index. So:
/// - ``seek(to:)`` rebuilds the live set directly from the schedule, in time
///   proportional to the particles alive at t (plus the parents whose emission
///   windows could reach t), not to t;
/// - ``advance(to:)`` updates it incrementally (new births appended, the dead
///   dropped) and gives the same particles with the same ids, bit for bit;
/// - ``render(into:)`` evaluates the live set with a SIMD kernel over fixed
///   chunks, in parallel, bit-identical for any thread count and chunk size.
///
/// Times passed in are on the layer's parent timeline; the emitter's local
/// time is t = (time − beginTime)·speed + timeOffset (the emitter's timing at
/// time 0). The simulation starts at local t = 0.
///
/// A system is a mutable, single-owner object (not `Sendable`): drive it from
/// one thread; it uses worker threads internally for `render(into:)`.
public final class ParticleSystem {
  public let effect: Effect
  public let configuration: ParticleSystemConfiguration
  let tree: CellTree
  let store = ParticleStore()
  /// Local time of the live set, nil before the first seek/advance.
  public private(set) var localTime: Double?
  /// An upper bound on the live particles this effect can have at once.
  public let peakLiveParticles: Int

  // Scratch, grown as needed, reused across frames.
  private var chunkCounts: [Int] = []
  private var born: [BirthRecord] = []
  /// The live count last computed (by `render` or a compaction check).
  private var lastKnownAlive = 0
  private var scratchIDs: [UInt64] = []
  private var scratchDepths: [Float] = []
  private var permutation = RadixPermutation()
  private var scratchInstances: [ParticleInstance] = []
  private var scratchAffines: [AffineTransform2D] = []
  private var hidden = [Bool](repeating: false, count: 256)

  /// Loads `effect`, validating its emitter (`Emitter.validate()` except
  /// sprite names, which a renderer's sprite library resolves: effects built
  /// in code are checked like effect files) and computing its peak
  /// live-particle count.
  /// - Throws: ``ParticleSystemError/invalidDefinition(_:)`` naming the key
  ///   path of a bad value or cell name;
  ///   ``ParticleSystemError/budgetExceeded(peak:budget:)`` when the
  ///   peak exceeds `configuration.budget` and the policy is `reject`;
  ///   ``ParticleSystemError/tooManyCells(_:)`` beyond 255 cells.
  /// - Complexity: O(cells × (properties + segments)).
  public init(effect: Effect, configuration: ParticleSystemConfiguration = .init()) throws(ParticleSystemError) {
    precondition(configuration.budget > 0, "the particle budget must be positive")
    precondition(configuration.threads > 0, "threads must be at least 1")
    precondition(configuration.chunkSize > 0, "chunkSize must be positive")
    do throws(KeyPathError) {
      // Sprite names are the renderer's business (code may register its own).
      try effect.emitter.validate(includingSprites: false)
    } catch {
      throw .invalidDefinition(error)
    }
    let cells = effect.emitter.emitterCells.reduce(0) { $0 + $1.subtreeCount }
    guard cells <= ParticleSystemError.maximumCells else { throw .tooManyCells(cells) }
    self.effect = effect
    self.configuration = configuration
    tree = CellTree(effect: effect)
    peakLiveParticles = Self.peak(tree)
    if peakLiveParticles > configuration.budget && configuration.overflowPolicy == .reject {
      throw .budgetExceeded(peak: peakLiveParticles, budget: configuration.budget)
    }
  }

  /// The emitter-local time for a time on the layer's parent timeline:
  /// (time − beginTime)·speed + timeOffset, in `Double`.
  /// - Complexity: O(1).
  public func localTime(for time: Double) -> Double {
    let e = effect.emitter
    return (time - e.beginTime) * Double(e.speed) + e.timeOffset
  }

  /// The key path (without `emitterCells.`) of every cell, indexed by cell number.
  /// - Complexity: O(cells).
  public var cellPaths: [String] { tree.nodes.map(\.path) }

  /// Live particles (alive at the current time), holes excluded.
  /// - Complexity: O(stored particles).
  public var liveCount: Int {
    guard let t = localTime else { return 0 }
    var n = 0
    for i in 0..<store.count where isAlive(i, at: t) { n += 1 }
    return n
  }

  @inline(__always)
  private func isAlive(_ i: Int, at t: Double) -> Bool {
    let age = t - store.birthTime(i)
    return age >= 0 && age < Double(store.lifetime(i))
  }

  // MARK: - Seek and step

  /// Jumps to `time` (forward or backward), rebuilding the live set from the
  /// birth schedule.
  /// - Complexity: O(births in the last max-lifetime window of each cell,
  ///   including the parents whose sub-cell windows reach `time`) plus a sort
  ///   of the live particles; independent of `time` itself.
  public func seek(to time: Double) {
    precondition(time.isFinite, "seek(to:) needs a finite time")
    let t = localTime(for: time)
    if tree.nodes.count == 1 && configuration.overflowPolicy == .reject {
      // One cell: births arrive in (birth time, id) order; append directly.
      store.removeAll()
      forEachTopLevelBirth(node: 0, after: t - tree.maximumLifetime(0), through: t) { r in
        if r.isAlive(at: t) { store.append(r) }
      }
      lastKnownAlive = store.count
      localTime = t
      return
    }
    var live: [BirthRecord] = []
    for node in tree.nodes.indices {
      forEachBirth(node: node, after: t - tree.maximumLifetime(node), through: t) { r in
        if r.isAlive(at: t) { self.collect(r, into: &live) }
      }
    }
    live.sort(by: Self.precedes)
    store.removeAll()
    store.reserve(live.count)
    let drop = configuration.overflowPolicy == .capOldestFirst ? Swift.max(0, live.count - configuration.budget) : 0
    for r in live.dropFirst(drop) { store.append(r) }
    lastKnownAlive = store.count
    localTime = t
  }

  /// Moves to `time` incrementally: appends the births since the last time
  /// and drops the dead. Moving backward (or the first call) seeks.
  /// Gives exactly the particles ``seek(to:)`` gives.
  /// - Complexity: O(births in the step, plus parents whose sub-cell windows
  ///   reach it), amortised; an O(stored particles) count and compaction
  ///   only when the store has doubled past the last live count (or every
  ///   step when capping). No allocations once the buffers have grown.
  public func advance(to time: Double) {
    precondition(time.isFinite, "advance(to:) needs a finite time")
    let t = localTime(for: time)
    guard let previous = localTime, t >= previous else {
      seek(to: time)
      return
    }
    let capping = configuration.overflowPolicy == .capOldestFirst
    if tree.nodes.count == 1 && !capping {
      // One cell: its births arrive in (birth time, id) order, all after the
      // stored ones; append them straight to the slab (no birth list, no
      // sort, one record copy fewer).
      if store.count > 2 * lastKnownAlive + 1024 { compactIfMostlyDead(at: t) }
      forEachTopLevelBirth(node: 0, after: previous, through: t) { r in
        if r.isAlive(at: t) { store.append(r) }
      }
      localTime = t
      return
    }
    born.removeAll(keepingCapacity: true)
    for node in tree.nodes.indices {
      forEachBirth(node: node, after: previous, through: t) { r in
        if r.isAlive(at: t) { self.collect(r, into: &born) }
      }
    }
    Self.insertionSort(&born)
    // Dead particles are skipped by the kernel and compacted away once they
    // are an eighth of the store. Counting them is O(n), so it happens here
    // only when the store has grown well past the last known live count (or
    // when capping needs the exact count); `render(into:)` checks every frame
    // with the count it computes anyway.
    if capping || store.count + born.count > 2 * lastKnownAlive + 1024 {
      compactIfMostlyDead(at: t)
    }
    store.reserve(store.count + born.count)
    for r in born { store.append(r) }
    born.removeAll(keepingCapacity: true)
    if capping {
      let alive = store.aliveCount(blocks: 0..<store.blockCount, at: t, hidden: nil)
      if alive > configuration.budget {
        store.removeAll { !self.isAlive($0, at: t) }
        store.removeFirst(store.count - configuration.budget)
      }
    }
    localTime = t
  }

  /// Appends `r` to `records`. When capping, memory stays bounded: at twice
  /// the budget the list is sorted and cut to the newest `budget`, which
  /// cannot drop anything the final cut would keep (each dropped record
  /// already has `budget` newer ones).
  private func collect(_ r: BirthRecord, into records: inout [BirthRecord]) {
    records.append(r)
    let budget = configuration.budget
    if configuration.overflowPolicy == .capOldestFirst && records.count >= 2 * budget {
      records.sort(by: Self.precedes)
      records.removeFirst(records.count - budget)
    }
  }

  /// Counts the live particles and compacts the store when an eighth of it
  /// is dead.
  /// - Complexity: O(stored particles).
  private func compactIfMostlyDead(at t: Double) {
    let alive = store.aliveCount(blocks: 0..<store.blockCount, at: t, hidden: nil)
    noteAlive(alive, at: t)
  }

  /// Records a live count just computed at `t`; compacts when an eighth of
  /// the store is dead.
  private func noteAlive(_ alive: Int, at t: Double) {
    let dead = store.count - alive
    if dead * 8 > store.count {
      // The common case (similar lifetimes, deaths in birth order): the
      // dead form a prefix. Dropping its whole blocks is one block-aligned
      // memmove; the few dead lanes left are holes the kernel skips.
      var prefix = 0
      while prefix < store.count && !isAlive(prefix, at: t) { prefix += 1 }
      if prefix * 2 >= dead && prefix >= 8 {
        store.removeFirstBlocks(prefix / 8)
      } else {
        store.removeAll { !self.isAlive($0, at: t) }
      }
    }
    lastKnownAlive = alive
  }

  /// Sorts records into the canonical order in place, without allocating:
  /// each cell's births arrive in time order, so the input is nearly sorted.
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
      records.sort(by: precedes)
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

  // MARK: - Birth enumeration

  /// Calls `body` with every particle of `node` (lifetime > 0) born in
  /// (`lo`, `hi`], dead or alive, in no particular order.
  ///
  /// Top-level cells count births with the schedule; a sub-cell first
  /// enumerates the parents born in (lo − maximum emission age, hi], then each
  /// parent's own schedule over its window
  /// [birth + beginTime, birth + min(beginTime + duration, lifetime)).
  func forEachBirth(node: Int, after lo: Double, through hi: Double, _ body: (BirthRecord) -> Void) {
    guard hi > lo else { return }
    let n = tree.nodes[node]
    let seed = effect.emitter.seed
    if let parent = n.parent {
      forEachBirth(node: parent, after: lo - tree.maximumEmissionAge(node), through: hi) { p in
        // The window opens at parent age max(0, beginTime): a parent emits only while alive.
        let start = p.birthTime + Swift.max(0, n.beginTime)
        let end = p.birthTime + Swift.min(n.windowEndOffset, Double(p.lifetime))
        guard end > start else { return }
        let first = n.schedule.count(start: start, end: end, upTo: lo)
        let last = n.schedule.count(start: start, end: end, upTo: hi)
        guard last > first else { return }
        for k in first..<last {
          guard let tb = n.schedule.birthTime(k, start: start, end: end) else { break }
          if let r = BirthSampler.child(tree: tree, seed: seed, node: node, parent: p, k: k, birthTime: tb) {
            body(r)
          }
        }
      }
    } else {
      forEachTopLevelBirth(node: node, after: lo, through: hi, body)
    }
  }

  /// ``forEachBirth(node:after:through:_:)`` for a top-level `node`, in
  /// birth order. Always inlined so that the one-cell paths of ``seek(to:)``
  /// and ``advance(to:)`` get `body` inlined too (no call and no record copy
  /// per birth).
  @inline(__always)
  func forEachTopLevelBirth(node: Int, after lo: Double, through hi: Double, _ body: (BirthRecord) -> Void) {
    guard hi > lo else { return }
    let n = tree.nodes[node]
    let seed = effect.emitter.seed
    // The simulation starts at local time 0.
    let start = Swift.max(0, n.beginTime)
    let end = n.duration > 0 ? n.beginTime + n.duration : .infinity
    let first = n.schedule.count(start: start, end: end, upTo: lo)
    let last = n.schedule.count(start: start, end: end, upTo: hi)
    guard last > first else { return }
    // Per cell, not per birth: the parameter table, path key and segment
    // look-up (one segment unless the effect has timed changes).
    let key = n.key
    let segmented = tree.segmentStarts.count > 1
    n.parameters.withUnsafeBufferPointer { parameters in
      for k in first..<last {
        guard let tb = n.schedule.birthTime(k, start: start, end: end) else { break }
        let segment = segmented ? tree.segment(at: tb) : 0
        if let r = BirthSampler.topLevel(parameters[segment], node: node, key: key, seed: seed, k: k, birthTime: tb) {
          body(r)
        }
      }
    }
  }

  // MARK: - Inspection

  /// Every live particle at the current time, sorted by id.
  /// - Complexity: O(n log n), n = stored particles.
  public func particles() -> [ParticleSnapshot] {
    guard let t = localTime else { return [] }
    var out: [ParticleSnapshot] = []
    for i in 0..<store.count where isAlive(i, at: t) {
      let r = store.record(at: i)
      let a = Float(t - r.birthTime)
      out.append(
        ParticleSnapshot(
          id: r.id, cellPath: tree.nodes[Int(r.cell)].path, birthTime: r.birthTime, lifetime: r.lifetime,
          position: r.position(age: a), velocity: r.velocity(age: a), scale: r.scale(age: a),
          rotation: r.spin * a, color: r.color(age: a)))
    }
    out.sort { $0.id < $1.id }
    return out
  }

  /// The birth records of the live set in store order (birth time, then id).
  package func liveRecords() -> [BirthRecord] {
    guard let t = localTime else { return [] }
    return (0..<store.count).filter { isAlive($0, at: t) }.map { store.record(at: $0) }
  }

  // MARK: - Rendering

  /// Fills `frame` with the live particles at the current time, in the order
  /// `renderMode` demands, reusing its storage.
  ///
  /// Order: `oldestFirst` birth order (oldest first), `oldestLast` the
  /// reverse, `unordered` and `additive` ascending id, `backToFront` ascending
  /// tracked z then id. Particles of disabled cells are not drawn.
  /// - Complexity: O(n) for the evaluation, split into fixed chunks of
  ///   `chunkSize` over `threads` threads; plus an O(n) radix sort when the
  ///   order needs one (never for `oldestFirst`/`oldestLast`, nor for
  ///   `unordered` when birth order is already id order, e.g. one cell).
  ///   No allocations once the buffers have grown.
  public func render(into frame: inout ParticleFrame) {
    render(into: &frame, threads: configuration.threads, computesAffines: configuration.computesAffines)
  }

  /// ``render(into:)`` with the configuration's thread count and affine
  /// switch overridden, so benchmarks can compare them on one live set.
  package func render(into frame: inout ParticleFrame, threads: Int, computesAffines: Bool) {
    precondition(threads > 0, "threads must be at least 1")
    let t = localTime ?? 0
    let segment = tree.segment(at: t)
    let layer = tree.layers[segment]
    frame.time = t
    frame.sprites = tree.sprites
    frame.spriteContentsScales = tree.spriteContentsScales
    if frame.cellPaths.count != tree.nodes.count { frame.cellPaths = tree.nodes.map(\.path) }
    var anyHidden = false
    for (i, node) in tree.nodes.enumerated() {
      hidden[i] = !node.parameters[segment].isEnabled
      anyHidden = anyHidden || hidden[i]
    }
    if localTime == nil { store.removeAll() }

    let blocks = store.blockCount
    let blocksPerChunk = Swift.max(1, (configuration.chunkSize + 7) / 8)
    let chunks = (blocks + blocksPerChunk - 1) / blocksPerChunk
    if chunkCounts.count < chunks + 1 { chunkCounts = Array(repeating: 0, count: chunks + 1) }
    let store = self.store
    // Birth order is the order of oldestFirst/oldestLast, and id order too
    // when there is a single cell (ids k ascend with birth time).
    let needsSortKeys: Bool
    switch layer.renderMode {
    case .oldestFirst, .oldestLast: needsSortKeys = false
    case .unordered, .additive: needsSortKeys = tree.nodes.count > 1
    case .backToFront: needsSortKeys = true
    }
    hidden.withUnsafeBufferPointer { hiddenBuffer in
      let hiddenPointer = anyHidden ? hiddenBuffer.baseAddress : nil
      let hiddenBox = UncheckedSendable(hiddenPointer)
      // One worker and few holes: a single pass into buffers sized for
      // every stored particle (an upper bound), cut to the live count
      // afterwards; this skips re-reading the birth-time and lifetime lines
      // of every block. The sizing writes a filler per hole, so with many
      // holes (dead particles awaiting compaction; store.count − the last
      // live count bounds them) two passes are cheaper. Several workers:
      // pass 1 counts each chunk's live particles so that a prefix sum gives
      // each chunk its output offset.
      let singlePass = (threads <= 1 || chunks <= 1) && (store.count - lastKnownAlive) * 8 <= store.count
      var total = 0
      if singlePass {
        total = store.count
      } else {
        chunkCounts.withUnsafeMutableBufferPointer { counts in
          let countsBox = UncheckedSendable(counts.baseAddress!)
          Self.parallel(chunks: chunks, threads: threads) { c in
            let range = c * blocksPerChunk..<Swift.min(blocks, (c + 1) * blocksPerChunk)
            countsBox.value[c] = store.aliveCount(blocks: range, at: t, hidden: hiddenBox.value)
          }
        }
        for c in 0..<chunks {
          let n = chunkCounts[c]
          chunkCounts[c] = total
          total += n
        }
      }
      Self.resize(&frame.instances, to: total, filler: Self.blankInstance)
      Self.resize(&frame.affines, to: computesAffines ? total : 0, filler: .identity)
      Self.resize(&scratchIDs, to: total, filler: 0)
      Self.resize(&scratchDepths, to: total, filler: 0)
      // Evaluate each chunk into its own output range.
      frame.instances.withUnsafeMutableBufferPointer { instances in
        frame.affines.withUnsafeMutableBufferPointer { affines in
          scratchIDs.withUnsafeMutableBufferPointer { ids in
            scratchDepths.withUnsafeMutableBufferPointer { depths in
              // An empty frame has no buffers; a dummy non-nil pointer is
              // never written through because every chunk writes 0 particles.
              let target = EvaluationTarget(
                instances: instances.baseAddress ?? UnsafeMutablePointer(bitPattern: 64)!,
                affines: computesAffines ? affines.baseAddress : nil,
                ids: ids.baseAddress ?? UnsafeMutablePointer(bitPattern: 64)!,
                depths: depths.baseAddress ?? UnsafeMutablePointer(bitPattern: 64)!,
                hidden: hiddenBox.value, flattensDepth: !layer.preservesDepth,
                writesSortKeys: needsSortKeys)
              if singlePass {
                total = store.evaluate(blocks: 0..<blocks, at: t, into: target, start: 0)
                return
              }
              let starts = UncheckedSendable(chunkCounts)
              Self.parallel(chunks: chunks, threads: threads) { c in
                let range = c * blocksPerChunk..<Swift.min(blocks, (c + 1) * blocksPerChunk)
                _ = store.evaluate(blocks: range, at: t, into: target, start: starts.value[c])
              }
            }
          }
        }
      }
      if singlePass {
        Self.resize(&frame.instances, to: total, filler: Self.blankInstance)
        Self.resize(&frame.affines, to: computesAffines ? total : 0, filler: .identity)
        Self.resize(&scratchIDs, to: total, filler: 0)
        Self.resize(&scratchDepths, to: total, filler: 0)
      }
      applyOrder(layer.renderMode, to: &frame, count: total)
      if !anyHidden && localTime != nil { noteAlive(total, at: t) }
      frame.batches.removeAll(keepingCapacity: true)
      if total > 0 {
        frame.batches.append(
          DrawBatch(range: 0..<total, blendMode: layer.renderMode == .additive ? .additive : .sourceOver))
      }
    }
  }

  /// Reorders the frame (evaluated in birth order) as `mode` demands.
  private func applyOrder(_ mode: RenderMode, to frame: inout ParticleFrame, count n: Int) {
    switch mode {
    case .oldestFirst:
      return
    case .oldestLast:
      frame.instances.reverse()
      frame.affines.reverse()
      return
    case .unordered, .additive:
      if tree.nodes.count <= 1 { return }
      var sorted = true
      var i = 1
      while i < n && sorted {
        sorted = scratchIDs[i - 1] < scratchIDs[i]
        i += 1
      }
      if sorted { return }
      permutation.reset(count: n)
      scratchIDs.withUnsafeBufferPointer { ids in permutation.sort(bytes: 8) { ids[$0] } }
    case .backToFront:
      permutation.reset(count: n)
      scratchIDs.withUnsafeBufferPointer { ids in permutation.sort(bytes: 8) { ids[$0] } }
      scratchDepths.withUnsafeBufferPointer { depths in
        permutation.sort(bytes: 4) { RadixPermutation.orderedBits(depths[$0]) }
      }
    }
    let order = permutation.order
    Self.resize(&scratchInstances, to: n, filler: Self.blankInstance)
    for j in 0..<n { scratchInstances[j] = frame.instances[Int(order[j])] }
    swap(&scratchInstances, &frame.instances)
    if !frame.affines.isEmpty {
      Self.resize(&scratchAffines, to: n, filler: .identity)
      for j in 0..<n { scratchAffines[j] = frame.affines[Int(order[j])] }
      swap(&scratchAffines, &frame.affines)
    }
  }

  /// Sets `array.count` to `n`, keeping its capacity (allocates only to grow).
  /// Growth is geometric (⅛ headroom past `n`): an effect whose live set
  /// creeps up by a few births per frame would otherwise reallocate and copy
  /// the whole buffer every frame.
  private static func resize<T>(_ array: inout [T], to n: Int, filler: T) {
    if array.count > n {
      array.removeLast(array.count - n)
    } else if array.count < n {
      if n > array.capacity { array.reserveCapacity(n + n / 8) }
      array.append(contentsOf: repeatElement(filler, count: n - array.count))
    }
  }

  private static let blankInstance = ParticleInstance(
    x: 0, y: 0, z: 0, scale: 0, color: .zero, contentsRect: .zero, rotation: 0, normalizedAge: 0,
    sprite: 0, cell: 0)

  /// Runs `body(c)` exactly once for every chunk `c`, on up to `threads`
  /// workers. Workers claim the next unclaimed chunk from a shared atomic
  /// counter, so a worker whose core is busy (a shared machine) takes fewer
  /// chunks instead of holding the frame back; each chunk's result depends
  /// only on `c`, so which worker ran it never shows in the output.
  static func parallel(chunks: Int, threads: Int, _ body: @Sendable (Int) -> Void) {
    if threads <= 1 || chunks <= 1 {
      for c in 0..<chunks { body(c) }
      return
    }
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: Swift.min(threads, chunks)) { _ in
      while true {
        let c = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard c < chunks else { return }
        body(c)
      }
    }
  }
}

/// A value crossing into worker closures whose safety the caller guarantees
/// (disjoint writes, read-only shared data).
struct UncheckedSendable<T>: @unchecked Sendable {
  var value: T
  init(_ value: T) { self.value = value }
}
