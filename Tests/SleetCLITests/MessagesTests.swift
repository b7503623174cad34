import Foundation
import Glibc
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// Messages name the right thing, flags a combination
/// would ignore are errors, and odd numbers are refused with a reason.
@Suite("messages and refused combinations")
struct MessagesTests {
  /// Expects exit status 2 and `message` on stderr, and nothing written.
  func expectUsageError(_ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let r = runSleet(arguments)
    #expect(r.status == 2, "\(arguments): \(r.err)", sourceLocation: sourceLocation)
    #expect(r.err.contains(message), "\(arguments): \(r.err)", sourceLocation: sourceLocation)
    #expect(r.out.isEmpty, "\(arguments)", sourceLocation: sourceLocation)
  }

  @Test func theEffectOfRenderIsNotCalledEffect() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let preset = runSleet(["render", "snwo", "--out", folder + "/s.png"])
    #expect(preset.err.hasPrefix("sleet render: no preset named 'snwo'"), "\(preset.err)")
    writeText(#"{"format": 1, "emitterCells": [{"birthRate": -3}]}"#, to: folder + "/bad.json")
    let file = runSleet(["render", folder + "/bad.json", "--out", folder + "/s.png"])
    #expect(file.err.hasPrefix("sleet render: \(folder)/bad.json: emitterCells[0].birthRate"), "\(file.err)")
    for r in [preset, file] { #expect(!r.err.contains("--effect")) }
    // particles has an --effect option, and keeps naming it.
    #expect(runSleet(["particles", "dump", "--effect", "snwo", "--time", "1"]).err.contains("--effect snwo:"))
  }

  @Test func anOptionGivenTwiceIsSaidToBeGivenTwice() {
    expectUsageError(
      ["render", "snow", "--out", "a.png", "--out", "b.png"], "--out given twice ('a.png' and 'b.png'); give it once")
    expectUsageError(["shatter", "plan", "--size", "10x10", "--json", "--json"], "--json given twice")
    expectUsageError(["render", "snow", "--out=a.png", "--seed", "1", "--seed=2"], "--seed given twice")
    expectUsageError(
      ["presets", "export", "snow", "--parameter", "width=3", "--parameter", "width=4"], "--parameter width given twice"
    )
    expectUsageError(["presets", "export", "snow", "--width", "3", "--parameter", "width=4"], "the width is set twice")
    // --parameter is repeatable for different names.
    let r = runSleet(["presets", "export", "fireworks", "--parameter", "width=300", "--parameter", "height=500"])
    #expect(r.status == 0, "\(r.err)")
  }

  @Test func unknownOptionsComeBeforeMissingOnes() {
    expectUsageError(
      ["render", "snow", "-o", "a.png"], "unknown option -o; sleet's options are long (--name): did you mean --out?")
    expectUsageError(["render", "snow", "--ot", "a.png"], "unknown option --ot (did you mean --out?)")
    expectUsageError(["transition", "render", "--styel", "fade"], "unknown option --styel (did you mean --style?)")
    expectUsageError(
      ["shatter", "plan", "-s", "10x10"], "unknown option -s; sleet's options are long (--name): did you mean --size?")
    expectUsageError(["info", "--bogus=3"], "unknown option --bogus")
    // Not a "required" message for any of them.
    for arguments in [["render", "snow", "-o", "a.png"], ["shatter", "plan", "-s", "10x10"]] {
      #expect(!runSleet(arguments).err.contains("required"))
    }
    // Values that look like options are values: negative numbers, and '-'.
    #expect(!runSleet(["render", "snow", "--out", "a.png", "--time", "-1"]).err.contains("unknown option"))
  }

  /// Every option a command's help documents is one it accepts: none is
  /// reported unknown (the check before running trusts the help).
  @Test func everyDocumentedOptionIsAccepted() {
    for command in SleetCommandLine.commands {
      #expect(!command.optionNames.isEmpty || command.path == ["info"] || command.path == ["presets", "list"])
      for name in command.optionNames.sorted() {
        // A value no option accepts, and that no output could be written to.
        let r = runSleet(command.path + ["--\(name)=/nonexistent-sleet-folder/x"])
        #expect(!r.err.contains("unknown option --\(name)"), "\(command.path) --\(name): \(r.err)")
      }
    }
    #expect(
      RenderCommand.optionNames == [
        "out", "force", "gpu", "seed", "duration", "fps", "start", "time", "size", "scale", "background", "frames",
        "shard", "quality", "lossless", "dither", "crf", "preset", "quiet", "yes",
      ])
    #expect(ShatterRenderCommand.optionNames == TransitionRenderCommand.optionNames)
  }

  @Test func divisorErrorsNameTheDivisor() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try PNGFile.write(DemoPicture.first.image(width: 40, height: 30), to: folder + "/a.png")
    for command in [["transition", "render", "--style", "checkerboard"], ["shatter", "render"]] {
      let r = runSleet(
        command + [
          "--from", folder + "/a.png", "--to", folder + "/a.png", "--divisor", "2049", "--out", folder + "/t.png",
        ])
      #expect(r.status == 2 && r.err.contains(": --divisor: divisor 2049 gives a tile side"), "\(r.err)")
      #expect(!r.err.contains("--from"))
    }
    expectUsageError(
      ["shatter", "plan", "--size", "390x844", "--divisor", "2049"], "shatter plan: --divisor: divisor 2049")
    expectUsageError(
      ["shatter", "frame", "--size", "3000x3000", "--time", "0", "--style", "glassBreak", "--divisor", "2049"],
      "shatter frame: --divisor: 4198401 tiles exceed the limit")
  }

  @Test func anEmptyOrForeignPNGIsSaidToBeSo() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try PNGFile.write(DemoPicture.first.image(width: 8, height: 8), to: folder + "/a.png")
    writeText("", to: folder + "/empty.png")
    writeText("GIF89a", to: folder + "/gif.png")
    let base = ["transition", "render", "--style", "fade", "--to", folder + "/a.png", "--out", folder + "/t.png"]
    expectUsageError(
      base + ["--from", folder + "/empty.png"], "--from: \(folder)/empty.png is empty (0 bytes), not a PNG image")
    expectUsageError(
      base + ["--from", folder + "/gif.png"],
      "--from: \(folder)/gif.png is not a PNG image (it does not start with the PNG signature)")
    for name in ["empty.png", "gif.png"] {
      #expect(!runSleet(base + ["--from", folder + "/" + name]).err.contains("png_image"))
    }
  }

  /// No message carries a control character (a PNG read as JSON printed its
  /// first byte, U+0089, invisibly).
  @Test func messagesHaveNoInvisibleCharacters() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try PNGFile.write(DemoPicture.first.image(width: 8, height: 8), to: folder + "/a.png")
    writeText("{\"format\": 1, \"summary\": \"a\\\u{01}\"}", to: folder + "/escape.json")
    let png = runSleet(["validate", folder + "/a.png"])
    #expect(png.err.contains("invalid JSON at line 1, column 1: unexpected byte 0x89, expected a value"), "\(png.err)")
    let escape = runSleet(["validate", folder + "/escape.json"])
    #expect(escape.err.contains("invalid escape: '\\' followed by byte 0x01"), "\(escape.err)")
    for r in [png, escape, runSleet(["render", folder + "/a.png", "--out", folder + "/x.png"])] {
      let invisible = r.err.unicodeScalars.filter {
        ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
      }
      #expect(invisible.isEmpty, "\(r.err.debugDescription)")
    }
    // A printable character is still quoted as one.
    writeText(#"{"format": 1, "summary": "a\qb"}"#, to: folder + "/q.json")
    #expect(runSleet(["validate", folder + "/q.json"]).err.contains("invalid escape '\\q'"))
  }

  @Test func flagsTheOutputWouldIgnoreAreErrors() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try PNGFile.write(DemoPicture.first.image(width: 8, height: 8), to: folder + "/a.png")
    // render: a still takes --time; an animation --start, --duration, --fps.
    expectUsageError(
      ["render", "snow", "--out", "s.apng", "--time", "3"], "--time chooses a still's time: use it with FILE.png")
    expectUsageError(["render", "snow", "--out", "frames/", "--time", "3"], "--time chooses a still's time")
    for flag in ["--duration", "--start", "--fps"] {
      expectUsageError(
        ["render", "snow", "--out", "s.png", flag, "2"], "\(flag) applies to animations (FILE.apng or a folder)")
    }
    // transition render: the same rule, and what it already refused.
    let t = ["transition", "render", "--style", "fade", "--from", folder + "/a.png", "--to", folder + "/a.png"]
    expectUsageError(t + ["--out", folder + "/t.png", "--fps", "10"], "--fps applies to animations")
    expectUsageError(t + ["--out", folder + "/t.apng", "--time", "0.1"], "--time and --progress choose a still's time")
    expectUsageError(t + ["--out", folder + "/t.png", "--hold", "1"], "--hold applies to animations")
    expectUsageError(
      t + ["--out", folder + "/t.apng", "--completion-speed", "2"], "--completion-speed applies only with --gesture")
    #expect(folderEntries(folder) == ["a.png"])
    // shatter frame: as transition frame refuses them.
    expectUsageError(
      ["shatter", "frame", "--size", "40x40", "--time", "0", "--seed", "1"],
      "--seed: seed does not apply to checkerboard")
    expectUsageError(
      ["shatter", "frame", "--size", "40x40", "--time", "0", "--style", "explode", "--direction", "pop"],
      "--direction: explode does not take the direction pop; it takes push")
    expectUsageError(
      ["transition", "frame", "--style", "checkerboard", "--size", "40x40", "--time", "0", "--seed", "1"],
      "--seed: seed does not apply to checkerboard")
    #expect(
      runSleet(["shatter", "frame", "--size", "40x40", "--time", "0", "--style", "explode", "--seed", "1"]).status == 0)
  }

  @Test func negativeTimesAndVanishingScalesAreRefusedWithAReason() {
    expectUsageError(
      ["render", "snow", "--out", "s.png", "--time", "-1"],
      "--time: expected seconds ≥ 0 (the effect starts at 0; nothing is alive before), got -1")
    expectUsageError(["render", "snow", "--out", "s.apng", "--start", "-0.5"], "--start: expected seconds ≥ 0")
    expectUsageError(["particles", "dump", "--effect", "snow", "--time", "-1"], "--time: expected seconds ≥ 0")
    expectUsageError(
      ["shatter", "frame", "--size", "40x40", "--time", "-1"],
      "--time: expected seconds ≥ 0 (the transition starts at 0), got -1")
    expectUsageError(
      ["render", "snow", "--out", "s.png", "--scale", "1e-9"],
      "--size × --scale: 390×844 pt at 1e-09 px/pt is less than 1 px on a side; each side must be at least 1 px")
    expectUsageError(
      ["render", "snow", "--out", "s.png", "--size", "10x10", "--scale", "0.05"], "less than 1 px on a side")
    expectUsageError(["demo", "--scale", "0.001"], "--scale: 390×844 pt at 0.001 px/pt is less than 1 px")
    // One pixel is enough.
    #expect(
      runSleet(["render", "likeBurst", "--out", "/tmp/sleet-one-px.png", "--size", "10x10", "--scale", "0.1"]).status
        == 0)
    unlink("/tmp/sleet-one-px.png")
  }
}
