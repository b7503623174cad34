import CSDL2
import SleetKit
import Testing

@testable import SleetCLI

/// The clock of `sleet play` (docs/rendering.md, "Playing an effect live"):
/// the laws of its keys, without a window.
@Suite("sleet play: the player's clock and keys")
struct PlayerStateTests {
  /// n frame steps from t land on t + n/F, the time `sleet render --start t`
  /// gives its frame n, bit for bit, for every n (no accumulated rounding);
  /// n steps back return to t exactly.
  @Test func frameStepsAreExactlyOneOverFPS() {
    for fps in [24, 30, 60, 240] {
      for start in [0.0, 0.1, 2.7, 60] {
        var state = PlayerState(start: start, end: nil, framesPerSecond: fps)
        for n in 1...300 {
          state.step(frames: 1)
          #expect(state.time == start + Double(n) / Double(fps), "fps \(fps), start \(start), step \(n)")
        }
        #expect(state.isPaused)
        state.step(frames: -300)
        #expect(state.time == start)
      }
    }
  }

  /// A step pauses; playing, seeking and restarting are measured from the
  /// time shown, and a step after them starts a new grid there.
  @Test func stepsPauseAndRebaseAfterOtherMoves() {
    var state = PlayerState(start: 1, end: nil, framesPerSecond: 10)
    #expect(!state.isPaused)
    state.advance(wallSeconds: 0.25)
    #expect(state.time == 1.25)
    state.step(frames: 2)
    #expect(state.isPaused && state.time == 1.25 + 0.2)
    let before = state.time
    state.advance(wallSeconds: 5)
    #expect(state.time == before, "a paused clock does not move")
    state.seek(by: 1)
    #expect(state.time == before + 1 && state.isPaused, "a seek keeps the pause")
    state.togglePause()
    state.advance(wallSeconds: 0.5)
    #expect(!state.isPaused && state.time == before + 1.5)
  }

  /// Seeks and steps stop at 0 and at the end; without an end, forward
  /// seeks have no limit.
  @Test func seeksAndStepsClampToTheTimeline() {
    var state = PlayerState(start: 0.5, end: 2, framesPerSecond: 4, paused: true)
    state.seek(by: -1)
    #expect(state.time == 0)
    state.step(frames: -1)
    #expect(state.time == 0)
    state.seek(by: 1)
    state.seek(by: 1)
    state.seek(by: 1)
    #expect(state.time == 2)
    state.step(frames: 1)
    #expect(state.time == 2)
    state.step(frames: -3)
    #expect(state.time == 1.25)
    var open = PlayerState(start: 0, end: nil, framesPerSecond: 4)
    for _ in 0..<1000 { open.seek(by: PlayerState.seekStep) }
    #expect(open.time == 1000)
    // A start outside the timeline is moved into it.
    #expect(PlayerState(start: 9, end: 2, framesPerSecond: 4).time == 2)
    #expect(PlayerState(start: -1, end: nil, framesPerSecond: 4).time == 0)
  }

  /// Playing past the end starts again at the start; a shorter end (a
  /// reloaded effect) moves the time shown into the new timeline.
  @Test func playingLoopsAndAnEndChangeClamps() {
    var state = PlayerState(start: 0.5, end: 2, framesPerSecond: 30)
    state.advance(wallSeconds: 1.4)
    #expect(state.time == 1.9)
    state.advance(wallSeconds: 0.2)
    #expect(state.time == 0.5)
    state.advance(wallSeconds: 1.5)
    state.end = 1
    #expect(state.time == 1)
    state.end = nil
    #expect(state.time == 1)
  }

  /// Speed doubles and halves in powers of two within its range and scales
  /// the wall clock; restart returns to the start keeping speed and pause.
  @Test func speedAndRestart() {
    var state = PlayerState(start: 3, end: nil, framesPerSecond: 60)
    state.changeSpeed(by: 2)
    state.advance(wallSeconds: 0.5)
    #expect(state.speed == 2 && state.time == 4)
    for _ in 0..<20 { state.changeSpeed(by: 2) }
    #expect(state.speed == PlayerState.speedRange.upperBound)
    for _ in 0..<40 { state.changeSpeed(by: 0.5) }
    #expect(state.speed == PlayerState.speedRange.lowerBound)
    state.changeSpeed(by: 16)
    #expect(state.speed == 1)
    state.changeSpeed(by: 0.5)
    state.advance(wallSeconds: 1)
    #expect(state.time == 4.5)
    state.togglePause()
    state.restart()
    #expect(state.time == 3 && state.isPaused && state.speed == 0.5)
  }

  /// Each key's action, by the SDL key codes SDL2's headers define.
  @Test func keysMapToActions() {
    func code(_ key: SDL_KeyCode) -> Int32 { Int32(key.rawValue) }
    let expected: [(Int32, PlayerAction)] = [
      (code(SDLK_SPACE), .togglePause), (code(SDLK_LEFT), .seek(-1)), (code(SDLK_RIGHT), .seek(1)),
      (code(SDLK_COMMA), .step(-1)), (code(SDLK_PERIOD), .step(1)), (code(SDLK_LEFTBRACKET), .changeSpeed(0.5)),
      (code(SDLK_RIGHTBRACKET), .changeSpeed(2)), (code(SDLK_r), .restart), (code(SDLK_s), .saveFrame),
      (code(SDLK_o), .toggleOverlay), (code(SDLK_q), .quit), (code(SDLK_ESCAPE), .quit),
    ]
    for (key, action) in expected { #expect(PlayerAction(keyCode: key) == action, "\(key)") }
    for key in [SDLK_a, SDLK_UP, SDLK_DOWN, SDLK_RETURN, SDLK_0] { #expect(PlayerAction(keyCode: code(key)) == nil) }
    // The clock's actions change the clock; the others are the command's.
    var state = PlayerState(start: 1, end: nil, framesPerSecond: 10, paused: true)
    #expect(state.apply(.step(1)) && state.time == 1.1)
    #expect(!state.apply(.saveFrame) && !state.apply(.toggleOverlay) && !state.apply(.quit))
    #expect(state.time == 1.1)
  }
}

/// The overlay of `sleet play` and what the window shows: the overlay is on
/// the window's copy only, `o` removes it, and a load error is in it.
@Suite("sleet play: the overlay")
struct PlayOverlayTests {
  /// A scene of one flat colour, so the overlay's pixels are easy to find.
  final class FlatScene: PlayScene {
    var pixelWidth: Int { 240 }
    var pixelHeight: Int { 120 }
    var end: Double? { 2 }
    func frame(at time: Double) throws(CommandError) -> (image: RGBAImage, particles: Int?) {
      (RGBAImage(width: 240, height: 120, background: ColorRGBA(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)), 7)
    }
  }

  @Test func theOverlayIsOnTheWindowsCopyOnly() throws {
    var player = Player(
      scene: FlatScene(), state: PlayerState(start: 1.5, end: 2, framesPerSecond: 30, paused: true),
      snapshots: ".", name: "flat", output: CommandOutput(standardOutput: { _ in }, standardError: { _ in }))
    let frame = try player.currentFrame().image.straightRGBA8()
    let shown = try player.displayedBytes()
    #expect(shown.count == frame.count)
    let drawn = shown != frame
    #expect(drawn, "the overlay is drawn")
    // Only the band at the top changes: rows from 60 on are the frame's.
    let row = 4 * 240
    let rest = shown[(60 * row)...] == frame[(60 * row)...]
    #expect(rest)
    player.showsOverlay = false
    let plain = try player.displayedBytes() == frame
    #expect(plain, "o turns the overlay off")
    let unchanged = try player.currentFrame().image.straightRGBA8() == frame
    #expect(unchanged, "the frame itself has no overlay")
  }

  @Test func theOverlaySaysTimeSpeedParticlesAndTheError() {
    var state = PlayerState(start: 1.5, end: 2, framesPerSecond: 30, paused: true)
    state.changeSpeed(by: 0.5)
    let lines = PlayOverlay.lines(state: state, particles: 7, frameSeconds: 0.0123, error: "fx.json: bad")
    #expect(
      lines.map(\.text) == ["t 1.500 s / 2.000 s  x1/2  paused", "7 particles  frame 12.3 ms", "error: fx.json: bad"])
    #expect(lines[2].color == PlayOverlay.errorColor)
    let running = PlayOverlay.lines(
      state: PlayerState(start: 60, end: nil, framesPerSecond: 30), particles: nil, frameSeconds: 0.002, error: nil)
    #expect(running.map(\.text) == ["t 60.000 s  x1  playing", "frame 2.0 ms"])
    // Every character the overlay writes (lower-cased) has a glyph.
    let text = (lines + running).map { $0.text.lowercased() }.joined()
    #expect(text.allSatisfy { BitmapFont.supportedCharacters.contains($0) })
  }
}
