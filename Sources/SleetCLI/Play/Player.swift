import SleetKit

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
