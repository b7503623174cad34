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
                      [--scale PX_PER_PT] [--background RGBA]
                      [--gesture FILE.json] [--completion-speed S] [--image IMG.png]
                      [--image-rect x,y,w,h] [--target-rect x,y,w,h]
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
      source = try .transition(style: style, &arguments)
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
    for note in (scene as? TransitionPlayScene)?.notes ?? [] { output.print(note) }
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
          player.loadError = nil
          output.print("reloaded \(watched.path)")
        case .failed(let message):
          player.loadError = message
          output.printError("sleet play: \(message) (the last good version plays on)")
        case nil: break
        }
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
