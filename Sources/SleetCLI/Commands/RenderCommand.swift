import Dispatch
import SleetKit
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `sleet render`: an effect as a still, an animation or numbered frames.
struct RenderCommand: SleetCommand {
  static let path = ["render"]
  static let summary =
    "render an effect to a PNG still, an animation (APNG, WebP, GIF), a video (MP4, WebM, MOV) or numbered PNG frames"
  static let about = """
    usage: sleet render EFFECT|FILE.json --out FILE.png|FILE.apng|FILE.webp|FILE.gif|DIR|-|apng:- [--force]
                        [--seed N] [--duration S] [--fps F] [--start T] [--time T]
                        [--size WxH] [--scale PX_PER_PT] [--background RGBA] [--gpu]
                        [--frames A-B | --shard i/n]
                        [--quality Q] [--lossless] [--dither ordered|none]
                        [--crf N] [--preset NAME]

    Simulates a built-in preset (see 'sleet presets list') or an effect file
    and draws it with the preview renderer over the background colour.
      FILE.png    one still at --time
      FILE.apng   an animation from --start to --start + --duration at --fps
                  (loops forever, exact frame delays of 1/F s)
      FILE.webp   the same animation as WebP (lossy, or --lossless)
      FILE.gif    the same animation as GIF (252 colours, at most \(AnimationFormat.maximumGIFFramesPerSecond) fps);
                  WebP and GIF store delays in whole ms and cs: each frame
                  starts at its exact time rounded, so the total is exact
      FILE.mp4    the same animation as H.264 video (yuv420p, no alpha:
                  --background must be opaque; --crf, --preset)
      FILE.webm   as VP9 video with alpha (yuva420p)
      FILE.mov    as ProRes 4444 video with alpha (yuva444p10le)
                  MP4 and WebM need an even width and height; a video goes
                  to a file, not to standard output (docs/rendering.md, "Video")
      DIR         the same frames as DIR/frame-0000.png, frame-0001.png, …
                  (a path ending in '/' or without a .png/.apng extension;
                  the folder is created if its parent exists)
      - or png:-  the still on standard output; apng:-, webp:-, gif:- the
                  animation
    An existing output is replaced only with --force (a folder's old
    frame-*.png files are then removed first); inputs are never written over.
    An effect's "width"/"height" parameters are set to the --size, and "x"/"y"
    to its centre, so presets fill the frame (see docs/effect-format.md).

    Default times show the effect in full swing, by one rule computed from
    the effect (docs/rendering.md, "Default times"; 'sleet validate FILE.json'
    prints them): a steady effect (one that keeps emitting) from the moment
    every particle alive was born after emission began (snow: 60 s), for 3 s;
    a burst a third of the way from its first birth to its last death, and
    from the first birth to the last death (at most 10 s) for an animation.
    Flags the output would ignore are errors: --time with an animation,
    --start, --duration, --fps, --frames or --shard with a still.

    --frames and --shard render part of the animation: frame k is the one at
    --start + k/F, numbered k in a folder, so pieces rendered by several
    processes or machines into one folder make the whole sequence (with
    --force a piece removes only its own frames); an .apng or a video of a
    piece is an animation of just those frames (docs/rendering.md, "Splitting a render
    across processes or machines").

    Before drawing, the checks of 'sleet validate' run (cells, sprites,
    particle budget, times); a failure is bad input (exit 2).
    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    guard let outPath = try arguments.value(OptionTable.out) else {
      throw .usage("--out FILE.png|FILE.apng|DIR is required")
    }
    let target = try AnimationFormat.readOptions(&arguments, for: RenderTarget(outPath))
    try OutputCheck.checkParentFolder(target.path, flag: "--out")
    let force = try arguments.flag(OptionTable.force)
    try RenderOutput.checkTerminal(target, output: output, force: force)
    let usesGPU = try arguments.flag(OptionTable.gpu)
    let quiet = try arguments.flag(OptionTable.quiet)
    let confirmed = try arguments.flag(OptionTable.yes)
    let seed = try arguments.integer(OptionTable.emitterSeed).map { UInt32($0) }
    let duration = try arguments.number(OptionTable.duration)
    let fpsGiven = arguments.contains(OptionTable.fps)
    let fps = try RenderOptions.fps(&arguments)
    let start = try arguments.number(OptionTable.start)
    let time = try arguments.number(OptionTable.stillTime)
    let request = try FrameRequest.parse(&arguments)
    try request?.check(for: target)
    // A flag the output would ignore is refused, as 'transition render' does.
    if target.isStill {
      for (flag, given) in [("--duration", duration != nil), ("--start", start != nil), ("--fps", fpsGiven)] where given
      {
        throw .usage("\(flag) applies to animations (FILE.apng or a folder), not to a still FILE.png")
      }
    } else if time != nil {
      throw .usage("--time chooses a still's time: use it with FILE.png (animations take --start and --duration)")
    }
    let canvas = try RenderOptions.canvas(&arguments)
    let background = try RenderOptions.background(&arguments)
    if case .animation(_, let format) = target {
      if let note = format.storedSizeNote(width: canvas.pixelWidth, height: canvas.pixelHeight) {
        RenderOutput.report(note, for: target, output: output)
      }
      try format.checkBackground(background)
    }
    guard let name = arguments.positional() else { throw .usage("missing the effect: a preset name or FILE.json") }
    try arguments.finish()

    var effect = try RenderOptions.effect(
      name, width: canvas.width, height: canvas.height, label: effectFolder(name) == nil ? "" : name)
    if let seed { effect.seed = seed }
    // Unset times come from the effect: docs/rendering.md, "Default times".
    let defaults = effect.previewTimes
    let times: [Double]
    let selection: FrameSelection
    switch target {
    case .still:
      times = [time ?? defaults.still]
      selection = .all(1)
    case .animation, .folder:
      let count = Swift.max(1, Int(((duration ?? defaults.duration) * Double(fps)).rounded()))
      try RenderOutput.checkFrameCount(count, for: target, flags: "--duration × --fps")
      selection = try request?.select(total: count) ?? .all(count)
      try RenderOutput.checkConfirmed(selection.range.count, confirmed: confirmed, flags: "--duration × --fps")
      let first = start ?? defaults.start
      // Frame k is at first + k/F whichever frames are rendered, so a
      // piece's times are the whole render's bit for bit.
      times = selection.range.map { first + Double($0) / Double(fps) }
    }
    try OutputCheck.check(target, inputs: inputFiles(name, effect: effect), force: force, frames: selection)
    let clock = Stopwatch()
    // The effect reader already resolved relative sprite paths against the
    // file's folder: no base directory, or they would be resolved twice.
    var scene = ParticleScene(effect: effect, canvas: canvas, background: background)
    scene.progress = output.progress
    scene.usesGPU = usesGPU
    let recycler = ImageRecycler()
    scene.recycler = recycler
    try EffectChecks.require(
      effect, sprites: scene.sprites, times: times,
      timeFlag: target.isStill ? "--time" : (start == nil ? "the default --start" : "--start"))
    if !quiet {
      EffectWarnings.print(
        renderWarnings(effect, times: times, canvas: canvas, reference: defaults.still), output: output)
    }
    try RenderOutput.write(
      target, times: times, frameSize: (canvas.pixelWidth, canvas.pixelHeight), fps: fps, force: force,
      output: output, label: "render", frames: selection, recycler: recycler
    ) { (batch: [Double]) throws(CommandError) in try scene.render(times: batch) }
    // A still says which time it shows, the default one above all.
    let when = target.isStill ? " at \(numberText(times[0])) s\(time == nil ? " (the default --time)" : "")" : ""
    RenderOutput.report(
      "wrote \(target.displayName) (\(canvas.pixelWidth)×\(canvas.pixelHeight) px, \(selection.countText))\(when) in \(clock.elapsedText)",
      for: target, output: output)
  }

  /// The warnings of ``EffectWarnings`` for a render at `times`: the
  /// effect's fields, then what is drawn at the still's time or at up to
  /// five frames spread over the animation (first and last included).
  /// `reference` is the default still time, named when nothing is alive.
  static func renderWarnings(_ effect: Effect, times: [Double], canvas: Canvas, reference: Double) -> [String] {
    var warnings = EffectWarnings.fieldWarnings(effect)
    guard let system = try? ParticleSystem(effect: effect, configuration: .init(overflowPolicy: .capOldestFirst)),
      let first = times.first, let last = times.last
    else { return warnings }
    let samples = Swift.min(times.count, 5)
    let sampled = (0..<samples).map { times[samples == 1 ? 0 : $0 * (times.count - 1) / (samples - 1)] }
    let (from, to) = (roundedText(first, places: 3), roundedText(last, places: 3))
    let when = times.count == 1 ? "at \(from) s" : "from \(from) s to \(to) s"
    warnings += EffectWarnings.drawWarnings(
      system, times: sampled, when: when, width: canvas.width, height: canvas.height,
      reference: (reference, "the default --time"))
    return warnings
  }

  /// The files a render reads: the effect file (when `argument` is a path)
  /// and the PNG sprites it names.
  static func inputFiles(_ argument: String, effect: Effect) -> [CommandInput] {
    guard let folder = effectFolder(argument) else { return [] }
    var files = [CommandInput(flag: "the effect file", path: argument)]
    func add(_ name: String) {
      guard name.lowercased().hasSuffix(".png") else { return }
      // Where SpriteLibrary looks for it.
      files.append(CommandInput(flag: "the sprite", path: name.hasPrefix("/") ? name : folder + "/" + name))
      files.append(CommandInput(flag: "the sprite", path: name))
    }
    func visit(_ cells: [EmitterCell]) {
      for cell in cells {
        if let contents = cell.contents { add(contents.name) }
        visit(cell.emitterCells)
      }
    }
    visit(effect.emitter.emitterCells)
    for change in effect.changes where change.keyPath.hasSuffix(".contents") {
      if case .string(let name) = change.value { add(name) }
    }
    return files
  }

  /// The folder of an effect file, nil for a preset name.
  static func effectFolder(_ argument: String) -> String? {
    guard argument.hasSuffix(".json") || argument.contains("/") else { return nil }
    guard let slash = argument.lastIndex(of: "/") else { return "." }
    return String(argument[..<slash])
  }
}

/// The layer size in points and its pixel size at a scale.
struct Canvas: Sendable {
  var width: Double
  var height: Double
  var pixelsPerPoint: Double

  var pixelWidth: Int { Swift.max(1, Int((width * pixelsPerPoint).rounded(.up))) }
  var pixelHeight: Int { Swift.max(1, Int((height * pixelsPerPoint).rounded(.up))) }

  /// The one image-size limit of every command that renders
  /// (``SleetLimits/imageSide``, ``SleetLimits/imagePixels``), as a usage
  /// error naming `flags`.
  static func checkImageSize(width: Int, height: Int, flags: String) throws(CommandError) {
    if let problem = SleetLimits.imageSizeProblem(width: width, height: height) {
      throw .usage("\(flags): \(problem)")
    }
  }
}

/// What `--out` names.
enum RenderTarget: Sendable {
  case still(String)
  case animation(String, AnimationFormat)
  case folder(String)

  /// `.png` → still, `.apng`, `.webp`, `.gif`, `.mp4`, `.webm`, `.mov` →
  /// animation in that format (``AnimationFormat``, default options), a
  /// trailing `/` or no extension → folder; `-` or `png:-` → a still on
  /// standard output, `apng:-`, `webp:-`, `gif:-` → an animation there (all
  /// with the path `-`); `mp4:-`, `webm:-`, `mov:-` are refused (a video
  /// container needs a seekable file).
  init(_ path: String) throws(CommandError) {
    switch path {
    case "-", "png:-":
      self = .still("-")
      return
    case "apng:-", "webp:-", "gif:-":
      self = .animation("-", AnimationFormat(extension: String(path.dropLast(2)))!)
      return
    case "mp4:-", "webm:-", "mov:-":
      throw .usage(
        "--out \(path): a video cannot go to standard output: its container is finished by rewriting earlier bytes (MP4's and MOV's sample tables and sizes, WebM's duration and cues), which needs a file; write FILE.\(path.dropLast(2))"
      )
    case "":
      throw .usage("--out: the path is empty")
    case "-/":
      throw .usage(
        "--out -/: standard output takes one file (PNG, APNG, WebP or GIF), not a folder (for a folder named '-', write ./-/)"
      )
    default: break
    }
    let lower = path.lowercased()
    let name = path.split(separator: "/").last.map(String.init) ?? ""
    if let dot = lower.lastIndex(of: "."), let format = AnimationFormat(extension: String(lower[dot...].dropFirst())) {
      self = .animation(path, format)
    } else if lower.hasSuffix(".png") {
      self = .still(path)
    } else if path.hasSuffix("/") || !name.contains(".") {
      self = .folder(path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path)
    } else {
      throw .usage(
        "--out \(path): expected FILE.png, FILE.apng, FILE.webp, FILE.gif, FILE.mp4, FILE.webm, FILE.mov or a folder")
    }
  }

  var path: String {
    switch self {
    case .still(let p), .animation(let p, _), .folder(let p): p
    }
  }

  var isStill: Bool {
    if case .still = self { return true }
    return false
  }

  /// Whether the file goes to standard output (`--out -`).
  var isStandardOutput: Bool {
    switch self {
    case .still(let p), .animation(let p, _): p == "-"
    case .folder: false
    }
  }

  /// The path, or "standard output".
  var displayName: String { isStandardOutput ? "standard output" : path }
}

/// Option parsing shared by `sleet render`, `sleet shatter render` and `sleet demo`.
enum RenderOptions {
  /// The frames per second of an animation without `--fps`.
  static let defaultFPS = 30
  /// The layer size in points without `--size`.
  static let defaultSize = (width: 390.0, height: 844.0)

  /// `--fps F` (``OptionTable/fps`` or `option`), `value` when absent.
  static func fps(
    _ arguments: inout Arguments, _ option: CommandOption = OptionTable.fps, default value: Int = defaultFPS
  ) throws(CommandError) -> Int {
    try arguments.integer(option) ?? value
  }

  /// Refuses a canvas less than one pixel on a side (a --scale so small the
  /// picture would be rounded up from nothing).
  static func checkAtLeastOnePixel(_ canvas: Canvas, flags: String) throws(CommandError) {
    guard canvas.width * canvas.pixelsPerPoint >= 1 && canvas.height * canvas.pixelsPerPoint >= 1 else {
      throw .usage(
        "\(flags): \(numberText(canvas.width))×\(numberText(canvas.height)) pt at \(numberText(canvas.pixelsPerPoint)) px/pt is less than 1 px on a side; each side must be at least 1 px"
      )
    }
  }

  /// `--size WxH` (``defaultSize`` when absent, `x` or `×` between the
  /// sides, each in (0, ``SleetLimits/layerSide``] points) and `--scale`
  /// (default 1), checked so the image is within the size limits
  /// (``Canvas/checkImageSize(width:height:flags:)``).
  static func canvas(_ arguments: inout Arguments) throws(CommandError) -> Canvas {
    let (width, height) = try SizeOption.parse(&arguments, OptionTable.layerSize) ?? defaultSize
    let canvas = Canvas(width: width, height: height, pixelsPerPoint: try arguments.number(OptionTable.scale) ?? 1)
    try checkAtLeastOnePixel(canvas, flags: "--size × --scale")
    try Canvas.checkImageSize(width: canvas.pixelWidth, height: canvas.pixelHeight, flags: "--size × --scale")
    return canvas
  }

  /// `--background RGBA` (default opaque black).
  static func background(_ arguments: inout Arguments) throws(CommandError) -> ColorRGBA {
    try optionalBackground(&arguments) ?? .black
  }

  /// `--background RGBA`, nil when absent.
  static func optionalBackground(_ arguments: inout Arguments) throws(CommandError) -> ColorRGBA? {
    guard let raw = try arguments.value(OptionTable.background) else { return nil }
    guard let color = parseColor(raw) else {
      throw .usage(
        "--background: expected #RRGGBB, #RRGGBBAA or r,g,b[,a] with components in [0, 1], got '\(raw)'")
    }
    return color
  }

  /// `#RRGGBB`, `#RRGGBBAA`, or 3–4 comma-separated numbers in [0, 1].
  static func parseColor(_ text: String) -> ColorRGBA? {
    var components: [Float] = []
    if text.hasPrefix("#") {
      let hex = Array(text.dropFirst())
      guard hex.count == 6 || hex.count == 8 else { return nil }
      for i in stride(from: 0, to: hex.count, by: 2) {
        guard let byte = UInt8(String(hex[i..<i + 2]), radix: 16) else { return nil }
        components.append(Float(byte) / 255)
      }
    } else {
      let parts = text.split(separator: ",", omittingEmptySubsequences: false)
      guard parts.count == 3 || parts.count == 4 else { return nil }
      for part in parts {
        guard let v = Float(String(part.filter { $0 != " " })), v >= 0, v <= 1 else { return nil }
        components.append(v)
      }
    }
    if components.count == 3 { components.append(1) }
    return ColorRGBA(red: components[0], green: components[1], blue: components[2], alpha: components[3])
  }

  /// A preset or effect file with its container parameters set: `width` and
  /// `height` to the layer size, `x` and `y` to its centre (those it has).
  static func effect(_ name: String, width: Double, height: Double, label: String? = nil) throws(CommandError) -> Effect
  {
    let base = try loadEffect(name, label: label)
    let known = Set(base.parameters.map(\.name))
    var values: [String: Double] = [:]
    for (key, value) in [("width", width), ("height", height), ("x", width / 2), ("y", height / 2)]
    where known.contains(key) {
      values[key] = value
    }
    do throws(EffectFormatError) {
      return values.isEmpty ? base : try base.settingParameters(values)
    } catch {
      throw .usage("--size: \(name): \(error)")
    }
  }
}

/// Renders batches of frames and writes them where a ``RenderTarget`` says.
enum RenderOutput {
  /// Frames rendered (and compressed) per batch: enough to keep every core
  /// busy, few enough that a long animation never holds all its raw frames.
  /// Every output streams batch by batch (an animation through
  /// `AnimationWriter`), so memory does not grow with the number of frames
  /// (beyond what libwebp keeps of a WebP: its compressed frames).
  static let batchSize = 32
  /// The most bytes of rendered frames in one batch (`RGBAImage` holds 16
  /// bytes a pixel): large frames come in smaller batches, so memory stays
  /// bounded by the frame size too (390×844 px: 32 frames, 780×1688: 12).
  static let batchBytes = 256 << 20

  /// `times` in consecutive batches of at most ``batchSize`` frames and
  /// ``batchBytes`` bytes of `width × height` frames (at least one frame).
  static func batches(_ times: [Double], width: Int, height: Int) -> [[Double]] {
    let size = Swift.max(1, Swift.min(batchSize, batchBytes / Swift.max(1, 16 * width * height)))
    return stride(from: 0, to: times.count, by: size).map { Array(times[$0..<Swift.min(times.count, $0 + size)]) }
  }

  /// The most frames in one animation or folder (``SleetLimits/frames``).
  static let maximumFrames = SleetLimits.frames

  /// Refuses more frames than ``maximumFrames``, as a usage error naming
  /// `flags` (the options that set the count).
  static func checkFrameCount(_ count: Int, for target: RenderTarget, flags: String) throws(CommandError) {
    guard !target.isStill, count > maximumFrames else { return }
    throw .usage("\(flags): \(count) frames, at most \(maximumFrames)")
  }

  /// Refuses binary output (`--out -`) to a terminal unless `force`: the
  /// image bytes would only garble the screen.
  static func checkTerminal(_ target: RenderTarget, output: CommandOutput, force: Bool) throws(CommandError) {
    guard target.isStandardOutput, output.outputIsTerminal, !force else { return }
    throw .usage(
      "--out -: standard output is a terminal, and the image is binary; redirect it (> s.png, or a pipe) or give --force to write it there anyway"
    )
  }

  /// The most frames a render draws without `--yes` (two minutes at 30
  /// fps): a longer one is more often a unit mistake (`--duration 3000`
  /// meant as ms) than a wish.
  static let confirmedFrames = 3_600

  /// Refuses more than ``confirmedFrames`` frames unless `confirmed`
  /// (`--yes`), as a usage error naming `flags`.
  static func checkConfirmed(_ count: Int, confirmed: Bool, flags: String) throws(CommandError) {
    guard count > confirmedFrames, !confirmed else { return }
    throw .usage(
      "\(flags): \(count) frames, more than \(confirmedFrames); check the units (--duration is in seconds) or add --yes to render them"
    )
  }

  /// Prints a line about the output: on stdout, or on stderr when the output
  /// itself goes to stdout.
  static func report(_ line: String, for target: RenderTarget, output: CommandOutput) {
    if target.isStandardOutput { output.printError(line) } else { output.print(line) }
  }

  /// Renders `times` through `render` (called with consecutive batches, in
  /// order) and writes a still (the first time), an animation with delays of
  /// exactly 1/`fps` s (APNG; WebP and GIF round frame starts to whole ms or
  /// cs), or numbered PNG frames — to a file through a
  /// temporary sibling renamed into place at the end, or to stdout. Progress
  /// goes to stderr when it is a terminal. Call ``OutputCheck/check(_:inputs:force:flag:)``
  /// first; with `force`, a folder's old `frame-*.png` files are removed
  /// before the first frame is rendered. `frames` says which frames of the
  /// full animation `times` are (default: all): a folder names them by their
  /// index there and owns only their files (``FrameSelection/owns(_:)``).
  /// - Throws: `.failure` when a file or stdout cannot be written (nothing is
  ///   left under the final name of a file; a folder keeps the frames written).
  static func write(
    _ target: RenderTarget, times: [Double], frameSize: (width: Int, height: Int), fps: Int, force: Bool,
    output: CommandOutput, label: String, frames: FrameSelection? = nil, recycler: ImageRecycler? = nil,
    render: ([Double]) throws(CommandError) -> [RGBAImage]
  ) throws(CommandError) {
    let progress = Progress(output: output, label: label, total: times.count)
    let batches = batches(times, width: frameSize.width, height: frameSize.height)
    let delay = FrameDelay(framesPerSecond: fps)
    if case .animation(_, let format) = target { try format.checkFrameRate(fps) }
    switch target {
    case .still(let path):
      let image = try render(times).first!
      if target.isStandardOutput {
        try output.standardOutputData(PNGFile.encode(image))
      } else {
        let (folder, name) = FileOutput.split(path)
        FileOutput.removeStaleTemporaries(inFolder: folder) { $0 == name }
        try imageFile { () throws(ImageFileError) in try PNGFile.write(image, to: path) }
      }
    case .animation(let path, let format):
      if !target.isStandardOutput {
        let (folder, name) = FileOutput.split(path)
        FileOutput.removeStaleTemporaries(inFolder: folder) { $0 == name }
      }
      var writer: AnimationWriter?
      try pipeline(batches, recycler: recycler, render: render) { (frames: [RGBAImage]) throws(CommandError) in
        if writer == nil {
          writer = try AnimationWriter(
            format, path: path, width: frames[0].width, height: frames[0].height, frameCount: times.count, fps: fps,
            output: output)
        }
        try writer!.append(frames, delay: delay)
        progress.advance(by: frames.count)
      }
      try writer!.finish()
    case .folder(let path):
      try makeFolder(path, flag: "--out")
      let selection = frames ?? .all(times.count)
      precondition(selection.range.count == times.count, "one time per selected frame")
      if force { try OutputCheck.removeOwnedFiles(in: path, owns: selection.owns) }
      FileOutput.removeStaleTemporaries(inFolder: path, for: selection.owns)
      var start = selection.range.lowerBound
      try pipeline(batches, recycler: recycler, render: render) { (frames: [RGBAImage]) throws(CommandError) in
        let encoded = ParallelSlots<[UInt8]>(count: frames.count)
        DispatchQueue.concurrentPerform(iterations: frames.count) { i in encoded.set(i, PNGFile.encode(frames[i])) }
        for (i, bytes) in encoded.values.enumerated() {
          let name = selection.fileName(start + i)
          do throws(FileOutputError) {
            try FileOutput.atomicWrite(bytes, to: path + "/" + name)
          } catch {
            throw .failure(ImageFileError.cannotWrite(path: error.path, reason: error.reason).description)
          }
        }
        start += frames.count
        progress.advance(by: frames.count)
      }
    }
    progress.finish()
  }

  /// Renders `batches` in order and hands each batch's frames to `consume`,
  /// in order, rendering batch k + 1 on another thread while batch k is
  /// consumed (converted, encoded, written) on this one, so rendering and
  /// encoding overlap and both cores work. At most two batches of frames
  /// exist at once, whatever the number of batches. The frames are the
  /// same as rendering and consuming one batch after the other: only the
  /// schedule differs.
  ///
  /// With a `recycler`, each batch's frames go to it once consumed and once
  /// the render running meanwhile is joined, so the render after takes them
  /// (their memory, cleared) instead of mapping new frames: still at most
  /// two batches, one being consumed and one being rendered or waiting in
  /// the recycler.
  ///
  /// On a failure of either side, the other side's work in flight is
  /// waited for (its result dropped) and the first error in batch order is
  /// thrown.
  static func pipeline(
    _ batches: [[Double]], recycler: ImageRecycler? = nil, render: ([Double]) throws(CommandError) -> [RGBAImage],
    consume: ([RGBAImage]) throws(CommandError) -> Void
  ) throws(CommandError) {
    guard !batches.isEmpty else { return }
    let outcome = withoutActuallyEscaping(render) { render -> Result<Void, CommandError> in
      let job = _RenderJob(render)
      // The closure is released before `withoutActuallyEscaping` returns:
      // the job holds it, and `finish` drops it once the last render is
      // joined.
      defer { job.finish() }
      var next = job.renderHere(batches[0])
      for k in batches.indices {
        let frames: [RGBAImage]
        switch next {
        case .success(let rendered): frames = rendered
        case .failure(let error): return .failure(error)
        }
        if k + 1 < batches.count { job.start(batches[k + 1]) }
        do throws(CommandError) {
          try consume(frames)
        } catch {
          if k + 1 < batches.count { _ = job.join() }
          return .failure(error)
        }
        if k + 1 < batches.count { next = job.join() }
        // The loop's is the last reference: the recycler gets unique images.
        recycler?.recycle(consume frames)
      }
      return .success(())
    }
    try outcome.get()
  }

  /// `body`'s result, an image-file error becoming a `.failure` with its
  /// message.
  static func imageFile<T>(_ body: () throws(ImageFileError) -> T) throws(CommandError) -> T {
    do throws(ImageFileError) {
      return try body()
    } catch {
      throw .failure(error.description)
    }
  }

  /// Creates `path` as a folder unless it already is one.
  /// - Throws: `.usage` naming `flag` when the parent is missing or the path
  ///   is a file; `.failure` when the system refuses (permissions, a full or
  ///   read-only disk), as for any output that cannot be written.
  static func makeFolder(_ path: String, flag: String) throws(CommandError) {
    if mkdir(path, 0o755) == 0 { return }
    let code = errno
    let reason = String(cString: strerror(code))
    var info = stat()
    if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { return }
    let message = "\(flag) \(path): cannot create the folder: \(reason)"
    throw code == ENOENT || code == ENOTDIR || code == EEXIST ? .usage(message) : .failure(message)
  }
}

/// A render closure run on another thread, one batch at a time:
/// ``RenderOutput/pipeline(_:render:consume:)``'s background renderer.
private final class _RenderJob: @unchecked Sendable {
  // Safe to mark Sendable: `render` is called by one thread at a time (a
  // batch is started only after the previous one was joined, and the
  // caller's thread calls it only before the first start), `result` is
  // written by the rendering thread before it signals `done` and read by
  // the caller's thread after it waits on `done`.
  private var render: (([Double]) throws(CommandError) -> [RGBAImage])?
  private var result: Result<[RGBAImage], CommandError>?
  private let done = DispatchSemaphore(value: 0)

  init(_ render: @escaping ([Double]) throws(CommandError) -> [RGBAImage]) { self.render = render }

  /// Renders `times` on the caller's thread.
  func renderHere(_ times: [Double]) -> Result<[RGBAImage], CommandError> {
    do throws(CommandError) {
      return .success(try render!(times))
    } catch {
      return .failure(error)
    }
  }

  /// Starts rendering `times` on a global queue's thread.
  func start(_ times: [Double]) {
    DispatchQueue.global().async { [self] in
      result = renderHere(times)
      done.signal()
    }
  }

  /// Waits for the render ``start(_:)`` began and returns its result.
  func join() -> Result<[RGBAImage], CommandError> {
    done.wait()
    defer { result = nil }
    return result!
  }

  /// Drops the render closure (every started render has been joined).
  func finish() { render = nil }
}

/// Slots that parallel iterations fill, one each (each slot is written by one
/// iteration; `values` is read after the parallel loop).
final class ParallelSlots<Value: Sendable>: Sendable {
  private let slots: Mutex<[Value?]>

  init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

  func set(_ index: Int, _ value: Value) { slots.withLock { $0[index] = value } }

  /// Every slot's value. Precondition: all slots were set.
  var values: [Value] { slots.withLock { $0.map { $0! } } }
}

/// How many frames to render at once: one per core.
enum FrameParallelism {
  static var workers: Int { Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

  /// Splits `count` frames into contiguous runs, one per worker, and runs
  /// `body(range, rasterOptions)` for each in parallel. With several workers each
  /// frame is rasterised on its worker's thread (the frames are the parallel
  /// unit); with one, the rasterizer's bands run in parallel instead. Output is
  /// identical either way (the rasterizer is bit-identical for any options).
  static func forEachRun(
    count: Int, _ body: @Sendable (Range<Int>, RasterOptions) -> Void
  ) {
    let workers = Swift.min(count, self.workers)
    guard workers > 1 else {
      if count > 0 { body(0..<count, RasterOptions()) }
      return
    }
    let serial = RasterOptions(bandHeight: 16, isParallel: false)
    DispatchQueue.concurrentPerform(iterations: workers) { w in
      body((w * count / workers)..<((w + 1) * count / workers), serial)
    }
  }
}

/// Rendered frames whose memory the next render reuses
/// (``RenderOutput/pipeline(_:recycler:render:consume:)``): a frame of
/// 1080×1920 px is 33 MB, which mapping anew for every frame makes the
/// kernel zero page by page.
final class ImageRecycler: Sendable {
  private let images = Mutex<[RGBAImage]>([])

  /// A recycled image of `width × height` pixels (any content), if one is
  /// left.
  func take(width: Int, height: Int) -> RGBAImage? {
    images.withLock { images in
      guard let i = images.lastIndex(where: { $0.width == width && $0.height == height }) else { return nil }
      return images.remove(at: i)
    }
  }

  /// Keeps `frames` for ``take(width:height:)``, in place of any kept before.
  func recycle(_ frames: [RGBAImage]) {
    images.withLock { $0 = frames }
  }
}

/// A particle effect to draw at chosen times.
struct ParticleScene: Sendable {
  var effect: Effect
  var canvas: Canvas
  var background: ColorRGBA
  var sprites: SpriteLibrary
  /// Where drawn frames and rows are reported (the running command's
  /// progress line), if anywhere.
  var progress: ProgressHub?
  /// Whether frames come from the GPU shader (`--gpu`, docs/gpu.md).
  var usesGPU = false
  /// Where frames are taken from before new ones are made (cleared to the
  /// background first: the same pixels).
  var recycler: ImageRecycler?

  init(effect: Effect, canvas: Canvas, background: ColorRGBA, baseDirectory: String? = nil) {
    self.effect = effect
    self.canvas = canvas
    self.background = background
    sprites = SpriteLibrary(pixelsPerPoint: Float(canvas.pixelsPerPoint), baseDirectory: baseDirectory)
  }

  /// The frames at `times` (any order), rendered in parallel: each worker runs
  /// its own simulation over a contiguous run of times, seeking to the first
  /// and advancing through the rest (which gives the same particles as seeking).
  /// - Throws: `.usage` when the effect exceeds the particle budget or a
  ///   sprite cannot be loaded (bad input, like the checks before rendering).
  func render(times: [Double]) throws(CommandError) -> [RGBAImage] {
    let results = ParallelSlots<RGBAImage>(count: times.count)
    let failure = Mutex<CommandError?>(nil)
    let (effect, canvas, background, sprites, usesGPU, recycler) = (
      effect, canvas, background, sprites, usesGPU, recycler
    )
    let progress = progress?.progress
    progress?.setFrameSize(width: canvas.pixelWidth, height: canvas.pixelHeight)
    FrameParallelism.forEachRun(count: times.count) { range, options in
      var options = options
      if times.count == 1 { options.progress = progress?.raster }
      let source: ParticleFrameSource
      do throws(CommandError) {
        // Over budget or too many cells: bad input (exit 2); --gpu without
        // OpenGL ES 3.1: a failure (exit 1).
        source = try ParticleFrameSource(effect: effect, usesGPU: usesGPU)
      } catch {
        failure.withLock { $0 = error }
        return
      }
      let renderer = Renderer(pixelsPerPoint: Float(canvas.pixelsPerPoint), options: options)
      var frame = ParticleFrame()
      for i in range {
        do throws(CommandError) { try source.frame(at: times[i], into: &frame) } catch {
          failure.withLock { $0 = error }
          return
        }
        var image: RGBAImage
        if let reused = recycler?.take(width: canvas.pixelWidth, height: canvas.pixelHeight) {
          image = reused
          image.clear(to: background)
        } else {
          image = RGBAImage(width: canvas.pixelWidth, height: canvas.pixelHeight, background: background)
        }
        do throws(SpriteError) {
          try renderer.render(frame, into: &image, sprites: sprites)
        } catch {
          failure.withLock { $0 = .usage(error.description) }
          return
        }
        results.set(i, image)
        progress?.frameDrawn()
      }
    }
    if let error = failure.withLock({ $0 }) { throw error }
    return results.values
  }
}

/// Wall-clock time since creation.
struct Stopwatch {
  let start = ContinuousClock.now

  var seconds: Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
  }

  /// Seconds with two decimals, e.g. `12.34 s`.
  var elapsedText: String {
    let centiseconds = Int((seconds * 100).rounded())
    let fraction = String(centiseconds % 100)
    return "\(centiseconds / 100).\(fraction.count == 1 ? "0" : "")\(fraction) s"
  }
}
