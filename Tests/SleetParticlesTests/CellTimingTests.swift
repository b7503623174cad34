import Testing

@testable import SleetParticles

/// A cell's own CAMediaTiming `speed`: its emission clock runs `speed` times
/// as fast, so its rate is multiplied by speed and its window lasts
/// duration/speed; `timeOffset` sets the emission clock's phase when the
/// window opens (the window itself does not move).
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

  @Test func speedZeroEmitsNothing() throws {
    let stopped = testCell("c", birthRate: 10, lifetime: 100) { $0.speed = 0 }
    #expect(try birthTimes(testEffect([stopped]), at: 3).isEmpty)
  }

  @Test func timeOffsetShiftsTheEmissionPhase() throws {
    // The clock reads 0.37 s at opening: 3.7 births accumulated, so births
    // come where 10·(t + 0.37) crosses 4, 5, …: t = 0.03 + 0.1·k.
    let offset = testCell("c", birthRate: 10, lifetime: 100) { $0.timeOffset = 0.37 }
    let shifted = try birthTimes(testEffect([offset]), at: 3)
    #expect(shifted.count == 30)  // 0.03 … 2.93
    for (k, t) in shifted.enumerated() { #expect(abs(t - (0.03 + 0.1 * Double(k))) < 1e-12) }
    // A whole number of intervals (0.3 s at 10/s) is no shift at all.
    let whole = testCell("c", birthRate: 10, lifetime: 100) { $0.timeOffset = 0.3 }
    let plain = testCell("c", birthRate: 10, lifetime: 100)
    #expect(try birthTimes(testEffect([whole]), at: 3) == birthTimes(testEffect([plain]), at: 3))
  }

  @Test func timeOffsetOnASubCellShiftsEachParentsPhase() throws {
    // Child clock offset 0.025 s at 20/s: half a birth accumulated, so each
    // parent's children come at ages 0.5 + (k + 0.5)/20 < 0.5 + 0.3.
    let child = testCell("child", birthRate: 20, lifetime: 100) {
      $0.beginTime = 0.5
      $0.duration = 0.3
      $0.timeOffset = 0.025
    }
    let parent = testCell("parent", birthRate: 1, lifetime: 100) {
      $0.duration = 1.5
      $0.emitterCells = [child]
    }
    let system = try ParticleSystem(effect: testEffect([parent]))
    system.seek(to: 5)
    let ages = system.particles().filter { $0.cellPath == "parent.child" }.map { $0.birthTime - 1 }.sorted()
    #expect(ages.count == 6)  // offsets 0.025 … 0.275 < 0.3
    for (k, age) in ages.enumerated() { #expect(abs(age - (0.5 + (Double(k) + 0.5) / 20)) < 1e-12) }
    let stepped = try ParticleSystem(effect: testEffect([parent]))
    for n in 0...300 { stepped.advance(to: Double(n) / 60) }
    #expect(stepped.particles() == system.particles())
  }

  @Test func peakBoundUsesTheScaledRate() throws {
    let cell = testCell("c", birthRate: 10, lifetime: 2) { $0.speed = 3 }
    let system = try ParticleSystem(effect: testEffect([cell]))
    #expect(system.peakLiveParticles == 61)  // ⌊R·L⌋ + 1 with R = 30 (speed 3), L = 2
    system.seek(to: 10)
    #expect(system.liveCount <= 60 && system.liveCount >= 59)
  }
}
