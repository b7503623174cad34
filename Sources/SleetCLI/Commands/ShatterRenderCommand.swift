import SleetKit

/// `sleet shatter render`: the shatter styles of `sleet transition render`,
/// kept under their first name.
struct ShatterRenderCommand: SleetCommand {
  static let path = ["shatter", "render"]
  static let summary = "render a shatter transition (alias of 'transition render' for the shatter styles)"
  static let help = """
    usage: sleet shatter render --from A.png --to B.png
                                --out FILE.png|FILE.apng|FILE.webp|FILE.gif|DIR|-|apng:- [--force]
                                [--style checkerboard|explode|glassBreak]
                                [--direction push|pop] [--seed N] [--divisor N]
                                [--fps F] [--time T] [--hold S] [--gesture FILE.json]
                                [--frames A-B | --shard i/n]
                                [--quality Q] [--lossless] [--dither ordered|none]

    The same as 'sleet transition render' with --style checkerboard (the
    default here), explode or glassBreak; every other style and option is
    described in 'sleet transition render --help'. The pictures define the
    container: W×H pixels is a W×H point container at 1 pixel per point.
      FILE.png    one still at --time (default: half the transition's duration)
      FILE.apng   the whole transition from t = 0 to its end (+ --hold) at
                  --fps, loop forever
      FILE.webp   the same as WebP, FILE.gif as GIF (see 'sleet render --help')
      DIR         the same frames as DIR/frame-0000.png, …

    options:
      --from A.png         the picture shown first (required)
      --to B.png           the picture shown at the end (required)
      --out PATH           where to write (required; - or png:- for a still
                           on standard output, apng:-, webp:-, gif:- for the
                           animation)
      --force              replace an existing output (a folder's old
                           frame-*.png files are removed first)
      --style S            checkerboard (default), explode or glassBreak
      --direction D        push (default) or pop (checkerboard only)
      --seed N             seed of explode and glassBreak (default 0)
      --divisor N          tiles across the width (glass break: N×N; default 10)
      --fps F              frames per second, 1…240 (default 30; animations only)
      --time T             time of the still for FILE.png, in seconds
      --hold S             seconds of the final picture after the end (default 0)
    \(FrameRequest.helpText())
    \(AnimationFormat.optionsHelp())
    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    let style = try ShatterCommandOptions.style(&arguments)
    try TransitionRenderCommand.render(
      style: TransitionStyle(rawValue: style.rawValue)!, &arguments, output: output, label: "shatter render")
  }

  /// Reads a picture given by `flag`; an unreadable or invalid file is a usage error naming both.
  static func readPicture(_ path: String, flag: String) throws(CommandError) -> RGBAImage {
    try InputFiles.readPicture(path, flag: flag)
  }

  /// Everything 'transition render' accepts (this help lists the shatter ones).
  static var optionNames: Set<String> { TransitionRenderCommand.optionNames }
}
