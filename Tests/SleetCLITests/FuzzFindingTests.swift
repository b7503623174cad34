import Foundation
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// Bugs the fuzzer found in the `sleet` commands (docs/reliability.md), each
/// with the input that showed it.
@Suite("fuzz findings: sleet")
struct CLIFuzzFindingTests {
  /// Fuzz/regressions/gesture/crash-b63664c6…: `transition render
  /// --gesture` trapped converting the frame count of a gesture spanning
  /// 1.261·10⁴² s to `Int`; a span of 10⁶ s made 30 million clocks before
  /// the frame limit refused them. Both are refused from the frame count,
  /// before any clock is made.
  @Test func aGestureTooLongToRenderIsAUsageError() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try PNGFile.write(DemoPicture.first.image(width: 40, height: 30), to: folder + "/a.png")
    try PNGFile.write(DemoPicture.second.image(width: 40, height: 30), to: folder + "/b.png")
    let render = [
      "transition", "render", "--style", "slide", "--from", folder + "/a.png", "--to", folder + "/b.png", "--out",
      folder + "/o.apng", "--gesture",
    ]
    try Array(#"{"samples": [{"time": 0, "translationX": 200}, {"time": 1261e39, "translationX":50}]}"#.utf8)
      .write(to: folder + "/forever.json")
    let forever = runSleet(render + [folder + "/forever.json"])
    #expect(forever.status == 2)
    #expect(
      forever.err.contains("--gesture × --fps: the gesture lasts 1.261e+42 s, too long to render"), "\(forever.err)")
    try Array(#"{"samples": [{"time": 0, "translationX": 0}, {"time": 1e6, "translationX": 30}]}"#.utf8)
      .write(to: folder + "/day.json")
    let day = runSleet(render + [folder + "/day.json"])
    #expect(day.status == 2)
    #expect(day.err.contains("--gesture × --fps: 30000"), "\(day.err)")
    #expect(day.err.contains("frames, at most 100000"), "\(day.err)")
    #expect(!folderEntries(folder).contains("o.apng"))
  }

  /// Fuzz/regressions/cli/crash-ba50e2fe…: `sleet validate t`, with `t` a
  /// valid effect file in the working folder, crashed: the effect reader
  /// found the file's folder with Foundation's
  /// `NSString.deletingLastPathComponent`, which traps on any one-character
  /// relative path in Swift 6.3.1. Run as a child process in the file's
  /// folder (a relative path needs a working folder; the test process's own
  /// is shared by every test).
  @Test func aOneLetterEffectFileNameIsRead() throws {
    let sleet = try #require(
      sleetExecutable(), "the sleet executable is not beside the test bundle: build the package first")
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let sprite = #"{"format": 1, "emitterCells": [{"name": "s", "birthRate": 5, "lifetime": 1, "contents": "s.png"}]}"#
    try PNGFile.write(RGBAImage(width: 2, height: 2, fill: SIMD4(1, 1, 1, 1)), to: folder + "/s.png")
    for name in ["t", "é"] {
      try Array(sprite.utf8).write(to: folder + "/" + name)
      let validate = runChild([sleet, "validate", name], folder: folder, workingFolder: folder)
      #expect(validate.termination == .exited(0), "\(name): \(validate.err)")
      // The sprite resolves against the file's folder (here `.`).
      #expect(String(decoding: validate.out, as: UTF8.self).contains("sprites: ./s.png (2×2 px)"), "\(name)")
    }
  }
}
