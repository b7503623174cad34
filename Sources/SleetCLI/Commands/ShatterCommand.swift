import SleetKit

/// `sleet shatter plan`: the checkerboard's tiling and schedule.
struct ShatterPlanCommand: SleetCommand {
  static let path = ["shatter", "plan"]
  static let summary = "print the checkerboard transition's tiles and their schedule"
  static let about = """
    usage: sleet shatter plan --size WxH [--direction push|pop] [--divisor N] [--json]

    Tiles a W×H container the way Apple's checkerboard transition does
    (side round(W/N), ⌈W/s⌉ × ⌈H/s⌉ tiles) and prints each tile's start and
    duration in seconds. With --json:
      {"slice": s, "columns": c, "rows": r, "duration": end,
       "tiles": [{"column", "row", "delay", "duration"}, ...]}

    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    let size = try ShatterCommandOptions.size(&arguments)
    let direction = try ShatterCommandOptions.direction(&arguments)
    let divisor = try ShatterCommandOptions.divisor(&arguments)
    let json = try arguments.flag(OptionTable.json)
    try arguments.finish()
    do {
      try CheckerboardPlan.validate(width: size.width, height: size.height, divisor: divisor)
    } catch {
      throw .usage(ShatterCommandOptions.message(error))
    }
    let plan = CheckerboardPlan(
      width: size.width, height: size.height, direction: direction, divisor: divisor)
    if json {
      var out = "{\"slice\": \(JSONNumber(plan.slice)), \"columns\": \(plan.columns), "
      out += "\"rows\": \(plan.rows), \"duration\": \(JSONNumber(plan.endTime)), \"tiles\": ["
      out.reserveCapacity(out.count + 70 * plan.tileCount)
      var first = true
      for row in 0..<plan.rows {
        for column in 0..<plan.columns {
          if !first { out += ", " }
          first = false
          out += "{\"column\": \(column), \"row\": \(row), "
          out += "\"delay\": \(JSONNumber(plan.delay(column: column, row: row))), "
          out += "\"duration\": \(JSONNumber(plan.duration(column: column, row: row)))}"
        }
      }
      out += "]}"
      output.print(out)
    } else {
      output.print("checkerboard \(direction.rawValue) for \(JSONNumber(size.width))×\(JSONNumber(size.height)) pt")
      output.print("tile side \(JSONNumber(plan.slice)) pt, \(plan.columns)×\(plan.rows) = \(plan.tileCount) tiles")
      output.print("tile duration \(JSONNumber(plan.tileDuration)) s")
      output.print("first start \(JSONNumber(plan.firstDelay)) s, last start \(JSONNumber(plan.lastDelay)) s")
      output.print("complete at \(JSONNumber(plan.endTime)) s")
    }
  }
}

/// `sleet shatter frame`: every piece at one instant.
struct ShatterFrameCommand: SleetCommand {
  static let path = ["shatter", "frame"]
  static let summary = "print every shatter piece's face, progress, corners and depth at one time"
  static let about = """
    usage: sleet shatter frame --size WxH --time T [--direction push|pop]
                               [--style checkerboard|explode|glassBreak] [--seed N]
                               [--divisor N] [--backend scalar|simd|blas|automatic] [--json]

    Evaluates a shatter transition at time T (seconds) and prints, per piece,
    the visible face, local progress, the four projected corners TL, TR, BR, BL
    in container points (null when behind the eye) and the depth to sort by.
    With --json:
      {"time": T, "style": ..., "complete": b,
       "tiles": [{"column", "row", "face": "from"|"to", "progress",
                  "opacity", "corners": [[x, y] ×4], "depth"}, ...]}

    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    let size = try ShatterCommandOptions.size(&arguments)
    let direction = try ShatterCommandOptions.direction(&arguments)
    let divisor = try ShatterCommandOptions.divisor(&arguments)
    guard let time = try arguments.number(OptionTable.shatterTime) else { throw .usage("--time is required") }
    let style = try ShatterCommandOptions.style(&arguments)
    // Refused like 'sleet transition frame' refuses them: the style would ignore them.
    if style != .checkerboard, direction != .push {
      throw .usage("--direction: \(style.rawValue) does not take the direction \(direction.rawValue); it takes push")
    }
    if style == .checkerboard, arguments.contains(OptionTable.randomSeed) {
      throw .usage("--seed: seed does not apply to checkerboard (it has no randomness)")
    }
    let seed = try arguments.option(OptionTable.randomSeed.name, as: "an unsigned 64-bit integer") { UInt64($0) } ?? 0
    let backend = try ShatterCommandOptions.backend(&arguments)
    let json = try arguments.flag(OptionTable.json)
    try arguments.finish()
    do {
      try ShatterTransition.validate(style: style, width: size.width, height: size.height, divisor: divisor)
    } catch {
      throw .usage(ShatterCommandOptions.message(error))
    }
    let transition = ShatterTransition(
      style: style, width: size.width, height: size.height, direction: direction, divisor: divisor,
      seed: seed)
    let frame = transition.frame(at: time, backend: backend)
    if json {
      var out = "{\"time\": \(JSONNumber(time)), \"style\": \"\(style.rawValue)\", "
      out += "\"complete\": \(frame.isComplete), \"tiles\": ["
      out.reserveCapacity(out.count + 200 * frame.count)
      for i in 0..<frame.count {
        let p = frame.piece(i)
        if i > 0 { out += ", " }
        out += "{\"column\": \(p.column), \"row\": \(p.row), \"face\": \"\(p.face == .from ? "from" : "to")\", "
        out += "\"progress\": \(JSONNumber(p.progress)), \"opacity\": \(JSONNumber(p.opacity)), \"corners\": ["
        out += p.cornerArray.map { "[\(JSONNumber($0.x)), \(JSONNumber($0.y))]" }.joined(separator: ", ")
        out += "], \"depth\": \(JSONNumber(p.depth))}"
      }
      out += "]}"
      output.print(out)
    } else {
      output.print(
        "\(style.rawValue) at t = \(JSONNumber(time)) s: \(frame.count) pieces, \(frame.isComplete ? "complete" : "in progress")"
      )
      output.print("column row face progress opacity depth  TL TR BR BL")
      for i in 0..<frame.count {
        let p = frame.piece(i)
        let corners = p.cornerArray.map { "(\(JSONNumber($0.x)), \(JSONNumber($0.y)))" }
          .joined(separator: " ")
        output.print(
          "\(p.column) \(p.row) \(p.face == .from ? "from" : "to") \(JSONNumber(p.progress)) \(JSONNumber(p.opacity)) \(JSONNumber(p.depth))  \(corners)"
        )
      }
    }
  }
}

/// Option parsing shared by the `sleet shatter` commands (including ones in
/// other files, such as `shatter render`).
enum ShatterCommandOptions {
  /// `--size WxH` (required): two finite numbers in (0,
  /// ``SleetLimits/layerSide``], `x` or `×` between them.
  static func size(_ arguments: inout Arguments) throws(CommandError) -> (width: Double, height: Double) {
    guard let size = try SizeOption.parse(&arguments, OptionTable.containerSize) else {
      throw .usage("--size WxH is required")
    }
    return size
  }

  /// `--direction push|pop` (default push).
  static func direction(_ arguments: inout Arguments) throws(CommandError) -> ShatterDirection {
    try arguments.choice(OptionTable.shatterDirection, ["push", "pop"], spelled: "push or pop") {
      ShatterDirection(rawValue: $0)
    } ?? .push
  }

  /// `--style checkerboard|explode|glassBreak` (default checkerboard).
  static func style(_ arguments: inout Arguments) throws(CommandError) -> ShatterStyle {
    try arguments.choice(OptionTable.shatterStyle, ShatterStyle.allCases.map(\.rawValue)) {
      ShatterStyle(rawValue: $0)
    } ?? .checkerboard
  }

  /// `--backend scalar|simd|blas|automatic` (default automatic).
  static func backend(_ arguments: inout Arguments) throws(CommandError) -> TransformBackend {
    try arguments.choice(OptionTable.backend, TransformBackend.allCases.map(\.name)) { name in
      TransformBackend.allCases.first { $0.name == name }
    } ?? .automatic
  }

  /// `--divisor N` (default ``CheckerboardPlan/defaultDivisor``), at least 1.
  static func divisor(_ arguments: inout Arguments) throws(CommandError) -> Int {
    try arguments.integer(OptionTable.shatterDivisor) ?? CheckerboardPlan.defaultDivisor
  }

  /// A plan error prefixed by the flag that caused it: `--size` for the
  /// container, `--divisor` for the tiling.
  static func message(_ error: ShatterPlanError) -> String {
    switch error {
    case .invalidSize: "--size: \(error.description)"
    case .invalidDivisor, .tooManyTiles: "--divisor: \(error.description)"
    case .invalidTiming: error.description
    }
  }
}

/// A number formatted for JSON: the shortest round-tripping decimal, `null`
/// when not finite.
struct JSONNumber: CustomStringConvertible {
  let description: String
  init(_ value: Double) {
    description = value.isFinite ? "\(value)" : "null"
  }
  init(_ value: Float) {
    description = value.isFinite ? "\(value)" : "null"
  }
}
