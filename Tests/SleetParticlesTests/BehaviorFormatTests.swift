import Foundation
import SleetMath
import Testing

@testable import SleetParticles

/// The `description` of the `KeyPathError` that `Emitter.validate()` throws.
private func validationError(_ emitter: Emitter) -> String? {
  do throws(KeyPathError) {
    try emitter.validate()
    return nil
  } catch {
    return error.description
  }
}

/// The description of the error `JSONDecoder` throws for `json` decoded as `T`.
private func decodingError<T: Decodable>(_: T.Type, _ json: String) -> String? {
  do {
    _ = try JSONDecoder().decode(T.self, from: Data(json.utf8))
    return nil
  } catch DecodingError.dataCorrupted(let context) {
    return context.debugDescription
  } catch {
    return "\(error)"
  }
}

@Suite("Cell mass")
struct CellMassTests {
  @Test func massIsAnOrdinaryCellProperty() throws {
    let e = try Effect(
      json: #"{"format": 1, "emitterCells": [{"name": "c", "mass": 2.5, "massRange": 1}]}"#)
    #expect(e.emitter.emitterCells[0].mass == 2.5)
    #expect(e.emitter.emitterCells[0].massRange == 1)
    #expect(try e.emitter.value(forKeyPath: "emitterCells.c.mass") == .number(2.5))
    #expect(e.jsonString().contains(#""mass": 2.5,"#))
    #expect(try Effect(json: e.jsonString()) == e)
    let data = try JSONEncoder().encode(e)
    #expect(try JSONDecoder().decode(Effect.self, from: data) == e)
    #expect(!(try Effect.preset(named: "snow")).jsonString().contains("mass"))
  }

  @Test func massMustBePositiveAndItsRangeMustKeepItSo() throws {
    #expect(
      formatError(#"{"format": 1, "emitterCells": [{"mass": 0}]}"#)
        == "emitterCells[0].mass: must be > 0, got 0")
    #expect(
      formatError(#"{"format": 1, "emitterCells": [{"massRange": -1}]}"#)
        == "emitterCells[0].massRange: must be ≥ 0, got -1")
    let rule = "mass − massRange/2 must be > 0 (every particle's mass must be positive)"
    let tooWide = "emitterCells[0].massRange: \(rule), got 1 − 2/2 = 0"
    #expect(formatError(#"{"format": 1, "emitterCells": [{"massRange": 2}]}"#) == tooWide)
    #expect(decodingError(Effect.self, #"{"format": 1, "emitterCells": [{"massRange": 2}]}"#) == tooWide)
    // Member order does not matter: the range is checked against the whole cell.
    #expect(formatError(#"{"format": 1, "emitterCells": [{"massRange": 3, "mass": 2}]}"#) == nil)

    var cell = EmitterCell(name: "c")
    cell.massRange = 4
    #expect(
      validationError(Emitter(emitterCells: [cell]))
        == "emitterCells.c.massRange: \(rule), got 1 − 4/2 = -1")
    cell.mass = -1
    #expect(validationError(Emitter(emitterCells: [cell])) == "emitterCells.c.mass: must be > 0, got -1")

    var e = Emitter(emitterCells: [EmitterCell(name: "c")])
    #expect(throws: KeyPathError.self) { try e.setValue(2, forKeyPath: "emitterCells.c.massRange") }
    #expect(e.emitterCells[0].massRange == 0)
    try e.setValue(3, forKeyPath: "emitterCells.c.mass")
    try e.setValue(2, forKeyPath: "emitterCells.c.massRange")
    #expect(e.emitterCells[0].massRange == 2)
    #expect(throws: EffectValidationError.self) {
      try Effect(emitter: e, changes: [PropertyChange(time: 1, keyPath: "emitterCells.c.mass", value: 1)])
    }
  }
}

/// One behavior of every kind, every key away from its default.
func everyKindOfBehavior(suffix: String = "") -> [EmitterBehavior] {
  [
    .wave(WaveBehavior(name: "sway" + suffix, force: SIMD3(100, -2.5, 0.1), frequency: 0.5)),
    .drag(DragBehavior(name: "brake" + suffix, isEnabled: false, drag: 1.5)),
    .attractor(
      AttractorBehavior(
        name: "pull" + suffix, attractorType: .planar, stiffness: 10, radius: 300, position: SIMD2(195, 422),
        zPosition: -70, orientationLatitude: 0.25, orientationLongitude: -1, falloff: -290, falloffDistance: 12)),
    .simpleAttractor(
      SimpleAttractorBehavior(name: "home" + suffix, stiffness: 3, radius: 1, position: SIMD2(-5, 6), falloff: 0.5)),
    .valueOverLife(
      ValueOverLifeBehavior(
        name: "grow" + suffix, keyPath: .scale, values: [0.2, 1, 0.5], locations: [0, 0.3, 1], isAdditive: true)),
    .colorOverLife(
      ColorOverLifeBehavior(
        name: "fade" + suffix,
        colors: [ColorRGBA(red: 1, green: 1, blue: 1, alpha: 0), ColorRGBA(red: 0.5, green: 0.25, blue: 1)],
        locations: [0, 0.1])),
    .alignToMotion(AlignToMotionBehavior(name: "align" + suffix, rotation: 0.25, preservesDepth: true)),
  ]
}

/// An emitter with behaviors on the layer, a cell and a sub-cell.
func emitterWithBehaviors() -> Emitter {
  var spark = EmitterCell(name: "spark")
  spark.emitterBehaviors = [.drag(DragBehavior(drag: 0.5)), .wave(WaveBehavior(force: SIMD3(1, 2, 0)))]
  var confetti = EmitterCell(name: "confetti")
  confetti.birthRate = 5
  confetti.emitterBehaviors = everyKindOfBehavior(suffix: "C")
  confetti.emitterCells = [spark]
  var emitter = Emitter(emitterCells: [confetti])
  emitter.emitterBehaviors = everyKindOfBehavior()
  return emitter
}

/// The error `Effect(json:)` gives for a file whose top-level
/// `emitterBehaviors` is `behaviors` (a JSON array's text).
private func layerBehaviorError(_ behaviors: String) -> String? {
  formatError(#"{"format": 1, "emitterBehaviors": "# + behaviors + "}")
}

/// The error for a file whose cell `c` has `behaviors`; the Codable reader
/// must give the same description.
private func cellBehaviorError(_ behaviors: String) -> String? {
  let json = #"{"format": 1, "emitterCells": [{"name": "c", "emitterBehaviors": "# + behaviors + "}]}"
  let reader = formatError(json)
  // `JSONDecoder` refuses an overflowing literal itself, without a path.
  if !json.contains("1e400") && !json.contains("1e39") {
    #expect(reader == decodingError(Effect.self, json), "\(behaviors)")
  }
  return reader
}

@Suite("Emitter behaviors in effect files")
struct BehaviorFormatTests {
  @Test func specExampleReads() throws {
    let json = """
      {"format": 1, "emitterBehaviors": [
        {"type": "wave", "name": "sway", "force": [100, 0, 0], "frequency": 0.5},
        {"type": "drag", "name": "brake", "drag": 1.5},
        {"type": "attractor", "name": "pull", "attractorType": "radial", "stiffness": 10, "radius": 300,
         "falloff": -290, "falloffDistance": 0, "position": [195, 422], "zPosition": -70},
        {"type": "colorOverLife", "colors": [[1, 1, 1, 0], [1, 1, 1, 1], [1, 1, 1, 0]], "locations": [0, 0.1, 1]},
        {"type": "valueOverLife", "keyPath": "scale", "values": [0.2, 1, 0.5], "locations": [0, 0.3, 1]},
        {"type": "alignToMotion", "rotation": 0.25}
      ]}
      """
    let e = try Effect(json: json)
    #expect(
      e.emitter.emitterBehaviors == [
        .wave(WaveBehavior(name: "sway", force: SIMD3(100, 0, 0), frequency: 0.5)),
        .drag(DragBehavior(name: "brake", drag: 1.5)),
        .attractor(
          AttractorBehavior(
            name: "pull", stiffness: 10, radius: 300, position: SIMD2(195, 422), zPosition: -70, falloff: -290)),
        .colorOverLife(
          ColorOverLifeBehavior(
            colors: [
              ColorRGBA(red: 1, green: 1, blue: 1, alpha: 0), .white, ColorRGBA(red: 1, green: 1, blue: 1, alpha: 0),
            ],
            locations: [0, 0.1, 1])),
        .valueOverLife(ValueOverLifeBehavior(keyPath: .scale, values: [0.2, 1, 0.5], locations: [0, 0.3, 1])),
        .alignToMotion(AlignToMotionBehavior(rotation: 0.25)),
      ])
    #expect(try JSONDecoder().decode(Effect.self, from: Data(json.utf8)) == e)
  }

  @Test func shortFormsRead() throws {
    let e = try Effect(
      json: #"""
        {"format": 1, "emitterBehaviors": [
          {"type": "wave", "force": [3, 4]},
          {"type": "colorOverLife", "colors": [[0.5, 0.5, 0.5]]},
          {"type": "valueOverLife", "keyPath": "color.alpha", "values": [1, 0], "locations": []}
        ]}
        """#)
    #expect(
      e.emitter.emitterBehaviors == [
        .wave(WaveBehavior(force: SIMD3(3, 4, 0))),
        .colorOverLife(ColorOverLifeBehavior(colors: [ColorRGBA(red: 0.5, green: 0.5, blue: 0.5)])),
        .valueOverLife(ValueOverLifeBehavior(keyPath: .colorAlpha, values: [1, 0])),
      ])
  }

  @Test func writerAndReaderRoundTripEveryKindOnTheLayerAndInCells() throws {
    let e = try Effect(emitter: emitterWithBehaviors())
    try e.validate()
    let text = e.jsonString()
    #expect(try Effect(json: text) == e)
    #expect(try Effect(json: text).jsonString() == text)
    let data = try JSONEncoder().encode(e)
    #expect(try JSONDecoder().decode(Effect.self, from: data) == e)
    let cell = try JSONEncoder().encode(e.emitter.emitterCells[0])
    #expect(try JSONDecoder().decode(EmitterCell.self, from: cell) == e.emitter.emitterCells[0])
    for b in everyKindOfBehavior() {
      #expect(try JSONDecoder().decode(EmitterBehavior.self, from: try JSONEncoder().encode(b)) == b)
    }
  }

  @Test func writerOmitsDefaultsAndKeepsTheCanonicalLayout() throws {
    var cell = EmitterCell(name: "c")
    cell.emitterBehaviors = [
      .drag(DragBehavior()), .valueOverLife(ValueOverLifeBehavior(keyPath: .spin, values: [1])),
    ]
    var emitter = Emitter(emitterCells: [cell])
    emitter.emitterBehaviors = [
      .wave(WaveBehavior(name: "w", force: SIMD3(1, 0, 0))),
      .colorOverLife(ColorOverLifeBehavior(colors: [.white])),
    ]
    #expect(
      try Effect(emitter: emitter).jsonString() == """
        {
          "format": 1,
          "emitterBehaviors": [
            {"type": "wave", "name": "w", "force": [1, 0, 0]},
            {"type": "colorOverLife", "colors": [[1, 1, 1, 1]]}
          ],
          "emitterCells": [
            {
              "name": "c",
              "emitterBehaviors": [
                {"type": "drag"},
                {"type": "valueOverLife", "keyPath": "spin", "values": [1]}
              ]
            }
          ]
        }

        """)
  }

  @Test func typeErrors() {
    #expect(
      cellBehaviorError(#"[{"name": "x"}]"#)
        == "emitterCells[0].emitterBehaviors[0].type: required field is missing (one of wave, drag, attractor, "
        + "simpleAttractor, valueOverLife, colorOverLife, alignToMotion)")
    #expect(
      cellBehaviorError(#"[{"type": "wav"}]"#)
        == "emitterCells[0].emitterBehaviors[0].type: unknown behavior type: expected one of wave, drag, attractor, "
        + "simpleAttractor, valueOverLife, colorOverLife, alignToMotion, got 'wav' (did you mean 'wave'?)")
    #expect(
      cellBehaviorError(#"[{"type": "light", "name": "sun"}]"#)
        == "emitterCells[0].emitterBehaviors[0].type: 'light' is not supported: SleetKit draws unlit sprites "
        + "(it has no lighting model), so a light would have no effect")
    #expect(
      layerBehaviorError(#"{"type": "drag"}"#) == "emitterBehaviors: expected an array of behaviors, got an object")
  }

  @Test func keyErrorsNameTheBehaviorAndTheKey() {
    #expect(
      cellBehaviorError(#"[{"type": "drag"}, {"type": "wave", "name": "sway", "frequncy": 1}]"#)
        == "emitterCells[0].emitterBehaviors[1].frequncy: wave 'sway': unknown key (did you mean 'frequency'?); "
        + "wave keys: type, name, enabled, force, frequency")
    #expect(
      cellBehaviorError(#"[{"type": "drag", "force": [1, 0, 0]}]"#)
        == "emitterCells[0].emitterBehaviors[0].force: unnamed drag: unknown key; drag keys: type, name, enabled, drag")
    #expect(
      cellBehaviorError(#"[{"type": "valueOverLife", "values": [1]}]"#)
        == "emitterCells[0].emitterBehaviors[0].keyPath: unnamed valueOverLife: required field is missing")
    #expect(
      cellBehaviorError(#"[{"type": "valueOverLife", "keyPath": "scale"}]"#)
        == "emitterCells[0].emitterBehaviors[0].values: unnamed valueOverLife: required field is missing")
    #expect(
      cellBehaviorError(#"[{"type": "colorOverLife", "name": "f"}]"#)
        == "emitterCells[0].emitterBehaviors[0].colors: colorOverLife 'f': required field is missing")
    #expect(
      cellBehaviorError(#"[{"type": "valueOverLife", "name": "g", "keyPath": "scal", "values": [1]}]"#)
        == "emitterCells[0].emitterBehaviors[0].keyPath: valueOverLife 'g': expected one of position.x, position.y, "
        + "position.z, velocity.x, velocity.y, velocity.z, mass, rotation, spin, scale, scaleSpeed, color.red, "
        + "color.green, color.blue, color.alpha, got 'scal' (did you mean 'scale'?)")
    #expect(
      cellBehaviorError(#"[{"type": "attractor", "name": "p", "attractorType": "radal"}]"#)
        == "emitterCells[0].emitterBehaviors[0].attractorType: attractor 'p': expected one of radial, axial, planar, "
        + "got 'radal' (did you mean 'radial'?)")
    // A wrong JSON type is the reader's message; `JSONDecoder` reports its own `typeMismatch`.
    #expect(
      layerBehaviorError(#"[{"type": "drag", "name": "b", "enabled": 1}]"#)
        == "emitterBehaviors[0].enabled: drag 'b': expected true or false, got 1")
  }

  @Test func valueErrorsNameTheBehaviorAndTheKey() {
    let cases: [(String, String)] = [
      (
        #"[{"type": "wave", "name": "sway", "frequency": -1}]"#,
        "emitterBehaviors[0].frequency: wave 'sway': must be ≥ 0, got -1"
      ),
      (#"[{"type": "drag", "name": "b", "drag": -0.5}]"#, "emitterBehaviors[0].drag: drag 'b': must be ≥ 0, got -0.5"),
      (
        #"[{"type": "attractor", "name": "p", "radius": -1}]"#,
        "emitterBehaviors[0].radius: attractor 'p': must be ≥ 0, got -1"
      ),
      (
        #"[{"type": "attractor", "name": "p", "falloffDistance": -2}]"#,
        "emitterBehaviors[0].falloffDistance: attractor 'p': must be ≥ 0, got -2"
      ),
      (
        #"[{"type": "simpleAttractor", "name": "s", "radius": -3}]"#,
        "emitterBehaviors[0].radius: simpleAttractor 's': must be ≥ 0, got -3"
      ),
      (
        #"[{"type": "wave", "name": "w", "force": [1]}]"#,
        "emitterBehaviors[0].force: wave 'w': expected 2 or 3 numbers, got 1"
      ),
      (
        #"[{"type": "wave", "name": "w", "frequency": 1e400}]"#,
        "emitterBehaviors[0].frequency: wave 'w': must be finite, got 1e400"
      ),
      (
        #"[{"type": "attractor", "name": "p", "position": [0, 1e39]}]"#,
        "emitterBehaviors[0].position[1]: attractor 'p': out of range for a 32-bit float, got 1e39"
      ),
      (
        #"[{"type": "valueOverLife", "name": "g", "keyPath": "scale", "values": [1, 1e400]}]"#,
        "emitterBehaviors[0].values[1]: valueOverLife 'g': must be finite, got 1e400"
      ),
      (
        #"[{"type": "valueOverLife", "name": "g", "keyPath": "scale", "values": []}]"#,
        "emitterBehaviors[0].values: valueOverLife 'g': must have at least one value"
      ),
      (
        #"[{"type": "valueOverLife", "name": "g", "keyPath": "scale", "values": [1, 2], "locations": [0, 0.5, 1]}]"#,
        "emitterBehaviors[0].locations: valueOverLife 'g': expected one location per value (2), got 3"
      ),
      (
        #"[{"type": "valueOverLife", "name": "g", "keyPath": "scale", "values": [1, 2], "locations": [0.5, 0.5]}]"#,
        "emitterBehaviors[0].locations[1]: valueOverLife 'g': must be > the location before it (0.5), got 0.5; "
          + "locations increase"
      ),
      (
        #"[{"type": "valueOverLife", "name": "g", "keyPath": "scale", "values": [1, 2], "locations": [0, 1.5]}]"#,
        "emitterBehaviors[0].locations[1]: valueOverLife 'g': must be between 0 and 1, got 1.5"
      ),
      (
        #"[{"type": "valueOverLife", "name": "m", "keyPath": "mass", "values": [1, 0]}]"#,
        "emitterBehaviors[0].values[1]: valueOverLife 'm': a mass must be > 0, got 0"
      ),
      (
        #"[{"type": "valueOverLife", "name": "m", "keyPath": "mass", "values": [-1], "additive": true}]"#,
        "emitterBehaviors[0].values[0]: valueOverLife 'm': a mass must be > 0, got -1"
      ),
      (
        #"[{"type": "colorOverLife", "name": "f", "colors": []}]"#,
        "emitterBehaviors[0].colors: colorOverLife 'f': must have at least one colour"
      ),
      (
        #"[{"type": "colorOverLife", "name": "f", "colors": [[1, 1, 1], [1, 1.5, 1, 1]]}]"#,
        "emitterBehaviors[0].colors[1][1]: colorOverLife 'f': must be between 0 and 1, got 1.5"
      ),
      (
        #"[{"type": "colorOverLife", "name": "f", "colors": [[1, 1], [1, 1, 1]]}]"#,
        "emitterBehaviors[0].colors[0]: colorOverLife 'f': expected [r, g, b] or [r, g, b, a], got 2 numbers"
      ),
      (
        #"[{"type": "colorOverLife", "name": "f", "colors": [[1, 1, 1]], "locations": [0, 1]}]"#,
        "emitterBehaviors[0].locations: colorOverLife 'f': expected one location per colour (1), got 2"
      ),
      (
        #"[{"type": "colorOverLife", "name": "f", "colors": [[1, 1, 1], [0, 0, 0]], "locations": [-0.5, 1]}]"#,
        "emitterBehaviors[0].locations[0]: colorOverLife 'f': must be between 0 and 1, got -0.5"
      ),
      (
        #"[{"type": "drag", "name": ""}]"#,
        "emitterBehaviors[0].name: drag '': a behavior name must not be empty"
      ),
      (
        #"[{"type": "drag", "name": "a.b"}]"#,
        "emitterBehaviors[0].name: drag 'a.b': a behavior name must not contain '.', got 'a.b'"
      ),
      (
        #"[{"type": "drag", "name": "x"}, {"type": "wave", "name": "x"}]"#,
        "emitterBehaviors[1].name: wave 'x': duplicate behavior name 'x' (already used by emitterBehaviors[0]); "
          + "key paths need unique names"
      ),
    ]
    for (behaviors, message) in cases {
      #expect(layerBehaviorError(behaviors) == message)
      #expect(cellBehaviorError(behaviors) == "emitterCells[0]." + message)
      // `JSONDecoder` refuses an overflowing literal itself, without a path.
      if !message.contains("1e400") && !message.contains("1e39") {
        #expect(decodingError(Effect.self, #"{"format": 1, "emitterBehaviors": "# + behaviors + "}") == message)
      }
    }
  }

  /// Behaviors built in code go through the same checks: `Emitter.validate()`,
  /// `Effect.validate()` and `ParticleSystem.init` refuse them, naming the
  /// cell by its key path and the behavior by its index and label.
  @Test func behaviorsBuiltInCodeAreValidated() throws {
    var cell = EmitterCell(name: "confetti")
    cell.emitterBehaviors = [.drag(DragBehavior()), .wave(WaveBehavior(name: "sway", frequency: -1))]
    let emitter = Emitter(emitterCells: [cell])
    let message = "emitterCells.confetti.emitterBehaviors[1].frequency: wave 'sway': must be ≥ 0, got -1"
    #expect(validationError(emitter) == message)
    let effect = try Effect(emitter: emitter)
    #expect(
      throws: EffectValidationError.invalidDefinition(
        KeyPathError(keyPath: String(message.prefix { $0 != ":" }), reason: "wave 'sway': must be ≥ 0, got -1"))
    ) {
      try effect.validate()
    }
    #expect(throws: (any Error).self) { try ParticleSystem(effect: effect) }

    var layer = Emitter()
    let problems: [(EmitterBehavior, String)] = [
      (
        .valueOverLife(ValueOverLifeBehavior(name: "g", keyPath: .scale, values: [])),
        "emitterBehaviors[0].values: valueOverLife 'g': must have at least one value"
      ),
      (
        .valueOverLife(ValueOverLifeBehavior(keyPath: .scale, values: [1, .nan])),
        "emitterBehaviors[0].values[1]: unnamed valueOverLife: must be finite, got nan"
      ),
      (
        .valueOverLife(ValueOverLifeBehavior(keyPath: .mass, values: [1, -2], locations: [0, 1])),
        "emitterBehaviors[0].values[1]: unnamed valueOverLife: a mass must be > 0, got -2"
      ),
      (
        .colorOverLife(ColorOverLifeBehavior(colors: [ColorRGBA(red: 2, green: 0, blue: 0)])),
        "emitterBehaviors[0].colors[0][0]: unnamed colorOverLife: must be between 0 and 1, got 2"
      ),
      (
        .colorOverLife(ColorOverLifeBehavior(colors: [.white], locations: [0.5, 1])),
        "emitterBehaviors[0].locations: unnamed colorOverLife: expected one location per colour (1), got 2"
      ),
      (
        .attractor(AttractorBehavior(name: "p", position: SIMD2(.infinity, 0))),
        "emitterBehaviors[0].position[0]: attractor 'p': must be finite, got inf"
      ),
      (
        .alignToMotion(AlignToMotionBehavior(name: "a.b")),
        "emitterBehaviors[0].name: alignToMotion 'a.b': a behavior name must not contain '.', got 'a.b'"
      ),
    ]
    for (behavior, message) in problems {
      layer.emitterBehaviors = [behavior]
      #expect(validationError(layer) == message)
    }
    layer.emitterBehaviors = [.drag(DragBehavior(name: "d")), .drag(DragBehavior(name: "d"))]
    #expect(
      validationError(layer)
        == "emitterBehaviors[1].name: drag 'd': duplicate behavior name 'd' (already used by emitterBehaviors[0]); "
        + "key paths need unique names")
    #expect(validationError(emitterWithBehaviors()) == nil)
  }
}

/// The description of the `EffectValidationError` that `Effect.init` throws
/// for `changes` on `emitterWithBehaviors()`; an effect file with the same
/// change must give the same message.
private func changeError(_ changes: [PropertyChange]) -> String? {
  do throws(EffectValidationError) {
    _ = try Effect(emitter: emitterWithBehaviors(), changes: changes)
    return nil
  } catch {
    return error.description
  }
}

/// The error reading a file with `emitterWithBehaviors()` and `changes` (the
/// text of one change object).
private func changeFileError(_ change: String) -> String? {
  let emitter = (try? Effect(emitter: emitterWithBehaviors()).jsonString()) ?? ""
  let json = emitter.dropLast(3) + #", "changes": ["# + change + "]}"
  let reader = formatError(String(json))
  #expect(reader == decodingError(Effect.self, String(json)), "\(change)")
  return reader
}

@Suite("Animated changes")
struct AnimatedChangeTests {
  @Test func behaviorParametersAnimateAndRoundTrip() throws {
    let changes = [
      PropertyChange(
        time: 0, keyPath: "emitterBehaviors.pull.stiffness", value: 5, duration: 1.2, timingFunction: .easeOut),
      PropertyChange(
        time: 0.5, keyPath: "emitterCells.confetti.emitterBehaviors.swayC.force", value: [0, 10, 0], duration: 2,
        timingFunction: TimingFunction(controlPoints: 0.1, -0.5, 0.9, 1.5)),
      PropertyChange(
        time: 1, keyPath: "emitterBehaviors.brake.drag", duration: 3, keyTimes: [0, 0.5, 0.5, 1],
        values: [0, 2, 1, 0.5]),
      PropertyChange(time: 2, keyPath: "emitterBehaviors.pull.position.x", value: 3, duration: 0.25),
      PropertyChange(time: 2, keyPath: "emitterCells.confetti.birthRate", value: 0),
    ]
    let e = try Effect(emitter: emitterWithBehaviors(), changes: changes)
    #expect(e.changes == changes)
    #expect(changes[2].value == 0.5 && changes[2].isAnimated)
    let text = e.jsonString()
    #expect(
      text.contains(
        #"{"time": 0, "keyPath": "emitterBehaviors.pull.stiffness", "value": 5, "duration": 1.2, "timingFunction": "easeOut"}"#
      ))
    #expect(
      text.contains(
        #"{"time": 1, "keyPath": "emitterBehaviors.brake.drag", "duration": 3, "keyTimes": [0, 0.5, 0.5, 1], "values": [0, 2, 1, 0.5]}"#
      ))
    #expect(text.contains(#""timingFunction": [0.1, -0.5, 0.9, 1.5]"#))
    #expect(try Effect(json: text) == e)
    #expect(try JSONDecoder().decode(Effect.self, from: try JSONEncoder().encode(e)) == e)
    // The emitter at a time holds each change's final value from its time on.
    #expect(try e.emitter(at: 0).value(forKeyPath: "emitterBehaviors.pull.stiffness") == 5)
    #expect(try e.emitter(at: 0.9).value(forKeyPath: "emitterBehaviors.brake.drag") == 1.5)
    #expect(try e.emitter(at: 1).value(forKeyPath: "emitterBehaviors.brake.drag") == 0.5)
  }

  @Test func fileFormsOfTheAnimationFields() throws {
    let e = try Effect(
      json: """
        {"format": 1, "emitterBehaviors": [{"type": "drag", "name": "d"}], "changes": [
          {"time": 0, "keyPath": "emitterBehaviors.d.drag", "keyTimes": [0, 1], "values": [1, 2], "duration": 1,
           "timingFunction": "easeInEaseOut"},
          {"time": 1, "keyPath": "emitterBehaviors.d.drag", "value": 3, "keyTimes": [0, 1], "values": [2, 3],
           "duration": 1},
          {"time": 2, "keyPath": "emitterBehaviors.d.drag", "value": 4, "duration": 0.5,
           "timingFunction": [0.25, 0.1, 0.25, 1]}
        ]}
        """)
    #expect(e.changes[0].value == 2 && e.changes[0].timingFunction == .easeInEaseOut)
    #expect(e.changes[1].value == 3 && e.changes[1].values == [2, 3])
    #expect(e.changes[2].timingFunction == .default)
    #expect(e.jsonString().contains(#""timingFunction": "default""#))
  }

  @Test func onlyBirthRatesAndForceParametersCanBeAnimated() {
    let animate = { (path: String, value: PropertyValue) in
      PropertyChange(time: 1, keyPath: path, value: value, duration: 1)
    }
    let onlyBehaviors =
      "only birth rates (birthRate, emitterCells.NAME.birthRate) and behavior parameters "
      + "(emitterBehaviors.NAME.KEY) can be animated in this version; "
      + "without a duration the property changes at its time"
    #expect(changeError([animate("emitterCells.confetti.birthRate", 0)]) == nil)
    #expect(
      changeError([PropertyChange(time: 0, keyPath: "birthRate", duration: 1, keyTimes: [0, 1], values: [1, 0])])
        == nil)
    #expect(
      changeError([animate("emitterCells.confetti.velocity", 0)])
        == "changes[0].duration: 'emitterCells.confetti.velocity': \(onlyBehaviors)")
    #expect(
      changeError([PropertyChange(time: 0, keyPath: "lifetime", duration: 1, keyTimes: [0, 1], values: [1, 0])])
        == "changes[0].duration: 'lifetime': \(onlyBehaviors)")
    #expect(
      changeError([animate("emitterBehaviors.sway.enabled", false)])
        == "changes[0].duration: 'emitterBehaviors.sway.enabled': only numbers and vectors can be animated, and "
        + "enabled is true or false; without a duration it changes at its time")
    #expect(
      changeError([animate("emitterBehaviors.pull.attractorType", "axial")])
        == "changes[0].duration: 'emitterBehaviors.pull.attractorType': only numbers and vectors can be animated, "
        + "and attractorType is a string; without a duration it changes at its time")
    #expect(
      changeFileError(#"{"time": 1, "keyPath": "emitterCells.confetti.velocity", "value": 0, "duration": 1}"#)
        == "changes[0].duration: 'emitterCells.confetti.velocity': \(onlyBehaviors)")
  }

  @Test func animationsOfOnePropertyDoNotOverlap() {
    let stiffness = "emitterBehaviors.pull.stiffness"
    let animation = PropertyChange(time: 0, keyPath: stiffness, value: 5, duration: 1.2, timingFunction: .easeOut)
    let during =
      "during the animation of '\(stiffness)' by changes[0] (from 0 s to 1.2 s); the next change of a property "
      + "starts when its animation ends"
    #expect(
      changeError([animation, PropertyChange(time: 1, keyPath: stiffness, value: 7)])
        == "changes[1].time: '\(stiffness)' changes at 1 s, \(during)")
    #expect(
      changeError([PropertyChange(time: 0, keyPath: stiffness, value: 7, duration: 1), animation])
        == "changes[1].time: '\(stiffness)' changes at 0 s, during the animation of '\(stiffness)' by changes[0] "
        + "(from 0 s to 1 s); the next change of a property starts when its animation ends")
    // A vector and its components are one property.
    let position = PropertyChange(time: 1, keyPath: "emitterBehaviors.pull.position", value: [1, 2], duration: 2)
    #expect(
      changeError([position, PropertyChange(time: 2, keyPath: "emitterBehaviors.pull.position.x", value: 3)])
        == "changes[1].time: 'emitterBehaviors.pull.position.x' changes at 2 s, during the animation of "
        + "'emitterBehaviors.pull.position' by changes[0] (from 1 s to 3 s); the next change of a property starts "
        + "when its animation ends")
    // At the end, after a step, on another key or another behavior's: allowed.
    #expect(
      changeError([
        animation, PropertyChange(time: 1.2, keyPath: stiffness, value: 1, duration: 1),
        PropertyChange(time: 0, keyPath: "emitterBehaviors.pull.radius", value: 1, duration: 3),
        PropertyChange(time: 0.5, keyPath: "emitterCells.confetti.emitterBehaviors.pullC.stiffness", value: 1),
        PropertyChange(time: 3, keyPath: "emitterBehaviors.pull.position.y", value: 4, duration: 1), position,
      ]) == nil)
  }

  @Test func animatedVectorsGiveEveryComponent() {
    #expect(
      changeError([PropertyChange(time: 0, keyPath: "emitterBehaviors.sway.force", value: [1, 2], duration: 1)])
        == "changes[0].value: an animated vector needs all 3 components, got 2")
    #expect(
      changeError([
        PropertyChange(
          time: 0, keyPath: "emitterBehaviors.sway.force", duration: 1, keyTimes: [0, 1], values: [[1, 2, 3], [1, 2]])
      ]) == "changes[0].values: at index 1: an animated vector needs all 3 components, got 2")
    // A step may give [x, y] (z keeps its value), as in the file.
    #expect(changeError([PropertyChange(time: 0, keyPath: "emitterBehaviors.sway.force", value: [1, 2])]) == nil)
  }

  @Test func lifeCurvesAreReadAtTimeZeroOnly() {
    for (path, value): (String, PropertyValue) in [
      ("emitterBehaviors.grow.values", [1, 2, 3]), ("emitterBehaviors.grow.locations", [0, 0.5, 1]),
      ("emitterBehaviors.grow.keyPath", "spin"), ("emitterBehaviors.grow.additive", false),
      ("emitterBehaviors.grow.enabled", false), ("emitterBehaviors.fade.locations", [0, 1]),
      ("emitterBehaviors.align.rotation", 0.5), ("emitterBehaviors.align.preservesDepth", false),
      ("emitterCells.confetti.emitterBehaviors.alignC.rotation", 1),
    ] {
      let type = path.contains("grow") ? "valueOverLife" : path.contains("fade") ? "colorOverLife" : "alignToMotion"
      #expect(
        changeError([PropertyChange(time: 1, keyPath: path, value: value)])
          == "changes[0].keyPath: '\(path)': a \(type) behavior is read at time 0 only and cannot change over time "
          + "(only force behaviors' keys can); set it on the behavior instead")
    }
  }

  @Test func animationFieldErrors() throws {
    let path = "emitterBehaviors.pull.stiffness"
    var c = PropertyChange(time: 0, keyPath: path, value: 5, duration: -1)
    #expect(changeError([c]) == "changes[0].duration: must be ≥ 0, got -1")
    c.duration = .infinity
    #expect(changeError([c]) == "changes[0].duration: must be finite, got inf")
    c = PropertyChange(time: 0, keyPath: path, value: 5)
    c.timingFunction = .easeIn
    #expect(
      changeError([c])
        == "changes[0].timingFunction: paces an animation: give the change a duration > 0, or leave it out")
    c = PropertyChange(time: 0, keyPath: path, duration: 1, keyTimes: [0, 0.5], values: [1, 2, 3])
    #expect(changeError([c]) == "changes[0].keyTimes: expected one key time per value (3), got 2")
    c = PropertyChange(time: 0, keyPath: path, duration: 1, keyTimes: [0, 1.5], values: [1, 2])
    #expect(changeError([c]) == "changes[0].keyTimes: at index 1: must be between 0 and 1, got 1.5")
    c = PropertyChange(time: 0, keyPath: path, duration: 1, keyTimes: [0.5, 0.25], values: [1, 2])
    #expect(
      changeError([c])
        == "changes[0].keyTimes: at index 1: must be ≥ the key time before it (0.5), got 0.25; key times do not decrease"
    )
    c = PropertyChange(time: 0, keyPath: path, duration: 0, keyTimes: [0, 1], values: [1, 2])
    #expect(changeError([c]) == "changes[0].duration: a keyframe animation needs a duration > 0, got 0")
    c = PropertyChange(time: 0, keyPath: path, duration: 1, keyTimes: [0, 1], values: [1, 2])
    c.value = 7
    #expect(changeError([c]) == "changes[0].value: must be the last of values (2) or be left out, got 7")
    c = PropertyChange(time: 0, keyPath: path, value: 1)
    c.keyTimes = [0]
    #expect(changeError([c]) == "changes[0].values: a keyframe animation needs at least one value")
    c = PropertyChange(
      time: 0, keyPath: "emitterBehaviors.brake.drag", duration: 1, keyTimes: [0, 1], values: [-1, 2])
    #expect(changeError([c]) == "changes[0].values: at index 0: must be ≥ 0, got -1")
    c = PropertyChange(
      time: 0, keyPath: "emitterBehaviors.sway.force", duration: 1, keyTimes: [0, 1], values: [[1, 2, 0], "x"])
    #expect(changeError([c]) == "changes[0].values: at index 1: expected an array of 3 numbers, got the string 'x'")

    #expect(
      changeFileError(
        #"{"time": 0, "keyPath": "emitterBehaviors.pull.stiffness", "value": 1, "duration": 1, "timingFunction": "easeOt"}"#
      )
        == "changes[0].timingFunction: expected one of linear, easeIn, easeOut, easeInEaseOut, default, got 'easeOt' "
        + "(did you mean 'easeOut'?)")
    #expect(
      changeFileError(
        #"{"time": 0, "keyPath": "emitterBehaviors.pull.stiffness", "value": 1, "duration": 1, "timingFunction": [1.5, 0, 1, 1]}"#
      )
        == "changes[0].timingFunction[0]: a control point's x must be between 0 and 1, got 1.5")
    #expect(
      changeFileError(
        #"{"time": 0, "keyPath": "emitterBehaviors.pull.stiffness", "value": 1, "duration": 1, "timingFunction": [0, 1]}"#
      )
        == "changes[0].timingFunction: expected one of linear, easeIn, easeOut, easeInEaseOut, default or "
        + "[x1, y1, x2, y2], got an array of 2 numbers")
    // A missing field is `JSONDecoder`'s own `keyNotFound`; the reader names it.
    let noValue =
      try Effect(emitter: emitterWithBehaviors()).jsonString().dropLast(3)
      + #", "changes": [{"time": 0, "keyPath": "emitterBehaviors.pull.stiffness", "duration": 1}]}"#
    #expect(
      formatError(String(noValue))
        == "changes[0].value: required field is missing")
    #expect(
      changeFileError(
        #"{"time": 0, "keyPath": "emitterBehaviors.pull.stiffness", "duration": 1, "keyTimes": [0, 1], "values": [1, 2], "value": 3}"#
      )
        == "changes[0].value: must be the last of values (2) or be left out, got 3")
    #expect(
      changeFileError(#"{"time": 0, "keyPath": "emitterBehaviors.pull.stiffness", "duration": -2, "value": 3}"#)
        == "changes[0].duration: must be ≥ 0, got -2")
  }
}

@Suite("Behavior round trips at random values")
struct BehaviorRandomRoundTripTests {
  /// Every key of every kind at arbitrary valid bit patterns (−0, subnormal
  /// and huge values included) reads back bit for bit from the writer's
  /// text and from `JSONEncoder`'s.
  @Test func randomBehaviorsRoundTripBitExactly() throws {
    var rng = SplitMix64(state: 33)
    func randomFloat(_ constraint: (Float) -> Float = { $0 }) -> Float {
      while true {
        let f = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
        if f.isFinite { return constraint(f) }
      }
    }
    func unit() -> Float { Float(rng.next() % 1_000_001) / 1_000_000 }
    for trial in 0..<40 {
      let count = Int(rng.next() % 4) + 1
      let locations = (0..<count).map { Float($0) / Float(count) + unit() / Float(count + 1) }
      let behaviors: [EmitterBehavior] = [
        .wave(
          WaveBehavior(
            name: "w", isEnabled: trial % 2 == 0, force: SIMD3(randomFloat(), randomFloat(), randomFloat()),
            frequency: randomFloat(abs))),
        .drag(DragBehavior(name: "d", drag: randomFloat(abs))),
        .attractor(
          AttractorBehavior(
            name: "a", attractorType: AttractorType.allCases[trial % 3], stiffness: randomFloat(),
            radius: randomFloat(abs), position: SIMD2(randomFloat(), randomFloat()), zPosition: randomFloat(),
            orientationLatitude: randomFloat(), orientationLongitude: randomFloat(), falloff: randomFloat(),
            falloffDistance: randomFloat(abs))),
        .simpleAttractor(
          SimpleAttractorBehavior(
            name: "s", stiffness: randomFloat(), radius: randomFloat(abs),
            position: SIMD2(randomFloat(), randomFloat()), falloff: randomFloat())),
        .valueOverLife(
          ValueOverLifeBehavior(
            name: "v", keyPath: ValueOverLifeProperty.allCases[trial % ValueOverLifeProperty.allCases.count],
            values: (0..<count).map { _ in randomFloat { $0 == 0 ? 1 : abs($0) } },
            locations: trial % 3 == 0 ? nil : locations, isAdditive: trial % 2 == 1)),
        .colorOverLife(
          ColorOverLifeBehavior(
            name: "c",
            colors: (0..<count).map { _ in ColorRGBA(red: unit(), green: unit(), blue: unit(), alpha: unit()) },
            locations: trial % 2 == 0 ? nil : locations)),
        .alignToMotion(AlignToMotionBehavior(name: "m", rotation: randomFloat(), preservesDepth: trial % 2 == 0)),
      ]
      var cell = EmitterCell(name: "cell")
      cell.emitterBehaviors = behaviors.reversed()
      var emitter = Emitter(emitterCells: [cell])
      emitter.emitterBehaviors = behaviors
      let e = try Effect(emitter: emitter)
      try e.validate()
      let read = try Effect(json: e.jsonString())
      #expect(read == e, "trial \(trial)")
      #expect(read.jsonString() == e.jsonString())
      let decoded = try JSONDecoder().decode(Effect.self, from: try JSONEncoder().encode(e))
      #expect(decoded.jsonString() == e.jsonString(), "trial \(trial)")
    }
  }
}

@Suite("Values of animated properties")
struct AnimatedValueTests {
  @Test func basicAnimationMovesFromThePreviousValue() throws {
    let stiffness = "emitterBehaviors.pull.stiffness"
    let e = try Effect(
      emitter: emitterWithBehaviors(),
      changes: [
        PropertyChange(time: 0.5, keyPath: stiffness, value: 80),
        PropertyChange(time: 1, keyPath: stiffness, value: 5, duration: 1.2, timingFunction: .easeOut),
      ])
    #expect(try e.value(forKeyPath: stiffness, at: 0) == 10)
    #expect(try e.value(forKeyPath: stiffness, at: 0.75) == 80)
    #expect(try e.value(forKeyPath: stiffness, at: 1) == 80)
    let u = TimingFunction.easeOut.value(at: (1.6 - 1) / 1.2)
    #expect(try e.value(forKeyPath: stiffness, at: 1.6) == .number(80 + (5 - 80) * u))
    #expect(try e.value(forKeyPath: stiffness, at: 2.2) == 5)
    #expect(try e.value(forKeyPath: stiffness, at: 9) == 5)
    // Other properties are as `emitter(at:)` holds them.
    #expect(try e.value(forKeyPath: "emitterBehaviors.pull.radius", at: 1.6) == 300)
  }

  @Test func vectorsAndComponentsMoveComponentByComponent() throws {
    let force = "emitterCells.confetti.emitterBehaviors.swayC.force"
    let e = try Effect(
      emitter: emitterWithBehaviors(),
      changes: [
        PropertyChange(time: 0, keyPath: force, value: [0, 10, 20], duration: 2),
        PropertyChange(time: 3, keyPath: force + ".y", value: 30, duration: 1),
      ])
    let start = SIMD3<Double>(100, -2.5, Double(Float(0.1)))
    let half = start + (SIMD3(0, 10, 20) - start) * 0.5
    #expect(try e.value(forKeyPath: force, at: 1) == .vector([half.x, half.y, half.z]))
    #expect(try e.value(forKeyPath: force + ".z", at: 1) == .number(half.z))
    #expect(try e.value(forKeyPath: force, at: 2.5) == [0, 10, 20])
    #expect(try e.value(forKeyPath: force, at: 3.25) == [0, 15, 20])
    #expect(try e.value(forKeyPath: force + ".y", at: 3.5) == 20)
    #expect(try e.value(forKeyPath: force + ".x", at: 3.5) == 0)
  }

  @Test func keyframesHoldTheirEndsAndJumpAtRepeatedTimes() throws {
    let drag = "emitterBehaviors.brake.drag"
    let e = try Effect(
      emitter: emitterWithBehaviors(),
      changes: [
        PropertyChange(time: 1, keyPath: drag, duration: 4, keyTimes: [0.25, 0.5, 0.5, 1], values: [0, 2, 1, 0.5])
      ])
    #expect(try e.value(forKeyPath: drag, at: 0.5) == 1.5)
    #expect(try e.value(forKeyPath: drag, at: 1.5) == 0)
    #expect(try e.value(forKeyPath: drag, at: 2) == 0)
    #expect(try e.value(forKeyPath: drag, at: 2.5) == 1)
    #expect(try e.value(forKeyPath: drag, at: 3) == 1)
    #expect(try e.value(forKeyPath: drag, at: 4) == 0.75)
    #expect(try e.value(forKeyPath: drag, at: 5) == 0.5)
    let paced = try Effect(
      emitter: emitterWithBehaviors(),
      changes: [
        PropertyChange(time: 0, keyPath: drag, duration: 1, keyTimes: [0, 1], values: [0, 1], timingFunction: .easeIn)
      ])
    #expect(try paced.value(forKeyPath: drag, at: 0.3) == .number(TimingFunction.easeIn.value(at: 0.3)))
  }
}
