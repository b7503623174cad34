import Testing

@testable import SleetParticles

/// One activity-window rule for top-level cells and sub-cells: birth k is in
/// the window when its offset from the opening, (k + 1 − phase)/rate, is
/// below the window's length. Expected counts below are exact integer
/// arithmetic on the decimal inputs, independent of the engine.
@Suite("Activity windows")
struct ActivityWindowTests {
  /// Births of rate r (an integer) in a window of `milliseconds` ms: the k + 1
  /// with (k + 1)·1000 < r·ms.
  func expectedBirths(rate: Int, milliseconds: Int) -> Int { (rate * milliseconds - 1) / 1000 }

  /// (beginTime, duration) in ms and an integer rate: decimal windows whose
  /// last birth falls exactly on the end, and some whose does not.
  static let windows: [(begin: Int, duration: Int, rate: Int)] = [
    (2300, 100, 150), (300, 700, 10), (100, 300, 30), (1700, 600, 5), (2300, 100, 149), (500, 250, 8),
    (0, 1100, 20), (900, 900, 10),
  ]

  @Test(arguments: 0..<windows.count)
  func topLevelWindowHoldsTheDecimalCount(_ i: Int) throws {
    let w = Self.windows[i]
    let cell = testCell("c", birthRate: Float(w.rate), lifetime: 100) {
      $0.beginTime = Double(w.begin) / 1000
      $0.duration = Double(w.duration) / 1000
    }
    let system = try ParticleSystem(effect: testEffect([cell]))
    system.seek(to: 10)
    #expect(system.particles().count == expectedBirths(rate: w.rate, milliseconds: w.duration))
  }

  @Test(arguments: 0..<windows.count)
  func subCellWindowHoldsTheSameCountForEveryParent(_ i: Int) throws {
    let w = Self.windows[i]
    let child = testCell("child", birthRate: Float(w.rate), lifetime: 100) {
      $0.beginTime = Double(w.begin) / 1000
      $0.duration = Double(w.duration) / 1000
    }
    // Parents at 1/7, 2/7, … < 3 (20 of them, at times with no short
    // decimal form), each living long past its child window.
    let parent = testCell("parent", birthRate: 7, lifetime: 100) {
      $0.duration = 3
      $0.emitterCells = [child]
    }
    let system = try ParticleSystem(effect: testEffect([parent]))
    system.seek(to: 10)
    let particles = system.particles()
    #expect(particles.filter { $0.cellPath == "parent" }.count == 20)
    let perParent = expectedBirths(rate: w.rate, milliseconds: w.duration)
    #expect(particles.filter { $0.cellPath == "parent.child" }.count == 20 * perParent)
  }

  @Test func windowOpeningBeforeZeroEndsAtBeginPlusDuration() throws {
    // beginTime −0.25, duration 1: open on [0, 0.75) at 4/s: births at 0.25, 0.5.
    let cell = testCell("c", birthRate: 4, lifetime: 100) {
      $0.beginTime = -0.25
      $0.duration = 1
    }
    let system = try ParticleSystem(effect: testEffect([cell]))
    system.seek(to: 5)
    #expect(system.particles().map(\.birthTime).sorted() == [0.25, 0.5])
  }

  @Test func parentLifetimeClosesASubCellWindow() throws {
    // The parent lives 0.5 s; its child's window [0.1, 0.1 + 2) is cut to
    // ages [0.1, 0.5): births at ages 0.1 + (k + 1)/10 < 0.5, k = 0, 1, 2.
    let child = testCell("child", birthRate: 10, lifetime: 100) {
      $0.beginTime = 0.1
      $0.duration = 2
    }
    let parent = testCell("parent", birthRate: 1, lifetime: 0.5) {
      $0.duration = 1.5
      $0.emitterCells = [child]
    }
    let system = try ParticleSystem(effect: testEffect([parent]))
    system.seek(to: 3)
    #expect(system.particles().filter { $0.cellPath == "parent.child" }.count == 3)
  }
}
