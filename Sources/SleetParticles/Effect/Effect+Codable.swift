// `Codable` in the shape of effect files (format 1, docs/effect-format.md):
// `JSONEncoder` output is an effect file `Effect(json:)` reads back, and
// `JSONDecoder` reads an effect file to the same `Effect` as `Effect(json:)`,
// with the same checks. What the Codable model cannot see: duplicate keys
// (decoders keep one), member order (see `Effect.parameters`) and a number's
// literal. So this is a second walk over the input beside `EffectDecoder`,
// not a second set of rules: the keys, the checks, the suggestions and the
// messages are `EffectDecoder`'s and the property descriptors'. Only what
// the decoder itself reports differs (a wrong type is its `typeMismatch`),
// and the first error of a document with several is the first in this
// walk's fixed order (format, unknown keys, summary, cells, properties,
// parameters by name, changes), not in the document's.

extension Effect: Codable {
  /// Decodes an effect document: `format` (required, 1), `summary`,
  /// `parameters`, the layer properties, `emitterCells` and `changes`, every
  /// one but `format` defaulting as in `Effect(json:)`; parameters and
  /// changes are checked against the emitter as the effect reader checks them.
  /// - Throws: `DecodingError.keyNotFound` without `format`;
  ///   `DecodingError.dataCorrupted` for an unknown key, an unsupported
  ///   version or an invalid value, described by the field's path and the
  ///   reason (`changes[0].keyPath: 'emitterCells.snw.birthRate': no cell named 'snw' …`);
  ///   the decoder's own errors for wrong types and missing required fields.
  /// - Complexity: O(properties × cells + changes × (log changes + depth)
  ///   + bindings × depth).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: EffectCodingKey.self)
    let formatKey: EffectCodingKey = "format"
    guard container.contains(formatKey) else {
      let path = container.codingPath + [formatKey]
      throw DecodingError.keyNotFound(
        formatKey,
        .init(
          codingPath: container.codingPath,
          debugDescription: "\(effectPath(path)): required field is missing (write \"format\": 1)"))
    }
    let version = try container.decode(Int.self, forKey: formatKey)
    guard version == Effect.formatVersion else {
      throw DecodingError.invalidField(
        at: container.codingPath + [formatKey],
        "unsupported version \(version) (this reader knows \(Effect.formatVersion))")
    }
    try container.rejectUnknownKeys(
      known: EffectDecoder.topLevelKeys + EffectDecoder.propertyKeys(Emitter.propertyDescriptors))

    let summary = try container.decodeIfPresent(String.self, forKey: "summary")
    let emitter = try Emitter(decodingPropertiesFrom: container)
    let parameters = try Effect.decodeParameters(from: container, emitter: emitter)
    let changes = try container.decodeIfPresent([PropertyChange].self, forKey: "changes") ?? []
    // The shared checks, as in `Effect(json:)`: the cell limit, then the changes.
    do throws(EffectValidationError) {
      try Effect.validateDefinition(emitter, includingSprites: true)
      try self.init(emitter: emitter, changes: changes, parameters: parameters, summary: summary)
    } catch {
      throw DecodingError.invalidField(EffectFormatError(error), below: container.codingPath, checkedAs: "")
    }
  }

  /// Encodes the effect as `jsonString()` writes it: `format`, `summary`,
  /// `parameters`, the layer properties that differ from the defaults,
  /// `emitterCells`, `changes` (key order is the encoder's).
  /// - Complexity: O(properties × cells + changes + bindings).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: EffectCodingKey.self)
    try container.encode(Effect.formatVersion, forKey: "format")
    try container.encodeIfPresent(summary, forKey: "summary")
    if !parameters.isEmpty {
      var all = container.nestedContainer(keyedBy: EffectCodingKey.self, forKey: "parameters")
      for parameter in parameters {
        var fields = all.nestedContainer(keyedBy: EffectCodingKey.self, forKey: EffectCodingKey(parameter.name))
        try fields.encode(parameter.value, forKey: "value")
        try fields.encodeIfPresent(parameter.minimum, forKey: "minimum")
        try fields.encodeIfPresent(parameter.maximum, forKey: "maximum")
        try fields.encode(parameter.bindings, forKey: "bindings")
      }
    }
    try emitter.encodeProperties(to: &container)
    if !changes.isEmpty { try container.encode(changes, forKey: "changes") }
  }

  /// The `parameters` object: its members, each checked against `emitter` as
  /// the effect reader checks them. Member order is not seen (and `Effect`
  /// sorts parameters by name); members are read in name order so that the
  /// first error does not depend on the decoder.
  private static func decodeParameters(
    from container: KeyedDecodingContainer<EffectCodingKey>, emitter: Emitter
  ) throws -> [EffectParameter] {
    let key: EffectCodingKey = "parameters"
    guard container.contains(key) else { return [] }
    let all = try container.nestedContainer(keyedBy: EffectCodingKey.self, forKey: key)
    var result: [EffectParameter] = []
    for name in all.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
      let fields = try all.nestedContainer(keyedBy: EffectCodingKey.self, forKey: name)
      try fields.rejectUnknownKeys(known: EffectDecoder.parameterKeys)
      let parameter = EffectParameter(
        name: name.stringValue, value: try fields.decode(Double.self, forKey: "value"),
        minimum: try fields.decodeIfPresent(Double.self, forKey: "minimum"),
        maximum: try fields.decodeIfPresent(Double.self, forKey: "maximum"),
        bindings: try fields.decode([EffectParameter.Binding].self, forKey: "bindings"))
      let path = effectPath(fields.codingPath)
      do throws(EffectFormatError) {
        try EffectDecoder.check(parameter, emitter: emitter, path: path)
      } catch {
        throw DecodingError.invalidField(error, below: fields.codingPath, checkedAs: path)
      }
      result.append(parameter)
    }
    return result
  }
}

extension EffectParameter.Binding: Codable {
  /// Decodes `{"keyPath", "factor", "offset"?}` (`offset` defaults to 0);
  /// the key path is checked against the emitter by `Effect`'s decoder.
  /// - Throws: `DecodingError.dataCorrupted` naming an unknown key.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: EffectCodingKey.self)
    try container.rejectUnknownKeys(known: EffectDecoder.bindingKeys)
    self.init(
      keyPath: try container.decode(String.self, forKey: "keyPath"),
      factor: try container.decode(Double.self, forKey: "factor"),
      offset: try container.decodeIfPresent(Double.self, forKey: "offset") ?? 0)
  }

  /// Encodes the binding as effect files write it (`offset` only when not +0).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: EffectCodingKey.self)
    try container.encode(keyPath, forKey: "keyPath")
    try container.encode(factor, forKey: "factor")
    if offset.bitPattern != 0 { try container.encode(offset, forKey: "offset") }
  }
}

extension PropertyChange: Codable {
  /// Decodes `{"time", "keyPath", "value"}` with the optional animation
  /// fields `duration`, `timingFunction` (a name or [x1, y1, x2, y2]),
  /// `keyTimes` and `values` (`value` may then be left out: it is the last
  /// of `values`): a time ≥ 0, a well-formed key path and a known timing
  /// function; whether the path names an existing cell, the value suits the
  /// property and the animation is allowed is checked by `Effect`'s decoder.
  /// - Throws: `DecodingError.dataCorrupted` naming the field for an unknown
  ///   key, a negative time, a malformed key path or an unknown timing
  ///   function; `keyNotFound` without `value` and `values`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: EffectCodingKey.self)
    try container.rejectUnknownKeys(known: EffectDecoder.changeKeys)
    let time = try container.decode(Double.self, forKey: "time")
    let keyPath = try container.decode(String.self, forKey: "keyPath")
    do throws(EffectFormatError) {
      if let problem = PropertyChange.timeProblem(time) { throw EffectFormatError(path: "time", reason: problem) }
      _ = try EffectDecoder.keyPath(keyPath, emitter: nil, path: "keyPath")
    } catch {
      throw DecodingError.invalidField(error, below: container.codingPath, checkedAs: "")
    }
    let values = try container.decodeIfPresent([PropertyValue].self, forKey: "values") ?? []
    let value: PropertyValue
    if let last = values.last, !container.contains("value") {
      value = last
    } else {
      value = try container.decode(PropertyValue.self, forKey: "value")
    }
    self.init(time: time, keyPath: keyPath, value: value)
    self.values = values
    duration = try container.decodeIfPresent(Double.self, forKey: "duration") ?? 0
    keyTimes = try container.decodeIfPresent([Double].self, forKey: "keyTimes") ?? []
    if container.contains("timingFunction") {
      let given = try container.decode(PropertyValue.self, forKey: "timingFunction")
      switch PropertyChange.timingFunction(given) {
      case .success(let f): timingFunction = f
      case .failure(let problem):
        throw DecodingError.invalidField(
          at: container.codingPath + [EffectCodingKey("timingFunction")] + problem.indexKeys, problem.reason)
      }
    }
  }

  /// Encodes the change as effect files write it (a keyframe animation's
  /// `value` left out, the animation fields only when set).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: EffectCodingKey.self)
    try container.encode(time, forKey: "time")
    try container.encode(keyPath, forKey: "keyPath")
    if values.isEmpty { try container.encode(value, forKey: "value") }
    if duration.bitPattern != 0 { try container.encode(duration, forKey: "duration") }
    if timingFunction != .linear {
      try container.encode(PropertyChange.timingFunctionValue(timingFunction), forKey: "timingFunction")
    }
    if !values.isEmpty || !keyTimes.isEmpty {
      try container.encode(keyTimes, forKey: "keyTimes")
      try container.encode(values, forKey: "values")
    }
  }
}

extension PropertyValue: Codable {
  /// Decodes a number (as `Double`), `true`/`false`, a string or an array of
  /// numbers, whichever the value is; a change's value stays `Double` until
  /// the property converts it, as in effect files.
  /// - Throws: `DecodingError.typeMismatch` for anything else.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    /// The value as `T`, or nil when it is of another type.
    func attempt<T: Decodable>(_: T.Type) throws -> T? {
      do {
        return try container.decode(T.self)
      } catch DecodingError.typeMismatch {
        return nil
      }
    }
    if let b = try attempt(Bool.self) {
      self = .bool(b)
    } else if let x = try attempt(Double.self) {
      self = .number(x)
    } else if let s = try attempt(String.self) {
      self = .string(s)
    } else if let xs = try attempt([Double].self) {
      self = .vector(xs)
    } else {
      throw DecodingError.typeMismatch(
        PropertyValue.self,
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "\(effectPath(decoder.codingPath)): expected a number, true or false, "
            + "a string or an array of numbers"))
    }
  }

  /// Encodes a number as `Double`, a flag, a string or an array of `Double`s.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .number(let x): try container.encode(x)
    case .bool(let b): try container.encode(b)
    case .string(let s): try container.encode(s)
    case .vector(let xs): try container.encode(xs)
    }
  }
}
