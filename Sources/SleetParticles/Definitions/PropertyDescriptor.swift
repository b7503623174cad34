import SleetMath

/// What is wrong with a value for one property, without saying where: the
/// key-path code prefixes the key path, the effect-file reader the JSON path.
struct PropertyValueProblem: Error, Hashable, Sendable {
  var reason: String
  /// For a vector property, the offending component: its index (effect
  /// files say `color[0]`) and name (key paths say `red`).
  var componentIndex: Int? = nil
  var componentName: String? = nil
  /// For a list property (a behavior's `values`, `locations`, `colors`), the
  /// offending element; `componentIndex` then counts within it
  /// (`colors[2][1]`).
  var elementIndex: Int? = nil

  /// The reason as a key-path error states it: "height must be ≥ 0, got -1",
  /// "at index 1: must be between 0 and 1, got 2" (a list's element).
  var keyPathReason: String {
    if let i = elementIndex { return "at index \(i): \(reason)" }
    return componentName.map { "\($0) \(reason)" } ?? reason
  }

  /// The element and component indices as a file path writes them after
  /// the key: `[2][1]`, `[0]` or "".
  var indexSuffix: String {
    (elementIndex.map { "[\($0)]" } ?? "") + (componentIndex.map { "[\($0)]" } ?? "")
  }

  /// The same indices as coding keys.
  var indexKeys: [EffectCodingKey] {
    [elementIndex, componentIndex].compactMap { $0.map { EffectCodingKey(intValue: $0) } }
  }
}

/// A check that every value of a numeric property must pass. Keeping these in
/// one place makes key paths, effect files and the typed API reject the same
/// values with the same words.
enum ValueConstraint: Hashable, Sendable {
  /// Any finite value.
  case any
  /// x ≥ 0 (rates, lifetimes, ranges, sizes, durations).
  case nonNegative
  /// x > 0 (`contentsScale`).
  case positive
  /// 0 ≤ x ≤ 1 (colour components).
  case unitInterval

  func violation(_ x: Double) -> String? {
    switch self {
    case .any: return nil
    case .nonNegative: return x >= 0 ? nil : "must be ≥ 0, got \(formatNumber(x))"
    case .positive: return x > 0 ? nil : "must be > 0, got \(formatNumber(x))"
    case .unitInterval:
      return (0...1).contains(x) ? nil : "must be between 0 and 1, got \(formatNumber(x))"
    }
  }
}

/// How a number is shown in messages and written in effect files: integers
/// without a fraction, other values in the shortest form that reads back to
/// the same `Float` (when the value is one) or `Double`.
func formatNumber(_ x: Double) -> String {
  if x == 0 { return x.sign == .minus ? "-0.0" : "0" }
  if x.isFinite, x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
  let f = Float(x)
  if f.isFinite, Double(f) == x { return f.description }
  return x.description
}

/// The kind of value a property takes.
enum PropertyKind: Hashable, Sendable {
  /// A `Float` property; effect files parse its literal straight to `Float`.
  case float
  case double
  case bool
  case uint32
  /// One of a fixed list of names (`emitterShape`, filters, …).
  case name([String])
  /// A sprite: a built-in name, a `.png` path, or "" for none.
  case sprite
  /// A vector of `Float`s with this many components (colour accepts 3 or 4).
  case vector(Int)
  /// A list of `Float`s of any length (a behavior's `values`, `locations`),
  /// held as `PropertyValue.vector`.
  case numbers
  /// A list of colours (`colorOverLife`'s `colors`), each [r, g, b] or
  /// [r, g, b, a] in a file; held flat as `PropertyValue.vector`, four
  /// components per colour. Key paths do not reach it.
  case colors

  /// What a value of this kind looks like, for "expected …" messages.
  var expectation: String {
    switch self {
    case .float, .double: "a number"
    case .bool: "true or false"
    case .uint32: "an integer from 0 to 4294967295"
    case .name, .sprite: "a string"
    case .vector(let n): "an array of \(n) numbers"
    case .numbers: "an array of numbers"
    case .colors: "an array of colours ([r, g, b] or [r, g, b, a])"
    }
  }

  /// Whether a parameter binding can drive the property (a plain number).
  var isScalarNumber: Bool { self == .float || self == .double }
}

/// One property of an `Emitter` or `EmitterCell`, as key paths and effect
/// files see it: its Core Animation name, the kind of value it takes, and how
/// to read and (checking the value) write it.
struct PropertyDescriptor<Root>: Sendable {
  typealias Kind = PropertyKind

  /// The key: `birthRate`, `emitterSize.width`, `color.red`.
  let name: String
  let kind: Kind
  /// Whether this is a component of a vector property (`emitterPosition.x`):
  /// settable by key path, but not a key of its own in effect files.
  let isComponent: Bool
  let get: @Sendable (Root) -> PropertyValue
  let set: @Sendable (inout Root, PropertyValue) throws(PropertyValueProblem) -> Void
}

extension PropertyDescriptor {
  static func float(
    _ name: String, _ keyPath: WritableKeyPath<Root, Float> & Sendable,
    _ constraint: ValueConstraint = .any, component: Bool = false
  ) -> Self {
    Self(
      name: name, kind: .float, isComponent: component,
      get: { .number(Double($0[keyPath: keyPath])) },
      set: { (root: inout Root, value: PropertyValue) throws(PropertyValueProblem) in
        root[keyPath: keyPath] = try value.floatValue(constraint)
      })
  }

  static func double(
    _ name: String, _ keyPath: WritableKeyPath<Root, Double> & Sendable,
    _ constraint: ValueConstraint = .any
  ) -> Self {
    Self(
      name: name, kind: .double, isComponent: false,
      get: { .number($0[keyPath: keyPath]) },
      set: { (root: inout Root, value: PropertyValue) throws(PropertyValueProblem) in
        let x = try value.finiteNumber()
        if let v = constraint.violation(x) { throw PropertyValueProblem(reason: v) }
        root[keyPath: keyPath] = x
      })
  }

  static func bool(_ name: String, _ keyPath: WritableKeyPath<Root, Bool> & Sendable) -> Self {
    Self(
      name: name, kind: .bool, isComponent: false,
      get: { .bool($0[keyPath: keyPath]) },
      set: { (root: inout Root, value: PropertyValue) throws(PropertyValueProblem) in
        guard case .bool(let b) = value else {
          throw PropertyValueProblem(reason: "expected true or false, got \(value.kindDescription)")
        }
        root[keyPath: keyPath] = b
      })
  }

  static func choice<E: RawRepresentable & CaseIterable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<Root, E> & Sendable
  ) -> Self where E.RawValue == String {
    let names = E.allCases.map(\.rawValue)
    return Self(
      name: name, kind: .name(names), isComponent: false,
      get: { .string($0[keyPath: keyPath].rawValue) },
      set: { (root: inout Root, value: PropertyValue) throws(PropertyValueProblem) in
        let s = try value.stringValue()
        guard let e = E(rawValue: s) else {
          throw PropertyValueProblem(reason: unknownName(s, expected: names))
        }
        root[keyPath: keyPath] = e
      })
  }

  static func filterName(_ name: String, _ keyPath: WritableKeyPath<Root, String> & Sendable) -> Self {
    let names = EmitterCell.filterNames
    return Self(
      name: name, kind: .name(names), isComponent: false,
      get: { .string($0[keyPath: keyPath]) },
      set: { (root: inout Root, value: PropertyValue) throws(PropertyValueProblem) in
        let s = try value.stringValue()
        guard names.contains(s) else { throw PropertyValueProblem(reason: unknownName(s, expected: names)) }
        root[keyPath: keyPath] = s
      })
  }

  /// A vector property and one scalar descriptor per component.
  static func vector<V: SIMD & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<Root, V> & Sendable,
    components: [String], _ constraint: ValueConstraint = .any, acceptsCount: ClosedRange<Int>? = nil
  ) -> [Self] where V.Scalar == Float {
    let n = V.scalarCount
    let accepted = acceptsCount ?? n...n
    let whole = Self(
      name: name, kind: .vector(n), isComponent: false,
      get: { root in
        let v = root[keyPath: keyPath]
        return .vector((0..<n).map { Double(v[$0]) })
      },
      set: { (root: inout Root, value: PropertyValue) throws(PropertyValueProblem) in
        guard case .vector(let xs) = value else {
          throw PropertyValueProblem(
            reason: "expected an array of \(n) numbers, got \(value.kindDescription)")
        }
        guard accepted.contains(xs.count) else {
          let want = accepted.count == 1 ? "\(n)" : "\(accepted.lowerBound) or \(accepted.upperBound)"
          throw PropertyValueProblem(reason: "expected \(want) numbers, got \(xs.count)")
        }
        var v = root[keyPath: keyPath]
        for i in 0..<n {
          // Components left out (alpha of an RGB colour) keep their value.
          guard i < xs.count else { break }
          do throws(PropertyValueProblem) {
            v[i] = try PropertyValue.number(xs[i]).floatValue(constraint)
          } catch {
            throw PropertyValueProblem(reason: error.reason, componentIndex: i, componentName: components[i])
          }
        }
        root[keyPath: keyPath] = v
      })
    var all = [whole]
    for (i, c) in components.enumerated() {
      all.append(
        Self(
          name: name + "." + c, kind: .float, isComponent: true,
          get: { .number(Double($0[keyPath: keyPath][i])) },
          set: { (root: inout Root, value: PropertyValue) throws(PropertyValueProblem) in
            root[keyPath: keyPath][i] = try value.floatValue(constraint)
          }))
    }
    return all
  }
}

/// "expected one of a, b, c, got 'x'", with a suggestion when one is close.
func unknownName(_ given: String, expected names: [String]) -> String {
  var reason = "expected one of \(names.joined(separator: ", ")), got '\(given)'"
  if let near = closestName(to: given, in: names) { reason += " (did you mean '\(near)'?)" }
  return reason
}

/// The name to suggest for a mistyped `name`: SleetMath's `Suggestion` rule,
/// the one the `sleet` tool uses too, so a typo gets the same suggestion
/// from the effect reader and the command line.
func closestName(to name: String, in candidates: some Sequence<String>) -> String? {
  Suggestion.closest(to: name, in: candidates)
}

extension PropertyValue {
  /// "a number", "a string", … for "got …" messages.
  var kindDescription: String {
    switch self {
    case .number(let x): formatNumber(x)
    case .bool(let b): b ? "true" : "false"
    case .string(let s): "the string '\(s)'"
    case .vector(let xs): "an array of \(xs.count) numbers"
    }
  }

  func finiteNumber() throws(PropertyValueProblem) -> Double {
    guard case .number(let x) = self else {
      throw PropertyValueProblem(reason: "expected a number, got \(kindDescription)")
    }
    guard x.isFinite else { throw PropertyValueProblem(reason: "must be finite, got \(x)") }
    return x
  }

  func floatValue(_ constraint: ValueConstraint) throws(PropertyValueProblem) -> Float {
    let x = try finiteNumber()
    if let v = constraint.violation(x) { throw PropertyValueProblem(reason: v) }
    let f = Float(x)
    guard f.isFinite else {
      throw PropertyValueProblem(reason: "\(formatNumber(x)) is out of range for a 32-bit float")
    }
    return f
  }

  func stringValue() throws(PropertyValueProblem) -> String {
    guard case .string(let s) = self else {
      throw PropertyValueProblem(reason: "expected a string, got \(kindDescription)")
    }
    return s
  }

  /// Bit-for-bit equality (so that −0 and 0 differ): what "default" means
  /// when an effect file leaves a value out.
  func isIdentical(to other: PropertyValue) -> Bool {
    switch (self, other) {
    case (.number(let a), .number(let b)): return a.bitPattern == b.bitPattern
    case (.vector(let a), .vector(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern }
    default: return self == other
    }
  }
}
