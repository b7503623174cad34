import CSleetKernels
import SleetMath
import Testing

@testable import SleetParticles

/// The cell-order passes in C (`sleet_count_cells8` and
/// `sleet_evaluate_cells8`, through
/// ``ParticleStore/countByCell(_:count:at:rows:into:avx2:)`` and
/// ``ParticleStore/evaluateByCell(_:ids:count:at:rows:into:cursors:avx2:)``)
/// against their naive twin: the blocks one at a time in store order
/// (``BlockRunKernelTests/naive(_:first:count:at:into:)``), then each cell's
/// rows moved together, cells in number order, each cell's rows in store
/// order (a stable sort by cell). Byte for byte, in both copies, every
/// output mode (full or compact rows, with and without affines and depth),
/// on ``BlockRunKernelTests``'s fixture: blocks of one row and of several,
/// all alive, partly alive and dead; written as one part and as two parts
/// with their own cursors (as several threads write), from output index 0
/// and further on. Rows the pass does not own stay untouched, depths among
/// them.
@Suite("Cell-order kernel = store order sorted by cell")
struct CellOrderKernelTests {
  typealias Fixture = BlockRunKernelTests

  /// (output index of the first row, where the second part starts: nil for
  /// one part).
  static let layouts: [(at: Int, split: Int?)] = [(0, nil), (3, nil), (0, 6), (5, 9)]

  /// Each live lane's cell in store order (``BlockRunKernelTests/cellOfRow``).
  static let liveCells: [Int] = Fixture.blocks.flatMap { block in
    (0..<8).filter { block.alive & (1 << $0) != 0 }.map { Fixture.cellOfRow[Int(block.rows[$0])] }
  }

  /// Rows aligned, and 16 and 48 bytes past a 64-byte boundary (see
  /// ``BlockRunKernelTests/Output``).
  @Test(arguments: 0..<Fixture.modes.count, 0..<layouts.count)
  func cellOrderEqualsStoreOrderSortedByCell(mode: Int, layout: Int) {
    for avx2 in Fixture.copies {
      for rowOffset in [0, 16, 48] { check(mode: mode, layout: layout, avx2: avx2, rowOffset: rowOffset) }
    }
  }

  func check(mode: Int, layout: Int, avx2: Bool, rowOffset: Int) {
    let m = Fixture.modes[mode]
    let (start, split) = Self.layouts[layout]
    let parts = split.map { [0..<$0, $0..<Fixture.blockCount] } ?? [0..<Fixture.blockCount]
    // The fixture's 85 live lanes, from up to row 5.
    let storeOrder = Fixture.Output(capacity: 96, rowOffset: rowOffset)
    let got = Fixture.Output(capacity: 96, rowOffset: rowOffset)
    Fixture.allBlocks { blocks in
      _ = Fixture.naive(
        blocks, first: 0, count: Fixture.blockCount, at: 0,
        into: storeOrder.target(compact: m.compact, affines: m.affines, sortKeys: true, flattensDepth: m.flattensDepth))
      Fixture.rows.withUnsafeBufferPointer { rows in
        Fixture.ids.withUnsafeBufferPointer { ids in
          // Pass 1 per part, then cursors in (cell, part) order.
          var cursors = [Int](repeating: 0, count: 2 * parts.count)
          for (k, part) in parts.enumerated() {
            cursors.withUnsafeMutableBufferPointer { c in
              ParticleStore.countByCell(
                blocks + part.lowerBound * ParticleStore.blockBytes, count: part.count, at: Fixture.t,
                rows: rows.baseAddress!, into: c.baseAddress! + 2 * k, avx2: avx2)
            }
          }
          #expect(
            (0..<2).map { cell in parts.indices.reduce(0) { $0 + cursors[2 * $1 + cell] } }
              == [Self.liveCells.count { $0 == 0 }, Self.liveCells.count { $0 == 1 }], "counts, AVX2 copy: \(avx2)")
          var next = start
          for cell in 0..<2 {
            for k in parts.indices {
              let n = cursors[2 * k + cell]
              cursors[2 * k + cell] = next
              next += n
            }
          }
          let target = got.target(
            compact: m.compact, affines: m.affines, sortKeys: true, flattensDepth: m.flattensDepth)
          for (k, part) in parts.enumerated() {
            cursors.withUnsafeMutableBufferPointer { c in
              ParticleStore.evaluateByCell(
                blocks + part.lowerBound * ParticleStore.blockBytes, ids: ids.baseAddress! + 8 * part.lowerBound,
                count: part.count, at: Fixture.t, rows: rows.baseAddress!, into: target,
                cursors: c.baseAddress! + 2 * k, avx2: avx2)
            }
          }
        }
      }
    }
    // The naive frame's rows, stably sorted by cell, from `start`; no depths.
    let order = Self.liveCells.indices.sorted { (Self.liveCells[$0], $0) < (Self.liveCells[$1], $1) }
    let want = Fixture.Output(capacity: 96, rowOffset: rowOffset)
    let rowBytes = [64, 32, 24, 8]
    for (k, (to, _)) in want.buffers.prefix(4).enumerated() {
      let from = storeOrder.buffers[k].0
      let unwritten = k == 0 && m.compact || k == 1 && !m.compact || k == 2 && !m.affines
      if unwritten { continue }
      for (j, i) in order.enumerated() {
        (to + (start + j) * rowBytes[k]).copyMemory(from: from + i * rowBytes[k], byteCount: rowBytes[k])
      }
    }
    let (gotBytes, wantBytes) = (got.bytes(), want.bytes())
    for (k, name) in ["instances", "compact", "affines", "ids", "depths"].enumerated() {
      let same = gotBytes[k] == wantBytes[k]
      #expect(same, "\(name), \(m), layout \(layout), AVX2 copy: \(avx2), rows at +\(rowOffset)")
    }
  }

  /// `render(into:)` writes the same frames with the cell-order write as
  /// with the store-order write and the sort it replaces, on the presets
  /// with several top-level cells (confetti: `unordered`; sparkle:
  /// `additive`), over their lives, with one and two threads (small chunks,
  /// so several parts), full and compact rows, with affines and ids.
  @Test(arguments: ["confetti", "sparkle"], [false, true])
  func renderEqualsTheSortedPath(preset: String, compact: Bool) throws {
    let effect = try Effect.preset(named: preset)
    for threads in [1, 2] {
      let configuration = ParticleSystemConfiguration(
        threads: threads, chunkSize: 64, computesAffines: true, computesIDs: true,
        instanceLayout: compact ? .compact : .full)
      let direct = try ParticleSystem(effect: effect, configuration: configuration)
      let sorted = try ParticleSystem(effect: effect, configuration: configuration)
      // Both in the single store, where the cell-order write runs (a store
      // per cell needs neither: CellStoreTests).
      direct.paths.cellStores = false
      sorted.paths.cellStores = false
      sorted.paths.cellOrderWrite = false
      var frames = (ParticleFrame(), ParticleFrame())
      var drawn = 0
      for step in 0..<40 {
        let t = 0.05 + Double(step) * 0.21
        direct.advance(to: t)
        sorted.advance(to: t)
        direct.render(into: &frames.0)
        sorted.render(into: &frames.1)
        let same = sameOutputs(frames.0, frames.1)
        #expect(same == (true, true, true, true), "\(preset) at \(t), \(threads) threads")
        let inOrder = frames.0.ids == frames.0.ids.sorted()
        #expect(inOrder, "\(preset) at \(t): id order")
        drawn = max(drawn, frames.0.ids.count)
      }
      #expect(drawn > 50, "\(preset) draws particles")
    }
  }
}
