/// The clock of `sleet play` (docs/rendering.md, "Playing an effect live"):
/// the time shown, whether it runs, how fast, and the frame grid that
/// `,` and `.` step on. Pure state, no window: ``PlayCommand`` feeds it the
/// wall-clock time between displayed frames and the keys pressed.
///
/// The time is `anchor + frameOffset / framesPerSecond`: a frame step
/// changes only `frameOffset`, so `n` steps from `t` land on exactly the
/// time `sleet render --start t` gives its frame `n` (`t + n/F`, one
/// rounding), whatever `n`. Playing, seeking and restarting fold the offset
/// into the anchor.
///
/// The timeline runs from 0 to ``end`` (nil: no end, a steady effect).
/// Seeks and steps stay within it (clamped at 0 and at the end); playing
/// past the end starts again at ``start``.
struct PlayerState: Equatable, Sendable {
  /// The rate of frame steps: one step is 1/`framesPerSecond` s.
  let framesPerSecond: Int
  /// Where playing begins, and where ``restart()`` and the loop return to.
  let start: Double
  /// The end of the timeline, nil when it has none.
  var end: Double? {
    didSet { clampIntoTimeline() }
  }
  /// The time the frame offset counts from.
  private(set) var anchor: Double
  /// Frame steps since the anchor.
  private(set) var frameOffset = 0
  /// Whether the clock stands still.
  private(set) var isPaused: Bool
  /// Timeline seconds per wall-clock second, a power of two in
  /// ``speedRange``.
  private(set) var speed = 1.0

  /// The slowest and fastest speeds `[` and `]` reach.
  static let speedRange = (1.0 / 16)...16.0
  /// The seek of `←` and `→`, in seconds.
  static let seekStep = 1.0

  /// A clock at `start` (clamped into 0…`end`), running unless `paused`.
  /// - Precondition: `framesPerSecond ≥ 1`, `start` finite.
  init(start: Double, end: Double?, framesPerSecond: Int, paused: Bool = false) {
    precondition(framesPerSecond >= 1 && start.isFinite, "PlayerState: fps ≥ 1 and a finite start")
    self.framesPerSecond = framesPerSecond
    self.start = Swift.min(Swift.max(0, start), end ?? .infinity)
    self.end = end
    anchor = self.start
    isPaused = paused
  }

  /// The time shown, in seconds on the timeline.
  var time: Double { anchor + Double(frameOffset) / Double(framesPerSecond) }

  /// Lets `seconds` of wall-clock time pass: the time moves by
  /// `seconds × speed` unless paused; past the end it starts again at
  /// ``start``.
  mutating func advance(wallSeconds seconds: Double) {
    guard !isPaused, seconds > 0 else { return }
    let next = time + seconds * speed
    moveAnchor(to: end.map { next > $0 ? start : next } ?? next)
  }

  /// Moves by `seconds` (either way), clamped into the timeline; a paused
  /// clock stays paused.
  mutating func seek(by seconds: Double) {
    moveAnchor(to: clamped(time + seconds))
  }

  /// Pauses and moves by `frames` frame steps of 1/``framesPerSecond`` s;
  /// a step that would leave the timeline stops at its edge instead.
  mutating func step(frames: Int) {
    isPaused = true
    let stepped = anchor + Double(frameOffset + frames) / Double(framesPerSecond)
    if stepped == clamped(stepped) {
      frameOffset += frames
    } else {
      moveAnchor(to: clamped(stepped))
    }
  }

  /// Multiplies the speed by `factor` (½ or 2), within ``speedRange``.
  mutating func changeSpeed(by factor: Double) {
    speed = Swift.min(Swift.max(speed * factor, Self.speedRange.lowerBound), Self.speedRange.upperBound)
  }

  /// Pauses a running clock, runs a paused one.
  mutating func togglePause() { isPaused.toggle() }

  /// Back to ``start``, paused or running as before, at the same speed.
  mutating func restart() { moveAnchor(to: start) }

  /// Applies a clock action (the others are the command's); returns whether
  /// it was one.
  @discardableResult
  mutating func apply(_ action: PlayerAction) -> Bool {
    switch action {
    case .togglePause: togglePause()
    case .seek(let seconds): seek(by: seconds)
    case .step(let frames): step(frames: frames)
    case .changeSpeed(let factor): changeSpeed(by: factor)
    case .restart: restart()
    case .saveFrame, .toggleOverlay, .quit: return false
    }
    return true
  }

  private func clamped(_ t: Double) -> Double { Swift.min(Swift.max(0, t), end ?? .infinity) }

  private mutating func moveAnchor(to t: Double) {
    anchor = t
    frameOffset = 0
  }

  private mutating func clampIntoTimeline() {
    if time != clamped(time) { moveAnchor(to: clamped(time)) }
  }
}

/// What a key asks `sleet play` to do.
enum PlayerAction: Equatable, Sendable {
  case togglePause
  /// Seek by this many seconds.
  case seek(Double)
  /// Pause and step this many frames.
  case step(Int)
  /// Multiply the speed by this factor.
  case changeSpeed(Double)
  case restart
  /// Write the frame shown (without the overlay) as a PNG.
  case saveFrame
  case toggleOverlay
  case quit

  /// The action of the key with SDL key code `code`, nil for a key without
  /// one. SDL's codes of character keys are their characters' code points;
  /// those of other keys are their scan codes with bit 30 set (`SDLK_LEFT`
  /// is `0x4000_0050`), as SDL_keycode.h defines them.
  init?(keyCode code: Int32) {
    switch code {
    case 0x20: self = .togglePause
    case 0x4000_0050: self = .seek(-PlayerState.seekStep)
    case 0x4000_004F: self = .seek(PlayerState.seekStep)
    case Int32(UInt8(ascii: ",")): self = .step(-1)
    case Int32(UInt8(ascii: ".")): self = .step(1)
    case Int32(UInt8(ascii: "[")): self = .changeSpeed(0.5)
    case Int32(UInt8(ascii: "]")): self = .changeSpeed(2)
    case Int32(UInt8(ascii: "r")): self = .restart
    case Int32(UInt8(ascii: "s")): self = .saveFrame
    case Int32(UInt8(ascii: "o")): self = .toggleOverlay
    case Int32(UInt8(ascii: "q")), 0x1B: self = .quit
    default: return nil
    }
  }

  /// The keys, as the player's first line and its help list them.
  static let keyList =
    "space pause/resume, ←/→ seek −/+1 s, ,/. one frame back/forward, [/] speed ×½/×2, r restart, s save the frame as PNG, o overlay, q or Esc quit"
}
