// `Codable` for the definitions is driven by the same property tables as the
// effect-file reader and writer (Emitter+Properties.swift), so both accept the
// same keys and values, apply the same checks and write the same shapes.

/// A coding key made from any string or index: effect-file keys come from the
/// property tables rather than a fixed enum, and a container keyed by it lists
/// every key present, which is how unknown keys are found and rejected.
struct EffectCodingKey: CodingKey, Hashable, Sendable, ExpressibleByStringLiteral {
  let stringValue: String
  let intValue: Int?

  init(_ string: String) {
    stringValue = string
    intValue = nil
  }

  init(stringValue: String) { self.init(stringValue) }

  init(stringLiteral value: String) { self.init(value) }

  init(intValue: Int) {
    stringValue = String(intValue)
    self.intValue = intValue
  }
}

/// A coding path as effect-file errors write paths: `emitterCells[0].birthRate`
/// (keys joined by '.', array indices in brackets).
func effectPath(_ codingPath: [any CodingKey]) -> String {
  var path = ""
  for key in codingPath {
    if let i = key.intValue {
      path += "[\(i)]"
    } else {
      path += path.isEmpty ? key.stringValue : "." + key.stringValue
    }
  }
  return path
}

extension DecodingError {
  /// A value that decodes but breaks a rule of the format: `dataCorrupted` at
  /// `codingPath`, described as `Effect(json:)` describes it
  /// (`emitterCells[0].birthRate: must be ≥ 0, got -3`).
  static func invalidField(at codingPath: [any CodingKey], _ reason: String) -> DecodingError {
    .dataCorrupted(Context(codingPath: codingPath, debugDescription: "\(effectPath(codingPath)): \(reason)"))
  }

  /// An error of one of the effect reader's checks, which was given the JSON
  /// path `prefix` for the value at `codingPath`. The rest of the error's path
  /// (field names and indices the check appended, such as `.bindings[0].keyPath`)
  /// becomes coding keys; the user-given names stay inside `prefix`, never parsed.
  static func invalidField(
    _ error: EffectFormatError, below codingPath: [any CodingKey], checkedAs prefix: String
  ) -> DecodingError {
    var keys = codingPath
    if error.path.hasPrefix(prefix) {
      var rest = Substring(error.path.dropFirst(prefix.count))
      while let first = rest.first {
        if first == "[", let close = rest.firstIndex(of: "]"),
          let i = Int(rest[rest.index(after: rest.startIndex)..<close])
        {
          keys.append(EffectCodingKey(intValue: i))
          rest = rest[rest.index(after: close)...]
        } else {
          if first == "." { rest = rest.dropFirst() }
          let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
          keys.append(EffectCodingKey(String(rest[..<end])))
          rest = rest[end...]
        }
      }
    }
    return invalidField(at: keys, error.reason)
  }
}

extension KeyedEncodingContainer where K == EffectCodingKey {
  /// Encodes every property of `root` that differs (bit for bit, so −0 is
  /// kept) from its value in `base`, in the shape effect files use: `Float`
  /// and `Double` numbers, `seed` as an integer, names as strings, vectors as
  /// arrays of `Float`s. Properties left out decode to Apple's defaults.
  /// - Complexity: O(properties).
  mutating func encodeProperties<Root>(
    of root: Root, unlessEqualTo base: Root, table: [PropertyDescriptor<Root>]
  ) throws {
    for d in table where !d.isComponent {
      let value = d.get(root)
      guard !value.isIdentical(to: d.get(base)) else { continue }
      try encodeValue(value, kind: d.kind, forKey: EffectCodingKey(d.name))
    }
  }

  /// Encodes a property's value in the shape effect files use for its kind.
  mutating func encodeValue(_ value: PropertyValue, kind: PropertyKind, forKey key: EffectCodingKey) throws {
    switch (kind, value) {
    case (.float, .number(let x)): try encode(Float(x), forKey: key)
    case (.uint32, .number(let x)): try encode(UInt32(x), forKey: key)
    case (.vector, .vector(let xs)), (.numbers, .vector(let xs)): try encode(xs.map { Float($0) }, forKey: key)
    case (.colors, .vector(let xs)):
      try encode(
        stride(from: 0, to: xs.count, by: 4).map { i in xs[i..<min(i + 4, xs.count)].map { Float($0) } }, forKey: key)
    default: try encode(value, forKey: key)
    }
  }

  /// Encodes `behaviors` under `emitterBehaviors` unless there are none.
  mutating func encodeBehaviors(_ behaviors: [EmitterBehavior]) throws {
    if !behaviors.isEmpty { try encode(behaviors, forKey: "emitterBehaviors") }
  }

  /// Encodes `cells` under `emitterCells` unless there are none.
  mutating func encodeCells(_ cells: [EmitterCell]) throws {
    if !cells.isEmpty { try encode(cells, forKey: "emitterCells") }
  }
}

extension KeyedDecodingContainer where K == EffectCodingKey {
  /// Rejects the first key (in name order, so the error does not depend on
  /// the decoder's key order) that is not in `known`, as effect files do:
  /// `emitterCells[0].velocty: unknown key (did you mean 'velocity'?)`.
  func rejectUnknownKeys(known: [String]) throws {
    let unknown = allKeys.filter { !known.contains($0.stringValue) }
    guard let key = unknown.min(by: { $0.stringValue < $1.stringValue }) else { return }
    let error = EffectDecoder.unknownKey(key.stringValue, path: "", known: known)
    throw DecodingError.invalidField(at: codingPath + [key], error.reason)
  }

  /// Sets every property of `root` present in the container through its
  /// descriptor, which checks it as the effect reader does. `Float`
  /// properties are decoded as `Float`, so a decoder that parses the literal
  /// straight to `Float` (as `JSONDecoder` does) rounds once, like the reader.
  /// - Complexity: O(properties).
  func decodeProperties<Root>(into root: inout Root, table: [PropertyDescriptor<Root>]) throws {
    for d in table where !d.isComponent {
      let key = EffectCodingKey(d.name)
      guard contains(key) else { continue }
      let value = try decodeValue(kind: d.kind, forKey: key)
      do throws(PropertyValueProblem) {
        try d.set(&root, value)
      } catch {
        throw DecodingError.invalidField(at: codingPath + [key] + error.indexKeys, error.reason)
      }
    }
  }

  /// The value under `key` in the shape effect files use for `kind`:
  /// `Float` properties decoded as `Float` (see ``decodeProperties(into:table:)``),
  /// a colour list's [r, g, b] completed with alpha 1.
  /// - Parameter label: what to put before a colour's reason (a behavior's label and ": ").
  func decodeValue(kind: PropertyKind, forKey key: EffectCodingKey, label: String = "") throws -> PropertyValue {
    switch kind {
    case .float: return .number(Double(try decode(Float.self, forKey: key)))
    case .double, .uint32: return .number(try decode(Double.self, forKey: key))
    case .bool: return .bool(try decode(Bool.self, forKey: key))
    case .name, .sprite: return .string(try decode(String.self, forKey: key))
    case .vector, .numbers: return .vector(try decode([Float].self, forKey: key).map { Double($0) })
    case .colors:
      var flat: [Double] = []
      for (i, color) in try decode([[Float]].self, forKey: key).enumerated() {
        guard (3...4).contains(color.count) else {
          throw DecodingError.invalidField(
            at: codingPath + [key, EffectCodingKey(intValue: i)],
            label + "expected [r, g, b] or [r, g, b, a], got \(color.count) numbers")
        }
        flat += (color.count == 4 ? color : color + [1]).map { Double($0) }
      }
      return .vector(flat)
    }
  }

  /// The behaviors under `emitterBehaviors` (none when absent), checked as
  /// a list (unique names) as the effect reader checks them.
  func decodeBehaviors() throws -> [EmitterBehavior] {
    let key: EffectCodingKey = "emitterBehaviors"
    guard let behaviors = try decodeIfPresent([EmitterBehavior].self, forKey: key) else { return [] }
    do throws(BehaviorProblem) {
      try EmitterBehavior.check(behaviors)
    } catch {
      throw DecodingError.invalidField(at: codingPath + error.codingKeys, error.reason)
    }
    return behaviors
  }

  /// The cells under `emitterCells` (none when absent), with unique sibling names.
  func decodeCells() throws -> [EmitterCell] {
    let key: EffectCodingKey = "emitterCells"
    guard let cells = try decodeIfPresent([EmitterCell].self, forKey: key) else { return [] }
    let path = effectPath(codingPath + [key])
    do throws(EffectFormatError) {
      try EffectDecoder.checkUniqueNames(cells, path: path)
    } catch {
      throw DecodingError.invalidField(error, below: codingPath + [key], checkedAs: path)
    }
    return cells
  }
}
