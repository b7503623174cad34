// A behavior encodes as an object of an `emitterBehaviors` list of an effect
// file (docs/effect-format.md, "Emitter behaviors"): `type`, `name`, and the
// keys that differ from the kind's defaults, driven by the kind's table
// (EmitterBehavior+Parameters.swift) as the effect reader and writer are.

extension EmitterBehavior: Codable {
  /// Decodes a behavior object with the keys, value shapes, defaults and
  /// checks of `Effect(json:)`.
  /// - Throws: `DecodingError.dataCorrupted` for a missing, unknown or
  ///   unsupported `type`, an unknown key or an invalid value, described by
  ///   the field's path and a reason naming the behavior
  ///   (`emitterBehaviors[1].frequency: wave 'sway': must be ≥ 0, got -1`);
  ///   the decoder's own errors for wrong types.
  /// - Complexity: O(keys + values).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: EffectCodingKey.self)
    let typeKey: EffectCodingKey = "type"
    guard let type = try container.decodeIfPresent(String.self, forKey: typeKey) else {
      throw DecodingError.invalidField(
        at: container.codingPath + [typeKey], EmitterBehavior.missingTypeReason)
    }
    let kind: Kind
    switch EmitterBehavior.kind(forType: type) {
    case .success(let k): kind = k
    case .failure(let problem): throw DecodingError.invalidField(at: container.codingPath + [typeKey], problem.reason)
    }
    var behavior = kind.template
    if let name = try container.decodeIfPresent(String.self, forKey: "name") {
      behavior.name = name
      if let problem = EmitterBehavior.nameProblem(name) {
        throw DecodingError.invalidField(
          at: container.codingPath + [EffectCodingKey("name")], "\(behavior.label): \(problem)")
      }
    }
    let label = behavior.label
    let known = kind.fileKeys
    if let key = container.allKeys.filter({ !known.contains($0.stringValue) })
      .min(by: { $0.stringValue < $1.stringValue })
    {
      throw DecodingError.invalidField(
        at: container.codingPath + [key], EmitterBehavior.unknownKeyReason(key.stringValue, kind: kind, label: label))
    }
    for d in kind.parameters where !d.isComponent {
      let key = EffectCodingKey(d.name)
      guard container.contains(key) else { continue }
      let value = try container.decodeValue(kind: d.kind, forKey: key, label: "\(label): ")
      do throws(PropertyValueProblem) {
        try d.set(&behavior, value)
      } catch {
        throw DecodingError.invalidField(
          at: container.codingPath + [key] + error.indexKeys, "\(label): \(error.reason)")
      }
    }
    for key in kind.required where !container.contains(EffectCodingKey(key)) {
      throw DecodingError.invalidField(
        at: container.codingPath + [EffectCodingKey(key)], "\(label): required field is missing")
    }
    if let (key, problem) = behavior.crossParameterProblem() {
      throw DecodingError.invalidField(
        at: container.codingPath + [EffectCodingKey(key)] + problem.indexKeys, "\(label): \(problem.reason)")
    }
    self = behavior
  }

  /// Encodes the behavior as `Effect.jsonString()` writes it: `type`,
  /// `name` if any, required keys, then the keys that differ from the
  /// kind's defaults.
  /// - Complexity: O(keys + values).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: EffectCodingKey.self)
    try container.encode(type, forKey: "type")
    try container.encodeIfPresent(name, forKey: "name")
    for (d, value) in writtenParameters {
      try container.encodeValue(value, kind: d.kind, forKey: EffectCodingKey(d.name))
    }
  }

  /// The keys a file writes for the behavior, in table order: the required
  /// ones and those that differ (bit for bit) from the kind's defaults.
  var writtenParameters: [(PropertyDescriptor<EmitterBehavior>, PropertyValue)] {
    let kind = self.kind
    return kind.parameters.compactMap { d in
      guard !d.isComponent else { return nil }
      let value = d.get(self)
      guard kind.required.contains(d.name) || !value.isIdentical(to: d.get(kind.template)) else { return nil }
      return (d, value)
    }
  }

  /// The reason for a behavior object without `type`.
  static var missingTypeReason: String {
    "required field is missing (one of \(types.joined(separator: ", ")))"
  }

  /// The reason for a key the behavior's kind does not have: a suggestion
  /// when one is close, and the kind's keys.
  static func unknownKeyReason(_ key: String, kind: Kind, label: String) -> String {
    var reason = "\(label): unknown key"
    if let near = closestName(to: key, in: kind.fileKeys) { reason += " (did you mean '\(near)'?)" }
    return reason + "; \(kind.type) keys: \(kind.fileKeys.joined(separator: ", "))"
  }
}
