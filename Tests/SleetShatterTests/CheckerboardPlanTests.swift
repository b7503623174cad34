import Testing

@testable import SleetShatter

/// Known answers from Apple's formulas (research note §4.3), to the printed digits.
@Suite("CheckerboardPlan")
struct CheckerboardPlanTests {
  func close(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool { abs(a - b) <= tolerance }

  @Test func iPhone320x480() {
    let push = CheckerboardPlan(width: 320, height: 480, direction: .push)
    #expect(push.slice == 32)
    #expect(push.columns == 10 && push.rows == 15)
    #expect(close(push.diagonal, 576.888, 5e-4))
    #expect(close(push.tileDuration, 0.65139, 5e-6))
    #expect(close(push.lastDelay, 2.1679, 5e-5))
    #expect(close(push.endTime, 2.8193, 5e-5))
    #expect(push.firstDelay == 0)
    #expect(push.delay(column: 9, row: 14) == push.lastDelay)
    let pop = CheckerboardPlan(width: 320, height: 480, direction: .pop)
    #expect(pop.firstDelay == 0)
    #expect(close(pop.endTime, 2.8193, 5e-5))
  }

  @Test func iPhone390x844() {
    let push = CheckerboardPlan(width: 390, height: 844, direction: .push)
    #expect(push.slice == 39)
    #expect(push.columns == 10 && push.rows == 22)
    #expect(close(push.tileDuration, 0.44047, 5e-6))
    #expect(close(push.lastDelay, 2.4520, 5e-5))
    #expect(close(push.endTime, 2.8925, 5e-5))
    let pop = CheckerboardPlan(width: 390, height: 844, direction: .pop)
    #expect(close(pop.firstDelay, 0.0100, 5e-5))
    #expect(close(pop.endTime, 2.8575, 5e-5))
    // The overhanging bottom-right tile has a slightly negative dot product.
    #expect(pop._dot(column: 9, row: 21) < 0)
  }

  @Test func iPhone375x667NeighbourStarts() {
    let push = CheckerboardPlan(width: 375, height: 667)
    #expect(push.slice == 38 && push.columns == 10 && push.rows == 18)
    #expect(close(push.tileDuration, 0.51881, 5e-6))
    #expect(close(push.delay(column: 1, row: 0), 0.06039, 5e-6))
    #expect(close(push.delay(column: 0, row: 1), 0.10741, 5e-6))
    #expect(close(push.endTime, 2.8882, 5e-5))
    let pop = CheckerboardPlan(width: 375, height: 667, direction: .pop)
    #expect(close(pop.firstDelay, 0.0044, 5e-5))
    #expect(close(pop.endTime, 2.8322, 5e-5))
  }

  @Test func delayMatchesTheSampleFormulaOrder() {
    // startTime = D·p/(L+S) with p = |v·T|/L, evaluated in the sample's order.
    for direction in ShatterDirection.allCases {
      let plan = CheckerboardPlan(width: 390, height: 844, direction: direction)
      let (W, H, L, S, D, s) = (390.0, 844.0, plan.diagonal, 160.0, 3.0, 39.0)
      for tile in plan.tiles {
        let x = Double(tile.column) * s
        let y = Double(tile.row) * s
        let dot = direction == .push ? x * W + y * H : (x + s - W) * -W + (y + s - H) * -H
        let p = abs(dot) / L
        let start = p / (L + S) * D
        let duration = (p + S) / (L + S) * D - start
        #expect(abs(tile.delay - start) < 1e-12)
        #expect(abs(tile.duration - duration) < 1e-12)
      }
    }
  }

  @Test func tilesAreRowMajorAndLastEndIsTheMaximum() {
    let plan = CheckerboardPlan(width: 375, height: 667, direction: .pop)
    let tiles = plan.tiles
    #expect(tiles.count == plan.tileCount)
    #expect(tiles[11].column == 1 && tiles[11].row == 1)
    let latest = tiles.map { $0.delay + $0.duration }.max()!
    #expect(abs(latest - plan.endTime) < 1e-12)
    #expect(tiles.map(\.delay).min()! == plan.firstDelay)
  }

  @Test func configurableDivisorDurationAndSpacing() {
    let plan = CheckerboardPlan(width: 390, height: 844, divisor: 8, duration: 2, spacing: 100)
    #expect(plan.slice == 49)  // round(48.75)
    #expect(plan.columns == 8 && plan.rows == 18)  // ⌈390/49⌉, ⌈844/49⌉: edge tiles overhang
    #expect(Double(plan.columns) * plan.slice > 390)
    #expect(abs(plan.tileDuration - 2 * 100 / (plan.diagonal + 100)) < 1e-15)
    // Half away from zero: 25/10 = 2.5 rounds to 3.
    #expect(CheckerboardPlan(width: 25, height: 25).slice == 3)
  }

  @Test func validationNamesTheField() {
    #expect(throws: ShatterPlanError.invalidSize(field: "width", value: 0)) {
      try CheckerboardPlan.validate(width: 0, height: 10)
    }
    #expect(throws: ShatterPlanError.self) { try CheckerboardPlan.validate(width: 10, height: .nan) }
    #expect(throws: ShatterPlanError.self) { try CheckerboardPlan.validate(width: 1e6, height: 10) }
    #expect(throws: ShatterPlanError.self) { try CheckerboardPlan.validate(width: 10, height: 10, divisor: 0) }
    #expect(throws: ShatterPlanError.self) { try CheckerboardPlan.validate(width: 4, height: 10, divisor: 9) }
    #expect(throws: ShatterPlanError.tooManyTiles(count: 10_000 * 10_000, limit: 1 << 22)) {
      try CheckerboardPlan.validate(width: 10_000, height: 10_000, divisor: 10_000)
    }
    #expect(throws: Never.self) { try CheckerboardPlan.validate(width: 1000, height: 1000, divisor: 1000) }
    #expect(throws: Never.self) { try CheckerboardPlan.validate(width: 10, height: 10, spacing: 0) }
    #expect(throws: ShatterPlanError.invalidTiming(field: "spacing", value: -1)) {
      try CheckerboardPlan.validate(width: 10, height: 10, spacing: -1)
    }
    #expect(
      ShatterPlanError.invalidTiming(field: "spacing", value: -1).description
        == "spacing must be finite and ≥ 0, got -1.0")
    #expect(
      ShatterPlanError.invalidTiming(field: "duration", value: 0).description
        == "duration must be finite and positive, got 0.0")
  }
}
