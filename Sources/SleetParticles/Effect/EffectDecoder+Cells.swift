import Foundation
import SleetMath

// The effect reader's cells, key-path changes and parameters: the parts of an
// effect file below the layer (Effect+JSON.swift reads the document and its
// values; the rules are those of docs/effect-format.md).
extension EffectDecoder {
  // MARK: Cells

  static func cells(_ v: JSONValue, path: String) throws(EffectFormatError) -> [EmitterCell] {
    guard case .array(let elements) = v else {
      throw EffectFormatError(path: path, reason: "expected an array of cells, got \(v.kindDescription)")
    }
    var result: [EmitterCell] = []
    for (i, e) in elements.enumerated() {
      result.append(try self.cell(e, path: "\(path)[\(i)]"))
    }
    try checkUniqueNames(result, path: path)
    return result
  }

  /// Rejects two sibling cells with the same name (key paths select by name).
  static func checkUniqueNames(_ cells: [EmitterCell], path: String) throws(EffectFormatError) {
    var firstIndex: [String: Int] = [:]
    for (i, cell) in cells.enumerated() {
      guard let name = cell.name else { continue }
      if let j = firstIndex[name] {
        throw EffectFormatError(
          path: "\(path)[\(i)].name",
          reason: "duplicate cell name '\(name)' (already used by \(path)[\(j)]); key paths need unique names")
      }
      firstIndex[name] = i
    }
  }

  static func cell(_ v: JSONValue, path: String) throws(EffectFormatError) -> EmitterCell {
    let members = try object(v, path: path, what: "a cell (a JSON object)")
    _ = try uniqueFields(members, path: path)
    var cell = EmitterCell()
    for m in members {
      let p = join(path, m.key)
      switch m.key {
      case "name":
        let name = try string(m.value, path: p)
        if let problem = EmitterCell.nameProblem(name) { throw EffectFormatError(path: p, reason: problem) }
        cell.name = name
      case "emitterCells":
        cell.emitterCells = try cells(m.value, path: p)
      case "emitterBehaviors":
        cell.emitterBehaviors = try behaviors(m.value, path: p)
      default:
        guard let d = EmitterCell.propertiesByName[m.key], !d.isComponent else {
          throw unknownKey(m.key, path: p, known: cellKeys + propertyKeys(EmitterCell.propertyDescriptors))
        }
        try set(d, of: &cell, to: m.value, path: p)
      }
    }
    if let problem = cell.crossPropertyProblem() {
      throw EffectFormatError(path: join(path, problem.key), reason: problem.reason)
    }
    return cell
  }

  // MARK: Behaviors

  /// An `emitterBehaviors` list: each behavior, then the list's own rule
  /// (unique names).
  static func behaviors(_ v: JSONValue, path: String) throws(EffectFormatError) -> [EmitterBehavior] {
    guard case .array(let elements) = v else {
      throw EffectFormatError(path: path, reason: "expected an array of behaviors, got \(v.kindDescription)")
    }
    var result: [EmitterBehavior] = []
    for (i, e) in elements.enumerated() {
      result.append(try behavior(e, path: "\(path)[\(i)]"))
    }
    do throws(BehaviorProblem) {
      try EmitterBehavior.check(result)
    } catch {
      let owner = path.dropLast("emitterBehaviors".count)
      throw EffectFormatError(path: owner + error.path, reason: error.reason)
    }
    return result
  }

  /// One behavior object: `type` first (it decides the keys), `name`, then
  /// every key through the kind's table; errors name the behavior.
  static func behavior(_ v: JSONValue, path: String) throws(EffectFormatError) -> EmitterBehavior {
    let members = try object(v, path: path, what: "a behavior (a JSON object)")
    let fields = try uniqueFields(members, path: path)
    let typePath = join(path, "type")
    guard let typeValue = fields["type"] else {
      throw EffectFormatError(path: typePath, reason: EmitterBehavior.missingTypeReason)
    }
    let kind: EmitterBehavior.Kind
    switch EmitterBehavior.kind(forType: try string(typeValue, path: typePath)) {
    case .success(let k): kind = k
    case .failure(let problem): throw EffectFormatError(path: typePath, reason: problem.reason)
    }
    var behavior = kind.template
    if let nameValue = fields["name"] {
      let name = try string(nameValue, path: join(path, "name"))
      behavior.name = name
      if let problem = EmitterBehavior.nameProblem(name) {
        throw EffectFormatError(path: join(path, "name"), reason: "\(behavior.label): \(problem)")
      }
    }
    let label = behavior.label
    for m in members where m.key != "type" && m.key != "name" {
      let p = join(path, m.key)
      guard let d = kind.parametersByName[m.key], !d.isComponent else {
        throw EffectFormatError(path: p, reason: EmitterBehavior.unknownKeyReason(m.key, kind: kind, label: label))
      }
      let value: PropertyValue
      do throws(EffectFormatError) {
        value = try propertyValue(m.value, kind: d.kind, floatLiterals: true, path: p)
      } catch {
        throw EffectFormatError(path: error.path, reason: "\(label): \(error.reason)")
      }
      do throws(PropertyValueProblem) {
        try d.set(&behavior, value)
      } catch {
        throw EffectFormatError(path: p + error.indexSuffix, reason: "\(label): \(error.reason)")
      }
    }
    for key in kind.required where fields[key] == nil {
      throw EffectFormatError(path: join(path, key), reason: "\(label): required field is missing")
    }
    if let (key, problem) = behavior.crossParameterProblem() {
      throw EffectFormatError(path: join(path, key) + problem.indexSuffix, reason: "\(label): \(problem.reason)")
    }
    return behavior
  }

  // MARK: Changes

  static func kind(of keyPath: Emitter.KeyPath) -> PropertyKind {
    // Safe: `KeyPath` only holds properties that exist in the tables.
    if keyPath.behaviorName != nil { return EmitterBehavior.keyPathKinds[keyPath.property]! }
    return keyPath.cellNames.isEmpty
      ? Emitter.propertiesByName[keyPath.property]!.kind
      : EmitterCell.propertiesByName[keyPath.property]!.kind
  }

  /// Parses a key path and, given an emitter, checks that it names an existing cell.
  static func keyPath(_ text: String, emitter: Emitter?, path: String) throws(EffectFormatError) -> Emitter.KeyPath {
    do throws(KeyPathError) {
      let keyPath = try Emitter.KeyPath(text)
      if let emitter { _ = try emitter.value(for: keyPath) }
      return keyPath
    } catch {
      throw EffectFormatError(path: path, reason: "'\(text)': \(error.reason)")
    }
  }

  static func changes(_ v: JSONValue, emitter: Emitter) throws(EffectFormatError) -> [PropertyChange] {
    guard case .array(let elements) = v else {
      throw EffectFormatError(path: "changes", reason: "expected an array of changes, got \(v.kindDescription)")
    }
    var result: [PropertyChange] = []
    for (i, e) in elements.enumerated() {
      let path = "changes[\(i)]"
      let members = try object(e, path: path, what: "a change (a JSON object)")
      let fields = try uniqueFields(members, path: path)
      try checkKeys(members, allowed: changeKeys, path: path)
      let time = try finiteDouble(try required(fields, "time", path: path), path: "\(path).time")
      let text = try string(try required(fields, "keyPath", path: path), path: "\(path).keyPath")
      // The shared check of a change's time and key path, here so that the
      // value below can be read as the property's kind.
      let keyPath: Emitter.KeyPath
      do throws(EffectValidationError) {
        keyPath = try Effect.checkedKeyPath(text, time: time, index: i, on: emitter)
      } catch {
        throw EffectFormatError(error)
      }
      // Change values stay `Double` (exact in both directions); the property
      // converts them when the change is applied.
      let kind = kind(of: keyPath)
      var values: [PropertyValue] = []
      if let v = fields["values"] {
        guard case .array(let elements) = v else {
          throw EffectFormatError(
            path: "\(path).values", reason: "expected an array of values, got \(v.kindDescription)")
        }
        for (k, e) in elements.enumerated() {
          values.append(try propertyValue(e, kind: kind, floatLiterals: false, path: "\(path).values[\(k)]"))
        }
      }
      // A keyframe animation's `value` may be left out: it is the last of `values`.
      let value: PropertyValue
      if let v = fields["value"] {
        value = try propertyValue(v, kind: kind, floatLiterals: false, path: "\(path).value")
      } else if let last = values.last {
        value = last
      } else {
        throw EffectFormatError(
          path: "\(path).value", reason: "required field is missing")
      }
      var change = PropertyChange(time: time, keyPath: keyPath.description, value: value)
      change.values = values
      if let v = fields["duration"] { change.duration = try finiteDouble(v, path: "\(path).duration") }
      if let v = fields["timingFunction"] {
        let p = "\(path).timingFunction"
        let given: PropertyValue =
          if case .string(let name) = v { .string(name) } else {
            try propertyValue(v, kind: .vector(4), floatLiterals: false, path: p)
          }
        switch PropertyChange.timingFunction(given) {
        case .success(let f): change.timingFunction = f
        case .failure(let problem): throw EffectFormatError(path: p + problem.indexSuffix, reason: problem.reason)
        }
      }
      if let v = fields["keyTimes"] {
        guard case .array(let elements) = v else {
          throw EffectFormatError(
            path: "\(path).keyTimes", reason: "expected an array of numbers, got \(v.kindDescription)")
        }
        for (k, e) in elements.enumerated() {
          change.keyTimes.append(try finiteDouble(e, path: "\(path).keyTimes[\(k)]"))
        }
      }
      result.append(change)
    }
    return result
  }

  // MARK: Parameters

  static func parameters(_ v: JSONValue, emitter: Emitter) throws(EffectFormatError) -> [EffectParameter] {
    let members = try object(v, path: "parameters", what: "an object of parameters")
    _ = try uniqueFields(members, path: "parameters")
    var result: [EffectParameter] = []
    for m in members {
      let path = "parameters.\(m.key)"
      let fieldsList = try object(m.value, path: path, what: "a parameter (a JSON object)")
      let fields = try uniqueFields(fieldsList, path: path)
      try checkKeys(fieldsList, allowed: parameterKeys, path: path)
      let value = try finiteDouble(try required(fields, "value", path: path), path: "\(path).value")
      let minimum = try fields["minimum"].map { v throws(EffectFormatError) in
        try finiteDouble(v, path: "\(path).minimum")
      }
      let maximum = try fields["maximum"].map { v throws(EffectFormatError) in
        try finiteDouble(v, path: "\(path).maximum")
      }
      guard case .array(let bindingValues) = try required(fields, "bindings", path: path) else {
        throw EffectFormatError(path: "\(path).bindings", reason: "expected an array of bindings")
      }
      var bindings: [EffectParameter.Binding] = []
      for (j, b) in bindingValues.enumerated() {
        let bp = "\(path).bindings[\(j)]"
        let bm = try object(b, path: bp, what: "a binding (a JSON object)")
        let bf = try uniqueFields(bm, path: bp)
        try checkKeys(bm, allowed: bindingKeys, path: bp)
        let keyPath = try string(try required(bf, "keyPath", path: bp), path: "\(bp).keyPath")
        let factor = try finiteDouble(try required(bf, "factor", path: bp), path: "\(bp).factor")
        let offset =
          try bf["offset"].map { v throws(EffectFormatError) in try finiteDouble(v, path: "\(bp).offset") } ?? 0
        bindings.append(EffectParameter.Binding(keyPath: keyPath, factor: factor, offset: offset))
      }
      let parameter = EffectParameter(
        name: m.key, value: value, minimum: minimum, maximum: maximum, bindings: bindings)
      try check(parameter, emitter: emitter, path: path)
      result.append(parameter)
    }
    return result
  }

  /// Checks a parameter read from a file against its emitter: a non-empty
  /// name, minimum ≤ maximum, bindings naming single numbers, a value in
  /// range, and stored values that are those the value produces (so a file
  /// reads the same with and without re-applying its parameters). Errors
  /// name `path` (the parameter's) or a field below it.
  static func check(_ parameter: EffectParameter, emitter: Emitter, path: String) throws(EffectFormatError) {
    let name = parameter.name
    guard !name.isEmpty else { throw EffectFormatError(path: path, reason: "a parameter name must not be empty") }
    // Files cannot hold non-finite numbers, but other decoders can.
    var numbers: [(field: String, value: Double?)] = [("minimum", parameter.minimum), ("maximum", parameter.maximum)]
    for (j, b) in parameter.bindings.enumerated() {
      numbers += [("bindings[\(j)].factor", b.factor), ("bindings[\(j)].offset", b.offset)]
    }
    for case (let field, let x?) in numbers where !x.isFinite {
      throw EffectFormatError(path: "\(path).\(field)", reason: "must be finite, got \(x)")
    }
    if let minimum = parameter.minimum, let maximum = parameter.maximum, minimum > maximum {
      throw EffectFormatError(
        path: "\(path).maximum",
        reason: "must be ≥ minimum (\(formatNumber(minimum))), got \(formatNumber(maximum))")
    }
    for (j, binding) in parameter.bindings.enumerated() {
      let bp = "\(path).bindings[\(j)].keyPath"
      let keyPath = try self.keyPath(binding.keyPath, emitter: emitter, path: bp)
      guard kind(of: keyPath).isScalarNumber else {
        throw EffectFormatError(
          path: bp, reason: "'\(keyPath)' is not a single number (bind a component such as 'emitterSize.width')")
      }
    }
    let value = parameter.value
    if let problem = parameter.rangeProblem(value) {
      throw EffectFormatError(path: "\(path).value", reason: problem)
    }
    for (j, binding) in parameter.bindings.enumerated() {
      var probe = emitter
      let expected = binding.offset + binding.factor * value
      do throws(KeyPathError) {
        try probe.setValue(.number(expected), forKeyPath: binding.keyPath)
        let want = try probe.value(forKeyPath: binding.keyPath)
        let have = try emitter.value(forKeyPath: binding.keyPath)
        guard have.isIdentical(to: want) else {
          // The way out: the value the parameter would need for the edited
          // number, or a file without parameters (values as written).
          var edit = "edit parameters.\(name).value"
          if case .number(let written) = have, binding.factor != 0 {
            edit += " (\(formatNumber((written - binding.offset) / binding.factor)) gives \(have.kindDescription))"
          }
          throw KeyPathError(
            keyPath: binding.keyPath,
            reason: "is \(have.kindDescription) but \(binding.formula(name)) = \(want.kindDescription) "
              + "for \(name) = \(formatNumber(value)); the parameter sets this value: \(edit), "
              + "or drop \"parameters\" to keep the values as written")
        }
      } catch {
        throw EffectFormatError(path: "\(path).bindings[\(j)]", reason: error.description)
      }
    }
  }
}
