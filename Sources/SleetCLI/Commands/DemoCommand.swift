import SleetKit

/// `sleet demo`: every preset and every transition style (timed and
/// interactive), rendered into a folder with an HTML page that shows them.
struct DemoCommand: SleetCommand {
  static let path = ["demo"]
  static let summary = "render every preset and transition style to APNG + contact sheet, with an index.html"
  static let help = """
    usage: sleet demo [--out DIR] [--scale PX_PER_PT] [--fps F] [--only NAME,...]

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
    Each preset starts at a time where it is in full swing (snow, for
    example, needs about 45 s to fill the screen; seeking there costs only
    the particles alive then). Prints what it wrote and how long it took.

    options:
      --out DIR            output folder (default ./sleet-demo; created if its
                           parent exists)
      --scale PX_PER_PT    pixels per point (default 0.5: 195×422 px frames)
      --fps F              frames per second, 1…240 (default 20)
      --only NAME,...      render only these presets / transition styles
    """

  /// Where each built-in preset is worth watching: the first frame's time and
  /// the animation's length, in seconds. Presets not listed start at 1 s and
  /// run 3 s.
  static let schedule: [String: (start: Double, duration: Double)] = [
    "snow": (45, 4),
    "rain": (2, 2),
    "confetti": (3, 4),
    "fireworks": (2.5, 4),
    "likeBurst": (0, 1.5),
    "sparkle": (1, 3),
  ]

  /// Frames on each contact sheet.
  static let sheetFrames = 8

  /// One rendered entry of the demo.
  struct Entry {
    var name: String
    var caption: String
  }

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    let folder = try arguments.option("out") ?? "./sleet-demo"
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
    try canvas.checkSize(flags: "--scale")
    try RenderOutput.makeFolder(folder, flag: "--out")

    let clock = Stopwatch()
    var entries: [Entry] = []
    for name in presets where only?.contains(name) ?? true {
      let effectClock = Stopwatch()
      let effect = try RenderOptions.effect(name, width: canvas.width, height: canvas.height)
      let (start, duration) = schedule[name] ?? (1, 3)
      let count = Swift.max(1, Int((duration * Double(fps)).rounded()))
      let times = (0..<count).map { start + Double($0) / Double(fps) }
      let frames = try ParticleScene(effect: effect, canvas: canvas, background: .black).render(times: times)
      try write(name, frames: frames, times: times, fps: fps, into: folder, output: output, clock: effectClock)
      entries.append(Entry(name: name, caption: effect.summary ?? "the \(name) preset"))
    }
    let first = DemoPicture.first.image(width: canvas.pixelWidth, height: canvas.pixelHeight)
    let second = DemoPicture.second.image(width: canvas.pixelWidth, height: canvas.pixelHeight)
    // The container is the image in points (at most a pixel larger than
    // 390×844 pt), so pictures and layers share one pixel grid.
    let width = Double(canvas.pixelWidth) / scale, height = Double(canvas.pixelHeight) / scale
    for style in TransitionStyle.allCases where only?.contains(style.rawValue) ?? true {
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
        style.rawValue, frames: scene.render(times: times), times: times, fps: fps, into: folder, output: output,
        clock: effectClock)
      entries.append(Entry(name: style.rawValue, caption: caption(style, transition: transition)))

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
        style.rawValue + "-interactive", frames: scene.render(times: transitionTimes), times: clocks, fps: fps,
        into: folder, output: output, clock: effectClock)
      entries.append(
        Entry(
          name: style.rawValue + "-interactive",
          caption:
            "\(style.rawValue), interactive (\(style.finishRule == .pastHalf ? "finishes when p > 0.5" : "finishes when p > 0.5 or the finger moves forward")): an edge pan released at 40 % while moving back cancels; one released at 70 % finishes"
        ))
    }
    let index = folder + "/index.html"
    do throws(FileOutputError) {
      try FileOutput.atomicWrite(Array(html(entries, canvas: canvas, fps: fps).utf8), to: index)
    } catch {
      throw .failure(error.description)
    }
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

  /// Writes `NAME.apng` and `NAME-sheet.png` and reports them.
  static func write(
    _ name: String, frames: [RGBAImage], times: [Double], fps: Int, into folder: String,
    output: CommandOutput, clock: Stopwatch
  ) throws(CommandError) {
    var encoder = APNGEncoder(width: frames[0].width, height: frames[0].height)
    encoder.append(contentsOf: frames, delays: Array(repeating: FrameDelay(framesPerSecond: fps), count: frames.count))
    let picks = sheetIndices(count: frames.count)
    let sheet = ContactSheet(columns: sheetFrames / 2, maximumThumbnailWidth: 100)
      .render(picks.map { frames[$0] }, times: picks.map { times[$0] })
    let animation = folder + "/" + name + ".apng"
    let sheetPath = folder + "/" + name + "-sheet.png"
    do throws(ImageFileError) {
      try encoder.write(to: animation)
      try PNGFile.write(sheet, to: sheetPath)
    } catch {
      throw .failure(error.description)
    }
    output.print("wrote \(animation) (\(frames.count) frames) and \(sheetPath) in \(clock.elapsedText)")
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
