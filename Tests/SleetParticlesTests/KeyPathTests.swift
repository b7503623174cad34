import SleetMath
import Testing

@testable import SleetParticles

/// An emitter shaped like Apple's Fireworks: rocket → (trail, preSpark → spark), plus snow.
private func fireworksLike() -> Emitter {
  var spark = EmitterCell(name: "spark")
  spark.birthRate = 20
  var preSpark = EmitterCell(name: "preSpark")
  preSpark.emitterCells = [spark]
  var trail = EmitterCell(name: "trail")
  trail.birthRate = 45
  var rocket = EmitterCell(name: "rocket")
  rocket.birthRate = 1
  rocket.emitterCells = [trail, preSpark]
  var snow = EmitterCell(name: "snow")
  snow.birthRate = 10
  return Emitter(emitterCells: [rocket, snow])
}

/// Runs `body` and returns the description of the `KeyPathError` it throws.
private func keyPathError(_ body: () throws(KeyPathError) -> Void) -> String? {
  do throws(KeyPathError) {
    try body()
    return nil
  } catch {
    return error.description
  }
}

@Suite("Key paths")
struct KeyPathTests {
  @Test func layerPropertiesByKeyPath() throws {
    var e = Emitter()
    try e.setValue(5, forKeyPath: "birthRate")
    try e.setValue([100, -40], forKeyPath: "emitterPosition")
    try e.setValue(780, forKeyPath: "emitterSize.width")
    try e.setValue("line", forKeyPath: "emitterShape")
    try e.setValue("oldestFirst", forKeyPath: "renderMode")
    try e.setValue(true, forKeyPath: "preservesDepth")
    try e.setValue(4_000_000_000, forKeyPath: "seed")
    try e.setValue(2.5, forKeyPath: "beginTime")
    #expect(e.birthRate == 5)
    #expect(e.emitterPosition == SIMD2(100, -40))
    #expect(e.emitterSize == SIMD2(780, 0))
    #expect(e.emitterShape == .line && e.renderMode == .oldestFirst && e.preservesDepth)
    #expect(e.seed == 4_000_000_000 && e.beginTime == 2.5)
    #expect(try e.value(forKeyPath: "emitterPosition.y") == .number(-40))
    #expect(try e.value(forKeyPath: "emitterShape") == .string("line"))
  }

  @Test func nestedCellsToAnyDepth() throws {
    var e = fireworksLike()
    try e.setValue(0, forKeyPath: "emitterCells.snow.birthRate")
    try e.setValue(1.5, forKeyPath: "emitterCells.rocket.emitterCells.trail.emissionRange")
    try e.setValue(7, forKeyPath: "emitterCells.rocket.emitterCells.preSpark.emitterCells.spark.birthRate")
    try e.setValue([1, 0, 0], forKeyPath: "emitterCells.rocket.color")
    try e.setValue(0.25, forKeyPath: "emitterCells.rocket.color.alpha")
    try e.setValue(false, forKeyPath: "emitterCells.snow.enabled")
    #expect(e.cell(named: ["snow"])?.birthRate == 0)
    #expect(e.cell(named: ["snow"])?.isEnabled == false)
    #expect(e.cell(named: ["rocket", "trail"])?.emissionRange == 1.5)
    #expect(e.cell(named: ["rocket", "preSpark", "spark"])?.birthRate == 7)
    // An RGB colour keeps the alpha it had; the component path then sets alpha alone.
    #expect(e.cell(named: ["rocket"])?.color == ColorRGBA(red: 1, green: 0, blue: 0, alpha: 0.25))
    #expect(try e.value(forKeyPath: "emitterCells.rocket.emitterCells.preSpark.emitterCells.spark.birthRate") == 7)
    #expect(e.cell(named: ["rocket", "spark"]) == nil)
  }

  @Test func typedKeyPathsSpellTheSameStrings() throws {
    let typed = Emitter.KeyPath.cell(["rocket", "preSpark", "spark"], .emissionRange)
    #expect(typed.description == "emitterCells.rocket.emitterCells.preSpark.emitterCells.spark.emissionRange")
    #expect(try Emitter.KeyPath(typed.description) == typed)
    #expect(Emitter.KeyPath.cell("snow", .colorRed).description == "emitterCells.snow.color.red")
    #expect(Emitter.KeyPath.cell("snow", .isEnabled).description == "emitterCells.snow.enabled")
    #expect(Emitter.KeyPath.layer(.emitterSizeWidth).description == "emitterSize.width")
    var e = fireworksLike()
    try e.setValue(3, for: .cell(["rocket", "trail"], .lifetime))
    #expect(e.cell(named: ["rocket", "trail"])?.lifetime == 3)
    let change = PropertyChange(time: 2, keyPath: .cell("snow", .birthRate), value: 0)
    #expect(change.keyPath == "emitterCells.snow.birthRate")
  }

  /// The typed enums name exactly the properties the key-path tables hold.
  @Test func typedEnumsCoverEveryProperty() {
    #expect(
      Set(Emitter.LayerProperty.allCases.map(\.rawValue)) == Set(Emitter.propertyDescriptors.map(\.name)))
    #expect(
      Set(Emitter.CellProperty.allCases.map(\.rawValue)) == Set(EmitterCell.propertyDescriptors.map(\.name)))
    #expect(Emitter.propertyDescriptors.count == Emitter.propertiesByName.count)
    #expect(EmitterCell.propertyDescriptors.count == EmitterCell.propertiesByName.count)
  }

  /// Reading a value and writing it back changes nothing, for every property.
  @Test func getThenSetIsTheIdentity() throws {
    var e = fireworksLike()
    try e.setValue("spark", forKeyPath: "emitterCells.snow.contents")
    let original = e
    for p in Emitter.LayerProperty.allCases {
      try e.setValue(try e.value(for: .layer(p)), for: .layer(p))
    }
    for p in Emitter.CellProperty.allCases {
      let path = Emitter.KeyPath.cell(["rocket", "preSpark", "spark"], p)
      try e.setValue(try e.value(for: path), for: path)
      try e.setValue(try e.value(for: .cell("snow", p)), for: .cell("snow", p))
    }
    #expect(e == original)
  }

  @Test func typedCellUpdates() throws {
    var e = fireworksLike()
    try e.set(\.birthRate, 5, forCellNamed: ["rocket", "preSpark", "spark"])
    try e.updateCell(named: ["rocket", "trail"]) {
      $0.emissionRange = .pi
      $0.contents = SpriteReference("spark")
    }
    #expect(e.cell(named: ["rocket", "preSpark", "spark"])?.birthRate == 5)
    #expect(e.cell(named: ["rocket", "trail"])?.emissionRange == .pi)
    let before = e
    #expect(
      keyPathError { () throws(KeyPathError) in try e.set(\.birthRate, -1, forCellNamed: ["rocket", "trail"]) }
        == "emitterCells.rocket.emitterCells.trail.birthRate: must be ≥ 0, got -1")
    #expect(
      keyPathError { () throws(KeyPathError) in try e.set(\.lifetime, 1, forCellNamed: ["rocket", "spark"]) }
        == "emitterCells.rocket.emitterCells.spark: no cell named 'spark' in emitterCells of 'rocket' "
        + "(cells: trail, preSpark)")
    #expect(e == before)
  }

  /// Found while fuzzing (keypath): suggestions compared every candidate
  /// with the whole mistyped name, |name|·|candidate| steps each, so 1,600
  /// characters made the fuzzer crawl. Names more than 2 characters longer
  /// or shorter than a candidate are now skipped (they cannot be within 2
  /// edits), and still get no suggestion.
  @Test func aVeryLongUnknownNameGetsNoSuggestion() {
    var e = fireworksLike()
    let long = "birthRate" + String(repeating: "x", count: 2000)
    let message = keyPathError { () throws(KeyPathError) in try e.setValue(0, forKeyPath: "emitterCells.snow." + long) }
    #expect(message == "emitterCells.snow.\(long): unknown cell property '\(long)'")
    // Two extra characters are still within reach.
    #expect(
      keyPathError { () throws(KeyPathError) in try e.setValue(0, forKeyPath: "emitterCells.snow.birthRatexx") }
        == "emitterCells.snow.birthRatexx: unknown cell property 'birthRatexx' (did you mean 'birthRate'?)")
  }

  @Test func unknownNamesAreErrorsNamingThePath() {
    var e = fireworksLike()
    let before = e
    #expect(
      keyPathError { () throws(KeyPathError) in try e.setValue(0, forKeyPath: "emitterCells.snw.birthRate") }
        == "emitterCells.snw.birthRate: no cell named 'snw' in emitterCells (cells: rocket, snow); "
        + "did you mean 'snow'?")
    #expect(
      keyPathError { () throws(KeyPathError) in
        try e.setValue(1, forKeyPath: "emitterCells.rocket.emitterCells.sprk.birthRate")
      } == "emitterCells.rocket.emitterCells.sprk.birthRate: no cell named 'sprk' in emitterCells of 'rocket' "
        + "(cells: trail, preSpark)")
    #expect(
      keyPathError { () throws(KeyPathError) in try e.setValue(0, forKeyPath: "emitterCells.snow.birthRat") }
        == "emitterCells.snow.birthRat: unknown cell property 'birthRat' (did you mean 'birthRate'?)")
    #expect(
      keyPathError { () throws(KeyPathError) in try e.setValue("line", forKeyPath: "emitterShap") }
        == "emitterShap: unknown layer property 'emitterShap' (did you mean 'emitterShape'?)")
    #expect(
      keyPathError { () throws(KeyPathError) in try e.setValue(true, forKeyPath: "emitterCells.snow.isEnabled") }
        == "emitterCells.snow.isEnabled: unknown cell property 'isEnabled' (did you mean 'enabled'?)")
    #expect(
      keyPathError { () throws(KeyPathError) in try e.setValue(0, forKeyPath: "emitterCells.snow") }
        == "emitterCells.snow: missing the property after cell 'snow'")
    #expect(
      keyPathError { () throws(KeyPathError) in try e.setValue(0, forKeyPath: "emitterCells") }
        == "emitterCells: 'emitterCells' must be followed by a cell name")
    #expect(
      keyPathError { () throws(KeyPathError) in try e.setValue(0, forKeyPath: "emitterCells..birthRate") }
        == "emitterCells..birthRate: empty component (key paths look like 'birthRate' or "
        + "'emitterCells.snow.birthRate')")
    #expect(
      keyPathError { () throws(KeyPathError) in try e.setValue("x", forKeyPath: "emitterCells.snow.name") }
        == "emitterCells.snow.name: a cell's name cannot be set or read by key path (cells are addressed by name)")
    #expect(e == before)
  }

  @Test func wrongValuesAreErrorsNamingThePath() {
    var e = fireworksLike()
    let before = e
    func message(_ value: PropertyValue, _ path: String) -> String? {
      keyPathError { () throws(KeyPathError) in try e.setValue(value, forKeyPath: path) }
    }
    #expect(message(-3, "emitterCells.snow.birthRate") == "emitterCells.snow.birthRate: must be ≥ 0, got -3")
    #expect(message("fast", "birthRate") == "birthRate: expected a number, got the string 'fast'")
    #expect(message(.number(.nan), "velocity") == "velocity: must be finite, got nan")
    #expect(
      message(.number(.infinity), "emitterCells.snow.lifetime") == "emitterCells.snow.lifetime: must be finite, got inf"
    )
    #expect(message(1e39, "scale") == "scale: 1e+39 is out of range for a 32-bit float")
    #expect(message([1], "emitterPosition") == "emitterPosition: expected 2 numbers, got 1")
    #expect(message([1, 2], "emitterCells.snow.color") == "emitterCells.snow.color: expected 3 or 4 numbers, got 2")
    #expect(message([10, -1], "emitterSize") == "emitterSize: height must be ≥ 0, got -1")
    #expect(
      message([1, 2, 0, 1], "emitterCells.snow.color")
        == "emitterCells.snow.color: green must be between 0 and 1, got 2")
    #expect(message(1, "preservesDepth") == "preservesDepth: expected true or false, got 1")
    #expect(
      message("lin", "emitterShape")
        == "emitterShape: expected one of point, line, rectangle, circle, cuboid, sphere, got 'lin' (did you mean 'line'?)"
    )
    #expect(
      message("cubic", "emitterCells.snow.magnificationFilter")
        == "emitterCells.snow.magnificationFilter: expected one of linear, nearest, trilinear, got 'cubic'")
    #expect(
      message("snowflak", "emitterCells.snow.contents")
        == "emitterCells.snow.contents: unknown sprite 'snowflak': expected one of disc, snowflake, spark, star, "
        + "heart, confetti or the path of a .png file (did you mean 'snowflake'?)")
    #expect(message(1.5, "seed") == "seed: expected an integer from 0 to 4294967295, got 1.5")
    #expect(message(-1, "emitterCells.snow.duration") == "emitterCells.snow.duration: must be ≥ 0, got -1")
    #expect(message(0, "emitterCells.snow.contentsScale") == "emitterCells.snow.contentsScale: must be > 0, got 0")
    #expect(e == before)
  }

  @Test func contentsTakeSpriteNamesPngPathsOrNothing() throws {
    var e = fireworksLike()
    try e.setValue("heart", forKeyPath: "emitterCells.snow.contents")
    #expect(e.cell(named: ["snow"])?.contents == SpriteReference("heart"))
    try e.setValue("art/flake.PNG", forKeyPath: "emitterCells.snow.contents")
    #expect(e.cell(named: ["snow"])?.contents == SpriteReference("art/flake.PNG"))
    try e.setValue("", forKeyPath: "emitterCells.snow.contents")
    #expect(e.cell(named: ["snow"])?.contents == nil)
  }

  @Test func effectAppliesChangesInTimeOrder() throws {
    let effect = try Effect(
      emitter: fireworksLike(),
      changes: [
        PropertyChange(time: 2, keyPath: "emitterCells.snow.birthRate", value: 0),
        PropertyChange(time: 1, keyPath: "emitterCells.rocket.emitterCells.trail.birthRate", value: 5),
        PropertyChange(time: 2, keyPath: "emitterCells.snow.birthRate", value: 3),
      ])
    #expect(effect.changes.map(\.time) == [1, 2, 2])
    #expect(effect.emitter(at: 0.5).cell(named: ["rocket", "trail"])?.birthRate == 45)
    #expect(effect.emitter(at: 1).cell(named: ["rocket", "trail"])?.birthRate == 5)
    #expect(effect.emitter(at: 1.9).cell(named: ["snow"])?.birthRate == 10)
    // Equal times apply in the given order: the last one wins.
    #expect(effect.emitter(at: 2).cell(named: ["snow"])?.birthRate == 3)
    #expect(
      throws: EffectValidationError.invalidChange(
        index: 0, field: .keyPath,
        reason: "'emitterCells.rain.birthRate': no cell named 'rain' in emitterCells (cells: rocket, snow)")
    ) {
      try Effect(
        emitter: fireworksLike(), changes: [PropertyChange(time: 0, keyPath: "emitterCells.rain.birthRate", value: 0)])
    }
  }

  @Test func validateChecksTheWholeTree() throws {
    var e = fireworksLike()
    try e.validate()
    e.emitterCells[0].emitterCells[1].emitterCells[0].lifetimeRange = -2
    #expect(
      keyPathError { () throws(KeyPathError) in try e.validate() }
        == "emitterCells.rocket.emitterCells.preSpark.emitterCells.spark.lifetimeRange: must be ≥ 0, got -2")
    var twins = fireworksLike()
    twins.emitterCells[1].name = "rocket"
    #expect(
      keyPathError { () throws(KeyPathError) in try twins.validate() }
        == "emitterCells.rocket: two sibling cells are named 'rocket'")
  }
}
