import SleetMath

// Key paths as Core Animation users write them:
//
//     keyPath      := property | cellPath "." property
//     cellPath     := "emitterCells" "." name ( "." "emitterCells" "." name )*
//     property     := key ( "." component )*      e.g. birthRate, emitterSize.width, color.red
//
// A layer property is named at the top level (`birthRate`, `emitterPosition`);
// a cell property after one or more `emitterCells.<name>` steps
// (`emitterCells.rocket.emitterCells.spark.emissionRange`). A name selects the
// first cell of that name among its siblings, as Core Animation does; effect
// files reject duplicate sibling names so that the choice never matters there.

extension Emitter {
  /// A parsed, checked key path: the cells it descends through and the
  /// property it names. Parsing checks the grammar and the property name;
  /// the cell names are checked against an emitter when the path is used.
  ///
  ///     let path = try Emitter.KeyPath("emitterCells.rocket.emitterCells.spark.emissionRange")
  ///     path == .cell(["rocket", "spark"], .emissionRange)   // true
  public struct KeyPath: Hashable, Sendable, CustomStringConvertible {
    /// The cell names from the layer down; empty for a layer property.
    public let cellNames: [String]
    /// The property key: `birthRate`, `emitterSize.width`, `color.red`, ….
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
      self.cellNames = names
      self.property = property
    }

    private init(cellNames: [String], property: String) {
      self.cellNames = cellNames
      self.property = property
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

    /// The path as Core Animation spells it.
    public var description: String {
      (cellNames.map { "emitterCells.\($0)." }.joined()) + property
    }
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
      return Emitter.propertiesByName[keyPath.property]!.get(self)
    }
    var cells = emitterCells
    var parent: String?
    for name in keyPath.cellNames.dropLast() {
      cells = try Self.cell(named: name, in: cells, parent: parent, path: keyPath.description).emitterCells
      parent = name
    }
    let cell = try Self.cell(
      named: keyPath.cellNames[keyPath.cellNames.count - 1], in: cells, parent: parent, path: keyPath.description)
    return EmitterCell.propertiesByName[keyPath.property]!.get(cell)
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
