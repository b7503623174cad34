import CSDL2
import Dispatch
import Glibc
import SleetKit
import Synchronization
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// `sleet play` running in-process on a thread of its own, with SDL's
/// dummy video driver (no display needed): the test presses keys by pushing SDL key events into
/// the queue the player's event loop reads (the path a keyboard's events
/// take), and reads what the player prints.
final class PlaySession: Sendable {
  private let out = Mutex("")
  private let err = Mutex("")
  private let status = Mutex<Int32?>(nil)

  /// Starts `sleet play ARGUMENTS` and waits for its window to be open.
  init(_ arguments: [String]) {
    // SDL's dummy driver, as SDL_VIDEODRIVER=dummy chooses it, set through
    // SDL's hint (the process's environment is shared with the tests running
    // beside this one). Not the offscreen driver: it loads Mesa through EGL,
    // whose allocations outlive its unloading (LeakSanitizer reports them
    // under `swift test --sanitize=address`).
    SDL_SetHintWithPriority("SDL_VIDEODRIVER", "dummy", SDL_HINT_OVERRIDE)
    let output = CommandOutput(
      standardOutput: { s in self.out.withLock { $0 += s } }, standardError: { s in self.err.withLock { $0 += s } })
    DispatchQueue.global().async {
      let code = SleetCommandLine.run(["play"] + arguments, output: output)
      self.status.withLock { $0 = code }
    }
    _ = waitUntil { $0.out.contains("playing ") || $0.status != nil }
  }

  var stdout: String { out.withLock { $0 } }
  var stderr: String { err.withLock { $0 } }

  /// Polls until `condition` holds (true) or 60 s pass (false).
  func waitUntil(_ condition: ((out: String, err: String, status: Int32?)) -> Bool) -> Bool {
    for _ in 0..<6000 {
      if condition((stdout, stderr, status.withLock { $0 })) { return true }
      usleep(10_000)
    }
    return false
  }

  /// Presses a key: an SDL_KEYDOWN event with SDL key code `key`.
  func press(_ key: SDL_KeyCode) {
    var event = SDL_Event()
    event.type = SDL_KEYDOWN.rawValue
    event.key.keysym.sym = SDL_Keycode(key.rawValue)
    #expect(SDL_PushEvent(&event) == 1, "SDL_PushEvent: \(String(cString: SDL_GetError()))")
  }

  /// Presses `s` and returns the path and time of the frame saved.
  func save() throws -> (path: String, time: Double) {
    let before = stdout.split(separator: "\n").filter { $0.hasPrefix("saved ") }.count
    press(SDLK_s)
    #expect(waitUntil { $0.out.split(separator: "\n").filter { $0.hasPrefix("saved ") }.count > before })
    let line = try #require(stdout.split(separator: "\n").filter { $0.hasPrefix("saved ") }.last)
    // saved PATH (t = T s)
    let path = try #require(line.dropFirst(6).split(separator: " ").first)
    let time = try #require(line.split(separator: "=").last?.split(separator: " ").first.flatMap { Double($0) })
    return (String(path), time)
  }

  /// Presses `q` and returns the exit status.
  func quit() -> Int32? {
    press(SDLK_q)
    _ = waitUntil { $0.status != nil }
    return status.withLock { $0 }
  }
}

/// The RGBA bytes of a PNG file, decoded by libpng directly (not by the
/// code under test).
func decodedPNG(_ path: String) throws -> [UInt8] {
  let bytes = try #require(fileBytes(path), "\(path) missing")
  return try #require(libpngDecode(bytes), "\(path) not a PNG").rgba
}

/// docs/rendering.md, "Playing an effect live". Serialized: SDL is one per
/// process.
@Suite("sleet play", .serialized)
struct PlayCommandTests {
  /// A frame saved with `s`, at the start and after frame steps, has the
  /// pixels `sleet render --time T` gives at the same options; the steps
  /// land on T + k/F exactly.
  @Test func savedFramesAreTheRendersPixels() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let options = ["--size", "60x40", "--scale", "1.5", "--background", "#102030ff"]
    let session = PlaySession(["confetti", "--start", "3", "--paused", "--fps", "30", "--snapshots", folder] + options)
    let first = try session.save()
    session.press(SDLK_PERIOD)
    session.press(SDLK_PERIOD)
    let stepped = try session.save()
    session.press(SDLK_LEFT)
    session.press(SDLK_COMMA)
    let back = try session.save()
    #expect(session.quit() == 0, "\(session.stderr)")
    #expect(first.time == 3)
    #expect(stepped.time == 3 + 2.0 / 30)
    #expect(back.time == 3 + 2.0 / 30 - 1 - 1.0 / 30)
    var frames: [[UInt8]] = []
    for saved in [first, stepped, back] {
      let reference = folder + "/render-\(saved.time).png"
      let r = runSleet(["render", "confetti", "--time", "\(saved.time)", "--out", reference] + options)
      #expect(r.status == 0, "\(r.err)")
      let played = try decodedPNG(saved.path)
      #expect(played == (try decodedPNG(reference)), "t = \(saved.time)")
      frames.append(played)
    }
    #expect(frames[0] != frames[1], "the steps moved the confetti")
    #expect(frames[0].count == 90 * 60 * 4)
  }

  /// A transition plays as `sleet transition render` draws it.
  @Test func aTransitionPlaysAsItRenders() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try PNGFile.write(DemoPicture.first.image(width: 32, height: 24), to: folder + "/a.png")
    try PNGFile.write(DemoPicture.second.image(width: 32, height: 24), to: folder + "/b.png")
    let inputs = ["--from", folder + "/a.png", "--to", folder + "/b.png", "--divisor", "4"]
    let session = PlaySession(
      ["--transition", "checkerboard", "--start", "0.25", "--paused", "--snapshots", folder] + inputs)
    let saved = try session.save()
    #expect(session.quit() == 0, "\(session.stderr)")
    #expect(saved.time == 0.25)
    let reference = folder + "/t.png"
    let r = runSleet(
      ["transition", "render", "--style", "checkerboard", "--time", "0.25", "--out", reference] + inputs)
    #expect(r.status == 0, "\(r.err)")
    #expect(try decodedPNG(saved.path) == (try decodedPNG(reference)))
  }

  /// A transition following a recorded pan: frame k (k presses of `.` at
  /// --fps F) is the frame k of `sleet transition render --gesture`.
  @Test func aGestureTransitionStepsThroughTheRendersFrames() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try PNGFile.write(DemoPicture.first.image(width: 32, height: 24), to: folder + "/a.png")
    try PNGFile.write(DemoPicture.second.image(width: 32, height: 24), to: folder + "/b.png")
    try FileOutput.atomicWrite(
      Array(
        #"{"samples": [{"time": 0, "translationX": 0}, {"time": 0.2, "translationX": 6}, {"time": 0.4, "translationX": 20}]}"#
          .utf8), to: folder + "/pan.json")
    let inputs = ["--from", folder + "/a.png", "--to", folder + "/b.png", "--gesture", folder + "/pan.json"]
    let session = PlaySession(["--transition", "slide", "--fps", "10", "--paused", "--snapshots", folder] + inputs)
    for _ in 0..<3 { session.press(SDLK_PERIOD) }
    let saved = try session.save()
    #expect(session.quit() == 0, "\(session.stderr)")
    #expect(saved.time == 0.3)
    let r = runSleet(
      ["transition", "render", "--style", "slide", "--fps", "10", "--frames", "3", "--out", folder + "/frames/"]
        + inputs)
    #expect(r.status == 0, "\(r.err)")
    #expect(try decodedPNG(saved.path) == (try decodedPNG(folder + "/frames/frame-0003.png")))
  }

  /// `--watch`: an edit is played at the time shown; a bad edit is reported
  /// on stderr and the last good effect plays on; a fixed edit loads again.
  @Test func watchReloadsKeepsTheLastGoodEffectAndRecovers() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let file = folder + "/fx.json"
    func effect(rate: Int, color: String) -> String {
      #"{"format": 1, "emitterPosition": [20, 20], "emitterCells": [{"name": "dot", "birthRate": \#(rate), "lifetime": 3, "velocity": 20, "emissionRange": 6.283, "scale": 0.5, "color": \#(color), "contents": "disc"}]}"#
    }
    func reloads(_ out: String) -> Int { out.split(separator: "\n").filter { $0.hasPrefix("reloaded ") }.count }
    func write(_ text: String) throws { try FileOutput.atomicWrite(Array(text.utf8), to: file) }
    func rendered(at time: Double) throws -> [UInt8] {
      let out = folder + "/render-\(UInt32.random(in: 0...UInt32.max)).png"
      let r = runSleet(["render", file, "--size", "40x40", "--time", "\(time)", "--out", out])
      #expect(r.status == 0, "\(r.err)")
      return try decodedPNG(out)
    }
    try write(effect(rate: 20, color: "[1, 0, 0, 1]"))
    let session = PlaySession([file, "--watch", "--size", "40x40", "--start", "1", "--paused", "--snapshots", folder])
    let red = try session.save()
    let redPixels = try rendered(at: 1)
    #expect(try decodedPNG(red.path) == redPixels)

    try write(effect(rate: 40, color: "[0, 1, 0, 1]"))
    #expect(session.waitUntil { reloads($0.out) == 1 }, "\(session.stderr)")
    let green = try session.save()
    #expect(green.time == 1, "the time shown is kept")
    let greenPixels = try rendered(at: 1)
    #expect(try decodedPNG(green.path) == greenPixels)
    #expect(greenPixels != redPixels)

    try write(#"{"format": 1, "emitterCells": [{"name": "dot", "birthRat": 5}]}"#)
    #expect(session.waitUntil { $0.err.contains("plays on") }, "\(session.stderr)")
    #expect(session.stderr.contains("sleet play: ") && session.stderr.contains("birthRat"), "\(session.stderr)")
    let kept = try session.save()
    #expect(try decodedPNG(kept.path) == greenPixels, "the last good effect plays on")

    try write(effect(rate: 10, color: "[0, 0, 1, 1]"))
    #expect(session.waitUntil { reloads($0.out) == 2 }, "\(session.stderr)")
    let blue = try session.save()
    #expect(try decodedPNG(blue.path) == (try rendered(at: 1)))
    #expect(session.quit() == 0)
  }

  /// Without a display the window cannot open: exit 1 with SDL's reason and
  /// what to do (SDL's own fallback to its offscreen driver is not taken).
  @Test func withoutADisplayTheErrorSaysWhatToDo() throws {
    let sleet = try #require(sleetExecutable(), "the sleet executable is built with the tests")
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let r = runChild(
      ["/usr/bin/env", "-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", "-u", "SDL_VIDEODRIVER", sleet, "play", "snow"],
      folder: folder)
    #expect(r.termination == .exited(1), "\(r.err)")
    #expect(r.err.contains("sleet play: cannot open a window: SDL video: "), "\(r.err)")
    #expect(r.err.contains("not available"), "SDL's message: \(r.err)")
    #expect(r.err.contains("xvfb-run") && r.err.contains("SDL_VIDEODRIVER=offscreen"), "\(r.err)")
  }

  /// Options that do not fit are refused before any window opens.
  @Test func mismatchedOptionsAreUsageErrors() {
    let cases: [([String], String)] = [
      (["snow", "--watch"], "--watch reloads an effect file; snow is a built-in preset"),
      (["snow", "--from", "a.png"], "--from applies to transitions: give --transition STYLE"),
      (["--transition", "fade", "--from", "a.png", "--to", "b.png", "--size", "9x9"], "--size applies to effects"),
      (["--transition", "fade", "--from", "a.png"], "--to B.png is required"),
      (["--transition", "fdae"], "did you mean 'fade'?"),
      ([], "missing the effect"),
      (["snow", "--fps", "0"], "--fps: expected an integer in 1…240, got 0"),
    ]
    for (arguments, message) in cases {
      let r = runSleet(["play"] + arguments)
      #expect(r.status == 2 && r.err.contains(message), "\(arguments): \(r.err)")
    }
  }
}
