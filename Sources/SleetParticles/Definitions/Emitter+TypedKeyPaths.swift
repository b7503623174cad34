import SleetMath

// MARK: - Typed Swift API
//
// Cells found and changed by their names, for code (the string key paths are
// in Emitter+KeyPaths.swift).

extension Emitter {
  /// The cell found by descending through `names` (first match per level),
  /// or nil. `emitter.cell(named: ["rocket", "spark"])`.
  /// - Complexity: O(depth × siblings).
  public func cell(named names: [String]) -> EmitterCell? {
    var cells = emitterCells
    var found: EmitterCell?
    for name in names {
      guard let c = cells.first(where: { $0.name == name }) else { return nil }
      found = c
      cells = c.emitterCells
    }
    return found
  }

  /// Changes the cell found by descending through `names` with `update`,
  /// then checks the changed cell (and its sub-cells) as an effect file
  /// would. On error the emitter is unchanged.
  ///
  ///     try emitter.updateCell(named: ["rocket", "spark"]) { $0.emissionRange = .pi; $0.birthRate = 20 }
  ///
  /// - Throws: `KeyPathError` for a missing cell or an invalid value, naming
  ///   the key path of the offending property.
  /// - Complexity: O(depth × siblings + size of the cell's subtree).
  public mutating func updateCell(
    named names: [String], _ update: (inout EmitterCell) -> Void
  ) throws(KeyPathError) {
    precondition(!names.isEmpty, "Emitter.updateCell: give at least one cell name")
    let prefix = names.map { "emitterCells.\($0)." }.joined()
    let path = String(prefix.dropLast())
    var cells = emitterCells
    try Self.withCell(in: &cells, names: names[...], parent: nil, path: path) {
      (cell: inout EmitterCell) throws(KeyPathError) in
      update(&cell)
      try cell.validate(keyPathPrefix: prefix)
    }
    emitterCells = cells
  }

  /// Sets one property of the cell found by descending through `names`,
  /// with the same checks as key paths.
  ///
  ///     try emitter.set(\.birthRate, 5, forCellNamed: ["rocket", "spark"])
  ///
  /// - Throws: `KeyPathError` for a missing cell or an invalid value.
  public mutating func set<Value>(
    _ property: WritableKeyPath<EmitterCell, Value>, _ value: Value, forCellNamed names: [String]
  ) throws(KeyPathError) {
    try updateCell(named: names) { $0[keyPath: property] = value }
  }

  /// Checks every value of the emitter and its cells as an effect file would:
  /// finite numbers, non-negative rates, lifetimes, ranges, sizes and
  /// durations, colour components in [0, 1], known names and sprites, a
  /// mass range above 0, cell names that are non-empty, free of '.', not
  /// starting with '#' and unique among siblings, and every behavior of the
  /// layer and the cells (docs/effect-format.md, "Emitter behaviors").
  /// - Throws: `KeyPathError` naming the key path of the first bad value.
  /// - Complexity: O(cells × properties).
  public func validate() throws(KeyPathError) {
    try validate(includingSprites: true)
  }

  /// `validate()`, optionally without the sprite-name check: code may draw
  /// `contents` names from its own sprite library (SleetPreview's
  /// `SpriteLibrary`), and the simulation never reads them.
  /// - Complexity: O(cells × properties).
  func validate(includingSprites: Bool) throws(KeyPathError) {
    for d in Emitter.propertyDescriptors where !d.isComponent {
      var probe = self
      do throws(PropertyValueProblem) {
        try d.set(&probe, d.get(self))
      } catch {
        throw KeyPathError(keyPath: d.name, reason: error.keyPathReason)
      }
    }
    try EmitterBehavior.validate(emitterBehaviors, keyPathPrefix: "")
    try EmitterCell.validate(emitterCells, keyPathPrefix: "", includingSprites: includingSprites)
  }
}

extension EmitterCell {
  /// Checks this cell's values and its sub-cells (see `Emitter.validate()`).
  func validate(keyPathPrefix prefix: String, includingSprites: Bool = true) throws(KeyPathError) {
    for d in EmitterCell.propertyDescriptors where !d.isComponent && (includingSprites || d.kind != .sprite) {
      var probe = self
      do throws(PropertyValueProblem) {
        try d.set(&probe, d.get(self))
      } catch {
        throw KeyPathError(keyPath: prefix + d.name, reason: error.keyPathReason)
      }
    }
    if let problem = crossPropertyProblem() {
      throw KeyPathError(keyPath: prefix + problem.key, reason: problem.reason)
    }
    try EmitterBehavior.validate(emitterBehaviors, keyPathPrefix: prefix)
    try EmitterCell.validate(emitterCells, keyPathPrefix: prefix, includingSprites: includingSprites)
  }

  static func validate(
    _ cells: [EmitterCell], keyPathPrefix prefix: String, includingSprites: Bool = true
  ) throws(KeyPathError) {
    var seen: Set<String> = []
    for (i, cell) in cells.enumerated() {
      let here: String
      if let name = cell.name {
        if let problem = nameProblem(name) {
          throw KeyPathError(keyPath: prefix + "emitterCells[\(i)].name", reason: problem)
        }
        guard seen.insert(name).inserted else {
          throw KeyPathError(
            keyPath: prefix + "emitterCells.\(name)", reason: "two sibling cells are named '\(name)'")
        }
        here = prefix + "emitterCells.\(name)."
      } else {
        here = prefix + "emitterCells[\(i)]."
      }
      try cell.validate(keyPathPrefix: here, includingSprites: includingSprites)
    }
  }

  /// Why `name` cannot be used as a cell name in key paths, or nil.
  static func nameProblem(_ name: String) -> String? {
    if name.isEmpty { return "a cell name must not be empty" }
    if name.contains(".") { return "a cell name must not contain '.', got '\(name)'" }
    // Unnamed cells get the path component "#i" (their index); a real name
    // starting with '#' could collide with one.
    if name.hasPrefix("#") { return "a cell name must not start with '#' (reserved for unnamed cells), got '\(name)'" }
    return nil
  }

  /// The number of cells in this cell's subtree, itself included.
  public var subtreeCount: Int { 1 + emitterCells.reduce(0) { $0 + $1.subtreeCount } }
}

extension EmitterBehavior {
  /// Checks a behavior list as an effect file's is checked
  /// (``check(_:)``), naming the offending key below `prefix`:
  /// `emitterCells.confetti.emitterBehaviors[1].frequency: wave 'sway': must be ≥ 0, got -1`.
  /// - Complexity: O(behaviors × keys + values).
  static func validate(_ behaviors: [EmitterBehavior], keyPathPrefix prefix: String) throws(KeyPathError) {
    do throws(BehaviorProblem) {
      try check(behaviors)
    } catch {
      throw KeyPathError(keyPath: prefix + error.path, reason: error.reason)
    }
  }
}
