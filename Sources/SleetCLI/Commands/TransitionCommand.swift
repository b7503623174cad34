import SleetKit

/// Option parsing shared by `sleet transition frame`, `sleet transition render`
/// and the `sleet shatter render` alias.
enum TransitionCommandOptions {
  /// What a missing `--style` is told to give.
  static let styleHint = "one of " + TransitionStyle.allCases.map(\.rawValue).joined(separator: ", ")

  /// A style named by `option` (`--style`, or `sleet play --transition`),
  /// nil when absent.
  static func optionalStyle(_ arguments: inout Arguments, _ option: CommandOption) throws(CommandError)
    -> TransitionStyle?
  {
    try arguments.choice(option, TransitionStyle.allCases.map(\.rawValue)) { TransitionStyle(rawValue: $0) }
  }

  /// `--direction D` (default: the style's first direction).
  static func direction(_ arguments: inout Arguments) throws(CommandError) -> TransitionDirection? {
    try arguments.choice(OptionTable.transitionDirection, TransitionDirection.allCases.map(\.rawValue)) {
      TransitionDirection(rawValue: $0)
    }
  }

  /// `--image-rect`, `--target-rect`, `--button` (each `x,y,w,h`), `--divisor`
  /// and `--seed`; a flag the style does not use is refused by
  /// ``transition(style:direction:width:height:options:sizeFlag:)``.
  static func options(_ arguments: inout Arguments) throws(CommandError) -> TransitionOptions {
    var options = TransitionOptions()
    options.imageRect = try rect(&arguments, OptionTable.imageRect)
    options.targetRect = try rect(&arguments, OptionTable.targetRect)
    options.button = try rect(&arguments, OptionTable.button)
    options.divisor = try arguments.integer(OptionTable.transitionDivisor)
    options.seed = try arguments.option(OptionTable.randomSeed.name, as: "an unsigned 64-bit integer") { UInt64($0) }
    return options
  }

  /// `--NAME x,y,w,h`: four finite numbers.
  static func rect(_ arguments: inout Arguments, _ option: CommandOption) throws(CommandError) -> Rect? {
    try arguments.option(option.name, as: "x,y,w,h (four finite numbers in points)") { raw in
      let parts = raw.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
      guard parts.count == 4, parts.allSatisfy({ $0 != nil && $0!.isFinite }) else { return nil }
      return Rect(x: parts[0]!, y: parts[1]!, width: parts[2]!, height: parts[3]!)
    }
  }

  /// The flag that sets a ``TransitionError/field``.
  static func flag(for field: String, sizeFlag: String) -> String {
    switch field {
    case "width", "height": sizeFlag
    case "direction": "--direction"
    case "imageRect": "--image-rect"
    case "targetRect": "--target-rect"
    case "button": "--button"
    case "seed": "--seed"
    default: "--divisor"
    }
  }

  /// The transition, or a usage error that names the flag at fault
  /// (`sizeFlag` for the container size: `--size`, or `--from` when the
  /// pictures set it).
  static func transition(
    style: TransitionStyle, direction: TransitionDirection?, width: Double, height: Double,
    options: TransitionOptions, sizeFlag: String
  ) throws(CommandError) -> Transition {
    do throws(TransitionError) {
      return try Transition(style: style, direction: direction, width: width, height: height, options: options)
    } catch {
      throw .usage("\(flag(for: error.field, sizeFlag: sizeFlag)): \(error.description)")
    }
  }

  /// `--time T` or `--progress P` (at most one; `time` and `progress` are
  /// the command's declarations): the transition time, or nil when neither
  /// is given. T must be ≥ 0, P in [0, 1].
  static func time(
    _ arguments: inout Arguments, _ time: CommandOption, _ progress: CommandOption, duration: Double
  ) throws(CommandError) -> Double? {
    let seconds = try arguments.number(time)
    let fraction = try arguments.number(progress)
    if seconds != nil && fraction != nil { throw .usage("--time and --progress: give one, not both") }
    return seconds ?? fraction.map { $0 * duration }
  }
}

/// `sleet transition frame`: every layer of any transition style at one instant.
struct TransitionFrameCommand: SleetCommand {
  static let path = ["transition", "frame"]
  static let summary = "print every layer of a transition (any style) at one time"
  static let about = """
    usage: sleet transition frame --style NAME --size WxH (--time T | --progress P)
                                  [--direction D] [--image-rect x,y,w,h] [--target-rect x,y,w,h]
                                  [--button x,y,w,h] [--divisor N] [--seed N] [--json]

    Evaluates a transition at time T (seconds, ≥ 0) or progress P (time P·D,
    D the style's duration) and prints its layers back to front: content
    (from, to, color, image), opacity, the four projected corners TL, TR, BR,
    BL in container points (null when behind the eye), the oval mask's rect
    and the depth. With --json:
      {"style", "direction", "time", "duration", "complete",
       "layers": [{"content", "opacity", "corners": [[x, y] ×4],
                   "mask": null | {"x", "y", "width", "height"}, "depth",
                   "texture": [[u, v] ×4], "color": [r, g, b, a] (color layers)}]}
    zoom's rects and circleReveal's button default as in 'sleet transition
    render' (each default used is named on standard error).

    styles and their directions (the first is the default):
      slide, fade, zoom, circleReveal, checkerboard   push, pop
      window, tilt3D                                  present, dismiss
      explode, glassBreak                             push

    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    var required = RequiredOptions()
    let style = required.note(
      try TransitionCommandOptions.optionalStyle(&arguments, OptionTable.transitionStyle), "--style",
      hint: TransitionCommandOptions.styleHint)
    let size = required.note(try SizeOption.parse(&arguments, OptionTable.containerSize), "--size WxH")
    let timed = [OptionTable.transitionFrameTime, OptionTable.transitionFrameProgress].contains(
      where: arguments.contains)
    _ = required.note(timed ? true : nil, "--time T or --progress P")
    try required.check()
    let direction = try TransitionCommandOptions.direction(&arguments)
    let given = try TransitionCommandOptions.options(&arguments)
    let json = try arguments.flag(OptionTable.json)
    let options = given.filled(for: style!, width: size!.width, height: size!.height)
    let transition = try TransitionCommandOptions.transition(
      style: style!, direction: direction, width: size!.width, height: size!.height, options: options,
      sizeFlag: "--size")
    let time = try TransitionCommandOptions.time(
      &arguments, OptionTable.transitionFrameTime, OptionTable.transitionFrameProgress,
      duration: transition.duration)!
    try arguments.finish()
    // On stderr: standard output is the frame (JSON with --json).
    for note in TransitionInputs.defaultNotes(given: given, filled: options) { output.printError(note) }
    let frame = transition.frame(at: time)
    if json {
      output.print(jsonText(frame, transition: transition))
    } else {
      output.print(
        "\(transition.style.rawValue) \(transition.direction.rawValue) at t = \(JSONNumber(time)) s of \(JSONNumber(transition.duration)) s: \(frame.count) layers, \(frame.isComplete ? "complete" : "in progress")"
      )
      output.print("layer content opacity depth  TL TR BR BL  mask")
      for (i, layer) in frame.layers.enumerated() {
        let corners = cornerList(layer.corners).map { "(\(JSONNumber($0.x)), \(JSONNumber($0.y)))" }
          .joined(separator: " ")
        let mask =
          layer.mask.map {
            "oval in (\(JSONNumber($0.x)), \(JSONNumber($0.y)), \(JSONNumber($0.width)), \(JSONNumber($0.height)))"
          } ?? "-"
        output.print(
          "\(i) \(layer.content.name) \(JSONNumber(layer.opacity)) \(JSONNumber(layer.depth))  \(corners)  \(mask)")
      }
    }
  }

  static func cornerList(_ q: Quad2D) -> [SIMD2<Float>] { [q.topLeft, q.topRight, q.bottomRight, q.bottomLeft] }

  /// The JSON document described in the help.
  static func jsonText(_ frame: TransitionFrame, transition: Transition) -> String {
    func points(_ q: Quad2D) -> String {
      "[" + cornerList(q).map { "[\(JSONNumber($0.x)), \(JSONNumber($0.y))]" }.joined(separator: ", ") + "]"
    }
    var out = "{\"style\": \"\(transition.style.rawValue)\", \"direction\": \"\(transition.direction.rawValue)\", "
    out += "\"time\": \(JSONNumber(frame.time)), \"duration\": \(JSONNumber(transition.duration)), "
    out += "\"complete\": \(frame.isComplete), \"layers\": ["
    out.reserveCapacity(out.count + 260 * frame.count)
    for (i, layer) in frame.layers.enumerated() {
      if i > 0 { out += ", " }
      out += "{\"content\": \"\(layer.content.name)\", \"opacity\": \(JSONNumber(layer.opacity)), "
      out += "\"corners\": \(points(layer.corners)), \"mask\": "
      if let m = layer.mask {
        out +=
          "{\"x\": \(JSONNumber(m.x)), \"y\": \(JSONNumber(m.y)), \"width\": \(JSONNumber(m.width)), \"height\": \(JSONNumber(m.height))}"
      } else {
        out += "null"
      }
      out += ", \"depth\": \(JSONNumber(layer.depth)), \"texture\": \(points(layer.textureCorners))"
      if case .color(let c) = layer.content {
        out +=
          ", \"color\": [\(JSONNumber(c.red)), \(JSONNumber(c.green)), \(JSONNumber(c.blue)), \(JSONNumber(c.alpha))]"
      }
      out += "}"
    }
    out += "]}"
    return out
  }
}

/// `sleet transition render`: any transition style between two pictures.
struct TransitionRenderCommand: SleetCommand {
  static let path = ["transition", "render"]
  static let summary = "render a transition (any style) between two PNG pictures to PNG, APNG, WebP, GIF or frames"
  static let about = """
    usage: sleet transition render --style NAME --from A.png --to B.png
                                   --out FILE.png|FILE.apng|FILE.webp|FILE.gif|DIR|-|apng:- [--force]
                                   [--scale PX_PER_PT] [--background RGBA]
                                   [--direction D] [--gesture FILE.json] [--completion-speed S]
                                   [--image IMG.png] [--image-rect x,y,w,h] [--target-rect x,y,w,h]
                                   [--button x,y,w,h] [--divisor N] [--seed N]
                                   [--fps F] [--time T | --progress P] [--hold S]
                                   [--frames A-B | --shard i/n]
                                   [--quality Q] [--lossless] [--dither ordered|none]
                                   [--crf N] [--preset NAME]

    Draws the transition from picture A to picture B. The pictures define the
    container, so both must have the same size: W×H pixels at --scale S
    pixels per point (default 1) is a W/S × H/S point container drawn at S
    pixels per point. Give a 3× iPhone screenshot (1170×2532) --scale 3: the
    container is then 390×844 points, and every input in points (the rects,
    the button, tilt3D's 280-point sheet, a gesture's translations) has the
    size iOS gives it. --background fills what no layer covers (default
    transparent: around tilt3D's shrunk screen).

    zoom's --image-rect and --target-rect and circleReveal's --button default
    to the rects of 'sleet demo' (docs/transitions.md, "Default rects"): a
    160-point cell at (24, 160), a full-width square below an 88-point bar,
    a 44-point button near the top-right corner; each default used is named
    on the output.
      FILE.png    one still at --time or --progress (default: half the duration)
      FILE.apng   the whole transition from t = 0 to its end (+ --hold) at
                  --fps, loop forever
      FILE.webp   the same as WebP (lossy, or --lossless); FILE.gif as GIF
                  (252 colours, at most \(AnimationFormat.maximumGIFFramesPerSecond) fps); see 'sleet render --help'
      FILE.mp4, FILE.webm, FILE.mov
                  the same as H.264, VP9 with alpha or ProRes 4444 with
                  alpha video (--crf, --preset for MP4; MP4 and WebM need an
                  even width and height); see 'sleet render --help'
      DIR         the same frames as DIR/frame-0000.png, …
      - or png:-  the still on standard output; apng:-, webp:-, gif:- the
                  animation
    An existing output is replaced only with --force (a folder's old
    frame-*.png files are then removed first); inputs are never written over.

    With --gesture, an interactive transition (UIPercentDrivenInteractiveTransition)
    follows a recorded edge pan instead of the clock: progress = translation / W
    (points) at each sample, measured along the pan (a leftward pan, the
    right-to-left back swipe, drives pop and dismiss); when the finger lifts
    (the last sample) it finishes or cancels by the style's rule (slide:
    p > 0.5; the others: p > 0.5 or velocity toward completion > 0) and runs
    on at --completion-speed. The file is
      {"samples": [{"time": 0, "translationX": 0}, {"time": 0.1, "translationX": 40}, ...]}
    with times in seconds, strictly increasing ("timestamp" may name them;
    translationY, velocityX, velocityY, locationX, locationY and state are
    read and ignored, see docs/transitions.md, "Gesture files"). Frames run
    from the first sample until the completion lands (+ --hold).

    --frames and --shard render part of the animation: frame k is the k-th of
    the whole one (t = k/F, or the gesture's k-th frame), numbered k in a
    folder, so pieces rendered by several processes or machines into one
    folder make the whole sequence (with --force a piece removes only its own
    frames); an .apng of a piece is an animation of just those frames.

    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    let style = try TransitionCommandOptions.optionalStyle(&arguments, OptionTable.transitionStyle)
    try render(style: style, &arguments, output: output, label: "transition render")
  }

  /// The body of `transition render` and of the `shatter render` alias: read
  /// the options (`style` nil when `--style` is missing, named with the other
  /// missing ones), then the pictures, check the output, choose the frames'
  /// times and write them.
  static func render(
    style: TransitionStyle?, _ arguments: inout Arguments, output: CommandOutput, label: String
  ) throws(CommandError) {
    let request = try TransitionRenderRequest(style: style, &arguments)
    let target = request.target
    let setup = try request.inputs.scene(progress: output.progress)
    var scene = setup.scene
    let transition = scene.transition
    let recycler = ImageRecycler()
    scene.recycler = recycler
    let (width, height) = (scene.from.width, scene.from.height)
    if case .animation(_, let format) = target {
      if let note = format.storedSizeNote(width: width, height: height) {
        RenderOutput.report(note, for: target, output: output)
      }
    }
    let stillTime = try TransitionCommandOptions.time(
      &arguments, OptionTable.renderTime, OptionTable.renderProgress, duration: transition.duration)
    if stillTime != nil, !target.isStill {
      throw .usage("--time and --progress choose a still's time: use them with FILE.png")
    }
    if request.hold != nil, target.isStill { throw .usage("--hold applies to animations (FILE.apng or a folder)") }
    try arguments.finish()
    try RenderOutput.checkTerminal(target, output: output, force: request.force)
    // Without --frames or --shard every frame-*.png of a folder is the
    // output's; with them only the selected frames' (known once the frames
    // are counted, in frameTimes).
    if request.frames == nil { try OutputCheck.check(target, inputs: request.inputs.inputs, force: request.force) }
    for note in setup.notes { RenderOutput.report(note, for: target, output: output) }

    let clock = Stopwatch()
    let (times, selection) = try request.frameTimes(
      scene: scene, replay: setup.replay, stillTime: stillTime, output: output)
    try RenderOutput.write(
      target, times: times, frameSize: (width, height), fps: request.fps, force: request.force,
      output: output, label: label, frames: selection, recycler: recycler
    ) {
      [scene] (batch: [Double]) throws(CommandError) in scene.render(times: batch)
    }
    RenderOutput.report(
      "wrote \(target.displayName) (\(transition.style.rawValue) \(transition.direction.rawValue), \(width)×\(height) px, \(selection.countText)) in \(clock.elapsedText)",
      for: target, output: output)
  }
}

/// What `transition render` (or `shatter render`) was asked for: the
/// transition's inputs and the output's options, read and checked against
/// each other before any file is read.
struct TransitionRenderRequest {
  var inputs: TransitionInputs
  var target: RenderTarget
  var force: Bool
  var fps: Int
  var frames: FrameRequest?
  var hold: Double?

  /// Reads every option but `--time` and `--progress` (which need the
  /// transition's duration), refusing the combinations the output or the
  /// style would ignore; one error names every missing required option
  /// (`style` is nil when `--style` is missing).
  init(style: TransitionStyle?, _ arguments: inout Arguments) throws(CommandError) {
    var required = RequiredOptions()
    _ = required.note(style, "--style", hint: TransitionCommandOptions.styleHint)
    let from = required.note(try arguments.value(OptionTable.from), "--from A.png")
    let to = required.note(try arguments.value(OptionTable.to), "--to B.png")
    let out = required.note(try arguments.value(OptionTable.out), "--out FILE.png|FILE.apng|DIR")
    try required.check()
    inputs = try TransitionInputs(style: style!, fromPath: from!, toPath: to!, &arguments)
    target = try AnimationFormat.readOptions(&arguments, for: RenderTarget(out!))
    try OutputCheck.checkParentFolder(target.path, flag: "--out")
    force = try arguments.flag(OptionTable.force)
    if arguments.contains(OptionTable.fps), target.isStill {
      throw .usage("--fps applies to animations (FILE.apng or a folder), not to a still FILE.png")
    }
    fps = try RenderOptions.fps(&arguments)
    frames = try FrameRequest.parse(&arguments)
    try frames?.check(for: target)
    hold = try arguments.number(OptionTable.hold)
    if inputs.gesturePath != nil, target.isStill {
      throw .usage("--gesture needs an animation (FILE.apng) or a folder, not a still")
    }
    if let background = inputs.background, case .animation(_, let format) = target {
      try format.checkBackground(background)
    }
  }

  /// The times of the frames to render and which frames of the whole
  /// animation they are: the still's time; the gesture replay's frames; or
  /// the clock's from 0 to the end (+ `--hold`), then the `--frames` or
  /// `--shard` piece of them (bit for bit the times the whole render gives
  /// those frames). With a piece, checks the output now that the frames are
  /// known.
  func frameTimes(
    scene: TransitionScene, replay: GestureReplay?, stillTime: Double?, output: CommandOutput
  ) throws(CommandError) -> (times: [Double], selection: FrameSelection) {
    let transition = scene.transition
    var times: [Double]
    if case .still = target {
      times = [stillTime ?? transition.duration / 2]
    } else if let replay {
      // Counted before the clocks are made: a gesture file can span any time.
      guard let count = replay.frameCount(fps: fps, hold: hold ?? 0) else {
        throw .usage(
          "--gesture × --fps: the gesture lasts \(replay.endClock - replay.gesture.startTime) s, too long to render")
      }
      try RenderOutput.checkFrameCount(count, for: target, flags: "--gesture × --fps")
      times = replay.clocks(fps: fps, hold: hold ?? 0).map(replay.transitionTime(at:))
    } else {
      times = scene.times(fps: fps, hold: hold ?? 0)
      try RenderOutput.checkFrameCount(times.count, for: target, flags: "--hold × --fps")
    }
    let selection = try frames?.select(total: times.count) ?? .all(times.count)
    if frames != nil {
      try OutputCheck.check(target, inputs: inputs.inputs, force: force, frames: selection)
      times = selection.times(times)
    }
    return (times, selection)
  }
}
