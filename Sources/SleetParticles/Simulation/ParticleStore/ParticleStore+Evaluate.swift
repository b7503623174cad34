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
  /// The effect's cells when behaviors act on some of them: their lanes are
  /// drawn after their behaviors (``applyBehaviors(block:alive:at:tree:into:at:)``),
  /// one block at a time. nil when no behavior acts. A reference
  /// (``BehaviorCells``): the lane-by-lane path copies a target per block.
  var behaviors: BehaviorCells? = nil
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

extension ParticleStore {
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
      if target.hidden == nil && target.behaviors == nil {
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
    // the portable build's SSE2 copy is slower. Same bits.
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
}
