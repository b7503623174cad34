import SleetMath

// The one validation of an effect. Effect files (`Effect(json:)`, `Codable`)
// and effects built in code (`Effect.init`, `Effect.validate`, and
// `ParticleSystem.init`) all go through the functions below, so they reject
// the same definitions with the same words; the readers only add where in
// the file the problem is.

/// Why an effect cannot be used: a bad definition, too many cells, or a
/// timed change that cannot apply.
public enum EffectValidationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A bad layer or cell value, or cell name (see `Emitter.validate()`): NaN
  /// or ∞, a negative rate or lifetime, a colour outside [0, 1], sibling
  /// cells sharing a name, …; the error names the key path.
  case invalidDefinition(KeyPathError)
  /// The effect has more cells, sub-cells included, than
  /// ``Effect/maximumCells``.
  case tooManyCells(Int)
  /// The effect nests sub-cells deeper than ``SleetLimits/cellDepth``
  /// levels (a top-level cell is at depth 1); the value is the depth.
  case cellsTooDeep(Int)
  /// The change at `index` has a bad `field`: a time that is not finite or
  /// is negative (or falls inside an animation of the same property), a key
  /// path that names nothing, a timing property or a life-curve behavior's
  /// key, a value the property does not take, or an animation field that
  /// breaks a rule (a negative duration, keyframes that do not match, an
  /// animation of anything but a force behavior's number or vector). `index` counts the changes in
  /// the order they were given to ``Effect/init(emitter:changes:parameters:summary:)``
  /// (an effect file's `changes` order).
  case invalidChange(index: Int, field: PropertyChange.Field, reason: String)

  /// `emitterCells.c.lifetime: must be finite, got nan`,
  /// `the effect has 300 cells …`, `changes[0].time: must be finite, got nan`.
  public var description: String {
    switch self {
    case .invalidDefinition(let problem):
      problem.description
    case .tooManyCells(let count):
      "the effect has \(count) cells (sub-cells included); at most \(Effect.maximumCells) are supported"
    case .cellsTooDeep(let depth):
      "the effect nests sub-cells \(depth) levels deep; at most \(SleetLimits.cellDepth) are supported"
    case .invalidChange(let index, let field, let reason):
      "changes[\(index)].\(field.rawValue): \(reason)"
    }
  }
}

extension PropertyChange {
  /// The parts of a change, as effect files name them.
  public enum Field: String, Hashable, Sendable {
    /// ``PropertyChange/time``, ``PropertyChange/keyPath``, ``PropertyChange/value``.
    case time, keyPath, value
    /// An animation's ``PropertyChange/duration``,
    /// ``PropertyChange/timingFunction``, ``PropertyChange/keyTimes`` and
    /// ``PropertyChange/values``.
    case duration, timingFunction, keyTimes, values
  }

  /// Why `time` cannot be the time of a change, or nil: it must be finite
  /// (a NaN would make the time order of changes undefined) and ≥ 0 (the
  /// simulation starts at local time 0).
  /// - Complexity: O(1).
  static func timeProblem(_ time: Double) -> String? {
    guard time.isFinite else { return "must be finite, got \(time)" }
    guard time >= 0 else { return "must be ≥ 0, got \(formatNumber(time))" }
    return nil
  }
}

extension Emitter {
  /// The number of cells in the emitter, sub-cells included.
  /// - Complexity: O(cells).
  public var cellCount: Int { emitterCells.reduce(0) { $0 + $1.subtreeCount } }

  /// How deep the cells nest: 0 without cells, 1 with top-level cells only,
  /// 2 when one of them has sub-cells, ….
  /// - Complexity: O(cells).
  public var cellDepth: Int {
    var depth = 0
    var level = emitterCells
    while !level.isEmpty {
      depth += 1
      level = level.flatMap(\.emitterCells)
    }
    return depth
  }
}

extension Effect {
  /// The most cells, sub-cells included, that an effect may have: particle
  /// ids keep the cell number in their top 8 bits. The single source of this
  /// limit (`ParticleSystemError` and the effect reader use it).
  public static let maximumCells = 255

  /// Checks the whole effect: every layer and cell value and cell name as an
  /// effect file is checked (`Emitter.validate()`), and at most
  /// ``maximumCells`` cells in all. The timed changes were checked when the
  /// effect was created (``init(emitter:changes:parameters:summary:)``;
  /// `emitter` and `changes` are read-only outside the module, so they still
  /// hold).
  ///
  /// Effect files are checked by their reader; effects built in code should
  /// call this, and ``ParticleSystem`` does (without sprite names).
  ///
  /// - Parameter includingSprites: whether cells' `contents` must name a
  ///   built-in sprite or a `.png` file. Pass false when a renderer's sprite
  ///   library resolves other names (the simulation never reads them).
  /// - Throws: ``EffectValidationError/invalidDefinition(_:)`` naming the key
  ///   path of the first bad value, then
  ///   ``EffectValidationError/tooManyCells(_:)``, then
  ///   ``EffectValidationError/cellsTooDeep(_:)``.
  /// - Complexity: O(cells × properties).
  public func validate(includingSprites: Bool = true) throws(EffectValidationError) {
    try Effect.validateDefinition(emitter, includingSprites: includingSprites)
  }

  /// ``validate(includingSprites:)`` for an emitter not yet in an effect.
  static func validateDefinition(_ emitter: Emitter, includingSprites: Bool) throws(EffectValidationError) {
    do throws(KeyPathError) {
      try emitter.validate(includingSprites: includingSprites)
    } catch {
      throw .invalidDefinition(error)
    }
    let cells = emitter.cellCount
    guard cells <= maximumCells else { throw .tooManyCells(cells) }
    let depth = emitter.cellDepth
    guard depth <= SleetLimits.cellDepth else { throw .cellsTooDeep(depth) }
  }

  /// Checks the time and key path of the change at `index`: the time is
  /// finite and ≥ 0, the key path parses, names an existing cell of
  /// `emitter`, and does not name a timing property (see
  /// ``timedChangeProblem(_:)``). Returns the parsed key path.
  /// - Complexity: O(length of the path + depth × siblings).
  static func checkedKeyPath(
    _ text: String, time: Double, index: Int, on emitter: Emitter
  ) throws(EffectValidationError) -> Emitter.KeyPath {
    if let problem = PropertyChange.timeProblem(time) {
      throw .invalidChange(index: index, field: .time, reason: problem)
    }
    let keyPath: Emitter.KeyPath
    do throws(KeyPathError) {
      keyPath = try Emitter.KeyPath(text)
      _ = try emitter.value(for: keyPath)
    } catch {
      throw .invalidChange(index: index, field: .keyPath, reason: "'\(text)': \(error.reason)")
    }
    if let problem = timedChangeProblem(keyPath) {
      throw .invalidChange(index: index, field: .keyPath, reason: "'\(text)': \(problem)")
    }
    if keyPath.behaviorName != nil, let behavior = emitter.behavior(for: keyPath), !behavior.isForce {
      throw .invalidChange(
        index: index, field: .keyPath,
        reason: "'\(text)': a \(behavior.type) behavior is read at time 0 only and cannot change over time "
          + "(only force behaviors' keys can); set it on the behavior instead")
    }
    return keyPath
  }

  /// Checks `changes` against `emitter` and returns them sorted by time
  /// (stably: equal times keep their given order).
  ///
  /// First every change's time, key path and animation fields, in the
  /// given order (``checkedKeyPath(_:time:index:on:)``,
  /// ``checkAnimation(_:keyPath:index:)``); then, in time order, that no
  /// change falls inside an animation of its property
  /// (``checkAnimationsDoNotOverlap(_:order:keyPaths:)``); then the values (each keyframe,
  /// then the final value), applied to `emitter` in the sorted order, so
  /// that each is checked against the emitter as it is at that moment.
  /// Times are known to be finite before they are sorted.
  /// - Complexity: O(changes × (log changes + depth × siblings) + keyframes).
  static func checkedChanges(
    _ changes: [PropertyChange], on emitter: Emitter
  ) throws(EffectValidationError) -> [PropertyChange] {
    var keyPaths: [Emitter.KeyPath] = []
    keyPaths.reserveCapacity(changes.count)
    for (i, change) in changes.enumerated() {
      let keyPath = try checkedKeyPath(change.keyPath, time: change.time, index: i, on: emitter)
      try checkAnimation(change, keyPath: keyPath, index: i)
      keyPaths.append(keyPath)
    }
    let order = changes.indices.sorted { (changes[$0].time, $0) < (changes[$1].time, $1) }
    try checkAnimationsDoNotOverlap(changes, order: order, keyPaths: keyPaths)
    var probe = emitter
    for i in order {
      for (k, value) in changes[i].values.enumerated() {
        var keyframe = probe
        do throws(KeyPathError) {
          try keyframe.setValue(value, forKeyPath: changes[i].keyPath)
        } catch {
          throw .invalidChange(index: i, field: .values, reason: "at index \(k): \(error.reason)")
        }
      }
      do throws(KeyPathError) {
        try probe.setValue(changes[i].value, forKeyPath: changes[i].keyPath)
      } catch {
        throw .invalidChange(index: i, field: .value, reason: error.reason)
      }
    }
    return order.map { changes[$0] }
  }
}

extension EffectFormatError {
  /// A validation error as the effect reader reports it: a change's problem
  /// at `changes[i].time|keyPath|value`, too many cells at `emitterCells`,
  /// and a bad definition at its key path (the reader checks every value
  /// where it reads it, so for a file this last one does not happen).
  init(_ error: EffectValidationError) {
    switch error {
    case .invalidDefinition(let problem):
      self.init(path: problem.keyPath, reason: problem.reason)
    case .tooManyCells, .cellsTooDeep:
      self.init(path: "emitterCells", reason: error.description)
    case .invalidChange(let index, let field, let reason):
      self.init(path: "changes[\(index)].\(field.rawValue)", reason: reason)
    }
  }
}
