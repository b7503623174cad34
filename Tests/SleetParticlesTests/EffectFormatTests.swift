import Foundation
import SleetMath
import Testing

@testable import SleetParticles

/// The `description` of the `EffectFormatError` that reading `json` throws.
func formatError(_ json: String) -> String? {
  do throws(EffectFormatError) {
    _ = try Effect(json: json)
    return nil
  } catch {
    return error.description
  }
}

/// Whether two emitters agree bit for bit in every property of the layer and
/// of every cell (`==` would call −0 and 0 equal).
func identical(_ a: Emitter, _ b: Emitter) -> Bool {
  func cellsIdentical(_ x: [EmitterCell], _ y: [EmitterCell]) -> Bool {
    guard x.count == y.count else { return false }
    for (c, d) in zip(x, y) {
      guard c.name == d.name else { return false }
      for p in EmitterCell.propertyDescriptors where !p.get(c).isIdentical(to: p.get(d)) { return false }
      guard cellsIdentical(c.emitterCells, d.emitterCells) else { return false }
    }
    return true
  }
  for p in Emitter.propertyDescriptors where !p.get(a).isIdentical(to: p.get(b)) { return false }
  return cellsIdentical(a.emitterCells, b.emitterCells)
}

/// A SplitMix64 generator: deterministic test inputs.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Random valid values for every property: arbitrary bit patterns (finite,
/// made to satisfy the property's constraint), so that round trips are
/// tested far beyond "nice" decimals.
private func randomize<R>(_ root: inout R, table: [PropertyDescriptor<R>], rng: inout SplitMix64) throws {
  func randomFloat() -> Float {
    while true {
      let f = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
      if f.isFinite { return f }
    }
  }
  for d in table where !d.isComponent {
    let value: PropertyValue
    switch d.kind {
    case .float:
      var f = randomFloat()
      if d.name == "contentsScale" { f = abs(f) == 0 ? 1 : abs(f) }
      if ["birthRate", "lifetime", "speed"].contains(d.name) || d.name.hasSuffix("Range") { f = abs(f) }
      if d.name == "emitterDepth" { f = abs(f) }
      if d.name == "mass" { f = abs(f) == 0 ? 1 : abs(f) }
      // mass − massRange/2 must stay > 0 (`mass` comes first in the table).
      if d.name == "massRange", let mass = (root as? EmitterCell)?.mass, f / 2 >= mass { f = mass }
      value = .number(Double(f))
    case .double:
      var x = Double(bitPattern: rng.next())
      while !x.isFinite { x = Double(bitPattern: rng.next()) }
      value = .number(d.name == "duration" ? abs(x) : x)
    case .bool: value = .bool(rng.next() & 1 == 1)
    case .uint32: value = .number(Double(UInt32(truncatingIfNeeded: rng.next())))
    case .name(let names): value = .string(names.randomElement(using: &rng)!)
    case .sprite: value = .string((SpriteReference.builtInNames + ["a/b c.png"]).randomElement(using: &rng)!)
    case .numbers, .colors: continue  // behavior lists only, not in these tables
    case .vector(let n):
      value = .vector(
        (0..<n).map { _ in
          d.name == "color"
            ? Double(Float(rng.next() % 1_000_001) / 1_000_000)
            : d.name == "emitterSize" ? Double(abs(randomFloat())) : Double(randomFloat())
        })
    }
    try d.set(&root, value)
  }
}

/// An emitter with random values everywhere and cells
/// `top` > `middle` > (a leaf with an awkward name, a default cell), `plain`.
func randomEmitter(trial: Int, rng: inout SplitMix64) throws -> Emitter {
  var emitter = Emitter()
  try randomize(&emitter, table: Emitter.propertyDescriptors, rng: &rng)
  var leaf = EmitterCell(name: "leaf \"\(trial)\"\n")
  try randomize(&leaf, table: EmitterCell.propertyDescriptors, rng: &rng)
  var middle = EmitterCell(name: "middle")
  try randomize(&middle, table: EmitterCell.propertyDescriptors, rng: &rng)
  middle.emitterCells = [leaf, EmitterCell()]
  var top = EmitterCell(name: "top")
  try randomize(&top, table: EmitterCell.propertyDescriptors, rng: &rng)
  top.emitterCells = [middle]
  emitter.emitterCells = [top, EmitterCell(name: "plain")]
  if trial % 7 == 0 { emitter.emitterCells[1].velocity = -0.0 }
  return emitter
}

@Suite("Effect file format")
struct EffectFormatTests {
  @Test func minimalFileHasAppleDefaults() throws {
    let e = try Effect(json: #"{"format": 1}"#)
    #expect(e == (try Effect(emitter: Emitter())))
    #expect(e.jsonString() == "{\n  \"format\": 1\n}\n")
  }

  @Test func writerIsCanonicalAndReaderInvertsIt() throws {
    var snow = EmitterCell(name: "snow")
    snow.birthRate = 10
    snow.emissionRange = Float(Double.pi / 2)  // M_PI_2 rounded to nearest (Float.pi rounds down)
    snow.contents = SpriteReference("snowflake")
    var emitter = Emitter(emitterCells: [snow])
    emitter.emitterSize = SIMD2(780, 100)
    emitter.emitterShape = .line
    let e = try Effect(
      emitter: emitter, changes: [PropertyChange(time: 2, keyPath: "emitterCells.snow.birthRate", value: 0)])
    let text = e.jsonString()
    #expect(
      text == """
        {
          "format": 1,
          "emitterSize": [780, 100],
          "emitterShape": "line",
          "emitterCells": [
            {
              "name": "snow",
              "birthRate": 10,
              "emissionRange": 1.5707964,
              "contents": "snowflake"
            }
          ],
          "changes": [
            {"time": 2, "keyPath": "emitterCells.snow.birthRate", "value": 0}
          ]
        }

        """)
    let back = try Effect(json: text)
    #expect(back == e)
    #expect(back.emitter.emitterCells[0].emissionRange == Float(Double.pi / 2))
    #expect(back.jsonString() == text)
  }

  /// 200 effects with random bit patterns in every property, nested cells,
  /// changes and parameters: export → import gives the same bits, and
  /// export → import → export the same text.
  @Test func randomEffectsRoundTripBitExactly() throws {
    var rng = SplitMix64(state: 0x5EED)
    for trial in 0..<200 {
      let emitter = try randomEmitter(trial: trial, rng: &rng)
      let changes = [
        PropertyChange(
          time: Double(rng.next() % 1000) / 7, keyPath: "emitterCells.top.emitterCells.middle.velocity",
          value: .number(Double(bitPattern: rng.next() >> 2))),
        PropertyChange(time: 0.1, keyPath: "emitterPosition", value: .vector([0.1, -1e-300])),
        PropertyChange(time: 0, keyPath: "emitterCells.plain.contents", value: "star"),
      ]
      let parameters = [
        EffectParameter(
          name: "w", value: Double(emitter.emitterZPosition), minimum: -1e300, maximum: 1e300,
          bindings: [.init(keyPath: "emitterZPosition", factor: 1)])
      ]
      let effect = try Effect(emitter: emitter, changes: changes, parameters: parameters, summary: "trial \(trial) ✓")
      let text = effect.jsonString()
      let back = try Effect(json: text)
      #expect(back == effect)
      #expect(identical(back.emitter, effect.emitter), "trial \(trial)")
      #expect(back.jsonString() == text)
    }
  }

  @Test func everyPresetRoundTripsBitExactly() throws {
    for name in Effect.presetNames {
      let preset = try Effect.preset(named: name)
      let back = try Effect(json: preset.jsonString())
      #expect(back == preset, "\(name)")
      #expect(identical(back.emitter, preset.emitter), "\(name)")
      for width in [320.0, 1024.5] where preset.parameters.contains(where: { $0.name == "width" }) {
        let scaled = try preset.settingParameters(["width": width])
        let again = try Effect(json: scaled.jsonString())
        #expect(again == scaled && identical(again.emitter, scaled.emitter), "\(name) width \(width)")
      }
    }
  }

  // MARK: Errors: one test per class, exact messages

  @Test func syntaxErrorsGiveLineAndColumn() {
    #expect(formatError("{\"format\": 1,}") == "invalid JSON at line 1, column 14: expected a string key")
    #expect(
      formatError("{\"format\": 1,\n \"birthRate\": NaN}")
        == "invalid JSON at line 2, column 15: NaN and Infinity are not JSON numbers (values must be finite)")
    #expect(formatError("{\"format\": 01}") == "invalid JSON at line 1, column 13: numbers must not have leading zeros")
    #expect(
      formatError("{\"format\": 1} x") == "invalid JSON at line 1, column 15: unexpected text after the JSON document")
    #expect(formatError("") == "invalid JSON at line 1, column 1: unexpected end of input, expected a value")
    let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    #expect(formatError(deep) == "invalid JSON at line 1, column 65: nesting deeper than 64 levels")
    #expect(formatError("[1]") == "expected the effect (a JSON object), got an array")
  }

  @Test func formatIsRequiredAndVersioned() {
    #expect(formatError("{}") == "format: required field is missing (write \"format\": 1)")
    #expect(formatError(#"{"format": 2}"#) == "format: unsupported version 2 (this reader knows 1)")
    #expect(formatError(#"{"format": "1"}"#) == "format: expected the integer 1, got the string '1'")
  }

  @Test func unknownAndDuplicateKeys() {
    #expect(formatError(#"{"format": 1, "birthRat": 2}"#) == "birthRat: unknown key (did you mean 'birthRate'?)")
    #expect(
      formatError(#"{"format": 1, "emitterCells": [{"emitterCells": [{"velocty": 1}]}]}"#)
        == "emitterCells[0].emitterCells[0].velocty: unknown key (did you mean 'velocity'?)")
    #expect(formatError(#"{"format": 1, "emitterSize.width": 2}"#) == "emitterSize.width: unknown key")
    #expect(formatError(#"{"format": 1, "birthRate": 1, "birthRate": 2}"#) == "birthRate: duplicate key")
    #expect(
      formatError(#"{"format": 1, "emitterCells": [{"name": "snow"}, {"name": "snow"}]}"#)
        == "emitterCells[1].name: duplicate cell name 'snow' (already used by emitterCells[0]); key paths need unique names"
    )
    #expect(
      formatError(#"{"format": 1, "emitterCells": [{"name": "a.b"}]}"#)
        == "emitterCells[0].name: a cell name must not contain '.', got 'a.b'")
  }

  @Test func wrongTypes() {
    #expect(
      formatError(#"{"format": 1, "emitterCells": [{"birthRate": "ten"}]}"#)
        == "emitterCells[0].birthRate: expected a number, got the string 'ten'")
    #expect(formatError(#"{"format": 1, "preservesDepth": 1}"#) == "preservesDepth: expected true or false, got 1")
    #expect(
      formatError(#"{"format": 1, "emitterPosition": {"x": 1}}"#)
        == "emitterPosition: expected an array of 2 numbers, got an object")
    #expect(
      formatError(#"{"format": 1, "emitterPosition": [1, null]}"#) == "emitterPosition[1]: expected a number, got null")
    #expect(
      formatError(#"{"format": 1, "emitterCells": {}}"#) == "emitterCells: expected an array of cells, got an object")
    #expect(
      formatError(#"{"format": 1, "emitterCells": [3]}"#) == "emitterCells[0]: expected a cell (a JSON object), got 3")
    #expect(
      formatError(#"{"format": 1, "emitterShape": "lines"}"#)
        == "emitterShape: expected one of point, line, rectangle, circle, cuboid, sphere, got 'lines' (did you mean 'line'?)"
    )
    #expect(formatError(#"{"format": 1, "seed": -1}"#) == "seed: expected an integer from 0 to 4294967295, got -1")
  }

  @Test func nonFiniteNumbersAreRejected() {
    #expect(
      formatError(#"{"format": 1, "emitterCells": [{"lifetime": 1e400}]}"#)
        == "emitterCells[0].lifetime: must be finite, got 1e400")
    #expect(formatError(#"{"format": 1, "velocity": -1e39}"#) == "velocity: out of range for a 32-bit float, got -1e39")
    #expect(formatError(#"{"format": 1, "beginTime": 1e308}"#) == nil)
  }

  @Test func negativeRatesSizesLifetimesAndDurations() {
    #expect(
      formatError(#"{"format": 1, "emitterCells": [{"emitterCells": [{}, {"birthRate": -3}]}]}"#)
        == "emitterCells[0].emitterCells[1].birthRate: must be ≥ 0, got -3")
    #expect(formatError(#"{"format": 1, "emitterSize": [10, -1]}"#) == "emitterSize[1]: must be ≥ 0, got -1")
    #expect(
      formatError(#"{"format": 1, "emitterCells": [{"lifetime": -0.5}]}"#)
        == "emitterCells[0].lifetime: must be ≥ 0, got -0.5")
    #expect(
      formatError(#"{"format": 1, "emitterCells": [{"duration": -1}]}"#)
        == "emitterCells[0].duration: must be ≥ 0, got -1")
    #expect(
      formatError(#"{"format": 1, "emitterCells": [{"color": [1, 1, 1.5]}]}"#)
        == "emitterCells[0].color[2]: must be between 0 and 1, got 1.5")
    #expect(formatError(#"{"format": 1, "birthRate": -0.0}"#) == nil)
  }

  @Test func changesAreCheckedInTimeOrder() throws {
    let cells = #""emitterCells": [{"name": "snow", "birthRate": 10}]"#
    #expect(
      formatError(
        #"{"format": 1, \#(cells), "changes": [{"time": 1, "keyPath": "emitterCells.snw.birthRate", "value": 0}]}"#)
        == "changes[0].keyPath: 'emitterCells.snw.birthRate': no cell named 'snw' in emitterCells (cells: snow); did you mean 'snow'?"
    )
    #expect(
      formatError(
        #"{"format": 1, \#(cells), "changes": [{"time": 0, "keyPath": "birthRate", "value": 1}, {"time": 1, "keyPath": "emitterCells.snow.birthRate", "value": -1}]}"#
      )
        == "changes[1].value: must be ≥ 0, got -1")
    #expect(
      formatError(#"{"format": 1, \#(cells), "changes": [{"time": 1, "keyPath": "birthRate"}]}"#)
        == "changes[0].value: required field is missing")
    #expect(
      formatError(#"{"format": 1, \#(cells), "changes": [{"time": -1, "keyPath": "birthRate", "value": 1}]}"#)
        == "changes[0].time: must be ≥ 0, got -1")
    #expect(
      formatError(#"{"format": 1, \#(cells), "changes": [{"time": 1, "keyPath": "birthRate", "value": true}]}"#)
        == "changes[0].value: expected a number, got true")
    #expect(
      formatError(#"{"format": 1, \#(cells), "changes": [{"time": 1, "keypath": "birthRate", "value": 1}]}"#)
        == "changes[0].keypath: unknown key (did you mean 'keyPath'?)")
    let ok = try Effect(
      json:
        #"{"format": 1, \#(cells), "changes": [{"time": 2, "keyPath": "emitterCells.snow.birthRate", "value": 0}, {"time": 1, "keyPath": "emitterPosition", "value": [3, 4]}]}"#
    )
    #expect(ok.changes.map(\.time) == [1, 2])
    #expect(ok.emitter(at: 5).emitterPosition == SIMD2(3, 4))
    #expect(ok.emitter(at: 5).emitterCells[0].birthRate == 0)
  }

  @Test func parametersMustAgreeWithTheStoredValues() throws {
    let base = #""emitterSize": [700, 100], "emitterCells": [{"name": "snow"}]"#
    #expect(
      formatError(
        #"{"format": 1, \#(base), "parameters": {"width": {"value": 390, "bindings": [{"keyPath": "emitterSize.width", "factor": 2}]}}}"#
      )
        == "parameters.width.bindings[0]: emitterSize.width: is 700 but 2 × width = 780 for width = 390; "
        + "the parameter sets this value: edit parameters.width.value (350 gives 700), "
        + "or drop \"parameters\" to keep the values as written")
    #expect(
      formatError(
        #"{"format": 1, \#(base), "parameters": {"width": {"value": 350, "bindings": [{"keyPath": "emitterSize", "factor": 2}]}}}"#
      )
        == "parameters.width.bindings[0].keyPath: 'emitterSize' is not a single number (bind a component such as 'emitterSize.width')"
    )
    #expect(
      formatError(#"{"format": 1, \#(base), "parameters": {"width": {"value": 0, "minimum": 1, "bindings": []}}}"#)
        == "parameters.width.value: must be ≥ 1, got 0")
    #expect(
      formatError(#"{"format": 1, \#(base), "parameters": {"width": {"bindings": []}}}"#)
        == "parameters.width.value: required field is missing")
    let e = try Effect(
      json:
        #"{"format": 1, \#(base), "parameters": {"width": {"value": 350, "minimum": 1, "bindings": [{"keyPath": "emitterSize.width", "factor": 2}]}}}"#
    )
    let wide = try e.settingParameters(["width": 512])
    #expect(wide.emitter.emitterSize == SIMD2(1024, 100))
    #expect(wide.parameters[0].value == 512)
    #expect(throws: EffectFormatError(path: "parameters.height", reason: "no such parameter (parameters: width)")) {
      try e.settingParameters(["height": 3])
    }
    #expect(throws: EffectFormatError(path: "parameters.width", reason: "must be ≥ 1, got 0.5")) {
      try e.settingParameters(["width": 0.5])
    }
  }

  @Test func filesAreReadAndWrittenAtomically() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sleet-effects-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/snow.json"
    var cell = EmitterCell(name: "flake")
    cell.contents = SpriteReference("sprites/flake.png")
    let effect = try Effect(
      emitter: Emitter(emitterCells: [cell]),
      changes: [PropertyChange(time: 1, keyPath: "emitterCells.flake.contents", value: "other.png")])
    try effect.writeJSON(toFile: file)
    try effect.writeJSON(toFile: file)  // Overwrites in place.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["snow.json"])
    #expect(String(decoding: FileManager.default.contents(atPath: file)!, as: UTF8.self) == effect.jsonString())
    // Relative sprite paths resolve against the file's folder.
    let read = try Effect(contentsOfFile: file)
    #expect(read.emitter.emitterCells[0].contents == SpriteReference(folder + "/sprites/flake.png"))
    #expect(read.changes[0].value == .string(folder + "/other.png"))
    #expect(
      throws: EffectFormatError(path: "", reason: "cannot read '\(folder)/missing.json': No such file or directory")
    ) {
      try Effect(contentsOfFile: folder + "/missing.json")
    }
    #expect(throws: FileOutputError.self) { try effect.writeJSON(toFile: folder + "/no/such/dir/x.json") }
  }

  @Test func stringsWithEscapesRoundTrip() throws {
    let e = try Effect(json: #"{"format": 1, "summary": "tab\there \"q\" \u00e9 \ud83d\ude00 \u0001"}"#)
    #expect(e.summary == "tab\there \"q\" é 😀 \u{01}")
    #expect(try Effect(json: e.jsonString()).summary == e.summary)
    #expect(
      formatError(#"{"format": 1, "summary": "\ud83d"}"#)
        == "invalid JSON at line 1, column 33: unpaired surrogate in \\u escape")
  }

  @Test func atomicWriteLeavesNothingBehindOnFailure() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sleet-atomic-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder + "/target", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // Renaming a file over a non-empty directory fails: the directory stays, no temporary file remains.
    try FileOutput.atomicWrite([1, 2, 3], to: folder + "/target/keep")
    #expect(throws: FileOutputError.self) { try FileOutput.atomicWrite([4], to: folder + "/target") }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["target"])
    #expect(FileManager.default.contents(atPath: folder + "/target/keep") == Data([1, 2, 3]))
    let big = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    try FileOutput.atomicWrite(big, to: folder + "/big.bin")
    #expect(FileManager.default.contents(atPath: folder + "/big.bin") == Data(big))
  }

  @Test func strictJSONGrammar() {
    let rejected: [(String, String)] = [
      (#"{"format": +1}"#, "invalid JSON at line 1, column 12: unexpected character '+', expected a value"),
      (#"{"format": .5}"#, "invalid JSON at line 1, column 12: unexpected character '.', expected a value"),
      (#"{"format": 1.}"#, "invalid JSON at line 1, column 14: expected a digit after '.'"),
      (#"{"format": 1e}"#, "invalid JSON at line 1, column 14: expected a digit in the exponent"),
      (
        #"{"format": 1, "emitterPosition": [1, 2,]}"#,
        "invalid JSON at line 1, column 40: unexpected character ']', expected a value"
      ),
      (#"{'format': 1}"#, "invalid JSON at line 1, column 2: expected a string key"),
      (#"{"format": 1 /* c */}"#, "invalid JSON at line 1, column 14: expected ',' or '}' in an object"),
      (#"{"format": 1, "summary": "a\qb"}"#, "invalid JSON at line 1, column 30: invalid escape '\\q'"),
      (
        "{\"format\": 1, \"summary\": \"a\nb\"}",
        "invalid JSON at line 1, column 28: control character in a string (escape it)"
      ),
      (#"{"format": tru}"#, "invalid JSON at line 1, column 12: invalid literal (expected true)"),
      (#"{"format": 1"#, "invalid JSON at line 1, column 13: expected ',' or '}' in an object"),
    ]
    for (json, message) in rejected {
      #expect(formatError(json) == message, "\(json)")
    }
    #expect(formatError("\u{FEFF}{\"format\": 1, \"summary\": \"\\u00e9\\/\"}\n") == nil)
    #expect(formatError(#"{"format": 1.0}"#) == "format: expected the integer 1, got 1.0")
  }

  @Test func presetOrFileLoadsEither() throws {
    #expect(try Effect(presetOrFile: "snow") == (try Effect.preset(named: "snow")))
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("sleet-either-\(getpid()).json").path
    defer { try? FileManager.default.removeItem(atPath: file) }
    try Effect.preset(named: "confetti").writeJSON(toFile: file)
    let read = try Effect(presetOrFile: file, parameters: ["width": 100])
    #expect(read.emitter.emitterSize.x == 100)
    #expect(throws: EffectFormatError(path: "", reason: "cannot read 'nope.json': No such file or directory")) {
      try Effect(presetOrFile: "nope.json")
    }
  }
}
