import Testing

@testable import SleetParticles

/// A cell's own CAMediaTiming `speed`: its emission clock runs `speed` times
/// as fast, so its rate is multiplied by speed and its window lasts
/// duration/speed; `timeOffset` moves nothing (births count from activation).
@Suite("Cell timing")
struct CellTimingTests {
  func birthTimes(_ effect: Effect, at t: Double) throws -> [Double] {
    let system = try ParticleSystem(effect: effect)
    system.seek(to: t)
    return system.particles().map(\.birthTime).sorted()
  }

  @Test func topLevelSpeedScalesRateAndWindow() throws {
    // Window [0.5, 0.5 + 1/2) at rate 10·2: births at 0.5 + (k + 1)/20 < 1.
    let cell = testCell("c", birthRate: 10, lifetime: 100) {
      $0.beginTime = 0.5
      $0.duration = 1
      $0.speed = 2
    }
    let times = try birthTimes(testEffect([cell]), at: 3)
    let expected: [Double] = (0..<9).map { k in 0.5 + Double(k + 1) / 20 }
    #expect(times == expected)
  }

  @Test func subCellSpeedScalesRateAndWindowOnTheParentsAge() throws {
    // One parent born at t = 1; its sub-cell emits on parent ages
    // [0.5, 0.5 + 0.9/4) at rate 15·4: births at ages 0.5 + (k + 1)/60 < 0.725.
    let child = testCell("child", birthRate: 15, lifetime: 100) {
      $0.beginTime = 0.5
      $0.duration = 0.9
      $0.speed = 4
    }
    let parent = testCell("parent", birthRate: 1, lifetime: 100) {
      $0.duration = 1.5
      $0.emitterCells = [child]
    }
    let system = try ParticleSystem(effect: testEffect([parent]))
    system.seek(to: 5)
    let children = system.particles().filter { $0.cellPath == "parent.child" }.map(\.birthTime).sorted()
    #expect(children.count == 13)
    let first: Double = 1 + (0.5 + 1.0 / 60)
    #expect(children.first == first)
    // Stepping gives the same particles, and the naive path the same ids.
    let stepped = try ParticleSystem(effect: testEffect([parent]))
    for n in 0...300 { stepped.advance(to: Double(n) / 60) }
    #expect(stepped.particles() == system.particles())
    let naive = NaiveParticleSimulator(effect: testEffect([parent]))
    for _ in 0..<300 { naive.step(1.0 / 60) }
    #expect(Set(naive.snapshots().map(\.id)) == Set(system.particles().map(\.id)))
  }

  @Test func speedZeroEmitsNothingAndTimeOffsetMovesNothing() throws {
    let stopped = testCell("c", birthRate: 10, lifetime: 100) { $0.speed = 0 }
    #expect(try birthTimes(testEffect([stopped]), at: 3).isEmpty)
    let plain = testCell("c", birthRate: 10, lifetime: 100)
    let offset = testCell("c", birthRate: 10, lifetime: 100) { $0.timeOffset = 0.37 }
    let shifted = try birthTimes(testEffect([offset]), at: 3)
    let unshifted = try birthTimes(testEffect([plain]), at: 3)
    #expect(shifted == unshifted)
  }

  @Test func peakBoundUsesTheScaledRate() throws {
    let cell = testCell("c", birthRate: 10, lifetime: 2) { $0.speed = 3 }
    let system = try ParticleSystem(effect: testEffect([cell]))
    #expect(system.peakLiveParticles == 61)  // ⌊R·L⌋ + 1 with R = 30 (speed 3), L = 2
    system.seek(to: 10)
    #expect(system.liveCount <= 60 && system.liveCount >= 59)
  }
}
