import Foundation
import Glibc
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// A file of the repository, from this file's path.
func repositoryPath(_ relative: String, file: String = #filePath) -> String {
  var parts = file.split(separator: "/", omittingEmptySubsequences: false)
  parts.removeLast(3)  // Tests/SleetCLITests/<file>.swift
  return parts.joined(separator: "/") + "/" + relative
}

/// The whole text file, or "" when it cannot be read.
func textFile(_ path: String) -> String {
  String(decoding: fileBytes(path) ?? [], as: UTF8.self)
}

/// Writes `text` to `path`.
func writeText(_ text: String, to path: String) {
  let f = fopen(path, "w")
  fputs(text, f)
  fclose(f)
}

/// How many pixels of a PNG differ from its first pixel (the background).
func pixelsUnlikeTheBackground(_ path: String) throws -> Int {
  let bytes = try PNGFile.read(path: path).straightRGBA8()
  var n = 0
  for i in stride(from: 0, to: bytes.count, by: 4) where bytes[i..<i + 4] != bytes[0..<4] { n += 1 }
  return n
}

/// Without --time, a still shows the effect in full
/// swing, by one rule that render and demo share (docs/rendering.md,
/// "Default times").
@Suite("default times")
struct DefaultTimesTests {
  @Test func everyPresetHasTheDocumentedTimes() throws {
    let expected: [String: (PreviewTimes.Kind, Double, Double, Double)] = [
      "snow": (.steady, 60, 60, 3),
      "rain": (.steady, 1.8, 1.8, 3),
      "confetti": (.steady, 7, 7, 3),
      "fireworks": (.steady, 4, 4, 3),
      "likeBurst": (.burst, 0.5, 0, 1.5),
      "sparkle": (.steady, 1.6, 1.6, 3),
      "celebration": (.burst, 3, 0, 9),
      "invisibleInk": (.steady, 2, 2, 3),
      "leaves": (.steady, 15, 15, 3),
    ]
    #expect(Set(expected.keys) == Set(Effect.presetNames))
    for (name, (kind, still, start, duration)) in expected {
      let times = try Effect.preset(named: name).previewTimes
      #expect(
        times == PreviewTimes(kind: kind, still: still, start: start, duration: duration), "\(name): \(times)")
    }
    // The documented table has the same numbers.
    let docs = textFile(repositoryPath("docs/rendering.md"))
    for row in [
      "| snow | steady (lifetime 10 ± 50 s) | 60 s | 60–63 s |",
      "| likeBurst | burst (one 0.1 s window, hearts live up to 1.4 s) | 0.5 s | 0–1.5 s |",
      "| fireworks | steady (rocket 1.6 s, then sparks up to 3.95 s after its launch) | 4 s | 4–7 s |",
    ] {
      #expect(docs.contains(row), "\(row)")
    }
  }

  @Test func theRuleFollowsWindowsChangesLifetimesAndTheLayerClock() throws {
    func times(_ json: String) throws -> PreviewTimes { try Effect(json: json).previewTimes }
    // Nothing born: empty.
    #expect(try times(#"{"format": 1}"#) == PreviewTimes(kind: .empty, still: 0, start: 0, duration: 3))
    #expect(
      try times(#"{"format": 1, "emitterCells": [{"birthRate": 0, "lifetime": 3}]}"#).kind == .empty)
    // Steady from beginTime + the longest lifetime (2 + 1/2), in tenths up.
    #expect(
      try times(
        #"{"format": 1, "emitterCells": [{"birthRate": 5, "lifetime": 2, "lifetimeRange": 1, "beginTime": 1}]}"#)
        == PreviewTimes(kind: .steady, still: 3.5, start: 3.5, duration: 3))
    // A sub-cell that emits until its parent dies lengthens L: 1 + 0.5.
    #expect(
      try times(
        #"{"format": 1, "emitterCells": [{"birthRate": 5, "lifetime": 1, "emitterCells": [{"birthRate": 3, "lifetime": 0.5}]}]}"#
      ).still == 1.5)
    // A burst: one 0.2 s window, lifetime 1: from 0 to 1.2, still at 0.4.
    #expect(
      try times(#"{"format": 1, "emitterCells": [{"birthRate": 50, "lifetime": 1, "duration": 0.2}]}"#)
        == PreviewTimes(kind: .burst, still: 0.4, start: 0, duration: 1.2))
    // A change that stops the emission early makes a burst too.
    #expect(
      try times(
        #"{"format": 1, "emitterCells": [{"name": "a", "birthRate": 5, "lifetime": 4}], "changes": [{"time": 1, "keyPath": "emitterCells.a.birthRate", "value": 0}]}"#
      ) == PreviewTimes(kind: .burst, still: 1.7, start: 0, duration: 5))
    // The layer's clock: twice as fast halves the times; beginTime shifts them.
    #expect(
      try times(#"{"format": 1, "speed": 2, "beginTime": 1, "emitterCells": [{"birthRate": 5, "lifetime": 4}]}"#)
        .still == 3)
  }

  @Test func aStillWithoutTimeIsInFullSwingAndEqualsTheDefaultTime() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let defaulted = runSleet(["render", "snow", "--size", "120x260", "--scale", "0.5", "--out", folder + "/d.png"])
    #expect(defaulted.status == 0, "\(defaulted.err)")
    let explicit = runSleet([
      "render", "snow", "--size", "120x260", "--scale", "0.5", "--time", "60", "--out", folder + "/t.png",
    ])
    #expect(explicit.status == 0)
    #expect(
      try PNGFile.read(path: folder + "/d.png").straightRGBA8() == PNGFile.read(path: folder + "/t.png").straightRGBA8()
    )
    // At 2 s the layer is still black: the flakes have not reached it.
    _ = runSleet(["render", "snow", "--size", "120x260", "--scale", "0.5", "--time", "2", "--out", folder + "/2.png"])
    #expect(try pixelsUnlikeTheBackground(folder + "/2.png") == 0)
    // At 60 s flakes are all over: in the top and the bottom half.
    let image = try PNGFile.read(path: folder + "/d.png").straightRGBA8()
    let half = image.count / 2
    #expect(stride(from: 0, to: half, by: 4).contains { image[$0] > 0 })
    #expect(stride(from: half, to: image.count, by: 4).contains { image[$0] > 0 })
    // Every preset shows something at its default time.
    for name in Effect.presetNames {
      let r = runSleet(["render", name, "--size", "100x200", "--scale", "0.5", "--out", folder + "/\(name).png"])
      #expect(r.status == 0, "\(name): \(r.err)")
      #expect(try pixelsUnlikeTheBackground(folder + "/\(name).png") > 10, "\(name)")
    }
  }

  @Test func anAnimationWithoutStartBeginsAtTheDefaultStart() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let r = runSleet(["render", "likeBurst", "--size", "60x60", "--fps", "10", "--out", folder + "/frames"])
    #expect(r.status == 0, "\(r.err)")
    #expect(folderEntries(folder + "/frames").count == 15)  // 0…1.5 s at 10 fps
    let animation = runSleet(["render", "snow", "--size", "60x60", "--fps", "2", "--out", folder + "/frames2"])
    #expect(animation.status == 0)
    _ = runSleet(["render", "snow", "--size", "60x60", "--time", "60.5", "--out", folder + "/still.png"])
    // Frame 1 of snow is t = 60 + 1/2.
    #expect(
      try PNGFile.read(path: folder + "/frames2/frame-0001.png").straightRGBA8()
        == PNGFile.read(path: folder + "/still.png").straightRGBA8())
  }

  @Test func demoUsesTheSameTimesAsRender() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let demo = runSleet(["demo", "--scale", "0.1", "--fps", "4", "--only", "snow,likeBurst", "--out", folder + "/demo"])
    #expect(demo.status == 0, "\(demo.err)")
    for name in ["snow", "likeBurst"] {
      let render = runSleet([
        "render", name, "--scale", "0.1", "--fps", "4", "--out", folder + "/\(name).apng",
      ])
      #expect(render.status == 0, "\(render.err)")
      let a = try #require(fileBytes(folder + "/demo/\(name).apng"))
      let b = try #require(fileBytes(folder + "/\(name).apng"))
      #expect(apngSummary(a)?.frames == apngSummary(b)?.frames, "\(name)")
      // The first frame (the default image) is the same picture.
      #expect(
        try PNGFile.read(path: folder + "/demo/\(name).apng").straightRGBA8()
          == PNGFile.read(path: folder + "/\(name).apng").straightRGBA8(), "\(name)")
    }
  }

  /// The example of docs/effect-format.md does what its summary and the
  /// text under it say: snow falls, and after 8 s none is born.
  @Test func theEffectFormatExampleShowsWhatItSays() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let docs = textFile(repositoryPath("docs/effect-format.md"))
    let section = try #require(docs.range(of: "## A complete example"))
    let rest = docs[section.upperBound...]
    let open = try #require(rest.range(of: "```json\n"))
    let close = try #require(rest[open.upperBound...].range(of: "```"))
    writeText(String(rest[open.upperBound..<close.lowerBound]), to: folder + "/example.json")
    let validate = runSleet(["validate", folder + "/example.json"])
    #expect(validate.status == 0, "\(validate.err)")
    #expect(validate.out.contains("default times (burst): still at 22.7 s"))
    #expect(docs.contains("flakes falling (the default time: 22.7 s)"))
    let snowing = runSleet(["render", folder + "/example.json", "--out", folder + "/snowing.png"])
    #expect(snowing.status == 0, "\(snowing.err)")
    #expect(try pixelsUnlikeTheBackground(folder + "/snowing.png") > 100)
    let stopped = runSleet(["render", folder + "/example.json", "--time", "70", "--out", folder + "/stopped.png"])
    #expect(stopped.status == 0)
    #expect(try pixelsUnlikeTheBackground(folder + "/stopped.png") == 0)
    // The picture in the docs is this render (at half scale).
    let half = runSleet(["render", folder + "/example.json", "--scale", "0.5", "--out", folder + "/half.png"])
    #expect(half.status == 0)
    #expect(
      try PNGFile.read(path: folder + "/half.png").straightRGBA8()
        == PNGFile.read(path: repositoryPath("docs/images/effect-example.png")).straightRGBA8())
  }
}
