// A cell encodes as a cell object of an effect file (docs/effect-format.md):
// `name`, the properties that differ from Apple's defaults, `emitterBehaviors`,
// `emitterCells`.

extension EmitterCell: Codable {
  /// The keys of a cell object: `name`, `emitterBehaviors`, `emitterCells`, the properties.
  static let codingKeys = EffectDecoder.cellKeys + EffectDecoder.propertyKeys(propertyDescriptors)

  /// Decodes a cell object with the keys, value shapes, defaults and checks
  /// of `Effect(json:)`.
  /// - Throws: `DecodingError.dataCorrupted` for an unknown key or an invalid
  ///   value, described by the field's path and the reason
  ///   (`emitterCells[0].birthRate: must be ≥ 0, got -3`); the decoder's own
  ///   errors for wrong types.
  /// - Complexity: O(properties × cells in the subtree).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: EffectCodingKey.self)
    try container.rejectUnknownKeys(known: EmitterCell.codingKeys)
    self.init(name: try container.decodeIfPresent(String.self, forKey: "name"))
    if let name, let problem = EmitterCell.nameProblem(name) {
      throw DecodingError.invalidField(at: container.codingPath + [EffectCodingKey("name")], problem)
    }
    try container.decodeProperties(into: &self, table: EmitterCell.propertyDescriptors)
    if let problem = crossPropertyProblem() {
      throw DecodingError.invalidField(at: container.codingPath + [EffectCodingKey(problem.key)], problem.reason)
    }
    emitterBehaviors = try container.decodeBehaviors()
    emitterCells = try container.decodeCells()
  }

  /// Encodes the cell as `Effect.jsonString()` writes it: `name` if any, the
  /// properties that differ from the defaults, sub-cells if any.
  /// - Complexity: O(properties × cells in the subtree).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: EffectCodingKey.self)
    try container.encodeIfPresent(name, forKey: "name")
    try container.encodeProperties(of: self, unlessEqualTo: EmitterCell(), table: EmitterCell.propertyDescriptors)
    try container.encodeBehaviors(emitterBehaviors)
    try container.encodeCells(emitterCells)
  }
}

extension SpriteReference: Codable {
  /// Decodes a sprite name as `contents` takes it: a built-in sprite or a
  /// `.png` path.
  /// - Throws: `DecodingError.dataCorrupted` naming the field for an empty
  ///   or unknown name.
  public init(from decoder: any Decoder) throws {
    let name = try decoder.singleValueContainer().decode(String.self)
    // The `contents` descriptor holds the rule (safe: the table has it); "" means no sprite there.
    var probe = EmitterCell()
    do throws(PropertyValueProblem) {
      try EmitterCell.propertiesByName["contents"]!.set(&probe, .string(name))
    } catch {
      throw DecodingError.invalidField(at: decoder.codingPath, error.reason)
    }
    guard let sprite = probe.contents else {
      throw DecodingError.invalidField(at: decoder.codingPath, "a sprite name must not be empty")
    }
    self = sprite
  }

  /// Encodes the sprite as its name.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(name)
  }
}
