import Testing

@testable import SleetParticles

/// A frame's particles are indexed with `Int32` (the render-order sort's
/// permutation), so the budget, which bounds every frame, stops at 2³¹ − 1.
@Suite("Budget limit")
struct BudgetLimitTests {
  @Test func maximumBudgetIsTheInt32Range() {
    #expect(ParticleSystemConfiguration.maximumBudget == 2_147_483_647)
  }

  @Test func aBudgetPastInt32IsAProgrammerError() async {
    await #expect(processExitsWith: .failure) {
      do {
        _ = try ParticleSystem(
          effect: testEffect([testCell("c")]),
          configuration: .init(budget: ParticleSystemConfiguration.maximumBudget + 1))
      } catch {
        // Not reached: the precondition traps first.
      }
    }
  }

  @Test func theLargestBudgetIsAccepted() throws {
    let system = try ParticleSystem(
      effect: testEffect([testCell("c")]), configuration: .init(budget: ParticleSystemConfiguration.maximumBudget))
    system.seek(to: 1)
    #expect(system.liveCount == 10)
  }
}
