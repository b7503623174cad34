/// The live particles' birth records in one 64-byte-aligned slab, laid out as
/// an array of structures of arrays (AoSoA): blocks of 8 particles, each block
/// 1024 bytes = 32 slots × 8 lanes × 4 bytes.
///
/// | slot | content (8 lanes each) |
/// |---|---|
/// | 0–1 | birth time (`Double` × 8) |
/// | 2, 3 | lifetime, 1/lifetime |
/// | 4–6 | p0 x, y, z |
/// | 7–9 | v0 x, y, z |
/// | 10–12 | ½·acceleration x, y, z |
/// | 13, 14, 15 | s0, scaleSpeed, spin |
/// | 16–19 | c0 r, g, b, a |
/// | 20–23 | colour speed r, g, b, a |
/// | 24–27 | contentsRect x, y, w, h |
/// | 28, 29 | sprite, cell (`UInt32`) |
/// | 30, 31 | id low and high words (`UInt32`) |
///
/// Why blocks: evaluating a frame reads one sequential input stream and
/// writes one output stream, which keeps DRAM-resident evaluation near the
/// streaming limit (`research-performance.md`, Addendum) and sidesteps the
/// 4 KiB aliasing of many SoA streams (all 32 "streams" of a block sit in one
/// 1 KiB span, 32 bytes apart).
///
/// Invariants: particles occupy indices `0..<count` in ascending
/// (birth time, id) order; lanes at or past `count` in the last block have
/// lifetime 0 (never alive), so kernels may process whole blocks. Indices may
/// hold particles that have died since (holes); `removeAll(where:)` removes
/// them stably.
///
/// Sendable because worker threads only *read* it, during a frame's passes,
/// while the owning `ParticleSystem` does not mutate it.
final class ParticleStore: @unchecked Sendable {
  static let lanes = 8
  static let slots = 32
  static let blockBytes = 1024

  /// The slab; `capacity / 8` blocks.
  private(set) var base: UnsafeMutableRawPointer
  /// Particles the slab can hold (a multiple of 8).
  private(set) var capacity: Int
  /// Particles stored, holes included.
  private(set) var count: Int = 0

  init(capacity: Int = 64) {
    let c = Swift.max(8, (capacity + 7) & ~7)
    self.capacity = c
    base = UnsafeMutableRawPointer.allocate(byteCount: c / 8 * Self.blockBytes, alignment: 64)
    base.initializeMemory(as: UInt8.self, repeating: 0, count: c / 8 * Self.blockBytes)
  }

  deinit { base.deallocate() }

  var blockCount: Int { (count + 7) / 8 }

  /// Grows the slab to hold at least `needed` particles (doubling).
  /// - Complexity: O(count) when it grows, else O(1).
  func reserve(_ needed: Int) {
    guard needed > capacity else { return }
    var c = capacity
    while c < needed { c *= 2 }
    let bytes = c / 8 * Self.blockBytes
    let fresh = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
    fresh.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
    fresh.copyMemory(from: base, byteCount: blockCount * Self.blockBytes)
    base.deallocate()
    base = fresh
    capacity = c
  }

  @inline(__always)
  private func floatSlot(_ slot: Int, _ index: Int) -> UnsafeMutablePointer<Float> {
    (base + (index >> 3) * Self.blockBytes + slot * 32 + (index & 7) * 4)
      .assumingMemoryBound(to: Float.self)
  }

  @inline(__always)
  private func wordSlot(_ slot: Int, _ index: Int) -> UnsafeMutablePointer<UInt32> {
    (base + (index >> 3) * Self.blockBytes + slot * 32 + (index & 7) * 4)
      .assumingMemoryBound(to: UInt32.self)
  }

  @inline(__always)
  private func timeSlot(_ index: Int) -> UnsafeMutablePointer<Double> {
    (base + (index >> 3) * Self.blockBytes + (index & 7) * 8).assumingMemoryBound(to: Double.self)
  }

  /// Birth time of particle `i`.
  func birthTime(_ i: Int) -> Double { timeSlot(i).pointee }
  /// Lifetime of particle `i`.
  func lifetime(_ i: Int) -> Float { floatSlot(2, i).pointee }
  /// Id of particle `i`.
  func id(_ i: Int) -> UInt64 { UInt64(wordSlot(30, i).pointee) | UInt64(wordSlot(31, i).pointee) << 32 }
  /// Cell number of particle `i`.
  func cell(_ i: Int) -> UInt32 { wordSlot(29, i).pointee }

  /// Writes `r` at index `i` (no bounds growth).
  @inline(__always)
  private func write(_ r: BirthRecord, at i: Int) {
    timeSlot(i).pointee = r.birthTime
    floatSlot(2, i).pointee = r.lifetime
    floatSlot(3, i).pointee = 1 / r.lifetime
    for k in 0..<3 {
      floatSlot(4 + k, i).pointee = r.position[k]
      floatSlot(7 + k, i).pointee = r.velocity[k]
      floatSlot(10 + k, i).pointee = r.halfAcceleration[k]
    }
    floatSlot(13, i).pointee = r.scale
    floatSlot(14, i).pointee = r.scaleSpeed
    floatSlot(15, i).pointee = r.spin
    for k in 0..<4 {
      floatSlot(16 + k, i).pointee = r.color[k]
      floatSlot(20 + k, i).pointee = r.colorSpeed[k]
      floatSlot(24 + k, i).pointee = r.contentsRect[k]
    }
    wordSlot(28, i).pointee = r.sprite
    wordSlot(29, i).pointee = r.cell
    wordSlot(30, i).pointee = UInt32(truncatingIfNeeded: r.id)
    wordSlot(31, i).pointee = UInt32(truncatingIfNeeded: r.id >> 32)
  }

  /// The record at index `i` (lossless: `record(at:)` after `append` returns
  /// the appended record).
  func record(at i: Int) -> BirthRecord {
    precondition(i >= 0 && i < count)
    var r = BirthRecord(
      id: id(i), cell: cell(i), birthTime: birthTime(i), lifetime: lifetime(i), position: .zero,
      velocity: .zero, halfAcceleration: .zero, scale: floatSlot(13, i).pointee,
      scaleSpeed: floatSlot(14, i).pointee, spin: floatSlot(15, i).pointee, color: .zero,
      colorSpeed: .zero, contentsRect: .zero, sprite: wordSlot(28, i).pointee)
    for k in 0..<3 {
      r.position[k] = floatSlot(4 + k, i).pointee
      r.velocity[k] = floatSlot(7 + k, i).pointee
      r.halfAcceleration[k] = floatSlot(10 + k, i).pointee
    }
    for k in 0..<4 {
      r.color[k] = floatSlot(16 + k, i).pointee
      r.colorSpeed[k] = floatSlot(20 + k, i).pointee
      r.contentsRect[k] = floatSlot(24 + k, i).pointee
    }
    return r
  }

  /// Appends `r`. The caller keeps (birth time, id) order.
  /// - Complexity: amortised O(1); allocates only when the slab grows.
  @inline(__always)
  func append(_ r: BirthRecord) {
    if count == capacity { reserve(count + 1) }
    if count & 7 == 0 {
      // A fresh block: no stale lane may look alive.
      for lane in 0..<8 { floatSlot(2, count + lane).pointee = 0 }
    }
    write(r, at: count)
    count += 1
  }

  /// Empties the store (keeping the slab).
  func removeAll() {
    count = 0
  }

  /// Moves particle `from` to index `to` (< from), lane by lane.
  private func move(from: Int, to: Int) {
    let src = base + (from >> 3) * Self.blockBytes + (from & 7) * 4
    let dst = base + (to >> 3) * Self.blockBytes + (to & 7) * 4
    // Birth time: two 4-byte halves at lane·8.
    let ts = base + (from >> 3) * Self.blockBytes + (from & 7) * 8
    let td = base + (to >> 3) * Self.blockBytes + (to & 7) * 8
    td.storeBytes(of: ts.load(as: Double.self), as: Double.self)
    for slot in 2..<Self.slots {
      (dst + slot * 32).storeBytes(of: (src + slot * 32).load(as: UInt32.self), as: UInt32.self)
    }
  }

  /// Removes particles for which `keep` is false, keeping the order of the
  /// rest, and resets the lanes past the new count.
  /// - Complexity: O(count), no allocations.
  func removeAll(where remove: (Int) -> Bool) {
    var o = 0
    for i in 0..<count where !remove(i) {
      if o != i { move(from: i, to: o) }
      o += 1
    }
    count = o
    clearTail()
  }

  /// Removes the first `blocks` whole blocks (8·blocks particles), keeping
  /// the order: one memmove of the remaining blocks, which stay 8-aligned.
  /// - Complexity: O(count), sequential copy.
  func removeFirstBlocks(_ blocks: Int) {
    precondition(blocks >= 0 && blocks * 8 <= count)
    guard blocks > 0 else { return }
    let remainingBlocks = blockCount - blocks
    base.copyMemory(from: base + blocks * Self.blockBytes, byteCount: remainingBlocks * Self.blockBytes)
    count -= blocks * 8
  }

  /// Removes the first `n` particles (the oldest), keeping the order.
  func removeFirst(_ n: Int) {
    guard n > 0 else { return }
    removeAll { $0 < n }
  }

  /// Marks lanes past `count` in the last block as never alive.
  private func clearTail() {
    var i = count
    while i & 7 != 0 {
      floatSlot(2, i).pointee = 0
      floatSlot(3, i).pointee = 0
      timeSlot(i).pointee = 0
      i += 1
    }
  }
}
