import SleetKit

/// `sleet shatter render`: a shatter transition between two pictures.
struct ShatterRenderCommand: SleetCommand {
  static let path = ["shatter", "render"]
  static let summary = "render a shatter transition between two PNG pictures to PNG, APNG or frames"
  static let help = """
    usage: sleet shatter render --from A.png --to B.png --out FILE.png|FILE.apng|DIR
                                [--style checkerboard|explode|glassBreak]
                                [--direction push|pop] [--seed N] [--divisor N]
                                [--fps F] [--time T] [--hold S]

    Draws the transition from picture A to picture B. The pictures define the
    container: W×H pixels is a W×H point container drawn at 1 pixel per point,
    so both must have the same size.
      FILE.png    one still at --time (default: half the transition)
      FILE.apng   the whole transition from t = 0 to its end (+ --hold) at
                  --fps, loop forever
      DIR         the same frames as DIR/frame-0000.png, …

    options:
      --from A.png         the picture shown first (required)
      --to B.png           the picture shown at the end (required)
      --out PATH           where to write (required)
      --style S            checkerboard (default), explode or glassBreak
      --direction D        push (default) or pop (checkerboard only)
      --seed N             seed of explode and glassBreak (default 0)
      --divisor N          tiles across the width (glass break: N×N; default 10)
      --fps F              frames per second, 1…240 (default 30)
      --time T             time of the still for FILE.png, in seconds
      --hold S             seconds of the final picture after the end (default 0)
    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    guard let fromPath = try arguments.option("from") else { throw .usage("--from A.png is required") }
    guard let toPath = try arguments.option("to") else { throw .usage("--to B.png is required") }
    guard let outPath = try arguments.option("out") else { throw .usage("--out FILE.png|FILE.apng|DIR is required") }
    let target = try RenderTarget(outPath)
    let style = try ShatterCommandOptions.style(&arguments)
    let direction = try ShatterCommandOptions.direction(&arguments)
    let divisor = try ShatterCommandOptions.divisor(&arguments)
    let seed = try arguments.option("seed", as: "an unsigned 64-bit integer") { UInt64($0) } ?? 0
    let fps = try RenderOptions.fps(&arguments)
    let time = try arguments.double("time")
    let hold = try arguments.double("hold") ?? 0
    guard hold >= 0 && hold <= 60 else { throw .usage("--hold: expected seconds in [0, 60], got \(hold)") }
    try arguments.finish()

    let from = try readPicture(fromPath, flag: "--from")
    let to = try readPicture(toPath, flag: "--to")
    guard from.width == to.width && from.height == to.height else {
      throw .usage(
        "--from and --to must have the same size: \(fromPath) is \(from.width)×\(from.height), \(toPath) is \(to.width)×\(to.height)"
      )
    }
    let width = Double(from.width), height = Double(from.height)
    do {
      try ShatterTransition.validate(style: style, width: width, height: height, divisor: divisor)
    } catch {
      throw .usage("--from \(fromPath): \(error.description)")
    }
    let clock = Stopwatch()
    let scene = ShatterScene(
      transition: ShatterTransition(
        style: style, width: width, height: height, direction: direction, divisor: divisor, seed: seed),
      from: from, to: to, pixelsPerPoint: 1)
    let times: [Double]
    if case .still = target {
      times = [time ?? scene.transition.endTime / 2]
    } else {
      times = scene.times(fps: fps, hold: hold)
      try RenderOutput.checkFrameCount(times.count, for: target, flags: "--hold × --fps")
    }
    try RenderOutput.write(target, times: times, fps: fps, output: output, label: "shatter render") {
      (batch: [Double]) throws(CommandError) in scene.render(times: batch)
    }
    output.print(
      "wrote \(target.path) (\(style.rawValue), \(from.width)×\(from.height) px, \(times.count) frame\(times.count == 1 ? "" : "s")) in \(clock.elapsedText)"
    )
  }

  /// Reads a picture given by `flag`; an unreadable or invalid file is a usage error naming both.
  static func readPicture(_ path: String, flag: String) throws(CommandError) -> RGBAImage {
    do throws(ImageFileError) {
      return try PNGFile.read(path: path)
    } catch {
      throw .usage("\(flag): \(error.description)")
    }
  }
}
