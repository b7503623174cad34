import Glibc
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// `--out FILE.webp` and `FILE.gif` in every render command, read back by
/// Pillow (python3-pil) and compared with the same command's PNG frames
/// (a folder output, decoded by libpng). Fails, never skips, without Pillow.
@Suite("sleet render, transition render, shatter render: WebP and GIF", .serialized)
struct AnimationFormatCommandTests {
  /// Decodes with Pillow, failing the test with the reason when it cannot.
  func decode(_ path: String) throws -> DecodedAnimation {
    if let problem = pillowProblem() { Issue.record(Comment(rawValue: problem)) }
    switch pillowDecode(path) {
    case .success(let animation): return animation
    case .failure(let failure): throw failure
    }
  }

  /// The PNG frames a folder render wrote, in order, as straight RGBA.
  func folderFrames(_ folder: String) throws -> [[UInt8]] {
    var frames: [[UInt8]] = []
    for name in folderEntries(folder) where name.hasPrefix("frame-") {
      let bytes = try #require(fileBytes(folder + "/" + name), "\(name)")
      frames.append(try #require(libpngDecode(bytes), "\(name)").rgba)
    }
    return frames
  }

  /// For each of `count` frames at `fps`, the decoded frame shown at its
  /// start rounded to `tick` ms; checks the total duration first.
  func shownFrames(_ decoded: DecodedAnimation, count: Int, fps: Int, tick: Int) -> [Int] {
    let total = Int((Double(count) * 1000 / Double(fps) / Double(tick)).rounded()) * tick
    #expect(decoded.durations.reduce(0, +) == total, "durations \(decoded.durations)")
    return (0..<count).map { i in
      decoded.frame(atMilliseconds: Int((Double(i) * 1000 / Double(fps) / Double(tick)).rounded()) * tick)
    }
  }

  /// Two 32×24 demo pictures in `folder`: a.png and b.png.
  func writePictures(_ folder: String) throws {
    try PNGFile.write(DemoPicture.first.image(width: 32, height: 24), to: folder + "/a.png")
    try PNGFile.write(DemoPicture.second.image(width: 32, height: 24), to: folder + "/b.png")
  }

  @Test func renderWritesWebPAndGIFOfTheSameFramesAsAFolder() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-formats")
    defer { removeTree(folder) }
    let base = ["render", "likeBurst", "--size", "40x80", "--start", "0.1", "--duration", "0.6", "--fps", "10"]
    for out in ["frames/", "a.webp", "l.webp", "a.gif"] {
      let extra = out == "a.webp" ? ["--lossless"] : out == "a.gif" ? ["--dither", "none"] : []
      let r = runSleet(base + extra + ["--out", folder + "/" + out])
      #expect(r.status == 0, "\(out): \(r.err)")
    }
    let png = try folderFrames(folder + "/frames")
    #expect(png.count == 6)

    let lossless = try decode(folder + "/a.webp")
    #expect(lossless.format == "WEBP" && lossless.width == 40 && lossless.height == 80 && lossless.loop == 0)
    for (k, shown) in shownFrames(lossless, count: 6, fps: 10, tick: 1).enumerated() {
      let exact = lossless.frames[shown] == png[k]
      #expect(exact, "lossless frame \(k)")
    }

    let lossy = try decode(folder + "/l.webp")
    for (k, shown) in shownFrames(lossy, count: 6, fps: 10, tick: 1).enumerated() {
      // The mean absolute error of premultiplied samples (the tolerance is
      // argued in SleetPreviewTests' AnimationFormatTests: 8 of 255).
      var sum = 0.0
      for i in stride(from: 0, to: png[k].count, by: 4) {
        let (a, b) = (lossy.frames[shown], png[k])
        for c in 0..<3 {
          sum += abs(Double(a[i + c]) * Double(a[i + 3]) - Double(b[i + c]) * Double(b[i + 3])) / 255
        }
      }
      let mean = sum / Double(3 * png[k].count / 4)
      #expect(mean < 8, "lossy frame \(k): mean error \(mean)")
    }

    let gif = try decode(folder + "/a.gif")
    #expect(gif.format == "GIF" && gif.width == 40 && gif.height == 80 && gif.loop == 0)
    for (k, shown) in shownFrames(gif, count: 6, fps: 10, tick: 10).enumerated() {
      // Without dither each channel is within half a level step: 25.5 of
      // the 6 red and blue levels, 21.25 of the 7 green ones (+ ½ for the
      // levels' rounding); the frames are opaque (black background).
      let bounds = [26, 22, 26, 0]
      var worst = 0
      for i in png[k].indices {
        let d = abs(Int(gif.frames[shown][i]) - Int(png[k][i]))
        worst = Swift.max(worst, d - bounds[i % 4])
      }
      #expect(worst <= 0, "gif frame \(k): \(worst) past the bound")
    }
  }

  @Test func transitionAndShatterRenderWriteWebPAndGIF() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-formats")
    defer { removeTree(folder) }
    try writePictures(folder)
    let pictures = ["--from", folder + "/a.png", "--to", folder + "/b.png", "--fps", "20"]
    var r = runSleet(["transition", "render", "--style", "fade"] + pictures + ["--out", folder + "/fade/"])
    #expect(r.status == 0, "\(r.err)")
    r = runSleet(
      ["transition", "render", "--style", "fade"] + pictures + ["--out", folder + "/fade.webp", "--lossless"])
    #expect(r.status == 0, "\(r.err)")
    let frames = try folderFrames(folder + "/fade")
    let webp = try decode(folder + "/fade.webp")
    for (k, shown) in shownFrames(webp, count: frames.count, fps: 20, tick: 1).enumerated() {
      let exact = webp.frames[shown] == frames[k]
      #expect(exact, "fade frame \(k)")
    }

    r = runSleet(["shatter", "render", "--style", "explode"] + pictures + ["--out", folder + "/explode/"])
    #expect(r.status == 0, "\(r.err)")
    r = runSleet(["shatter", "render", "--style", "explode"] + pictures + ["--out", folder + "/explode.gif"])
    #expect(r.status == 0, "\(r.err)")
    let pieces = try folderFrames(folder + "/explode")
    let gif = try decode(folder + "/explode.gif")
    // 20 fps: every delay is 5 cs, and the frames add up to the animation.
    #expect(gif.durations.allSatisfy { $0 % 50 == 0 }, "\(gif.durations)")
    let shown = shownFrames(gif, count: pieces.count, fps: 20, tick: 10)
    // With the ordered dither each sample is within a level step (51 or
    // 42.5, + ½); the pictures are opaque.
    for (k, index) in shown.enumerated() {
      let bounds = [52, 43, 52, 0]
      let within = pieces[k].indices.allSatisfy {
        abs(Int(gif.frames[index][$0]) - Int(pieces[k][$0])) <= bounds[$0 % 4]
      }
      #expect(within, "explode frame \(k)")
    }
  }

  @Test func standardOutputTakesTheSameBytesAsAFile() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-formats")
    defer { removeTree(folder) }
    try writePictures(folder)
    let render = ["render", "likeBurst", "--size", "30x40", "--duration", "0.3", "--fps", "10"]
    let transition = [
      "transition", "render", "--style", "slide", "--from", folder + "/a.png", "--to", folder + "/b.png", "--fps", "10",
    ]
    for (arguments, format) in [(render, "webp"), (render, "gif"), (transition, "webp"), (transition, "gif")] {
      let file = folder + "/out." + format
      unlink(file)
      let r = runSleet(arguments + ["--out", file])
      #expect(r.status == 0, "\(r.err)")
      let piped = runSleetBinary(arguments + ["--out", format + ":-"])
      #expect(piped.status == 0, "\(piped.err)")
      #expect(piped.out.isEmpty && piped.err.contains("wrote standard output"))
      #expect(!piped.data.isEmpty && piped.data == fileBytes(file), "\(arguments[0]) \(format)")
    }
  }

  @Test func formatFlagsAreRefusedWhereTheyDoNotApply() {
    let render = ["render", "snow", "--size", "20x20"]
    let cases: [([String], String)] = [
      (
        render + ["--out", "a.apng", "--quality", "80"],
        "--quality applies to WebP output (FILE.webp or webp:-), not to APNG output"
      ),
      (
        render + ["--out", "a.gif", "--lossless"],
        "--lossless applies to WebP output (FILE.webp or webp:-), not to GIF output"
      ),
      (
        render + ["--out", "a.webp", "--dither", "none"],
        "--dither applies to GIF output (FILE.gif or gif:-), not to WebP output"
      ),
      (
        render + ["--out", "a.png", "--dither", "none"],
        "--dither applies to GIF output (FILE.gif or gif:-), not to a still PNG"
      ),
      (
        render + ["--out", "frames/", "--quality", "50"],
        "--quality applies to WebP output (FILE.webp or webp:-), not to a folder of PNG frames"
      ),
      (render + ["--out", "apng:-", "--lossless"], "--lossless applies to WebP output"),
      (render + ["--out", "a.webp", "--quality", "101"], "--quality: expected a number in [0, 100], got 101"),
      (render + ["--out", "a.gif", "--dither", "floyd"], "--dither"),
      (render + ["--out", "a.gif", "--fps", "60"], "--fps: GIF delays are whole centiseconds"),
      (render + ["--out", "a.webp", "--duration", "3600", "--fps", "240"], "864000 frames, at most 100000"),
      (
        render + ["--out", "a.tiff"],
        "expected FILE.png, FILE.apng, FILE.webp, FILE.gif, FILE.mp4, FILE.webm, FILE.mov or a folder"
      ),
      (
        [
          "transition", "render", "--style", "fade", "--from", "a.png", "--to", "b.png", "--out", "t.apng",
          "--lossless",
        ],
        "--lossless applies to WebP output"
      ),
      (
        ["shatter", "render", "--from", "a.png", "--to", "b.png", "--out", "t.webp", "--dither", "none"],
        "--dither applies to GIF output"
      ),
    ]
    for (arguments, message) in cases {
      let r = runSleet(arguments)
      #expect(r.status == 2, "\(arguments): \(r.err)")
      #expect(r.err.contains(message), "\(arguments): \(r.err)")
    }
  }

  @Test func existingOutputsNeedForceAndInputsAreNeverReplaced() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-formats")
    defer { removeTree(folder) }
    try writePictures(folder)
    let before = fileBytes(folder + "/a.png")
    for format in ["webp", "gif"] {
      let out = folder + "/t." + format
      let arguments = [
        "transition", "render", "--style", "fade", "--from", folder + "/a.png", "--to", folder + "/b.png", "--out", out,
      ]
      #expect(runSleet(arguments).status == 0)
      let existing = runSleet(arguments)
      #expect(existing.status == 2 && existing.err.contains("the file exists; give --force"), "\(existing.err)")
      #expect(runSleet(arguments + ["--force"]).status == 0)
      // An output that is an input (through a link) is refused even with --force.
      let link = folder + "/in." + format
      symlink(folder + "/a.png", link)
      var linked = arguments
      linked[linked.count - 1] = link
      let refused = runSleet(linked + ["--force"])
      #expect(refused.status == 2 && refused.err.contains("refusing to write over an input"), "\(refused.err)")
    }
    #expect(fileBytes(folder + "/a.png") == before)
    #expect(!folderEntries(folder).contains { $0.contains(".tmp-") })
  }
}
