import Glibc
import SleetKit
import Synchronization
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// An APNG's chunk types in order, its `acTL` frame count and its `fcTL`
/// delays (numerator, denominator); nil when the bytes are not a PNG.
func apngSummary(_ bytes: [UInt8]) -> (types: [String], frames: Int, delays: [(UInt16, UInt16)])? {
  guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
  func u32(_ i: Int) -> Int {
    Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
  }
  func u16(_ i: Int) -> UInt16 { UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]) }
  var types: [String] = []
  var frames = 0
  var delays: [(UInt16, UInt16)] = []
  var i = 8
  while i + 12 <= bytes.count {
    let length = u32(i)
    let type = String(decoding: bytes[i + 4..<i + 8], as: UTF8.self)
    types.append(type)
    if type == "acTL" { frames = u32(i + 8) }
    if type == "fcTL" { delays.append((u16(i + 8 + 20), u16(i + 8 + 22))) }
    i += 12 + length
  }
  return i == bytes.count ? (types, frames, delays) : nil
}

@Suite("sleet render and sleet shatter render")
struct RenderCommandTests {
  @Test func stillIsAPNGOfTheScaledSize() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let r = runSleet([
      "render", "confetti", "--size", "100x80", "--scale", "0.5", "--time", "3", "--out", folder + "/still.png",
    ])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out.contains("50×40 px, 1 frame"))
    let image = try PNGFile.read(path: folder + "/still.png")
    #expect(image.width == 50 && image.height == 40)
    // Confetti over opaque black: every pixel opaque, some coloured.
    let bytes = image.straightRGBA8()
    #expect(stride(from: 3, to: bytes.count, by: 4).allSatisfy { bytes[$0] == 255 })
    #expect(stride(from: 0, to: bytes.count, by: 4).contains { bytes[$0] > 0 || bytes[$0 + 1] > 0 })
    #expect(folderEntries(folder) == ["still.png"])
  }

  @Test func backgroundFormsAgreeAndFillTheFrame() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    // likeBurst at t = 5 has no live particles: the frame is the background.
    for (name, value) in [("hex", "#3366ccff"), ("list", "0.2,0.4,0.8,1")] {
      let r = runSleet([
        "render", "likeBurst", "--size", "20x10", "--time", "5", "--background", value, "--out",
        "\(folder)/\(name).png",
      ])
      #expect(r.status == 0, "\(r.err)")
    }
    let hex = try PNGFile.read(path: folder + "/hex.png").straightRGBA8()
    let list = try PNGFile.read(path: folder + "/list.png").straightRGBA8()
    #expect(hex == list)
    #expect(Array(hex[0..<4]) == [0x33, 0x66, 0xCC, 0xFF])
  }

  @Test func animationHasOneFrameControlPerFrameAndExactDelays() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let path = folder + "/snow.apng"
    let r = runSleet([
      "render", "snow", "--size", "60x40", "--duration", "1.5", "--fps", "10", "--start", "30", "--seed", "4",
      "--out", path,
    ])
    #expect(r.status == 0, "\(r.err)")
    let bytes = try #require(fileBytes(path))
    let summary = try #require(apngSummary(bytes))
    #expect(summary.frames == 15)
    #expect(summary.types.filter { $0 == "fcTL" }.count == 15)
    #expect(summary.types.filter { $0 == "fdAT" }.count == 14)
    #expect(summary.types.first == "IHDR" && summary.types.last == "IEND")
    #expect(summary.delays.allSatisfy { $0 == (1, 10) })
    // The first frame (IDAT) is a plain PNG for viewers without APNG support.
    let first = try PNGFile.read(path: path)
    #expect(first.width == 60 && first.height == 40)
  }

  @Test func folderGetsNumberedFramesEqualToTheStills() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let r = runSleet([
      "render", "fireworks", "--size", "50x90", "--scale", "0.5", "--duration", "0.5", "--fps", "8", "--start", "3",
      "--out", folder + "/frames/",
    ])
    #expect(r.status == 0, "\(r.err)")
    let names = folderEntries(folder + "/frames")
    #expect(names == (0..<4).map { "frame-000\($0).png" })
    // Frame 2 is t = 3.25: the same pixels as a still rendered on its own
    // (frames are rendered in parallel by independent simulations).
    let still = runSleet([
      "render", "fireworks", "--size", "50x90", "--scale", "0.5", "--time", "3.25", "--out", folder + "/still.png",
    ])
    #expect(still.status == 0)
    let frame = try PNGFile.read(path: folder + "/frames/frame-0002.png")
    #expect(frame.straightRGBA8() == (try PNGFile.read(path: folder + "/still.png")).straightRGBA8())
  }

  @Test func badArgumentsAreUsageErrorsNamingTheFlag() {
    let cases: [([String], String)] = [
      (["render", "snow"], "--out"),
      (["render", "--out", "/tmp/x.png"], "missing the effect"),
      // An extension no format has: refused before anything is rendered or
      // written.
      (["render", "snow", "--out", "/tmp/x.jpg"], "--out /tmp/x.jpg: expected FILE.png"),
      (["render", "snow", "--out", "/tmp/x.png", "--size", "0x10"], "--size"),
      (["render", "snow", "--out", "/tmp/x.png", "--size", "10000x10000"], "--size × --scale"),
      (["render", "snow", "--out", "/tmp/x.png", "--scale", "-1"], "--scale"),
      (["render", "snow", "--out", "/tmp/x.apng", "--fps", "0"], "--fps: expected an integer in 1…240"),
      (["render", "snow", "--out", "/tmp/x.apng", "--duration", "-2"], "--duration: expected seconds in (0, 3600]"),
      (
        ["render", "snow", "--out", "/tmp/x.apng", "--duration", "3600", "--fps", "30"],
        "--duration × --fps: 108000 frames, at most 100000"
      ),
      (
        ["render", "snow", "--out", "/tmp/sleet-no-such-frames/", "--duration", "3600", "--fps", "30"],
        "--duration × --fps: 108000 frames, at most 100000"
      ),
      (["render", "snow", "--out", "/tmp/x.png", "--background", "#12"], "--background"),
      (["render", "snow", "--out", "/tmp/x.png", "--background", "1,2,3"], "--background"),
      (["render", "snow", "--out", "/tmp/x.png", "--seed", "-1"], "--seed"),
      (["render", "snwo", "--out", "/tmp/x.png"], "did you mean 'snow'"),
      (["render", "snow", "--out", "/nonexistent-sleet/dir/"], "--out /nonexistent-sleet/dir"),
      (["render", "snow", "--out", "/tmp/x.png", "--bogus"], "unknown option --bogus"),
    ]
    for (arguments, message) in cases {
      let r = runSleet(arguments)
      #expect(r.status == 2, "\(arguments)")
      #expect(r.err.contains(message), "\(arguments): \(r.err)")
    }
  }

  @Test func sizeIsParsedAndWordedTheSameByRenderAndShatter() throws {
    #expect(try SizeOption.parse("390x844", maximum: 1000) == (390, 844))
    #expect(try SizeOption.parse("2.5×4", maximum: 1000) == (2.5, 4))
    #expect(try SizeOption.parse("1000X1", maximum: 1000) == (1000, 1))
    for bad in ["0x4", "4", "4x4x4", "nanx4", "infx4", "1001x1", "4x", "-1x4"] {
      #expect(
        throws: CommandError.usage(
          "--size: expected WxH in points, each side a finite number in (0, 1000] (for example 390x844), got '\(bad)'"
        )
      ) { try SizeOption.parse(bad, maximum: 1000) }
    }
    let message =
      "--size: expected WxH in points, each side a finite number in (0, 100000] (for example 390x844), got '0x9'"
    let render = runSleet(["render", "snow", "--size", "0x9", "--out", "/tmp/x.png"])
    let shatter = runSleet(["shatter", "plan", "--size", "0x9"])
    #expect(render.status == 2 && render.err.contains(message))
    #expect(shatter.status == 2 && shatter.err.contains(message))
  }

  @Test func progressGoesToStderrOnlyOnATerminal() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let arguments = [
      "render", "sparkle", "--size", "20x20", "--duration", "2", "--fps", "20", "--out", folder + "/s.apng",
    ]
    // Not a terminal: nothing on stderr, even with no delay before the line.
    let quiet = runSleet(arguments, terminal: false, progressDelay: 0)
    #expect(quiet.status == 0 && quiet.err.isEmpty)
    // A terminal, drawn every millisecond from the start: lines that end
    // with the summary.
    let shown = runSleet(arguments + ["--force"], terminal: true, progressDelay: 0)
    #expect(shown.status == 0)
    #expect(shown.err.hasPrefix("\rrender: frame 0/40 (0 %), 0.0 s elapsed\u{1B}[K"), "\(shown.err)")
    #expect(shown.err.contains("\rrender: 40 frames in "))
    #expect(shown.err.hasSuffix(" s\u{1B}[K\n"))
    #expect(shown.out.hasPrefix("wrote \(folder)/s.apng"))
  }

  @Test func aMissingOutputFolderIsRefusedBeforeRendering() {
    let r = runSleet(["render", "snow", "--size", "10x10", "--out", "/nonexistent-sleet/x.png"])
    #expect(r.status == 2)
    #expect(r.err.contains("--out /nonexistent-sleet/x.png: the folder /nonexistent-sleet does not exist"))
  }

  @Test func anEffectOverTheParticleBudgetIsAUsageError() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    var cell = EmitterCell(name: "flood")
    cell.birthRate = 10_000_000
    cell.lifetime = 1
    let json = try Effect(emitter: Emitter(emitterCells: [cell])).jsonString()
    let f = fopen(folder + "/flood.json", "w")
    fputs(json, f)
    fclose(f)
    let r = runSleet(["render", folder + "/flood.json", "--size", "10x10", "--out", folder + "/x.png"])
    #expect(r.status == 2)
    #expect(r.err.contains("over the budget of 4000000"), "\(r.err)")
    #expect(folderEntries(folder) == ["flood.json"])
  }

  @Test func everyRenderCommandHasHelp() {
    for command in [["render"], ["shatter", "render"], ["demo"]] {
      let r = runSleet(command + ["--help"])
      #expect(r.status == 0)
      #expect(r.out.hasPrefix("usage: sleet " + command.joined(separator: " ")))
    }
  }

  // MARK: - shatter render

  /// Writes the two demo pictures at `width × height` into `folder`.
  func writePictures(_ folder: String, width: Int = 40, height: Int = 30) throws {
    try PNGFile.write(DemoPicture.first.image(width: width, height: height), to: folder + "/a.png")
    try PNGFile.write(DemoPicture.second.image(width: width, height: height), to: folder + "/b.png")
  }

  @Test func shatterStillsMatchThePictures() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try writePictures(folder)
    let a = try PNGFile.read(path: folder + "/a.png").straightRGBA8()
    let b = try PNGFile.read(path: folder + "/b.png").straightRGBA8()
    func still(_ time: String, _ extra: [String] = []) throws -> [UInt8] {
      let r = runSleet(
        [
          "shatter", "render", "--from", folder + "/a.png", "--to", folder + "/b.png", "--time", time,
          "--out", folder + "/still.png", "--force",
        ] + extra)
      #expect(r.status == 0, "\(r.err)")
      return try PNGFile.read(path: folder + "/still.png").straightRGBA8()
    }
    #expect(try still("0") == a)
    #expect(try still("10") == b)
    #expect(try still("10", ["--direction", "pop"]) == b)
    let middle = try still("1.2")
    #expect(middle != a && middle != b)
    // Seeded styles: same seed, same bytes; another seed, other bytes.
    let explode = try still("0.3", ["--style", "explode", "--seed", "5"])
    #expect(try still("0.3", ["--style", "explode", "--seed", "5"]) == explode)
    #expect(try still("0.3", ["--style", "explode", "--seed", "6"]) != explode)
  }

  @Test func shatterAnimationCoversTheTransition() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try writePictures(folder)
    let path = folder + "/t.apng"
    let r = runSleet([
      "shatter", "render", "--from", folder + "/a.png", "--to", folder + "/b.png", "--style", "glassBreak",
      "--fps", "12", "--hold", "0.25", "--out", path,
    ])
    #expect(r.status == 0, "\(r.err)")
    let transition = ShatterTransition(style: .glassBreak, width: 40, height: 30)
    let expected = Int(((transition.endTime + 0.25) * 12).rounded(.up)) + 1
    let bytes = try #require(fileBytes(path))
    let summary = try #require(apngSummary(bytes))
    #expect(summary.frames == expected)
    #expect(summary.delays.count == expected)
    // Frame 0 is the from picture.
    #expect(try PNGFile.read(path: path).straightRGBA8() == (try PNGFile.read(path: folder + "/a.png")).straightRGBA8())
    let frames = runSleet([
      "shatter", "render", "--from", folder + "/a.png", "--to", folder + "/b.png", "--fps", "4",
      "--out", folder + "/frames",
    ])
    #expect(frames.status == 0, "\(frames.err)")
    #expect(
      folderEntries(folder + "/frames").count == Int((CheckerboardPlan(width: 40, height: 30).endTime * 4).rounded(.up))
        + 1)
  }

  @Test func shatterInputErrorsNameTheFlag() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try writePictures(folder)
    try PNGFile.write(DemoPicture.second.image(width: 41, height: 30), to: folder + "/wide.png")
    let base = ["shatter", "render", "--out", folder + "/o.apng"]
    let cases: [([String], String)] = [
      (base + ["--to", folder + "/b.png"], "--from A.png is required"),
      (base + ["--from", folder + "/a.png"], "--to B.png is required"),
      (
        base + ["--from", folder + "/missing.png", "--to", folder + "/b.png"],
        "--from: cannot read \(folder)/missing.png"
      ),
      (base + ["--from", folder + "/a.png", "--to", folder + "/wide.png"], "--from and --to must have the same size"),
      (base + ["--from", folder + "/a.png", "--to", folder + "/b.png", "--style", "melt"], "--style"),
      (base + ["--from", folder + "/a.png", "--to", folder + "/b.png", "--direction", "up"], "--direction"),
    ]
    for (arguments, message) in cases {
      let r = runSleet(arguments)
      #expect(r.status == 2, "\(arguments)")
      #expect(r.err.contains(message), "\(arguments): \(r.err)")
    }
    // Not a PNG: libpng's reason, with the flag.
    _ = runSleet(["render", "likeBurst", "--size", "4x4", "--time", "9", "--out", folder + "/ok.png"])
    let text = folder + "/text.png"
    #expect(rename(folder + "/ok.png", text) == 0)
    let f = fopen(text, "w")
    fputs("not a png", f)
    fclose(f)
    let r = runSleet(base + ["--from", text, "--to", folder + "/b.png"])
    #expect(r.status == 2)
    #expect(r.err.contains("--from: \(text) is not a PNG image (it does not start with the PNG signature)"))
    // A header claiming 20000×20000 px: refused (exit 2) before decoding.
    var huge = try #require(fileBytes(folder + "/a.png"))
    for (offset, value) in [(16, UInt32(20000)), (20, 20000)] {
      for i in 0..<4 { huge[offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(i))) }
    }
    let crc = referenceCRC32(huge[12..<29])
    for i in 0..<4 { huge[29 + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(i))) }
    let out = fopen(folder + "/huge.png", "wb")
    #expect(fwrite(huge, 1, huge.count, out) == huge.count)
    fclose(out)
    let tooBig = runSleet(base + ["--from", folder + "/huge.png", "--to", folder + "/b.png"])
    #expect(tooBig.status == 2)
    #expect(
      tooBig.err.contains(
        "--from: invalid image \(folder)/huge.png: the image is 20000×20000 px: at most 8192 px a side and 33554432 px in all"
      ))
  }
}
