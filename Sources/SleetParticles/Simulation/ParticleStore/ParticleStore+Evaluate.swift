import CSleetKernels
import SleetMath

/// Where one chunk of evaluation writes: raw output pointers, shared with
/// worker threads. Each chunk writes a disjoint range, so no two threads ever
/// touch the same element.
struct EvaluationTarget: @unchecked Sendable {
  var instances: UnsafeMutablePointer<ParticleInstance>
  /// Non-nil: write 32-byte compact instances here instead of `instances`.
  var compact: UnsafeMutablePointer<CompactParticleInstance>?
  /// nil: skip the affines.
  var affines: UnsafeMutablePointer<AffineTransform2D>?
  /// Per output index: the particle's id and tracked z (for render-order sorts).
  var ids: UnsafeMutablePointer<UInt64>
  var depths: UnsafeMutablePointer<Float>
  /// Per cell number: whether its particles are hidden (cell disabled); nil
  /// when no cell is hidden.
  var hidden: UnsafePointer<Bool>?
  var flattensDepth: Bool
  /// Whether `ids` and `depths` are written (only when the render order
  /// needs a sort or a sortedness check, or ids are asked for).
  var writesSortKeys: Bool
}

extension EvaluationTarget {
  /// The C block loops' view of this target from output index `o`: the
  /// instance buffer of the layout, the affines when asked, and the ids and
  /// tracked z when sort keys are asked.
  func runTarget(from o: Int) -> sleet_run_target {
    sleet_run_target(
      instances: compact == nil ? UnsafeMutableRawPointer(instances + o) : nil,
      compact: compact.map { UnsafeMutableRawPointer($0 + o) },
      affines: affines.map { UnsafeMutableRawPointer($0 + o) },
      depths: writesSortKeys ? depths + o : nil,
      ids: writesSortKeys ? ids + o : nil,
      flattensDepth: flattensDepth ? 1 : 0)
  }
}

/// The constants-table values of four lanes, one `SIMD4` per field (see
/// ``ParticleConstantsTable`` for the row layout).
struct LaneConstants {
  var hx, hy, hz, scaleSpeed: SIMD4<Float>
  var colorSpeedR, colorSpeedG, colorSpeedB, colorSpeedA: SIMD4<Float>
  var rectX, rectY, rectW, rectH: SIMD4<Float>
  /// Sprite and cell numbers as `Float` bit patterns (copied, never computed
  /// on), and both packed in 16 bits each for the compact instance.
  var sprite, cell, spriteCell16: SIMD4<Float>

  /// The rows of lanes 0…3 at `rows[0…3]`: four aligned 16-byte loads per
  /// row and a 4×4 transpose per group of four lanes give each row lane's
  /// four values, `lane[f]`; each field is then the lane its `SLEET_ROW_*`
  /// constant names (constant indices: the choice folds away).
  @inline(__always)
  init(rows r: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>)) {
    @inline(__always) func group(_ g: Int) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
      @inline(__always) func load(_ p: UnsafePointer<Float>) -> SIMD4<Float> {
        UnsafeRawPointer(p).load(fromByteOffset: g * 16, as: SIMD4<Float>.self)
      }
      return ParticleStore.transpose(load(r.0), load(r.1), load(r.2), load(r.3))
    }
    let (g0, g1, g2, g3) = (group(0), group(1), group(2), group(3))
    let lane: InlineArray<16, SIMD4<Float>> = [
      g0.0, g0.1, g0.2, g0.3, g1.0, g1.1, g1.2, g1.3, g2.0, g2.1, g2.2, g2.3, g3.0, g3.1, g3.2, g3.3,
    ]
    let h = SLEET_ROW_HALF_ACCELERATION
    let colorSpeed = SLEET_ROW_COLOR_SPEED
    let rect = SLEET_ROW_CONTENTS_RECT
    (hx, hy, hz, scaleSpeed) = (lane[h], lane[h + 1], lane[h + 2], lane[SLEET_ROW_SCALE_SPEED])
    (colorSpeedR, colorSpeedG, colorSpeedB, colorSpeedA) = (
      lane[colorSpeed], lane[colorSpeed + 1], lane[colorSpeed + 2], lane[colorSpeed + 3]
    )
    (rectX, rectY, rectW, rectH) = (lane[rect], lane[rect + 1], lane[rect + 2], lane[rect + 3])
    (sprite, cell, spriteCell16) = (lane[SLEET_ROW_SPRITE], lane[SLEET_ROW_CELL], lane[SLEET_ROW_COMPACT_SPRITE_CELL])
  }
}

extension ParticleStore {
  /// The lane constants of lanes `lanes..<lanes + 4` of the block at `p`
  /// (its constants-row field holds each lane's row index).
  @inline(__always)
  func laneConstants(_ p: UnsafeRawPointer, lanes: Int) -> LaneConstants {
    let index = p.load(fromByteOffset: SLEET_SLAB_CONSTANTS_ROW + lanes * 4, as: SIMD4<UInt32>.self)
    let rows = UnsafePointer(constants.rows)
    let w = ParticleConstantsTable.rowFloats
    let r0: UnsafePointer<Float> = rows + Int(index[0]) * w
    let r1: UnsafePointer<Float> = rows + Int(index[1]) * w
    let r2: UnsafePointer<Float> = rows + Int(index[2]) * w
    let r3: UnsafePointer<Float> = rows + Int(index[3]) * w
    return LaneConstants(rows: (r0, r1, r2, r3))
  }

  /// Pass 1: how many particles of blocks `blocks` are alive (and not hidden)
  /// at emitter-local time `t`.
  ///
  /// Invariant: the slab is 64-byte aligned and blocks are 512 bytes, so
  /// every SIMD8 load below is aligned; lanes past `count` have lifetime 0 and
  /// count as dead; `t` is at or after every stored birth
  /// (``isSurelyAlive(block:at:)``).
  /// - Complexity: O(particles in `blocks`), no allocations.
  func aliveCount(blocks range: Range<Int>, at t: Double, hidden: UnsafePointer<Bool>?) -> Int {
    let now = SIMD8<Double>(repeating: t)
    var n = 0
    for b in range {
      // A block surely alive costs one Double read, not its time and
      // lifetime slots (pass 1 of a several-thread frame reads less).
      if hidden == nil && isSurelyAlive(block: b, at: t) {
        n += 8
        continue
      }
      let p = UnsafeRawPointer(blocks + b * Self.blockBytes)
      let age = now - p.load(fromByteOffset: SLEET_SLAB_BIRTH_TIME, as: SIMD8<Double>.self)
      let life = SIMD8<Double>(p.load(fromByteOffset: SLEET_SLAB_LIFETIME, as: SIMD8<Float>.self))
      // Mask lanes are 0 or −1: their negated sum is the live count.
      let alive = unsafeBitCast((age .>= 0) .& (age .< life), to: SIMD8<Int64>.self)
      guard let hidden else {
        n &-= Int(alive.wrappedSum())
        continue
      }
      for lane in 0..<8 where alive[lane] != 0 {
        let row = Int(p.load(fromByteOffset: SLEET_SLAB_CONSTANTS_ROW + lane * 4, as: UInt32.self))
        if hidden[Int(constants[row].cell)] { continue }
        n += 1
      }
    }
    return n
  }

  /// Pass 2: evaluates the closed form at `t` for blocks `blocks` and writes
  /// the live particles, in store order, from output index `start`. Returns
  /// the number written (equal to pass 1's count for the same blocks).
  ///
  /// Runs of blocks whose lanes share one constants row (one cell and
  /// segment: the common case) and runs of blocks of several rows (cells
  /// born in turn) go through the C block loops, in turn
  /// (``evaluateRun(_:ids:count:at:rows:into:at:mixedRows:avx2:)``). While a
  /// cell is hidden, every block goes through
  /// ``evaluateBlock(_:at:sinCos:into:at:scratch:)``: the eight-lane kernel
  /// or ``evaluateHalf(_:lanes:age:constants:sinCos:into:at:)`` twice, each
  /// lane with its own row, into a scratch from which the drawn lanes are
  /// copied.
  ///
  /// Invariants: as in pass 1; output ranges of different chunks are
  /// disjoint; instance rows are 16-byte aligned (64-byte stride).
  /// - Complexity: O(particles in `blocks`), no allocations (the scratch is
  ///   on the stack).
  func evaluate(blocks range: Range<Int>, at t: Double, into target: EvaluationTarget, start: Int) -> Int {
    withUnsafeTemporaryAllocation(of: ParticleInstance.self, capacity: 8) { scratchInstances in
      withUnsafeTemporaryAllocation(of: CompactParticleInstance.self, capacity: 8) { scratchCompact in
        withUnsafeTemporaryAllocation(of: AffineTransform2D.self, capacity: 8) { scratchAffines in
          withUnsafeTemporaryAllocation(of: Float.self, capacity: 8) { scratchDepths in
            withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: 2) { sinCos in
              evaluate(
                blocks: range, at: t, into: target, start: start,
                scratch: EvaluationTarget(
                  instances: scratchInstances.baseAddress!,
                  compact: target.compact == nil ? nil : scratchCompact.baseAddress!,
                  affines: target.affines == nil ? nil : scratchAffines.baseAddress!, ids: target.ids,
                  depths: scratchDepths.baseAddress!, hidden: nil, flattensDepth: target.flattensDepth,
                  writesSortKeys: target.writesSortKeys), sinCos: sinCos.baseAddress!)
            }
          }
        }
      }
    }
  }

  private func evaluate(
    blocks range: Range<Int>, at t: Double, into target: EvaluationTarget, start: Int, scratch: EvaluationTarget,
    sinCos: UnsafeMutablePointer<SIMD8<Float>>
  ) -> Int {
    var o = start
    var b = range.lowerBound
    while b < range.upperBound {
      if target.hidden == nil {
        // In C, block loop and all: a run of blocks whose lanes share one
        // constants row (the common case), up to a live block of several
        // rows; then a run of those (several cells born in turn), up to a
        // live block of one row. Each run stops only where the other goes
        // on, so every turn moves on.
        let run = Self.evaluateRun(
          blocks + b * Self.blockBytes, ids: ids + b * 8, count: range.upperBound - b, at: t,
          rows: constants.rows, aliveBefore: surelyAliveBounds + b, fullBlocks: fullBlocks - b, into: target, at: o)
        o += run.written
        b += run.blocks
        // Blocks of one row to the end (every one-cell store): no call for
        // an empty run of the other kind.
        if b == range.upperBound { break }
        let mixed = Self.evaluateRun(
          blocks + b * Self.blockBytes, ids: ids + b * 8, count: range.upperBound - b, at: t,
          rows: constants.rows, aliveBefore: surelyAliveBounds + b, fullBlocks: fullBlocks - b, into: target, at: o,
          mixedRows: true)
        o += mixed.written
        b += mixed.blocks
        continue
      }
      o += evaluateBlock(b, at: t, sinCos: sinCos, into: target, at: o, scratch: scratch)
      b += 1
    }
    return o - start
  }

  /// Evaluates a run of blocks from `p` whose lanes share one constants row,
  /// up to `count` blocks, and writes their live lanes to `target` from
  /// output index `o`: `sleet_evaluate_blocks8` of the `CSleetKernels`
  /// header, or its AVX2 copy (``SIMDBuildTarget/runsAVX2Kernels``; see
  /// there for why the block loop is in C; with affines it
  /// computes the rotations' sines and cosines itself, the same bits as
  /// ``FastTrig``). Stops before the first live block of several rows.
  /// With `mixedRows`, the other loop: blocks of several rows, each lane
  /// with its own row (`sleet_evaluate_mixed_blocks8`), stopping before the
  /// first live block of one row. Returns the blocks done and the rows
  /// written.
  ///
  /// With `aliveBefore`, blocks `0..<fullBlocks` of the run whose bound is
  /// above `t` (``surelyAliveBounds``) count as alive in every lane without
  /// a test of their lanes; nil tests every block's lanes. Same output
  /// either way.
  ///
  /// Invariants: `count` blocks from `p` are in the slab and `ids` holds
  /// their lanes' ids; `rows` is the constants table; the target has room
  /// for the run's live lanes from `o`; `target.hidden` is nil (hidden cells
  /// take ``evaluateBlock(_:at:sinCos:into:at:scratch:)``); with
  /// `aliveBefore`, it holds the bounds of blocks `0..<fullBlocks` and `t`
  /// is at or after their births (``isSurelyAlive(block:at:)``). `avx2`
  /// picks the copy (the tests run both); true only where the CPU has AVX2.
  @inline(__always)
  static func evaluateRun(
    _ p: UnsafeRawPointer, ids: UnsafePointer<UInt64>, count: Int, at t: Double, rows: UnsafePointer<Float>,
    aliveBefore: UnsafePointer<Double>? = nil, fullBlocks: Int = 0, into target: EvaluationTarget, at o: Int,
    mixedRows: Bool = false, avx2: Bool = SIMDBuildTarget.runsAVX2Kernels
  ) -> (blocks: Int, written: Int) {
    precondition(!avx2 || SIMDBuildTarget.runsAVX2Kernels, "the AVX2 copy needs a CPU with AVX2")
    precondition(target.hidden == nil, "a run of blocks draws every live lane: no hidden cells")
    let kernelTarget = target.runTarget(from: o)
    var written = 0
    // The AVX2 copy where the CPU has it (in an AVX2 build, the same code):
    // the portable build's SSE2 copy is 1.3–1.5× slower. Same bits.
    let blocks =
      switch (mixedRows, avx2) {
      case (false, true):
        sleet_evaluate_blocks8_avx2(p, ids, count, t, rows, aliveBefore, fullBlocks, kernelTarget, &written)
      case (false, false):
        sleet_evaluate_blocks8(p, ids, count, t, rows, aliveBefore, fullBlocks, kernelTarget, &written)
      case (true, true):
        sleet_evaluate_mixed_blocks8_avx2(p, ids, count, t, rows, aliveBefore, fullBlocks, kernelTarget, &written)
      case (true, false):
        sleet_evaluate_mixed_blocks8(p, ids, count, t, rows, aliveBefore, fullBlocks, kernelTarget, &written)
      }
    return (blocks, written)
  }

  // MARK: - Frames written in draw order

  /// Pass 1 of a frame written in cell order
  /// (``evaluateByCell(blocks:at:into:cursors:)``): adds to `counts[cell]`
  /// the particles of each cell alive at `t` in blocks `range`
  /// (``countByCell(_:count:at:rows:into:avx2:)``).
  ///
  /// Invariants: as ``aliveCount(blocks:at:hidden:)``; `counts` has an entry
  /// for every cell number.
  /// - Complexity: O(blocks in `range`), no allocations.
  func countByCell(blocks range: Range<Int>, at t: Double, into counts: UnsafeMutablePointer<Int>) {
    Self.countByCell(
      blocks + range.lowerBound * Self.blockBytes, count: range.count, at: t, rows: constants.rows, into: counts)
  }

  /// Pass 2 of a frame written in cell order: evaluates blocks `range` at
  /// `t` and writes each live particle at output index `cursors[cell]`,
  /// which then moves on by one
  /// (``evaluateByCell(_:ids:count:at:rows:into:cursors:avx2:)``). With
  /// cursors from a prefix sum of ``countByCell(blocks:at:into:)`` in cell
  /// order, the frame comes out grouped by cell, each cell's particles in
  /// store order: id order for top-level cells, whose ids count their
  /// births in the order the store holds them. The values are those of
  /// ``evaluate(blocks:at:into:start:)``, bit for bit.
  ///
  /// Invariants: as ``evaluate(blocks:at:into:start:)``, with the target's
  /// pointers at output index 0 and no hidden cell; `cursors` has an entry
  /// for every cell number, and every index they reach is a row of the
  /// target.
  /// - Complexity: O(particles in `range`), no allocations.
  func evaluateByCell(
    blocks range: Range<Int>, at t: Double, into target: EvaluationTarget, cursors: UnsafeMutablePointer<Int>
  ) {
    Self.evaluateByCell(
      blocks + range.lowerBound * Self.blockBytes, ids: ids + range.lowerBound * 8, count: range.count, at: t,
      rows: constants.rows, into: target, cursors: cursors)
  }

  /// Adds to `counts[cell]` the lanes of each cell alive at `t` in `count`
  /// blocks from `p`: `sleet_count_cells8` of the `CSleetKernels` header,
  /// or its AVX2 copy where `avx2` (true only where the CPU has AVX2; the
  /// tests run both).
  static func countByCell(
    _ p: UnsafeRawPointer, count: Int, at t: Double, rows: UnsafePointer<Float>,
    into counts: UnsafeMutablePointer<Int>, avx2: Bool = SIMDBuildTarget.runsAVX2Kernels
  ) {
    precondition(!avx2 || SIMDBuildTarget.runsAVX2Kernels, "the AVX2 copy needs a CPU with AVX2")
    if avx2 {
      sleet_count_cells8_avx2(p, count, t, rows, counts)
    } else {
      sleet_count_cells8(p, count, t, rows, counts)
    }
  }

  /// Evaluates `count` blocks from `p` (their lanes' ids at `ids`) at `t`
  /// and writes each live lane at row `cursors[cell]` of `target`, which
  /// then moves on by one: `sleet_evaluate_cells8`, or its AVX2 copy where
  /// `avx2`. Writes instances (or compact rows), affines when asked, and ids
  /// with sort keys; no depths (they order `backToFront` only, which this
  /// path does not serve).
  static func evaluateByCell(
    _ p: UnsafeRawPointer, ids: UnsafePointer<UInt64>, count: Int, at t: Double, rows: UnsafePointer<Float>,
    into target: EvaluationTarget, cursors: UnsafeMutablePointer<Int>, avx2: Bool = SIMDBuildTarget.runsAVX2Kernels
  ) {
    precondition(!avx2 || SIMDBuildTarget.runsAVX2Kernels, "the AVX2 copy needs a CPU with AVX2")
    precondition(target.hidden == nil, "the cell-order loop draws every live lane: no hidden cells")
    var kernelTarget = target.runTarget(from: 0)
    kernelTarget.depths = nil
    if avx2 {
      sleet_evaluate_cells8_avx2(p, ids, count, t, rows, kernelTarget, cursors)
    } else {
      sleet_evaluate_cells8(p, ids, count, t, rows, kernelTarget, cursors)
    }
  }

  /// Block `b` one lane at a time where needed: the path for every block
  /// while some cell is hidden (the C loops draw every live lane), and the
  /// naive twin of the C loops' blocks of several rows
  /// (`BlockRunKernelTests.oneBlockAtATimeEqualsTheRuns`). Writes the drawn lanes from output index `o` and returns how
  /// many; `sinCos` is scratch for the block's rotation sines and cosines
  /// (two vectors, computed here, only for a live block with affines).
  private func evaluateBlock(
    _ b: Int, at t: Double, sinCos: UnsafeMutablePointer<SIMD8<Float>>, into target: EvaluationTarget, at o: Int,
    scratch: EvaluationTarget
  ) -> Int {
    let p = UnsafeRawPointer(blocks + b * Self.blockBytes)
    let ageD = SIMD8<Double>(repeating: t) - p.load(fromByteOffset: SLEET_SLAB_BIRTH_TIME, as: SIMD8<Double>.self)
    let aliveLanes = unsafeBitCast(
      (ageD .>= 0) .& (ageD .< SIMD8<Double>(p.load(fromByteOffset: SLEET_SLAB_LIFETIME, as: SIMD8<Float>.self))),
      to: SIMD8<Int64>.self)
    if aliveLanes == SIMD8(repeating: 0) { return 0 }  // a dead block: nothing to draw
    if target.affines != nil { Self.rotationSinCos(p, at: t, into: sinCos) }
    let allAlive = aliveLanes == SIMD8(repeating: -1)
    let rowIndex = p.load(fromByteOffset: SLEET_SLAB_CONSTANTS_ROW, as: SIMD8<UInt32>.self)
    let drawsAll = allAlive && target.hidden == nil
    let out = drawsAll ? target : scratch
    let at = drawsAll ? o : 0
    if rowIndex == SIMD8(repeating: rowIndex[0]) {
      Self.evaluateUniformBlock(
        p, at: t, row: UnsafePointer(constants.rows + Int(rowIndex[0]) * ParticleConstantsTable.rowFloats),
        sinCos: sinCos, into: out, at: at)
    } else {
      // Lanes of several constants rows: two four-lane halves, each lane
      // with its own row's constants.
      let a = SIMD8<Float>(ageD)
      let trig =
        target.affines == nil
        ? (sin: SIMD8<Float>(), cos: SIMD8<Float>()) : (sin: sinCos[0], cos: sinCos[1])
      evaluateHalf(
        p, lanes: 0, age: a.lowHalf, constants: laneConstants(p, lanes: 0),
        sinCos: (trig.sin.lowHalf, trig.cos.lowHalf), into: out, at: at)
      evaluateHalf(
        p, lanes: 4, age: a.highHalf, constants: laneConstants(p, lanes: 4),
        sinCos: (trig.sin.highHalf, trig.cos.highHalf), into: out, at: at + 4)
    }
    if drawsAll {
      if target.writesSortKeys { (target.ids + o).update(from: ids + b * 8, count: 8) }
      return 8
    }
    var n = 0
    for lane in 0..<8 where aliveLanes[lane] != 0 {
      if let compact = target.compact {
        let instance = scratch.compact![lane]
        if let hidden = target.hidden, hidden[Int(instance.cell)] { continue }
        compact[o + n] = instance
      } else {
        let instance = scratch.instances[lane]
        if let hidden = target.hidden, hidden[Int(instance.cell)] { continue }
        target.instances[o + n] = instance
      }
      if let affines = target.affines { affines[o + n] = scratch.affines![lane] }
      if target.writesSortKeys {
        target.ids[o + n] = ids[b * 8 + lane]
        target.depths[o + n] = scratch.depths[lane]
      }
      n += 1
    }
    return n
  }

  /// The closed form for lanes `lanes..<lanes + 4` of the block at `p`,
  /// written to `target`'s output indices `o..<o + 4` (instances, affines
  /// from the lanes' precomputed `sinCos` when asked, tracked z when sort
  /// keys are asked): ``ClosedForm`` in `SIMD4` (one SSE register per field)
  /// so a half stays in registers. Used for blocks whose lanes use several
  /// constants rows.
  ///
  /// Invariants: `p` is a block of the 64-byte-aligned slab, so the loads at
  /// a field's offset + `lanes·4` are 16-byte aligned; instance rows are
  /// 16-byte aligned; affines are stored unaligned.
  @inline(__always)
  func evaluateHalf(
    _ p: UnsafeRawPointer, lanes: Int, age a: SIMD4<Float>, constants k: LaneConstants,
    sinCos trig: (sin: SIMD4<Float>, cos: SIMD4<Float>), into target: EvaluationTarget, at o: Int
  ) {
    let (x, y, z, s) = Self.positionAndScale(p, lanes: lanes, age: a, constants: k)
    let drawnZ = target.flattensDepth ? SIMD4(repeating: 0) : z
    if target.writesSortKeys { UnsafeMutableRawPointer(target.depths + o).storeBytes(of: z, as: SIMD4<Float>.self) }
    let (rotation, normalized) = Self.rotationAndAge(p, lanes: lanes, age: a)
    if let affines = target.affines {
      Self.storeAffines4(s * trig.cos, s * trig.sin, x, y, to: UnsafeMutableRawPointer(affines + o))
    }
    let c = Self.clampedColors(p, lanes: lanes, age: a, constants: k)
    if let compact = target.compact {
      let out = UnsafeMutableRawPointer(compact + o)
      Self.storeRows4(x, y, drawnZ, s, to: out, offset: 0, stride: 32)
      let color = unsafeBitCast(Self.unorm8(c), to: SIMD4<Float>.self)
      Self.storeRows4(rotation, normalized, color, k.spriteCell16, to: out, offset: 16, stride: 32)
      return
    }
    let out = UnsafeMutableRawPointer(target.instances + o)
    Self.storeRows4(x, y, drawnZ, s, to: out, offset: 0, stride: 64)
    Self.storeRows4(c.0, c.1, c.2, c.3, to: out, offset: 16, stride: 64)
    Self.storeRows4(k.rectX, k.rectY, k.rectW, k.rectH, to: out, offset: 32, stride: 64)
    Self.storeRows4(rotation, normalized, k.sprite, k.cell, to: out, offset: 48, stride: 64)
  }

  /// The closed form for all eight lanes of a block whose particles share
  /// one constants row (`row`: one cell and segment, the common case),
  /// written to `target`'s output indices `o..<o + 8` (and the affines,
  /// from the precomputed `sinCos`, when asked): `sleet_evaluate_uniform_block8`
  /// of the `CSleetKernels` header, in every build.
  ///
  /// Why C: one straight-line eight-lane kernel is what issue 9 asks for,
  /// and written in Swift LLVM would not keep it one. Swift passes `SIMD8`
  /// values between functions as pairs of 16-byte halves and builds
  /// `init(lowHalf:highHalf:)`, `evenHalf` and the `Double`-to-`Float`
  /// conversion lane by lane; inlined into one function, the age vector came
  /// out split 4 + 2 + 2 and every clamp a chain of `vpcmpgtd`/`vblendvps` on
  /// the pieces, and the 4×4 transposes were `vinsertps` chains (`objdump`,
  /// 2026-12-01). In C the kernel is Clang's generic vectors: one `ymm` per
  /// field in AVX builds, `xmm` pairs in the SSE2 build, NEON on ARM; the
  /// transposes are explicit `shufflevector`s. The header states the formulas
  /// and why the bits are ``ClosedForm``'s (no contraction, same operation
  /// order); `UniformBlockKernelTests` and the render agreement tests check it.
  ///
  /// Invariants: `p` is a block of the slab with `row` its lanes' shared
  /// row; `sinCos` holds the block's sines then cosines (written by
  /// ``rotationSinCos(_:at:into:)``; read only for affines); the
  /// target has 8 writable rows from `o`.
  @inline(__always)
  static func evaluateUniformBlock(
    _ p: UnsafeRawPointer, at t: Double, row: UnsafePointer<Float>, sinCos: UnsafePointer<SIMD8<Float>>,
    into target: EvaluationTarget, at o: Int
  ) {
    let kernelTarget = sleet_block_target(
      instances: target.compact == nil ? UnsafeMutableRawPointer(target.instances + o) : nil,
      compact: target.compact.map { UnsafeMutableRawPointer($0 + o) },
      affines: target.affines.map { UnsafeMutableRawPointer($0 + o) },
      depths: target.writesSortKeys ? target.depths + o : nil,
      flattensDepth: target.flattensDepth ? 1 : 0)
    sleet_evaluate_uniform_block8(
      p, t, row, UnsafeRawPointer(sinCos), kernelTarget)
  }

  /// The sines and cosines of the rotations (``ClosedForm/rotation(_:age:)``)
  /// of the block at `p` at time `t`, lanes in order: `out[0]` the sines and
  /// `out[1]` the cosines, all eight lanes (dead and unused lanes too: their
  /// values are never stored).
  ///
  /// Used for the blocks evaluated one at a time
  /// (``evaluateBlock(_:at:sinCos:into:at:scratch:)``). Runs compute theirs
  /// in C, a group of four blocks ahead (`sleet_rotation_sincos8`, which
  /// says why ahead); this is its naive twin, ``FastTrig`` on the same
  /// age conversion and product, and `BlockRunKernelTests` compares the two
  /// bit for bit through the affines.
  ///
  /// Invariants: `p` is a block of the 64-byte-aligned slab; `out` holds
  /// two vectors.
  @inline(never)
  static func rotationSinCos(_ p: UnsafeRawPointer, at t: Double, into out: UnsafeMutablePointer<SIMD8<Float>>) {
    let a = SIMD8<Float>(SIMD8(repeating: t) - p.load(fromByteOffset: SLEET_SLAB_BIRTH_TIME, as: SIMD8<Double>.self))
    let (sinR, cosR) = FastTrig.sinCos(
      ClosedForm.rotation(p.load(fromByteOffset: SLEET_SLAB_SPIN, as: SIMD8<Float>.self), age: a))
    out[0] = sinR
    out[1] = cosR
  }

  /// Four lanes of clamped colour as `R8G8B8A8_UNORM` words: each channel
  /// 255·c rounded to nearest (ties to even), as
  /// ``CompactParticleInstance/init(_:)`` rounds it. Adding 1.5·2²³ rounds
  /// the product to an integer in the low mantissa bits (exact for
  /// 0 ≤ 255·c ≤ 255), so no float-to-integer conversion is needed.
  @inline(__always)
  static func unorm8(
    _ c: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
  ) -> SIMD4<UInt32> {
    let magic = SIMD4<Float>(repeating: 12_582_912)
    let scale = SIMD4<Float>(repeating: 255)
    @inline(__always) func channel(_ v: SIMD4<Float>) -> SIMD4<UInt32> {
      unsafeBitCast(v * scale + magic, to: SIMD4<UInt32>.self) & SIMD4(repeating: 0xFF)
    }
    return channel(c.0) | channel(c.1) &<< 8 | channel(c.2) &<< 16 | channel(c.3) &<< 24
  }

  // The field groups of one half, each a separate small function on purpose:
  // in a small function LLVM lowers `replace(with:where:)` to one `maxps` or
  // `minps`, but inside the large kernel it built the masks lane by lane in
  // general registers (`perf annotate`: a 1.5× slower kernel).

  /// Position per axis and scale (``ClosedForm``).
  @inline(never)
  static func positionAndScale(
    _ p: UnsafeRawPointer, lanes: Int, age a: SIMD4<Float>, constants k: LaneConstants
  ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
    @inline(__always) func field(_ offset: Int, _ component: Int = 0) -> SIMD4<Float> {
      p.load(fromByteOffset: offset + component * slotBytes + lanes * 4, as: SIMD4<Float>.self)
    }
    let aa = a * a
    return (
      ClosedForm.position(field(SLEET_SLAB_POSITION), field(SLEET_SLAB_VELOCITY), k.hx, age: a, ageSquared: aa),
      ClosedForm.position(field(SLEET_SLAB_POSITION, 1), field(SLEET_SLAB_VELOCITY, 1), k.hy, age: a, ageSquared: aa),
      ClosedForm.position(field(SLEET_SLAB_POSITION, 2), field(SLEET_SLAB_VELOCITY, 2), k.hz, age: a, ageSquared: aa),
      ClosedForm.scale(field(SLEET_SLAB_SCALE), k.scaleSpeed, age: a)
    )
  }

  /// Rotation and normalised age (``ClosedForm``); 1/lifetime is the same
  /// division the naive twin makes.
  @inline(never)
  static func rotationAndAge(
    _ p: UnsafeRawPointer, lanes: Int, age a: SIMD4<Float>
  ) -> (SIMD4<Float>, SIMD4<Float>) {
    @inline(__always) func field(_ offset: Int, _ component: Int = 0) -> SIMD4<Float> {
      p.load(fromByteOffset: offset + component * slotBytes + lanes * 4, as: SIMD4<Float>.self)
    }
    return (
      ClosedForm.rotation(field(SLEET_SLAB_SPIN), age: a),
      ClosedForm.normalizedAge(age: a, inverseLifetime: SIMD4(repeating: 1) / field(SLEET_SLAB_LIFETIME))
    )
  }

  /// Colour (``ClosedForm``).
  @inline(never)
  static func clampedColors(
    _ p: UnsafeRawPointer, lanes: Int, age a: SIMD4<Float>, constants k: LaneConstants
  ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
    @inline(__always) func field(_ offset: Int, _ component: Int = 0) -> SIMD4<Float> {
      p.load(fromByteOffset: offset + component * slotBytes + lanes * 4, as: SIMD4<Float>.self)
    }
    return (
      ClosedForm.color(field(SLEET_SLAB_COLOR), k.colorSpeedR, age: a),
      ClosedForm.color(field(SLEET_SLAB_COLOR, 1), k.colorSpeedG, age: a),
      ClosedForm.color(field(SLEET_SLAB_COLOR, 2), k.colorSpeedB, age: a),
      ClosedForm.color(field(SLEET_SLAB_COLOR, 3), k.colorSpeedA, age: a)
    )
  }

  /// Writes four consecutive `AffineTransform2D`s (24 bytes each: a, b, c,
  /// d, tx, ty) with a = d = `sc`, b = `ss`, c = −`ss`: per pair of particles
  /// three 16-byte stores (a₀b₀c₀d₀)(tx₀ty₀a₁b₁)(c₁d₁tx₁ty₁).
  ///
  /// Invariant: `out` points at 4 writable transforms; stores are unaligned
  /// (`storeBytes`), so any output index works.
  @inline(__always)
  static func storeAffines4(
    _ sc: SIMD4<Float>, _ ss: SIMD4<Float>, _ x: SIMD4<Float>, _ y: SIMD4<Float>, to out: UnsafeMutableRawPointer
  ) {
    // c = −ss by flipping the sign bit, as scalar negation does (SIMD prefix
    // minus computes 0 − x, which turns −0 into +0).
    let negated = unsafeBitCast(
      unsafeBitCast(ss, to: SIMD4<UInt32>.self) ^ SIMD4(repeating: 0x8000_0000), to: SIMD4<Float>.self)
    let abcd = transpose(sc, ss, negated, sc)
    let t = transpose(x, y, x, y)
    @inline(__always) func pair(
      _ r0: SIMD4<Float>, _ r1: SIMD4<Float>, _ t0: SIMD4<Float>, _ t1: SIMD4<Float>, _ at: Int
    ) {
      out.storeBytes(of: r0, toByteOffset: at, as: SIMD4<Float>.self)
      out.storeBytes(
        of: SIMD4(lowHalf: t0.lowHalf, highHalf: r1.lowHalf), toByteOffset: at + 16, as: SIMD4<Float>.self)
      out.storeBytes(
        of: SIMD4(lowHalf: r1.highHalf, highHalf: t1.lowHalf), toByteOffset: at + 32, as: SIMD4<Float>.self)
    }
    pair(abcd.0, abcd.1, t.0, t.1, 0)
    pair(abcd.2, abcd.3, t.2, t.3, 48)
  }

  /// Field group `(a, b, c, d)` of four consecutive instances of `stride`
  /// bytes: row l at `out + stride·l + offset` is (a[l], b[l], c[l], d[l]);
  /// aligned stores (instances are 16-byte aligned, strides multiples of 16).
  @inline(__always)
  static func storeRows4(
    _ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>,
    to out: UnsafeMutableRawPointer, offset: Int, stride: Int
  ) {
    let rows = transpose(a, b, c, d)
    out.storeBytes(of: rows.0, toByteOffset: offset, as: SIMD4<Float>.self)
    out.storeBytes(of: rows.1, toByteOffset: stride + offset, as: SIMD4<Float>.self)
    out.storeBytes(of: rows.2, toByteOffset: 2 * stride + offset, as: SIMD4<Float>.self)
    out.storeBytes(of: rows.3, toByteOffset: 3 * stride + offset, as: SIMD4<Float>.self)
  }

  /// Rows (a[l], b[l], c[l], d[l]) for l = 0…3: a 4×4 transpose by two
  /// levels of unzipping, which lowers to shuffles.
  @inline(__always)
  static func transpose(
    _ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>
  ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
    let ab = SIMD8(lowHalf: a, highHalf: b)
    let cd = SIMD8(lowHalf: c, highHalf: d)
    let evens = SIMD8(lowHalf: ab.evenHalf, highHalf: cd.evenHalf)
    let odds = SIMD8(lowHalf: ab.oddHalf, highHalf: cd.oddHalf)
    return (evens.evenHalf, odds.evenHalf, evens.oddHalf, odds.oddHalf)
  }

  /// The naive twin of the kernel for one record: the same ``ClosedForm``,
  /// one particle at a time.
  static func evaluateNaive(_ r: BirthRecord, at t: Double, flattensDepth: Bool) -> ParticleInstance {
    let a = Float(t - r.birthTime)
    let p = r.position(age: a)
    return ParticleInstance(
      x: p.x, y: p.y, z: flattensDepth ? 0 : p.z, scale: r.scale(age: a), color: r.color(age: a),
      contentsRect: r.contentsRect, rotation: r.rotation(age: a),
      normalizedAge: ClosedForm.normalizedAge(age: a, inverseLifetime: 1 / r.lifetime), sprite: r.sprite,
      cell: r.cell)
  }
}
