import SleetKit

/// What `sleet play` draws: one frame at a time on a timeline from 0, by the
/// render path of `sleet render` or `sleet transition render`, so a frame
/// saved with `s` has the pixels those commands give at the same time and
/// options.
protocol PlayScene: AnyObject {
  /// The frame size in pixels.
  var pixelWidth: Int { get }
  var pixelHeight: Int { get }
  /// Where the timeline ends, nil when it has none (a steady effect).
  var end: Double? { get }
  /// The frame at timeline time `time`, and the particles it draws (nil for a
  /// transition).
  /// - Throws: `.usage` when a sprite cannot be drawn.
  func frame(at time: Double) throws(CommandError) -> (image: RGBAImage, particles: Int?)
}

/// A particle effect, drawn as `sleet render --time T` draws it: the effect's
/// simulation (kept between frames: moving to any time costs the live
/// particles) and the preview renderer over the background colour.
final class EffectPlayScene: PlayScene {
  let effect: Effect
  let canvas: Canvas
  let background: ColorRGBA
  let sprites: SpriteLibrary
  private let source: ParticleFrameSource
  private let renderer: Renderer
  private var particleFrame = ParticleFrame()

  /// Loads `name` (a preset or an effect file) as `sleet render` does: its
  /// container parameters set to the canvas, `seed` when given, and the
  /// checks of `sleet validate` run for `times` (named by `timeFlag`).
  /// - Throws: `.usage` with the reason when the file cannot be read or a
  ///   check fails.
  init(
    name: String, canvas: Canvas, background: ColorRGBA, seed: UInt32?, times: [Double], timeFlag: String
  ) throws(CommandError) {
    var effect = try RenderOptions.effect(
      name, width: canvas.width, height: canvas.height, label: RenderCommand.effectFolder(name) == nil ? "" : name)
    if let seed { effect.seed = seed }
    // The same library `ParticleScene` makes: sprite paths were already
    // resolved against the file's folder by the effect reader.
    let sprites = SpriteLibrary(pixelsPerPoint: Float(canvas.pixelsPerPoint), baseDirectory: nil)
    try EffectChecks.require(
      effect, sprites: sprites, times: times.isEmpty ? [effect.previewTimes.start] : times, timeFlag: timeFlag)
    self.effect = effect
    self.canvas = canvas
    self.background = background
    self.sprites = sprites
    source = try ParticleFrameSource(effect: effect, usesGPU: false)
    renderer = Renderer(pixelsPerPoint: Float(canvas.pixelsPerPoint))
  }

  var pixelWidth: Int { canvas.pixelWidth }
  var pixelHeight: Int { canvas.pixelHeight }

  /// A burst's timeline ends where its default animation does (its last
  /// particle's death, at most ``PreviewTimes/maximumBurstDuration`` after
  /// its first birth); a steady or empty effect's has no end.
  var end: Double? {
    let times = effect.previewTimes
    return times.kind == .burst ? times.start + times.duration : nil
  }

  func frame(at time: Double) throws(CommandError) -> (image: RGBAImage, particles: Int?) {
    try source.frame(at: time, into: &particleFrame)
    var image = RGBAImage(width: canvas.pixelWidth, height: canvas.pixelHeight, background: background)
    do throws(SpriteError) {
      try renderer.render(particleFrame, into: &image, sprites: sprites)
    } catch {
      throw .usage(error.description)
    }
    return (image, particleFrame.instances.count + particleFrame.compactInstances.count)
  }
}

/// A transition between two pictures, drawn as `sleet transition render`
/// draws it (``TransitionScene``): on the clock from 0 to its end plus the
/// hold, or following a recorded pan (timeline time `t` is the gesture's
/// clock at its first sample + `t`, as frame k of the render is at k/F).
final class TransitionPlayScene: PlayScene {
  let scene: TransitionScene
  let replay: GestureReplay?
  let hold: Double
  /// What ``TransitionInputs/scene(progress:)`` had to say (defaults used,
  /// the gesture's outcome), printed when play begins.
  let notes: [String]

  init(_ setup: TransitionSetup, hold: Double) {
    self.scene = setup.scene
    self.replay = setup.replay
    self.notes = setup.notes
    self.hold = hold
  }

  var pixelWidth: Int { scene.from.width }
  var pixelHeight: Int { scene.from.height }

  var end: Double? {
    guard let replay else { return scene.transition.endTime + hold }
    return replay.endClock + hold - replay.gesture.startTime
  }

  /// The transition time at timeline time `time`.
  func transitionTime(at time: Double) -> Double {
    guard let replay else { return Swift.min(time, scene.transition.endTime + hold) }
    return replay.transitionTime(at: Swift.min(replay.gesture.startTime + time, replay.endClock + hold))
  }

  func frame(at time: Double) throws(CommandError) -> (image: RGBAImage, particles: Int?) {
    (scene.render(times: [transitionTime(at: time)])[0], nil)
  }
}
