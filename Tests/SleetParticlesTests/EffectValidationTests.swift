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
      guard case .invalidChange(index: 0, field: .keyPath, let reason) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(reason.hasPrefix("'\(keyPath)': "), "\(reason)")
      #expect(reason.contains("cannot change over time"), "\(error)")
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

  /// A change time built in code is checked like a file's,
  /// before the changes are sorted (a NaN would make the order undefined).
  /// The error names the change by its index in the list as given.
  @Test(arguments: [
    (Double.nan, "must be finite, got nan"), (.infinity, "must be finite, got inf"),
    (-.infinity, "must be finite, got -inf"), (-1, "must be ≥ 0, got -1"),
  ])
  func codeBuiltChangeTimesMustBeFiniteAndNonNegative(time: Double, reason: String) {
    let emitter = Emitter(emitterCells: [testCell("c")])
    let changes = [
      PropertyChange(time: 1, keyPath: "birthRate", value: 2),
      PropertyChange(time: time, keyPath: "emitterCells.c.birthRate", value: 3),
    ]
    #expect(throws: EffectValidationError.invalidChange(index: 1, field: .time, reason: reason)) {
      try Effect(emitter: emitter, changes: changes)
    }
    #expect(
      EffectValidationError.invalidChange(index: 1, field: .time, reason: reason).description
        == "changes[1].time: \(reason)")
    // A file cannot spell NaN, but the same check reports a negative time with the same words.
    let json =
      #"{"format": 1, "emitterCells": [{"name": "c"}], "changes": [{"time": 1, "keyPath": "birthRate", "value": 2}, "#
      + #"{"time": -1, "keyPath": "emitterCells.c.birthRate", "value": 3}]}"#
    #expect(formatError(json) == "changes[1].time: must be ≥ 0, got -1")
  }

  /// The Swift API's check of a whole effect: values, names and the cell limit.
  @Test func validateChecksTheDefinitionAndTheCellLimit() throws {
    #expect(Effect.maximumCells == 255)
    #expect(throws: Never.self) { try testEffect((0..<255).map { testCell("c\($0)") }).validate() }
    #expect(throws: EffectValidationError.tooManyCells(300)) {
      try testEffect((0..<300).map { testCell("c\($0)") }).validate()
    }
    // Sub-cells count: 1 + 255.
    let parent = testCell("p") { $0.emitterCells = (0..<255).map { testCell("c\($0)") } }
    #expect(testEffect([parent]).emitter.cellCount == 256)
    #expect(throws: EffectValidationError.tooManyCells(256)) { try testEffect([parent]).validate() }
    #expect(
      EffectValidationError.tooManyCells(256).description
        == "the effect has 256 cells (sub-cells included); at most 255 are supported")
    let notANumber = testEffect([testCell("c", lifetime: .nan)])
    #expect(
      throws: EffectValidationError.invalidDefinition(
        KeyPathError(keyPath: "emitterCells.c.lifetime", reason: "must be finite, got nan"))
    ) { try notANumber.validate() }
    // Sprite names: checked unless a renderer's library resolves them.
    let custom = testEffect([testCell("s") { $0.contents = SpriteReference("square") }])
    #expect(throws: EffectValidationError.self) { try custom.validate() }
    #expect(throws: Never.self) { try custom.validate(includingSprites: false) }
  }

  /// The cell limit is part of the shared validation, so an
  /// effect file with 300 cells is rejected where it is read (as `sleet
  /// validate` reads it), naming `emitterCells`.
  @Test func effectFilesWithMoreThan255CellsAreRejected() throws {
    func cells(_ count: Int) -> String {
      (0..<count).map { "{\"name\": \"c\($0)\"}" }.joined(separator: ", ")
    }
    func file(_ cellList: String) -> String { "{\"format\": 1, \"emitterCells\": [\(cellList)]}" }
    #expect(formatError(file(cells(255))) == nil)
    let message = try #require(formatError(file(cells(300))))
    #expect(message.hasPrefix("emitterCells: the effect has 300 cells"), "\(message)")
    // Sub-cells count too: 1 + 255 = 256.
    let nested = file("{\"name\": \"p\", \"emitterCells\": [\(cells(255))]}")
    #expect(formatError(nested)?.hasPrefix("emitterCells: the effect has 256 cells") == true)
    // Codable reads the same way.
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Effect.self, from: Data(file(cells(300)).utf8)) }
    #expect(throws: Never.self) { try JSONDecoder().decode(Effect.self, from: Data(file(cells(255)).utf8)) }
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
