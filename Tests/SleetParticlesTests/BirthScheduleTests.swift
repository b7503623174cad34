import Testing

@testable import SleetParticles

@Suite("Birth schedule")
struct BirthScheduleTests {
  /// The window [start, end) with no phase.
  func window(_ start: Double, _ end: Double) -> ActivityWindow {
    ActivityWindow(start: start, length: end - start, phase: 0)
  }

  @Test func firstBirthIsAtOneOverRateNeverAtTheStart() {
    let s = BirthSchedule(segmentStarts: [-.infinity], rates: [4])
    #expect(s.birthTime(0, in: window(0, .infinity)) == 0.25)
    #expect(s.birthTime(3, in: window(2, .infinity)) == 3)
    #expect(s.count(in: window(0, .infinity), upTo: 0) == 0)
    #expect(s.count(in: window(0, .infinity), upTo: 0.2499) == 0)
    #expect(s.count(in: window(0, .infinity), upTo: 0.25) == 1)
    #expect(s.count(in: window(0, .infinity), upTo: 10) == 40)
  }

  @Test func windowEndIsExclusive() {
    let s = BirthSchedule(segmentStarts: [-.infinity], rates: [4])
    // Births at 0.25, 0.5, 0.75, 1.0 — the one at the end (1.0) is not in [0, 1).
    #expect(s.count(in: window(0, 1), upTo: 5) == 3)
    #expect(s.birthTime(3, in: window(0, 1)) == nil)
  }

  @Test func rateChangesChangeTheSlopeFromTheChangeOn() {
    // 2/s until t = 1, then 10/s: births at 0.5, 1.0, then 1.1, 1.2, …
    let s = BirthSchedule(segmentStarts: [-.infinity, 1], rates: [2, 10])
    #expect(s.birthTime(0, in: window(0, .infinity)) == 0.5)
    #expect(s.birthTime(1, in: window(0, .infinity))! == 1)
    #expect(abs(s.birthTime(2, in: window(0, .infinity))! - 1.1) < 1e-12)
    #expect(s.count(in: window(0, .infinity), upTo: 2.05) == 12)
    // Rate 0 stops births; later segments resume from the accumulated integral.
    let stop = BirthSchedule(segmentStarts: [-.infinity, 1, 3], rates: [2.5, 0, 1])
    #expect(stop.count(in: window(0, .infinity), upTo: 2.9) == 2)
    // Integral at 1 is 2.5; the third birth needs 0.5 more at rate 1: t = 3.5.
    #expect(stop.birthTime(2, in: window(0, .infinity)) == 3.5)
  }

  @Test func countAgreesWithBirthTimesEverywhere() {
    let s = BirthSchedule(segmentStarts: [-.infinity, 0.37, 1.9], rates: [7.3, 0.6, 13])
    var k = 0
    for step in 0..<400 {
      let t = Double(step) * 0.0073
      while let b = s.birthTime(k, in: window(0.1, 2.5)), b <= t { k += 1 }
      #expect(s.count(in: window(0.1, 2.5), upTo: t) == k)
    }
  }
}
