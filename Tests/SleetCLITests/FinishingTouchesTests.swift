import Glibc
import SleetGPU
import SleetKit
import SleetMath
import Synchronization
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// Suggestions for enumerated values, long inputs cut short in messages,
/// temporaries removed on SIGINT and SIGTERM, binary output refused on a
/// terminal.
@Suite("finishing touches: suggestions, truncation, signals, terminals")
struct FinishingTouchesTests {
  @Test func enumeratedValuesSuggestAndIgnoreSurroundingSpaces() throws {
    let style = runSleet(["transition", "frame", "--style", "slid", "--size", "10x10", "--time", "0"])
    #expect(style.status == 2 && style.err.contains("got 'slid' (did you mean 'slide'?)"), "\(style.err)")
    let direction = runSleet(["shatter", "plan", "--size", "10x10", "--direction", "pussh"])
    #expect(direction.err.contains("(did you mean 'push'?)"), "\(direction.err)")
    let spaced = runSleet(["particles", "dump", "--effect", "likeBurst", "--time", "0.1", "--format", " json "])
    #expect(spaced.status == 0 && spaced.out.hasPrefix("["), "\(spaced.err)")
    var only = Arguments(["--only", "snow, rain ,slide"])
    #expect(try DemoCommand.parse(&only).only == ["snow", "rain", "slide"])
    let typo = runSleet(["demo", "--only", "snow, snw"])
    #expect(typo.status == 2 && typo.err.contains("named 'snw'") && typo.err.contains("did you mean 'snow'?"))
  }

  @Test func longInputsAreCutShortInMessages() {
    let long = String(repeating: "x", count: 20_000)
    #expect(MessageText.clip(long).count <= MessageText.maximumLength + 30)
    #expect(MessageText.clip(long).contains("more characters"))
    #expect(MessageText.clip("short") == "short")
    #expect(
      MessageText.shorten("a \(long) b\nc").hasPrefix("a xxx")
        && MessageText.shorten("a \(long) b\nc").hasSuffix(" b\nc"))
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    writeText(
      #"{"format": 1, "emitterCells": [{"name": "a"}], "changes": [{"time": 1, "keyPath": "\#(long)", "value": 1}]}"#,
      to: folder + "/long.json")
    let keyPath = runSleet(["validate", folder + "/long.json"])
    #expect(keyPath.status == 2 && keyPath.err.utf8.count < 1_000, "\(keyPath.err.utf8.count) bytes")
    let value = runSleet(["transition", "frame", "--style", long, "--size", "10x10", "--time", "0"])
    #expect(value.status == 2 && value.err.utf8.count < 1_000, "\(value.err.utf8.count) bytes")
    let command = runSleet([long])
    #expect(command.status == 2 && command.err.utf8.count < 1_000, "\(command.err.utf8.count) bytes")
  }

  @Test func theRegistryTracksLiveTemporariesOnly() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let writer = try AtomicFileWriter(path: folder + "/t.bin")
    #expect(TemporaryFiles.live.contains(writer.temporaryPath))
    try writer.write([1, 2, 3])
    try writer.commit()
    #expect(!TemporaryFiles.live.contains(writer.temporaryPath))
    let dropped = try AtomicFileWriter(path: folder + "/u.bin")
    let path = dropped.temporaryPath
    dropped.discard()
    #expect(!TemporaryFiles.live.contains(path))
  }

  @Test(arguments: [SIGINT, SIGTERM])
  func aSignalRemovesTheTemporaryFile(signal: Int32) throws {
    let sleet = try #require(sleetExecutable(), "the sleet executable is not built")
    let folder = makeTemporaryFolder()
    let captures = makeTemporaryFolder()
    defer {
      removeTree(folder)
      removeTree(captures)
    }
    let path = folder + "/long.apng"
    let child = Child(
      [sleet, "render", "snow", "--size", "200x400", "--start", "45", "--duration", "120", "--out", path],
      folder: captures)
    var temporary: String?
    let deadline = ContinuousClock.now + .seconds(300)
    while temporary == nil && ContinuousClock.now < deadline {
      for name in folderEntries(folder) where FileOutput.parseTemporaryName(name)?.name == "long.apng" {
        var info = stat()
        if stat(folder + "/" + name, &info) == 0 && info.st_size > 1_000 { temporary = name }
      }
      usleep(20_000)
    }
    kill(child.pid, signal)
    let r = child.wait()
    #expect(temporary != nil, "no temporary file appeared")
    // Ended by the signal itself (status 128 + N in a shell), nothing left.
    #expect(r.termination == .signalled(signal), "\(r.termination): \(r.err)")
    #expect(folderEntries(folder).isEmpty, "\(folderEntries(folder))")
  }

  @Test func binaryOutputToATerminalNeedsForce() throws {
    let out = Mutex(""), err = Mutex("")
    var output = CommandOutput(
      standardOutput: { s in out.withLock { $0 += s } }, standardError: { s in err.withLock { $0 += s } },
      standardOutputData: { _ in })
    output.outputIsTerminal = true
    #expect(SleetCommandLine.run(["render", "snow", "--scale", "0.05", "--out", "-"], output: output) == 2)
    #expect(err.withLock { $0 }.contains("--out -: standard output is a terminal"))
    #expect(SleetCommandLine.run(["render", "snow", "--scale", "0.05", "--out", "-", "--force"], output: output) == 0)
    // A file is never refused for it.
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try PNGFile.write(DemoPicture.first.image(width: 12, height: 9), to: folder + "/a.png")
    for command in [["transition", "render", "--style", "fade"], ["shatter", "render"]] {
      let words = command + ["--from", folder + "/a.png", "--to", folder + "/a.png", "--out", "-"]
      #expect(SleetCommandLine.run(words, output: output) == 2, "\(command)")
      #expect(SleetCommandLine.run(words + ["--force"], output: output) == 0, "\(command)")
    }
    #expect(
      SleetCommandLine.run(["render", "snow", "--scale", "0.05", "--out", folder + "/s.png"], output: output) == 0)
  }

  /// The real process on a pseudo-terminal (util-linux's `script`).
  @Test func theExecutableChecksItsOwnStandardOutput() throws {
    let sleet = try #require(sleetExecutable(), "the sleet executable is not built")
    guard access("/usr/bin/script", X_OK) == 0 else { return }
    let captures = makeTemporaryFolder()
    defer { removeTree(captures) }
    let refused = runChild(
      ["/usr/bin/script", "-qec", "\(sleet) render snow --scale 0.05 --out -", "/dev/null"], folder: captures)
    #expect(refused.termination == .exited(2), "\(refused.termination)")
    #expect(String(decoding: refused.out, as: UTF8.self).contains("standard output is a terminal"))
    let piped = runChild([sleet, "render", "snow", "--scale", "0.05", "--out", "-"], folder: captures)
    #expect(piped.termination == .exited(0) && piped.out.starts(with: [0x89, 0x50, 0x4E, 0x47]))
  }

  @Test func summariesPrintRoundedNumbers() {
    #expect(roundedText(0.452_345_6, places: 3) == "0.452")
    #expect(roundedText(812.345_678, places: 1) == "812.3")
    #expect(roundedText(120.000_01, places: 1) == "120")
    #expect(roundedText(-0.000_01, places: 3) == "0")
    #expect(roundedText(1.5e9, places: 1) == numberText(1.5e9))
  }

  @Test func infoNamesTheGPUDeviceOrWhyThereIsNone() throws {
    let r = runSleet(["info"])
    #expect(r.status == 0)
    let line = try #require(r.out.split(separator: "\n").first { $0.hasPrefix("GPU (--gpu): ") })
    do throws(GPUError) {
      let context = try GPUContext()
      #expect(line == "GPU (--gpu): \(context.renderer), \(context.version)")
    } catch {
      #expect(line == "GPU (--gpu): none (\(error.description))")
    }
  }
}
