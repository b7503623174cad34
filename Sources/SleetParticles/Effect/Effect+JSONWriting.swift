import Foundation
import SleetMath

// MARK: - Writing (the reader is Effect+JSON.swift)

extension Effect {
  /// The effect as canonical effect-file text (format 1): keys in a fixed
  /// order (the order of docs/effect-format.md), only values that differ from
  /// Apple's defaults (bit for bit, so −0 is kept), two-space indentation,
  /// short arrays and objects on one line, a final newline. Numbers are
  /// written in the shortest form that reads back to the same `Float` or
  /// `Double`, so `Effect(json: e.jsonString()) == e` and export → import →
  /// export gives identical bytes.
  /// - Complexity: O(cells × properties + changes).
  public func jsonString() -> String {
    var lines: [String] = []
    var top: [String] = ["\"format\": \(Effect.formatVersion)"]
    if let summary { top.append("\"summary\": \(JSONText.quoted(summary))") }
    if !parameters.isEmpty {
      let entries = parameters.map { p in
        var fields = ["\"value\": \(formatDouble(p.value))"]
        if let m = p.minimum { fields.append("\"minimum\": \(formatDouble(m))") }
        if let m = p.maximum { fields.append("\"maximum\": \(formatDouble(m))") }
        let bindings = p.bindings.map { b in
          var f = ["\"keyPath\": \(JSONText.quoted(b.keyPath))", "\"factor\": \(formatDouble(b.factor))"]
          if b.offset.bitPattern != 0 { f.append("\"offset\": \(formatDouble(b.offset))") }
          return "{" + f.joined(separator: ", ") + "}"
        }
        fields.append("\"bindings\": [" + bindings.joined(separator: ", ") + "]")
        return "    \(JSONText.quoted(p.name)): {" + fields.joined(separator: ", ") + "}"
      }
      top.append("\"parameters\": {\n" + entries.joined(separator: ",\n") + "\n  }")
    }
    top += EffectEncoder.properties(of: emitter, default: Emitter(), table: Emitter.propertyDescriptors)
    if !emitter.emitterBehaviors.isEmpty {
      top.append("\"emitterBehaviors\": " + EffectEncoder.behaviors(emitter.emitterBehaviors, indent: 1))
    }
    if !emitter.emitterCells.isEmpty {
      top.append("\"emitterCells\": " + EffectEncoder.cells(emitter.emitterCells, indent: 1))
    }
    if !changes.isEmpty {
      let entries = changes.map { c in
        // Safe: `init` checked every change's key path.
        let kind = EffectDecoder.kind(of: try! Emitter.KeyPath(c.keyPath))
        var fields = ["\"time\": \(formatDouble(c.time))", "\"keyPath\": \(JSONText.quoted(c.keyPath))"]
        // A keyframe animation's value is the last of its values, written once.
        if c.values.isEmpty { fields.append("\"value\": \(EffectEncoder.text(c.value, float: false, kind: kind))") }
        if c.duration.bitPattern != 0 { fields.append("\"duration\": \(formatDouble(c.duration))") }
        if c.timingFunction != .linear {
          let f = PropertyChange.timingFunctionValue(c.timingFunction)
          fields.append("\"timingFunction\": \(EffectEncoder.text(f, float: false, kind: .vector(4)))")
        }
        if !c.values.isEmpty || !c.keyTimes.isEmpty {
          let times = c.keyTimes.map { formatDouble($0) }.joined(separator: ", ")
          let values = c.values.map { EffectEncoder.text($0, float: false, kind: kind) }.joined(separator: ", ")
          fields += ["\"keyTimes\": [\(times)]", "\"values\": [\(values)]"]
        }
        return "    {" + fields.joined(separator: ", ") + "}"
      }
      top.append("\"changes\": [\n" + entries.joined(separator: ",\n") + "\n  ]")
    }
    lines.append("{")
    lines.append(top.map { "  " + $0 }.joined(separator: ",\n"))
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Writes ``jsonString()`` to `path` atomically (a temporary file in the
  /// same folder, then a rename), so readers never see half a file.
  public func writeJSON(toFile path: String) throws(FileOutputError) {
    try FileOutput.atomicWrite(Array(jsonString().utf8), to: path)
  }
}

/// A `Float` in the shortest text that reads back to the same `Float`.
func formatFloat(_ x: Float) -> String {
  if x == 0 { return x.sign == .minus ? "-0.0" : "0" }
  if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
  return x.description
}

/// A `Double` in the shortest text that reads back to the same `Double`.
func formatDouble(_ x: Double) -> String {
  if x == 0 { return x.sign == .minus ? "-0.0" : "0" }
  if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
  return x.description
}

enum EffectEncoder {
  static func text(_ value: PropertyValue, float: Bool, kind: PropertyKind) -> String {
    switch value {
    case .number(let x): return float && kind == .float ? formatFloat(Float(x)) : formatDouble(x)
    case .bool(let b): return b ? "true" : "false"
    case .string(let s): return JSONText.quoted(s)
    case .vector(let xs) where kind == .colors:
      let colors = stride(from: 0, to: xs.count, by: 4).map { i in
        text(.vector(Array(xs[i..<min(i + 4, xs.count)])), float: float, kind: .vector(4))
      }
      return "[" + colors.joined(separator: ", ") + "]"
    case .vector(let xs):
      return "[" + xs.map { float ? formatFloat(Float($0)) : formatDouble($0) }.joined(separator: ", ") + "]"
    }
  }

  /// An `emitterBehaviors` list, one behavior per line: `type`, `name`,
  /// then the keys ``EmitterBehavior/writtenParameters`` lists.
  static func behaviors(_ behaviors: [EmitterBehavior], indent: Int) -> String {
    let pad = String(repeating: "  ", count: indent)
    let lines = behaviors.map { b -> String in
      var fields = ["\"type\": \(JSONText.quoted(b.type))"]
      if let name = b.name { fields.append("\"name\": \(JSONText.quoted(name))") }
      for (d, value) in b.writtenParameters {
        fields.append("\(JSONText.quoted(d.name)): \(text(value, float: true, kind: d.kind))")
      }
      return pad + "  {" + fields.joined(separator: ", ") + "}"
    }
    return "[\n" + lines.joined(separator: ",\n") + "\n" + pad + "]"
  }

  /// `"key": value` for every property that differs from the default.
  static func properties<R>(of root: R, default base: R, table: [PropertyDescriptor<R>]) -> [String] {
    var out: [String] = []
    for d in table where !d.isComponent {
      let v = d.get(root)
      guard !v.isIdentical(to: d.get(base)) else { continue }
      out.append("\(JSONText.quoted(d.name)): \(text(v, float: true, kind: d.kind))")
    }
    return out
  }

  static func cells(_ cells: [EmitterCell], indent: Int) -> String {
    let pad = String(repeating: "  ", count: indent)
    let inner = pad + "    "
    let objects = cells.map { cell -> String in
      var fields: [String] = []
      if let name = cell.name { fields.append("\"name\": \(JSONText.quoted(name))") }
      fields += properties(of: cell, default: EmitterCell(), table: EmitterCell.propertyDescriptors)
      if !cell.emitterBehaviors.isEmpty {
        fields.append("\"emitterBehaviors\": " + Self.behaviors(cell.emitterBehaviors, indent: indent + 2))
      }
      if !cell.emitterCells.isEmpty {
        fields.append("\"emitterCells\": " + Self.cells(cell.emitterCells, indent: indent + 2))
      }
      if fields.isEmpty { return pad + "  {}" }
      return pad + "  {\n" + fields.map { inner + $0 }.joined(separator: ",\n") + "\n" + pad + "  }"
    }
    return "[\n" + objects.joined(separator: ",\n") + "\n" + pad + "]"
  }
}
