import SleetKit

/// `sleet validate FILE.json`: reads an effect file strictly.
struct ValidateCommand: SleetCommand {
  static let path = ["validate"]
  static let summary = "check an effect file (JSON, format 1) and report the first error"
  static let help = """
    usage: sleet validate FILE.json

    Reads the effect file as every command does (strictly: unknown keys,
    wrong types, non-finite or negative rates, sizes, lifetimes, durations and
    change times, unknown key paths, missing fields and more than 255 cells
    are errors) and prints
      ok: N cells, M changes
    or the first error with its JSON path, e.g.
      emitterCells[0].birthRate: must be ≥ 0, got -3
    Exit status 0 when the file is valid, 2 when it is not.
    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    guard let file = arguments.positional() else { throw .usage("missing the effect FILE.json") }
    try arguments.finish()
    let effect: Effect
    do throws(EffectFormatError) {
      effect = try Effect(contentsOfFile: file)
    } catch {
      throw .usage("\(file): \(error)")
    }
    let cells = effect.emitter.cellCount
    let changes = effect.changes.count
    output.print("ok: \(cells) \(cells == 1 ? "cell" : "cells"), \(changes) \(changes == 1 ? "change" : "changes")")
  }
}
