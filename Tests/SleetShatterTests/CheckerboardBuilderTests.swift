import SleetMath
import Testing

@testable import SleetShatter

/// The checkerboard's lane-parallel per-tile kernel (`_Builder.build`: four
/// tiles at a time, a shared path for cards at rest, an out-of-line path for
/// flipping cards) against its one-tile-at-a-time twin `_buildOne`: every
/// local matrix and state must be bit-identical.
@Suite("Checkerboard builder")
struct CheckerboardBuilderTests {
  static let plans: [(String, CheckerboardPlan)] = [
    ("Apple 320×480 push (10 columns: runs of 4, 4, 1, 1)", CheckerboardPlan(width: 320, height: 480)),
    ("390×844 pop", CheckerboardPlan(width: 390, height: 844, direction: .pop)),
    ("3 columns (never four in a row)", CheckerboardPlan.grid(columns: 3, rows: 40, tileSide: 7)),
    ("100×70 push", CheckerboardPlan.grid(columns: 100, rows: 70, tileSide: 4)),
    ("97×53 pop, tiles of 9", CheckerboardPlan.grid(columns: 97, rows: 53, tileSide: 9, direction: .pop)),
  ]

  @Test(arguments: 0..<plans.count)
  func lanesMatchTheOneTileKernelBitForBit(index: Int) {
    let (name, plan) = Self.plans[index]
    let transition = CheckerboardTransition(plan: plan)
    let n = plan.tileCount
    var locals = [Transform3D](repeating: .identity, count: n)
    var states = [ShatterPieceState](
      repeating: ShatterPieceState(progress: -1, opacity: -1, depth: -1, face: .to), count: n)
    var oneLocals = locals
    var oneStates = states
    // Before, at, during and after the transition, and the edge-on instant
    // of the first tile (where the exact curve decides the face).
    let edgeOn = plan.delay(column: 0, row: 0) + 0.5 * plan.tileDuration
    for time in [-1, 0, 0.05, 0.4, 1.1, 1.7, 2.5, edgeOn, plan.endTime, plan.endTime + 1] {
      let builder = CheckerboardTransition._Builder(
        plan: plan, curve: transition.timingFunction, table: transition._table, time: time)
      // Chunks as the pipeline cuts them, so the runs start mid-row.
      locals.withUnsafeMutableBufferPointer { l in
        states.withUnsafeMutableBufferPointer { s in
          var lo = 0
          while lo < n {
            let hi = min(n, lo + _ShatterPipeline.chunkSize)
            builder.build(lo..<hi, locals: l.baseAddress! + lo, states: s.baseAddress! + lo)
            lo = hi
          }
        }
      }
      transition._table.nodes.withUnsafeBufferPointer { nodes in
        oneLocals.withUnsafeMutableBufferPointer { l in
          oneStates.withUnsafeMutableBufferPointer { s in
            for i in 0..<n {
              builder._buildOne(
                column: i % plan.columns, row: i / plan.columns, nodes.baseAddress!,
                l.baseAddress! + i, s.baseAddress! + i)
            }
          }
        }
      }
      var mismatches = 0
      for i in 0..<n {
        let a = locals[i].entries.map(\.bitPattern)
        let b = oneLocals[i].entries.map(\.bitPattern)
        let sa = states[i]
        let sb = oneStates[i]
        if a != b || sa.progress.bitPattern != sb.progress.bitPattern
          || sa.opacity.bitPattern != sb.opacity.bitPattern || sa.depth.bitPattern != sb.depth.bitPattern
          || sa.faceRawValue != sb.faceRawValue
        {
          mismatches += 1
        }
      }
      #expect(mismatches == 0, "\(name) t=\(time): \(mismatches) of \(n) tiles differ")
    }
  }
}
