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
