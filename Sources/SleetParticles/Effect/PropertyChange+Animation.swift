import SleetMath

// Animated changes (`duration`, `timingFunction`, `keyTimes`, `values`): their
// rules, shared by `Effect.init`, the effect reader and `Codable`
// (docs/effect-format.md, "Animated changes").

extension PropertyChange {
  /// The timing functions a change may name, in the order messages list
  /// them and the writer prefers them (`TimingFunction.named`).
  static let timingFunctionNames = ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"]

  /// The timing function a change names: one of ``timingFunctionNames``, or
  /// four control points [x1, y1, x2, y2] with x1 and x2 in [0, 1] and
  /// every number finite. Returns the reason otherwise.
  static func timingFunction(_ value: PropertyValue) -> Result<TimingFunction, PropertyValueProblem> {
    let expected = "expected one of \(timingFunctionNames.joined(separator: ", ")) or [x1, y1, x2, y2]"
    switch value {
    case .string(let name):
      guard let f = TimingFunction.named[name] else {
        return .failure(PropertyValueProblem(reason: unknownName(name, expected: timingFunctionNames)))
      }
      return .success(f)
    case .vector(let xs) where xs.count == 4:
      if let i = xs.firstIndex(where: { !$0.isFinite }) {
        return .failure(PropertyValueProblem(reason: "must be finite, got \(xs[i])", componentIndex: i))
      }
      for i in [0, 2] where !(0...1).contains(xs[i]) {
        return .failure(
          PropertyValueProblem(
            reason: "a control point's x must be between 0 and 1, got \(formatNumber(xs[i]))", componentIndex: i))
      }
      return .success(TimingFunction(controlPoints: xs[0], xs[1], xs[2], xs[3]))
    default:
      return .failure(PropertyValueProblem(reason: "\(expected), got \(value.kindDescription)"))
    }
  }

  /// How effect files write a timing function: its name when it is one of
  /// ``timingFunctionNames``, else its control points.
  static func timingFunctionValue(_ f: TimingFunction) -> PropertyValue {
    if let name = timingFunctionNames.first(where: { TimingFunction.named[$0] == f }) { return .string(name) }
    return .vector([f.x1, f.y1, f.x2, f.y2])
  }

  /// An animation's progress at the time fraction `x` ∈ [0, 1]: x itself
  /// for `linear` (the identity, exactly: the Bézier solver would return it
  /// only to within 1e−6), otherwise the curve's value.
  /// - Complexity: O(1).
  static func pace(_ timingFunction: TimingFunction, _ x: Double) -> Double {
    timingFunction == .linear ? min(max(x, 0), 1) : timingFunction.value(at: x)
  }

  /// Whether the change is animated: a duration > 0, or keyframes.
  var isAnimation: Bool { duration > 0 || !values.isEmpty || !keyTimes.isEmpty }
}

extension Effect {
  /// Checks a change's animation fields against its parsed key path and
  /// the emitter at time 0:
  ///
  /// - `duration` finite and ≥ 0; a keyframe animation needs one > 0;
  /// - `timingFunction` (control x values in [0, 1], numbers finite) only
  ///   on an animated change;
  /// - `keyTimes` one per value of `values`, each in [0, 1],
  ///   non-decreasing; `value` equal to the last of `values`;
  /// - only the layer's or a cell's `birthRate` and a number or vector key
  ///   of a force behavior (`emitterBehaviors.NAME.KEY`) may be animated: the
  ///   birth schedule integrates animated rates, the simulation evaluates
  ///   behavior parameters at each time, and it reads every other property
  ///   at its change's time.
  ///
  /// The values themselves are checked by ``checkedChanges(_:on:)``, which
  /// applies them.
  /// - Complexity: O(keyframes).
  static func checkAnimation(
    _ change: PropertyChange, keyPath: Emitter.KeyPath, index: Int
  ) throws(EffectValidationError) {
    func fail(_ field: PropertyChange.Field, _ reason: String) -> EffectValidationError {
      .invalidChange(index: index, field: field, reason: reason)
    }
    let d = change.duration
    guard d.isFinite else { throw fail(.duration, "must be finite, got \(d)") }
    guard d >= 0 else { throw fail(.duration, "must be ≥ 0, got \(formatNumber(d))") }
    let f = change.timingFunction
    let points = [f.x1, f.y1, f.x2, f.y2]
    if case .failure(let problem) = PropertyChange.timingFunction(.vector(points)) {
      throw fail(.timingFunction, problem.reason)
    }
    let keyframes = !change.values.isEmpty || !change.keyTimes.isEmpty
    if keyframes {
      guard !change.values.isEmpty else { throw fail(.values, "a keyframe animation needs at least one value") }
      guard change.keyTimes.count == change.values.count else {
        throw fail(
          .keyTimes, "expected one key time per value (\(change.values.count)), got \(change.keyTimes.count)")
      }
      for (i, t) in change.keyTimes.enumerated() {
        guard t.isFinite, (0...1).contains(t) else {
          throw fail(.keyTimes, "at index \(i): must be between 0 and 1, got \(formatNumber(t))")
        }
        if i > 0, t < change.keyTimes[i - 1] {
          throw fail(
            .keyTimes,
            "at index \(i): must be ≥ the key time before it (\(formatNumber(change.keyTimes[i - 1]))), "
              + "got \(formatNumber(t)); key times do not decrease")
        }
      }
      let last = change.values[change.values.count - 1]
      guard change.value.isIdentical(to: last) else {
        throw fail(
          .value,
          "must be the last of values (\(last.kindDescription)) or be left out, got \(change.value.kindDescription)")
      }
      guard d > 0 else { throw fail(.duration, "a keyframe animation needs a duration > 0, got \(formatNumber(d))") }
    }
    guard change.isAnimation else {
      guard f == .linear else {
        throw fail(.timingFunction, "paces an animation: give the change a duration > 0, or leave it out")
      }
      return
    }
    let path = keyPath.description
    // Birth rates: the schedule integrates them exactly (semantics.md,
    // "Animated birth rates").
    if keyPath.behaviorName == nil && keyPath.property == "birthRate" { return }
    guard keyPath.behaviorName != nil else {
      throw fail(
        .duration,
        "'\(path)': only birth rates (birthRate, emitterCells.NAME.birthRate) and behavior parameters "
          + "(emitterBehaviors.NAME.KEY) can be animated in this version; "
          + "without a duration the property changes at its time")
    }
    switch EffectDecoder.kind(of: keyPath) {
    case .float, .double: return
    case .vector(let n):
      // An animation moves every component: a shorter vector (a wave's
      // [x, y] force) would leave one to the previous value's.
      if case .vector(let xs) = change.value, xs.count != n, change.values.isEmpty {
        throw fail(.value, "an animated vector needs all \(n) components, got \(xs.count)")
      }
      for (k, v) in change.values.enumerated() {
        if case .vector(let xs) = v, xs.count != n {
          throw fail(.values, "at index \(k): an animated vector needs all \(n) components, got \(xs.count)")
        }
      }
      return
    default:
      throw fail(
        .duration,
        "'\(path)': only numbers and vectors can be animated, and \(keyPath.property) is "
          + "\(EffectDecoder.kind(of: keyPath).expectation); without a duration it changes at its time")
    }
  }
}

extension Effect {
  /// Rejects a change of a property during an animation of the same
  /// property (a vector and its components count as one property), so that
  /// every animation runs from the value before it to its `value`
  /// undisturbed: the next change of the property must start when the
  /// animation ends, or later.
  /// - Parameter order: the changes' indices in time order (stable).
  /// - Complexity: O(changes).
  static func checkAnimationsDoNotOverlap(
    _ changes: [PropertyChange], order: [Int], keyPaths: [Emitter.KeyPath]
  ) throws(EffectValidationError) {
    struct Running {
      var index: Int
      var end: Double
    }
    var running: [String: Running] = [:]
    for i in order {
      let property = rootPath(of: keyPaths[i])
      let change = changes[i]
      if let r = running[property], change.time < r.end {
        throw .invalidChange(
          index: i, field: .time,
          reason: "'\(change.keyPath)' changes at \(formatNumber(change.time)) s, during the animation of "
            + "'\(changes[r.index].keyPath)' by changes[\(r.index)] (from \(formatNumber(changes[r.index].time)) s "
            + "to \(formatNumber(r.end)) s); the next change of a property starts when its animation ends")
      }
      running[property] = change.isAnimation ? Running(index: i, end: change.time + change.duration) : nil
    }
  }
}

extension Effect {
  /// The value of the property `keyPath` names at emitter-local time `t`,
  /// with every change up to `t` and any animation of the property in
  /// progress at `t`: the reference definition of animated changes.
  ///
  /// An animation of the property started at `time` ≤ t < time + duration
  /// gives, with u = `timingFunction`((t − time) / duration) (exactly
  /// (t − time) / duration for `linear`):
  ///
  /// ```
  /// basic:     from + (value − from) · u      from = the value before the change
  /// keyframes: values[0]                      for u ≤ keyTimes[0]
  ///            values[i] + (values[i+1] − values[i]) · (u − keyTimes[i]) / (keyTimes[i+1] − keyTimes[i])
  ///                                           for keyTimes[i] ≤ u < keyTimes[i+1] (i the last such)
  ///            values[last]                   for u ≥ keyTimes[last]
  /// ```
  ///
  /// component by component for a vector (a change of one component moves
  /// that component only). Outside animations it is the value
  /// ``emitter(at:)`` holds. Only birth rates and force behaviors' number
  /// and vector keys animate (``init(emitter:changes:parameters:summary:)`` refuses other
  /// animations), and no change of a property falls inside its animation,
  /// so at most one animation of the property is in progress.
  ///
  /// The end values are the property's stored ones (a `Float` property's
  /// rounded to `Float`); the interpolation is computed in `Double`.
  /// - Throws: `KeyPathError` when `keyPath` names nothing in the effect.
  /// - Complexity: O(changes + keyframes).
  public func value(forKeyPath keyPath: String, at t: Double) throws(KeyPathError) -> PropertyValue {
    let path = try Emitter.KeyPath(keyPath)
    let root = Self.rootPath(of: path)
    var e = emitter
    var active: (change: PropertyChange, before: Emitter)?
    for change in changes where change.time <= t {
      // Safe: `init` checked every change against this emitter, in this order.
      let changePath = try! Emitter.KeyPath(change.keyPath)
      let sameProperty = Self.rootPath(of: changePath) == root
      let before = e
      do throws(KeyPathError) {
        try e.setValue(change.value, forKeyPath: change.keyPath)
      } catch {
        preconditionFailure("Effect.value(forKeyPath:at:): change '\(change.keyPath)' no longer applies: \(error)")
      }
      if sameProperty {
        active = change.isAnimation && t < change.time + change.duration ? (change, before) : nil
      }
    }
    let final = try e.value(for: path)
    guard let (change, before) = active else { return final }

    // The whole property (the vector, for a component) at each end.
    func rootValue(_ emitter: Emitter, setting value: PropertyValue?) -> [Double] {
      var copy = emitter
      do throws(KeyPathError) {
        if let value { try copy.setValue(value, forKeyPath: change.keyPath) }
        switch try copy.value(forKeyPath: root) {
        case .number(let x): return [x]
        case .vector(let xs): return xs
        default: preconditionFailure("Effect.value(forKeyPath:at:): '\(root)' is not a number or vector")
        }
      } catch {
        preconditionFailure("Effect.value(forKeyPath:at:): keyframe of '\(change.keyPath)' no longer applies: \(error)")
      }
    }
    func mix(_ a: [Double], _ b: [Double], _ s: Double) -> [Double] {
      zip(a, b).map { $0 + ($1 - $0) * s }
    }
    let u = PropertyChange.pace(change.timingFunction, (t - change.time) / change.duration)
    let now: [Double]
    if change.values.isEmpty {
      now = mix(rootValue(before, setting: nil), rootValue(before, setting: change.value), u)
    } else {
      let keys = change.keyTimes
      if u <= keys[0] {
        now = rootValue(before, setting: change.values[0])
      } else if u >= keys[keys.count - 1] {
        now = rootValue(before, setting: change.values[change.values.count - 1])
      } else {
        // Safe: keys[0] < u < keys[last], so such an i exists and keys[i + 1] > u ≥ keys[i].
        let i = keys.lastIndex { $0 <= u }!
        now = mix(
          rootValue(before, setting: change.values[i]), rootValue(before, setting: change.values[i + 1]),
          (u - keys[i]) / (keys[i + 1] - keys[i]))
      }
    }
    guard let dot = path.property.firstIndex(of: ".") else {
      if case .vector = EffectDecoder.kind(of: path) { return .vector(now) }
      return .number(now[0])
    }
    // A component. Safe: the only animatable vectors are `force` (x, y, z)
    // and `position` (x, y).
    let component = ["x", "y", "z"].firstIndex(of: String(path.property[path.property.index(after: dot)...]))!
    return .number(now[component])
  }

  /// The key path of the whole property a path names: the vector for a
  /// component (`emitterBehaviors.pull.position` for `….position.x`).
  static func rootPath(of keyPath: Emitter.KeyPath) -> String {
    keyPath.cellNames.map { "emitterCells.\($0)." }.joined()
      + (keyPath.behaviorName.map { "emitterBehaviors.\($0)." } ?? "") + keyPath.property.prefix { $0 != "." }
  }
}
