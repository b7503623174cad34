import Glibc
import SleetKit
import SleetMath
import Synchronization
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// --version, suggestions for mistyped commands,
/// `sleet help COMMAND`, and progress with an estimate of the time left.
@Suite("version, help, suggestions and progress")
struct CommandLineUXTests {
  @Test func versionIsPrinted() {
    for arguments in [["--version"], ["version"]] {
      let r = runSleet(arguments)
      #expect(r.status == 0 && r.err.isEmpty && r.out == "sleet \(SleetVersion.string)\n", "\(arguments)")
    }
    #expect(runSleet(["--version", "extra"]).status == 2)
  }

  @Test func helpNamesACommandOrAGroup() {
    for command in SleetCommandLine.commands {
      let r = runSleet(["help"] + command.path)
      #expect(r.status == 0 && r.out == command.help + "\n", "\(command.path)")
      #expect(r.out == runSleet(command.path + ["--help"]).out)
    }
    let group = runSleet(["help", "transition"])
    #expect(group.status == 0 && group.out.contains("transition frame") && group.out.contains("transition render"))
    #expect(!group.out.contains("particles dump"))
    #expect(runSleet(["help"]).out == runSleet(["--help"]).out)
    #expect(runSleet(["help", "--help"]).out == runSleet(["--help"]).out)
    let unknown = runSleet(["help", "rendr"])
    #expect(
      unknown.status == 2 && unknown.err.hasPrefix("sleet: unknown command 'help rendr'; did you mean 'help render'?"))
    #expect(runSleet(["help", "transition", "rendr"]).err.contains("did you mean 'help transition render'?"))
  }

  @Test func mistypedCommandsGetASuggestion() {
    let cases: [([String], String?)] = [
      (["rendr"], "render"),
      (["rendre", "snow"], "render"),
      (["demp"], "demo"),
      (["ifo"], "info"),
      (["particles", "dmp"], "particles dump"),
      (["partcles", "dump"], "particles dump"),
      (["transiton"], "transition"),
      (["shatter", "plna"], "shatter plan"),
      (["verison"], "version"),
      (["--verison"], "--version"),
      (["frobnicate"], nil),
      (["x"], nil),
    ]
    for (arguments, guess) in cases {
      let r = runSleet(arguments)
      #expect(r.status == 2 && r.out.isEmpty, "\(arguments)")
      let head = "sleet: unknown command '\(arguments.joined(separator: " "))'"
      if let guess {
        #expect(r.err == head + "; did you mean '\(guess)'?\nsee 'sleet --help'\n", "\(arguments): \(r.err)")
      } else {
        #expect(r.err == head + "\nsee 'sleet --help'\n", "\(arguments): \(r.err)")
      }
    }
    #expect(Suggestion.distance("render", "rednre") == 2)
    #expect(Suggestion.distance("rendr", "render") == 1)
    #expect(Suggestion.distance("redner", "render") == 1)  // a swap is one edit
  }

  // MARK: - progress

  /// A clock the test moves by hand.
  final class TestClock: Sendable {
    let now = Mutex(0.0)
    func set(_ t: Double) { now.withLock { $0 = t } }
    var read: @Sendable () -> Double { { self.now.withLock { $0 } } }
  }

  /// Text written, by any thread.
  final class Captured: Sendable {
    private let text = Mutex("")
    func append(_ s: String) { text.withLock { $0 += s } }
    var value: String { text.withLock { $0 } }
  }

  /// An output whose stderr is a terminal, and what was written to it.
  func terminal() -> (CommandOutput, Captured) {
    let err = Captured()
    let output = CommandOutput(standardOutput: { _ in }, standardError: { err.append($0) }, errorIsTerminal: true)
    return (output, err)
  }

  @Test func frameProgressEstimatesTheTimeLeft() {
    let (output, err) = terminal()
    let clock = TestClock()
    let progress = Progress(output: output, label: "render", total: 100, clock: clock.read, ticking: false)
    clock.set(0.5)
    #expect(progress.line(at: 0.5) == nil)  // under a second: nothing
    for _ in 0..<20 { progress.frameDrawn() }
    // Drawn, none written: drawn frames count half.
    #expect(progress.line(at: 1) == "render: frame 20/100 (20 %), 1.0 s elapsed, about 4 s left")
    clock.set(2)
    progress.advance(by: 32)
    // 32 written at 2 s foretell 6.25 s in all.
    #expect(progress.line(at: 2) == "render: frame 32/100 (32 %), 2.0 s elapsed, about 4 s left")
    #expect(progress.line(at: 5) == "render: frame 32/100 (32 %), 5.0 s elapsed, about 1 s left")
    #expect(progress.line(at: 6.5) == "render: frame 32/100 (32 %), 6.5 s elapsed, almost done")
    clock.set(7)
    for _ in 0..<80 { progress.frameDrawn() }
    progress.advance(by: 32)
    #expect(progress.line(at: 7) == "render: writing, frame 64/100 (64 %), 7.0 s elapsed, about 4 s left")
    progress.tick()
    clock.set(12.4)
    progress.finish()
    #expect(
      err.value
        == "\rrender: writing, frame 64/100 (64 %), 7.0 s elapsed, about 4 s left\u{1B}[K"
        + "\rrender: 100 frames in 12 s\u{1B}[K\n")
    #expect(progress.line(at: 13) == nil)  // finished
  }

  @Test func aStillShowsPreparingDrawingAndWriting() {
    let (output, _) = terminal()
    let clock = TestClock()
    let progress = Progress(output: output, label: "render", total: 1, clock: clock.read, ticking: false)
    progress.setFrameSize(width: 1000, height: 1000)
    #expect(progress.line(at: 1.2) == "render: preparing the frame, 1.2 s elapsed")
    progress.raster.add(100)
    #expect(progress.line(at: 2) == "render: drawing the frame 10 %, 2.0 s elapsed")
    progress.raster.add(200)
    // 20 % more in 1 s: 3.5 s to draw the rest, then 10⁶ px to encode.
    let encode = 1e6 * Progress.encodingSecondsPerPixel
    #expect(
      progress.line(at: 3)
        == "render: drawing the frame 30 %, 3.0 s elapsed, \(Progress.left(3.5 + encode))")
    clock.set(3)
    progress.frameDrawn()
    #expect(progress.line(at: 3) == "render: writing, 3.0 s elapsed, \(Progress.left(encode))")
    #expect(progress.line(at: 4) == "render: writing, 4.0 s elapsed, almost done")
  }

  @Test func nothingIsShownOffATerminalOrForQuickWork() {
    let err = Captured()
    let output = CommandOutput(standardOutput: { _ in }, standardError: { err.append($0) })
    let progress = Progress(output: output, label: "render", total: 10, clock: { 0 }, ticking: false)
    progress.frameDrawn()
    #expect(progress.line(at: 100) == nil)
    progress.tick()
    progress.finish()
    #expect(err.value.isEmpty)
    let (terminalOutput, terminalErr) = terminal()
    let quick = Progress(output: terminalOutput, label: "render", total: 10, clock: { 0.3 }, ticking: false)
    quick.tick()
    quick.finish()
    #expect(terminalErr.value.isEmpty)
  }

  /// The scenes report to the running command's progress: frames drawn, and
  /// for a still its rows, band by band.
  @Test func stillsAndTransitionsReportRowsAndFrames() throws {
    let (output, _) = terminal()
    let progress = Progress(output: output, label: "render", total: 1, clock: { 0 }, ticking: false)
    var scene = ParticleScene(
      effect: try RenderOptions.effect("sparkle", width: 40, height: 30),
      canvas: Canvas(width: 40, height: 30, pixelsPerPoint: 1),
      background: .black)
    scene.progress = output.progress
    _ = try scene.render(times: [1])
    #expect(progress.raster.rows == 30)
    #expect(progress.line(at: 2)?.hasPrefix("render: writing") == true)
    progress.finish()
    #expect(output.progress.progress == nil)  // detached

    let animation = Progress(output: output, label: "transition render", total: 3, clock: { 0 }, ticking: false)
    let picture = DemoPicture.first.image(width: 20, height: 10)
    let scene2 = TransitionScene(
      transition: try Transition(style: .fade, width: 20, height: 10), from: picture, to: picture, image: nil,
      pixelsPerPoint: 1, progress: output.progress)
    _ = scene2.render(times: [0, 0.1, 0.2])
    #expect(animation.line(at: 1) == "transition render: writing, frame 3/3 (100 %), 1.0 s elapsed, almost done")
    animation.finish()
  }

  /// A real run on a "terminal": progress lines, then the summary; stdout
  /// lines erase the progress line first.
  @Test func aRenderShowsItsProgressOnATerminal() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let still = runSleet(
      ["render", "sparkle", "--size", "40x40", "--out", folder + "/s.png"], terminal: true, progressDelay: 0)
    #expect(still.status == 0)
    #expect(still.err.hasPrefix("\rrender: preparing the frame, 0.0 s elapsed\u{1B}[K"), "\(still.err)")
    #expect(still.err.contains("\rrender: 1 frame in ") && still.err.hasSuffix(" s\u{1B}[K\n"))
    let demo = runSleet(
      ["demo", "--scale", "0.1", "--fps", "4", "--only", "likeBurst,fade", "--out", folder + "/demo"], terminal: true,
      progressDelay: 0)
    #expect(demo.status == 0)
    #expect(demo.err.hasPrefix("\rdemo: effect 0/3 (0 %), 0.0 s elapsed\u{1B}[K"), "\(demo.err)")
    #expect(demo.err.contains("\rdemo: 3 effects in "))
    // Quick renders on a terminal with the usual one-second delay: nothing.
    let quick = runSleet(["render", "likeBurst", "--size", "20x20", "--out", folder + "/q.png"], terminal: true)
    #expect(quick.status == 0 && quick.err.isEmpty)
  }
}
