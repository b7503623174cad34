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
  static let topLevelKeys = ["format", "summary", "parameters", "emitterBehaviors", "emitterCells", "changes"]
  static let cellKeys = ["name", "emitterBehaviors", "emitterCells"]
  static let changeKeys = ["time", "keyPath", "value", "duration", "timingFunction", "keyTimes", "values"]
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
      case "emitterBehaviors":
        emitter.emitterBehaviors = try behaviors(member.value, path: path)
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
    case (.array(let elements), .colors):
      var xs: [Double] = []
      for (i, e) in elements.enumerated() {
        guard case .array(let color) = e, (3...4).contains(color.count) else {
          var got = e.kindDescription
          if case .array(let xs) = e { got = "\(xs.count) numbers" }
          throw EffectFormatError(path: "\(path)[\(i)]", reason: "expected [r, g, b] or [r, g, b, a], got \(got)")
        }
        for (k, c) in color.enumerated() {
          guard case .number(let raw) = c else {
            throw EffectFormatError(path: "\(path)[\(i)][\(k)]", reason: "expected a number, got \(c.kindDescription)")
          }
          xs.append(try number(raw, asFloat: floatLiterals, path: "\(path)[\(i)][\(k)]"))
        }
        if color.count == 3 { xs.append(1) }
      }
      return .vector(xs)
    case (.array(let elements), .vector), (.array(let elements), .numbers):
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
      throw EffectFormatError(path: path + error.indexSuffix, reason: error.reason)
    }
  }
}
