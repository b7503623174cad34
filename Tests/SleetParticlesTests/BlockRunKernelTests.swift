import CSleetKernels
import SleetMath
import Testing

@testable import SleetParticles

/// The block loops in C (`sleet_evaluate_blocks8` and
/// `sleet_evaluate_mixed_blocks8`, the `CSleetKernels` header,
/// through ``ParticleStore/evaluateRun(_:ids:count:at:rows:into:at:mixedRows:avx2:)``)
/// against their naive twin: each block through the one-block kernel (checked
/// against ``ClosedForm`` by `UniformBlockKernelTests`) — a block whose lanes
/// use several constants rows once per lane, with that lane's row — its live
/// lanes picked one at a time by the alive test written out here, the rotations' sines and
/// cosines by ``ParticleStore/rotationSinCos(_:at:into:)`` (Swift's
/// ``FastTrig``, where the run computes its own in C). Byte for byte, in every
/// output mode: full or compact rows, with and without affines, sort keys and
/// depth; blocks of several rows all alive and partly alive, in both runs;
/// into output index 0 and further on; rows past the written ones stay
/// untouched, and only the run's blocks are allocated (so AddressSanitizer
/// catches a read past them).
@Suite("Block-run kernel = one block at a time")
struct BlockRunKernelTests {
  static let t = 10.0
  static let blockCount = 14
  /// The one-row run from block 0 stops before block 5, the first live
  /// block of several rows; the several-rows run from there stops before
  /// block 6; from block 6 the one-row run stops before block 8 (live,
  /// several rows; block 10 has several rows but is dead), and from block 9
  /// before block 12.
  static let stops: [(mixedRows: Bool, from: Int, to: Int)] = [
    (false, 0, 5), (true, 5, 6), (false, 6, 8), (true, 8, 9), (false, 9, 12), (true, 12, 13),
  ]

  /// Per block: which lanes are alive at `t` (bit l: lane l) and each lane's
  /// constants row.
  static let blocks: [(alive: UInt8, rows: [UInt32])] = [
    (0xFF, Array(repeating: 0, count: 8)),  // all alive
    (0b1001_1010, Array(repeating: 1, count: 8)),  // partly alive, with the edge lanes below
    (0x00, [0, 1, 0, 1, 0, 1, 0, 1]),  // dead, several rows: skipped
    (0xFF, Array(repeating: 1, count: 8)),
    (0x7F, Array(repeating: 0, count: 8)),  // the last lane dead
    (0xFF, [1, 1, 0, 0, 1, 0, 1, 1]),  // two rows (lane 0 the higher), all alive: straight to the output
    (0xFF, Array(repeating: 0, count: 8)),
    (0xFF, Array(repeating: 1, count: 8)),
    (0b0110_1111, [0, 1, 2, 0, 0, 2, 0, 1]),  // three rows (the transposes), partly alive: through the scratch
    (0xFF, Array(repeating: 0, count: 8)),
    (0x00, [1, 0, 1, 0, 1, 0, 1, 0]),  // dead, several rows
    (0xFF, Array(repeating: 1, count: 8)),
    (0xF0, [0, 1, 1, 0, 1, 0, 0, 1]),  // two rows, partly alive: through the scratch
    (0xFF, Array(repeating: 0, count: 8)),
  ]

  /// Three constants rows (``ParticleConstantsTable`` layout): blocks of
  /// two rows take the kernel's selects, of three its transposes. Rows 1
  /// and 2 are cell 1's (two segments, as across a timed change), so the
  /// fixture has two cells (``cellOfRow``).
  static let rows: [Float] = constantsRows([
    ParticleConstants(
      halfAcceleration: SIMD3(0.5, -7.5, 0.25), scaleSpeed: -0.3, colorSpeed: SIMD4(0.1, -0.2, 0.05, -0.4),
      contentsRect: SIMD4(0, 0, 1, 1), sprite: 2, cell: 0),
    ParticleConstants(
      halfAcceleration: SIMD3(-1, 3, 0), scaleSpeed: 0.2, colorSpeed: SIMD4(-0.1, 0.3, 0.02, -0.1),
      contentsRect: SIMD4(0.25, 0.5, 0.25, 0.5), sprite: 5, cell: 1),
    ParticleConstants(
      halfAcceleration: SIMD3(2, -0.5, 1.5), scaleSpeed: 0.4, colorSpeed: SIMD4(0.3, 0.1, -0.2, 0.6),
      contentsRect: SIMD4(0.5, 0, 0.5, 0.25), sprite: 7, cell: 1),
  ])

  /// `constants` as the table lays out its rows (`sleet_constants_row`).
  static func constantsRows(_ constants: [ParticleConstants]) -> [Float] {
    let table = ParticleConstantsTable(constants, segments: 1)
    return Array(UnsafeBufferPointer(start: table.rows, count: constants.count * ParticleConstantsTable.rowFloats))
  }

  /// The `Float` fields of a block other than the lifetime, in one fixed
  /// order: their byte offsets (`sleet_layout.h`).
  static let floatFields: [Int] =
    (0..<3).map { SLEET_SLAB_POSITION + $0 * SLEET_SLAB_SLOT_BYTES }
    + (0..<3).map { SLEET_SLAB_VELOCITY + $0 * SLEET_SLAB_SLOT_BYTES } + [SLEET_SLAB_SCALE, SLEET_SLAB_SPIN]
    + (0..<4).map { SLEET_SLAB_COLOR + $0 * SLEET_SLAB_SLOT_BYTES }

  /// The cell of each constants row.
  static let cellOfRow = [0, 1, 1]

  /// Blocks `first..<first + count` in ``ParticleStore``'s slot layout,
  /// 64-byte aligned, in an allocation of exactly that size. A lane's birth
  /// and lifetime give the alive pattern; block 1 holds the edges: lane 0 at
  /// age = lifetime (dead), lane 1 born at `t` (alive, age 0), lane 2 born
  /// after `t` (dead).
  static func withBlocks<R>(first: Int, count: Int, _ body: (UnsafeRawPointer) -> R) -> R {
    allBlocks { all in
      let bytes = count * ParticleStore.blockBytes
      let p = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
      defer { p.deallocate() }
      p.copyMemory(from: all + first * ParticleStore.blockBytes, byteCount: bytes)
      return body(UnsafeRawPointer(p))
    }
  }

  static func allBlocks<R>(_ body: (UnsafeRawPointer) -> R) -> R {
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
      func put(_ offset: Int, _ lane: Int, _ v: Float) {
        q.storeBytes(of: v, toByteOffset: offset + lane * 4, as: Float.self)
      }
      for l in 0..<8 {
        let alive = block.alive & (1 << l) != 0
        var birth = t - 1 - Double(l) * 0.125
        var lifetime: Float = alive ? 3 : 0.5
        if b == 1 && l == 0 { (birth, lifetime) = (t - 2, 2) }
        if b == 1 && l == 1 { birth = t }
        if b == 1 && l == 2 { (birth, lifetime) = (t + 0.5, 3) }
        q.storeBytes(of: birth, toByteOffset: SLEET_SLAB_BIRTH_TIME + l * 8, as: Double.self)
        put(SLEET_SLAB_LIFETIME, l, lifetime)
        q.storeBytes(of: block.rows[l], toByteOffset: SLEET_SLAB_CONSTANTS_ROW + l * 4, as: UInt32.self)
        for offset in floatFields { put(offset, l, next()) }
        // Spins up to ±80 rad/s: rotations in every quadrant.
        put(SLEET_SLAB_SPIN, l, next() * 40)
      }
    }
    return body(UnsafeRawPointer(p))
  }

  /// Output buffers (64 rows each, filled with a marker byte) and the
  /// target that writes into them. The instance and compact rows start
  /// `rowOffset` bytes past a 64-byte boundary: 0, or 16 and 48 as in a
  /// large Swift array, whose rows the kernels write with stores shifted by
  /// 16 bytes (`sleet_store_rows8_offset16`).
  final class Output {
    static let marker: UInt8 = 0xA5
    let capacity: Int
    let rowMemory: UnsafeMutableRawPointer
    let compactMemory: UnsafeMutableRawPointer
    let instances: UnsafeMutablePointer<ParticleInstance>
    let compact: UnsafeMutablePointer<CompactParticleInstance>
    let affines: UnsafeMutablePointer<AffineTransform2D>
    let ids: UnsafeMutablePointer<UInt64>
    let depths: UnsafeMutablePointer<Float>

    init(capacity: Int = 64, rowOffset: Int = 0) {
      self.capacity = capacity
      rowMemory = .allocate(byteCount: capacity * 64 + rowOffset, alignment: 64)
      compactMemory = .allocate(byteCount: capacity * 32 + rowOffset, alignment: 64)
      instances = (rowMemory + rowOffset).bindMemory(to: ParticleInstance.self, capacity: capacity)
      compact = (compactMemory + rowOffset).bindMemory(to: CompactParticleInstance.self, capacity: capacity)
      affines = .allocate(capacity: capacity)
      ids = .allocate(capacity: capacity)
      depths = .allocate(capacity: capacity)
      for (p, size) in buffers { p.initializeMemory(as: UInt8.self, repeating: Self.marker, count: size) }
    }

    deinit {
      rowMemory.deallocate()
      compactMemory.deallocate()
      affines.deallocate()
      ids.deallocate()
      depths.deallocate()
    }

    /// Each buffer's bytes and its row size.
    var buffers: [(UnsafeMutableRawPointer, Int)] {
      [
        (UnsafeMutableRawPointer(instances), capacity * 64),
        (UnsafeMutableRawPointer(compact), capacity * 32),
        (UnsafeMutableRawPointer(affines), capacity * 24), (UnsafeMutableRawPointer(ids), capacity * 8),
        (UnsafeMutableRawPointer(depths), capacity * 4),
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

  /// The naive twin: blocks `0..<count` of `blocks` (the list's blocks from
  /// `first`, for their ids) one at a time, written from output index
  /// `start`; a block of several rows lane by lane, each lane through the
  /// one-block kernel with its own row. Returns the blocks done and rows
  /// written.
  static func naive(
    _ blocks: UnsafeRawPointer, first: Int, count: Int, at start: Int, into target: EvaluationTarget
  ) -> (Int, Int) {
    let scratch = Output()
    let full = scratch.target(
      compact: target.compact != nil, affines: target.affines != nil, sortKeys: target.writesSortKeys,
      flattensDepth: target.flattensDepth)
    var o = start
    for b in 0..<count {
      let q = blocks + b * ParticleStore.blockBytes
      let alive = (0..<8).filter { l in
        let age = t - q.load(fromByteOffset: SLEET_SLAB_BIRTH_TIME + l * 8, as: Double.self)
        return age >= 0 && age < Double(q.load(fromByteOffset: SLEET_SLAB_LIFETIME + l * 4, as: Float.self))
      }
      if alive.isEmpty { continue }
      var sinCos = [SIMD8<Float>](repeating: .zero, count: 2)
      ParticleStore.rotationSinCos(q, at: t, into: &sinCos)
      for l in alive {
        let rowIndex = Int(q.load(fromByteOffset: SLEET_SLAB_CONSTANTS_ROW + l * 4, as: UInt32.self))
        rows.withUnsafeBufferPointer { rows in
          ParticleStore.evaluateUniformBlock(
            q, at: t, row: rows.baseAddress! + ParticleConstantsTable.rowFloats * rowIndex, sinCos: sinCos,
            into: full, at: 0)
        }
        if let compact = target.compact {
          compact[o] = full.compact![l]
        } else {
          target.instances[o] = full.instances[l]
        }
        if let affines = target.affines { affines[o] = full.affines![l] }
        if target.writesSortKeys {
          target.ids[o] = ids[8 * (first + b) + l]
          target.depths[o] = full.depths[l]
        }
        o += 1
      }
    }
    return (count, o - start)
  }

  static let modes: [(compact: Bool, affines: Bool, sortKeys: Bool, flattensDepth: Bool)] =
    [false, true].flatMap { c in
      [false, true].flatMap { a in
        [false, true].flatMap { s in [false, true].map { f in (c, a, s, f) } }
      }
    }

  /// (first block, blocks, output index): from the start, stopped by the
  /// count before or after the blocks of several rows (block 5 is alive);
  /// from block 6 to the end (two groups of sines), written from output
  /// index 5.
  static let runs: [(first: Int, count: Int, at: Int)] = [(0, 3, 0), (0, 7, 0), (6, 8, 5)]

  /// The block loop's copies to test: the build target's, and the AVX2 copy
  /// where this CPU runs it (`sleet_evaluate_blocks8_avx2`; in a build
  /// without AVX2 it is compiled separately, so both are checked).
  static let copies = SIMDBuildTarget.runsAVX2Kernels ? [false, true] : [false]

  /// Per block, ``ParticleStore/surelyAliveBound(death:)`` of its earliest
  /// end of life, as the store records it; −∞ for a block with a birth after
  /// `t` (block 1), which the store never holds at its own time.
  static func surelyAliveBounds(_ blocks: UnsafeRawPointer, count: Int) -> [Double] {
    (0..<count).map { b in
      let q = blocks + b * ParticleStore.blockBytes
      let births = (0..<8).map { q.load(fromByteOffset: SLEET_SLAB_BIRTH_TIME + $0 * 8, as: Double.self) }
      let lifetimes = (0..<8).map { q.load(fromByteOffset: SLEET_SLAB_LIFETIME + $0 * 4, as: Float.self) }
      guard births.allSatisfy({ $0 <= t }) else { return -.infinity }
      let death = zip(births, lifetimes).map { $0 + Double($1) }.min()!
      return ParticleStore.surelyAliveBound(death: death)
    }
  }

  /// Every output mode and run, both copies, with and without the store's
  /// surely-alive bounds (blocks whose bound is above `t` skip the lanes'
  /// test: blocks 0, 3, 5–7, 9, 11 and 13; the partly alive ones are
  /// below), rows aligned and 16 and 48 bytes past a 64-byte boundary.
  @Test(arguments: 0..<modes.count, 0..<runs.count)
  func runEqualsBlocksOneAtATime(mode: Int, run r: Int) {
    for avx2 in Self.copies {
      for bounds in [false, true] {
        for rowOffset in [0, 16, 48] { check(mode: mode, run: r, avx2: avx2, bounds: bounds, rowOffset: rowOffset) }
      }
    }
  }

  func check(mode: Int, run r: Int, avx2: Bool, bounds: Bool, rowOffset: Int) {
    let m = Self.modes[mode]
    let context = "\(m), AVX2 copy: \(avx2), bounds: \(bounds), rows at +\(rowOffset)"
    let (first, count, o) = Self.runs[r]
    let got = Output(rowOffset: rowOffset)
    let want = Output(rowOffset: rowOffset)
    let (written, wantDone, wantWritten) = Self.withBlocks(first: first, count: count) { blocks in
      // The runs in turn, one-row then several-rows, as ParticleStore.evaluate
      // takes them; each stops where the list above says.
      var (b, written, mixedRows) = (0, 0, false)
      // The bounds in memory of their own, so a read past them is caught.
      let aliveBefore = UnsafeMutablePointer<Double>.allocate(capacity: count)
      defer { aliveBefore.deallocate() }
      aliveBefore.initialize(from: Self.surelyAliveBounds(blocks, count: count), count: count)
      while b < count {
        let run = Self.ids.withUnsafeBufferPointer { ids in
          Self.rows.withUnsafeBufferPointer { rows in
            ParticleStore.evaluateRun(
              blocks + b * ParticleStore.blockBytes, ids: ids.baseAddress! + 8 * (first + b), count: count - b,
              at: Self.t, rows: rows.baseAddress!,
              aliveBefore: bounds ? UnsafePointer(aliveBefore + b) : nil,
              fullBlocks: count - b,
              into: got.target(
                compact: m.compact, affines: m.affines, sortKeys: m.sortKeys, flattensDepth: m.flattensDepth),
              at: o + written, mixedRows: mixedRows, avx2: avx2)
          }
        }
        let stop = Self.stops.first { $0.mixedRows == mixedRows && $0.from == first + b }?.to ?? first + count
        #expect(run.blocks == Swift.min(count, stop - first) - b, "from block \(first + b), several rows: \(mixedRows)")
        b += run.blocks
        written += run.written
        mixedRows.toggle()
      }
      let naive = Self.naive(
        blocks, first: first, count: count, at: o,
        into: want.target(compact: m.compact, affines: m.affines, sortKeys: m.sortKeys, flattensDepth: m.flattensDepth))
      return (written, naive.0, naive.1)
    }
    #expect(wantDone == count && written == wantWritten, "\(context)")
    // Lanes alive in blocks 0…2: 8 + 4 + 0; in 0…6: 8 + 4 + 0 + 8 + 7 + 8 + 8;
    // in 6…13: 8 + 8 + 6 + 8 + 0 + 8 + 4 + 8.
    #expect(written == [12, 43, 50][r])
    let (gotBytes, wantBytes) = (got.bytes(), want.bytes())
    for (k, name) in ["instances", "compact", "affines", "ids", "depths"].enumerated() {
      #expect(gotBytes[k] == wantBytes[k], "\(name), \(context)")
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

  /// Every block one at a time in Swift (the path taken while a cell is
  /// hidden; here no cell is, so both paths draw every live lane) and the C
  /// runs write the same bytes, on presets whose stores mix rows in a block
  /// (several cells, sub-cells), with affines and sort keys: the sines of
  /// the Swift path are ``ParticleStore/rotationSinCos(_:at:into:)``'s.
  /// (Confetti in the single store: its cells would each have a store of
  /// their own, whose blocks never mix rows.)
  @Test(arguments: ["confetti", "fireworks"], [false, true])
  func oneBlockAtATimeEqualsTheRuns(preset: String, compact: Bool) throws {
    let system = try ParticleSystem(effect: try Effect.preset(named: preset))
    if system.usesCellStores { system.paths.cellStores = false }
    system.seek(to: 6.1)
    let store = system.store
    let t = try #require(system.localTime)
    var mixed = 0
    for b in 0..<store.blockCount {
      let rows = (store.blocks + b * ParticleStore.blockBytes + SLEET_SLAB_CONSTANTS_ROW).load(as: SIMD8<UInt32>.self)
      if rows != SIMD8(repeating: rows[0]) { mixed += 1 }
    }
    #expect(mixed > 0, "the preset's store has blocks of several rows")
    let noneHidden = [Bool](repeating: false, count: 256)
    func render(hidden: UnsafePointer<Bool>?) -> (Int, [[UInt8]]) {
      let out = Output(capacity: Swift.max(1, store.count))
      var target = out.target(compact: compact, affines: true, sortKeys: true, flattensDepth: false)
      target.hidden = hidden
      let written = store.evaluate(blocks: 0..<store.blockCount, at: t, into: target, start: 0)
      return (written, out.bytes())
    }
    let runs = render(hidden: nil)
    let oneAtATime = noneHidden.withUnsafeBufferPointer { render(hidden: $0.baseAddress!) }
    #expect(runs.0 > 20 && runs.0 == oneAtATime.0, "\(runs.0) \(oneAtATime.0) of \(store.count)")
    for (k, name) in ["instances", "compact", "affines", "ids", "depths"].enumerated() {
      #expect(runs.1[k] == oneAtATime.1[k], "\(preset), \(name)")
    }
  }
}
