import SleetKit

/// `sleet presets list`: the built-in presets with their summaries and parameters.
struct PresetsListCommand: SleetCommand {
  static let path = ["presets", "list"]
  static let summary = "list the built-in effect presets and their parameters"
  static let about = """
    usage: sleet presets list

    Prints one line per built-in preset: its name, its parameters with their
    default values, and a one-line summary. Export one with
    'sleet presets export NAME'.
    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    try arguments.finish()
    let names = Effect.presetNames
    guard !names.isEmpty else { throw .failure("no presets found in the package resources") }
    let width = names.map(\.count).max() ?? 0
    for name in names {
      let effect: Effect
      do throws(EffectFormatError) {
        effect = try Effect.preset(named: name)
      } catch {
        throw .failure("preset '\(name)' is broken: \(error)")
      }
      let parameters = effect.parameters.map { "\($0.name)=\(formatParameter($0.value))" }
      var line = name + String(repeating: " ", count: width - name.count + 2)
      if !parameters.isEmpty { line += "[" + parameters.joined(separator: " ") + "] " }
      line += effect.summary ?? ""
      output.print(line)
    }
  }

  static func formatParameter(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
  }
}

/// `sleet presets export NAME`: a preset as a canonical effect file.
struct PresetsExportCommand: SleetCommand {
  static let path = ["presets", "export"]
  static let summary = "print a preset as an effect file (JSON, format 1)"
  static let about = """
    usage: sleet presets export NAME [--width W] [--parameter NAME=VALUE]... [--no-parameters]
                               [--out FILE.json [--force]]

    Prints the preset NAME as a canonical effect file: fixed key order, only
    values that differ from Core Animation's defaults, numbers that read back
    bit for bit. Edit it and use it anywhere an effect name is accepted.

    The file keeps the preset's parameters (its "width" sets the emitter's
    size, …), and reading it checks each bound value against them: a value
    edited by hand is then refused. --no-parameters writes plain values
    instead (the parameters substituted, "parameters" left out), for
    editing freely ('sleet render' then no longer sizes it to its frame).

    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    var values: [String: Double] = [:]
    if let width = try arguments.number(OptionTable.width) { values["width"] = width }
    let widthFlag = values["width"] != nil
    for raw in try arguments.values(OptionTable.parameter) {
      let parts = raw.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, !parts[0].isEmpty, let v = Double(parts[1]), v.isFinite else {
        throw .usage("--parameter: expected NAME=VALUE with a finite number, got '\(raw)'")
      }
      // A second value would silently replace the first.
      guard values[parts[0]] == nil else {
        throw .usage(
          parts[0] == "width" && widthFlag
            ? "--width and --parameter width: the width is set twice; give it once"
            : "--parameter \(parts[0]) given twice; give each parameter once")
      }
      values[parts[0]] = v
    }
    let out = try arguments.value(OptionTable.exportOut)
    if let out { try OutputCheck.checkParentFolder(out, flag: "--out") }
    let force = try arguments.flag(OptionTable.exportForce)
    let plain = try arguments.flag(OptionTable.noParameters)
    guard let name = arguments.positional() else { throw .usage("missing the preset NAME") }
    try arguments.finish()
    var effect: Effect
    do throws(EffectFormatError) {
      effect = try Effect.preset(named: name, parameters: values)
    } catch {
      if error.path.hasPrefix("parameters.") {
        let flag = error.path == "parameters.width" ? "--width" : "--parameter \(error.path.dropFirst(11))"
        throw .usage("\(flag): \(error.reason)")
      }
      throw .usage(error.description)
    }
    if plain {
      // The emitter already holds what the parameters give.
      do throws(EffectValidationError) {
        effect = try Effect(emitter: effect.emitter, changes: effect.changes, summary: effect.summary)
      } catch {
        throw .failure("preset '\(name)' is broken: \(error)")
      }
    }
    if let out, out != "-" {
      try OutputCheck.checkFile(out, inputs: [], force: force, flag: "--out")
      let (folder, name) = FileOutput.split(out)
      FileOutput.removeStaleTemporaries(inFolder: folder) { $0 == name }
      do throws(FileOutputError) {
        try effect.writeJSON(toFile: out)
      } catch {
        throw .failure(error.description)
      }
      output.printError("wrote \(out)")
    } else {
      output.standardOutput(effect.jsonString())
    }
  }
}
