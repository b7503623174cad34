import SleetKit
import SleetVideo

/// Every option of every `sleet` command, each declared once
/// (``CommandOption``): the one table that help, parsing, range checks,
/// "did you mean" suggestions and the option tables of docs/cli.md come
/// from (`OptionTableTests` compares those tables with the declarations).
///
/// Commands read their options through these declarations
/// (``Arguments/integer(_:)``, ``Arguments/number(_:)``, …), so a name, a
/// range or a limit is written in one place.
enum OptionTable {
  // MARK: - Command paths

  private static let render = ["render"]
  private static let transitionFrame = ["transition", "frame"]
  private static let transitionRender = ["transition", "render"]
  private static let shatterPlan = ["shatter", "plan"]
  private static let shatterFrame = ["shatter", "frame"]
  private static let shatterRender = ["shatter", "render"]
  private static let particlesDump = ["particles", "dump"]
  private static let particlesStats = ["particles", "stats"]
  private static let presetsExport = ["presets", "export"]
  private static let validate = ["validate"]
  private static let demo = ["demo"]
  private static let importCode = ["import"]
  private static let play = ["play"]

  /// The commands that write rendered frames.
  private static let renderers = [render, transitionRender, shatterRender]
  /// The commands that draw a transition between two pictures.
  private static let pictureTransitions = [transitionRender, shatterRender]
  /// The commands that evaluate any transition style.
  private static let transitions = [transitionFrame, transitionRender, shatterRender]

  // MARK: - Ranges shared by several declarations

  /// A time on an effect's timeline.
  static let effectTime = OptionRange.numbers(
    above: 0, includesLower: true, quantity: "seconds", reason: "the effect starts at 0; nothing is alive before")
  /// A time on a transition's timeline.
  static let transitionTime = OptionRange.numbers(above: 0, includesLower: true, quantity: "seconds")
  /// A transition's progress.
  static let progressRange = OptionRange.numbers(above: 0, includesLower: true, atMost: 1)
  static let fpsRange = OptionRange.integers(SleetLimits.framesPerSecond)
  static let scaleRange = OptionRange.numbers(
    above: 0, atMost: SleetLimits.pixelsPerPoint, quantity: "pixels per point")

  /// The default of the times `sleet render` computes from the effect.
  private static let fromTheEffect = "from the effect, see above"

  // MARK: - Outputs

  static let out = CommandOption(
    "out", "PATH",
    "where to write: FILE.png, FILE.apng, FILE.webp, FILE.gif, FILE.mp4, FILE.webm, FILE.mov, a folder, - or apng:-, webp:-, gif:- (see above)",
    required: true, note: "its folder must exist", commands: renderers)
  static let force = CommandOption(
    "force", "replace an existing output (a folder's old frame-*.png files are removed first)", commands: renderers)
  static let frames = CommandOption(
    "frames", "A-B",
    "render only frames A…B of the animation (counted from 0, inclusive; A- to the last frame, A alone for one); a folder names them by that number",
    commands: renderers)
  static let shard = CommandOption(
    "shard", "i/n",
    "render only the i-th of n contiguous blocks of frames (0 ≤ i < n; not with --frames), for splitting a render across processes or machines",
    commands: renderers)
  static let quality = CommandOption(
    "quality", "Q", "WebP: lossy quality", range: .numbers(above: 0, includesLower: true, atMost: 100),
    default: "\(numberText(Double(WebPAnimationOptions().quality)))",
    note: "with --lossless the effort, not the pixels", commands: renderers)
  static let lossless = CommandOption("lossless", "WebP: exact pixels (libwebp lossless)", commands: renderers)
  static let dither = CommandOption(
    "dither", "D", "GIF: ordered (8×8 Bayer) or none", default: GIFDither.ordered.rawValue, commands: renderers)
  static let crf = CommandOption(
    "crf", "N", "MP4: x264's constant rate factor, lower is better and larger",
    range: .integers(VideoOptions.h264CRFRange), default: "\(VideoOptions.defaultH264CRF)", commands: renderers)
  static let preset = CommandOption(
    "preset", "NAME", "MP4: x264's speed preset, " + VideoOptions.h264Presets.joined(separator: ", "),
    default: VideoOptions.defaultH264Preset, commands: renderers)
  static let fps = CommandOption(
    "fps", "F", "frames per second of an animation", range: fpsRange, default: "\(RenderOptions.defaultFPS)",
    note: "GIF at most \(AnimationFormat.maximumGIFFramesPerSecond)", commands: renderers)

  // MARK: - sleet render

  static let quiet = CommandOption(
    "quiet",
    "print no warnings (an empty frame, an angle over 2π, an implausible value; see docs/cli.md, \"Warnings\")",
    commands: [render, validate])
  static let yes = CommandOption(
    "yes", "render more than \(RenderOutput.confirmedFrames) frames (without it such a render is refused)",
    commands: [render])
  static let gpu = CommandOption(
    "gpu",
    "evaluate the particles with the OpenGL ES 3.1 compute shader (EGL surfaceless; Mesa's llvmpipe without a GPU); see docs/gpu.md",
    commands: [render])
  static let emitterSeed = CommandOption(
    "seed", "N", "emitter seed", range: .integers(0...Int(UInt32.max)), default: "the effect's",
    commands: [render, particlesDump, particlesStats])
  static let duration = CommandOption(
    "duration", "S", "animation length in seconds",
    range: .numbers(above: 0, atMost: SleetLimits.animationSeconds, quantity: "seconds"), default: fromTheEffect,
    note: "at most \(SleetLimits.frames) frames", commands: [render])
  static let start = CommandOption(
    "start", "T", "time of the first frame in seconds", range: effectTime, default: fromTheEffect,
    note: "seeking there costs the live particles, not T", commands: [render, play])
  static let stillTime = CommandOption(
    "time", "T", "time of the still for FILE.png, in seconds", range: effectTime, default: fromTheEffect,
    commands: [render])
  static let layerSize = CommandOption(
    "size", "WxH", "layer size in points, each side in (0, \(numberText(SleetLimits.layerSide))]",
    default: "\(numberText(RenderOptions.defaultSize.width))x\(numberText(RenderOptions.defaultSize.height))",
    commands: [render, play])
  static let scale = CommandOption(
    "scale", "PX_PER_PT", "pixels per point", range: scaleRange, default: "1",
    note:
      "an effect's image is ⌈W·scale⌉ × ⌈H·scale⌉ pixels, at least 1, at most \(SleetLimits.imageSide) a side and \(SleetLimits.imagePixels) in all; a transition's container is its pictures' size ÷ scale in points (3 for a 3× screenshot)",
    commands: [render, play] + pictureTransitions)
  static let background = CommandOption(
    "background", "RGBA", "#RRGGBB, #RRGGBBAA, or r,g,b[,a] with components in [0, 1], straight alpha",
    default: "#000000ff, opaque black; a transition's #00000000, transparent where no layer draws",
    commands: [render, play] + pictureTransitions)

  // MARK: - sleet transition, sleet shatter render

  static let transitionStyle = CommandOption(
    "style", "NAME", TransitionStyle.allCases.map(\.rawValue).joined(separator: ", "), required: true,
    commands: [transitionFrame, transitionRender])
  static let shatterStyle = CommandOption(
    "style", "S", ShatterStyle.allCases.map(\.rawValue).joined(separator: ", "),
    default: ShatterStyle.checkerboard.rawValue, commands: [shatterFrame, shatterRender])
  static let transitionDirection = CommandOption(
    "direction", "D", "push, pop, present or dismiss, as the style takes", default: "the style's first",
    note: "see 'sleet transition frame --help'", commands: transitions + [play])
  static let imageRect = CommandOption(
    "image-rect", "x,y,w,h", "zoom: the image's rect on the push's from screen", commands: transitions + [play])
  static let targetRect = CommandOption(
    "target-rect", "x,y,w,h", "zoom: its rect on the push's to screen", commands: transitions + [play])
  static let button = CommandOption(
    "button", "x,y,w,h", "circleReveal: the button's frame", commands: transitions + [play])
  static let transitionDivisor = CommandOption(
    "divisor", "N", "checkerboard, explode, glassBreak: tiles across", default: "\(CheckerboardPlan.defaultDivisor)",
    commands: transitions + [play])
  static let randomSeed = CommandOption(
    "seed", "N", "explode, glassBreak: random seed", default: "0", note: "an unsigned 64-bit integer",
    commands: transitions + [shatterFrame])
  static let transitionFrameTime = CommandOption(
    "time", "T", "transition time in seconds", range: transitionTime, commands: [transitionFrame])
  static let transitionFrameProgress = CommandOption(
    "progress", "P", "progress", range: progressRange, note: "time P·D", commands: [transitionFrame])
  static let containerSize = CommandOption(
    "size", "WxH", "container size in points, each side in (0, \(numberText(SleetLimits.layerSide))]", required: true,
    commands: [transitionFrame, shatterPlan, shatterFrame])
  static let json = CommandOption(
    "json", "print JSON (described above) instead of text", commands: [transitionFrame, shatterPlan, shatterFrame])
  static let from = CommandOption(
    "from", "A.png", "the picture shown first", required: true, commands: pictureTransitions)
  static let to = CommandOption(
    "to", "B.png", "the picture shown at the end", required: true, commands: pictureTransitions)
  static let gesture = CommandOption(
    "gesture", "FILE.json", "drive the transition by a recorded pan (an animation or a folder)",
    commands: pictureTransitions + [play])
  static let completionSpeed = CommandOption(
    "completion-speed", "S", "completion speed after the gesture",
    range: .numbers(above: 0, atMost: SleetLimits.completionSpeed), default: "1",
    commands: pictureTransitions + [play])
  static let image = CommandOption(
    "image", "IMG.png", "zoom: the flying image",
    default: "cut from the picture it leaves", note: "A at --image-rect on push, at --target-rect on pop",
    commands: pictureTransitions + [play])
  static let renderTime = CommandOption(
    "time", "T", "the still's time in seconds", range: transitionTime, default: "half the duration",
    note: "FILE.png only",
    commands: pictureTransitions)
  static let renderProgress = CommandOption(
    "progress", "P", "the still's progress", range: progressRange, note: "FILE.png only; time P·D",
    commands: pictureTransitions)
  static let hold = CommandOption(
    "hold", "S", "seconds of the final picture after the end",
    range: .numbers(above: 0, includesLower: true, atMost: SleetLimits.holdSeconds, quantity: "seconds"),
    default: "0", commands: pictureTransitions + [play])

  // MARK: - sleet shatter plan, sleet shatter frame

  static let shatterDirection = CommandOption(
    "direction", "D", "push or pop", default: ShatterDirection.push.rawValue, note: "pop: checkerboard only",
    commands: [shatterPlan, shatterFrame])
  static let shatterDivisor = CommandOption(
    "divisor", "N", "tiles across the width (glass break: N×N)", range: .integers(1...Int.max),
    default: "\(CheckerboardPlan.defaultDivisor)", commands: [shatterPlan, shatterFrame])
  static let shatterTime = CommandOption(
    "time", "T", "transition time in seconds",
    range: .numbers(above: 0, includesLower: true, quantity: "seconds", reason: "the transition starts at 0"),
    required: true, commands: [shatterFrame])
  static let backend = CommandOption(
    "backend", "B", "transform backend: \(TransformBackend.allCases.map(\.name).joined(separator: ", "))",
    default: TransformBackend.automatic.name, commands: [shatterFrame])

  // MARK: - sleet particles

  static let effect = CommandOption(
    "effect", "NAME|FILE.json", "a built-in preset or an effect file", required: true,
    commands: [particlesDump, particlesStats])
  static let dumpTime = CommandOption(
    "time", "T", "the time to dump, in seconds", range: effectTime, required: true, commands: [particlesDump])
  static let step = CommandOption(
    "step", "DT", "advance frame by frame in steps of DT seconds instead of seeking",
    range: .numbers(above: 0, quantity: "seconds"),
    note: "the output is identical; at most \(SleetLimits.particleSteps) steps",
    commands: [particlesDump, particlesStats])
  static let threads = CommandOption(
    "threads", "N", "evaluation threads", range: .integers(1...Int.max), default: "1", note: "the output is identical",
    commands: [particlesDump, particlesStats])
  static let budget = CommandOption(
    "budget", "N", "live-particle budget", range: .integers(1...ParticleSystemConfiguration.maximumBudget),
    default: "\(ParticleSystemConfiguration().budget)",
    note: "an effect whose computed peak exceeds it is refused (exit 2)", commands: [particlesDump, particlesStats])
  static let cap = CommandOption(
    "cap",
    "instead of refusing an effect over --budget, keep the newest N particles; once particles are dropped, --step output may differ from seeking (a dropped parent stops emitting sub-particles)",
    commands: [particlesDump, particlesStats])
  static let format = CommandOption(
    "format", "csv|json", "output format", default: "csv", commands: [particlesDump])
  static let statsDuration = CommandOption(
    "duration", "D", "seconds to cover", range: .numbers(above: 0, includesLower: true, quantity: "seconds"),
    default: "\(numberText(ParticlesStatsCommand.defaultDuration))", commands: [particlesStats])
  static let interval = CommandOption(
    "interval", "I", "seconds between rows", range: .numbers(above: 0, quantity: "seconds"),
    default: "\(numberText(ParticlesStatsCommand.defaultInterval))",
    note: "at most \(SleetLimits.particleSteps) rows", commands: [particlesStats])

  // MARK: - sleet presets export, sleet validate, sleet demo

  static let width = CommandOption(
    "width", "W", "set the preset's 'width' parameter (e.g. snow: emitter 2·W wide)", commands: [presetsExport])
  static let parameter = CommandOption(
    "parameter", "NAME=VALUE", "set any parameter (repeatable, each name once); see 'sleet presets list'",
    repeatable: true, commands: [presetsExport])
  static let noParameters = CommandOption(
    "no-parameters", "write plain values: the parameters substituted, \"parameters\" left out",
    commands: [presetsExport])
  static let exportOut = CommandOption(
    "out", "FILE.json", "write the file (atomically) instead of printing it (- prints it)",
    commands: [presetsExport, importCode])
  static let exportForce = CommandOption(
    "force", "replace an existing FILE.json", commands: [presetsExport, importCode])
  static let validateTime = CommandOption(
    "time", "T", "also check the time T in seconds", range: effectTime,
    note: "as 'sleet render FILE.json --time T' would",
    commands: [validate])
  static let demoOut = CommandOption(
    "out", "DIR", "output folder, created if its parent exists", default: DemoCommand.defaultFolder,
    commands: [demo])
  static let demoForce = CommandOption(
    "force", "when DIR holds files of an earlier demo, remove them first (without it the demo is refused)",
    commands: [demo])
  static let demoScale = CommandOption(
    "scale", "PX_PER_PT", "pixels per point", range: scaleRange, default: "\(numberText(DemoCommand.defaultScale))",
    commands: [demo])
  static let demoFPS = CommandOption(
    "fps", "F", "frames per second", range: fpsRange, default: "\(DemoCommand.defaultFPS)", commands: [demo])
  static let only = CommandOption(
    "only", "NAME,...", "render only these presets and transition styles", commands: [demo])

  // MARK: - sleet import

  static let importSize = CommandOption(
    "size", "WxH", "the view size in points that bounds, frame and UIScreen.main.bounds read as",
    default: "\(numberText(ImportSize.standard.width))x\(numberText(ImportSize.standard.height))",
    note: "values that depend on it become the parameters width and height", commands: [importCode])
  static let sprites = CommandOption(
    "sprites", "DIR", "resolve UIImage(named: \"x\") to DIR/x.png when it exists",
    default: "a built-in sprite chosen by name, reported", commands: [importCode])
  static let strict = CommandOption(
    "strict", "fail (exit 2, nothing written) when any code was not translated", commands: [importCode])

  // MARK: - sleet play

  static let playTransition = CommandOption(
    "transition", "STYLE",
    "play a transition between --from and --to instead of an effect: \(TransitionStyle.allCases.map(\.rawValue).joined(separator: ", "))",
    commands: [play])
  static let playFrom = CommandOption(
    "from", "A.png", "with --transition: the picture shown first (required there)", commands: [play])
  static let playTo = CommandOption(
    "to", "B.png", "with --transition: the picture shown at the end (required there)", commands: [play])
  static let watch = CommandOption(
    "watch",
    "reload the effect file when it changes, keeping the time shown; a file that does not load is reported and the last good one plays on",
    commands: [play])
  static let paused = CommandOption("paused", "start paused", commands: [play])
  static let playFPS = CommandOption(
    "fps", "F", "frame steps: , and . move by 1/F s", range: fpsRange, default: "\(PlayCommand.defaultFPS)",
    commands: [play])
  static let playSeed = CommandOption(
    "seed", "N",
    "the effect's emitter seed (0…\(UInt32.max), default the effect's); with --transition, explode and glassBreak's random seed (default 0)",
    commands: [play])
  static let snapshots = CommandOption(
    "snapshots", "DIR", "where s writes the frame shown as a PNG", default: "the current folder",
    note: "the folder must exist", commands: [play])

  // MARK: - The table

  /// Every declaration, in the order help lists them.
  static let all: [CommandOption] = [
    playTransition, playFrom, playTo, watch, transitionStyle, shatterStyle, effect, from, to, out, exportOut, demoOut,
    force, exportForce, demoForce, gpu,
    emitterSeed, containerSize, shatterTime, transitionFrameTime, transitionFrameProgress, dumpTime,
    shatterDirection, transitionDirection, gesture, completionSpeed, image, imageRect, targetRect, button,
    transitionDivisor, shatterDivisor, randomSeed, backend, step, threads, budget, cap, format, statsDuration,
    interval, width, parameter, duration, fps, demoFPS, start, stillTime, renderTime, renderProgress, hold,
    validateTime, layerSize, scale, demoScale, background, only, frames, shard, quality, lossless, dither, crf,
    preset, json, importSize, sprites, strict, paused, playFPS, playSeed, snapshots, quiet, yes, noParameters,
  ]

  /// The options of the command at `path`, in the order help lists them.
  static func options(for path: [String]) -> [CommandOption] {
    all.filter { $0.commands.contains(path) }
  }

  /// The names the command at `path` accepts, without `--`.
  static func names(for path: [String]) -> Set<String> {
    Set(options(for: path).map(\.name))
  }

  // MARK: - Rendering

  /// The width help text is wrapped to.
  static let helpWidth = 80

  /// The `options:` section of a command's help: one row per option, its
  /// help line from a column two past the longest spelling, wrapped at
  /// ``helpWidth``; empty when the command has no options.
  static func helpSection(for path: [String]) -> String {
    let options = options(for: path)
    guard !options.isEmpty else { return "" }
    let column = 2 + options.map(\.spelling.count).max()! + 2
    let rows = options.map { option in
      (flag: option.spelling, description: wrap(option.helpLine, width: helpWidth - column))
    }
    return "options:\n" + HelpText.options(rows, column: column)
  }

  /// `text` in lines of at most `width` characters, broken at spaces (a word
  /// longer than `width` gets a line of its own).
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    return lines + [line]
  }

  /// The option tables of docs/cli.md, "Options of each command": a
  /// heading and a table per command that takes options, in the order
  /// `sleet --help` lists the commands.
  static func markdown(commands: [[String]]) -> String {
    var text: [String] = []
    for path in commands {
      let options = options(for: path)
      guard !options.isEmpty else { continue }
      text.append("### `sleet \(path.joined(separator: " "))`")
      text.append("")
      text.append("| option | meaning |")
      text.append("|---|---|")
      for option in options {
        text.append("| `\(markdownCell(option.spelling))` | \(markdownCell(option.helpLine)) |")
      }
      text.append("")
    }
    return text.joined(separator: "\n")
  }

  /// `text` safe in a Markdown table cell (`|` escaped).
  static func markdownCell(_ text: String) -> String {
    String(text.flatMap { $0 == "|" ? ["\\", "|"] : [$0] })
  }
}
