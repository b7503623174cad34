import SleetMath

/// A value that a key path can be set to, as it appears in an effect file or on
/// the command line: numbers (also for `Float` and `Double` properties), flags,
/// names (`emitterShape`, `renderMode`, `contents`, …) and vectors (points,
/// sizes, colours, `contentsRect`).
public enum PropertyValue: Hashable, Sendable {
  /// A number, for every numeric property (stored as `Float` or `Double` as
  /// the property is; a `UInt32` seed must be a whole number in range).
  case number(Double)
  /// A flag: `isEnabled` (`enabled`), `preservesDepth`.
  case bool(Bool)
  /// A name: `emitterShape`, `emitterMode`, `renderMode`, the sampling
  /// filters, or a sprite for `contents`.
  case string(String)
  /// The components of a vector property: 2 for points and sizes, 4 for
  /// colours (r, g, b, a) and `contentsRect` (x, y, width, height).
  case vector([Double])
}

/// One timed key-path change: at emitter-local time `time`, set `keyPath` to
/// `value`. Key paths are spelled as Core Animation users write them:
/// `birthRate`, `emitterCells.snow.birthRate`,
/// `emitterCells.rocket.emitterCells.spark.emissionRange`.
///
/// A change of a layer or cell property affects only particles born after it
/// (Apple's documented rule for the layer multipliers, applied uniformly),
/// and a rate change changes the slope of the birth schedule from `time` on.
/// A change of a force behavior's key (`emitterBehaviors.NAME.KEY`) acts on
/// every live particle from `time` on, and only such keys may be animated
/// (``duration``, or keyframes: docs/effect-format.md, "Animated changes").
public struct PropertyChange: Hashable, Sendable {
  /// When the change happens, seconds of the emitter's local time (finite,
  /// ≥ 0).
  public var time: Double
  /// The property changed, e.g. `emitterCells.snow.birthRate`.
  public var keyPath: String
  /// The new value; its kind must match the property's. For a keyframe
  /// animation, the last of ``values``.
  public var value: PropertyValue
  /// Seconds over which the property moves to ``value``, ≥ 0; 0 (the
  /// default) changes it at `time`. Animations (`CABasicAnimation`,
  /// `CAKeyframeAnimation`) apply to behavior parameters
  /// (`emitterBehaviors.NAME.KEY`), whose value acts at each time.
  public var duration: Double = 0
  /// The pace of an animation over its duration (`timingFunction`).
  /// Default linear.
  public var timingFunction: TimingFunction = .linear
  /// A keyframe animation's times, as fractions of ``duration`` in [0, 1],
  /// non-decreasing, one per value of ``values``; empty for a move from
  /// the previous value to ``value``.
  public var keyTimes: [Double] = []
  /// A keyframe animation's values (`values`), held before the first key
  /// time and after the last; empty for a move from the previous value.
  public var values: [PropertyValue] = []

  /// A change of `keyPath` to `value` at local time `time` (checked when the
  /// effect is made: `Effect.init(emitter:changes:parameters:summary:)`).
  public init(time: Double, keyPath: String, value: PropertyValue) {
    self.time = time
    self.keyPath = keyPath
    self.value = value
  }

  /// An animated change (`CABasicAnimation`): `keyPath` moves from its
  /// previous value to `value` over [time, time + duration], paced by
  /// `timingFunction`.
  public init(
    time: Double, keyPath: String, value: PropertyValue, duration: Double, timingFunction: TimingFunction = .linear
  ) {
    self.init(time: time, keyPath: keyPath, value: value)
    self.duration = duration
    self.timingFunction = timingFunction
  }

  /// A keyframe animation (`CAKeyframeAnimation`): `keyPath` takes
  /// `values[i]` at time + keyTimes[i]·duration, linearly between them
  /// (after `timingFunction` paces the whole), and keeps the last.
  /// - Precondition: `values` is not empty.
  public init(
    time: Double, keyPath: String, duration: Double, keyTimes: [Double], values: [PropertyValue],
    timingFunction: TimingFunction = .linear
  ) {
    precondition(!values.isEmpty, "a keyframe animation needs at least one value")
    self.init(time: time, keyPath: keyPath, value: values[values.count - 1])
    self.duration = duration
    self.timingFunction = timingFunction
    self.keyTimes = keyTimes
    self.values = values
  }

  /// Whether the change is animated (a duration > 0).
  public var isAnimated: Bool { duration > 0 }

  /// A change addressed with a typed key path:
  /// `PropertyChange(time: 2, keyPath: .cell("snow", .birthRate), value: 0)`.
  public init(time: Double, keyPath: Emitter.KeyPath, value: PropertyValue) {
    self.init(time: time, keyPath: keyPath.description, value: value)
  }
}

/// A complete effect: an emitter definition plus its history of timed key-path
/// changes. The particles at time t are a pure function of an `Effect`, the
/// seed (``seed``, i.e. `emitter.seed`) and t.
public struct Effect: Hashable, Sendable {
  /// The emitter as it is at local time 0 (before any change).
  ///
  /// Read-only outside the module: every change in ``changes`` was validated
  /// against it in ``init(emitter:changes:parameters:summary:)``, and editing
  /// it (removing a cell, say) could make a change name nothing. Build a new
  /// `Effect` to change the definition; ``seed`` can be set directly.
  public internal(set) var emitter: Emitter
  /// The emitter's random seed (`emitter.seed`). Settable, because a seed
  /// cannot make a validated change invalid.
  public var seed: UInt32 {
    get { emitter.seed }
    set { emitter.seed = newValue }
  }
  /// The changes, sorted by time; changes at equal times apply in order.
  public internal(set) var changes: [PropertyChange]
  /// Named numeric parameters (a preset's `width`, …) and the properties
  /// they drive; `emitter` holds the values for each parameter's `value`.
  /// See ``settingParameters(_:)``. Not used by the simulation.
  ///
  /// Sorted by name: in a file they are the members of a JSON object, whose
  /// order RFC 8259 leaves unspecified (`JSONDecoder` does not keep it), so
  /// the order must not carry meaning.
  public internal(set) var parameters: [EffectParameter]
  /// A one-line description (effect files' `summary`). Not used by the simulation.
  public var summary: String?

  /// Creates an effect, validating every change against the emitter (see
  /// `checkedChanges(_:on:)`, the check effect files get too): a time
  /// that is finite and ≥ 0, a key path that names an existing cell and
  /// property (unknown names are errors naming the path) and is not a timing
  /// property — the simulation reads layer and cell `beginTime`, `duration`,
  /// `speed`, `timeOffset` and the layer's `seed` at time 0 only — and a
  /// value the property takes. Times are checked before anything is sorted.
  /// Changes are then sorted by time (stably), parameters by name.
  ///
  /// The emitter itself is not checked here (a definition may be built up in
  /// steps); ``validate(includingSprites:)`` checks it and the cell limit,
  /// and `ParticleSystem` calls it.
  /// - Throws: ``EffectValidationError/invalidChange(index:field:reason:)``
  ///   naming the change (its index in `changes` as given) and the field.
  /// - Complexity: O(changes × (log changes + depth × siblings)
  ///   + parameters × log parameters).
  public init(
    emitter: Emitter, changes: [PropertyChange] = [], parameters: [EffectParameter] = [],
    summary: String? = nil
  ) throws(EffectValidationError) {
    self.changes = try Effect.checkedChanges(changes, on: emitter)
    self.emitter = emitter
    self.parameters = parameters.enumerated()
      .sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }
      .map(\.element)
    self.summary = summary
  }

  /// Why `keyPath` cannot be the target of a timed change, or nil. The
  /// timing properties — the layer's `beginTime`, `speed`, `timeOffset` and
  /// every cell's `beginTime`, `duration`, `speed`, `timeOffset` — fix the
  /// time mapping and the emission windows, and the layer's `seed` keys every
  /// random stream; the simulation reads them from the emitter at time 0 only,
  /// so a change to them would be accepted and silently ignored: it is an
  /// error instead.
  /// - Complexity: O(1).
  static func timedChangeProblem(_ keyPath: Emitter.KeyPath) -> String? {
    guard keyPath.behaviorName == nil else { return nil }
    let timing = ["beginTime", "duration", "speed", "timeOffset"].contains(keyPath.property)
    let layerSeed = keyPath.cellNames.isEmpty && keyPath.property == "seed"
    guard timing || layerSeed else { return nil }
    let owner = keyPath.cellNames.isEmpty ? "the layer's" : "a cell's"
    return "\(owner) \(keyPath.property) is read at time 0 only and cannot change over time;"
      + " set it on the emitter or cell instead"
  }

  /// The emitter with every change whose `time ≤ t` applied, each at its
  /// final ``PropertyChange/value``: an animated change (a behavior
  /// parameter moving over [time, time + duration]) counts from its `time`,
  /// so this is the definition the simulation starts from, and its value at
  /// a time inside the animation is the simulation's to evaluate.
  /// - Complexity: O(changes).
  public func emitter(at t: Double) -> Emitter {
    var e = emitter
    for change in changes where change.time <= t {
      // Every change was validated against this emitter in `init`, and the
      // emitter cannot be edited from outside the module; a failure here is
      // a bug in SleetParticles.
      do throws(KeyPathError) {
        try e.setValue(change.value, forKeyPath: change.keyPath)
      } catch {
        preconditionFailure("Effect.emitter(at:): change '\(change.keyPath)' no longer applies: \(error)")
      }
    }
    return e
  }

  /// The distinct times at which the definition changes, ascending.
  public var changeTimes: [Double] {
    var times: [Double] = []
    for c in changes where times.last != c.time { times.append(c.time) }
    return times
  }
}

/// A key path that names nothing, or a value of the wrong kind for it.
public struct KeyPathError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The key path as given.
  public var keyPath: String
  /// What is wrong, e.g. "no cell named 'snw'" or "expected a number".
  public var reason: String

  /// An error for `keyPath`, with a reason a person can act on.
  public init(keyPath: String, reason: String) {
    self.keyPath = keyPath
    self.reason = reason
  }

  public var description: String { "\(keyPath): \(reason)" }
}
