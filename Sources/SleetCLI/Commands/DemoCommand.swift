import SleetKit
import SleetMath
import SleetVideo

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `sleet demo`: every preset and every transition style (timed and
/// interactive), rendered into a folder with an HTML page that shows them.
struct DemoCommand: SleetCommand {
  static let path = ["demo"]
  static let summary =
    "render every preset and transition style to APNG, WebP, MP4 and a contact sheet, with an index.html"
  static let about = """
    usage: sleet demo [--out DIR] [--force] [--scale PX_PER_PT] [--fps F] [--only NAME,...]

    Renders every built-in preset and every transition style (slide, fade,
    zoom, window, circleReveal, tilt3D, checkerboard, explode, glassBreak)
    between two generated pictures on a 390×844 pt (iPhone-sized) layer, and
    writes into DIR:
      NAME.apng         the animation (loops forever)
      NAME.webp         the same frames as lossless WebP
      NAME.mp4          the same frames as H.264 video, to share or edit
      NAME-sheet.png    a contact sheet: 8 frames with their times
      index.html        a page showing all of them: each animation in the
                        smaller of its two files (the same pixels), its
                        name, parameters, file sizes and the sleet command
                        that makes it; it works from the file (no server)
    Each transition style is shown twice: timed (NAME), and driven by two
    recorded edge pans (NAME-interactive): the first released at 40 % while
    moving back (it cancels), the second released at 70 % (it finishes).
    Each preset is shown at the default times of 'sleet render' (one rule,
    docs/rendering.md "Default times"): a steady effect from the moment its
    live set is steady, for 3 s (snow needs 60 s to fill the screen; seeking
    there costs only the particles alive then), a burst from its first birth
    to its last death. Prints what it wrote and how long it took.

    """

  /// The folder written without `--out`.
  static let defaultFolder = "./sleet-demo"
  /// Pixels per point without `--scale`.
  static let defaultScale = 0.5
  /// Frames per second without `--fps`.
  static let defaultFPS = 20
  /// The layer every effect is drawn on, in points: `sleet render`'s
  /// default, an iPhone's screen.
  static let layer = RenderOptions.defaultSize

  /// Frames on each contact sheet.
  static let sheetFrames = 8

  /// How the demo encodes WebP: lossless, so both files hold the same
  /// pixels and the page can show the smaller one (the `--lossless
  /// --quality 25` of the commands on the page). Effort 25 rather than the
  /// default 75: about half the encoding time for files a few per cent
  /// larger (docs/rendering.md, "sleet demo").
  static let webpOptions = WebPAnimationOptions(quality: 25, isLossless: true)

  /// One rendered entry of the demo.
  struct Entry {
    var name: String
    var caption: String
    /// What made it, as (name, value) pairs for the page.
    var parameters: [(String, String)] = []
    /// The `sleet` command that writes the animation the page shows
    /// (`FILE` stands for the file name).
    var command: String = ""
    /// The sizes of the two files.
    var files = Files(apngBytes: 0, webpBytes: 0, mp4Bytes: 0)
  }

  /// The sizes of an animation's files, and the one the page shows (of
  /// the two lossless ones; the MP4 is offered beside them).
  struct Files: Equatable {
    var apngBytes: Int
    var webpBytes: Int
    var mp4Bytes: Int
    /// The smaller file's format (APNG on a tie: it needs no WebP support).
    var shown: AnimationFormat { webpBytes < apngBytes ? .webp(DemoCommand.webpOptions) : .apng }
  }

  /// What `sleet demo` was asked for.
  struct Request {
    var folder: String
    var force: Bool
    var scale: Double
    var fps: Int
    /// The presets and styles `--only` names; nil for all of them.
    var only: Set<String>?

    /// Whether the preset or style `name` is rendered.
    func includes(_ name: String) -> Bool { only?.contains(name) ?? true }
  }

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    let request = try parse(&arguments)
    let canvas = try checkedCanvas(scale: request.scale)
    try prepareFolder(request)

    let clock = Stopwatch()
    let presets = Effect.presetNames.filter(request.includes)
    let styles = TransitionStyle.allCases.filter { request.includes($0.rawValue) }
    let progress = Progress(output: output, label: "demo", total: presets.count + 2 * styles.count, unit: "effect")
    var entries: [Entry] = []
    for name in presets {
      entries.append(try presetEntry(name, canvas: canvas, request: request, output: output))
      progress.advance(by: 1)
    }
    let pictures = (
      first: DemoPicture.first.image(width: canvas.pixelWidth, height: canvas.pixelHeight),
      second: DemoPicture.second.image(width: canvas.pixelWidth, height: canvas.pixelHeight)
    )
    for style in styles {
      let scene = try transitionScene(style, pictures: pictures, canvas: canvas)
      entries.append(try timedEntry(scene, canvas: canvas, request: request, output: output))
      progress.advance(by: 1)
      entries.append(try interactiveEntry(scene, canvas: canvas, request: request, output: output))
      progress.advance(by: 1)
    }
    let index = try writeIndex(entries, canvas: canvas, request: request)
    progress.finish()
    output.print("wrote \(index)")
    output.print(
      "demo: \(entries.count) effects, \(canvas.pixelWidth)×\(canvas.pixelHeight) px at \(request.fps) fps, in \(clock.elapsedText)"
    )
  }

  /// Reads the options (``OptionTable``).
  static func parse(_ arguments: inout Arguments) throws(CommandError) -> Request {
    let folder = try arguments.value(OptionTable.demoOut) ?? defaultFolder
    let force = try arguments.flag(OptionTable.demoForce)
    let scale = try arguments.number(OptionTable.demoScale) ?? defaultScale
    let fps = try RenderOptions.fps(&arguments, OptionTable.demoFPS, default: defaultFPS)
    var only: Set<String>?
    if let list = try arguments.value(OptionTable.only) {
      let known = Effect.presetNames + TransitionStyle.allCases.map(\.rawValue)
      // "snow, rain" names snow and rain: spaces around a name are not part of it.
      let names = list.split(separator: ",").map { MessageText.trimmingSpaces(String($0)) }.filter { !$0.isEmpty }
      for name in names where !known.contains(name) {
        var message =
          "--only: no preset or transition style named '\(MessageText.clip(name))' (\(known.joined(separator: ", ")))"
        if let near = Suggestion.closest(to: name, in: known) { message += "; did you mean '\(near)'?" }
        throw .usage(message)
      }
      only = Set(names)
    }
    try arguments.finish()
    return Request(folder: folder, force: force, scale: scale, fps: fps, only: only)
  }

  /// The layer at `scale`, refused when an image side would be under a
  /// pixel or over the WebP or image limits.
  static func checkedCanvas(scale: Double) throws(CommandError) -> Canvas {
    let canvas = Canvas(width: layer.width, height: layer.height, pixelsPerPoint: scale)
    try RenderOptions.checkAtLeastOnePixel(canvas, flags: "--scale")
    // WebP's canvas limit is below SleetLimits.imageSide only for absurd
    // scales; refuse rather than trap.
    if canvas.pixelWidth > WebPAnimationEncoder.maximumSide || canvas.pixelHeight > WebPAnimationEncoder.maximumSide {
      throw .usage("--scale: WebP frames are at most \(WebPAnimationEncoder.maximumSide) px a side")
    }
    try Canvas.checkImageSize(width: canvas.pixelWidth, height: canvas.pixelHeight, flags: "--scale")
    return canvas
  }

  /// Checks the output folder, creates it, and with `--force` removes an
  /// earlier demo's files (``fileNames``).
  static func prepareFolder(_ request: Request) throws(CommandError) {
    let owns = { (name: String) in fileNames.contains(name) }
    try OutputCheck.checkFolder(
      request.folder, owns: owns, what: "files of a demo", inputs: [], force: request.force, flag: "--out")
    try RenderOutput.makeFolder(request.folder, flag: "--out")
    if request.force { try OutputCheck.removeOwnedFiles(in: request.folder, owns: owns) }
    FileOutput.removeStaleTemporaries(inFolder: request.folder, for: owns)
  }

  /// Renders the preset `name` at the default times of 'sleet render'
  /// (docs/rendering.md, "Default times") and describes it for the page.
  static func presetEntry(
    _ name: String, canvas: Canvas, request: Request, output: CommandOutput
  ) throws(CommandError) -> Entry {
    let clock = Stopwatch()
    let fps = request.fps
    let effect = try RenderOptions.effect(name, width: canvas.width, height: canvas.height)
    let (start, duration) = (effect.previewTimes.start, effect.previewTimes.duration)
    let count = Swift.max(1, Int((duration * Double(fps)).rounded()))
    let times = (0..<count).map { start + Double($0) / Double(fps) }
    let scene = ParticleScene(effect: effect, canvas: canvas, background: .black)
    let files = try write(
      name, times: times, labels: times, size: (canvas.pixelWidth, canvas.pixelHeight), fps: fps,
      into: request.folder, output: output, clock: clock
    ) {
      (batch: [Double]) throws(CommandError) in try scene.render(times: batch)
    }
    var entry = Entry(name: name, caption: effect.summary ?? "the \(name) preset", files: files)
    entry.parameters =
      [
        ("seed", "\(effect.seed)"), ("start", "\(numberText(start)) s"),
        ("duration", "\(numberText(duration)) s (\(count) frames at \(fps) fps)"),
        ("layer", "\(numberText(layer.width))×\(numberText(layer.height)) pt at \(numberText(request.scale)) px/pt"),
        ("background", "#000000ff"),
      ] + effect.parameters.map { ($0.name, numberText($0.value)) }
    entry.command = renderCommand(name, files: files, scale: request.scale, fps: fps)
    return entry
  }

  /// The transition of `style` between the demo's two pictures, with the
  /// inputs it needs (``demoOptions(_:width:height:)``). The container is the image
  /// in points (at most a pixel larger than the layer), so pictures and
  /// layers share one pixel grid.
  static func transitionScene(
    _ style: TransitionStyle, pictures: (first: RGBAImage, second: RGBAImage), canvas: Canvas
  ) throws(CommandError) -> TransitionScene {
    let scale = canvas.pixelsPerPoint
    let width = Double(canvas.pixelWidth) / scale, height = Double(canvas.pixelHeight) / scale
    let transition: Transition
    do throws(TransitionError) {
      transition = try Transition(
        style: style, width: width, height: height, options: demoOptions(style, width: width, height: height))
    } catch {
      throw .failure("demo: \(style.rawValue): \(error.description)")
    }
    let image =
      style == .zoom
      ? TransitionScene.crop(pictures.first, to: transition.options.imageRect!, pixelsPerPoint: scale) : nil
    return TransitionScene(
      transition: transition, from: pictures.first, to: pictures.second, image: image, pixelsPerPoint: scale)
  }

  /// Renders the timed transition (with a 0.5 s hold) and describes it.
  static func timedEntry(
    _ scene: TransitionScene, canvas: Canvas, request: Request, output: CommandOutput
  ) throws(CommandError) -> Entry {
    let clock = Stopwatch()
    let transition = scene.transition
    let name = transition.style.rawValue
    let times = scene.times(fps: request.fps, hold: 0.5)
    let files = try write(
      name, times: times, labels: times, size: (canvas.pixelWidth, canvas.pixelHeight), fps: request.fps,
      into: request.folder, output: output, clock: clock
    ) {
      (batch: [Double]) throws(CommandError) in scene.render(times: batch)
    }
    var entry = Entry(name: name, caption: caption(transition.style, transition: transition), files: files)
    entry.parameters =
      transitionParameters(transition, scale: request.scale) + [
        (
          "frames",
          "0 … \(numberText(transition.endTime)) s + 0.5 s hold, \(times.count) frames at \(request.fps) fps"
        )
      ]
    entry.command = demoCommand(name, scale: request.scale, fps: request.fps)
    return entry
  }

  /// Renders the transition driven by the two demo pans
  /// (``demoGestures(width:)``), one after the other, and describes it.
  static func interactiveEntry(
    _ scene: TransitionScene, canvas: Canvas, request: Request, output: CommandOutput
  ) throws(CommandError) -> Entry {
    let clock = Stopwatch()
    let transition = scene.transition
    let style = transition.style
    let fps = Double(request.fps)
    var clocks: [Double] = []
    var transitionTimes: [Double] = []
    for (k, gesture) in demoGestures(width: transition.width).enumerated() {
      let replay = GestureReplay(gesture, extent: transition.width, interaction: InteractiveTransition(transition))
      let offset = (clocks.last ?? -1 / fps) + 1 / fps
      for c in replay.clocks(fps: request.fps, hold: k == 0 ? 0.3 : 0.5) {
        clocks.append(offset + c - gesture.startTime)
        transitionTimes.append(replay.transitionTime(at: c))
      }
    }
    let files = try write(
      style.rawValue + "-interactive", times: transitionTimes, labels: clocks,
      size: (canvas.pixelWidth, canvas.pixelHeight), fps: request.fps, into: request.folder, output: output,
      clock: clock
    ) { (batch: [Double]) throws(CommandError) in scene.render(times: batch) }
    let rule =
      style.finishRule == .pastHalf ? "finishes when p > 0.5" : "finishes when p > 0.5 or the finger moves forward"
    var entry = Entry(
      name: style.rawValue + "-interactive",
      caption:
        "\(style.rawValue), interactive (\(rule)): an edge pan released at 40 % while moving back cancels; one released at 70 % finishes",
      files: files)
    entry.parameters =
      transitionParameters(transition, scale: request.scale) + [
        ("gestures", "0.5 s pans to 45 % (back to 40 % at 0.6 s), then to 70 %; completion speed 1"),
        ("frames", "\(transitionTimes.count) at \(request.fps) fps"),
      ]
    entry.command = demoCommand(style.rawValue, scale: request.scale, fps: request.fps)
    return entry
  }

  /// Writes the page (``html(_:canvas:fps:)``) as `index.html` and returns
  /// its path.
  static func writeIndex(_ entries: [Entry], canvas: Canvas, request: Request) throws(CommandError) -> String {
    let index = request.folder + "/index.html"
    do throws(FileOutputError) {
      try FileOutput.atomicWrite(Array(html(entries, canvas: canvas, fps: request.fps).utf8), to: index)
    } catch {
      throw .failure(error.description)
    }
    return index
  }

  /// The inputs the styles that need them get in the demo (a W × H
  /// container): the default rects and button (``TransitionOptions/filled(for:width:height:)``,
  /// what `sleet transition render` uses when they are not given), seed 1
  /// for the random styles.
  static func demoOptions(_ style: TransitionStyle, width: Double, height: Double) -> TransitionOptions {
    let seed: UInt64? = style == .explode || style == .glassBreak ? 1 : nil
    return TransitionOptions(seed: seed).filled(for: style, width: width, height: height)
  }

  /// Two edge pans across a container `width` points wide: one dragged to
  /// 45 % and moved back to 40 % before lifting (velocity < 0: cancels under
  /// every rule), one dragged to 70 % (finishes).
  static func demoGestures(width: Double) -> [PanGesture] {
    func ramp(to end: Double, back: Double?) -> PanGesture {
      var samples = (0...10).map { k in
        PanGesture.Sample(time: 0.05 * Double(k), translationX: end * width * Double(k) / 10)
      }
      if let back { samples.append(PanGesture.Sample(time: 0.6, translationX: back * width)) }
      return try! PanGesture(samples: samples)  // times increase and are finite by construction
    }
    return [ramp(to: 0.45, back: 0.4), ramp(to: 0.7, back: nil)]
  }

  /// The caption of a timed transition.
  static func caption(_ style: TransitionStyle, transition: Transition) -> String {
    let what =
      switch style {
      case .slide: "Slide (seed 000): the new screen slides in from the right over a dimming layer"
      case .fade: "Fade (seed 001): the new screen fades in"
      case .zoom: "Zoom (seed 002a): the image flies from its cell to the detail screen while it fades in"
      case .window: "Window (seed 002b): a small centred window grows out of a sliver over a dimming layer"
      case .circleReveal: "Circle reveal (seed 003): the new screen is uncovered by a circle growing from the button"
      case .tilt3D: "3D tilt (seed 004): the screen tilts back 15° and shrinks while a 280 pt sheet slides up"
      case .checkerboard: "Apple's checkerboard (push): tiles flip diagonally across the screen"
      case .explode: "Explode: the picture breaks into squares that fly apart and fade, uncovering the next one"
      case .glassBreak: "Glass break: the picture shatters into irregular shards that fall away"
      }
    return "\(what) (\(transition.direction.rawValue), \(transition.duration) s)"
  }

  /// Every file a demo writes into its folder (with every preset and style):
  /// the files `--force` removes first.
  static let fileNames: Set<String> = {
    let styles = TransitionStyle.allCases.map(\.rawValue)
    let names = Effect.presetNames + styles + styles.map { $0 + "-interactive" }
    return Set(names.flatMap { [$0 + ".apng", $0 + ".webp", $0 + ".mp4", $0 + "-sheet.png"] } + ["index.html"])
  }()

  /// Renders the frames at `times` batch by batch into `NAME.apng` and
  /// `NAME.webp` (lossless: ``webpOptions``; both streamed, so memory does
  /// not grow with the raw frames) and `NAME-sheet.png` (``sheetFrames`` of
  /// them, captioned with their `labels`), reports them and returns the two
  /// files' sizes.
  static func write(
    _ name: String, times: [Double], labels: [Double], size: (width: Int, height: Int), fps: Int,
    into folder: String, output: CommandOutput, clock: Stopwatch,
    render: ([Double]) throws(CommandError) -> [RGBAImage]
  ) throws(CommandError) -> Files {
    let apngPath = folder + "/" + name + ".apng"
    let webpPath = folder + "/" + name + ".webp"
    let mp4Path = folder + "/" + name + ".mp4"
    let sheetPath = folder + "/" + name + "-sheet.png"
    let picks = sheetIndices(count: times.count)
    var picked: [RGBAImage] = []
    var writers: [AnimationWriter] = []
    var start = 0
    let delay = FrameDelay(framesPerSecond: fps)
    for batch in RenderOutput.batches(times, width: size.width, height: size.height) {
      let frames = try render(batch)
      if writers.isEmpty {
        let formats = [
          (AnimationFormat.apng, apngPath), (.webp(webpOptions), webpPath), (.video(.mp4, VideoOptions()), mp4Path),
        ]
        for (format, path) in formats {
          writers.append(
            try AnimationWriter(
              format, path: path, width: frames[0].width, height: frames[0].height, frameCount: times.count, fps: fps,
              output: output))
        }
      }
      for writer in writers { try writer.append(frames, delay: delay) }
      for (i, frame) in frames.enumerated() where picks.contains(start + i) { picked.append(frame) }
      start += frames.count
    }
    let sheet = ContactSheet(columns: sheetFrames / 2, maximumThumbnailWidth: 100)
      .render(picked, times: picks.map { labels[$0] })
    for writer in writers { try writer.finish() }
    try RenderOutput.imageFile { () throws(ImageFileError) in try PNGFile.write(sheet, to: sheetPath) }
    let files = Files(apngBytes: fileSize(apngPath), webpBytes: fileSize(webpPath), mp4Bytes: fileSize(mp4Path))
    output.print(
      "wrote \(apngPath) (\(files.apngBytes) bytes), \(webpPath) (\(files.webpBytes) bytes), \(mp4Path) (\(files.mp4Bytes) bytes; \(times.count) frames) and \(sheetPath) in \(clock.elapsedText)"
    )
    return files
  }

  /// The size of a file just written, in bytes.
  static func fileSize(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
  }

  /// The `sleet render` command that writes a preset's animation exactly as
  /// the page shows it (same frames, same bytes).
  static func renderCommand(_ name: String, files: Files, scale: Double, fps: Int) -> String {
    let lossless = files.shown == .apng ? "" : " --lossless --quality \(numberText(Double(webpOptions.quality)))"
    return
      "sleet render \(name) --out \(name).\(files.shown.name)\(lossless) --size 390x844 --scale \(numberText(scale)) --fps \(fps)"
  }

  /// The `sleet demo` command that writes a transition style's two
  /// animations (timed and interactive) exactly as the page shows them.
  static func demoCommand(_ style: String, scale: Double, fps: Int) -> String {
    "sleet demo --only \(style) --scale \(numberText(scale)) --fps \(fps)"
  }

  /// A transition's parameters for the page.
  static func transitionParameters(_ transition: Transition, scale: Double) -> [(String, String)] {
    func rect(_ r: Rect) -> String {
      "\(numberText(r.x)),\(numberText(r.y)),\(numberText(r.width)),\(numberText(r.height)) pt"
    }
    var list: [(String, String)] = [
      ("style", transition.style.rawValue), ("direction", transition.direction.rawValue),
      ("duration", "\(numberText(transition.duration)) s"),
      (
        "container", "\(numberText(transition.width))×\(numberText(transition.height)) pt at \(numberText(scale)) px/pt"
      ),
    ]
    let options = transition.options
    if let r = options.imageRect { list.append(("image rect", rect(r))) }
    if let r = options.targetRect { list.append(("target rect", rect(r))) }
    if let r = options.button { list.append(("button", rect(r))) }
    if let d = options.divisor { list.append(("divisor", "\(d)")) }
    if let seed = options.seed { list.append(("seed", "\(seed)")) }
    return list
  }

  /// `sheetFrames` frame indices spread evenly over `count` frames, first and last included.
  static func sheetIndices(count: Int) -> [Int] {
    let n = Swift.min(count, sheetFrames)
    guard n > 1 else { return [0] }
    return (0..<n).map { ($0 * (count - 1) + (n - 1) / 2) / (n - 1) }
  }

  /// The page: a title, then one figure per entry with the animation (the
  /// smaller of its two files), its contact sheet, a caption, the sizes of
  /// both files, its parameters and the command that makes it. Relative
  /// links only and no script, so it works opened from the file system.
  static func html(_ entries: [Entry], canvas: Canvas, fps: Int) -> String {
    let webpCount = entries.filter { $0.files.shown != .apng }.count
    var page = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <title>SleetKit demo</title>
      <style>
      body { background: #1e1e22; color: #eee; font: 15px/1.4 system-ui, sans-serif; margin: 2em; }
      figure { display: inline-block; vertical-align: top; margin: 0 2em 2em 0; max-width: 640px; }
      figure img { margin-right: 0.5em; vertical-align: top; image-rendering: pixelated; }
      figcaption { margin-top: 0.5em; }
      a { color: #9cf; }
      code { background: #2c2c33; padding: 0 0.2em; font-size: 13px; }
      dl { display: grid; grid-template-columns: auto 1fr; gap: 0 1em; margin: 0.5em 0; font-size: 13px; }
      dt { color: #aaa; }
      dd { margin: 0; }
      p.command { overflow-x: auto; }
      p.command code { white-space: nowrap; }
      </style>
      </head>
      <body>
      <h1>SleetKit demo</h1>
      <p>Every built-in preset and transition style, rendered by <code>sleet demo</code> with the
      preview renderer: \(canvas.pixelWidth)×\(canvas.pixelHeight) px frames at \(fps) fps. Each
      animation was written twice from the same frames, as APNG and as lossless WebP (the same
      pixels); each figure shows the smaller file (\(webpCount) WebP, \(entries.count - webpCount) APNG
      here), its contact sheet, its parameters and the command that makes it. Each is also an
      H.264 MP4 (sleet render's defaults; a 4:2:0 video stores an odd width one pixel wider) to
      download, share or put in a video editor.</p>

      """
    for entry in entries {
      let name = escape(entry.name)
      let shown = entry.files.shown
      let other: AnimationFormat = shown == .apng ? .webp(webpOptions) : .apng
      func size(_ format: AnimationFormat) -> Int {
        format == .apng ? entry.files.apngBytes : entry.files.webpBytes
      }
      page += """
        <figure id="\(name)">
        <img class="animation" src="\(name).\(shown.name)" alt="\(name) animation" width="\(canvas.pixelWidth)" height="\(canvas.pixelHeight)" data-format="\(shown.name)">
        <a href="\(name)-sheet.png"><img src="\(name)-sheet.png" alt="\(name) contact sheet"></a>
        <figcaption><strong>\(name)</strong> — \(escape(entry.caption))
        <p class="format">Shown: <a href="\(name).\(shown.name)">\(shown.title)</a>, \(size(shown)) bytes (<a href="\(name).\(other.name)">\(other.title)</a>: \(size(other)) bytes; <a class="video" href="\(name).mp4">MP4 video</a>: \(entry.files.mp4Bytes) bytes).</p>
        <dl class="parameters">\(entry.parameters.map { "<dt>\(escape($0.0))</dt><dd>\(escape($0.1))</dd>" }.joined())</dl>
        <p class="command"><code>\(escape(entry.command))</code></p>
        </figcaption>
        </figure>

        """
    }
    page += "</body>\n</html>\n"
    return page
  }

  /// Text safe inside HTML elements and attribute values.
  static func escape(_ text: String) -> String {
    var out = ""
    for c in text {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(c)
      }
    }
    return out
  }
}
