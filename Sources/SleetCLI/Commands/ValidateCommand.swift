import SleetKit

/// `sleet validate FILE.json`: reads an effect file strictly and runs every
/// check `sleet render` runs before drawing.
struct ValidateCommand: SleetCommand {
  static let path = ["validate"]
  static let summary = "check an effect file (JSON, format 1) as 'sleet render' would, and say what fails"
  static let about = """
    usage: sleet validate FILE.json [--time T]

    Reads the effect file as every command does (strictly: unknown keys,
    wrong types, non-finite or negative rates, sizes, lifetimes, durations and
    change times, unknown key paths and missing fields are errors; the first
    is reported with its JSON path, e.g.
      emitterCells[0].birthRate: must be ≥ 0, got -3)
    then runs every check 'sleet render' runs before it draws, and reports
    each:
      cells       at most \(Effect.maximumCells) cells, sub-cells included
      sprites     every sprite exists: built in, or a PNG file (relative to
                  the file's folder) that can be read and decoded
      particles   the computed peak of live particles (an upper bound) is
                  within the budget of \(ParticleSystemConfiguration().budget)
      times       the default times of 'sleet render' (see docs/rendering.md,
                  "Default times"), or T, can be simulated exactly
    A valid file prints
      ok: N cells, M changes
    and one line per check, with the default times; otherwise every failed
    check is named. Exit status 0 when the file is valid, 2 when it is not.

    A valid file can still draw nothing: warnings on stderr (exit status
    still 0; --quiet silences them) name a leaf cell without contents, alpha
    or scale 0, an angle over 2π (degrees for radians), a value beyond
    anything plausible, and a still at T (or the default time) or the
    default animation where nothing is alive, nothing visible, or every
    particle outside the default 390×844 pt frame (docs/cli.md, "Warnings").

    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    let time = try arguments.number(OptionTable.validateTime)
    let quiet = try arguments.flag(OptionTable.quiet)
    guard let file = arguments.positional() else { throw .usage("missing the effect FILE.json") }
    try arguments.finish()
    let effect: Effect
    do throws(EffectFormatError) {
      effect = try Effect(contentsOfFile: file)
    } catch {
      throw .usage("\(file): \(error)")
    }
    let defaults = effect.previewTimes
    var times = [
      (defaults.still, "the default --time"), (defaults.start + defaults.duration, "the default animation's end"),
    ]
    if let time { times.append((time, "--time")) }
    // Relative sprite paths are already resolved against the file's folder.
    let sprites = SpriteLibrary()
    let checks = EffectChecks.run(effect, sprites: sprites, times: times)
    let failed = checks.filter { $0.problem != nil }
    guard failed.isEmpty else {
      let lines = failed.map { "  \($0.name): \($0.problem!)" }
      throw .usage(
        "\(file): \(failed.count) of \(checks.count) checks failed (\(failed.map(\.name).joined(separator: ", ")))\n"
          + lines.joined(separator: "\n"))
    }
    let cells = effect.emitter.cellCount
    let changes = effect.changes.count
    output.print("ok: \(cells) \(cells == 1 ? "cell" : "cells"), \(changes) \(changes == 1 ? "change" : "changes")")
    for check in checks { output.print("  \(check.name): \(check.summary)") }
    output.print(
      "  default times (\(defaults.kind.rawValue)): still at \(numberText(defaults.still)) s, animation from \(numberText(defaults.start)) s for \(numberText(defaults.duration)) s"
    )
    guard !quiet else { return }
    // As 'sleet render FILE.json' would draw it: the default size (the
    // parameters width and height set to it), the still at T or its default
    // time, and the default animation at its default frame rate.
    let size = RenderOptions.defaultSize
    let canvas = Canvas(width: size.width, height: size.height, pixelsPerPoint: 1)
    let sized = (try? RenderOptions.effect(file, width: size.width, height: size.height)) ?? effect
    let shown = sized.previewTimes
    var warnings = RenderCommand.renderWarnings(
      sized, times: [time ?? shown.still], canvas: canvas, reference: shown.still)
    let frames = Swift.max(1, Int((shown.duration * Double(RenderOptions.defaultFPS)).rounded()))
    let animation = (0..<frames).map { shown.start + Double($0) / Double(RenderOptions.defaultFPS) }
    warnings += RenderCommand.renderWarnings(sized, times: animation, canvas: canvas, reference: shown.still)
      .filter { !warnings.contains($0) }
    EffectWarnings.print(warnings, output: output)
  }
}
