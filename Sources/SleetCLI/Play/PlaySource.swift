import SleetKit

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
