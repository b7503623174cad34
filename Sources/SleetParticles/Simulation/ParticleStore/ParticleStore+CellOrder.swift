import CSleetKernels
import SleetMath

extension ParticleStore {
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
}
