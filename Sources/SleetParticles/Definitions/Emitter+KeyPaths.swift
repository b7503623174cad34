import SleetMath

// Key paths as Core Animation users write them:
//
//     keyPath      := ( cellPath "." )? ( property | behaviorPath )
//     cellPath     := "emitterCells" "." name ( "." "emitterCells" "." name )*
//     behaviorPath := "emitterBehaviors" "." name "." property
//     property     := key ( "." component )*      e.g. birthRate, emitterSize.width, color.red
//
// A layer property is named at the top level (`birthRate`, `emitterPosition`);
// a cell property after one or more `emitterCells.<name>` steps
// (`emitterCells.rocket.emitterCells.spark.emissionRange`); a behavior's key
// after `emitterBehaviors.<name>`, on the layer (`emitterBehaviors.pull.stiffness`)
// or a cell (`emitterCells.confetti.emitterBehaviors.sway.force.x`). A name
// selects the first cell or behavior of that name among its siblings, as Core
// Animation does; effect files and `validate()` reject duplicate names so that
// the choice never matters there.

extension Emitter {
  /// A parsed, checked key path: the cells it descends through and the
  /// property it names. Parsing checks the grammar and the property name;
  /// the cell names are checked against an emitter when the path is used.
  ///
  ///     let path = try Emitter.KeyPath("emitterCells.rocket.emitterCells.spark.emissionRange")
  ///     path == .cell(["rocket", "spark"], .emissionRange)   // true
  public struct KeyPath: Hashable, Sendable, CustomStringConvertible {
    /// The cell names from the layer down; empty for a layer property (or
    /// a layer behavior's key).
    public let cellNames: [String]
    /// The name of the behavior whose key ``property`` is
    /// (`emitterBehaviors.<name>.<key>`), in the layer's list when
    /// ``cellNames`` is empty and in the last cell's otherwise; nil for a
    /// layer or cell property.
    public let behaviorName: String?
    /// The property key: `birthRate`, `emitterSize.width`, `color.red`, …;
    /// for a behavior, the behavior's key: `stiffness`, `force.x`, `enabled`.
    public let property: String

    /// Parses a key path string.
    /// - Throws: `KeyPathError` naming the path when the grammar is broken or
    ///   the property is unknown (with a suggestion when one is close).
    /// - Complexity: O(length of the path).
    public init(_ string: String) throws(KeyPathError) {
      func fail(_ reason: String) -> KeyPathError { KeyPathError(keyPath: string, reason: reason) }
      let parts = string.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
      guard !string.isEmpty, !parts.contains("") else {
        throw fail("empty component (key paths look like 'birthRate' or 'emitterCells.snow.birthRate')")
      }
      var names: [String] = []
      var i = 0
      while i < parts.count, parts[i] == "emitterCells" {
        guard i + 1 < parts.count else { throw fail("'emitterCells' must be followed by a cell name") }
        names.append(parts[i + 1])
        i += 2
      }
      guard i < parts.count else {
        throw fail("missing the property after cell '\(names[names.count - 1])'")
      }
      if parts[i] == "emitterBehaviors" {
        guard i + 2 < parts.count else {
          throw fail("'emitterBehaviors' must be followed by a behavior name and a key (emitterBehaviors.NAME.KEY)")
        }
        let key = parts[(i + 2)...].joined(separator: ".")
        if let reason = Self.behaviorKeyProblem(key) { throw fail(reason) }
        self.init(cellNames: names, behaviorName: parts[i + 1], property: key)
        return
      }
      let property = parts[i...].joined(separator: ".")
      if names.isEmpty {
        guard Emitter.propertiesByName[property] != nil else {
          throw fail(Self.unknown(property, kind: "layer", in: Emitter.propertyDescriptors.map(\.name)))
        }
      } else {
        if property == "name" {
          throw fail("a cell's name cannot be set or read by key path (cells are addressed by name)")
        }
        guard EmitterCell.propertiesByName[property] != nil else {
          throw fail(Self.unknown(property, kind: "cell", in: EmitterCell.propertyDescriptors.map(\.name)))
        }
      }
      self.init(cellNames: names, property: property)
    }

    private init(cellNames: [String], behaviorName: String? = nil, property: String) {
      self.cellNames = cellNames
      self.behaviorName = behaviorName
      self.property = property
    }

    /// Why `key` cannot be a behavior's key in a key path, or nil. The key
    /// must be one some kind has (which kind the named behavior is, is
    /// checked when the path is used on an emitter).
    private static func behaviorKeyProblem(_ key: String) -> String? {
      switch key {
      case "name": return "a behavior's name cannot be set or read by key path (behaviors are addressed by name)"
      case "type": return "a behavior's type cannot be set or read by key path; replace the behavior instead"
      case "colors":
        return "a colorOverLife's colors (a list of colours) cannot be set or read by key path; "
          + "set them on the behavior"
      default:
        guard EmitterBehavior.keyPathKinds[key] == nil else { return nil }
        return unknown(key, kind: "behavior", in: BehaviorKey.allCases.map(\.rawValue))
      }
    }

    private static func unknown(_ property: String, kind: String, in names: [String]) -> String {
      var reason = "unknown \(kind) property '\(property)'"
      if let near = closestName(to: property, in: names) { reason += " (did you mean '\(near)'?)" }
      return reason
    }

    /// A property of the emitter layer itself, e.g. `.layer(.birthRate)`.
    public static func layer(_ property: LayerProperty) -> KeyPath {
      KeyPath(cellNames: [], property: property.rawValue)
    }

    /// A property of the top-level cell named `name`, e.g. `.cell("snow", .birthRate)`.
    public static func cell(_ name: String, _ property: CellProperty) -> KeyPath {
      cell([name], property)
    }

    /// A property of a (sub-)cell found by descending through `names`, e.g.
    /// `.cell(["rocket", "spark"], .emissionRange)`.
    public static func cell(_ names: [String], _ property: CellProperty) -> KeyPath {
      precondition(!names.isEmpty, "Emitter.KeyPath.cell: give at least one cell name")
      precondition(
        names.allSatisfy { !$0.isEmpty && !$0.contains(".") },
        "Emitter.KeyPath.cell: cell names must be non-empty and contain no '.'")
      return KeyPath(cellNames: names, property: property.rawValue)
    }

    /// A key of the behavior named `name`: of the layer's behaviors, or of
    /// the (sub-)cell found by descending through `cellNames`, e.g.
    /// `.behavior("pull", .stiffness)` (`emitterBehaviors.pull.stiffness`),
    /// `.behavior("sway", .forceX, inCell: ["confetti"])`.
    public static func behavior(_ name: String, _ key: BehaviorKey, inCell cellNames: [String] = []) -> KeyPath {
      precondition(
        !name.isEmpty && !name.contains("."), "Emitter.KeyPath.behavior: a behavior name must be non-empty, no '.'")
      precondition(
        cellNames.allSatisfy { !$0.isEmpty && !$0.contains(".") },
        "Emitter.KeyPath.behavior: cell names must be non-empty and contain no '.'")
      return KeyPath(cellNames: cellNames, behaviorName: name, property: key.rawValue)
    }

    /// The path as Core Animation spells it.
    public var description: String {
      (cellNames.map { "emitterCells.\($0)." }.joined())
        + (behaviorName.map { "emitterBehaviors.\($0)." } ?? "") + property
    }
  }

  /// The behavior keys a key path can name (`emitterBehaviors.NAME.KEY`),
  /// with the components of vector keys; which of them a behavior has
  /// depends on its kind (docs/effect-format.md, "Emitter behaviors").
  public enum BehaviorKey: String, CaseIterable, Hashable, Sendable {
    /// Whether the behavior acts (every kind).
    case enabled
    /// `wave`: the force at the crest (a 3-vector value) and its components.
    case force
    /// `force.x`.
    case forceX = "force.x"
    /// `force.y`.
    case forceY = "force.y"
    /// `force.z`.
    case forceZ = "force.z"
    /// `wave`: periods per second.
    case frequency
    /// `drag`: the drag coefficient, per second.
    case drag
    /// `attractor`: `radial`, `axial` or `planar` (a name).
    case attractorType
    /// `attractor`, `simpleAttractor`: the spring's stiffness, the radius
    /// without effect, the centre (a 2-vector value) and its components.
    case stiffness, radius, position
    /// `position.x`.
    case positionX = "position.x"
    /// `position.y`.
    case positionY = "position.y"
    /// `attractor`: the centre's z and the orientation of its axis or normal.
    case zPosition, orientationLatitude, orientationLongitude
    /// `attractor`, `simpleAttractor`: the change of stiffness far away.
    case falloff
    /// `attractor`: where the falloff starts beyond the radius.
    case falloffDistance
    /// `valueOverLife`: the property keyed (a name), the keyed values and
    /// their locations (number lists), whether they add.
    case keyPath, values, locations, additive
    /// `alignToMotion`: the turn added to the direction of motion, and the
    /// 3-D flag.
    case rotation, preservesDepth
  }

  /// The layer properties a key path can name (`CAEmitterLayer` keys), with
  /// the components of vector properties (`emitterSize.width`).
  public enum LayerProperty: String, CaseIterable, Hashable, Sendable {
    /// The multipliers of every cell's value at birth (``Emitter/birthRate``…).
    case birthRate, lifetime, velocity, scale, spin
    /// The centre of the emission shape, points (a 2-vector value).
    case emitterPosition
    /// `emitterPosition.x`, points.
    case emitterPositionX = "emitterPosition.x"
    /// `emitterPosition.y`, points (y down).
    case emitterPositionY = "emitterPosition.y"
    /// The z of the shape's centre, points.
    case emitterZPosition
    /// The shape's width and height, points (a 2-vector value).
    case emitterSize
    /// `emitterSize.width`, points.
    case emitterSizeWidth = "emitterSize.width"
    /// `emitterSize.height`, points.
    case emitterSizeHeight = "emitterSize.height"
    /// The shape's depth (points), shape, mode, the render mode, whether depth
    /// is kept, and the random seed: the ``Emitter`` properties of those names.
    case emitterDepth, emitterShape, emitterMode, renderMode, preservesDepth, seed
    /// The emitter's timing (seconds, rate, seconds): ``Emitter/beginTime``…
    case beginTime, speed, timeOffset
  }

  /// The cell properties a key path can name (`CAEmitterCell` keys), with the
  /// components of vector properties (`color.red`, `contentsRect.size.width`).
  public enum CellProperty: String, CaseIterable, Hashable, Sendable {
    /// ``EmitterCell/isEnabled``, spelled `enabled` as on `CAEmitterCell`.
    case isEnabled = "enabled"
    /// Births per second, lifetime (s) and initial speed (points/s), means and
    /// ranges: the ``EmitterCell`` properties of those names.
    case birthRate, lifetime, lifetimeRange, velocity, velocityRange
    /// Acceleration per axis, points per second².
    case xAcceleration, yAcceleration, zAcceleration
    /// A particle's mass (mean and range): behavior forces are divided by it.
    case mass, massRange
    /// The emission direction and cone, radians.
    case emissionLatitude, emissionLongitude, emissionRange
    /// Scale (mean, range, change per second) and spin (radians per second,
    /// mean and range).
    case scale, scaleRange, scaleSpeed, spin, spinRange
    /// The mean colour (a 4-vector value, components 0…1).
    case color
    /// `color.red`, 0…1.
    case colorRed = "color.red"
    /// `color.green`, 0…1.
    case colorGreen = "color.green"
    /// `color.blue`, 0…1.
    case colorBlue = "color.blue"
    /// `color.alpha`, 0…1.
    case colorAlpha = "color.alpha"
    /// Full widths of the colour components' uniform ranges at birth.
    case redRange, greenRange, blueRange, alphaRange
    /// Colour components' change per second of age.
    case redSpeed, greenSpeed, blueSpeed, alphaSpeed
    /// The sprite: a built-in name or a PNG path (a string value).
    case contents
    /// The unit sub-rectangle of the sprite (a 4-vector value: x, y, width, height).
    case contentsRect
    /// `contentsRect.origin.x`, unit sprite coordinates.
    case contentsRectOriginX = "contentsRect.origin.x"
    /// `contentsRect.origin.y`, unit sprite coordinates.
    case contentsRectOriginY = "contentsRect.origin.y"
    /// `contentsRect.size.width`, unit sprite coordinates.
    case contentsRectSizeWidth = "contentsRect.size.width"
    /// `contentsRect.size.height`, unit sprite coordinates.
    case contentsRectSizeHeight = "contentsRect.size.height"
    /// Sprite pixels per point, and the sampling filters (names) and bias.
    case contentsScale, magnificationFilter, minificationFilter, minificationFilterBias
    /// The cell's timing: begin time (s), duration (s, 0 = forever), rate, offset (s).
    case beginTime, duration, speed, timeOffset
  }
}

// MARK: - Setting and reading by key path

extension Emitter {
  /// Sets the property named by a Core Animation key path, checking the value
  /// as an effect file would (kind, finiteness, sign, allowed names).
  ///
  ///     try emitter.setValue(0, forKeyPath: "emitterCells.snow.birthRate")
  ///     try emitter.setValue([10, 20], forKeyPath: "emitterPosition")
  ///
  /// Numbers are accepted for `Float`, `Double` and `seed` properties; vectors
  /// for `emitterPosition`, `emitterSize`, `color` (3 or 4 components) and
  /// `contentsRect`; strings for names and `contents` ("" clears it).
  /// - Throws: `KeyPathError` naming the path: an unknown property or cell
  ///   name, or a value of the wrong kind or out of range. On error the
  ///   emitter is unchanged.
  /// - Complexity: O(depth × siblings) to find the cell.
  public mutating func setValue(_ value: PropertyValue, forKeyPath keyPath: String) throws(KeyPathError) {
    try setValue(value, for: KeyPath(keyPath))
  }

  /// Sets the property named by a parsed key path (see
  /// ``setValue(_:forKeyPath:)``).
  public mutating func setValue(_ value: PropertyValue, for keyPath: KeyPath) throws(KeyPathError) {
    let path = keyPath.description
    if keyPath.behaviorName != nil {
      if keyPath.cellNames.isEmpty {
        try Self.setBehaviorValue(value, in: &emitterBehaviors, keyPath: keyPath, owner: "of the layer")
      } else {
        let owner = "of cell '\(keyPath.cellNames[keyPath.cellNames.count - 1])'"
        try Self.withCell(in: &emitterCells, names: keyPath.cellNames[...], parent: nil, path: path) {
          (cell: inout EmitterCell) throws(KeyPathError) in
          try Self.setBehaviorValue(value, in: &cell.emitterBehaviors, keyPath: keyPath, owner: owner)
        }
      }
      return
    }
    if keyPath.cellNames.isEmpty {
      // Safe: `KeyPath` only holds properties that exist in the table.
      let descriptor = Emitter.propertiesByName[keyPath.property]!
      do throws(PropertyValueProblem) {
        try descriptor.set(&self, value)
      } catch {
        throw KeyPathError(keyPath: path, reason: error.keyPathReason)
      }
      return
    }
    let descriptor = EmitterCell.propertiesByName[keyPath.property]!
    try Self.withCell(in: &emitterCells, names: keyPath.cellNames[...], parent: nil, path: path) {
      (cell: inout EmitterCell) throws(KeyPathError) in
      // A copy, so that a value breaking a rule across properties leaves the cell unchanged.
      var changed = cell
      do throws(PropertyValueProblem) {
        try descriptor.set(&changed, value)
      } catch {
        throw KeyPathError(keyPath: path, reason: error.keyPathReason)
      }
      if let problem = changed.crossPropertyProblem() {
        throw KeyPathError(keyPath: path, reason: problem.reason)
      }
      cell = changed
    }
  }

  /// The current value of the property named by a key path, as
  /// ``setValue(_:forKeyPath:)`` accepts it (so get-then-set is the identity).
  /// `contents` reads as "" when the cell has none.
  /// - Throws: `KeyPathError` for an unknown property or cell name.
  public func value(forKeyPath keyPath: String) throws(KeyPathError) -> PropertyValue {
    try value(for: KeyPath(keyPath))
  }

  /// The current value of the property named by a parsed key path.
  public func value(for keyPath: KeyPath) throws(KeyPathError) -> PropertyValue {
    if keyPath.cellNames.isEmpty {
      if keyPath.behaviorName != nil {
        return try Self.behaviorValue(in: emitterBehaviors, keyPath: keyPath, owner: "of the layer")
      }
      return Emitter.propertiesByName[keyPath.property]!.get(self)
    }
    var cells = emitterCells
    var parent: String?
    for name in keyPath.cellNames.dropLast() {
      cells = try Self.cell(named: name, in: cells, parent: parent, path: keyPath.description).emitterCells
      parent = name
    }
    let name = keyPath.cellNames[keyPath.cellNames.count - 1]
    let cell = try Self.cell(named: name, in: cells, parent: parent, path: keyPath.description)
    if keyPath.behaviorName != nil {
      return try Self.behaviorValue(in: cell.emitterBehaviors, keyPath: keyPath, owner: "of cell '\(name)'")
    }
    return EmitterCell.propertiesByName[keyPath.property]!.get(cell)
  }

  // MARK: Behaviors

  /// The behavior a behavior key path names (the first of that name in the
  /// layer's or the cell's list), or nil when there is none.
  /// - Complexity: O(depth × siblings + behaviors).
  func behavior(for keyPath: KeyPath) -> EmitterBehavior? {
    guard let name = keyPath.behaviorName else { return nil }
    let behaviors: [EmitterBehavior]
    if keyPath.cellNames.isEmpty {
      behaviors = emitterBehaviors
    } else {
      guard let cell = cell(named: keyPath.cellNames) else { return nil }
      behaviors = cell.emitterBehaviors
    }
    return behaviors.first { $0.name == name }
  }

  /// The index of the behavior a key path names in `behaviors` and the
  /// descriptor of its key, or an error naming the path: no behavior of
  /// that name (listing the names there are), or a key its kind does not
  /// have (listing the kind's keys).
  /// - Parameter owner: whose list it is, for messages: "of the layer",
  ///   "of cell 'confetti'".
  static func behaviorParameter(
    in behaviors: [EmitterBehavior], keyPath: KeyPath, owner: String
  ) throws(KeyPathError) -> (index: Int, descriptor: PropertyDescriptor<EmitterBehavior>) {
    // Safe: only behavior key paths come here.
    let name = keyPath.behaviorName!
    guard let index = behaviors.firstIndex(where: { $0.name == name }) else {
      let names = behaviors.compactMap(\.name)
      var reason = "no behavior named '\(name)' in emitterBehaviors \(owner)"
      reason += names.isEmpty ? " (it has no named behaviors)" : " (behaviors: \(names.joined(separator: ", ")))"
      if let near = closestName(to: name, in: names) { reason += "; did you mean '\(near)'?" }
      throw KeyPathError(keyPath: keyPath.description, reason: reason)
    }
    let kind = behaviors[index].kind
    guard let d = kind.parametersByName[keyPath.property], d.kind != .colors else {
      var reason = "\(behaviors[index].label) has no key '\(keyPath.property)'"
      if let near = closestName(to: keyPath.property, in: kind.keyPathKeys) { reason += " (did you mean '\(near)'?)" }
      reason += "; \(kind.type) keys: \(kind.keyPathKeys.joined(separator: ", "))"
      throw KeyPathError(keyPath: keyPath.description, reason: reason)
    }
    return (index, d)
  }

  static func behaviorValue(
    in behaviors: [EmitterBehavior], keyPath: KeyPath, owner: String
  ) throws(KeyPathError) -> PropertyValue {
    let (index, d) = try behaviorParameter(in: behaviors, keyPath: keyPath, owner: owner)
    return d.get(behaviors[index])
  }

  /// Sets a behavior's key, checking the value as an effect file would
  /// (its own rule, then the rules across keys); on error `behaviors` is
  /// unchanged.
  static func setBehaviorValue(
    _ value: PropertyValue, in behaviors: inout [EmitterBehavior], keyPath: KeyPath, owner: String
  ) throws(KeyPathError) {
    let (index, d) = try behaviorParameter(in: behaviors, keyPath: keyPath, owner: owner)
    var changed = behaviors[index]
    do throws(PropertyValueProblem) {
      try d.set(&changed, value)
    } catch {
      throw KeyPathError(keyPath: keyPath.description, reason: error.keyPathReason)
    }
    if let (_, problem) = changed.crossParameterProblem() {
      throw KeyPathError(keyPath: keyPath.description, reason: problem.reason)
    }
    behaviors[index] = changed
  }

  /// The first cell named `name` among `cells`, or an error that lists the
  /// names there are.
  private static func cell(
    named name: String, in cells: [EmitterCell], parent: String?, path: String
  ) throws(KeyPathError) -> EmitterCell {
    guard let index = cells.firstIndex(where: { $0.name == name }) else {
      throw missingCell(name, in: cells, parent: parent, path: path)
    }
    return cells[index]
  }

  private static func missingCell(_ name: String, in cells: [EmitterCell], parent: String?, path: String)
    -> KeyPathError
  {
    let siblings = cells.compactMap(\.name)
    var reason = "no cell named '\(name)' in emitterCells"
    if let parent { reason += " of '\(parent)'" }
    reason += siblings.isEmpty ? " (it has no named cells)" : " (cells: \(siblings.joined(separator: ", ")))"
    if let near = closestName(to: name, in: siblings) { reason += "; did you mean '\(near)'?" }
    return KeyPathError(keyPath: path, reason: reason)
  }

  /// Runs `body` on the cell found by descending through `names`.
  static func withCell(
    in cells: inout [EmitterCell], names: ArraySlice<String>, parent: String?, path: String,
    _ body: (inout EmitterCell) throws(KeyPathError) -> Void
  ) throws(KeyPathError) {
    let name = names[names.startIndex]
    guard let index = cells.firstIndex(where: { $0.name == name }) else {
      throw missingCell(name, in: cells, parent: parent, path: path)
    }
    if names.count == 1 {
      try body(&cells[index])
    } else {
      try withCell(in: &cells[index].emitterCells, names: names.dropFirst(), parent: name, path: path, body)
    }
  }
}
