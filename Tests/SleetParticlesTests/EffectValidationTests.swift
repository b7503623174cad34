import Foundation
import SleetMath
import Testing

@testable import SleetParticles

/// An effect's definition is validated once and then cannot drift out of
/// step with its changes; code-built and file-read definitions get the same
/// checks.
@Suite("Effect and particle-system validation")
struct EffectValidationTests {
  /// `emitter` is read-only outside the module; the seed is the one thing
  /// the CLI sets afterwards, through `Effect.seed`.
  @Test func seedForwardsToTheEmitterAndChangesTheParticles() throws {
    var effect = try Effect(
      emitter: Emitter(
        emitterCells: [
          testCell("snow", birthRate: 10, lifetime: 5, velocity: 10) {
            $0.velocityRange = 4
            $0.emissionRange = .pi
          }
        ]),
      changes: [PropertyChange(time: 1, keyPath: "emitterCells.snow.birthRate", value: 20)])
    let before = try ParticleSystem(effect: effect)
    before.seek(to: 2)
    effect.seed = 7
    #expect(effect.seed == 7 && effect.emitter.seed == 7)
    #expect(effect.emitter(at: 2).seed == 7)
    let after = try ParticleSystem(effect: effect)
    after.seek(to: 2)
    #expect(after.liveCount == before.liveCount)
    #expect(after.particles().map(\.id) == before.particles().map(\.id))
    #expect(after.particles().map(\.position) != before.particles().map(\.position))
  }

  /// Effects built in code are validated by `ParticleSystem.init` like files.
  @Test func particleSystemRejectsInvalidDefinitionsNamingThePath() throws {
    let twins = testEffect([testCell("a"), testCell("a")])
    #expect(
      throws: ParticleSystemError.invalidDefinition(
        KeyPathError(keyPath: "emitterCells.a", reason: "two sibling cells are named 'a'"))
    ) { try ParticleSystem(effect: twins) }
    let notANumber = testEffect([testCell("c", lifetime: .nan)])
    do {
      _ = try ParticleSystem(effect: notANumber)
      Issue.record("a NaN lifetime was accepted")
    } catch {
      guard case .invalidDefinition(let problem) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(problem.keyPath == "emitterCells.c.lifetime")
      #expect(error.description.hasPrefix("invalid effect definition: emitterCells.c.lifetime: "))
    }
    #expect(throws: Never.self) { try ParticleSystem(effect: testEffect([testCell("a"), testCell("b")])) }
    // Sprite names are left to the renderer's sprite library.
    let custom = testCell("s") { $0.contents = SpriteReference("square") }
    #expect(throws: Never.self) { try ParticleSystem(effect: testEffect([custom])) }
  }
}
