import Foundation
import Testing

@testable import SleetParticles

/// The preset files as shipped, read as bytes (not through `Effect.preset`).
private func presetFile(_ name: String) throws -> Data {
  let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Sources/SleetParticles/Presets").standardized
  return try Data(contentsOf: folder.appendingPathComponent(name + ".json"))
}

/// The path (as effect files write it) and description of the error that
/// `JSONDecoder` throws for `json`, or nil when it decodes.
private func decodingFailure<T: Decodable>(_: T.Type, _ json: String) -> (path: String, description: String)? {
  do {
    _ = try JSONDecoder().decode(T.self, from: Data(json.utf8))
    return nil
  } catch DecodingError.dataCorrupted(let context) {
    return (effectPath(context.codingPath), context.debugDescription)
  } catch DecodingError.keyNotFound(let key, let context) {
    return (effectPath(context.codingPath + [key]), context.debugDescription)
  } catch {
    return ("not dataCorrupted or keyNotFound", "\(error)")
  }
}

/// Whether two effects agree bit for bit (emitters, change values, parameters).
private func identical(_ a: Effect, _ b: Effect) -> Bool {
  a == b && identical(a.emitter, b.emitter)
    && zip(a.changes, b.changes).allSatisfy {
      $0.value.isIdentical(to: $1.value) && $0.time.bitPattern == $1.time.bitPattern
    }
}

@Suite("Codable definitions")
struct CodableTests {
  @Test func everyPresetRoundTripsThroughJSONEncoderAndDecoder() throws {
    let pretty = JSONEncoder()
    pretty.outputFormatting = [.prettyPrinted, .sortedKeys]
    for name in Effect.presetNames {
      let preset = try Effect.preset(named: name)
      for encoder in [JSONEncoder(), pretty] {
        let data = try encoder.encode(preset)
        let decoded = try JSONDecoder().decode(Effect.self, from: data)
        #expect(identical(decoded, preset), "\(name)")
        // The encoder's output is an effect file the strict reader accepts.
        let read = try Effect(json: [UInt8](data))
        #expect(identical(read, preset), "\(name)")
      }
    }
  }

  @Test func presetFilesDecodeToWhatTheEffectReaderReads() throws {
    for name in Effect.presetNames {
      let file = try presetFile(name)
      let decoded = try JSONDecoder().decode(Effect.self, from: file)
      let read = try Effect(json: [UInt8](file))
      #expect(identical(decoded, read), "\(name)")
      #expect(!read.emitter.emitterCells.isEmpty && !read.parameters.isEmpty, "\(name)")
      // Decoding and re-writing gives the shipped, canonical text.
      #expect(decoded.jsonString() == String(decoding: file, as: UTF8.self), "\(name)")
    }
  }

  /// Random bit patterns in every property (the generator of the effect
  /// format tests): `Float` literals go through `JSONDecoder`'s number
  /// parsing, which must round them exactly as the effect reader does.
  @Test func randomEffectsRoundTripBitExactly() throws {
    var rng = SplitMix64(state: 0xC0DA)
    for trial in 0..<100 {
      let emitter = try randomEmitter(trial: trial, rng: &rng)
      let top = emitter.emitterCells[0]
      let effect = try Effect(
        emitter: emitter,
        changes: [
          PropertyChange(
            time: Double(rng.next() % 1000) / 7, keyPath: "emitterCells.top.emitterCells.middle.velocity",
            value: .number(Double(bitPattern: rng.next() >> 2))),
          PropertyChange(time: 0, keyPath: "emitterCells.plain.contents", value: "star"),
          PropertyChange(time: 0, keyPath: "preservesDepth", value: true),
          PropertyChange(time: 1, keyPath: "emitterSize", value: [0.1, 1e-300]),
        ],
        parameters: [
          EffectParameter(
            name: "z", value: Double(emitter.emitterZPosition), minimum: -1e300,
            bindings: [.init(keyPath: "emitterZPosition", factor: 1, offset: -0.0)]),
          EffectParameter(name: "a", value: 1, bindings: []),
        ],
        summary: "trial \(trial) ✓")
      let data = try JSONEncoder().encode(effect)
      #expect(identical(try JSONDecoder().decode(Effect.self, from: data), effect), "trial \(trial)")
      #expect(identical(try Effect(json: [UInt8](data)), effect), "trial \(trial)")
      let text = Data(effect.jsonString().utf8)
      #expect(identical(try JSONDecoder().decode(Effect.self, from: text), effect), "trial \(trial)")
      // The definitions alone round-trip too.
      let cell = try JSONDecoder().decode(EmitterCell.self, from: try JSONEncoder().encode(top))
      #expect(identical(Emitter(emitterCells: [cell]), Emitter(emitterCells: [top])), "trial \(trial)")
      let layer = try JSONDecoder().decode(Emitter.self, from: try JSONEncoder().encode(emitter))
      #expect(layer == emitter && identical(layer, emitter), "trial \(trial)")
    }
  }

  @Test func missingKeysHaveAppleDefaults() throws {
    let decoder = JSONDecoder()
    #expect(try decoder.decode(Effect.self, from: Data(#"{"format": 1}"#.utf8)) == (try Effect(emitter: Emitter())))
    #expect(try decoder.decode(Emitter.self, from: Data("{}".utf8)) == Emitter())
    #expect(try decoder.decode(EmitterCell.self, from: Data("{}".utf8)) == EmitterCell())
    let cell = try decoder.decode(EmitterCell.self, from: Data(#"{"name": "snow", "color": [0.5, 0.25, 0]}"#.utf8))
    var expected = EmitterCell(name: "snow")
    expected.color = .init(red: 0.5, green: 0.25, blue: 0, alpha: 1)  // alpha keeps its default
    #expect(cell == expected)
    let binding = try decoder.decode(
      EffectParameter.Binding.self, from: Data(#"{"keyPath": "birthRate", "factor": 2}"#.utf8))
    #expect(binding == .init(keyPath: "birthRate", factor: 2, offset: 0))
    // Defaults are left out when encoding, as in canonical files.
    let sorted = JSONEncoder()
    sorted.outputFormatting = .sortedKeys
    #expect(String(decoding: try sorted.encode(Emitter()), as: UTF8.self) == "{}")
    #expect(String(decoding: try sorted.encode(try Effect(emitter: Emitter())), as: UTF8.self) == #"{"format":1}"#)
    var small = EmitterCell(name: "s")
    small.birthRate = 0.1
    small.emitterCells = [EmitterCell()]
    #expect(
      String(decoding: try sorted.encode(small), as: UTF8.self)
        == #"{"birthRate":0.1,"emitterCells":[{}],"name":"s"}"#)
  }

  /// Each invalid document fails in `JSONDecoder` with `dataCorrupted` (or
  /// `keyNotFound`) at the field, described exactly as `Effect(json:)` describes it.
  @Test func invalidValuesAndUnknownKeysNameTheField() {
    let cases: [(json: String, path: String)] = [
      (#"{"format": 1, "emitterCells": [{"birthRate": -3}]}"#, "emitterCells[0].birthRate"),
      (#"{"format": 1, "birthRate": -1}"#, "birthRate"),
      (#"{"format": 1, "emitterSize": [1, -1]}"#, "emitterSize[1]"),
      (
        #"{"format": 1, "emitterCells": [{"emitterCells": [{}, {"color": [0, 0, 1.5]}]}]}"#,
        "emitterCells[0].emitterCells[1].color[2]"
      ),
      (
        #"{"format": 1, "emitterCells": [{"emitterCells": [{"velocty": 1}]}]}"#,
        "emitterCells[0].emitterCells[0].velocty"
      ),
      (#"{"format": 1, "emiterShape": "line"}"#, "emiterShape"),
      (#"{"format": 1, "emitterShape": "lines"}"#, "emitterShape"),
      (#"{"format": 1, "seed": 1.5}"#, "seed"),
      (#"{"format": 1, "emitterCells": [{"contentsScale": 0}]}"#, "emitterCells[0].contentsScale"),
      (#"{"format": 1, "emitterCells": [{"contents": "snowflak"}]}"#, "emitterCells[0].contents"),
      (#"{"format": 1, "emitterCells": [{"name": "a.b"}]}"#, "emitterCells[0].name"),
      (#"{"format": 1, "emitterCells": [{"name": "snow"}, {"name": "snow"}]}"#, "emitterCells[1].name"),
      (#"{"format": 2}"#, "format"),
      (#"{"birthRate": 2}"#, "format"),
      (#"{"format": 1, "changes": [{"time": -1, "keyPath": "birthRate", "value": 0}]}"#, "changes[0].time"),
      (
        #"{"format": 1, "changes": [{"time": 1, "keyPath": "birthRate", "value": 0, "when": 2}]}"#,
        "changes[0].when"
      ),
      (
        #"{"format": 1, "emitterCells": [{"name": "snow"}], "changes": [{"time": 1, "keyPath": "emitterCells.snw.birthRate", "value": 0}]}"#,
        "changes[0].keyPath"
      ),
      (#"{"format": 1, "changes": [{"time": 1, "keyPath": "birthRate", "value": "ten"}]}"#, "changes[0].value"),
      (
        #"{"format": 1, "changes": [{"time": 1, "keyPath": "birthRate", "value": 2}, {"time": 0, "keyPath": "emitterSize", "value": [1]}]}"#,
        "changes[1].value"
      ),
      (
        #"{"format": 1, "emitterSize": [700, 0], "parameters": {"w.x": {"value": 390, "bindings": [{"keyPath": "emitterSize.width", "factor": 2}]}}}"#,
        "parameters.w.x.bindings[0]"
      ),
      (
        #"{"format": 1, "parameters": {"width": {"value": 1, "bindings": [{"keyPath": "emitterSize", "factor": 2}]}}}"#,
        "parameters.width.bindings[0].keyPath"
      ),
      (
        #"{"format": 1, "parameters": {"width": {"value": 0, "minimum": 1, "bindings": []}}}"#,
        "parameters.width.value"
      ),
      (
        #"{"format": 1, "parameters": {"width": {"value": 0, "bindings": [], "step": 1}}}"#,
        "parameters.width.step"
      ),
      (
        #"{"format": 1, "parameters": {"width": {"value": 0, "bindings": [{"keyPath": "birthRate", "factor": 0, "ofset": 1}]}}}"#,
        "parameters.width.bindings[0].ofset"
      ),
    ]
    for (json, path) in cases {
      let failure = decodingFailure(Effect.self, json)
      #expect(failure?.path == path, "\(json)")
      // The same words as the effect reader, which names the same path.
      #expect(failure?.description == formatError(json), "\(json)")
      #expect(failure?.description.hasPrefix(path + ": ") == true, "\(json)")
    }
    #expect(
      decodingFailure(Effect.self, #"{"format": 1, "emitterCells": [{"birthRate": -3}]}"#)?.description
        == "emitterCells[0].birthRate: must be ≥ 0, got -3")
    #expect(
      decodingFailure(Effect.self, #"{"format": 1, "emitterCells": [{"velocty": 1}]}"#)?.description
        == "emitterCells[0].velocty: unknown key (did you mean 'velocity'?)")
  }

  /// Errors of the shared checks are re-rooted below the decoder's own path,
  /// and a user-given name stays one key even when it contains '.'.
  @Test func codingPathsLeadToTheField() {
    let nested = decodingFailure(
      [Effect].self,
      #"[{"format": 1}, {"format": 1, "changes": [{"time": 0, "keyPath": "birthRate", "value": -1}]}]"#)
    #expect(nested?.description == "[1].changes[0].value: must be ≥ 0, got -1")
    do {
      _ = try JSONDecoder().decode(
        Effect.self,
        from: Data(#"{"format": 1, "parameters": {"w.x": {"value": 0, "minimum": 1, "bindings": []}}}"#.utf8))
      Issue.record("accepted a value below the minimum")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.map(\.stringValue) == ["parameters", "w.x", "value"])
      #expect(context.debugDescription == "parameters.w.x.value: must be ≥ 1, got 0")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  /// The definitions on their own: their keys only, the same rules and words.
  @Test func definitionsCheckTheirOwnFields() throws {
    #expect(
      decodingFailure(Emitter.self, #"{"format": 1}"#)?.description == "format: unknown key")
    #expect(
      decodingFailure(Emitter.self, #"{"emitterCells": [{"lifetime": -2}]}"#)?.description
        == "emitterCells[0].lifetime: must be ≥ 0, got -2")
    #expect(
      decodingFailure(EmitterCell.self, #"{"isEnabled": false}"#)?.description
        == "isEnabled: unknown key (did you mean 'enabled'?)")
    #expect(
      decodingFailure([EmitterShape].self, #"["line", "lines"]"#)?.description
        == "[1]: expected one of point, line, rectangle, circle, cuboid, sphere, got 'lines' (did you mean 'line'?)")
    #expect(try JSONDecoder().decode([RenderMode].self, from: Data(#"["oldestFirst"]"#.utf8)) == [.oldestFirst])
    #expect(
      String(decoding: try JSONEncoder().encode([EmitterMode.surface]), as: UTF8.self) == #"["surface"]"#)
    #expect(decodingFailure([SpriteReference].self, #"[""]"#)?.description == "[0]: a sprite name must not be empty")
    #expect(decodingFailure([SpriteReference].self, #"["star", "a/b.png"]"#) == nil)
    #expect(
      decodingFailure([SpriteReference].self, #"["hart"]"#)?.description.hasPrefix("[0]: unknown sprite 'hart'") == true
    )
    #expect(
      decodingFailure(PropertyChange.self, #"{"time": 0, "keyPath": "emitterCells..x", "value": 1}"#)?.path
        == "keyPath")
  }

  /// A decoder that can produce infinities (here `JSONDecoder` reading them
  /// from strings) still cannot slip them past the checks.
  @Test func nonFiniteNumbersFromOtherDecodersAreRejected() {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    let cases = [
      (#"{"format": 1, "velocity": "inf"}"#, "velocity: must be finite, got inf"),
      (#"{"format": 1, "emitterCells": [{"duration": "nan"}]}"#, "emitterCells[0].duration: must be finite, got nan"),
      (
        #"{"format": 1, "changes": [{"time": "inf", "keyPath": "birthRate", "value": 0}]}"#,
        "changes[0].time: must be finite, got inf"
      ),
      (
        #"{"format": 1, "changes": [{"time": 0, "keyPath": "birthRate", "value": "-inf"}]}"#,
        "changes[0].value: must be finite, got -inf"
      ),
      (
        #"{"format": 1, "parameters": {"w": {"value": 0, "bindings": [{"keyPath": "velocity", "factor": "inf"}]}}}"#,
        "parameters.w.bindings[0].factor: must be finite, got inf"
      ),
      (
        #"{"format": 1, "parameters": {"w": {"value": 0, "maximum": "nan", "bindings": []}}}"#,
        "parameters.w.maximum: must be finite, got nan"
      ),
    ]
    for (json, message) in cases {
      do {
        _ = try decoder.decode(Effect.self, from: Data(json.utf8))
        Issue.record("accepted \(json)")
      } catch DecodingError.dataCorrupted(let context) {
        #expect(context.debugDescription == message)
        #expect(message.hasPrefix(effectPath(context.codingPath) + ": "))
      } catch {
        Issue.record("unexpected \(error)")
      }
    }
  }

  @Test func propertyValuesDecodeByKind() throws {
    let values = try JSONDecoder().decode(
      [PropertyValue].self, from: Data(#"[1.5, -0.0, true, "line", [1, 2.5]]"#.utf8))
    #expect(values == [.number(1.5), .number(-0.0), .bool(true), .string("line"), .vector([1, 2.5])])
    #expect(values[1].isIdentical(to: .number(-0.0)))
    let again = try JSONDecoder().decode([PropertyValue].self, from: try JSONEncoder().encode(values))
    #expect(zip(again, values).allSatisfy { $0.isIdentical(to: $1) })
    do {
      _ = try JSONDecoder().decode(PropertyValue.self, from: Data(#"{"x": 1}"#.utf8))
      Issue.record("an object is not a property value")
    } catch DecodingError.typeMismatch {
    } catch {
      Issue.record("unexpected \(error)")
    }
  }
}
