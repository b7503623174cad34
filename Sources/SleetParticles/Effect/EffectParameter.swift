/// A named number that an effect is a function of, such as a preset's
/// `width`: each binding sets one numeric property to `offset + factor × value`.
///
/// An effect stores its properties already evaluated for the parameter's
/// current `value` (so a file is an ordinary effect file, readable without
/// knowing about parameters); ``Effect/settingParameters(_:)`` re-evaluates
/// the bindings for new values. Bindings are linear on purpose: they cover
/// "the emitter spans the screen" without an expression language.
public struct EffectParameter: Hashable, Sendable {
  /// One property driven by the parameter.
  public struct Binding: Hashable, Sendable {
    /// A key path naming one number: `emitterSize.width`,
    /// `emitterCells.snow.birthRate`, `emitterPosition.x`.
    public var keyPath: String
    /// The slope: the property changes by `factor` per unit of the parameter.
    public var factor: Double
    /// The property's value when the parameter is 0.
    public var offset: Double

    /// The binding `property = offset + factor × value`.
    public init(keyPath: String, factor: Double, offset: Double = 0) {
      self.keyPath = keyPath
      self.factor = factor
      self.offset = offset
    }

    /// "2 × width", "0.5 × width + 10".
    func formula(_ name: String) -> String {
      var s = "\(formatNumber(factor)) × \(name)"
      if offset != 0 { s += " + \(formatNumber(offset))" }
      return s
    }
  }

  /// The name users set it by (`--param width=390`, `Effect.preset(named:parameters:)`).
  public var name: String
  /// The value the effect's properties are evaluated for.
  public var value: Double
  /// The inclusive lower bound values must respect; nil means unbounded.
  public var minimum: Double?
  /// The inclusive upper bound; nil means unbounded.
  public var maximum: Double?
  /// The properties the parameter drives, each linearly.
  public var bindings: [Binding]

  /// A parameter currently at `value`, within `minimum…maximum` when given.
  public init(name: String, value: Double, minimum: Double? = nil, maximum: Double? = nil, bindings: [Binding]) {
    self.name = name
    self.value = value
    self.minimum = minimum
    self.maximum = maximum
    self.bindings = bindings
  }

  /// Why `x` is not an acceptable value, or nil.
  func rangeProblem(_ x: Double) -> String? {
    guard x.isFinite else { return "must be finite, got \(x)" }
    if let minimum, x < minimum { return "must be ≥ \(formatNumber(minimum)), got \(formatNumber(x))" }
    if let maximum, x > maximum { return "must be ≤ \(formatNumber(maximum)), got \(formatNumber(x))" }
    return nil
  }
}

extension Effect {
  /// The effect with some parameters set to new values: each binding of a
  /// named parameter is re-evaluated and set by key path, and the changes are
  /// re-checked against the result.
  ///
  ///     let wide = try Effect.preset(named: "snow").settingParameters(["width": 1024])
  ///
  /// - Throws: `EffectFormatError` with the path `parameters.NAME` for an
  ///   unknown name, a value out of the parameter's range, or a value that
  ///   makes a bound property invalid (a negative size, …).
  /// - Complexity: O(bindings × depth + changes).
  public func settingParameters(_ values: [String: Double]) throws(EffectFormatError) -> Effect {
    var result = self
    for (name, value) in values.sorted(by: { $0.key < $1.key }) {
      let path = "parameters.\(name)"
      guard let i = result.parameters.firstIndex(where: { $0.name == name }) else {
        let known = parameters.map(\.name)
        var reason = "no such parameter"
        reason += known.isEmpty ? " (this effect has none)" : " (parameters: \(known.joined(separator: ", ")))"
        throw EffectFormatError(path: path, reason: reason)
      }
      if let problem = result.parameters[i].rangeProblem(value) {
        throw EffectFormatError(path: path, reason: problem)
      }
      result.parameters[i].value = value
      for binding in result.parameters[i].bindings {
        do throws(KeyPathError) {
          try result.emitter.setValue(.number(binding.offset + binding.factor * value), forKeyPath: binding.keyPath)
        } catch {
          throw EffectFormatError(path: path, reason: "\(binding.formula(name)) sets \(error)")
        }
      }
    }
    do throws(EffectValidationError) {
      return try Effect(
        emitter: result.emitter, changes: result.changes, parameters: result.parameters, summary: result.summary)
    } catch {
      throw EffectFormatError(error)
    }
  }
}
