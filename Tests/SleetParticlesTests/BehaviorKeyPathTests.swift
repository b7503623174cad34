import SleetMath
import Testing

@testable import SleetParticles

/// The `KeyPathError` description of `body`, or nil when it does not throw.
private func keyPathError(_ body: () throws(KeyPathError) -> Void) -> String? {
  do throws(KeyPathError) {
    try body()
    return nil
  } catch {
    return error.description
  }
}

@Suite("Behavior key paths")
struct BehaviorKeyPathTests {
  /// The typed keys are exactly the keys the kinds' tables let key paths
  /// reach, and a key has one kind of value in every kind that has it.
  @Test func typedKeysCoverEveryReachableKey() {
    #expect(Set(Emitter.BehaviorKey.allCases.map(\.rawValue)) == Set(EmitterBehavior.keyPathKinds.keys))
    for kind in EmitterBehavior.kinds {
      for d in kind.parameters where d.kind != .colors {
        #expect(EmitterBehavior.keyPathKinds[d.name] == d.kind, "\(kind.type).\(d.name)")
      }
    }
    #expect(EmitterBehavior.kinds.map(\.type) == EmitterBehavior.types)
  }

  /// Every key of every kind reads and writes back unchanged, on the
  /// layer, a cell and a sub-cell; a new value reads back as set.
  @Test func getThenSetEveryKeyOnTheLayerAndInCells() throws {
    var e = emitterWithBehaviors()
    e.emitterCells[0].emitterCells[0].emitterBehaviors = everyKindOfBehavior(suffix: "S")
    let original = e
    for (cells, suffix) in [([String](), ""), (["confetti"], "C"), (["confetti", "spark"], "S")] {
      for behavior in everyKindOfBehavior(suffix: suffix) {
        for key in behavior.kind.keyPathKeys {
          let path = Emitter.KeyPath.behavior(
            behavior.name!, Emitter.BehaviorKey(rawValue: key)!, inCell: cells)
          let text = path.description
          #expect(try Emitter.KeyPath(text) == path)
          let value = try e.value(forKeyPath: text)
          try e.setValue(value, forKeyPath: text)
        }
      }
    }
    #expect(e == original)
  }

  @Test func setValuesReadBack() throws {
    var e = emitterWithBehaviors()
    let sets: [(String, PropertyValue)] = [
      ("emitterBehaviors.sway.force", [1, 2, 3]),
      ("emitterBehaviors.sway.force.y", 7),
      ("emitterBehaviors.sway.frequency", 2),
      ("emitterBehaviors.sway.enabled", false),
      ("emitterBehaviors.brake.drag", 0.25),
      ("emitterBehaviors.pull.attractorType", "axial"),
      ("emitterBehaviors.pull.stiffness", 80),
      ("emitterBehaviors.pull.radius", 5),
      ("emitterBehaviors.pull.position", [10, 20]),
      ("emitterBehaviors.pull.position.x", 11),
      ("emitterBehaviors.pull.zPosition", -3),
      ("emitterBehaviors.pull.orientationLatitude", 0.5),
      ("emitterBehaviors.pull.orientationLongitude", 1.5),
      ("emitterBehaviors.pull.falloff", -4),
      ("emitterBehaviors.pull.falloffDistance", 9),
      ("emitterBehaviors.home.stiffness", 2),
      ("emitterBehaviors.home.radius", 0),
      ("emitterBehaviors.home.position.y", -8),
      ("emitterBehaviors.home.falloff", 1),
      ("emitterBehaviors.grow.keyPath", "velocity.x"),
      ("emitterBehaviors.grow.values", [1, 2, 3]),
      ("emitterBehaviors.grow.locations", [0, 0.5, 1]),
      ("emitterBehaviors.grow.additive", false),
      ("emitterBehaviors.fade.locations", [0.25, 0.75]),
      ("emitterBehaviors.align.rotation", 0.5),
      ("emitterBehaviors.align.preservesDepth", false),
      ("emitterCells.confetti.emitterBehaviors.swayC.force.z", 4),
      ("emitterCells.confetti.emitterBehaviors.pullC.stiffness", 5),
    ]
    for (path, value) in sets {
      try e.setValue(value, forKeyPath: path)
      #expect(try e.value(forKeyPath: path) == value, "\(path)")
    }
    guard case .wave(let sway) = e.emitterBehaviors[0], case .attractor(let pull) = e.emitterBehaviors[2],
      case .wave(let swayC) = e.emitterCells[0].emitterBehaviors[0]
    else {
      Issue.record("behaviors moved")
      return
    }
    #expect(sway == WaveBehavior(name: "sway", isEnabled: false, force: SIMD3(1, 7, 3), frequency: 2))
    #expect(pull.attractorType == .axial && pull.position == SIMD2(11, 20) && pull.stiffness == 80)
    #expect(swayC.force.z == 4)
    try e.validate()
  }

  @Test func parseErrors() {
    let cases: [(String, String)] = [
      (
        "emitterBehaviors.sway",
        "emitterBehaviors.sway: 'emitterBehaviors' must be followed by a behavior name and a key "
          + "(emitterBehaviors.NAME.KEY)"
      ),
      (
        "emitterBehaviors.sway.frequncy",
        "emitterBehaviors.sway.frequncy: unknown behavior property 'frequncy' (did you mean 'frequency'?)"
      ),
      (
        "emitterCells.c.emitterBehaviors.sway.name",
        "emitterCells.c.emitterBehaviors.sway.name: a behavior's name cannot be set or read by key path "
          + "(behaviors are addressed by name)"
      ),
      (
        "emitterBehaviors.sway.type",
        "emitterBehaviors.sway.type: a behavior's type cannot be set or read by key path; replace the behavior instead"
      ),
      (
        "emitterBehaviors.fade.colors",
        "emitterBehaviors.fade.colors: a colorOverLife's colors (a list of colours) cannot be set or read by key path; "
          + "set them on the behavior"
      ),
    ]
    for (path, message) in cases {
      #expect(keyPathError { () throws(KeyPathError) in _ = try Emitter.KeyPath(path) } == message)
    }
  }

  @Test func useErrorsNameTheBehaviorAndListWhatThereIs() {
    var e = emitterWithBehaviors()
    let before = e
    let cases: [(String, PropertyValue, String)] = [
      (
        "emitterBehaviors.swy.frequency", 1,
        "emitterBehaviors.swy.frequency: no behavior named 'swy' in emitterBehaviors of the layer "
          + "(behaviors: sway, brake, pull, home, grow, fade, align); did you mean 'sway'?"
      ),
      (
        "emitterCells.confetti.emitterCells.spark.emitterBehaviors.x.drag", 1,
        "emitterCells.confetti.emitterCells.spark.emitterBehaviors.x.drag: no behavior named 'x' in emitterBehaviors "
          + "of cell 'spark' (it has no named behaviors)"
      ),
      (
        "emitterCells.cnfetti.emitterBehaviors.swayC.frequency", 1,
        "emitterCells.cnfetti.emitterBehaviors.swayC.frequency: no cell named 'cnfetti' in emitterCells "
          + "(cells: confetti); did you mean 'confetti'?"
      ),
      (
        "emitterBehaviors.sway.drag", 1,
        "emitterBehaviors.sway.drag: wave 'sway' has no key 'drag'; wave keys: enabled, force, force.x, force.y, "
          + "force.z, frequency"
      ),
      (
        "emitterBehaviors.home.zPosition", 1,
        "emitterBehaviors.home.zPosition: simpleAttractor 'home' has no key 'zPosition' (did you mean 'position'?); "
          + "simpleAttractor keys: enabled, stiffness, radius, position, position.x, position.y, falloff"
      ),
      ("emitterBehaviors.sway.frequency", -1, "emitterBehaviors.sway.frequency: must be ≥ 0, got -1"),
      (
        "emitterBehaviors.sway.frequency", "fast",
        "emitterBehaviors.sway.frequency: expected a number, got the string 'fast'"
      ),
      ("emitterBehaviors.sway.enabled", 1, "emitterBehaviors.sway.enabled: expected true or false, got 1"),
      ("emitterBehaviors.sway.force", [1], "emitterBehaviors.sway.force: expected 2 or 3 numbers, got 1"),
      ("emitterBehaviors.brake.drag", .number(.nan), "emitterBehaviors.brake.drag: must be finite, got nan"),
      (
        "emitterBehaviors.pull.attractorType", "round",
        "emitterBehaviors.pull.attractorType: expected one of radial, axial, planar, got 'round'"
      ),
      ("emitterBehaviors.pull.position", [1, 2, 3], "emitterBehaviors.pull.position: expected 2 numbers, got 3"),
      ("emitterBehaviors.pull.radius", -1, "emitterBehaviors.pull.radius: must be ≥ 0, got -1"),
      ("emitterBehaviors.pull.falloffDistance", -1, "emitterBehaviors.pull.falloffDistance: must be ≥ 0, got -1"),
      (
        "emitterBehaviors.grow.values", [1, 2],
        "emitterBehaviors.grow.values: expected one location per value (2), got 3"
      ),
      ("emitterBehaviors.grow.values", [], "emitterBehaviors.grow.values: must have at least one value"),
      (
        "emitterBehaviors.grow.locations", [0, 2, 3],
        "emitterBehaviors.grow.locations: at index 1: must be between 0 and 1, got 2"
      ),
    ]
    for (path, value, message) in cases {
      #expect(keyPathError { () throws(KeyPathError) in try e.setValue(value, forKeyPath: path) } == message)
    }
    #expect(e == before)
    #expect(
      keyPathError { () throws(KeyPathError) in _ = try e.value(forKeyPath: "emitterBehaviors.align.stiffness") }
        == "emitterBehaviors.align.stiffness: alignToMotion 'align' has no key 'stiffness'; alignToMotion keys: "
        + "enabled, rotation, preservesDepth")
  }

  @Test func typedPathsSpellCoreAnimationKeyPaths() {
    #expect(Emitter.KeyPath.behavior("pull", .stiffness).description == "emitterBehaviors.pull.stiffness")
    #expect(
      Emitter.KeyPath.behavior("sway", .forceX, inCell: ["confetti", "spark"]).description
        == "emitterCells.confetti.emitterCells.spark.emitterBehaviors.sway.force.x")
    #expect(
      PropertyChange(time: 1, keyPath: .behavior("pull", .stiffness), value: 5).keyPath
        == "emitterBehaviors.pull.stiffness")
  }

  @Test func steppedChangesOfBehaviorKeysApplyAtTheirTime() throws {
    let e = try Effect(
      emitter: emitterWithBehaviors(),
      changes: [
        PropertyChange(time: 1, keyPath: "emitterBehaviors.pull.stiffness", value: 5),
        PropertyChange(time: 2, keyPath: "emitterCells.confetti.emitterBehaviors.brakeC.enabled", value: true),
        PropertyChange(time: 2, keyPath: "emitterBehaviors.pull.attractorType", value: "axial"),
      ])
    #expect(try e.emitter(at: 0.5).value(forKeyPath: "emitterBehaviors.pull.stiffness") == 10)
    #expect(try e.emitter(at: 1).value(forKeyPath: "emitterBehaviors.pull.stiffness") == 5)
    #expect(try e.emitter(at: 1).value(forKeyPath: "emitterCells.confetti.emitterBehaviors.brakeC.enabled") == false)
    #expect(try e.emitter(at: 2).value(forKeyPath: "emitterCells.confetti.emitterBehaviors.brakeC.enabled") == true)
    #expect(try e.emitter(at: 2).value(forKeyPath: "emitterBehaviors.pull.attractorType") == "axial")
    #expect(try Effect(json: e.jsonString()) == e)
  }
}
