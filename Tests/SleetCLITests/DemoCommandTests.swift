import Glibc
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

@Suite("sleet demo")
struct DemoCommandTests {
  @Test func writesAnAnimationAndASheetPerEffectAndAnIndex() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let out = folder + "/demo"
    let r = runSleet(["demo", "--out", out, "--scale", "0.1", "--fps", "4"])
    #expect(r.status == 0, "\(r.err)")
    let names = Effect.presetNames + TransitionStyle.allCases.flatMap { [$0.rawValue, $0.rawValue + "-interactive"] }
    var expected = ["index.html"]
    for name in names { expected += [name + ".apng", name + ".webp", name + ".mp4", name + "-sheet.png"] }
    #expect(folderEntries(out) == expected.sorted())
    #expect(r.out.contains("demo: \(names.count) effects, 39×85 px at 4 fps"))
    let html = String(decoding: try #require(fileBytes(out + "/index.html")), as: UTF8.self)
    #expect(html.contains("<title>SleetKit demo</title>"))
    for name in names {
      #expect(r.out.contains("wrote \(out)/\(name).apng"))
      #expect(html.contains("<strong>\(name)</strong>"))
      // The page shows the smaller of the two files and says so.
      let apngSize = try #require(fileBytes("\(out)/\(name).apng")).count
      let webpSize = try #require(fileBytes("\(out)/\(name).webp")).count
      let (shown, other) =
        webpSize < apngSize
        ? (("webp", "WebP", webpSize), ("apng", "APNG", apngSize))
        : (("apng", "APNG", apngSize), ("webp", "WebP", webpSize))
      let mp4Size = try #require(fileBytes("\(out)/\(name).mp4")).count
      #expect(html.contains("<img class=\"animation\" src=\"\(name).\(shown.0)\""), "\(name)")
      #expect(
        html.contains(
          "Shown: <a href=\"\(name).\(shown.0)\">\(shown.1)</a>, \(shown.2) bytes (<a href=\"\(name).\(other.0)\">\(other.1)</a>: \(other.2) bytes; <a class=\"video\" href=\"\(name).mp4\">MP4 video</a>: \(mp4Size) bytes)"
        ), "\(name)")
      let bytes = try #require(fileBytes("\(out)/\(name).apng"), "\(name)")
      let summary = try #require(apngSummary(bytes), "\(name)")
      #expect(summary.frames >= 2 && summary.delays.allSatisfy { $0 == (1, 4) }, "\(name)")
      // The MP4 holds the same frames at 4 fps, its odd sides stored one pixel larger.
      let video = try probeVideo("\(out)/\(name).mp4", folder: folder).get()
      #expect(video.frameCount == summary.frames && video["r_frame_rate"] == "4/1", "\(name)")
      #expect(video["width"] == "40" && video["height"] == "86", "\(name)")
      let first = try PNGFile.read(path: "\(out)/\(name).apng")
      #expect(first.width == 39 && first.height == 85)
      let sheet = try PNGFile.read(path: "\(out)/\(name)-sheet.png")
      #expect(sheet.width > 4 * 39 && sheet.height > 2 * 85, "\(name)")
    }
    // The checkerboard's first frame is the first demo picture.
    let checkerboard = try PNGFile.read(path: out + "/checkerboard.apng")
    let isFirstPicture = checkerboard.straightRGBA8() == DemoPicture.first.image(width: 39, height: 85).straightRGBA8()
    #expect(isFirstPicture)
  }

  @Test func onlySelectsEffects() {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let r = runSleet(["demo", "--out", folder, "--scale", "0.1", "--fps", "2", "--only", "likeBurst,explode"])
    #expect(r.status == 0, "\(r.err)")
    #expect(
      folderEntries(folder) == [
        "explode-interactive-sheet.png", "explode-interactive.apng", "explode-interactive.mp4",
        "explode-interactive.webp", "explode-sheet.png", "explode.apng", "explode.mp4", "explode.webp", "index.html",
        "likeBurst-sheet.png", "likeBurst.apng", "likeBurst.mp4", "likeBurst.webp",
      ])
  }

  /// The command the page shows under each animation makes exactly the file
  /// the page shows (a preset: `sleet render`; a transition: `sleet demo
  /// --only`), and the parameters are listed.
  @Test func pageCommandsRemakeTheShownFilesByteForByte() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let demo = folder + "/demo"
    let r = runSleet(["demo", "--out", demo, "--scale", "0.1", "--fps", "4", "--only", "confetti,fade"])
    #expect(r.status == 0, "\(r.err)")
    let html = String(decoding: try #require(fileBytes(demo + "/index.html")), as: UTF8.self)
    for name in ["confetti", "fade", "fade-interactive"] {
      let figure = try #require(html.range(of: "<figure id=\"\(name)\">"), "\(name)")
      let rest = html[figure.upperBound...]
      let code = try #require(rest.range(of: "<p class=\"command\"><code>"))
      let end = try #require(rest.range(of: "</code>", range: code.upperBound..<rest.endIndex))
      let command = String(rest[code.upperBound..<end.lowerBound])
      let words = command.split(separator: " ").map(String.init)
      #expect(words.first == "sleet", "\(command)")
      let src = try #require(rest.range(of: "src=\""))
      let file = String(rest[src.upperBound...].prefix { $0 != "\"" })
      let again = folder + "/again-\(name)"
      mkdir(again, 0o755)
      var arguments = Array(words.dropFirst())
      if let out = arguments.firstIndex(of: "--out") {
        arguments[out + 1] = again + "/" + arguments[out + 1]
      } else {
        arguments += ["--out", again]
      }
      let remade = runSleet(arguments)
      #expect(remade.status == 0, "\(command): \(remade.err)")
      #expect(fileBytes(again + "/" + file) == fileBytes(demo + "/" + file), "\(command) → \(file)")
      let parameters = try #require(rest.range(of: "<dl class=\"parameters\">"))
      #expect(parameters.lowerBound < end.lowerBound)
    }
    #expect(html.contains("<dt>seed</dt><dd>"))
    #expect(html.contains("<dt>style</dt><dd>fade</dd>"))
  }

  @Test func badOptionsAreUsageErrors() {
    let cases: [([String], String)] = [
      (["demo", "--only", "snow,smoke"], "--only: no preset or transition style named 'smoke'"),
      (["demo", "--scale", "0"], "--scale"),
      (["demo", "--fps", "1000"], "--fps"),
      (["demo", "--out", "/nonexistent-sleet/demo"], "--out /nonexistent-sleet/demo"),
    ]
    for (arguments, message) in cases {
      let r = runSleet(arguments)
      #expect(r.status == 2, "\(arguments)")
      #expect(r.err.contains(message), "\(arguments): \(r.err)")
    }
  }

  @Test func sheetIndicesSpreadOverTheFrames() {
    #expect(DemoCommand.sheetIndices(count: 1) == [0])
    #expect(DemoCommand.sheetIndices(count: 3) == [0, 1, 2])
    let picks = DemoCommand.sheetIndices(count: 80)
    #expect(picks.count == 8 && picks.first == 0 && picks.last == 79)
    #expect(zip(picks, picks.dropFirst()).allSatisfy { $0 < $1 })
  }

  @Test func htmlEscapesCaptions() {
    #expect(DemoCommand.escape("a<b & \"c\">") == "a&lt;b &amp; &quot;c&quot;&gt;")
  }
}

@Suite("README")
struct ReadmeTourTests {
  /// The "A short tour" snippet of README.md, verbatim except that it writes
  /// into a temporary folder: it must compile against the real API and run.
  @Test func shortTourRuns() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }

    // The snow of the reference article, for a 390-point-wide screen.
    let snow = try Effect.preset(named: "snow", parameters: ["width": 390])
    let system = try ParticleSystem(effect: snow)
    var frame = ParticleFrame()
    system.seek(to: 45)  // any time; costs only the particles alive then
    system.render(into: &frame)  // reuse the frame every tick (advance(to:) steps)
    for particle in frame.instances { _ = (particle.x, particle.y, particle.scale, particle.color) }

    // Apple's checkerboard transition for a 390×844 container.
    let plan = CheckerboardPlan(width: 390, height: 844, direction: .push)
    print(plan.endTime)  // 2.892… s: 10×22 tiles of 39 pt
    let transition = ShatterTransition(CheckerboardTransition(plan: plan))
    let pieces = transition.frame(at: 1.2)  // per tile: corners, face, opacity, depth

    // Draw both with the preview renderer and write PNGs.
    let renderer = Renderer(pixelsPerPoint: 1)
    var image = RGBAImage(width: 390, height: 844, background: .black)
    try renderer.render(frame, into: &image, sprites: SpriteLibrary(pixelsPerPoint: 1))
    try PNGFile.write(image, to: folder + "/snow.png")
    renderer.render(
      pieces, from: DemoPicture.first.image(width: 390, height: 844),
      to: DemoPicture.second.image(width: 390, height: 844), into: &image)
    try PNGFile.write(image, to: folder + "/checkerboard.png")

    // What the comments claim.
    #expect(!frame.instances.isEmpty)
    #expect(abs(plan.endTime - 2.8925) < 1e-4 && plan.columns == 10 && plan.rows == 22 && plan.slice == 39)
    #expect(pieces.count == 220)
    #expect(folderEntries(folder) == ["checkerboard.png", "snow.png"])
    #expect(try PNGFile.read(path: folder + "/snow.png").width == 390)
  }
}
