import Foundation
import SleetMath

/// A problem in an effect file: where (a JSON path such as
/// `emitterCells[0].emitterCells[1].birthRate`, or "" for the document as a
/// whole) and what, e.g. `must be ≥ 0, got -3`.
public struct EffectFormatError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The JSON path of the offending value; "" for the whole document
  /// (syntax errors, unreadable files).
  public var path: String
  /// What is wrong.
  public var reason: String

  /// An error at JSON path `path` (e.g. `emitter.emitterCells[0].birthRate`).
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// `path: reason`, or just the reason when the path is empty.
  public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}

// MARK: - Reading

extension Effect {
  /// The effect-file format version this build reads and writes.
  public static let formatVersion = 1

  /// Reads an effect file (format 1, see docs/effect-format.md) strictly:
  /// unknown keys, wrong types, non-finite or out-of-range numbers, unknown
  /// key paths and missing required fields are errors naming the JSON path.
  /// - Complexity: O(n) in the file size plus O(changes × depth) to check
  ///   the changes.
  public init(json bytes: [UInt8]) throws(EffectFormatError) {
    let root: JSONValue
    do throws(JSONSyntaxError) {
      root = try JSONParser.parse(bytes)
    } catch {
      throw EffectFormatError(
        path: "", reason: "invalid JSON at line \(error.line), column \(error.column): \(error.reason)")
    }
    self = try EffectDecoder.decode(root)
  }

  /// Reads an effect file from its text (see ``init(json:)-([UInt8])``).
  public init(json text: String) throws(EffectFormatError) {
    try self.init(json: Array(text.utf8))
  }

  /// Reads an effect file from disk, at most ``SleetLimits/jsonFileBytes``
  /// long. Relative `.png` sprite paths in `contents` (in cells and in
  /// changes) are resolved against the file's folder, so the effect can be
  /// used from any working directory.
  /// - Throws: `EffectFormatError` with an empty path when the file cannot
  ///   be read or is too large; otherwise as ``init(json:)-([UInt8])``.
  public init(contentsOfFile path: String) throws(EffectFormatError) {
    let bytes: [UInt8]
    do throws(InputFileError) {
      bytes = try InputFile.read(path, limit: SleetLimits.jsonFileBytes)
    } catch {
      throw EffectFormatError(path: "", reason: "cannot read '\(path)': \(error.reason(kind: "effect files"))")
    }
    var effect = try Effect(json: bytes)
    effect.resolveSpritePaths(relativeTo: Effect.folder(ofFile: path))
    self = effect
  }

  /// The folder a file path names its file in: the text before the last
  /// `/` (`/` itself for a file at the root), or `.` for a bare name.
  ///
  /// Not `NSString.deletingLastPathComponent`: the Swift 6.3.1 toolchain's
  /// Foundation traps there on any one-character relative path (`t`, `é`),
  /// a valid effect file name (docs/reliability.md, F4).
  static func folder(ofFile path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let folder = path[..<slash]
    return folder.isEmpty ? "/" : String(folder)
  }

  private mutating func resolveSpritePaths(relativeTo folder: String) {
    func resolve(_ name: String) -> String {
      guard name.lowercased().hasSuffix(".png"), !name.hasPrefix("/") else { return name }
      return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
    func fix(_ cells: inout [EmitterCell]) {
      for i in cells.indices {
        if let c = cells[i].contents { cells[i].contents = SpriteReference(resolve(c.name)) }
        fix(&cells[i].emitterCells)
      }
    }
    fix(&emitter.emitterCells)
    changes = changes.map { change in
      guard change.keyPath.hasSuffix(".contents"), case .string(let s) = change.value else { return change }
      var c = change
      c.value = .string(resolve(s))
      return c
    }
  }
}

/// Turns a parsed JSON document into an `Effect`, checking everything.
enum EffectDecoder {
  static let topLevelKeys = ["format", "summary", "parameters", "emitterCells", "changes"]
  static let cellKeys = ["name", "emitterCells"]
  static let changeKeys = ["time", "keyPath", "value"]
  static let parameterKeys = ["value", "minimum", "maximum", "bindings"]
  static let bindingKeys = ["keyPath", "factor", "offset"]

  static func decode(_ root: JSONValue) throws(EffectFormatError) -> Effect {
    let members = try object(root, path: "", what: "the effect (a JSON object)")
    let fields = try uniqueFields(members, path: "")
    // `format` is the only required field: everything else has Apple's default.
    guard let formatValue = fields["format"] else {
      throw EffectFormatError(path: "format", reason: "required field is missing (write \"format\": 1)")
    }
    guard case .number(let raw) = formatValue, let version = Int(raw) else {
      throw EffectFormatError(path: "format", reason: "expected the integer 1, got \(formatValue.kindDescription)")
    }
    guard version == Effect.formatVersion else {
      throw EffectFormatError(
        path: "format", reason: "unsupported version \(version) (this reader knows \(Effect.formatVersion))")
    }

    var emitter = Emitter()
    var summary: String?
    for member in members {
      let path = member.key
      switch member.key {
      case "format", "parameters", "changes": continue
      case "summary":
        guard case .string(let s) = member.value else {
          throw EffectFormatError(path: path, reason: "expected a string, got \(member.value.kindDescription)")
        }
        summary = s
      case "emitterCells":
        emitter.emitterCells = try cells(member.value, path: path)
      default:
        guard let d = Emitter.propertiesByName[member.key], !d.isComponent else {
          throw unknownKey(member.key, path: path, known: topLevelKeys + propertyKeys(Emitter.propertyDescriptors))
        }
        try set(d, of: &emitter, to: member.value, path: path)
      }
    }
    // The shared check (every value was checked where it was read, so what
    // it adds for a file is the cell limit).
    do throws(EffectValidationError) {
      try Effect.validateDefinition(emitter, includingSprites: true)
    } catch {
      throw EffectFormatError(error)
    }

    let parameters =
      try fields["parameters"].map { v throws(EffectFormatError) in
        try self.parameters(v, emitter: emitter)
      } ?? []
    let changes =
      try fields["changes"].map { v throws(EffectFormatError) in
        try self.changes(v, emitter: emitter)
      } ?? []
    do throws(EffectValidationError) {
      // Checks the changes' values (their times and key paths were checked
      // as they were read).
      return try Effect(emitter: emitter, changes: changes, parameters: parameters, summary: summary)
    } catch {
      throw EffectFormatError(error)
    }
  }

  // MARK: Structure

  static func object(_ v: JSONValue, path: String, what: String) throws(EffectFormatError) -> [JSONMember] {
    guard case .object(let members) = v else {
      throw EffectFormatError(path: path, reason: "expected \(what), got \(v.kindDescription)")
    }
    return members
  }

  static func uniqueFields(_ members: [JSONMember], path: String) throws(EffectFormatError) -> [String: JSONValue] {
    var fields: [String: JSONValue] = [:]
    for m in members {
      guard fields.updateValue(m.value, forKey: m.key) == nil else {
        throw EffectFormatError(path: join(path, m.key), reason: "duplicate key")
      }
    }
    return fields
  }

  static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  static func propertyKeys<R>(_ ds: [PropertyDescriptor<R>]) -> [String] {
    ds.filter { !$0.isComponent }.map(\.name)
  }

  static func unknownKey(_ key: String, path: String, known: [String]) -> EffectFormatError {
    var reason = "unknown key"
    if let near = closestName(to: key, in: known) { reason += " (did you mean '\(near)'?)" }
    return EffectFormatError(path: path, reason: reason)
  }

  static func required(_ fields: [String: JSONValue], _ key: String, path: String) throws(EffectFormatError)
    -> JSONValue
  {
    guard let v = fields[key] else {
      throw EffectFormatError(path: join(path, key), reason: "required field is missing")
    }
    return v
  }

  static func checkKeys(_ members: [JSONMember], allowed: [String], path: String) throws(EffectFormatError) {
    for m in members where !allowed.contains(m.key) {
      throw unknownKey(m.key, path: join(path, m.key), known: allowed)
    }
  }

  // MARK: Values

  /// A number literal as a finite `Double`, or as the `Double` of a finite
  /// `Float` parsed straight from the literal when `asFloat`. A literal that
  /// is not zero but rounds to zero (`1e-400`, or `1e-46` for a `Float`) is
  /// refused rather than read as 0, as `JSONDecoder` refuses it.
  static func number(_ raw: String, asFloat: Bool, path: String) throws(EffectFormatError) -> Double {
    // Safe: the parser only produces valid JSON number literals.
    let d = Double(raw)!
    guard d.isFinite else { throw EffectFormatError(path: path, reason: "must be finite, got \(raw)") }
    // The digits before the exponent: any but 0 makes the literal non-zero.
    let isZero = !raw.prefix { $0 != "e" && $0 != "E" }.contains { $0 >= "1" && $0 <= "9" }
    guard asFloat else {
      guard d != 0 || isZero else {
        throw EffectFormatError(path: path, reason: "too small: rounds to 0, got \(raw) (write 0)")
      }
      return d
    }
    let f = Float(raw)!
    guard f.isFinite else {
      throw EffectFormatError(path: path, reason: "out of range for a 32-bit float, got \(raw)")
    }
    guard f != 0 || isZero else {
      throw EffectFormatError(path: path, reason: "too small for a 32-bit float: rounds to 0, got \(raw) (write 0)")
    }
    return Double(f)
  }

  static func finiteDouble(_ v: JSONValue, path: String) throws(EffectFormatError) -> Double {
    guard case .number(let raw) = v else {
      throw EffectFormatError(path: path, reason: "expected a number, got \(v.kindDescription)")
    }
    return try number(raw, asFloat: false, path: path)
  }

  static func string(_ v: JSONValue, path: String) throws(EffectFormatError) -> String {
    guard case .string(let s) = v else {
      throw EffectFormatError(path: path, reason: "expected a string, got \(v.kindDescription)")
    }
    return s
  }

  /// Converts a JSON value to the `PropertyValue` a property of `kind`
  /// takes, reporting a wrong JSON type against `path`.
  static func propertyValue(
    _ v: JSONValue, kind: PropertyKind, floatLiterals: Bool, path: String
  ) throws(EffectFormatError) -> PropertyValue {
    func wrongType() -> EffectFormatError {
      EffectFormatError(path: path, reason: "expected \(kind.expectation), got \(v.kindDescription)")
    }
    switch (v, kind) {
    case (.number(let raw), .float), (.number(let raw), .double), (.number(let raw), .uint32):
      return .number(try number(raw, asFloat: floatLiterals && kind == .float, path: path))
    case (.bool(let b), .bool):
      return .bool(b)
    case (.string(let s), .name), (.string(let s), .sprite):
      return .string(s)
    case (.array(let elements), .vector):
      var xs: [Double] = []
      for (i, e) in elements.enumerated() {
        guard case .number(let raw) = e else {
          throw EffectFormatError(path: "\(path)[\(i)]", reason: "expected a number, got \(e.kindDescription)")
        }
        xs.append(try number(raw, asFloat: floatLiterals, path: "\(path)[\(i)]"))
      }
      return .vector(xs)
    default:
      throw wrongType()
    }
  }

  static func set<R>(
    _ d: PropertyDescriptor<R>, of root: inout R, to v: JSONValue, path: String
  ) throws(EffectFormatError) {
    let value = try propertyValue(v, kind: d.kind, floatLiterals: true, path: path)
    do throws(PropertyValueProblem) {
      try d.set(&root, value)
    } catch {
      throw EffectFormatError(path: path + (error.componentIndex.map { "[\($0)]" } ?? ""), reason: error.reason)
    }
  }

  // MARK: Cells

  static func cells(_ v: JSONValue, path: String) throws(EffectFormatError) -> [EmitterCell] {
    guard case .array(let elements) = v else {
      throw EffectFormatError(path: path, reason: "expected an array of cells, got \(v.kindDescription)")
    }
    var result: [EmitterCell] = []
    for (i, e) in elements.enumerated() {
      result.append(try self.cell(e, path: "\(path)[\(i)]"))
    }
    try checkUniqueNames(result, path: path)
    return result
  }

  /// Rejects two sibling cells with the same name (key paths select by name).
  static func checkUniqueNames(_ cells: [EmitterCell], path: String) throws(EffectFormatError) {
    var firstIndex: [String: Int] = [:]
    for (i, cell) in cells.enumerated() {
      guard let name = cell.name else { continue }
      if let j = firstIndex[name] {
        throw EffectFormatError(
          path: "\(path)[\(i)].name",
          reason: "duplicate cell name '\(name)' (already used by \(path)[\(j)]); key paths need unique names")
      }
      firstIndex[name] = i
    }
  }

  static func cell(_ v: JSONValue, path: String) throws(EffectFormatError) -> EmitterCell {
    let members = try object(v, path: path, what: "a cell (a JSON object)")
    _ = try uniqueFields(members, path: path)
    var cell = EmitterCell()
    for m in members {
      let p = join(path, m.key)
      switch m.key {
      case "name":
        let name = try string(m.value, path: p)
        if let problem = EmitterCell.nameProblem(name) { throw EffectFormatError(path: p, reason: problem) }
        cell.name = name
      case "emitterCells":
        cell.emitterCells = try cells(m.value, path: p)
      default:
        guard let d = EmitterCell.propertiesByName[m.key], !d.isComponent else {
          throw unknownKey(m.key, path: p, known: cellKeys + propertyKeys(EmitterCell.propertyDescriptors))
        }
        try set(d, of: &cell, to: m.value, path: p)
      }
    }
    return cell
  }

  // MARK: Changes

  static func kind(of keyPath: Emitter.KeyPath) -> PropertyKind {
    // Safe: `KeyPath` only holds properties that exist in the tables.
    keyPath.cellNames.isEmpty
      ? Emitter.propertiesByName[keyPath.property]!.kind
      : EmitterCell.propertiesByName[keyPath.property]!.kind
  }

  /// Parses a key path and, given an emitter, checks that it names an existing cell.
  static func keyPath(_ text: String, emitter: Emitter?, path: String) throws(EffectFormatError) -> Emitter.KeyPath {
    do throws(KeyPathError) {
      let keyPath = try Emitter.KeyPath(text)
      if let emitter { _ = try emitter.value(for: keyPath) }
      return keyPath
    } catch {
      throw EffectFormatError(path: path, reason: "'\(text)': \(error.reason)")
    }
  }

  static func changes(_ v: JSONValue, emitter: Emitter) throws(EffectFormatError) -> [PropertyChange] {
    guard case .array(let elements) = v else {
      throw EffectFormatError(path: "changes", reason: "expected an array of changes, got \(v.kindDescription)")
    }
    var result: [PropertyChange] = []
    for (i, e) in elements.enumerated() {
      let path = "changes[\(i)]"
      let members = try object(e, path: path, what: "a change (a JSON object)")
      let fields = try uniqueFields(members, path: path)
      try checkKeys(members, allowed: changeKeys, path: path)
      let time = try finiteDouble(try required(fields, "time", path: path), path: "\(path).time")
      let text = try string(try required(fields, "keyPath", path: path), path: "\(path).keyPath")
      // The shared check of a change's time and key path, here so that the
      // value below can be read as the property's kind.
      let keyPath: Emitter.KeyPath
      do throws(EffectValidationError) {
        keyPath = try Effect.checkedKeyPath(text, time: time, index: i, on: emitter)
      } catch {
        throw EffectFormatError(error)
      }
      // Change values stay `Double` (exact in both directions); the property
      // converts them when the change is applied.
      let value = try propertyValue(
        try required(fields, "value", path: path), kind: kind(of: keyPath), floatLiterals: false,
        path: "\(path).value")
      result.append(PropertyChange(time: time, keyPath: keyPath.description, value: value))
    }
    return result
  }

  // MARK: Parameters

  static func parameters(_ v: JSONValue, emitter: Emitter) throws(EffectFormatError) -> [EffectParameter] {
    let members = try object(v, path: "parameters", what: "an object of parameters")
    _ = try uniqueFields(members, path: "parameters")
    var result: [EffectParameter] = []
    for m in members {
      let path = "parameters.\(m.key)"
      let fieldsList = try object(m.value, path: path, what: "a parameter (a JSON object)")
      let fields = try uniqueFields(fieldsList, path: path)
      try checkKeys(fieldsList, allowed: parameterKeys, path: path)
      let value = try finiteDouble(try required(fields, "value", path: path), path: "\(path).value")
      let minimum = try fields["minimum"].map { v throws(EffectFormatError) in
        try finiteDouble(v, path: "\(path).minimum")
      }
      let maximum = try fields["maximum"].map { v throws(EffectFormatError) in
        try finiteDouble(v, path: "\(path).maximum")
      }
      guard case .array(let bindingValues) = try required(fields, "bindings", path: path) else {
        throw EffectFormatError(path: "\(path).bindings", reason: "expected an array of bindings")
      }
      var bindings: [EffectParameter.Binding] = []
      for (j, b) in bindingValues.enumerated() {
        let bp = "\(path).bindings[\(j)]"
        let bm = try object(b, path: bp, what: "a binding (a JSON object)")
        let bf = try uniqueFields(bm, path: bp)
        try checkKeys(bm, allowed: bindingKeys, path: bp)
        let keyPath = try string(try required(bf, "keyPath", path: bp), path: "\(bp).keyPath")
        let factor = try finiteDouble(try required(bf, "factor", path: bp), path: "\(bp).factor")
        let offset =
          try bf["offset"].map { v throws(EffectFormatError) in try finiteDouble(v, path: "\(bp).offset") } ?? 0
        bindings.append(EffectParameter.Binding(keyPath: keyPath, factor: factor, offset: offset))
      }
      let parameter = EffectParameter(
        name: m.key, value: value, minimum: minimum, maximum: maximum, bindings: bindings)
      try check(parameter, emitter: emitter, path: path)
      result.append(parameter)
    }
    return result
  }

  /// Checks a parameter read from a file against its emitter: a non-empty
  /// name, minimum ≤ maximum, bindings naming single numbers, a value in
  /// range, and stored values that are those the value produces (so a file
  /// reads the same with and without re-applying its parameters). Errors
  /// name `path` (the parameter's) or a field below it.
  static func check(_ parameter: EffectParameter, emitter: Emitter, path: String) throws(EffectFormatError) {
    let name = parameter.name
    guard !name.isEmpty else { throw EffectFormatError(path: path, reason: "a parameter name must not be empty") }
    // Files cannot hold non-finite numbers, but other decoders can.
    var numbers: [(field: String, value: Double?)] = [("minimum", parameter.minimum), ("maximum", parameter.maximum)]
    for (j, b) in parameter.bindings.enumerated() {
      numbers += [("bindings[\(j)].factor", b.factor), ("bindings[\(j)].offset", b.offset)]
    }
    for case (let field, let x?) in numbers where !x.isFinite {
      throw EffectFormatError(path: "\(path).\(field)", reason: "must be finite, got \(x)")
    }
    if let minimum = parameter.minimum, let maximum = parameter.maximum, minimum > maximum {
      throw EffectFormatError(
        path: "\(path).maximum",
        reason: "must be ≥ minimum (\(formatNumber(minimum))), got \(formatNumber(maximum))")
    }
    for (j, binding) in parameter.bindings.enumerated() {
      let bp = "\(path).bindings[\(j)].keyPath"
      let keyPath = try self.keyPath(binding.keyPath, emitter: emitter, path: bp)
      guard kind(of: keyPath).isScalarNumber else {
        throw EffectFormatError(
          path: bp, reason: "'\(keyPath)' is not a single number (bind a component such as 'emitterSize.width')")
      }
    }
    let value = parameter.value
    if let problem = parameter.rangeProblem(value) {
      throw EffectFormatError(path: "\(path).value", reason: problem)
    }
    for (j, binding) in parameter.bindings.enumerated() {
      var probe = emitter
      let expected = binding.offset + binding.factor * value
      do throws(KeyPathError) {
        try probe.setValue(.number(expected), forKeyPath: binding.keyPath)
        let want = try probe.value(forKeyPath: binding.keyPath)
        let have = try emitter.value(forKeyPath: binding.keyPath)
        guard have.isIdentical(to: want) else {
          throw KeyPathError(
            keyPath: binding.keyPath,
            reason: "is \(have.kindDescription) but \(binding.formula(name)) = \(want.kindDescription) "
              + "for \(name) = \(formatNumber(value)); write the values for the parameter's value")
        }
      } catch {
        throw EffectFormatError(path: "\(path).bindings[\(j)]", reason: error.description)
      }
    }
  }
}

// MARK: - Writing

extension Effect {
  /// The effect as canonical effect-file text (format 1): keys in a fixed
  /// order (the order of docs/effect-format.md), only values that differ from
  /// Apple's defaults (bit for bit, so −0 is kept), two-space indentation,
  /// short arrays and objects on one line, a final newline. Numbers are
  /// written in the shortest form that reads back to the same `Float` or
  /// `Double`, so `Effect(json: e.jsonString()) == e` and export → import →
  /// export gives identical bytes.
  /// - Complexity: O(cells × properties + changes).
  public func jsonString() -> String {
    var lines: [String] = []
    var top: [String] = ["\"format\": \(Effect.formatVersion)"]
    if let summary { top.append("\"summary\": \(JSONText.quoted(summary))") }
    if !parameters.isEmpty {
      let entries = parameters.map { p in
        var fields = ["\"value\": \(formatDouble(p.value))"]
        if let m = p.minimum { fields.append("\"minimum\": \(formatDouble(m))") }
        if let m = p.maximum { fields.append("\"maximum\": \(formatDouble(m))") }
        let bindings = p.bindings.map { b in
          var f = ["\"keyPath\": \(JSONText.quoted(b.keyPath))", "\"factor\": \(formatDouble(b.factor))"]
          if b.offset.bitPattern != 0 { f.append("\"offset\": \(formatDouble(b.offset))") }
          return "{" + f.joined(separator: ", ") + "}"
        }
        fields.append("\"bindings\": [" + bindings.joined(separator: ", ") + "]")
        return "    \(JSONText.quoted(p.name)): {" + fields.joined(separator: ", ") + "}"
      }
      top.append("\"parameters\": {\n" + entries.joined(separator: ",\n") + "\n  }")
    }
    top += EffectEncoder.properties(of: emitter, default: Emitter(), table: Emitter.propertyDescriptors)
    if !emitter.emitterCells.isEmpty {
      top.append("\"emitterCells\": " + EffectEncoder.cells(emitter.emitterCells, indent: 1))
    }
    if !changes.isEmpty {
      let entries = changes.map { c in
        // Safe: `init` checked every change's key path.
        let kind = EffectDecoder.kind(of: try! Emitter.KeyPath(c.keyPath))
        return "    {\"time\": \(formatDouble(c.time)), \"keyPath\": \(JSONText.quoted(c.keyPath)), "
          + "\"value\": \(EffectEncoder.text(c.value, float: false, kind: kind))}"
      }
      top.append("\"changes\": [\n" + entries.joined(separator: ",\n") + "\n  ]")
    }
    lines.append("{")
    lines.append(top.map { "  " + $0 }.joined(separator: ",\n"))
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Writes ``jsonString()`` to `path` atomically (a temporary file in the
  /// same folder, then a rename), so readers never see half a file.
  public func writeJSON(toFile path: String) throws(FileOutputError) {
    try FileOutput.atomicWrite(Array(jsonString().utf8), to: path)
  }
}

/// A `Float` in the shortest text that reads back to the same `Float`.
func formatFloat(_ x: Float) -> String {
  if x == 0 { return x.sign == .minus ? "-0.0" : "0" }
  if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
  return x.description
}

/// A `Double` in the shortest text that reads back to the same `Double`.
func formatDouble(_ x: Double) -> String {
  if x == 0 { return x.sign == .minus ? "-0.0" : "0" }
  if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
  return x.description
}

enum EffectEncoder {
  static func text(_ value: PropertyValue, float: Bool, kind: PropertyKind) -> String {
    switch value {
    case .number(let x): return float && kind == .float ? formatFloat(Float(x)) : formatDouble(x)
    case .bool(let b): return b ? "true" : "false"
    case .string(let s): return JSONText.quoted(s)
    case .vector(let xs):
      return "[" + xs.map { float ? formatFloat(Float($0)) : formatDouble($0) }.joined(separator: ", ") + "]"
    }
  }

  /// `"key": value` for every property that differs from the default.
  static func properties<R>(of root: R, default base: R, table: [PropertyDescriptor<R>]) -> [String] {
    var out: [String] = []
    for d in table where !d.isComponent {
      let v = d.get(root)
      guard !v.isIdentical(to: d.get(base)) else { continue }
      out.append("\(JSONText.quoted(d.name)): \(text(v, float: true, kind: d.kind))")
    }
    return out
  }

  static func cells(_ cells: [EmitterCell], indent: Int) -> String {
    let pad = String(repeating: "  ", count: indent)
    let inner = pad + "    "
    let objects = cells.map { cell -> String in
      var fields: [String] = []
      if let name = cell.name { fields.append("\"name\": \(JSONText.quoted(name))") }
      fields += properties(of: cell, default: EmitterCell(), table: EmitterCell.propertyDescriptors)
      if !cell.emitterCells.isEmpty {
        fields.append("\"emitterCells\": " + Self.cells(cell.emitterCells, indent: indent + 2))
      }
      if fields.isEmpty { return pad + "  {}" }
      return pad + "  {\n" + fields.map { inner + $0 }.joined(separator: ",\n") + "\n" + pad + "  }"
    }
    return "[\n" + objects.joined(separator: ",\n") + "\n" + pad + "]"
  }
}
