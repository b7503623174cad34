import SleetKit

/// The limits the `sleet` tool puts on option values, beside the library's
/// (``SleetLimits/frames``, ``SleetLimits/imageSide``, …): each bounds the
/// work or the output one command line can ask for. The option table
/// (``CommandOption``) takes its ranges from here, so help, errors and
/// docs/cli.md show the number written once.
extension SleetLimits {
  /// Frames per second of an animation (`--fps`).
  static let framesPerSecond = 1...240

  /// The most pixels per point (`--scale`).
  static let pixelsPerPoint = 16.0

  /// The longest particle animation, in seconds (`sleet render --duration`).
  static let animationSeconds = 3600.0

  /// The longest hold of a transition's final picture, in seconds (`--hold`).
  static let holdSeconds = 60.0

  /// The fastest completion after a gesture, as a multiple of the
  /// transition's own speed (`--completion-speed`).
  static let completionSpeed = 100.0

  /// The largest layer or container side, in points (`--size`): the
  /// transitions' limit (`Transition.maximumSide`), which `sleet render`
  /// shares.
  static let layerSide = Transition.maximumSide

  /// The most simulation steps or table rows one `sleet particles` command
  /// runs (`--step`, `--interval`): the work is linear in them.
  static let particleSteps = 1_000_000
}
