// An emitter encodes as the layer part of an effect file (docs/effect-format.md):
// the layer properties that differ from Apple's defaults, `emitterBehaviors`
// and `emitterCells`.

extension Emitter: Codable {
  /// The keys of an emitter object: the layer properties, `emitterBehaviors`
  /// and `emitterCells`.
  static let codingKeys = ["emitterBehaviors", "emitterCells"] + EffectDecoder.propertyKeys(propertyDescriptors)

  /// Decodes an emitter object with the keys, value shapes, defaults and
  /// checks of `Effect(json:)` (an effect file without `format`, `summary`,
  /// `parameters` and `changes`).
  /// - Throws: `DecodingError.dataCorrupted` for an unknown key or an invalid
  ///   value, described by the field's path and the reason
  ///   (`emitterSize[1]: must be ≥ 0, got -1`); the decoder's own errors for
  ///   wrong types.
  /// - Complexity: O(properties × cells).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: EffectCodingKey.self)
    try container.rejectUnknownKeys(known: Emitter.codingKeys)
    try self.init(decodingPropertiesFrom: container)
  }

  /// Reads the layer properties and cells from a container that may hold
  /// other keys too (an effect's top level); unknown keys are the caller's.
  init(decodingPropertiesFrom container: KeyedDecodingContainer<EffectCodingKey>) throws {
    self.init(emitterCells: try container.decodeCells())
    try container.decodeProperties(into: &self, table: Emitter.propertyDescriptors)
    emitterBehaviors = try container.decodeBehaviors()
  }

  /// Encodes the emitter as `Effect.jsonString()` writes its layer part.
  /// - Complexity: O(properties × cells).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: EffectCodingKey.self)
    try encodeProperties(to: &container)
  }

  /// Writes the layer properties that differ from the defaults, then the cells.
  func encodeProperties(to container: inout KeyedEncodingContainer<EffectCodingKey>) throws {
    try container.encodeProperties(of: self, unlessEqualTo: Emitter(), table: Emitter.propertyDescriptors)
    try container.encodeBehaviors(emitterBehaviors)
    try container.encodeCells(emitterCells)
  }
}

/// Decodes one of a fixed list of names as the effect reader does, with the
/// same message: `expected one of point, line, …, got 'lines' (did you mean 'line'?)`.
func decodeName<Name: RawRepresentable & CaseIterable>(from decoder: any Decoder) throws -> Name
where Name.RawValue == String {
  let text = try decoder.singleValueContainer().decode(String.self)
  guard let value = Name(rawValue: text) else {
    throw DecodingError.invalidField(at: decoder.codingPath, unknownName(text, expected: Name.allCases.map(\.rawValue)))
  }
  return value
}

// The enums encode as their Core Animation names (the raw values).

extension EmitterShape: Codable {
  public init(from decoder: any Decoder) throws { self = try decodeName(from: decoder) }
}

extension EmitterMode: Codable {
  public init(from decoder: any Decoder) throws { self = try decodeName(from: decoder) }
}

extension RenderMode: Codable {
  public init(from decoder: any Decoder) throws { self = try decodeName(from: decoder) }
}
