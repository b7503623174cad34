import CSleetKernels
import SleetMath

/// The live particles' birth records in one 64-byte-aligned slab, laid out as
/// an array of structures of arrays (AoSoA): blocks of 8 particles, each
/// block one `sleet_slab_block` (`Sources/CSleetKernels/sleet_layout.h`, the
/// one definition of the layout, which the C kernels share): birth times
/// (`Double` × 8), then one 32-byte slot of 8 lanes per 4-byte field —
/// lifetime, constants row (`UInt32`, into ``ParticleConstantsTable``), p0,
/// v0 (a slot per component), s0, spin, c0 (a slot per component) — holding
/// only what varies from particle to particle. The offsets below are the
/// header's `SLEET_SLAB_*` constants, folded into the code like literals.
///
/// What every particle of one cell born in one segment of the timeline
/// shares — ½·acceleration, scale speed, colour speed, contentsRect, sprite,
/// cell — lives once in the constants table, and the particle keeps its
/// index: 64 bytes a particle instead of 128, so a DRAM-resident frame reads
/// half the bytes. Ids (read only to sort or to report them) live in a side
/// array. `1/lifetime` is recomputed by the kernel: the same IEEE division as
/// storing it, so the same bits.
///
/// Why blocks: evaluating a frame reads one sequential input stream and
/// writes one output stream, which keeps DRAM-resident evaluation near the
/// streaming limit (docs/particles.md) and sidesteps the 4 KiB aliasing of
/// many SoA streams (all the fields of a block sit in one 512-byte span, 32
/// bytes apart).
///
/// The stored blocks are a window `[head, head + blockCount)` of the slab:
/// dropping whole leading blocks (the oldest particles, dead first in the
/// common case) only moves `head`; the window slides back to the slab's start
/// when appending reaches its end.
///
/// Invariants: particles occupy indices `0..<count` (relative to the window)
/// in ascending (birth time, id) order; lanes at or past `count` in the last
/// block have lifetime 0 (never alive) and the constants index of lane 0, so
/// kernels may process whole blocks. Indices may hold particles that have died
/// since (holes); `removeAll(where:)` removes them stably.
///
/// Sendable because worker threads only *read* it, during a frame's passes,
/// while the owning `ParticleSystem` does not mutate it.
final class ParticleStore: @unchecked Sendable {
  /// Particles a block holds.
  @inline(__always) static var lanes: Int { SLEET_SLAB_LANES }
  /// Bytes of one 8-lane field of 4-byte values (a vector field has one per
  /// component).
  @inline(__always) static var slotBytes: Int { SLEET_SLAB_SLOT_BYTES }
  /// Bytes of a block (`sleet_slab_block`).
  @inline(__always) static var blockBytes: Int { SLEET_SLAB_BLOCK_BYTES }

  /// The per-(cell, segment) constants the particles' constants-row field
  /// indexes.
  let constants: ParticleConstantsTable
  /// The slab; `capacity / 8` blocks.
  private var base: UnsafeMutableRawPointer
  /// Ids, one per slab lane (same lane numbering as the slab).
  private var idBase: UnsafeMutablePointer<UInt64>
  /// Per slab block, the surely-alive bound of its particles (see
  /// `aliveBounds`): a count can skip reading a whole block that is surely
  /// alive (``isSurelyAlive(block:at:)``).
  private var boundBase: UnsafeMutablePointer<Double>
  /// Particles the slab can hold (a multiple of 8).
  private(set) var capacity: Int
  /// First stored block of the slab. Written only by the store's own files
  /// (appends here, removals in ParticleStore+Maintenance.swift), as are
  /// `count` and the bounds.
  var head = 0
  /// Particles stored, holes included.
  var count: Int = 0
  /// Blocks written whole by ``appendBlock(_:times:constantsIndex:cell:)``
  /// since the store was made (tests check that the fast path ran).
  private(set) var blocksAppended = 0
  /// Times the window was moved to a fresh or the same slab (each O(count))
  /// since the store was made (tests check that a steady effect rarely
  /// moves it).
  private(set) var slabMoves = 0
  /// The live count last computed for this store (by a frame, a seek or a
  /// compaction check). The system compacts when the stored count grows
  /// well past it, and a frame writes in one pass when few of the stored
  /// are dead.
  var lastKnownAlive = 0

  init(constants: ParticleConstantsTable, capacity: Int = 64) {
    self.constants = constants
    let c = Swift.max(8, (capacity + 7) & ~7)
    self.capacity = c
    base = UnsafeMutableRawPointer.allocate(byteCount: c / 8 * Self.blockBytes, alignment: 64)
    base.initializeMemory(as: UInt8.self, repeating: 0, count: c / 8 * Self.blockBytes)
    idBase = .allocate(capacity: c)
    idBase.initialize(repeating: 0, count: c)
    boundBase = .allocate(capacity: c / 8)
    boundBase.initialize(repeating: -.infinity, count: c / 8)
  }

  deinit {
    base.deallocate()
    idBase.deallocate()
    boundBase.deallocate()
  }

  var blockCount: Int { (count + 7) / 8 }

  /// The first stored block (block `b` of the window is at `blocks + b·512`).
  /// Valid until the next mutation.
  var blocks: UnsafeMutableRawPointer { base + head * Self.blockBytes }

  /// The ids of the stored particles, index-aligned with the window.
  var ids: UnsafeMutablePointer<UInt64> { idBase + head * 8 }

  /// Per stored block, ``surelyAliveBound(death:)`` of min(birth time +
  /// lifetime) of its particles: the time before which all of them are
  /// surely alive. Kept in place of the earliest death itself so that the
  /// frame's block loop tests a block with one compare
  /// (`sleet_evaluate_blocks8`); the bound is monotonic in the death, so the
  /// running minimum of bounds is the bound of the minimum.
  var aliveBounds: UnsafeMutablePointer<Double> { boundBase + head }

  /// Makes room for at least `needed` particles in the window: slides the
  /// window to the slab's start when that leaves a quarter of the slab free,
  /// else grows the slab by halves until it does.
  ///
  /// Why a quarter free after either: the window moves forward as the
  /// oldest blocks die, so a slab that only just held `needed` had to move
  /// again a few steps later. Growing only to `needed` once reallocated,
  /// zeroed and copied the whole slab every few frames of a steady effect
  /// whose count sat just under the capacity (1000 particles in a slab of
  /// 1024), most of its step. With a quarter free,
  /// the window moves a quarter of the slab between two O(count) moves, so
  /// they cost O(1) a particle, amortised; the slab stays under twice the
  /// largest `needed` plus a block.
  /// - Complexity: O(count) when it slides or grows, else O(1).
  func reserve(_ needed: Int) {
    guard head * 8 + needed > capacity else { return }
    if head > 0 && needed <= capacity - capacity / 4 {
      slideToStart()
      slabMoves &+= 1
      return
    }
    var c = capacity
    while needed > c - c / 4 { c = (c + c / 2 + 7) & ~7 }
    slabMoves &+= 1
    let bytes = c / 8 * Self.blockBytes
    let fresh = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
    fresh.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
    fresh.copyMemory(from: blocks, byteCount: blockCount * Self.blockBytes)
    let freshIDs = UnsafeMutablePointer<UInt64>.allocate(capacity: c)
    freshIDs.initialize(repeating: 0, count: c)
    freshIDs.update(from: ids, count: blockCount * 8)
    let freshBounds = UnsafeMutablePointer<Double>.allocate(capacity: c / 8)
    freshBounds.initialize(repeating: -.infinity, count: c / 8)
    freshBounds.update(from: aliveBounds, count: blockCount)
    base.deallocate()
    idBase.deallocate()
    boundBase.deallocate()
    base = fresh
    idBase = freshIDs
    boundBase = freshBounds
    head = 0
    capacity = c
  }

  /// Moves the window's blocks to the slab's start (one memmove each for the
  /// slab and the ids).
  private func slideToStart() {
    guard head > 0 else { return }
    base.copyMemory(from: blocks, byteCount: blockCount * Self.blockBytes)
    idBase.update(from: ids, count: blockCount * 8)
    boundBase.update(from: aliveBounds, count: blockCount)
    head = 0
  }

  /// Particle `index`'s value of the `Float` field at byte `offset` of its
  /// block (a `SLEET_SLAB_*` offset, plus c · ``slotBytes`` for component c).
  @inline(__always)
  private func floatSlot(_ offset: Int, _ index: Int) -> UnsafeMutablePointer<Float> {
    (blocks + (index >> 3) * Self.blockBytes + offset + (index & 7) * 4)
      .assumingMemoryBound(to: Float.self)
  }

  /// As ``floatSlot(_:_:)``, for a `UInt32` field (or a 4-byte field's bits).
  @inline(__always)
  private func wordSlot(_ offset: Int, _ index: Int) -> UnsafeMutablePointer<UInt32> {
    (blocks + (index >> 3) * Self.blockBytes + offset + (index & 7) * 4)
      .assumingMemoryBound(to: UInt32.self)
  }

  @inline(__always)
  private func timeSlot(_ index: Int) -> UnsafeMutablePointer<Double> {
    (blocks + (index >> 3) * Self.blockBytes + SLEET_SLAB_BIRTH_TIME + (index & 7) * 8)
      .assumingMemoryBound(to: Double.self)
  }

  /// Birth time of particle `i`.
  func birthTime(_ i: Int) -> Double { timeSlot(i).pointee }
  /// Lifetime of particle `i`.
  func lifetime(_ i: Int) -> Float { floatSlot(SLEET_SLAB_LIFETIME, i).pointee }
  /// Id of particle `i`.
  func id(_ i: Int) -> UInt64 { ids[i] }

  /// Whether particle `i` is alive at `t`: age t − birth time in [0,
  /// lifetime), in `Double` (``BirthRecord/isAlive(at:)``).
  @inline(__always)
  func isAlive(_ i: Int, at t: Double) -> Bool {
    let age = t - birthTime(i)
    return age >= 0 && age < Double(lifetime(i))
  }

  /// Writes `r` at index `i` (no bounds growth).
  @inline(__always)
  private func write(_ r: BirthRecord, constantsIndex: UInt32, at i: Int) {
    timeSlot(i).pointee = r.birthTime
    floatSlot(SLEET_SLAB_LIFETIME, i).pointee = r.lifetime
    wordSlot(SLEET_SLAB_CONSTANTS_ROW, i).pointee = constantsIndex
    for k in 0..<3 {
      floatSlot(SLEET_SLAB_POSITION + k * Self.slotBytes, i).pointee = r.position[k]
      floatSlot(SLEET_SLAB_VELOCITY + k * Self.slotBytes, i).pointee = r.velocity[k]
    }
    floatSlot(SLEET_SLAB_SCALE, i).pointee = r.scale
    floatSlot(SLEET_SLAB_SPIN, i).pointee = r.spin
    for k in 0..<4 { floatSlot(SLEET_SLAB_COLOR + k * Self.slotBytes, i).pointee = r.color[k] }
    ids[i] = r.id
  }

  /// The record at index `i` (lossless: `record(at:)` after `append` returns
  /// the appended record).
  func record(at i: Int) -> BirthRecord {
    precondition(i >= 0 && i < count)
    let k = constants[Int(wordSlot(SLEET_SLAB_CONSTANTS_ROW, i).pointee)]
    var r = BirthRecord(
      id: id(i), cell: k.cell, birthTime: birthTime(i), lifetime: lifetime(i), position: .zero,
      velocity: .zero, halfAcceleration: k.halfAcceleration, scale: floatSlot(SLEET_SLAB_SCALE, i).pointee,
      scaleSpeed: k.scaleSpeed, spin: floatSlot(SLEET_SLAB_SPIN, i).pointee, color: .zero,
      colorSpeed: k.colorSpeed, contentsRect: k.contentsRect, sprite: k.sprite)
    for k in 0..<3 {
      r.position[k] = floatSlot(SLEET_SLAB_POSITION + k * Self.slotBytes, i).pointee
      r.velocity[k] = floatSlot(SLEET_SLAB_VELOCITY + k * Self.slotBytes, i).pointee
    }
    for k in 0..<4 { r.color[k] = floatSlot(SLEET_SLAB_COLOR + k * Self.slotBytes, i).pointee }
    return r
  }

  /// Appends `r`, whose shared values are row `constantsIndex` of the
  /// constants table. The caller keeps (birth time, id) order.
  /// - Precondition (checked in debug builds): the row holds `r`'s shared
  ///   values, so ``record(at:)`` returns `r`.
  /// - Complexity: amortised O(1); allocates only when the slab grows.
  @inline(__always)
  func append(_ r: BirthRecord, constantsIndex: UInt32) {
    assert(constants[Int(constantsIndex)].matches(r), "constants row \(constantsIndex) does not match the record")
    if head * 8 + count == capacity { reserve(count + 1) }
    if count & 7 == 0 {
      // A fresh block: no stale lane may look alive, and its tail lanes
      // share lane 0's constants (uniform blocks stay uniform).
      for lane in 0..<8 {
        floatSlot(SLEET_SLAB_LIFETIME, count + lane).pointee = 0
        wordSlot(SLEET_SLAB_CONSTANTS_ROW, count + lane).pointee = constantsIndex
      }
    }
    write(r, constantsIndex: constantsIndex, at: count)
    let b = count >> 3
    let bound = Self.surelyAliveBound(death: r.birthTime + Double(r.lifetime))
    aliveBounds[b] = count & 7 == 0 ? bound : Swift.min(aliveBounds[b], bound)
    count += 1
  }

  /// Appends the eight births of `batch` as one fresh block, column by
  /// column: each slot of the block gets the batch's field as one 32-byte
  /// store (birth times: 64 bytes), the ids one 64-byte store, the
  /// block's earliest end of life the minimum over its lanes. The same bytes
  /// as eight ``append(_:constantsIndex:)`` calls with the records of lanes
  /// 0…7 (tested against it: `BatchedAppendTests`).
  ///
  /// **Invariants (the caller's, checked by preconditions where cheap):**
  /// `count` is a multiple of 8, so the block starts fresh and is 64-byte
  /// aligned (the slab is, and blocks are 512 B), and no lane of it holds a
  /// particle; all eight lanes are births that exist and are alive (lifetime
  /// > 0), born at `times` after every stored particle and in (birth time,
  /// id) order; `constantsIndex` is the row of their (cell, segment). No
  /// tail: eight lanes or none (partial batches go through `append`). The
  /// stores write only the new block and its id and death entries, which no
  /// other pointer aliases.
  @inline(__always)
  func appendBlock(_ batch: BirthBatch, times: SIMD8<Double>, constantsIndex: UInt32, cell: Int) {
    precondition(count & 7 == 0, "a block append needs a fresh block")
    assert(constants[Int(constantsIndex)].cell == UInt32(cell), "constants row \(constantsIndex) is not cell \(cell)'s")
    if head * 8 + count + 8 > capacity { reserve(count + 8) }
    let block = blocks + (count >> 3) * Self.blockBytes
    typealias V = SIMD8<Float>
    let slot = Self.slotBytes
    block.storeBytes(of: times, toByteOffset: SLEET_SLAB_BIRTH_TIME, as: SIMD8<Double>.self)
    block.storeBytes(of: batch.lifetime, toByteOffset: SLEET_SLAB_LIFETIME, as: V.self)
    block.storeBytes(
      of: SIMD8(repeating: constantsIndex), toByteOffset: SLEET_SLAB_CONSTANTS_ROW, as: SIMD8<UInt32>.self)
    block.storeBytes(of: batch.x, toByteOffset: SLEET_SLAB_POSITION, as: V.self)
    block.storeBytes(of: batch.y, toByteOffset: SLEET_SLAB_POSITION + slot, as: V.self)
    block.storeBytes(of: batch.z, toByteOffset: SLEET_SLAB_POSITION + 2 * slot, as: V.self)
    block.storeBytes(of: batch.vx, toByteOffset: SLEET_SLAB_VELOCITY, as: V.self)
    block.storeBytes(of: batch.vy, toByteOffset: SLEET_SLAB_VELOCITY + slot, as: V.self)
    block.storeBytes(of: batch.vz, toByteOffset: SLEET_SLAB_VELOCITY + 2 * slot, as: V.self)
    block.storeBytes(of: batch.scale, toByteOffset: SLEET_SLAB_SCALE, as: V.self)
    block.storeBytes(of: batch.spin, toByteOffset: SLEET_SLAB_SPIN, as: V.self)
    block.storeBytes(of: batch.red, toByteOffset: SLEET_SLAB_COLOR, as: V.self)
    block.storeBytes(of: batch.green, toByteOffset: SLEET_SLAB_COLOR + slot, as: V.self)
    block.storeBytes(of: batch.blue, toByteOffset: SLEET_SLAB_COLOR + 2 * slot, as: V.self)
    block.storeBytes(of: batch.alpha, toByteOffset: SLEET_SLAB_COLOR + 3 * slot, as: V.self)
    // ParticleID.topLevel(cell:birthIndex:) per lane (the caller checked
    // first + 7 < 2⁵⁶).
    let lanes = SIMD8<UInt64>(0, 1, 2, 3, 4, 5, 6, 7)
    let id = SIMD8(repeating: UInt64(cell) << 56 | UInt64(batch.first)) &+ lanes
    UnsafeMutableRawPointer(ids + count).storeBytes(of: id, as: SIMD8<UInt64>.self)
    // append's running minimum, in its order.
    var death = times[0] + Double(batch.lifetime[0])
    for l in 1..<8 { death = Swift.min(death, times[l] + Double(batch.lifetime[l])) }
    aliveBounds[count >> 3] = Self.surelyAliveBound(death: death)
    count += 8
    blocksAppended &+= 1
  }

  /// ``appendBlock(_:times:constantsIndex:cell:)`` fused with the sampling:
  /// the C kernel `sleet_sample_block8` samples the batch `source` and,
  /// when all eight births are alive at `t`, writes them straight into the
  /// fresh block with its earliest end of life; then the ids, and the block
  /// is appended (`lanes` is then not written). Returns false, appending
  /// nothing, when a lane is not alive (or not a birth); `lanes` then holds
  /// the sampled batch for the record-by-record path. The same bytes as
  /// ``appendBlock(_:times:constantsIndex:cell:)`` of `source.sample()`
  /// (`BatchedAppendTests`, both copies of the kernel).
  ///
  /// **Invariants:** as ``appendBlock(_:times:constantsIndex:cell:)``, and
  /// `source` places no lane by itself (``BirthBatch/Source/hasFinalPositions``).
  /// `avx2` runs the kernel's AVX2 copy (only where the CPU has it).
  @inline(__always)
  func appendSampledBlock(
    _ source: BirthBatch.Source, times: SIMD8<Double>, at t: Double, constantsIndex: UInt32, cell: Int,
    lanes: UnsafeMutablePointer<sleet_birth_lanes>, avx2: Bool
  ) -> Bool {
    precondition(count & 7 == 0, "a block append needs a fresh block")
    precondition(source.hasFinalPositions, "a per-lane shape needs BirthBatch's positions")
    precondition(!avx2 || SIMDBuildTarget.runsAVX2Kernels, "the AVX2 copy needs a CPU with AVX2")
    assert(constants[Int(constantsIndex)].cell == UInt32(cell), "constants row \(constantsIndex) is not cell \(cell)'s")
    if head * 8 + count + 8 > capacity { reserve(count + 8) }
    let block = blocks + (count >> 3) * Self.blockBytes
    var death = 0.0
    let written = withUnsafeBytes(of: times) { times in
      let times = times.baseAddress!.assumingMemoryBound(to: Double.self)
      return avx2
        ? sleet_sample_block8_avx2(
          source.sampling, UInt64(source.first), times, t, constantsIndex, block, lanes, &death)
        : sleet_sample_block8(source.sampling, UInt64(source.first), times, t, constantsIndex, block, lanes, &death)
    }
    guard written != 0 else { return false }
    let laneOffsets = SIMD8<UInt64>(0, 1, 2, 3, 4, 5, 6, 7)
    let id = SIMD8(repeating: UInt64(cell) << 56 | UInt64(source.first)) &+ laneOffsets
    UnsafeMutableRawPointer(ids + count).storeBytes(of: id, as: SIMD8<UInt64>.self)
    aliveBounds[count >> 3] = Self.surelyAliveBound(death: death)
    count += 8
    blocksAppended &+= 1
    return true
  }

  /// Moves particle `from` to index `to` (< from), lane by lane: its birth
  /// time, then its 4-byte word of every other slot of the block.
  func move(from: Int, to: Int) {
    timeSlot(to).pointee = timeSlot(from).pointee
    let birthTimes = SLEET_SLAB_BIRTH_TIME..<SLEET_SLAB_BIRTH_TIME + MemoryLayout<SIMD8<Double>>.size
    // Lane 0 of each slot is at the slot's offset from these.
    let source = blocks + (from >> 3) * Self.blockBytes + (from & 7) * 4
    let target = blocks + (to >> 3) * Self.blockBytes + (to & 7) * 4
    for offset in stride(from: 0, to: Self.blockBytes, by: Self.slotBytes) where !birthTimes.contains(offset) {
      let word = source.load(fromByteOffset: offset, as: UInt32.self)
      target.storeBytes(of: word, toByteOffset: offset, as: UInt32.self)
    }
    ids[to] = ids[from]
  }

  /// Marks lanes past `count` in the last block as never alive, with lane
  /// 0's constants.
  func clearTail() {
    guard count & 7 != 0 else { return }
    let first = count & ~7
    var i = count
    while i & 7 != 0 {
      floatSlot(SLEET_SLAB_LIFETIME, i).pointee = 0
      timeSlot(i).pointee = 0
      wordSlot(SLEET_SLAB_CONSTANTS_ROW, i).pointee = wordSlot(SLEET_SLAB_CONSTANTS_ROW, first).pointee
      i += 1
    }
  }
}
