import SleetKit

/// What `sleet play` plays, read from its options: an effect (reloadable) or
/// a transition.
enum PlaySource {
  case effect(name: String, canvas: Canvas, background: ColorRGBA, seed: UInt32?)
  /// A transition, its end held for `hold` seconds.
  case transition(TransitionInputs, hold: Double)

  /// The effect's name or file, or the transition's style.
  var label: String {
    switch self {
    case .effect(let name, _, _, _): name
    case .transition(let inputs, _): inputs.style.rawValue
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
    case .transition(let inputs, let hold):
      TransitionPlayScene(try inputs.scene(), hold: hold)
    }
  }

  /// Where play begins without `--start`: an effect's default animation
  /// start, a transition's 0.
  func defaultStart(_ scene: any PlayScene) -> Double {
    (scene as? EffectPlayScene)?.effect.previewTimes.start ?? 0
  }
}

extension PlaySource {
  /// The transition `sleet play --transition STYLE` plays: the inputs of
  /// `sleet transition render` (``TransitionInputs``) and `--hold`, without
  /// an output; `--from` and `--to` are required (one error names both).
  static func transition(style: TransitionStyle, _ arguments: inout Arguments) throws(CommandError) -> PlaySource {
    var required = RequiredOptions()
    let from = required.note(try arguments.value(OptionTable.playFrom), "--from A.png")
    let to = required.note(try arguments.value(OptionTable.playTo), "--to B.png")
    try required.check()
    if arguments.contains(OptionTable.layerSize) {
      throw .usage("--size applies to effects: a transition's container is its pictures' size ÷ --scale")
    }
    let inputs = try TransitionInputs(style: style, fromPath: from!, toPath: to!, &arguments)
    return .transition(inputs, hold: try arguments.number(OptionTable.hold) ?? 0)
  }
}
