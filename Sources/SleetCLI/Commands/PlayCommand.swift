import SleetKit

/// `sleet play`: an effect or a transition live in a window
/// (docs/rendering.md, "Playing an effect live").
struct PlayCommand: SleetCommand {
  static let path = ["play"]
  static let summary =
    "play an effect or a transition live in a window; with --watch, reload the effect as it is edited"
  static let about = """
    usage: sleet play EFFECT|FILE.json [--watch] [--seed N] [--start T] [--paused]
                      [--size WxH] [--scale PX_PER_PT] [--background RGBA]
                      [--fps F] [--snapshots DIR]
           sleet play --transition STYLE --from A.png --to B.png [--direction D]
                      [--gesture FILE.json] [--completion-speed S] [--image IMG.png]
                      [--image-rect x,y,w,h --target-rect x,y,w,h]
                      [--button x,y,w,h] [--divisor N] [--seed N] [--hold S]
                      [--start T] [--paused] [--fps F] [--snapshots DIR]

    Opens a window (SDL2) that plays a built-in preset or an effect file as
    'sleet render' draws it, or a transition as 'sleet transition render'
    draws it, at the display's rate: each refresh shows the time that has
    passed (× the speed), and moving to any time costs only the live
    particles. Play begins at --start: by default where 'sleet render'
    starts an animation (docs/rendering.md, "Default times"), 0 for a
    transition.

    keys:
      space    pause / resume        ←/→     seek 1 s back / forward
      , and .  one frame (1/F s) back / forward, pausing
      [ and ]  speed ×½ / ×2         r       back to --start
      s        save the frame shown as DIR/NAME-T.png: the pixels 'sleet
               render' gives at time T with the same options (no overlay)
      o        overlay on / off      q, Esc  quit (or close the window)

    A burst's timeline ends where its default animation ends, a transition's
    at its end (+ --hold); seeks stop at 0 and at the end, and playing past
    the end starts again at --start. A steady effect's timeline has no end.
    The overlay shows the time, the speed, the particles drawn and the time
    the frame took to simulate and draw.

    --watch polls the effect file a few times a second; an edit reloads it at
    the time shown. An edit that does not load (bad JSON, a failed check of
    'sleet validate') is reported on stderr and in the window, and the last
    good effect plays on until the file loads again.

    Without a display the window cannot open (exit 1): run it under xvfb-run,
    or set SDL_VIDEODRIVER=offscreen to play with nothing shown.
    """

  /// The frame-step rate without `--fps`.
  static let defaultFPS = 60
  /// How often `--watch` looks at the file, in seconds.
  static let watchInterval = 0.25

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    let style = try TransitionCommandOptions.optionalStyle(&arguments, OptionTable.playTransition)
    let watch = try arguments.flag(OptionTable.watch)
    let paused = try arguments.flag(OptionTable.paused)
    let fps = try arguments.integer(OptionTable.playFPS) ?? defaultFPS
    let start = try arguments.number(OptionTable.start)
    let snapshots = try arguments.value(OptionTable.snapshots) ?? "."
    let source: PlaySource
    if let style {
      source = try .transition(TransitionInputs(style: style, &arguments))
    } else {
      for option in transitionOnly where arguments.contains(option) {
        throw .usage("--\(option.name) applies to transitions: give --transition STYLE")
      }
      let seed = try arguments.option(OptionTable.playSeed.name, as: "an integer in 0…\(UInt32.max)") { UInt32($0) }
      let canvas = try RenderOptions.canvas(&arguments)
      let background = try RenderOptions.background(&arguments)
      guard let name = arguments.positional() else { throw .usage("missing the effect: a preset name or FILE.json") }
      if watch, RenderCommand.effectFolder(name) == nil {
        throw .usage(
          "--watch reloads an effect file; \(name) is a built-in preset (export it with 'sleet presets export')")
      }
      source = .effect(name: name, canvas: canvas, background: background, seed: seed)
    }
    try arguments.finish()
    if watch, style != nil { throw .usage("--watch reloads an effect file; a transition has none") }
    try OutputCheck.checkFolderWritable(snapshots, for: snapshots, flag: "--snapshots")

    let scene = try source.load(time: start)
    let initial = start ?? source.defaultStart(scene)
    let watched =
      watch
      ? WatchedScene(
        path: source.label, scene: scene,
        load: { t throws(CommandError) in try source.load(time: t, timeFlag: "the time shown") })
      : nil
    let window = try PlayerWindow(
      title: "sleet play \(source.label)", width: scene.pixelWidth, height: scene.pixelHeight)
    output.print("playing \(source.label) (\(scene.pixelWidth)×\(scene.pixelHeight) px); keys: \(PlayerAction.keyList)")
    var player = Player(
      scene: scene, state: PlayerState(start: initial, end: scene.end, framesPerSecond: fps, paused: paused),
      snapshots: snapshots, name: source.fileStem, output: output)
    var previous = PlayerWindow.now
    var lastPoll = previous
    loop: while true {
      let frameStart = PlayerWindow.now
      player.state.advance(wallSeconds: frameStart - previous)
      previous = frameStart
      for input in window.events() {
        guard case .key(let code) = input else { break loop }
        guard let action = PlayerAction(keyCode: code) else { continue }
        switch action {
        case .quit: break loop
        case .toggleOverlay: player.showsOverlay.toggle()
        case .saveFrame: try player.saveFrame()
        default: player.state.apply(action)
        }
      }
      if let watched, frameStart - lastPoll >= watchInterval {
        lastPoll = frameStart
        switch watched.poll(time: player.state.time) {
        case .reloaded:
          player.replace(watched.scene)
          output.print("reloaded \(watched.path)")
        case .failed(let message):
          player.loadError = message
          output.printError("sleet play: \(message) (the last good version plays on)")
        case nil: break
        }
        if watched.error == nil { player.loadError = nil }
      }
      window.show(try player.displayedBytes())
      PlayerWindow.sleep(window.refreshInterval - (PlayerWindow.now - frameStart))
    }
  }

  /// The options only a transition takes.
  static let transitionOnly = [
    OptionTable.playFrom, OptionTable.playTo, OptionTable.transitionDirection, OptionTable.gesture,
    OptionTable.completionSpeed, OptionTable.image, OptionTable.imageRect, OptionTable.targetRect,
    OptionTable.button, OptionTable.transitionDivisor, OptionTable.hold,
  ]
}

/// What `sleet play` plays, read from its options: an effect (reloadable) or
/// a transition.
enum PlaySource {
  case effect(name: String, canvas: Canvas, background: ColorRGBA, seed: UInt32?)
  case transition(TransitionInputs)

  /// The effect's name or file, or the transition's style.
  var label: String {
    switch self {
    case .effect(let name, _, _, _): name
    case .transition(let inputs): inputs.style.rawValue
    }
  }

  /// The start of a saved frame's file name: the preset, the effect file's
  /// name without folder and extension, or the style.
  var fileStem: String {
    let name = label.split(separator: "/").last.map(String.init) ?? label
    return name.lowercased().hasSuffix(".json") ? String(name.dropLast(5)) : name
  }

  /// Loads the scene, checked for `time` (nil: the default start), which a
  /// failed check names as `timeFlag`.
  func load(time: Double?, timeFlag: String = "--start") throws(CommandError) -> any PlayScene {
    switch self {
    case .effect(let name, let canvas, let background, let seed):
      try EffectPlayScene(
        name: name, canvas: canvas, background: background, seed: seed, times: time.map { [$0] } ?? [],
        timeFlag: time == nil ? "the default --start" : timeFlag)
    case .transition(let inputs):
      try inputs.scene()
    }
  }

  /// Where play begins without `--start`: an effect's default animation
  /// start, a transition's 0.
  func defaultStart(_ scene: any PlayScene) -> Double {
    (scene as? EffectPlayScene)?.effect.previewTimes.start ?? 0
  }
}

/// The inputs of `sleet play --transition`: those of `sleet transition
/// render` (read by the same helpers), without an output.
struct TransitionInputs {
  var style: TransitionStyle
  var fromPath: String
  var toPath: String
  var direction: TransitionDirection?
  var options: TransitionOptions
  var gesturePath: String?
  var completionSpeed: Double?
  var imagePath: String?
  var hold: Double

  init(style: TransitionStyle, _ arguments: inout Arguments) throws(CommandError) {
    self.style = style
    guard let from = try arguments.value(OptionTable.playFrom) else { throw .usage("--from A.png is required") }
    guard let to = try arguments.value(OptionTable.playTo) else { throw .usage("--to B.png is required") }
    (fromPath, toPath) = (from, to)
    direction = try TransitionCommandOptions.direction(&arguments)
    options = try TransitionCommandOptions.options(&arguments)
    gesturePath = try arguments.value(OptionTable.gesture)
    completionSpeed = try arguments.number(OptionTable.completionSpeed)
    imagePath = try arguments.value(OptionTable.image)
    hold = try arguments.number(OptionTable.hold) ?? 0
    for option in [OptionTable.layerSize, OptionTable.scale, OptionTable.background] where arguments.contains(option) {
      throw .usage("--\(option.name) applies to effects: a transition is drawn at its pictures' size")
    }
    if completionSpeed != nil && gesturePath == nil { throw .usage("--completion-speed applies only with --gesture") }
    if imagePath != nil && style != .zoom { throw .usage("--image does not apply to \(style.rawValue)") }
  }

  /// Reads the pictures (and the image and the gesture) and makes the scene.
  func scene() throws(CommandError) -> any PlayScene {
    let (from, to) = try TransitionRenderRequest.readPictures(fromPath: fromPath, toPath: toPath)
    let transition = try TransitionCommandOptions.transition(
      style: style, direction: direction, width: Double(from.width), height: Double(from.height), options: options,
      sizeFlag: "--from")
    let image = try TransitionRenderRequest.zoomImage(
      imagePath: imagePath, options: options, from: from, transition: transition)
    let replay = try TransitionRenderRequest.readGesture(gesturePath).map { gesture in
      GestureReplay(
        gesture, extent: transition.width,
        interaction: InteractiveTransition(transition, completionSpeed: completionSpeed ?? 1))
    }
    let scene = TransitionScene(transition: transition, from: from, to: to, image: image, pixelsPerPoint: 1)
    return TransitionPlayScene(scene: scene, replay: replay, hold: hold)
  }
}

/// The player between frames: the clock, the scene, the frame last drawn
/// and what the overlay shows.
struct Player {
  var scene: any PlayScene
  var state: PlayerState
  var showsOverlay = true
  /// Why the watched file does not load, while the last good effect plays.
  var loadError: String?
  let snapshots: String
  let name: String
  let output: CommandOutput
  /// The frame last drawn: its time, the particles it draws and how long it
  /// took (simulation and drawing), in seconds.
  private var drawn: (time: Double, image: RGBAImage, particles: Int?, seconds: Double)?

  init(scene: any PlayScene, state: PlayerState, snapshots: String, name: String, output: CommandOutput) {
    self.scene = scene
    self.state = state
    self.snapshots = snapshots
    self.name = name
    self.output = output
  }

  /// Shows `scene` from now on, at the time shown (within its timeline).
  mutating func replace(_ scene: any PlayScene) {
    self.scene = scene
    state.end = scene.end
    drawn = nil
  }

  /// The frame at the time shown, drawn unless it already is.
  mutating func currentFrame() throws(CommandError) -> (image: RGBAImage, particles: Int?, seconds: Double) {
    if let drawn, drawn.time == state.time { return (drawn.image, drawn.particles, drawn.seconds) }
    let clock = Stopwatch()
    let (image, particles) = try scene.frame(at: state.time)
    drawn = (state.time, image, particles, clock.seconds)
    return (image, particles, clock.seconds)
  }

  /// The bytes the window shows: the frame, with the overlay when it is on.
  mutating func displayedBytes() throws(CommandError) -> [UInt8] {
    var (image, particles, seconds) = try currentFrame()
    if showsOverlay {
      PlayOverlay.draw(
        PlayOverlay.lines(state: state, particles: particles, frameSeconds: seconds, error: loadError), into: &image)
    }
    return image.straightRGBA8()
  }

  /// Writes the frame shown, without the overlay, as `snapshots/NAME-T.png`
  /// (T in seconds with three decimals; `-2`, `-3`, … before `.png` when the
  /// name is taken) and reports it with the exact time. A file that cannot be
  /// written is reported and play goes on.
  mutating func saveFrame() throws(CommandError) {
    let image = try currentFrame().image
    let stem = snapshots + "/" + name + "-" + PlayOverlay.secondsText(state.time, decimals: 3)
    var path = stem + ".png"
    var number = 2
    while FileStamp(path: path) != nil {
      path = stem + "-\(number).png"
      number += 1
    }
    do throws(ImageFileError) {
      try PNGFile.write(image, to: path)
      output.print("saved \(path) (t = \(state.time) s)")
    } catch {
      output.printError("sleet play: \(error.description)")
    }
  }
}
