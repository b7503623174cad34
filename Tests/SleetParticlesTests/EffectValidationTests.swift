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

  /// Timing and the seed are read at time 0 only, so timed changes of them are errors.
  @Test(arguments: [
    "beginTime", "speed", "timeOffset", "emitterCells.c.beginTime", "emitterCells.c.duration",
    "emitterCells.c.speed", "emitterCells.c.timeOffset", "seed",
  ])
  func timedChangesOfTimingPropertiesAreRejected(keyPath: String) throws {
    let emitter = Emitter(emitterCells: [testCell("c")])
    do {
      _ = try Effect(emitter: emitter, changes: [PropertyChange(time: 1, keyPath: keyPath, value: 2)])
      Issue.record("\(keyPath) accepted")
    } catch {
      #expect(error.keyPath == keyPath)
      #expect(error.reason.contains("cannot change over time"), "\(error)")
    }
    let json =
      #"{"format": 1, "emitterCells": [{"name": "c"}], "changes": [{"time": 1, "keyPath": "\#(keyPath)", "value": 2}]}"#
    let message = try #require(formatError(json))
    #expect(message.hasPrefix("changes[0].keyPath: '\(keyPath)': "), "\(message)")
    #expect(message.contains("cannot change over time"))
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Effect.self, from: Data(json.utf8)) }
  }

  @Test func otherTimedChangesStillWork() throws {
    let effect = try Effect(
      emitter: Emitter(emitterCells: [testCell("c")]),
      changes: [
        PropertyChange(time: 1, keyPath: "emitterCells.c.lifetime", value: 2),
        PropertyChange(time: 1, keyPath: "birthRate", value: 3),
      ])
    #expect(effect.emitter(at: 1).birthRate == 3)
    #expect(effect.emitter(at: 1).emitterCells[0].lifetime == 2)
  }

  /// `#i` is how unnamed cells appear in paths; a real name cannot take it.
  @Test func cellNamesStartingWithHashAreRejected() {
    let clash = Emitter(emitterCells: [EmitterCell(), testCell("#0")])
    #expect(throws: KeyPathError.self) { try clash.validate() }
    do {
      try clash.validate()
    } catch {
      #expect(error.keyPath == "emitterCells[1].name")
      #expect(error.reason.contains("'#'"))
    }
    let message = formatError(##"{"format": 1, "emitterCells": [{"name": "#1"}]}"##)
    #expect(message?.hasPrefix("emitterCells[0].name: a cell name must not start with '#'") == true, "\(message ?? "")")
    #expect(throws: Never.self) { try Emitter(emitterCells: [testCell("a#")]).validate() }
  }

  /// A missing resource folder is reported, not turned into "no presets".
  @Test func presetListingErrorsAreReported() throws {
    #expect(throws: EffectFormatError.self) { try Effect.presetNames(inFolder: nil) }
    do {
      _ = try Effect.presetNames(inFolder: URL(fileURLWithPath: "/nonexistent/sleet/Presets"))
      Issue.record("listing a missing folder succeeded")
    } catch {
      #expect(error.path == "")
      #expect(error.reason.hasPrefix("cannot list built-in presets in '/nonexistent/sleet/Presets'"))
    }
    #expect(Effect.presetNames.contains("snow"))
  }
}
