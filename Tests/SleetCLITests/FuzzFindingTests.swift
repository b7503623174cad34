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
  /// the frame limit refused them. Both are refused from the count now.
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
}
