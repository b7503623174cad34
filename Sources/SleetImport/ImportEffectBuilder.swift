import Foundation
import SleetMath
import SleetParticles

/// Turns the objects the interpreter built into an ``Effect``: the layer,
/// its cells and behaviors as effect-file text (read back by
/// `Effect(json:)`, so every value passes the format's checks), view
/// geometry as the parameters `width` and `height`, and the animations added
/// to the layer as `changes` (docs/import.md).
struct ImportEffectBuilder {
  let interpreter: ImportInterpreter
  let options: ImportOptions
  /// Properties that depend on the view's size: key path, value, line.
  private var bound: [(keyPath: String, value: SizeLinear, line: Int)] = []
  /// The line each JSON path was set on, for errors the reader reports.
  private var lines: [String: Int] = [:]

  init(interpreter: ImportInterpreter, options: ImportOptions) {
    self.interpreter = interpreter
    self.options = options
  }

  private var size: ImportSize { options.size }

  private func note(_ reason: String, line: Int, kind: ImportNote.Kind = .untranslated) {
    interpreter.note(reason, line: line, kind: kind)
  }

  // MARK: - The effect

  mutating func build() throws(ImportError) -> Effect {
    guard let layer = interpreter.layers.first else {
      let cells = interpreter.cells.count
      throw ImportError(
        line: 0,
        reason: "the code creates no CAEmitterLayer (CAEmitterLayer(), [CAEmitterLayer layer])"
          + (cells > 0 ? "; it creates \(cells) cell\(cells == 1 ? "" : "s"): put them in a layer's emitterCells" : ""))
    }
    for other in interpreter.layers.dropFirst() {
      note("a second CAEmitterLayer: only the first one (line \(layer.line)) is imported", line: other.line)
    }
    var members = ["\"format\": 1"]
    members += layerMembers(layer)
    let parameterEntries = parameters()
    if !parameterEntries.isEmpty {
      members.insert("\"parameters\": {" + parameterEntries.joined(separator: ", ") + "}", at: 1)
    }
    let text = "{" + members.joined(separator: ",\n") + "}\n"
    let plain: Effect
    do throws(EffectFormatError) {
      plain = try Effect(json: text)
    } catch {
      throw ImportError(line: line(for: error.path), reason: error.description)
    }
    let (changes, changeLines) = self.changes(on: layer, emitter: plain.emitter)
    let effect: Effect
    do throws(EffectValidationError) {
      effect = try Effect(
        emitter: plain.emitter, changes: changes, parameters: plain.parameters, summary: options.summary)
    } catch {
      var line = 0
      if case .invalidChange(let index, _, _) = error, index < changeLines.count { line = changeLines[index] }
      throw ImportError(line: line, reason: error.description)
    }
    // The text `sleet validate` and every reader will see.
    do throws(EffectFormatError) {
      return try Effect(json: effect.jsonString())
    } catch {
      throw ImportError(line: 0, reason: "the imported effect does not read back: \(error)")
    }
  }

  private func line(for path: String) -> Int {
    var p = path
    while !p.isEmpty {
      if let l = lines[p] { return l }
      guard let cut = p.lastIndex(where: { $0 == "." || $0 == "[" }) else { break }
      p = String(p[..<cut])
    }
    return 0
  }

  // MARK: - Parameters

  private func parameters() -> [String] {
    var entries: [String] = []
    for (name, value, perWidth) in [("height", size.height, false), ("width", size.width, true)] {
      let bindings = bound.filter { perWidth ? $0.value.perWidth != 0 : $0.value.perHeight != 0 }
      guard !bindings.isEmpty else { continue }
      let list = bindings.map { b in
        let factor = perWidth ? b.value.perWidth : b.value.perHeight
        var s = "{\"keyPath\": \(JSONText.quoted(b.keyPath)), \"factor\": \(factor)"
        if b.value.constant != 0 { s += ", \"offset\": \(b.value.constant)" }
        return s + "}"
      }
      entries.append(
        "\(JSONText.quoted(name)): {\"value\": \(value), \"minimum\": 1, \"bindings\": [\(list.joined(separator: ", "))]}"
      )
    }
    return entries
  }

  /// The value a bound property is stored with: what its binding gives for
  /// the parameter's value, computed as `Effect.settingParameters` does.
  private func boundValue(_ x: SizeLinear) -> Double {
    if x.perHeight == 0 { return x.constant + x.perWidth * size.width }
    return x.constant + x.perHeight * size.height
  }

  // MARK: - Values

  /// A number for the property at `keyPath` (nil when the property cannot be
  /// bound: an unnamed cell), recording a binding when it depends on the
  /// view's size.
  private mutating func numberText(
    _ x: SizeLinear, float: Bool, keyPath: String?, line: Int, what: String
  ) -> String? {
    var value = x.constant
    if !x.isConstant {
      if x.perWidth != 0 && x.perHeight != 0 {
        note(
          "\(what) depends on both the view's width and height: kept as its value for \(interpreter.sizeText)",
          line: line)
        value = x.value(for: size)
      } else if let keyPath {
        bound.append((keyPath, x, line))
        value = boundValue(x)
      } else {
        note(
          "\(what) depends on the view's size but its cell (or one above it) has no name, so it cannot be a parameter: kept as its value for \(interpreter.sizeText)",
          line: line)
        value = x.value(for: size)
      }
    }
    guard value.isFinite else {
      note("\(what) is not a finite number: not imported", line: line)
      return nil
    }
    return float ? "\(Float(value))" : "\(value)"
  }

  private mutating func vectorText(
    _ v: ImportValue, components: [String], keyPath: String?, line: Int, what: String
  ) -> String? {
    var values: [SizeLinear]
    switch v {
    case .vector(let c, _): values = c
    case .zero: values = Array(repeating: SizeLinear(0), count: components.count)
    case .array(let xs):
      values = []
      for x in xs {
        guard case .number(let n) = x else {
          note("\(what) expects numbers", line: line)
          return nil
        }
        values.append(n)
      }
    default:
      note("\(what) expects \(components.count == 2 ? "a point or size" : "a vector")", line: line)
      return nil
    }
    if components.count == 3 && values.count == 2 { values.append(SizeLinear(0)) }
    guard values.count == components.count else {
      note("\(what) expects \(components.count) components, got \(values.count)", line: line)
      return nil
    }
    var texts: [String] = []
    for (c, x) in zip(components, values) {
      guard let t = numberText(x, float: true, keyPath: keyPath.map { "\($0).\(c)" }, line: line, what: what) else {
        return nil
      }
      texts.append(t)
    }
    return "[" + texts.joined(separator: ", ") + "]"
  }

  private func constantNumber(_ v: ImportValue, line: Int, what: String) -> Double? {
    switch v {
    case .number(let x):
      let value = x.value(for: size)
      guard value.isFinite else {
        note("\(what) is not a finite number: not imported", line: line)
        return nil
      }
      return value
    case .bool(let b): return b ? 1 : 0
    default:
      note("\(what) expects a number", line: line)
      return nil
    }
  }

  private func colorText(_ v: ImportValue, line: Int, what: String) -> String? {
    guard case .color(let r, let g, let b, let a) = v else {
      if case .unknown = v { return nil }
      note("\(what) expects a colour", line: line)
      return nil
    }
    return "[\(Float(r)), \(Float(g)), \(Float(b)), \(Float(a))]"
  }

  private func nameText(_ v: ImportValue, allowed: Set<String>, line: Int, what: String) -> String? {
    switch v {
    case .constant(let c) where allowed.contains(c): return JSONText.quoted(c)
    case .string(let s) where allowed.contains(s): return JSONText.quoted(s)
    case .unknown: return nil
    default:
      note("\(what) expects one of \(allowed.sorted().joined(separator: ", "))", line: line)
      return nil
    }
  }

  // MARK: - Layer, cells, behaviors

  private mutating func layerMembers(_ layer: ImportObject) -> [String] {
    var members: [String] = []
    for key in layer.keys {
      let v = layer[key]!
      let line = layer.lines[key] ?? layer.line
      if case .unknown = v { continue }
      lines[key] = line
      let what = "the layer's \(key)"
      var text: String?
      switch key {
      case "frame", "bounds":
        if case .vector(let c, .rect) = v, c[0].value(for: size) == 0, c[1].value(for: size) == 0 { continue }
        note(
          "the layer's \(key) is not imported: positions are in the layer's own space, which the render's --size covers",
          line: line)
        continue
      case "emitterPosition":
        text = vectorText(v, components: ["x", "y"], keyPath: key, line: line, what: what)
      case "emitterSize":
        text = vectorText(v, components: ["width", "height"], keyPath: key, line: line, what: what)
      case "emitterShape": text = nameText(v, allowed: ImportVocabulary.shapes, line: line, what: what)
      case "emitterMode": text = nameText(v, allowed: ImportVocabulary.modes, line: line, what: what)
      case "renderMode": text = nameText(v, allowed: ImportVocabulary.renderModes, line: line, what: what)
      case "preservesDepth":
        if case .bool(let b) = v { text = b ? "true" : "false" } else { note("\(what) expects a Boolean", line: line) }
      case "seed":
        if let x = constantNumber(v, line: line, what: what) { text = "\(Int64(x))" }
      case "emitterCells":
        text = cellsText(v, parentPath: "", jsonPath: key, line: line)
      case "emitterBehaviors":
        text = behaviorsText(v, ownerPath: "", jsonPath: key, line: line)
      default:
        if case .number(let x) = v {
          text = numberText(
            x, float: !ImportVocabulary.doubleProperties.contains(key), keyPath: key, line: line, what: what)
        } else {
          note("\(what) expects a number", line: line)
        }
      }
      if let text { members.append("\(JSONText.quoted(key)): \(text)") }
    }
    return members
  }

  /// The cells of a layer or cell. `parentPath` is the key path prefix of
  /// their owner (`""` for the layer), nil when the owner has none (an
  /// unnamed cell or one below it).
  private mutating func cellsText(_ v: ImportValue, parentPath: String?, jsonPath: String, line: Int) -> String? {
    guard case .array(let items) = v else {
      if case .unknown = v { return nil }
      note("emitterCells expects an array of cells", line: line)
      return nil
    }
    var texts: [String] = []
    var names: Set<String> = []
    for item in items {
      guard case .cell(let cell) = item else {
        if case .unknown = item { continue }
        note("emitterCells holds something that is not a CAEmitterCell: left out", line: line)
        continue
      }
      // Core Animation lets siblings share a name (a key path finds the
      // first); the format needs unique names, so a later one goes unnamed,
      // which every key path resolves the same way.
      var duplicate = false
      if case .string(let n)? = cell["name"] {
        duplicate = !names.insert(n).inserted
        if duplicate {
          note(
            "another cell in the same emitterCells is already named '\(n)': this one is left unnamed (key paths find the first, as on Core Animation)",
            line: cell.lines["name"] ?? line, kind: .substitution)
        }
      }
      texts.append(
        cellText(cell, parentPath: parentPath, jsonPath: "\(jsonPath)[\(texts.count)]", dropsName: duplicate))
    }
    return "[" + texts.joined(separator: ",\n") + "]"
  }

  private mutating func cellText(_ cell: ImportObject, parentPath: String?, jsonPath: String, dropsName: Bool)
    -> String
  {
    var name: String?
    if case .string(let n)? = cell["name"], !dropsName { name = n }
    // Key paths need a name at every level; a cell without one cannot carry bindings.
    let path: String? = parentPath.flatMap { p in name.map { p + "emitterCells.\($0)." } }
    var members: [String] = []
    for key in cell.keys {
      let v = cell[key]!
      let line = cell.lines[key] ?? cell.line
      if case .unknown = v { continue }
      lines["\(jsonPath).\(key)"] = line
      let what = "the cell's \(key)"
      var text: String?
      switch key {
      case "name":
        if dropsName { continue }
        if case .string(let s) = v {
          text = JSONText.quoted(s)
        } else {
          note("a cell's name expects a string", line: line)
        }
      case "enabled":
        if case .bool(let b) = v { text = b ? "true" : "false" } else { note("\(what) expects a Boolean", line: line) }
      case "color":
        text = colorText(v, line: line, what: what)
      case "contents":
        switch v {
        case .image(let imageName): text = JSONText.quoted(sprite(for: imageName, cellName: name, line: line))
        case .nothing: continue
        default: note("\(what) is not an image loaded by name (UIImage(named:)): no sprite", line: line)
        }
      case "contentsRect":
        if case .vector(let c, .rect) = v {
          text = "[" + c.map { "\(Float($0.value(for: size)))" }.joined(separator: ", ") + "]"
        } else {
          note("\(what) expects a CGRect", line: line)
        }
      case "magnificationFilter", "minificationFilter":
        text = nameText(v, allowed: ImportVocabulary.filters, line: line, what: what)
      case "emitterCells":
        text = cellsText(v, parentPath: path, jsonPath: "\(jsonPath).emitterCells", line: line)
      case "emitterBehaviors":
        text = behaviorsText(v, ownerPath: path, jsonPath: "\(jsonPath).emitterBehaviors", line: line)
      default:
        if case .number(let x) = v {
          text = numberText(
            x, float: !ImportVocabulary.doubleProperties.contains(key), keyPath: path.map { $0 + key }, line: line,
            what: what)
        } else {
          note("\(what) expects a number", line: line)
        }
      }
      if let text { members.append("\(JSONText.quoted(key)): \(text)") }
    }
    return "{" + members.joined(separator: ", ") + "}"
  }

  private mutating func behaviorsText(_ v: ImportValue, ownerPath: String?, jsonPath: String, line: Int) -> String? {
    guard case .array(let items) = v else {
      if case .unknown = v { return nil }
      note("emitterBehaviors expects an array of behaviors", line: line)
      return nil
    }
    var texts: [String] = []
    for item in items {
      guard case .behavior(let b) = item else {
        if case .unknown = item { continue }
        note("emitterBehaviors holds something that is not a behavior: left out", line: line)
        continue
      }
      guard case .string(let type)? = b["type"], let keys = ImportVocabulary.behaviorKeys[type] else { continue }
      var name: String?
      if case .string(let n)? = b["name"] { name = n }
      let path = ownerPath.flatMap { p in name.map { p + "emitterBehaviors.\($0)." } }
      var members = ["\"type\": \(JSONText.quoted(type))"]
      for key in b.keys where key != "type" {
        let value = b[key]!
        let l = b.lines[key] ?? b.line
        if case .unknown = value { continue }
        lines["\(jsonPath)[\(texts.count)].\(key)"] = l
        let what = "the \(type) behavior's \(key)"
        var text: String?
        switch (key, keys[key]) {
        case ("name", _):
          if case .string(let s) = value { text = JSONText.quoted(s) }
        case ("enabled", _):
          if case .bool(let flag) = value { text = flag ? "true" : "false" }
        case (_, .number?):
          if case .number(let x) = value {
            text = numberText(x, float: true, keyPath: path.map { $0 + key }, line: l, what: what)
          } else {
            note("\(what) expects a number", line: l)
          }
        case (_, .vector3?):
          text = vectorText(value, components: ["x", "y", "z"], keyPath: path.map { $0 + key }, line: l, what: what)
        case (_, .point?):
          text = vectorText(value, components: ["x", "y"], keyPath: path.map { $0 + key }, line: l, what: what)
        case (_, .string?):
          switch value {
          case .string(let s), .constant(let s): text = JSONText.quoted(s)
          default: note("\(what) expects a string", line: l)
          }
        case (_, .bool?):
          if case .bool(let flag) = value {
            text = flag ? "true" : "false"
          } else {
            note("\(what) expects a Boolean", line: l)
          }
        case (_, .numbers?):
          if case .array(let xs) = value {
            let numbers = xs.compactMap { constantNumber($0, line: l, what: what) }
            if numbers.count == xs.count { text = "[" + numbers.map { "\(Float($0))" }.joined(separator: ", ") + "]" }
          } else {
            note("\(what) expects an array of numbers", line: l)
          }
        case (_, .colors?):
          if case .array(let xs) = value {
            let colors = xs.compactMap { colorText($0, line: l, what: what) }
            if colors.count == xs.count { text = "[" + colors.joined(separator: ", ") + "]" }
          } else {
            note("\(what) expects an array of colours", line: l)
          }
        default:
          break
        }
        if let text { members.append("\(JSONText.quoted(key)): \(text)") }
      }
      texts.append("{" + members.joined(separator: ", ") + "}")
    }
    return "[" + texts.joined(separator: ", ") + "]"
  }

  // MARK: - Sprites

  /// The sprite for `UIImage(named: imageName)`: the PNG in the sprite
  /// folder when it is there, else the built-in sprite whose keywords the
  /// image's name (then the cell's) contains, else `disc`; the choice is
  /// reported.
  private func sprite(for imageName: String, cellName: String?, line: Int) -> String {
    let base = imageName.hasSuffix(".png") ? String(imageName.dropLast(4)) : imageName
    if let folder = options.spriteFolder {
      let path = (folder.hasSuffix("/") ? folder : folder + "/") + base + ".png"
      if FileManager.default.fileExists(atPath: path) { return path }
    }
    let whereFrom =
      options.spriteFolder.map { "there is no \($0.hasSuffix("/") ? $0 : $0 + "/")\(base).png" }
      ?? "no --sprites folder"
    if let (sprite, keyword) = SpriteChoice.builtIn(forName: base) {
      note(
        "image '\(imageName)' is not available (\(whereFrom)): drawn with the built-in sprite '\(sprite)' (its name contains '\(keyword)')",
        line: line, kind: .substitution)
      return sprite
    }
    if let cellName, let (sprite, keyword) = SpriteChoice.builtIn(forName: cellName) {
      note(
        "image '\(imageName)' is not available (\(whereFrom)): drawn with the built-in sprite '\(sprite)' (the cell's name '\(cellName)' contains '\(keyword)')",
        line: line, kind: .substitution)
      return sprite
    }
    note(
      "image '\(imageName)' is not available (\(whereFrom)) and its name suggests no built-in sprite: drawn as '\(SpriteChoice.fallback)'",
      line: line, kind: .substitution)
    return SpriteChoice.fallback
  }

  // MARK: - Changes

  private func propertyValue(_ v: ImportValue) -> PropertyValue? {
    switch v {
    case .number(let x):
      let value = x.value(for: size)
      return value.isFinite ? .number(value) : nil
    case .bool(let b): return .bool(b)
    case .string(let s), .constant(let s): return .string(s)
    case .vector(let c, _): return .vector(c.map { $0.value(for: size) })
    case .zero: return nil
    case .color(let r, let g, let b, let a): return .vector([r, g, b, a])
    case .array(let xs):
      var out: [Double] = []
      for x in xs {
        guard case .number(let n)? = propertyValue(x) else { return nil }
        out.append(n)
      }
      return .vector(out)
    default: return nil
    }
  }

  /// Whether two values of an animatable property (birth rates and
  /// behavior keys, all 32-bit) store the same: `fromValue = 0.1` on a
  /// property set to 0.1 needs no change of its own.
  private func sameStoredValue(_ a: PropertyValue, _ b: PropertyValue) -> Bool {
    switch (a, b) {
    case (.number(let x), .number(let y)): return Float(x) == Float(y)
    case (.vector(let x), .vector(let y)): return x.map { Float($0) } == y.map { Float($0) }
    default: return a == b
    }
  }

  private func combine(_ a: PropertyValue, _ b: PropertyValue, _ sign: Double) -> PropertyValue? {
    switch (a, b) {
    case (.number(let x), .number(let y)): return .number(x + sign * y)
    case (.vector(let x), .vector(let y)) where x.count == y.count:
      return .vector(zip(x, y).map { $0 + sign * $1 })
    default: return nil
    }
  }

  /// The changes the animations added to `layer` make, and the line of
  /// each (its `add(_:forKey:)`).
  private func changes(on layer: ImportObject, emitter: Emitter) -> ([PropertyChange], [Int]) {
    var changes: [PropertyChange] = []
    var changeLines: [Int] = []
    for (animation, target, line) in interpreter.addedAnimations where target === layer {
      guard case .string(let keyPath)? = animation["keyPath"] else {
        note("an animation without a key path string: not imported", line: line)
        continue
      }
      let last = keyPath.split(separator: ".").last.map(String.init) ?? keyPath
      guard last == "birthRate" || keyPath.contains("emitterBehaviors.") else {
        note(
          "an animation of '\(keyPath)': effect format 1 animates only birth rates and behavior keys: not imported",
          line: line)
        continue
      }
      let model: PropertyValue
      do throws(KeyPathError) {
        model = try emitter.value(forKeyPath: keyPath)
      } catch {
        note("an animation of \(error): not imported", line: line)
        continue
      }
      func number(_ key: String, _ fallback: Double) -> Double {
        guard let v = animation[key] else { return fallback }
        guard case .number(let x) = v, x.value(for: size).isFinite else {
          note("the animation's \(key) expects a finite number: \(fallback) used", line: animation.lines[key] ?? line)
          return fallback
        }
        return x.value(for: size)
      }
      let time = max(0, number("beginTime", 0))
      var duration = number("duration", 0)
      // Core Animation's default duration.
      if duration <= 0 { duration = 0.25 }
      var timing = TimingFunction.linear
      switch animation["timingFunction"] {
      case .timing(.string(let name))?: timing = TimingFunction.named[name] ?? .linear
      case .timing(.array(let xs))?:
        let c = xs.compactMap { if case .number(let x) = $0 { x } else { nil } }
        if c.count == 4 { timing = TimingFunction(controlPoints: c[0], c[1], c[2], c[3]) }
      case nil: break
      default: note("the animation's timingFunction is not understood: linear used", line: line)
      }
      for key in ["repeatCount", "autoreverses", "timingFunctions", "repeatDuration", "speed", "timeOffset"]
      where animation[key] != nil {
        var isDefault = false
        if case .bool(false)? = animation[key] { isDefault = true }
        if case .number(let x)? = animation[key], x.constant == 0, x.isConstant, key != "speed" { isDefault = true }
        if !isDefault {
          note("the animation's \(key) is not translated: it plays once, as set", line: animation.lines[key] ?? line)
        }
      }
      var keeps = false
      if case .bool(false)? = animation["removedOnCompletion"] {
        if case .constant(let mode)? = animation["fillMode"], mode == "forwards" || mode == "both" { keeps = true }
      }
      var end: PropertyValue
      var start = model
      if animation.kind == .keyframeAnimation {
        guard case .array(let items)? = animation["values"], !items.isEmpty else {
          note("a keyframe animation without values: not imported", line: line)
          continue
        }
        let values = items.compactMap(propertyValue)
        guard values.count == items.count else {
          note("the keyframe animation's values are not all numbers or vectors: not imported", line: line)
          continue
        }
        var keyTimes: [Double]
        if case .array(let ts)? = animation["keyTimes"] {
          keyTimes = ts.compactMap { if case .number(let x) = $0 { x.value(for: size) } else { nil } }
        } else {
          keyTimes = values.count == 1 ? [0] : (0..<values.count).map { Double($0) / Double(values.count - 1) }
        }
        var change = PropertyChange(
          time: time, keyPath: keyPath, duration: duration, keyTimes: keyTimes, values: values, timingFunction: timing)
        change.timingFunction = timing
        changes.append(change)
        changeLines.append(line)
        end = values[values.count - 1]
      } else {
        let from = animation["fromValue"].flatMap(propertyValue)
        let to = animation["toValue"].flatMap(propertyValue)
        let by = animation["byValue"].flatMap(propertyValue)
        if let from { start = from }
        if let to {
          end = to
        } else if let by, let sum = combine(start, by, 1) {
          end = sum
        } else {
          end = model
        }
        if from == nil, to != nil, let by, let difference = combine(end, by, -1) { start = difference }
        if !sameStoredValue(start, model) {
          changes.append(PropertyChange(time: time, keyPath: keyPath, value: start))
          changeLines.append(line)
        }
        changes.append(
          PropertyChange(time: time, keyPath: keyPath, value: end, duration: duration, timingFunction: timing))
        changeLines.append(line)
      }
      // Removed on completion, the presentation returns to the model value.
      if !keeps && !sameStoredValue(end, model) {
        changes.append(PropertyChange(time: time + duration, keyPath: keyPath, value: model))
        changeLines.append(line)
      }
    }
    for set in interpreter.timedSets {
      guard let path = keyPath(of: set.object, in: layer) else {
        note(
          "set later on an object that is not a named part of the emitter (key paths need a name at every level): not imported",
          line: set.line)
        continue
      }
      guard let value = propertyValue(set.value) else {
        note("the value set later is not a number, flag, name or vector: not imported", line: set.line)
        continue
      }
      changes.append(PropertyChange(time: set.time, keyPath: path + set.key, value: value))
      changeLines.append(set.line)
    }
    return (changes, changeLines)
  }

  /// The key path prefix of `object` inside `layer` (`""` for the layer,
  /// `emitterCells.a.emitterCells.b.` for a cell, `….emitterBehaviors.n.` for
  /// a behavior), or nil when it is not there or a step has no name.
  private func keyPath(of object: ImportObject, in layer: ImportObject) -> String? {
    if object === layer { return "" }
    func search(_ owner: ImportObject, _ prefix: String) -> String? {
      for key in ["emitterBehaviors", "emitterCells"] {
        guard case .array(let items)? = owner[key] else { continue }
        for item in items {
          let child: ImportObject
          switch item {
          case .cell(let o), .behavior(let o): child = o
          default: continue
          }
          guard case .string(let name)? = child["name"] else {
            if child === object { return nil }
            continue
          }
          let path = prefix + "\(key).\(name)."
          if child === object { return path }
          if key == "emitterCells", let found = search(child, path) { return found }
        }
      }
      return nil
    }
    return search(layer, "")
  }
}

/// Which built-in sprite stands in for an image that is not available.
enum SpriteChoice {
  /// The sprite used when no keyword matches.
  static let fallback = "disc"

  /// Keywords of each built-in sprite, longest first where they overlap
  /// (`sparkle` is a star, `spark` a spark).
  static let keywords: [(keyword: String, sprite: String)] = [
    ("snowflake", "snowflake"), ("sparkle", "star"), ("twinkle", "star"), ("glitter", "star"), ("confetti", "confetti"),
    ("ribbon", "confetti"), ("paper", "confetti"), ("heart", "heart"), ("flake", "snowflake"), ("snow", "snowflake"),
    ("frost", "snowflake"), ("spark", "spark"), ("flame", "spark"), ("fire", "spark"), ("ember", "spark"),
    ("glow", "spark"), ("star", "star"), ("love", "heart"), ("like", "heart"), ("leaf", "confetti"),
    ("rect", "confetti"), ("square", "confetti"), ("circle", "disc"), ("bubble", "disc"), ("dot", "disc"),
    ("disc", "disc"), ("ball", "disc"), ("particle", "disc"), ("drop", "disc"), ("rain", "disc"),
  ]

  /// The built-in sprite whose keyword `name` contains (case-insensitively),
  /// and the keyword.
  static func builtIn(forName name: String) -> (sprite: String, keyword: String)? {
    let lower = name.lowercased()
    for (keyword, sprite) in keywords where lower.contains(keyword) { return (sprite, keyword) }
    return nil
  }
}
