import Foundation
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// Transitions between real screenshots: `--scale`, `--background`, the
/// default rects, and every missing input named at once
/// (docs/transitions.md, "Screenshots").
@Suite("transitions from screenshots")
struct TransitionScreenshotTests {
  /// The demo pictures at `width × height` px as `folder/NAME-a.png` and
  /// `NAME-b.png`, and the pictures.
  func pictures(
    _ folder: String, _ name: String, width: Int, height: Int
  ) throws -> (a: String, b: String, from: RGBAImage, to: RGBAImage) {
    let from = DemoPicture.first.image(width: width, height: height)
    let to = DemoPicture.second.image(width: width, height: height)
    let (a, b) = (folder + "/\(name)-a.png", folder + "/\(name)-b.png")
    try PNGFile.write(from, to: a)
    try PNGFile.write(to, to: b)
    return (a, b, from, to)
  }

  /// `sleet transition render` of a still, its exit status checked; the
  /// standard output and the picture.
  func still(_ arguments: [String], _ out: String) throws -> (out: String, image: RGBAImage) {
    let r = runSleet(["transition", "render"] + arguments + ["--out", out, "--force"])
    #expect(r.status == 0, "\(arguments): \(r.err)")
    return (r.out, try PNGFile.read(path: out))
  }

  /// The share of pixels no layer covers (alpha 0).
  func uncovered(_ image: RGBAImage) -> Double {
    let bytes = image.straightRGBA8()
    var count = 0
    for i in stride(from: 3, to: bytes.count, by: 4) where bytes[i] == 0 { count += 1 }
    return Double(count) / Double(image.pixelCount)
  }

  /// A 3× screenshot with `--scale 3` is a 390 × 844 pt container drawn at
  /// 3 px/pt: bit for bit the library's frame, and tilt3D's 280-point sheet
  /// covers the share of the picture it covers at 1×; without `--scale` the
  /// sheet is 280 of 2532 pixels and the command says to add `--scale 3`.
  @Test func aThreeTimesScreenshotWithScale3IsDrawnInPoints() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let large = try pictures(folder, "3x", width: 1170, height: 2532)
    let small = try pictures(folder, "1x", width: 390, height: 844)
    let arguments = ["--style", "tilt3D", "--progress", "1"]
    let scaled = try still(arguments + ["--from", large.a, "--to", large.b, "--scale", "3"], folder + "/s3.png")
    #expect(!scaled.out.contains("add --scale"), "\(scaled.out)")

    let transition = try Transition(style: .tilt3D, width: 390, height: 844)
    var expected = RGBAImage(width: 1170, height: 2532)
    Renderer(pixelsPerPoint: 3).render(
      transition.frame(at: transition.duration), from: large.from, to: large.to, into: &expected)
    #expect(scaled.image.straightRGBA8() == expected.straightRGBA8())

    let oneX = try still(arguments + ["--from", small.a, "--to", small.b], folder + "/s1.png")
    #expect(oneX.image.width == 390 && oneX.image.height == 844)
    #expect(abs(uncovered(scaled.image) - uncovered(oneX.image)) < 0.005)
    #expect(uncovered(scaled.image) > 0.05)

    let unscaled = try still(arguments + ["--from", large.a, "--to", large.b], folder + "/u.png")
    #expect(abs(uncovered(unscaled.image) - uncovered(oneX.image)) > 0.05)
    #expect(
      unscaled.out.contains(
        "3x-a.png is 1170×2532 px, an iPhone screenshot at 3 px/pt (390×844 pt): add --scale 3 to draw in points as iOS does"
      ), "\(unscaled.out)")
  }

  /// `--background` fills exactly the pixels no layer covers; an
  /// opaque background leaves no transparency; MP4 refuses a transparent one.
  @Test func theBackgroundFillsWhatNoLayerCovers() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let p = try pictures(folder, "p", width: 390, height: 844)
    let arguments = ["--style", "tilt3D", "--progress", "0.75", "--from", p.a, "--to", p.b]
    let bare = try still(arguments, folder + "/bare.png").image.straightRGBA8()
    let filled = try still(arguments + ["--background", "#336699"], folder + "/filled.png").image.straightRGBA8()
    var holes = 0
    for i in stride(from: 0, to: bare.count, by: 4) {
      #expect(filled[i + 3] == 255)
      if bare[i + 3] == 0 {
        holes += 1
        #expect(Array(filled[i..<i + 4]) == [0x33, 0x66, 0x99, 0xff])
      } else if bare[i + 3] == 255 {
        #expect(filled[i..<i + 4] == bare[i..<i + 4])
      }
    }
    #expect(holes > 1000)
    let mp4 = runSleet(
      ["transition", "render", "--style", "tilt3D", "--from", p.a, "--to", p.b, "--background", "#33669980"]
        + ["--out", folder + "/t.mp4"])
    #expect(mp4.status == 2 && mp4.err.contains("--background: alpha 0.502 < 1"), "\(mp4.err)")
    #expect(!FileManager.default.fileExists(atPath: folder + "/t.mp4"))
  }

  /// zoom and circleReveal without their rects use the documented defaults,
  /// name each on the output, and draw what the explicit rects draw; with
  /// `--scale 3` the defaults are the same points.
  @Test func zoomAndCircleRevealDefaultTheirRectsAndSaySo() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let p = try pictures(folder, "p", width: 390, height: 844)
    let large = try pictures(folder, "3x", width: 1170, height: 2532)
    let cases: [(style: String, explicit: [String], notes: [String])] = [
      (
        "zoom", ["--image-rect", "24,160,160,160", "--target-rect", "0,88,390,390"],
        [
          "--image-rect not given: using the default 24,160,160,160 (points",
          "--target-rect not given: using the default 0,88,390,390 (points",
        ]
      ),
      ("circleReveal", ["--button", "326,56,44,44"], ["--button not given: using the default 326,56,44,44 (points"]),
    ]
    for c in cases {
      let base = ["--style", c.style, "--progress", "0.5"]
      let defaulted = try still(base + ["--from", p.a, "--to", p.b], folder + "/d.png")
      for note in c.notes { #expect(defaulted.out.contains(note), "\(c.style): \(defaulted.out)") }
      let explicit = try still(base + ["--from", p.a, "--to", p.b] + c.explicit, folder + "/e.png")
      #expect(!explicit.out.contains("not given"), "\(explicit.out)")
      #expect(defaulted.image == explicit.image, "\(c.style)")
      let scaled = try still(base + ["--from", large.a, "--to", large.b, "--scale", "3"], folder + "/s.png")
      for note in c.notes { #expect(scaled.out.contains(note), "\(c.style) at 3×: \(scaled.out)") }
      // transition frame reports them on standard error, keeping its JSON clean.
      let frame = runSleet(["transition", "frame", "--json", "--size", "390x844"] + base)
      #expect(frame.status == 0 && frame.out.hasPrefix("{"), "\(frame.err)")
      for note in c.notes { #expect(frame.err.contains(note), "\(c.style): \(frame.err)") }
    }
  }

  /// One error names every required input that is missing.
  @Test func everyMissingInputIsNamedAtOnce() {
    let styles = "one of slide, fade, zoom, window, circleReveal, tilt3D, checkerboard, explode, glassBreak"
    let cases: [([String], String)] = [
      (
        ["transition", "render"],
        "--style, --from A.png, --to B.png and --out FILE.png|FILE.apng|DIR are required (--style: \(styles))"
      ),
      (
        ["transition", "render", "--style", "fade", "--to", "b.png"],
        "--from A.png and --out FILE.png|FILE.apng|DIR are required"
      ),
      (
        ["transition", "render", "--style", "fade", "--from", "a.png", "--to", "b.png"],
        "--out FILE.png|FILE.apng|DIR is required"
      ),
      (["shatter", "render", "--out", "o.png"], "--from A.png and --to B.png are required"),
      (
        ["transition", "frame"],
        "--style, --size WxH and --time T or --progress P are required (--style: \(styles))"
      ),
      (["transition", "frame", "--size", "390x844", "--time", "0"], "--style is required: \(styles)"),
      (["play", "--transition", "fade"], "--from A.png and --to B.png are required"),
    ]
    for (arguments, message) in cases {
      let r = runSleet(arguments)
      #expect(r.status == 2, "\(arguments)")
      #expect(r.err.contains("sleet \(arguments[0])") && r.err.contains(message), "\(arguments): \(r.err)")
    }
  }

  /// `sleet play --transition` reads `--scale` and `--background` as
  /// `transition render` does: its frame is the still's.
  @Test func playTakesScaleAndBackgroundToo() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let large = try pictures(folder, "3x", width: 1170, height: 2532)
    let options = ["--from", large.a, "--to", large.b, "--scale", "3", "--background", "#336699"]
    var arguments = Arguments(options)
    let source = try PlaySource.transition(style: .tilt3D, &arguments)
    try arguments.finish()
    let scene = try #require(try source.load(time: nil) as? TransitionPlayScene)
    #expect(scene.scene.transition.width == 390 && scene.scene.transition.height == 844)
    #expect(scene.pixelWidth == 1170 && scene.pixelHeight == 2532)
    #expect(scene.notes.isEmpty, "\(scene.notes)")
    let shown = try scene.frame(at: 0.45).image
    let rendered = try still(["--style", "tilt3D", "--time", "0.45"] + options, folder + "/t.png").image
    #expect(shown.straightRGBA8() == rendered.straightRGBA8())
  }

  /// An animation's frames reuse the memory of frames already written (a
  /// 3× frame is 47 MB): each frame of the second batch, drawn into a
  /// recycled image over the background, is the still at its time.
  @Test func recycledFramesAreTheStills() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let p = try pictures(folder, "p", width: 40, height: 300)
    let common = ["--style", "tilt3D", "--from", p.a, "--to", p.b, "--background", "#336699"]
    let r = runSleet(["transition", "render"] + common + ["--fps", "100", "--out", folder + "/frames/"])
    #expect(r.status == 0, "\(r.err)")
    let frames = folderEntries(folder + "/frames").filter { $0.hasPrefix("frame-") }.sorted()
    #expect(frames.count == 61 && RenderOutput.batchSize < 61)
    for k in [RenderOutput.batchSize, 45, 60] {
      let time = Double(k) / 100
      let still = try still(common + ["--time", "\(time)"], folder + "/still.png").image
      let frame = try PNGFile.read(path: folder + "/frames/" + frames[k])
      #expect(frame.straightRGBA8() == still.straightRGBA8(), "frame \(k)")
    }
  }

  /// A leftward pan (the right-to-left back swipe) drives pop: the frames of
  /// its mirror image, bit for bit; with push it is refused naming both
  /// flags. A recorder's extra fields are read and ignored, and said so.
  @Test func leftwardPansAndRecordedFieldsDriveATransition() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let p = try pictures(folder, "p", width: 40, height: 300)
    func gesture(_ name: String, sign: Double, extra: String = "", time: String = "time") throws -> String {
      let samples = [(0.0, 0.0), (0.05, 9.0), (0.1, 21.0), (0.15, 30.0)].map { t, x in
        "{\"\(time)\": \(t), \"translationX\": \(sign * x)\(extra)}"
      }
      let path = folder + "/\(name).json"
      try Array("{\"samples\": [\(samples.joined(separator: ", "))]}".utf8).write(to: path)
      return path
    }
    let right = try gesture("right", sign: 1)
    let left = try gesture("left", sign: -1)
    let recorded = try gesture(
      "recorded", sign: 1, extra: #", "translationY": 3, "velocityY": -20, "state": "changed""#, time: "timestamp")
    func frames(_ gesturePath: String, direction: String, _ name: String) -> (out: String, frames: [[UInt8]]) {
      let r = runSleet(
        [
          "transition", "render", "--style", "slide", "--direction", direction, "--from", p.a, "--to", p.b,
          "--gesture", gesturePath, "--fps", "100", "--out", folder + "/\(name)/",
        ])
      #expect(r.status == 0, "\(name): \(r.err)")
      let names = folderEntries(folder + "/\(name)").sorted()
      return (r.out, names.compactMap { fileBytes(folder + "/\(name)/" + $0) })
    }
    let rightward = frames(right, direction: "pop", "r")
    let leftward = frames(left, direction: "pop", "l")
    #expect(rightward.frames.count > 10 && leftward.frames == rightward.frames)
    #expect(
      leftward.out.contains(
        "gesture: a leftward pan, released at progress 0.75, velocity 180 pt/s toward completion: finishes"),
      "\(leftward.out)")
    #expect(rightward.out.contains("gesture: released at progress 0.75"), "\(rightward.out)")

    let withFields = frames(recorded, direction: "pop", "f")
    #expect(withFields.frames == rightward.frames)
    #expect(withFields.out.contains("gesture: ignored state, translationY, velocityY"), "\(withFields.out)")

    let push = runSleet(
      [
        "transition", "render", "--style", "slide", "--from", p.a, "--to", p.b, "--gesture", left, "--out",
        folder + "/push.apng",
      ])
    #expect(push.status == 2)
    #expect(
      push.err.contains(
        "--gesture \(left) with --direction push: a leftward pan (translationX < 0) drives pop or dismiss"),
      "\(push.err)")
    #expect(!FileManager.default.fileExists(atPath: folder + "/push.apng"))
  }
}
