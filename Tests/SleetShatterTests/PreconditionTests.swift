import Testing

@testable import SleetShatter

/// Programmer errors stop with a precondition failure (checked in a child process).
@Suite("Shatter preconditions")
struct PreconditionTests {
  @Test func aFrameFromAnotherTransitionIsRejected() async {
    await #expect(processExitsWith: .failure) {
      let small = CheckerboardTransition(plan: CheckerboardPlan(width: 320, height: 480))
      let large = CheckerboardTransition(plan: CheckerboardPlan(width: 390, height: 844))
      var frame = small.makeFrame()
      large.evaluate(at: 1, into: &frame)
    }
  }

  @Test func aNonFiniteTimeIsRejected() async {
    await #expect(processExitsWith: .failure) {
      let t = ShatterTransition(style: .explode, width: 320, height: 480)
      var frame = t.makeFrame()
      t.evaluate(at: .nan, into: &frame)
    }
  }

  @Test func anInvalidPlanIsRejected() async {
    await #expect(processExitsWith: .failure) {
      _ = CheckerboardPlan(width: 0, height: 480)
    }
  }
}
