import SleetKit

/// Option parsing shared by `sleet transition frame`, `sleet transition render`
/// and the `sleet shatter render` alias.
enum TransitionCommandOptions {
  /// `--style NAME` (required).
  static func style(_ arguments: inout Arguments) throws(CommandError) -> TransitionStyle {
    guard let style = try optionalStyle(&arguments, OptionTable.transitionStyle) else {
      throw .usage("--style is required: one of \(TransitionStyle.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return style
  }

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
                                  [--direction D] [--image-rect x,y,w,h --target-rect x,y,w,h]
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

    styles and their directions (the first is the default):
      slide, fade, zoom, circleReveal, checkerboard   push, pop
      window, tilt3D                                  present, dismiss
      explode, glassBreak                             push

    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    let style = try TransitionCommandOptions.style(&arguments)
    guard let size = try SizeOption.parse(&arguments, OptionTable.containerSize) else {
      throw .usage("--size WxH is required")
    }
    let direction = try TransitionCommandOptions.direction(&arguments)
    let options = try TransitionCommandOptions.options(&arguments)
    let json = try arguments.flag(OptionTable.json)
    let transition = try TransitionCommandOptions.transition(
      style: style, direction: direction, width: size.width, height: size.height, options: options,
      sizeFlag: "--size")
    guard
      let time = try TransitionCommandOptions.time(
        &arguments, OptionTable.transitionFrameTime, OptionTable.transitionFrameProgress,
        duration: transition.duration)
    else {
      throw .usage("--time T or --progress P is required")
    }
    try arguments.finish()
    let frame = transition.frame(at: time)
    if json {
      output.print(jsonText(frame, transition: transition))
    } else {
      output.print(
        "\(style.rawValue) \(transition.direction.rawValue) at t = \(JSONNumber(time)) s of \(JSONNumber(transition.duration)) s: \(frame.count) layers, \(frame.isComplete ? "complete" : "in progress")"
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
                                   [--direction D] [--gesture FILE.json] [--completion-speed S]
                                   [--image IMG.png] [--image-rect x,y,w,h --target-rect x,y,w,h]
                                   [--button x,y,w,h] [--divisor N] [--seed N]
                                   [--fps F] [--time T | --progress P] [--hold S]
                                   [--frames A-B | --shard i/n]
                                   [--quality Q] [--lossless] [--dither ordered|none]
                                   [--crf N] [--preset NAME]

    Draws the transition from picture A to picture B. The pictures define the
    container: W×H pixels is a W×H point container drawn at 1 pixel per point,
    so both must have the same size.
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
    at each sample; when the finger lifts (the last sample) it finishes or
    cancels by the style's rule (slide: p > 0.5; the others: p > 0.5 or
    velocity > 0) and runs on at --completion-speed. The file is
      {"samples": [{"time": 0, "translationX": 0}, {"time": 0.1, "translationX": 40}, ...]}
    with times in seconds, strictly increasing. Frames run from the first
    sample until the completion lands (+ --hold).

    --frames and --shard render part of the animation: frame k is the k-th of
    the whole one (t = k/F, or the gesture's k-th frame), numbered k in a
    folder, so pieces rendered by several processes or machines into one
    folder make the whole sequence (with --force a piece removes only its own
    frames); an .apng of a piece is an animation of just those frames.

    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    let style = try TransitionCommandOptions.style(&arguments)
    try render(style: style, &arguments, output: output, label: "transition render")
  }

  /// The body of `transition render` and of the `shatter render` alias: read
  /// the options, then the pictures, check the output, choose the frames'
  /// times and write them.
  static func render(
    style: TransitionStyle, _ arguments: inout Arguments, output: CommandOutput, label: String
  ) throws(CommandError) {
    let request = try TransitionRenderRequest(style: style, &arguments)
    let target = request.target
    let (from, to) = try request.readPictures()
    if case .animation(_, let format) = target {
      if let note = format.storedSizeNote(width: from.width, height: from.height) {
        RenderOutput.report(note, for: target, output: output)
      }
    }
    let transition = try TransitionCommandOptions.transition(
      style: style, direction: request.direction, width: Double(from.width), height: Double(from.height),
      options: request.options, sizeFlag: "--from")
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
    if request.frames == nil { try OutputCheck.check(target, inputs: request.inputs, force: request.force) }
    let image = try request.zoomImage(from: from, transition: transition)
    let gesture = try request.readGesture()

    let clock = Stopwatch()
    let scene = TransitionScene(
      transition: transition, from: from, to: to, image: image, pixelsPerPoint: 1, progress: output.progress)
    let (times, selection) = try request.frameTimes(
      scene: scene, gesture: gesture, stillTime: stillTime, output: output)
    try RenderOutput.write(
      target, times: times, frameSize: (from.width, from.height), fps: request.fps, force: request.force,
      output: output, label: label, frames: selection
    ) {
      (batch: [Double]) throws(CommandError) in scene.render(times: batch)
    }
    RenderOutput.report(
      "wrote \(target.displayName) (\(style.rawValue) \(transition.direction.rawValue), \(from.width)×\(from.height) px, \(selection.countText)) in \(clock.elapsedText)",
      for: target, output: output)
  }
}

/// What `transition render` (or `shatter render`) was asked for: its
/// options, read and checked against each other before any file is read.
struct TransitionRenderRequest {
  var style: TransitionStyle
  var fromPath: String
  var toPath: String
  var target: RenderTarget
  var force: Bool
  var direction: TransitionDirection?
  var options: TransitionOptions
  var gesturePath: String?
  var completionSpeed: Double?
  var imagePath: String?
  var fps: Int
  var frames: FrameRequest?
  var hold: Double?

  /// Reads every option but `--time` and `--progress` (which need the
  /// transition's duration), refusing the combinations the output or the
  /// style would ignore.
  init(style: TransitionStyle, _ arguments: inout Arguments) throws(CommandError) {
    self.style = style
    guard let from = try arguments.value(OptionTable.from) else { throw .usage("--from A.png is required") }
    guard let to = try arguments.value(OptionTable.to) else { throw .usage("--to B.png is required") }
    guard let out = try arguments.value(OptionTable.out) else {
      throw .usage("--out FILE.png|FILE.apng|DIR is required")
    }
    (fromPath, toPath) = (from, to)
    target = try AnimationFormat.readOptions(&arguments, for: RenderTarget(out))
    try OutputCheck.checkParentFolder(target.path, flag: "--out")
    force = try arguments.flag(OptionTable.force)
    direction = try TransitionCommandOptions.direction(&arguments)
    options = try TransitionCommandOptions.options(&arguments)
    gesturePath = try arguments.value(OptionTable.gesture)
    completionSpeed = try arguments.number(OptionTable.completionSpeed)
    imagePath = try arguments.value(OptionTable.image)
    if arguments.contains(OptionTable.fps), target.isStill {
      throw .usage("--fps applies to animations (FILE.apng or a folder), not to a still FILE.png")
    }
    fps = try RenderOptions.fps(&arguments)
    frames = try FrameRequest.parse(&arguments)
    try frames?.check(for: target)
    hold = try arguments.number(OptionTable.hold)
    try checkCombinations()
  }

  /// Refuses the options the style or the output would ignore.
  private func checkCombinations() throws(CommandError) {
    if completionSpeed != nil && gesturePath == nil {
      throw .usage("--completion-speed applies only with --gesture")
    }
    if imagePath != nil && style != .zoom { throw .usage("--image does not apply to \(style.rawValue)") }
    if gesturePath != nil, target.isStill {
      throw .usage("--gesture needs an animation (FILE.apng) or a folder, not a still")
    }
  }

  /// The files read, named by their flags: what the output must not be.
  var inputs: [CommandInput] {
    [("--from", fromPath), ("--to", toPath), ("--image", imagePath), ("--gesture", gesturePath)]
      .compactMap { flag, path in path.map { CommandInput(flag: flag, path: $0) } }
  }

  /// The two pictures, of the same size and within the image limits.
  func readPictures() throws(CommandError) -> (from: RGBAImage, to: RGBAImage) {
    try Self.readPictures(fromPath: fromPath, toPath: toPath)
  }

  /// The pictures at `fromPath` and `toPath` (`--from`, `--to`), of the same
  /// size and within the image limits.
  static func readPictures(fromPath: String, toPath: String) throws(CommandError) -> (from: RGBAImage, to: RGBAImage) {
    let from = try InputImages.readPicture(fromPath, flag: "--from")
    let to = try InputImages.readPicture(toPath, flag: "--to")
    guard from.width == to.width && from.height == to.height else {
      throw .usage(
        "--from and --to must have the same size: \(fromPath) is \(from.width)×\(from.height), \(toPath) is \(to.width)×\(to.height)"
      )
    }
    try Canvas.checkImageSize(width: from.width, height: from.height, flags: "--from and --to")
    return (from, to)
  }

  /// The zoom style's flying image: `--image`, or cut from the picture it
  /// leaves; nil for the other styles.
  func zoomImage(from: RGBAImage, transition: Transition) throws(CommandError) -> RGBAImage? {
    try Self.zoomImage(imagePath: imagePath, options: options, from: from, transition: transition)
  }

  /// The zoom style's flying image: the picture at `imagePath`, or cut from
  /// `from` at the rect of `options` it leaves; nil for the other styles.
  static func zoomImage(
    imagePath: String?, options: TransitionOptions, from: RGBAImage, transition: Transition
  ) throws(CommandError) -> RGBAImage? {
    guard transition.style == .zoom else { return nil }
    if let imagePath { return try InputImages.readPicture(imagePath, flag: "--image") }
    let rect = transition.direction == .push ? options.imageRect! : options.targetRect!
    return TransitionScene.crop(from, to: rect, pixelsPerPoint: 1)
  }

  /// The recorded pan of `--gesture`, if given.
  func readGesture() throws(CommandError) -> PanGesture? {
    try Self.readGesture(gesturePath)
  }

  /// The recorded pan at `gesturePath` (`--gesture`), if given.
  static func readGesture(_ gesturePath: String?) throws(CommandError) -> PanGesture? {
    guard let gesturePath else { return nil }
    do throws(GestureError) {
      return try PanGesture(contentsOfFile: gesturePath)
    } catch {
      throw .usage("--gesture \(gesturePath): \(error.description)")
    }
  }

  /// The times of the frames to render and which frames of the whole
  /// animation they are: the still's time; the gesture replay's frames; or
  /// the clock's from 0 to the end (+ `--hold`), then the `--frames` or
  /// `--shard` piece of them (bit for bit the times the whole render gives
  /// those frames). With a piece, checks the output now that the frames are
  /// known.
  func frameTimes(
    scene: TransitionScene, gesture: PanGesture?, stillTime: Double?, output: CommandOutput
  ) throws(CommandError) -> (times: [Double], selection: FrameSelection) {
    let transition = scene.transition
    var times: [Double]
    if case .still = target {
      times = [stillTime ?? transition.duration / 2]
    } else if let gesture {
      times = try gestureTimes(gesture, transition: transition, output: output)
    } else {
      times = scene.times(fps: fps, hold: hold ?? 0)
      try RenderOutput.checkFrameCount(times.count, for: target, flags: "--hold × --fps")
    }
    let selection = try frames?.select(total: times.count) ?? .all(times.count)
    if frames != nil {
      try OutputCheck.check(target, inputs: inputs, force: force, frames: selection)
      times = selection.times(times)
    }
    return (times, selection)
  }

  /// The transition times of an interactive transition following `gesture`,
  /// one a frame; reports whether the release finishes or cancels.
  private func gestureTimes(
    _ gesture: PanGesture, transition: Transition, output: CommandOutput
  ) throws(CommandError) -> [Double] {
    let interaction = InteractiveTransition(transition, completionSpeed: completionSpeed ?? 1)
    let replay = GestureReplay(gesture, extent: transition.width, interaction: interaction)
    // Counted before the clocks are made: a gesture file can span any time.
    guard let count = replay.frameCount(fps: fps, hold: hold ?? 0) else {
      throw .usage("--gesture × --fps: the gesture lasts \(replay.endClock - gesture.startTime) s, too long to render")
    }
    try RenderOutput.checkFrameCount(count, for: target, flags: "--gesture × --fps")
    let times = replay.clocks(fps: fps, hold: hold ?? 0).map(replay.transitionTime(at:))
    RenderOutput.report(
      "gesture: released at progress \(roundedText(replay.progress(at: gesture.endTime), places: 3)), velocity \(roundedText(gesture.velocity, places: 1)) pt/s: \(replay.finishes ? "finishes" : "cancels")",
      for: target, output: output)
    return times
  }
}

/// A transition between two snapshots, to draw at chosen transition times.
struct TransitionScene: Sendable {
  var transition: Transition
  var from: RGBAImage
  var to: RGBAImage
  /// The zoom style's flying image.
  var image: RGBAImage?
  var pixelsPerPoint: Double
  /// Where drawn frames and rows are reported (the running command's
  /// progress line), if anywhere.
  var progress: ProgressHub?

  init(
    transition: Transition, from: RGBAImage, to: RGBAImage, image: RGBAImage?, pixelsPerPoint: Double,
    progress: ProgressHub? = nil
  ) {
    self.transition = transition
    self.from = from
    self.to = to
    self.image = image
    self.pixelsPerPoint = pixelsPerPoint
    self.progress = progress
  }

  /// The frames at `times`, rendered in parallel (one frame buffer per worker).
  func render(times: [Double]) -> [RGBAImage] {
    let results = ParallelSlots<RGBAImage>(count: times.count)
    let (transition, from, to, image) = (transition, from, to, image)
    let scale = Float(pixelsPerPoint)
    let width = from.width, height = from.height
    let progress = progress?.progress
    progress?.setFrameSize(width: width, height: height)
    FrameParallelism.forEachRun(count: times.count) { range, options in
      var options = options
      if times.count == 1 { options.progress = progress?.raster }
      let renderer = Renderer(pixelsPerPoint: scale, options: options)
      var frame = transition.makeFrame()
      for i in range {
        transition.evaluate(at: times[i], into: &frame)
        var picture = RGBAImage(width: width, height: height)
        renderer.render(frame, from: from, to: to, image: image, into: &picture)
        results.set(i, picture)
        progress?.frameDrawn()
      }
    }
    return results.values
  }

  /// Frame times from 0 through the end of the transition at `fps`, plus
  /// `hold` seconds showing the final state.
  func times(fps: Int, hold: Double = 0) -> [Double] {
    let end = transition.endTime + hold
    let count = Int((end * Double(fps)).rounded(.up)) + 1
    return (0..<count).map { Swift.min(end, Double($0) / Double(fps)) }
  }

  /// The pixels of `picture` under `rect` (points, at `pixelsPerPoint`),
  /// rounded outward to whole pixels: the zoom's image as the screen shows it.
  static func crop(_ picture: RGBAImage, to rect: Rect, pixelsPerPoint: Double) -> RGBAImage {
    let x0 = Swift.max(0, Int((rect.minX * pixelsPerPoint).rounded(.down)))
    let y0 = Swift.max(0, Int((rect.minY * pixelsPerPoint).rounded(.down)))
    let x1 = Swift.min(picture.width, Swift.max(x0 + 1, Int((rect.maxX * pixelsPerPoint).rounded(.up))))
    let y1 = Swift.min(picture.height, Swift.max(y0 + 1, Int((rect.maxY * pixelsPerPoint).rounded(.up))))
    var out = RGBAImage(width: x1 - x0, height: y1 - y0)
    for y in y0..<y1 {
      for x in x0..<x1 { out[x - x0, y - y0] = picture[x, y] }
    }
    return out
  }
}
