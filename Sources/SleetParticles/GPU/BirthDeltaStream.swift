/// The birth-delta stream of a ``ParticleSystem``: after each step, only the
/// births since the previous step, as ``GPUBirthSlot``s for a ring buffer a
/// GPU keeps, so the host's per-frame cost is proportional to births, not to
/// live particles (`docs/gpu.md`).
///
/// ```swift
/// let stream = try BirthDeltaStream(system: try ParticleSystem(effect: effect))
/// var ring = BirthRing(capacity: stream.capacity)     // or a GPU buffer
/// for n in 0..<600 {
///   let delta = try stream.advance(to: Double(n) / 60)
///   ring.apply(delta)                                  // upload delta.slots
///   let frame = stream.frameParameters()               // the shader's uniforms
///   …
/// }
/// ```
///
/// **The ring.** `capacity` slots of 96 bytes. Births are written in the
/// canonical order of the live set (birth time, then id: the order
/// `oldestFirst` draws), slot after slot, wrapping at the end; the valid
/// window is the `ringCount` slots that end just before the write position,
/// starting at slot `ringStart`. So ring order is birth order. Particles die
/// on their own (the death rule of ``GPUBirthSlot``); the host also moves the
/// window's start past leading slots that are dead, so the shader's work
/// follows the live set.
///
/// **Capacity overflow.** Appending never overwrites a live particle: when
/// the births of a step would overwrite a slot that is still alive, the step
/// returns a *snapshot* instead (the whole live set, written from slot 0,
/// ``BirthDelta/Kind-swift.enum/snapshot``). If the live set itself exceeds
/// the capacity, the step throws ``BirthDeltaError/capacityExceeded(live:capacity:)``
/// and the next step is a snapshot. The default capacity,
/// ``ParticleSystem/peakLiveParticles``, bounds the births within any cell's
/// longest lifetime, so no overflow happens with it.
///
/// Seeks, backward steps and the first step return a snapshot in the same
/// layout. Births that are born and die within one step are never sent (the
/// system never stores them).
///
/// **Where the births come from** (``Source-swift.enum``). By default
/// (``Source-swift.enum/birthsOnly``) the stream computes each step's births
/// straight from the birth schedule (births are a pure function of the
/// effect, the seed and the time; a sub-cell's births of its parent's birth
/// record, recomputed the same way) and keeps no live particle on the CPU:
/// host cost O(births in the step). ``Source-swift.enum/fullSystem`` steps
/// the ``ParticleSystem`` itself and reads its new births from its store
/// (host cost of ``ParticleSystem/advance(to:)``, which grows with the live
/// set); it is the reference the births-only source is tested against, bit
/// for bit. Both give the same deltas for every effect the stream accepts.
///
/// Drive the system only through the stream (the full-system source reads
/// the system's store after each step; the births-only source never steps
/// the system, whose own time stays unset). Systems that cap their live set
/// (``ParticleSystemConfiguration/OverflowPolicy/capOldestFirst``) are not
/// supported: capping removes live particles, which the ring cannot express.
public final class BirthDeltaStream {
  /// Where a stream's births come from.
  public enum Source: Hashable, Sendable {
    /// From the birth schedule alone: no live set is kept on the CPU, each
    /// step costs O(its births) (plus, for sub-cells, their parents born
    /// within the sub-cell's longest emission age: `docs/gpu.md`).
    case birthsOnly
    /// From the store of the ``ParticleSystem``, which the stream steps: the
    /// system's own cost, which grows with the live set. The reference.
    case fullSystem
  }

  /// The effect's system: stepped by the stream with
  /// ``Source-swift.enum/fullSystem``; with ``Source-swift.enum/birthsOnly``
  /// only its effect, birth schedule and constants are used.
  public let system: ParticleSystem
  /// Where the births come from.
  public let source: Source
  /// Slots in the ring.
  public let capacity: Int
  /// The emitter-local time of the last step or seek (nil before the first).
  public private(set) var localTime: Double?
  /// Scratch records for the births-only source (several cells).
  private var records: [BirthRecord] = []
  /// The births of the last step: the next step reserves a quarter more,
  /// so the slot array rarely grows by doubling (copies and page faults
  /// were a fifth of a 1M-live step).
  private var lastBirths = 0
  /// The slots array of the last append delta, for the next step to reuse
  /// (see ``advance(to:)``).
  private var recycled: [GPUBirthSlot] = []
  /// The death key of each slot's particle (0: empty), for the overflow check.
  private var deathKeys: [UInt64]
  /// Next slot to write.
  private var head = 0
  /// Valid slots, ending just before `head`.
  private var count = 0
  /// Whether the next step must be a snapshot (after an error).
  private var needsSnapshot = true

  /// Makes a stream over `system` with a ring of `capacity` slots
  /// (default: the system's peak live count, at least 256), taking its
  /// births from `source` (default: births only, no live set on the CPU).
  /// - Throws: ``BirthDeltaError/unsupportedOverflowPolicy`` for a capping
  ///   system.
  /// - Precondition: `capacity` in 1…``maximumCapacity``.
  public init(system: ParticleSystem, capacity: Int? = nil, source: Source = .birthsOnly) throws(BirthDeltaError) {
    if system.configuration.overflowPolicy == .capOldestFirst { throw .unsupportedOverflowPolicy }
    let c = capacity ?? Swift.min(Self.maximumCapacity, Swift.max(256, system.peakLiveParticles))
    precondition(c > 0 && c <= Self.maximumCapacity, "the ring capacity must be in 1…\(Self.maximumCapacity)")
    self.system = system
    self.source = source
    self.capacity = c
    deathKeys = Array(repeating: 0, count: c)
  }

  /// The largest ring: 65,535 workgroups of 256 slots (GLES's guaranteed
  /// dispatch size in one dimension).
  public static let maximumCapacity = 65_535 * 256

  /// The constants table: 16 `Float`s (64 bytes) per row, row
  /// `cell · segments + segment` (layout in `docs/gpu.md`). Upload once.
  public var constantsRows: [Float] {
    let table = system.store.constants
    return Array(
      UnsafeBufferPointer(start: table.rows, count: Swift.max(1, table.count) * ParticleConstantsTable.rowFloats))
  }

  /// Jumps to `time` and returns the live set as a snapshot.
  /// - Throws: ``BirthDeltaError/capacityExceeded(live:capacity:)``.
  /// - Precondition: `time` is finite and ``ParticleSystem/supports(time:)``.
  /// - Complexity: as ``ParticleSystem/seek(to:)`` (births-only: without
  ///   its store) plus O(live).
  public func seek(to time: Double) throws(BirthDeltaError) -> BirthDelta {
    switch source {
    case .fullSystem:
      system.seek(to: time)
      localTime = system.localTime
    case .birthsOnly:
      localTime = system.checkSupported(time, "seek(to:)")
    }
    return try snapshot()
  }

  /// Steps the system to `time` and returns the births since the last step
  /// (a snapshot when moving backward, on the first step, or on overflow).
  /// - Throws: ``BirthDeltaError/capacityExceeded(live:capacity:)``.
  /// - Precondition: `time` is finite and ``ParticleSystem/supports(time:)``.
  /// - Complexity: births-only: O(births in the step) (plus, for sub-cells,
  ///   their parents born within the sub-cell's longest emission age);
  ///   full system: as ``ParticleSystem/advance(to:)`` plus O(births in the
  ///   step), times the cells for an effect with a store per cell (a merge
  ///   of the cells' births). Amortised: each slot's leading-death trim happens once.
  public func advance(to time: Double) throws(BirthDeltaError) -> BirthDelta {
    guard !needsSnapshot, let previous = localTime, system.localTime(for: time) >= previous else {
      return try seek(to: time)
    }
    // The last delta's array, reused when the caller has let go of it
    // (then `recycled` holds the only reference): a fresh 100-200 KB array
    // a step at 1M live went through mmap or brk and page faults each time.
    var slots = recycled
    recycled = []
    slots.removeAll(keepingCapacity: true)
    slots.reserveCapacity(lastBirths + lastBirths / 4 + 8)
    switch source {
    case .fullSystem:
      system.advance(to: time)
      localTime = system.localTime
      if system.usesCellStores {
        // Each cell's births of the step end its store, in (birth time, id)
        // order: merged into the single store's order, the earliest head
        // first (ids differ between cells, so nothing ties).
        let stores = system.cellStores
        withUnsafeTemporaryAllocation(of: Int.self, capacity: stores.count) { next in
          var remaining = 0
          for (c, store) in stores.enumerated() {
            var first = store.count
            while first > 0 && store.birthTime(first - 1) > previous { first -= 1 }
            next[c] = first
            remaining += store.count - first
          }
          slots.reserveCapacity(remaining)
          while remaining > 0 {
            var best = -1
            for c in stores.indices where next[c] < stores[c].count {
              if best >= 0 {
                let (t, u) = (stores[c].birthTime(next[c]), stores[best].birthTime(next[best]))
                guard t < u || (t == u && stores[c].id(next[c]) < stores[best].id(next[best])) else { continue }
              }
              best = c
            }
            slots.append(makeSlot(stores[best].record(at: next[best])))
            next[best] += 1
            remaining -= 1
          }
        }
      } else {
        let store = system.store
        var first = store.count
        while first > 0 && store.birthTime(first - 1) > previous { first -= 1 }
        slots.reserveCapacity(store.count - first)
        for i in first..<store.count { slots.append(makeSlot(store.record(at: i))) }
      }
    case .birthsOnly:
      let t = system.checkSupported(time, "advance(to:)")
      localTime = t
      system.appendAliveBirthSlots(after: previous, at: t, into: &slots, records: &records)
    }
    let n = slots.count
    lastBirths = n
    let timeKey = GPUBirthSlot.orderedKey(localTime!)
    trimDeadLeadingSlots(before: timeKey)
    // Appending overwrites the oldest `overwritten` valid slots.
    let overwritten = count + n - capacity
    if n > capacity { return try snapshot() }
    if overwritten > 0 {
      var j = ringStart
      for _ in 0..<overwritten {
        if deathKeys[j] > timeKey { return try snapshot() }
        j = j + 1 == capacity ? 0 : j + 1
      }
    }
    let firstSlot = head
    deathKeys.withUnsafeMutableBufferPointer { keys in
      for slot in slots {
        keys[head] = slot.deathKey
        head = head + 1 == capacity ? 0 : head + 1
      }
    }
    count = Swift.min(capacity, count + n)
    recycled = slots
    return BirthDelta(kind: .append, firstSlot: firstSlot, slots: slots, ringStart: ringStart, ringCount: count)
  }

  /// The slot of the ring's oldest valid record.
  private var ringStart: Int { (head - count + capacity) % capacity }

  /// Drops leading valid slots whose particles are dead at `timeKey`
  /// (times only move forward between snapshots, so they stay dead).
  /// Walks the window's start forward (no division per slot: a death a
  /// birth, so this runs as often as births are appended).
  private func trimDeadLeadingSlots(before timeKey: UInt64) {
    var start = ringStart
    while count > 0 && deathKeys[start] <= timeKey {
      count -= 1
      start = start + 1 == capacity ? 0 : start + 1
    }
  }

  private func makeSlot(_ r: BirthRecord) -> GPUBirthSlot {
    GPUBirthSlot(r, constantsRow: system.tree.constantsIndex(cell: r.cell, birthTime: r.birthTime))
  }

  /// The live set at the system's time, written from slot 0.
  private func snapshot() throws(BirthDeltaError) -> BirthDelta {
    needsSnapshot = true
    let t = localTime!
    var slots: [GPUBirthSlot] = []
    switch source {
    case .fullSystem:
      for r in system.liveRecords() { slots.append(makeSlot(r)) }
    case .birthsOnly:
      system.appendAliveBirthSlots(after: nil, at: t, into: &slots, records: &records)
    }
    if slots.count > capacity { throw .capacityExceeded(live: slots.count, capacity: capacity) }
    for j in deathKeys.indices { deathKeys[j] = j < slots.count ? slots[j].deathKey : 0 }
    head = slots.count % capacity
    count = slots.count
    needsSnapshot = false
    return BirthDelta(kind: .snapshot, firstSlot: 0, slots: slots, ringStart: 0, ringCount: count)
  }

  /// What the shader needs for a frame at the system's current time: the
  /// time (as an ordered key and split in two `Float`s), the ring window,
  /// the layer's render mode and depth flag, the hidden cells.
  /// - Complexity: O(cells).
  public func frameParameters() -> GPUFrameParameters {
    let t = localTime ?? 0
    let tree = system.tree
    let segment = tree.segment(at: t)
    let layer = tree.layers[segment]
    var hidden = [UInt32](repeating: 0, count: 8)
    for (i, node) in tree.nodes.enumerated() where !node.parameters[segment].isEnabled {
      hidden[i >> 5] |= 1 << UInt32(i & 31)
    }
    let high = Float(t)
    let needsSort: Bool
    switch layer.renderMode {
    case .oldestFirst, .oldestLast: needsSort = false
    case .unordered, .additive: needsSort = tree.nodes.count > 1
    case .backToFront: needsSort = true
    }
    return GPUFrameParameters(
      localTime: t, timeKey: GPUBirthSlot.orderedKey(t), timeHigh: high, timeLow: Float(t - Double(high)),
      ringStart: localTime == nil || needsSnapshot ? 0 : ringStart,
      ringCount: localTime == nil || needsSnapshot ? 0 : count, capacity: capacity,
      flattensDepth: !layer.preservesDepth, renderMode: layer.renderMode, hiddenCells: hidden,
      needsHostSort: needsSort)
  }

  /// Turns an evaluation of the ring (from the GPU or ``BirthRing/evaluate(_:constants:)``,
  /// in ring order, reversed for `oldestLast`) into the frame `render(into:)`
  /// gives: the frame's sprites, cell paths and draw batch, the ids, and the
  /// render order's sort when the mode needs one (``GPUFrameParameters/needsHostSort``,
  /// an O(n) radix sort on the host: the shader does not sort).
  /// - Precondition: `evaluation`'s arrays have equal counts.
  public func finishFrame(
    _ evaluation: GPUEvaluation, parameters p: GPUFrameParameters, into frame: inout ParticleFrame
  ) {
    let n = evaluation.instances.count
    precondition(evaluation.ids.count == n && evaluation.depths.count == n, "an evaluation's arrays have equal counts")
    let tree = system.tree
    frame.time = p.localTime
    frame.sprites = tree.sprites
    frame.spriteContentsScales = tree.spriteContentsScales
    frame.spriteSampling = tree.spriteSampling
    if frame.cellPaths.count != tree.nodes.count { frame.cellPaths = tree.nodes.map(\.path) }
    frame.instances = evaluation.instances
    frame.ids = evaluation.ids
    frame.compactInstances.removeAll(keepingCapacity: true)
    frame.affines.removeAll(keepingCapacity: true)
    if p.needsHostSort {
      system.scratchIDs = evaluation.ids
      system.scratchDepths = evaluation.depths
      system.applyOrder(p.renderMode, to: &frame, count: n)
    }
    frame.batches.removeAll(keepingCapacity: true)
    if n > 0 {
      frame.batches.append(DrawBatch(range: 0..<n, blendMode: p.renderMode == .additive ? .additive : .sourceOver))
    }
  }
}
