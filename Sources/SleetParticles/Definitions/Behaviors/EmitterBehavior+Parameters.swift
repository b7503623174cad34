import SleetMath

// The keys of each behavior kind as effect files, key paths and validation
// name them (Core Animation's key names): one table per kind, so the reader,
// the writer, `Codable`, key paths and `Emitter.validate()` accept the same
// keys and values and reject the same ones with the same words
// (docs/effect-format.md, "Emitter behaviors").

extension EmitterBehavior {
  /// One behavior kind: its type name, a behavior with every default, and
  /// the descriptors of its keys.
  struct Kind: Sendable {
    /// `wave`, `drag`, … (``EmitterBehavior/type``).
    let type: String
    /// The behavior with every optional key at its default; required keys
    /// (``required``) hold placeholders a file must replace.
    let template: EmitterBehavior
    /// Every key but `type` and `name`, in the order effect files list
    /// them; vector keys are followed by their components (`force.x`).
    let parameters: [PropertyDescriptor<EmitterBehavior>]
    /// Keys without a default, which a file must give.
    let required: [String]
    let parametersByName: [String: PropertyDescriptor<EmitterBehavior>]

    init(
      type: String, template: EmitterBehavior, required: [String] = [],
      parameters: [PropertyDescriptor<EmitterBehavior>]
    ) {
      self.type = type
      self.template = template
      self.required = required
      self.parameters = parameters
      self.parametersByName = Dictionary(uniqueKeysWithValues: parameters.map { ($0.name, $0) })
    }

    /// The keys an effect file may give for this kind.
    var fileKeys: [String] { ["type", "name"] + parameters.filter { !$0.isComponent }.map(\.name) }

    /// The keys a key path may name (`emitterBehaviors.NAME.KEY`): every
    /// key and component but a colour list.
    var keyPathKeys: [String] { parameters.filter { $0.kind != .colors }.map(\.name) }
  }

  /// Every kind SleetKit simulates, in ``types`` order.
  static let kinds: [Kind] = [
    lift(
      "wave", WaveBehavior(), { if case .wave(let b) = $0 { b } else { nil } }, { .wave($0) },
      { () -> [PropertyDescriptor<WaveBehavior>] in
        typealias D = PropertyDescriptor<WaveBehavior>
        return [.bool("enabled", \.isEnabled)]
          + D.vector("force", \.force, components: ["x", "y", "z"], acceptsCount: 2...3)
          + [.float("frequency", \.frequency, .nonNegative)]
      }()),
    lift(
      "drag", DragBehavior(), { if case .drag(let b) = $0 { b } else { nil } }, { .drag($0) },
      [.bool("enabled", \.isEnabled), .float("drag", \.drag, .nonNegative)]),
    lift(
      "attractor", AttractorBehavior(), { if case .attractor(let b) = $0 { b } else { nil } }, { .attractor($0) },
      { () -> [PropertyDescriptor<AttractorBehavior>] in
        typealias D = PropertyDescriptor<AttractorBehavior>
        var all: [D] = [
          .bool("enabled", \.isEnabled), .choice("attractorType", \.attractorType),
          .float("stiffness", \.stiffness), .float("radius", \.radius, .nonNegative),
        ]
        all += D.vector("position", \.position, components: ["x", "y"])
        all += [
          .float("zPosition", \.zPosition), .float("orientationLatitude", \.orientationLatitude),
          .float("orientationLongitude", \.orientationLongitude), .float("falloff", \.falloff),
          .float("falloffDistance", \.falloffDistance, .nonNegative),
        ]
        return all
      }()),
    lift(
      "simpleAttractor", SimpleAttractorBehavior(), { if case .simpleAttractor(let b) = $0 { b } else { nil } },
      { .simpleAttractor($0) },
      { () -> [PropertyDescriptor<SimpleAttractorBehavior>] in
        typealias D = PropertyDescriptor<SimpleAttractorBehavior>
        var all: [D] = [
          .bool("enabled", \.isEnabled), .float("stiffness", \.stiffness),
          .float("radius", \.radius, .nonNegative),
        ]
        all += D.vector("position", \.position, components: ["x", "y"])
        all.append(.float("falloff", \.falloff))
        return all
      }()),
    lift(
      "valueOverLife", ValueOverLifeBehavior(keyPath: .scale, values: []),
      { if case .valueOverLife(let b) = $0 { b } else { nil } }, { .valueOverLife($0) },
      [
        .bool("enabled", \.isEnabled), .choice("keyPath", \.keyPath),
        .numbers("values", get: { $0.values }, set: { $0.values = $1 }, rule: nonEmpty("value")),
        .locations(get: { $0.locations }, set: { $0.locations = $1 }),
        .bool("additive", \.isAdditive),
      ], required: ["keyPath", "values"]),
    lift(
      "colorOverLife", ColorOverLifeBehavior(colors: []), { if case .colorOverLife(let b) = $0 { b } else { nil } },
      { .colorOverLife($0) },
      [
        .bool("enabled", \.isEnabled), .colors("colors", \.colors),
        .locations(get: { $0.locations }, set: { $0.locations = $1 }),
      ], required: ["colors"]),
    lift(
      "alignToMotion", AlignToMotionBehavior(), { if case .alignToMotion(let b) = $0 { b } else { nil } },
      { .alignToMotion($0) },
      [
        .bool("enabled", \.isEnabled), .float("rotation", \.rotation), .bool("preservesDepth", \.preservesDepth),
      ]),
  ]

  /// The kind of value of every key a key path can name, over all kinds
  /// (a key means the same in every kind that has it: `stiffness` is a
  /// number in both attractors).
  static let keyPathKinds: [String: PropertyKind] = Dictionary(
    kinds.flatMap { kind in kind.parameters.filter { $0.kind != .colors }.map { ($0.name, $0.kind) } },
    uniquingKeysWith: { first, _ in first })

  static let kindsByType: [String: Kind] = Dictionary(uniqueKeysWithValues: kinds.map { ($0.type, $0) })

  /// The kind's keys, types and rules.
  var kind: Kind {
    // Safe: every case's `type` is in `kinds`.
    Self.kindsByType[type]!
  }

  /// A kind whose descriptors are written against its own struct `B`, lifted
  /// to `EmitterBehavior`.
  private static func lift<B: Sendable>(
    _ type: String, _ template: B, _ extract: @escaping @Sendable (EmitterBehavior) -> B?,
    _ embed: @escaping @Sendable (B) -> EmitterBehavior, _ table: [PropertyDescriptor<B>], required: [String] = []
  ) -> Kind {
    let parameters = table.map { d in
      PropertyDescriptor<EmitterBehavior>(
        name: d.name, kind: d.kind, isComponent: d.isComponent,
        // Safe: a kind's descriptors are only used on behaviors of that kind (`EmitterBehavior.kind`).
        get: { d.get(extract($0)!) },
        set: { (root: inout EmitterBehavior, value: PropertyValue) throws(PropertyValueProblem) in
          var b = extract(root)!
          try d.set(&b, value)
          root = embed(b)
        })
    }
    return Kind(type: type, template: embed(template), required: required, parameters: parameters)
  }

  /// A rule that a list must not be empty: "must have at least one value".
  private static func nonEmpty(_ what: String) -> @Sendable ([Float]) -> PropertyValueProblem? {
    { $0.isEmpty ? PropertyValueProblem(reason: "must have at least one \(what)") : nil }
  }

  /// Core Animation's other behavior types, which SleetKit does not
  /// simulate, and why (the reason an effect file naming one is refused with).
  static let unsupportedTypes = [
    "light":
      "is not supported: SleetKit draws unlit sprites (it has no lighting model), so a light would have no effect"
  ]

  /// The kind named `type`, or the reason there is none: an unsupported
  /// type (`light`) or an unknown one, with a suggestion when one is close.
  static func kind(forType type: String) -> Result<Kind, PropertyValueProblem> {
    if let kind = kindsByType[type] { return .success(kind) }
    if let why = unsupportedTypes[type] { return .failure(PropertyValueProblem(reason: "'\(type)' \(why)")) }
    return .failure(PropertyValueProblem(reason: "unknown behavior type: " + unknownName(type, expected: types)))
  }

  /// How messages name the behavior: `wave 'sway'`, or `unnamed wave`.
  var label: String { name.map { "\(type) '\($0)'" } ?? "unnamed \(type)" }

  /// Why `name` cannot name a behavior in key paths, or nil.
  static func nameProblem(_ name: String) -> String? {
    if name.isEmpty { return "a behavior name must not be empty" }
    if name.contains(".") { return "a behavior name must not contain '.', got '\(name)'" }
    return nil
  }

  /// Why the behavior breaks a rule that spans two keys, or nil: the key to
  /// blame and the problem. One location per value or colour; a keyed mass
  /// must be > 0 (additive too, so that every particle's mass stays
  /// positive).
  /// - Complexity: O(values).
  func crossParameterProblem() -> (key: String, problem: PropertyValueProblem)? {
    func countProblem(_ locations: [Float]?, _ count: Int, _ what: String) -> (String, PropertyValueProblem)? {
      guard let locations, locations.count != count else { return nil }
      return (
        "locations",
        PropertyValueProblem(reason: "expected one location per \(what) (\(count)), got \(locations.count)")
      )
    }
    switch self {
    case .valueOverLife(let b):
      if let problem = countProblem(b.locations, b.values.count, "value") { return problem }
      if b.keyPath == .mass, let i = b.values.firstIndex(where: { !($0 > 0) }) {
        return (
          "values",
          PropertyValueProblem(
            reason: "a mass must be > 0, got \(formatNumber(Double(b.values[i])))", elementIndex: i)
        )
      }
      return nil
    case .colorOverLife(let b):
      return countProblem(b.locations, b.colors.count, "colour")
    case .wave, .drag, .attractor, .simpleAttractor, .alignToMotion:
      return nil
    }
  }

  /// Checks one behavior as an effect file is checked: its name, every key
  /// through its descriptor, then the rules across keys.
  /// - Returns: the key to blame (nil for none) and the problem, or nil.
  func problem() -> (key: String, problem: PropertyValueProblem)? {
    if let name, let reason = Self.nameProblem(name) { return ("name", PropertyValueProblem(reason: reason)) }
    for d in kind.parameters where !d.isComponent {
      var probe = self
      do throws(PropertyValueProblem) {
        try d.set(&probe, d.get(self))
      } catch {
        return (d.name, error)
      }
    }
    return crossParameterProblem()
  }

  /// Checks a list of behaviors (the layer's or one cell's): each behavior
  /// (``problem()``), then that no two share a name, since key paths select
  /// a behavior by name.
  /// - Complexity: O(behaviors × keys + values).
  static func check(_ behaviors: [EmitterBehavior]) throws(BehaviorProblem) {
    var firstIndex: [String: Int] = [:]
    for (i, b) in behaviors.enumerated() {
      if let (key, problem) = b.problem() {
        throw BehaviorProblem(index: i, key: key, problem: problem, label: b.label)
      }
      guard let name = b.name else { continue }
      if let j = firstIndex[name] {
        throw BehaviorProblem(
          index: i, key: "name",
          problem: PropertyValueProblem(
            reason: "duplicate behavior name '\(name)' (already used by emitterBehaviors[\(j)]); "
              + "key paths need unique names"),
          label: b.label)
      }
      firstIndex[name] = i
    }
  }
}

/// What is wrong with one behavior of a list, without saying whose list: the
/// validator prefixes a key path, the readers a JSON path. Described as
/// `emitterBehaviors[1].frequency: wave 'sway': must be ≥ 0, got -1`.
struct BehaviorProblem: Error, Hashable, Sendable {
  /// The behavior's index in its list.
  var index: Int
  /// The key to blame (`frequency`, `values`), or nil for the behavior.
  var key: String?
  var problem: PropertyValueProblem
  /// The behavior as messages name it (``EmitterBehavior/label``).
  var label: String

  /// The path below the list's owner: `emitterBehaviors[1].values[2]`.
  var path: String {
    "emitterBehaviors[\(index)]" + (key.map { ".\($0)" } ?? "") + problem.indexSuffix
  }

  /// The reason, naming the behavior: `wave 'sway': must be ≥ 0, got -1`.
  var reason: String { "\(label): \(problem.reason)" }

  /// The coding keys of ``path``.
  var codingKeys: [EffectCodingKey] {
    [EffectCodingKey("emitterBehaviors"), EffectCodingKey(intValue: index)]
      + (key.map { [EffectCodingKey($0)] } ?? []) + problem.indexKeys
  }
}

// MARK: - List descriptors

extension PropertyDescriptor {
  /// A list of numbers of any length, each finite and a `Float`, then
  /// checked as a whole by `rule`.
  static func numbers(
    _ name: String, get: @escaping @Sendable (Root) -> [Float],
    set: @escaping @Sendable (inout Root, [Float]) -> Void,
    rule: @escaping @Sendable ([Float]) -> PropertyValueProblem? = { _ in nil }
  ) -> Self {
    Self(
      name: name, kind: .numbers, isComponent: false,
      get: { .vector(get($0).map { Double($0) }) },
      set: { (root: inout Root, value: PropertyValue) throws(PropertyValueProblem) in
        guard case .vector(let xs) = value else {
          throw PropertyValueProblem(reason: "expected an array of numbers, got \(value.kindDescription)")
        }
        var fs: [Float] = []
        fs.reserveCapacity(xs.count)
        for (i, x) in xs.enumerated() {
          do throws(PropertyValueProblem) {
            fs.append(try PropertyValue.number(x).floatValue(.any))
          } catch {
            throw PropertyValueProblem(reason: error.reason, elementIndex: i)
          }
        }
        if let problem = rule(fs) { throw problem }
        set(&root, fs)
      })
  }

  /// `locations`: where each value or colour is keyed, each in [0, 1] and
  /// increasing; an empty list (and nil) spaces them evenly.
  static func locations(
    get: @escaping @Sendable (Root) -> [Float]?, set: @escaping @Sendable (inout Root, [Float]?) -> Void
  ) -> Self {
    numbers(
      "locations", get: { get($0) ?? [] }, set: { set(&$0, $1.isEmpty ? nil : $1) },
      rule: { xs in
        for (i, x) in xs.enumerated() {
          if let v = ValueConstraint.unitInterval.violation(Double(x)) {
            return PropertyValueProblem(reason: v, elementIndex: i)
          }
          if i > 0, !(x > xs[i - 1]) {
            return PropertyValueProblem(
              reason: "must be > the location before it (\(formatNumber(Double(xs[i - 1])))), "
                + "got \(formatNumber(Double(x))); locations increase",
              elementIndex: i)
          }
        }
        return nil
      })
  }

  /// A list of colours, at least one, each component in [0, 1]; held flat,
  /// four components per colour.
  static func colors(_ name: String, _ keyPath: WritableKeyPath<Root, [ColorRGBA]> & Sendable) -> Self {
    Self(
      name: name, kind: .colors, isComponent: false,
      get: { .vector($0[keyPath: keyPath].flatMap { c in [c.red, c.green, c.blue, c.alpha].map { Double($0) } }) },
      set: { (root: inout Root, value: PropertyValue) throws(PropertyValueProblem) in
        guard case .vector(let xs) = value, xs.count % 4 == 0 else {
          throw PropertyValueProblem(reason: "expected \(PropertyKind.colors.expectation)")
        }
        guard !xs.isEmpty else { throw PropertyValueProblem(reason: "must have at least one colour") }
        var colors: [ColorRGBA] = []
        for i in stride(from: 0, to: xs.count, by: 4) {
          var v = SIMD4<Float>()
          for k in 0..<4 {
            do throws(PropertyValueProblem) {
              v[k] = try PropertyValue.number(xs[i + k]).floatValue(.unitInterval)
            } catch {
              throw PropertyValueProblem(reason: error.reason, componentIndex: k, elementIndex: i / 4)
            }
          }
          colors.append(ColorRGBA(v))
        }
        root[keyPath: keyPath] = colors
      })
  }
}
