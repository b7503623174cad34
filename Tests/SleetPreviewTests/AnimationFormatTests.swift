import Glibc
import SleetMath
import SleetParticles
import Testing
import _SleetTestSupport

@testable import SleetPreview

/// Animated WebP (libwebp) and GIF (giflib) read back by an independent
/// decoder, Pillow (python3-pil): frame timing and pixels against the frames
/// given to the encoders. The tests fail, never skip, when Pillow is
/// missing (.ci/run installs it).
@Suite("Animated WebP and GIF, decoded by Pillow", .serialized)
struct AnimationFormatTests {
  static let (width, height) = (40, 30)

  /// Frame k (0 ≤ k < 16) of a test animation in straight 8-bit RGBA:
  /// a horizontal alpha ramp (0 at the left edge, so some pixels are fully
  /// transparent) under a colour gradient, a 6×6 opaque square moving 2 px a
  /// frame, a 5×5 block at (30, 20) opaque in frames 0–3 and 8–11 and
  /// transparent in the others, and frames 12–15 equal to frame 11 (a hold).
  static func frameBytes(_ k: Int) -> [UInt8] {
    let k = Swift.min(k, 11)
    var bytes = [UInt8](repeating: 0, count: 4 * width * height)
    for y in 0..<height {
      for x in 0..<width {
        let i = 4 * (y * width + x)
        var rgba: [Int] = [6 * x + 3 * k, 8 * y, 255 - 6 * x, x == 0 ? 0 : Swift.min(255, 40 + 7 * x)]
        if (2 * k..<2 * k + 6).contains(x) && (10..<16).contains(y) { rgba = [250, 240, 20, 255] }
        if (30..<35).contains(x) && (20..<25).contains(y) {
          rgba = (k / 4) % 2 == 0 ? [20, 200, 90, 255] : [0, 0, 0, 0]
        }
        for c in 0..<4 { bytes[i + c] = UInt8(clamping: rgba[c]) }
      }
    }
    return bytes
  }

  static let frameCount = 16
  static let images = (0..<frameCount).map { RGBAImage(straightRGBA8: frameBytes($0), width: width, height: height) }
  static let delays = Array(repeating: FrameDelay(framesPerSecond: 30), count: frameCount)

  /// Decodes with Pillow, failing the test with the reason when it cannot.
  func decode(_ path: String) throws -> DecodedAnimation {
    if let problem = pillowProblem() { Issue.record(Comment(rawValue: problem)) }
    switch pillowDecode(path) {
    case .success(let animation): return animation
    case .failure(let failure): throw failure
    }
  }

  /// Checks the decoded timing against frames of 1/`fps` s: the total is
  /// the exact duration rounded to a tick, every frame starts within half a
  /// tick of an input frame's exact start, and returns, for each input
  /// frame, the decoded frame shown at its (rounded) start.
  func timing(_ decoded: DecodedAnimation, frames: Int, fps: Int, tick: Int) -> [Int] {
    let total = Int((Double(frames) * 1000 / Double(fps) / Double(tick)).rounded()) * tick
    #expect(decoded.durations.reduce(0, +) == total, "durations \(decoded.durations)")
    var start = 0
    for d in decoded.durations {
      // Starts fall on input frames' rounded starts: k·1000/fps rounded to a tick.
      let k = (Double(start) * Double(fps) / 1000).rounded()
      #expect(abs(Double(start) - k * 1000 / Double(fps)) <= Double(tick) / 2, "start \(start) ms")
      start += d
    }
    return (0..<frames).map { i in
      decoded.frame(atMilliseconds: Int((Double(i) * 1000 / Double(fps) / Double(tick)).rounded()) * tick)
    }
  }

  @Test func webpLosslessDecodesToEveryFrameExactly() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-webp")
    defer { removeTree(folder) }
    let path = folder + "/a.webp"
    let writer = try WebPFileWriter(
      path: path, width: Self.width, height: Self.height, options: WebPAnimationOptions(isLossless: true))
    for range in [0..<5, 5..<6, 6..<16] {
      try writer.append(contentsOf: Array(Self.images[range]), delays: Array(Self.delays[range]))
    }
    try writer.finish()
    #expect(folderEntries(folder) == ["a.webp"])
    let decoded = try decode(path)
    #expect(decoded.format == "WEBP" && decoded.width == Self.width && decoded.height == Self.height)
    #expect(decoded.loop == 0)
    // The hold (frames 11–15) is one frame of 5 × 1/30 s.
    #expect(decoded.durations.count == 12, "\(decoded.durations)")
    let shown = timing(decoded, frames: Self.frameCount, fps: 30, tick: 1)
    for k in 0..<Self.frameCount {
      let exact = decoded.frames[shown[k]] == Self.images[k].straightRGBA8()
      #expect(exact, "frame \(k)")
    }
  }

  /// 12 opaque frames of 64×64 px sliding 4 px a frame across a demo
  /// picture: the kind of content lossy WebP is for.
  static let slidingFrames: [RGBAImage] = {
    let picture = DemoPicture.first.image(width: 112, height: 64)
    return (0..<12).map { k in
      var frame = RGBAImage(width: 64, height: 64)
      for y in 0..<64 { for x in 0..<64 { frame[x, y] = picture[x + 4 * k, y] } }
      return frame
    }
  }()

  @Test func webpLossyStaysCloseToEveryFrame() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-webp")
    defer { removeTree(folder) }
    let frames = Self.slidingFrames
    let encoder = WebPAnimationEncoder(width: 64, height: 64, options: WebPAnimationOptions(quality: 90))
    try encoder.append(contentsOf: frames, delays: Array(repeating: FrameDelay(framesPerSecond: 30), count: 12))
    try FileOutput.atomicWrite(try encoder.finish(), to: folder + "/a.webp")
    let decoded = try decode(folder + "/a.webp")
    let shown = timing(decoded, frames: 12, fps: 30, tick: 1)
    for k in 0..<12 {
      let expected = frames[k].straightRGBA8()
      let error = premultipliedError(decoded.frames[shown[k]], expected)
      // Lossy WebP is YUV 4:2:0 (a chroma sample per 2×2 pixels), so single
      // pixels at colour edges can be far off: the bound is on the mean
      // absolute error of the premultiplied channels, 8 (3 % of full
      // scale). At quality 90 it measures 3.2–3.6 here (libwebp 1.2.4),
      // while the frame one step (4 px) away is 23–26 off: the bound
      // leaves room for other libwebp versions and still fails a wrong or
      // shifted frame, as the second expectation shows.
      #expect(error.mean < 8, "frame \(k): mean error \(error.mean)")
      let neighbour = premultipliedError(decoded.frames[shown[k]], frames[k < 11 ? k + 1 : k - 1].straightRGBA8())
      #expect(neighbour.mean > 8, "frame \(k): the next frame is only \(neighbour.mean) away")
      #expect(error.alphaExact, "frame \(k)")
    }
  }

  /// The mean absolute difference of the premultiplied colour channels
  /// (colour under alpha 0 does not matter), and whether alpha is equal.
  func premultipliedError(_ a: [UInt8], _ b: [UInt8]) -> (mean: Double, alphaExact: Bool) {
    var sum = 0.0
    var alphaExact = true
    for i in stride(from: 0, to: a.count, by: 4) {
      if a[i + 3] != b[i + 3] { alphaExact = false }
      for c in 0..<3 {
        sum += abs(Double(a[i + c]) * Double(a[i + 3]) - Double(b[i + c]) * Double(b[i + 3])) / 255
      }
    }
    return (sum / Double(3 * a.count / 4), alphaExact)
  }

  /// Encodes the test frames as GIF through ``GIFFileWriter`` in batches.
  func gif(_ dither: GIFDither, in folder: String) throws -> DecodedAnimation {
    let path = folder + "/a.gif"
    let writer = try GIFFileWriter(path: path, width: Self.width, height: Self.height, dither: dither)
    for range in [0..<3, 3..<9, 9..<16] {
      try writer.append(contentsOf: Array(Self.images[range]), delays: Array(Self.delays[range]))
    }
    try writer.finish()
    return try decode(path)
  }

  /// The level values a channel can take: ⌊255·l/(n−1) + ½⌋.
  static func levels(_ n: Int) -> [Int] { (0..<n).map { (510 * $0 + n - 1) / (2 * (n - 1)) } }

  @Test func gifWithoutDitherMapsEachPixelToANearestLevel() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-gif")
    defer { removeTree(folder) }
    let decoded = try gif(.none, in: folder)
    #expect(decoded.format == "GIF" && decoded.loop == 0)
    #expect(decoded.durations.count == 12, "\(decoded.durations)")
    let shown = timing(decoded, frames: Self.frameCount, fps: 30, tick: 10)
    let channelLevels = [Self.levels(6), Self.levels(7), Self.levels(6)]
    for k in 0..<Self.frameCount {
      let expected = Self.images[k].straightRGBA8()
      let got = decoded.frames[shown[k]]
      var wrong = 0
      for i in stride(from: 0, to: got.count, by: 4) {
        // Straight alpha < 128 is transparent; any other pixel is opaque.
        if expected[i + 3] < 128 {
          if got[i + 3] != 0 { wrong += 1 }
          continue
        }
        if got[i + 3] != 255 { wrong += 1 }
        for c in 0..<3 {
          let v = Int(expected[i + c])
          let nearest = channelLevels[c].map { abs($0 - v) }.min()!
          if abs(Int(got[i + c]) - v) != nearest { wrong += 1 }
        }
      }
      #expect(wrong == 0, "frame \(k): \(wrong) wrong samples")
    }
  }

  @Test func gifOrderedDitherKeepsEveryBlocksAverage() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-gif")
    defer { removeTree(folder) }
    // Flat 8×8 blocks of colours between the levels, aligned with the
    // Bayer matrix, each opaque.
    let (w, h) = (64, 16)
    var bytes = [UInt8](repeating: 255, count: 4 * w * h)
    func colour(_ bx: Int, _ by: Int) -> [Int] { [13 + 29 * bx + 3 * by, 200 - 23 * bx, 7 + 31 * by + 11 * bx] }
    for y in 0..<h {
      for x in 0..<w {
        let c = colour(x / 8, y / 8)
        for j in 0..<3 { bytes[4 * (y * w + x) + j] = UInt8(c[j]) }
      }
    }
    let image = RGBAImage(straightRGBA8: bytes, width: w, height: h)
    let writer = try GIFFileWriter(path: folder + "/b.gif", width: w, height: h, dither: .ordered)
    try writer.append(contentsOf: [image], delays: [FrameDelay(framesPerSecond: 10)])
    try writer.finish()
    let decoded = try decode(folder + "/b.gif")
    let got = try #require(decoded.frames.first)
    let steps = [51.0, 42.5, 51.0]
    for by in 0..<h / 8 {
      for bx in 0..<w / 8 {
        var sums = [0.0, 0.0, 0.0]
        for y in 8 * by..<8 * by + 8 {
          for x in 8 * bx..<8 * bx + 8 {
            for c in 0..<3 {
              let v = Double(got[4 * (y * w + x) + c])
              // Each pixel within one level step (+ the levels' rounding).
              #expect(abs(v - Double(colour(bx, by)[c])) <= steps[c] + 0.5)
              sums[c] += v
            }
          }
        }
        for c in 0..<3 {
          // The block's mean: 64 thresholds split a step into 64ths, so
          // the fraction of pixels rounded up is within 1/128 of exact
          // (step/128 ≤ 0.4) and the levels are rounded (≤ 0.5): ≤ 0.9.
          let error = abs(sums[c] / 64 - Double(colour(bx, by)[c]))
          #expect(error <= 0.9, "block (\(bx), \(by)) channel \(c): mean off by \(error)")
        }
      }
    }
  }

  @Test func gifDelaysAreWholeCentisecondsAddingUpExactly() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-gif")
    defer { removeTree(folder) }
    // Ten different frames at 30 fps: starts at 0, 3.33, 6.67, 10, … cs
    // rounded: delays 3, 4, 3, 3, 4, 3, 3, 4, 3, 3 cs; 33 cs in all.
    let writer = try GIFFileWriter(path: folder + "/t.gif", width: 8, height: 8)
    let frames = (0..<10).map { RGBAImage(width: 8, height: 8, fill: SIMD4(Float($0) / 10, 0.5, 0.2, 1)) }
    try writer.append(contentsOf: frames, delays: Array(repeating: FrameDelay(framesPerSecond: 30), count: 10))
    try writer.finish()
    let decoded = try decode(folder + "/t.gif")
    #expect(decoded.durations == [30, 40, 30, 30, 40, 30, 30, 40, 30, 30])
    var ticks = _AnimationTicks(ticksPerSecond: 100)
    #expect(
      (0..<10).map { _ in ticks.advance(by: FrameDelay(framesPerSecond: 30)) }.map { $0.end - $0.start }
        == [3, 4, 3, 3, 4, 3, 3, 4, 3, 3])
    // Milliseconds at 16 fps: 62.5 ms rounds half away from zero.
    var ms = _AnimationTicks(ticksPerSecond: 1000)
    #expect((0..<4).map { _ in ms.advance(by: FrameDelay(framesPerSecond: 16)).end } == [63, 125, 188, 250])
  }

  @Test func gifFileGrowsAsFramesArriveAndAppearsOnlyWhenFinished() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-gif")
    defer { removeTree(folder) }
    let writer = try GIFFileWriter(path: folder + "/s.gif", width: Self.width, height: Self.height)
    var sizes: [Int] = []
    for range in [0..<4, 4..<8, 8..<11] {
      try writer.append(contentsOf: Array(Self.images[range]), delays: Array(Self.delays[range]))
      sizes.append(fileBytes(writer.temporaryPath)?.count ?? 0)
      #expect(!folderEntries(folder).contains("s.gif"))
    }
    // Each batch's frames (but the last, held for its successor) are on disk.
    #expect(sizes[0] > 800 && sizes[1] > sizes[0] && sizes[2] > sizes[1], "\(sizes)")
    try writer.finish()
    #expect(folderEntries(folder) == ["s.gif"])
    // A discarded writer leaves nothing.
    let dropped = try GIFFileWriter(path: folder + "/d.gif", width: 4, height: 4)
    try dropped.append(contentsOf: [RGBAImage(width: 4, height: 4)], delays: [FrameDelay(framesPerSecond: 1)])
    dropped.discard()
    let webp = try WebPFileWriter(path: folder + "/d.webp", width: 4, height: 4)
    webp.discard()
    #expect(folderEntries(folder) == ["s.gif"])
  }

  @Test func gifCanvasSurvivesTransparencyAndLooping() throws {
    // Everything transparent, then opaque, then transparent again: the
    // disposal must clear what the frame before drew, including on the
    // way from the last frame back to the first.
    let folder = makeTemporaryFolder(prefix: "sleet-gif")
    defer { removeTree(folder) }
    let clear = RGBAImage(width: 6, height: 5)
    let full = RGBAImage(width: 6, height: 5, fill: SIMD4(1, 1, 1, 1))
    var half = clear
    for y in 0..<5 { for x in 0..<3 { half[x, y] = SIMD4(0, 0, 1, 1) } }
    let writer = try GIFFileWriter(path: folder + "/c.gif", width: 6, height: 5)
    let frames = [clear, full, half, clear, full]
    try writer.append(contentsOf: frames, delays: Array(repeating: FrameDelay(framesPerSecond: 10), count: 5))
    try writer.finish()
    let decoded = try decode(folder + "/c.gif")
    #expect(decoded.frames.count == 5)
    for (k, frame) in frames.enumerated() where k < decoded.frames.count {
      let expected = frame.straightRGBA8()
      let alphaMatches = stride(from: 3, to: expected.count, by: 4).allSatisfy {
        decoded.frames[k][$0] == expected[$0]
      }
      #expect(alphaMatches, "frame \(k)")
    }
  }
}
