import CSleetKernels
import SleetMath
import Testing

@testable import SleetParticles

/// The block loop in C (`sleet_evaluate_blocks8`, the `CSleetKernels` header,
/// through ``ParticleStore/evaluateRun(_:ids:count:at:rows:sinCos:into:at:)``)
/// against its naive twin: each block through the one-block kernel (checked
/// against ``ClosedForm`` by `UniformBlockKernelTests`), its live lanes picked
/// one at a time by the alive test written out here, the rotations' sines and
/// cosines by ``ParticleStore/rotationSinCos(_:blocks:at:into:)`` (Swift's
/// ``FastTrig``, where the run computes its own in C). Byte for byte, in every
/// output mode: full or compact rows, with and without affines, sort keys and
/// depth; rows past the written ones stay untouched.
@Suite("Block-run kernel = one block at a time")
struct BlockRunKernelTests {
  static let t = 10.0
  static let blockCount = 7
  /// The run stops before block 5, the first live block of several rows.
  static let stop = 5

  /// Per block: which lanes are alive at `t` (bit l: lane l) and each lane's
  /// constants row.
  static let blocks: [(alive: UInt8, rows: [UInt32])] = [
    (0xFF, Array(repeating: 0, count: 8)),  // all alive
    (0b1001_1010, Array(repeating: 1, count: 8)),  // partly alive, with the edge lanes below
    (0x00, [0, 1, 0, 1, 0, 1, 0, 1]),  // dead, several rows: skipped, does not stop the run
    (0xFF, Array(repeating: 1, count: 8)),
    (0x7F, Array(repeating: 0, count: 8)),  // the last lane dead
    (0xFF, [0, 0, 0, 0, 1, 1, 1, 1]),  // several rows: the run stops here
    (0xFF, Array(repeating: 0, count: 8)),
  ]

  /// Two constants rows (``ParticleConstantsTable`` layout).
  static let rows: [Float] = [
    0.5, -7.5, 0.25, -0.3, 0.1, -0.2, 0.05, -0.4, 0, 0, 1, 1,
    Float(bitPattern: 2), Float(bitPattern: 0), Float(bitPattern: 2), 0,
    -1, 3, 0, 0.2, -0.1, 0.3, 0.02, -0.1, 0.25, 0.5, 0.25, 0.5,
    Float(bitPattern: 5), Float(bitPattern: 1), Float(bitPattern: 5 | 1 << 16), 0,
  ]

  /// The blocks in ``ParticleStore``'s slot layout, 64-byte aligned.
  /// A lane's birth and lifetime give the alive pattern; block 1 holds the
  /// edges: lane 0 at age = lifetime (dead), lane 1 born at `t` (alive, age
  /// 0), lane 2 born after `t` (dead).
  static func withBlocks<R>(_ body: (UnsafeRawPointer) -> R) -> R {
    let bytes = blockCount * ParticleStore.blockBytes
    let p = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
    defer { p.deallocate() }
    p.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
    var seed: UInt32 = 12345
    func next() -> Float {
      seed = seed &* 1_664_525 &+ 1_013_904_223
      return Float(seed >> 8) / Float(1 << 24) * 4 - 2
    }
    for (b, block) in blocks.enumerated() {
      let q = p + b * ParticleStore.blockBytes
      func put(_ slot: Int, _ lane: Int, _ v: Float) {
        q.storeBytes(of: v, toByteOffset: slot * 32 + lane * 4, as: Float.self)
      }
      for l in 0..<8 {
        let alive = block.alive & (1 << l) != 0
        var birth = t - 1 - Double(l) * 0.125
        var lifetime: Float = alive ? 3 : 0.5
        if b == 1 && l == 0 { (birth, lifetime) = (t - 2, 2) }
        if b == 1 && l == 1 { birth = t }
        if b == 1 && l == 2 { (birth, lifetime) = (t + 0.5, 3) }
        q.storeBytes(of: birth, toByteOffset: l * 8, as: Double.self)
        put(2, l, lifetime)
        q.storeBytes(of: block.rows[l], toByteOffset: 3 * 32 + l * 4, as: UInt32.self)
        for slot in 4...15 { put(slot, l, next()) }
        // Spins up to ±80 rad/s: rotations in every quadrant.
        put(11, l, next() * 40)
      }
    }
    return body(UnsafeRawPointer(p))
  }

  /// Output buffers (64 rows each, filled with a marker byte) and the
  /// target that writes into them.
  final class Output {
    static let capacity = 64
    static let marker: UInt8 = 0xA5
    let instances = UnsafeMutablePointer<ParticleInstance>.allocate(capacity: capacity)
    let compact = UnsafeMutablePointer<CompactParticleInstance>.allocate(capacity: capacity)
    let affines = UnsafeMutablePointer<AffineTransform2D>.allocate(capacity: capacity)
    let ids = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
    let depths = UnsafeMutablePointer<Float>.allocate(capacity: capacity)

    init() {
      for (p, size) in buffers { p.initializeMemory(as: UInt8.self, repeating: Self.marker, count: size) }
    }

    deinit {
      instances.deallocate()
      compact.deallocate()
      affines.deallocate()
      ids.deallocate()
      depths.deallocate()
    }

    /// Each buffer's bytes and its row size.
    var buffers: [(UnsafeMutableRawPointer, Int)] {
      [
        (UnsafeMutableRawPointer(instances), Self.capacity * 64),
        (UnsafeMutableRawPointer(compact), Self.capacity * 32),
        (UnsafeMutableRawPointer(affines), Self.capacity * 24), (UnsafeMutableRawPointer(ids), Self.capacity * 8),
        (UnsafeMutableRawPointer(depths), Self.capacity * 4),
      ]
    }

    func target(compact isCompact: Bool, affines withAffines: Bool, sortKeys: Bool, flattensDepth: Bool)
      -> EvaluationTarget
    {
      EvaluationTarget(
        instances: instances, compact: isCompact ? compact : nil, affines: withAffines ? affines : nil, ids: ids,
        depths: depths, hidden: nil, flattensDepth: flattensDepth, writesSortKeys: sortKeys)
    }

    func bytes() -> [[UInt8]] {
      buffers.map { Array(UnsafeRawBufferPointer(start: $0.0, count: $0.1)) }
    }
  }

  static let ids: [UInt64] = (0..<UInt64(8 * blockCount)).map { 1000 + $0 * 7 }

  /// The naive twin: blocks `0..<count` one at a time, stopping like the
  /// kernel. Returns the blocks done and rows written.
  static func naive(_ blocks: UnsafeRawPointer, count: Int, into target: EvaluationTarget) -> (Int, Int) {
    let scratch = Output()
    let full = scratch.target(
      compact: target.compact != nil, affines: target.affines != nil, sortKeys: target.writesSortKeys,
      flattensDepth: target.flattensDepth)
    var o = 0
    for b in 0..<count {
      let q = blocks + b * ParticleStore.blockBytes
      let alive = (0..<8).filter { l in
        let age = t - q.load(fromByteOffset: l * 8, as: Double.self)
        return age >= 0 && age < Double(q.load(fromByteOffset: 64 + l * 4, as: Float.self))
      }
      if alive.isEmpty { continue }
      let rowIndex = Int(q.load(fromByteOffset: 3 * 32, as: UInt32.self))
      if (0..<8).contains(where: { q.load(fromByteOffset: 3 * 32 + $0 * 4, as: UInt32.self) != rowIndex }) {
        return (b, o)
      }
      var sinCos = [SIMD8<Float>](repeating: .zero, count: 2)
      ParticleStore.rotationSinCos(q, blocks: 1, at: SIMD8(repeating: t), into: &sinCos)
      rows.withUnsafeBufferPointer { rows in
        ParticleStore.evaluateUniformBlock(
          q, at: t, row: rows.baseAddress! + 16 * rowIndex, sinCos: sinCos, into: full, at: 0)
      }
      for l in alive {
        if let compact = target.compact {
          compact[o] = full.compact![l]
        } else {
          target.instances[o] = full.instances[l]
        }
        if let affines = target.affines { affines[o] = full.affines![l] }
        if target.writesSortKeys {
          target.ids[o] = ids[8 * b + l]
          target.depths[o] = full.depths[l]
        }
        o += 1
      }
    }
    return (count, o)
  }

  static let modes: [(compact: Bool, affines: Bool, sortKeys: Bool, flattensDepth: Bool)] =
    [false, true].flatMap { c in
      [false, true].flatMap { a in
        [false, true].flatMap { s in [false, true].map { f in (c, a, s, f) } }
      }
    }

  @Test(arguments: 0..<modes.count, [3, blockCount])
  func runEqualsBlocksOneAtATime(mode: Int, count: Int) {
    let m = Self.modes[mode]
    let got = Output()
    let want = Output()
    let (done, written, wantDone, wantWritten) = Self.withBlocks { blocks in
      let run = Self.ids.withUnsafeBufferPointer { ids in
        Self.rows.withUnsafeBufferPointer { rows in
          ParticleStore.evaluateRun(
            blocks, ids: ids.baseAddress!, count: count, at: Self.t, rows: rows.baseAddress!,
            into: got.target(
              compact: m.compact, affines: m.affines, sortKeys: m.sortKeys, flattensDepth: m.flattensDepth),
            at: 0)
        }
      }
      let naive = Self.naive(
        blocks, count: count,
        into: want.target(compact: m.compact, affines: m.affines, sortKeys: m.sortKeys, flattensDepth: m.flattensDepth))
      return (run.blocks, run.written, naive.0, naive.1)
    }
    #expect(done == wantDone && written == wantWritten, "\(m)")
    #expect(done == Swift.min(count, Self.stop))
    // Lanes alive in blocks 0…2: 8 + 4 + 0; in 0…4: 8 + 4 + 0 + 8 + 7.
    #expect(written == (count == 3 ? 12 : 27))
    let (gotBytes, wantBytes) = (got.bytes(), want.bytes())
    for (k, name) in ["instances", "compact", "affines", "ids", "depths"].enumerated() {
      #expect(gotBytes[k] == wantBytes[k], "\(name), \(m)")
    }
  }

  /// The C sine and cosine (`sleet_sincos8`) against ``FastTrig`` bit for
  /// bit: 2¹⁶ arguments spread over ±10⁴ (every quadrant, the reduction's
  /// whole tested range), the quadrant boundaries, and the edges.
  @Test func sinCosEqualsFastTrig() {
    var xs: [Float] = (0..<65_536).map { Float($0 - 32_768) * (10_000 / 32_768) + 0.001 * Float($0 % 7) }
    for k in -8...8 { xs += [Float(k) * .pi / 2, (Float(k) * .pi / 2).nextUp, (Float(k) * .pi / 2).nextDown] }
    xs += [0, -0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, 3e38, -4e6, 4e6]
    while xs.count % 8 != 0 { xs.append(1) }
    for i in stride(from: 0, to: xs.count, by: 8) {
      let x = SIMD8(xs[i..<i + 8])
      var sine = [Float](repeating: 0, count: 8), cosine = sine
      sleet_sincos8(x, &sine, &cosine)
      let want = FastTrig.sinCos(x)
      #expect(SIMD8(sine).bitPattern == want.sin.bitPattern && SIMD8(cosine).bitPattern == want.cos.bitPattern, "\(x)")
    }
  }
}
