import SleetKit

/// `sleet shatter render`: the shatter styles of `sleet transition render`,
/// kept under their first name. It takes every option `transition render`
/// takes (``OptionTable`` declares them for both), with `--style` limited to
/// the shatter styles and defaulting to checkerboard.
struct ShatterRenderCommand: SleetCommand {
  static let path = ["shatter", "render"]
  static let summary = "render a shatter transition (alias of 'transition render' for the shatter styles)"
  static let about = """
    usage: sleet shatter render --from A.png --to B.png
                                --out FILE.png|FILE.apng|FILE.webp|FILE.gif|DIR|-|apng:- [--force]
                                [--style checkerboard|explode|glassBreak]
                                [--scale PX_PER_PT] [--background RGBA]
                                [--direction push|pop] [--seed N] [--divisor N]
                                [--fps F] [--time T] [--hold S] [--gesture FILE.json]
                                [--frames A-B | --shard i/n]
                                [--quality Q] [--lossless] [--dither ordered|none]
                                [--crf N] [--preset NAME]

    The same as 'sleet transition render' with --style checkerboard (the
    default here), explode or glassBreak, and the same options (the other
    styles, and the options only they use, are described in
    'sleet transition render --help'). The pictures define the container:
    W×H pixels at --scale S (default 1) is a W/S × H/S point container;
    --background fills what no piece covers (default transparent).
      FILE.png    one still at --time (default: half the transition's duration)
      FILE.apng   the whole transition from t = 0 to its end (+ --hold) at
                  --fps, loop forever
      FILE.webp   the same as WebP, FILE.gif as GIF (see 'sleet render --help')
      FILE.mp4, FILE.webm, FILE.mov
                  the same as H.264, VP9 with alpha or ProRes 4444 video
      DIR         the same frames as DIR/frame-0000.png, …
    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    let style = try ShatterCommandOptions.style(&arguments)
    try TransitionRenderCommand.render(
      style: TransitionStyle(rawValue: style.rawValue)!, &arguments, output: output, label: "shatter render")
  }
}
