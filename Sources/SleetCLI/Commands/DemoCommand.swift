import SleetKit

/// `sleet demo`: every preset and every transition style (timed and
/// interactive), rendered into a folder with an HTML page that shows them.
struct DemoCommand: SleetCommand {
  static let path = ["demo"]
  static let summary = "render every preset and transition style to APNG + contact sheet, with an index.html"
  static let help = """
    usage: sleet demo [--out DIR] [--force] [--scale PX_PER_PT] [--fps F] [--only NAME,...]

    Renders every built-in preset and every transition style (slide, fade,
    zoom, window, circleReveal, tilt3D, checkerboard, explode, glassBreak)
    between two generated pictures on a 390×844 pt (iPhone-sized) layer, and
    writes into DIR:
      NAME.apng         the animation (loops forever)
      NAME-sheet.png    a contact sheet: 8 frames with their times
      index.html        a page showing all of them
    Each transition style is shown twice: timed (NAME), and driven by two
    recorded edge pans (NAME-interactive): the first released at 40 % while
    moving back (it cancels), the second released at 70 % (it finishes).
    Each preset is shown at the default times of 'sleet render' (one rule,
    docs/rendering.md "Default times"): a steady effect from the moment its
    live set is steady, for 3 s (snow needs 60 s to fill the screen; seeking
    there costs only the particles alive then), a burst from its first birth
    to its last death. Prints what it wrote and how long it took.

    options:
      --out DIR            output folder (default ./sleet-demo; created if its
                           parent exists)
      --force              when DIR holds files of an earlier demo, remove
                           them first (without it the demo is refused)
      --scale PX_PER_PT    pixels per point (default 0.5: 195×422 px frames)
      --fps F              frames per second, 1…240 (default 20)
      --only NAME,...      render only these presets / transition styles
    """

  /// Frames on each contact sheet.
  static let sheetFrames = 8

  /// One rendered entry of the demo.
  struct Entry {
    var name: String
    var caption: String
  }

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    let folder = try arguments.option("out") ?? "./sleet-demo"
    let force = try arguments.flag("force")
    let scale = try RenderOptions.scale(&arguments, default: 0.5)
    let fps = try RenderOptions.fps(&arguments, default: 20)
    let presets = Effect.presetNames
    let styles = TransitionStyle.allCases.map(\.rawValue)
    var only: Set<String>?
    if let list = try arguments.option("only") {
      let names = list.split(separator: ",").map(String.init)
      for name in names where !presets.contains(name) && !styles.contains(name) {
        throw .usage(
          "--only: no preset or transition style named '\(name)' (\((presets + styles).joined(separator: ", ")))")
      }
      only = Set(names)
    }
    try arguments.finish()
    let canvas = Canvas(width: 390, height: 844, pixelsPerPoint: scale)
    try RenderOptions.checkAtLeastOnePixel(canvas, flags: "--scale")
    try Canvas.checkImageSize(width: canvas.pixelWidth, height: canvas.pixelHeight, flags: "--scale")
    let size = (width: canvas.pixelWidth, height: canvas.pixelHeight)
    let owns = { (name: String) in fileNames.contains(name) }
    try OutputCheck.checkFolder(
      folder, owns: owns, what: "files of a demo", inputs: [], force: force, flag: "--out")
    try RenderOutput.makeFolder(folder, flag: "--out")
    if force { try OutputCheck.removeOwnedFiles(in: folder, owns: owns) }
    FileOutput.removeStaleTemporaries(inFolder: folder, for: owns)

    let clock = Stopwatch()
    let chosenStyles = TransitionStyle.allCases.filter { only?.contains($0.rawValue) ?? true }
    let progress = Progress(
      output: output, label: "demo",
      total: presets.filter { only?.contains($0) ?? true }.count + 2 * chosenStyles.count,
      unit: "effect")
    var entries: [Entry] = []
    for name in presets where only?.contains(name) ?? true {
      let effectClock = Stopwatch()
      let effect = try RenderOptions.effect(name, width: canvas.width, height: canvas.height)
      // The same default times as 'sleet render' (docs/rendering.md, "Default times").
      let (start, duration) = (effect.previewTimes.start, effect.previewTimes.duration)
      let count = Swift.max(1, Int((duration * Double(fps)).rounded()))
      let times = (0..<count).map { start + Double($0) / Double(fps) }
      let scene = ParticleScene(effect: effect, canvas: canvas, background: .black)
      try write(
        name, times: times, labels: times, size: size, fps: fps, into: folder, output: output, clock: effectClock
      ) {
        (batch: [Double]) throws(CommandError) in try scene.render(times: batch)
      }
      entries.append(Entry(name: name, caption: effect.summary ?? "the \(name) preset"))
      progress.advance(by: 1)
    }
    let first = DemoPicture.first.image(width: canvas.pixelWidth, height: canvas.pixelHeight)
    let second = DemoPicture.second.image(width: canvas.pixelWidth, height: canvas.pixelHeight)
    // The container is the image in points (at most a pixel larger than
    // 390×844 pt), so pictures and layers share one pixel grid.
    let width = Double(canvas.pixelWidth) / scale, height = Double(canvas.pixelHeight) / scale
    for style in chosenStyles {
      let transition: Transition
      do throws(TransitionError) {
        transition = try Transition(
          style: style, width: width, height: height, options: demoOptions(style, width: width))
      } catch {
        throw .failure("demo: \(style.rawValue): \(error.description)")
      }
      let image =
        style == .zoom ? TransitionScene.crop(first, to: transition.options.imageRect!, pixelsPerPoint: scale) : nil
      let scene = TransitionScene(transition: transition, from: first, to: second, image: image, pixelsPerPoint: scale)

      var effectClock = Stopwatch()
      let times = scene.times(fps: fps, hold: 0.5)
      try write(
        style.rawValue, times: times, labels: times, size: size, fps: fps, into: folder, output: output,
        clock: effectClock
      ) {
        (batch: [Double]) throws(CommandError) in scene.render(times: batch)
      }
      entries.append(Entry(name: style.rawValue, caption: caption(style, transition: transition)))
      progress.advance(by: 1)

      effectClock = Stopwatch()
      var clocks: [Double] = []
      var transitionTimes: [Double] = []
      for (k, gesture) in demoGestures(width: width).enumerated() {
        let replay = GestureReplay(gesture, extent: width, interaction: InteractiveTransition(transition))
        let offset = (clocks.last ?? -1 / Double(fps)) + 1 / Double(fps)
        for c in replay.clocks(fps: fps, hold: k == 0 ? 0.3 : 0.5) {
          clocks.append(offset + c - gesture.startTime)
          transitionTimes.append(replay.transitionTime(at: c))
        }
      }
      try write(
        style.rawValue + "-interactive", times: transitionTimes, labels: clocks, size: size, fps: fps, into: folder,
        output: output, clock: effectClock
      ) { (batch: [Double]) throws(CommandError) in scene.render(times: batch) }
      entries.append(
        Entry(
          name: style.rawValue + "-interactive",
          caption:
            "\(style.rawValue), interactive (\(style.finishRule == .pastHalf ? "finishes when p > 0.5" : "finishes when p > 0.5 or the finger moves forward")): an edge pan released at 40 % while moving back cancels; one released at 70 % finishes"
        ))
      progress.advance(by: 1)
    }
    let index = folder + "/index.html"
    do throws(FileOutputError) {
      try FileOutput.atomicWrite(Array(html(entries, canvas: canvas, fps: fps).utf8), to: index)
    } catch {
      throw .failure(error.description)
    }
    progress.finish()
    output.print("wrote \(index)")
    output.print(
      "demo: \(entries.count) effects, \(canvas.pixelWidth)×\(canvas.pixelHeight) px at \(fps) fps, in \(clock.elapsedText)"
    )
  }

  /// The inputs the styles that need them get in the demo (container W wide).
  static func demoOptions(_ style: TransitionStyle, width: Double) -> TransitionOptions {
    switch style {
    case .zoom:
      TransitionOptions(
        imageRect: Rect(x: 24, y: 160, width: 160, height: 160),
        targetRect: Rect(x: 0, y: 88, width: width, height: width))
    case .circleReveal: TransitionOptions(button: Rect(x: width - 64, y: 56, width: 44, height: 44))
    case .explode, .glassBreak: TransitionOptions(seed: 1)
    default: TransitionOptions()
    }
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
    return Set(names.flatMap { [$0 + ".apng", $0 + "-sheet.png"] } + ["index.html"])
  }()

  /// Renders the frames at `times` batch by batch into `NAME.apng` (streamed
  /// to disk, so memory does not grow with the frames) and `NAME-sheet.png`
  /// (``sheetFrames`` of them, captioned with their `labels`), and reports
  /// them.
  static func write(
    _ name: String, times: [Double], labels: [Double], size: (width: Int, height: Int), fps: Int,
    into folder: String, output: CommandOutput, clock: Stopwatch,
    render: ([Double]) throws(CommandError) -> [RGBAImage]
  ) throws(CommandError) {
    let animation = folder + "/" + name + ".apng"
    let sheetPath = folder + "/" + name + "-sheet.png"
    let picks = sheetIndices(count: times.count)
    var picked: [RGBAImage] = []
    var writer: APNGFileWriter?
    var start = 0
    for batch in RenderOutput.batches(times, width: size.width, height: size.height) {
      let frames = try render(batch)
      if writer == nil {
        writer = try RenderOutput.imageFile { () throws(ImageFileError) in
          try APNGFileWriter(path: animation, width: frames[0].width, height: frames[0].height)
        }
      }
      try RenderOutput.imageFile { () throws(ImageFileError) in
        try writer!.append(
          contentsOf: frames, delays: Array(repeating: FrameDelay(framesPerSecond: fps), count: frames.count))
      }
      for (i, frame) in frames.enumerated() where picks.contains(start + i) { picked.append(frame) }
      start += frames.count
    }
    let sheet = ContactSheet(columns: sheetFrames / 2, maximumThumbnailWidth: 100)
      .render(picked, times: picks.map { labels[$0] })
    try RenderOutput.imageFile { () throws(ImageFileError) in
      try writer!.finish()
      try PNGFile.write(sheet, to: sheetPath)
    }
    output.print("wrote \(animation) (\(times.count) frames) and \(sheetPath) in \(clock.elapsedText)")
  }

  /// `sheetFrames` frame indices spread evenly over `count` frames, first and last included.
  static func sheetIndices(count: Int) -> [Int] {
    let n = Swift.min(count, sheetFrames)
    guard n > 1 else { return [0] }
    return (0..<n).map { ($0 * (count - 1) + (n - 1) / 2) / (n - 1) }
  }

  /// The page: a title, then one figure per entry with the animation, its
  /// contact sheet and a caption.
  static func html(_ entries: [Entry], canvas: Canvas, fps: Int) -> String {
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
      </style>
      </head>
      <body>
      <h1>SleetKit demo</h1>
      <p>Every built-in preset and shatter style, rendered by <code>sleet demo</code> with the
      preview renderer: \(canvas.pixelWidth)×\(canvas.pixelHeight) px frames at \(fps) fps. Each
      figure shows the animated PNG and its contact sheet.</p>

      """
    for entry in entries {
      let name = escape(entry.name)
      page += """
        <figure id="\(name)">
        <img src="\(name).apng" alt="\(name) animation" width="\(canvas.pixelWidth)" height="\(canvas.pixelHeight)">
        <a href="\(name)-sheet.png"><img src="\(name)-sheet.png" alt="\(name) contact sheet"></a>
        <figcaption><strong>\(name)</strong> — \(escape(entry.caption))</figcaption>
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
