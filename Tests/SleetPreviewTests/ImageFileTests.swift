import CPNG
import Glibc
import SleetMath
import Testing
import _SleetTestSupport

@testable import SleetPreview

@Suite("PNG and APNG files")
struct ImageFileTests {
  /// Random straight RGBA bytes; about a quarter of the pixels fully transparent.
  func randomRGBA(width: Int, height: Int, seed: UInt64) -> [UInt8] {
    var random = TestRandom(state: seed)
    var bytes: [UInt8] = []
    for _ in 0..<(width * height) {
      let transparent = random.next() % 4 == 0
      bytes += transparent ? [0, 0, 0, 0] : [random.byte(), random.byte(), random.byte(), max(1, random.byte())]
    }
    return bytes
  }

  @Test func pngRoundTripIsExactThroughLibpng() throws {
    let rgba = randomRGBA(width: 23, height: 17, seed: 5)
    let image = RGBAImage(straightRGBA8: rgba, width: 23, height: 17)
    #expect(image.straightRGBA8() == rgba)
    let decoded = try #require(libpngDecode(PNGFile.encode(image)))
    #expect(decoded.width == 23 && decoded.height == 17)
    #expect(decoded.rgba == rgba)

    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try PNGFile.write(image, to: folder + "/round.png")
    #expect(folderEntries(folder) == ["round.png"])
    #expect(try PNGFile.read(path: folder + "/round.png") == image)
  }

  @Test func quantizationClampsAndRounds() {
    var image = RGBAImage(width: 3, height: 1)
    image[0, 0] = SIMD4(2, -1, 0.5, 1)  // out-of-range colour
    image[1, 0] = SIMD4(0.25, 0.25, 0.25, 0.5)  // premultiplied grey 0.5 at half alpha
    image[2, 0] = SIMD4(0.3, 0.3, 0.3, 0)  // no coverage
    #expect(image.straightRGBA8() == [255, 0, 128, 255, 128, 128, 128, 128, 0, 0, 0, 0])
  }

  @Test func apngStructureDelaysSequenceNumbersAndCRCs() throws {
    let frames = (0..<3).map { randomOpaqueImage(width: 9, height: 6, seed: UInt64(10 + $0)) }
    let delays = [
      FrameDelay(framesPerSecond: 30), FrameDelay(numerator: 1, denominator: 10),
      FrameDelay(numerator: 7, denominator: 100),
    ]
    var encoder = APNGEncoder(width: 9, height: 6, loopCount: 2)
    encoder.append(frames[0], delay: delays[0])
    encoder.append(contentsOf: Array(frames[1...]), delays: Array(delays[1...]))
    #expect(encoder.frameCount == 3 && encoder.delays == delays)
    let bytes = encoder.encoded()
    let chunks = try #require(parseChunks(bytes))
    #expect(chunks.allSatisfy { $0.crcIsValid })
    #expect(chunks.map(\.type) == ["IHDR", "sRGB", "acTL", "fcTL", "IDAT", "fcTL", "fdAT", "fcTL", "fdAT", "IEND"])
    // acTL: 3 frames, 2 plays.
    let actl = chunks[2].data[...]
    #expect(bigEndian32(actl[0..<4]) == 3 && bigEndian32(actl[4..<8]) == 2)
    // fcTL/fdAT sequence numbers 0…4 in file order; full-canvas regions; delays.
    let sequenced = chunks.filter { $0.type == "fcTL" || $0.type == "fdAT" }
    #expect(sequenced.map { bigEndian32($0.data[0..<4]) } == [0, 1, 2, 3, 4])
    let controls = chunks.filter { $0.type == "fcTL" }
    for (control, delay) in zip(controls, delays) {
      let d = control.data[...]
      #expect(d.count == 26)
      #expect(bigEndian32(d[4..<8]) == 9 && bigEndian32(d[8..<12]) == 6)
      #expect(bigEndian32(d[12..<16]) == 0 && bigEndian32(d[16..<20]) == 0)
      #expect(bigEndian16(d[20..<22]) == delay.numerator && bigEndian16(d[22..<24]) == delay.denominator)
      #expect(d[24] == 0 && d[25] == 0)
    }
    // libpng shows the default image: frame 0.
    let first = try #require(libpngDecode(bytes))
    #expect(first.rgba == frames[0].straightRGBA8())
    // Every other frame decodes with libpng when its fdAT payload is put into
    // a plain PNG as IDAT.
    let header = chunks[0]
    for (k, chunk) in chunks.filter({ $0.type == "fdAT" }).enumerated() {
      var png: [UInt8] = _PNG.signature
      _PNG.appendChunk("IHDR", header.data, to: &png)
      _PNG.appendChunk("IDAT", Array(chunk.data[4...]), to: &png)
      _PNG.appendChunk("IEND", [], to: &png)
      let decoded = try #require(libpngDecode(png))
      #expect(decoded.rgba == frames[k + 1].straightRGBA8(), "frame \(k + 1)")
    }
  }

  @Test func parallelAppendEncodesTheSameBytesAsSequentialAppend() {
    let frames = (0..<5).map { randomOpaqueImage(width: 7, height: 5, seed: UInt64(40 + $0)) }
    let delays = (1...5).map { FrameDelay(numerator: UInt16($0), denominator: 60) }
    var sequential = APNGEncoder(width: 7, height: 5, loopCount: 1, compressionLevel: 9)
    for (frame, delay) in zip(frames, delays) { sequential.append(frame, delay: delay) }
    var parallel = APNGEncoder(width: 7, height: 5, loopCount: 1, compressionLevel: 9)
    parallel.append(contentsOf: frames, delays: delays)
    #expect(parallel.encoded() == sequential.encoded())
  }

  @Test func frameDelaysAreExactFractions() {
    #expect(FrameDelay(seconds: 1.0 / 30) == FrameDelay(numerator: 1, denominator: 30))
    #expect(FrameDelay(seconds: 0.04) == FrameDelay(numerator: 1, denominator: 25))
    #expect(FrameDelay(seconds: 0.5) == FrameDelay(numerator: 1, denominator: 2))
    #expect(FrameDelay(seconds: 2) == FrameDelay(numerator: 2, denominator: 1))
    #expect(FrameDelay(seconds: 1001.0 / 30000) == FrameDelay(numerator: 1001, denominator: 30000))
    #expect(FrameDelay(seconds: 0) == FrameDelay(numerator: 0, denominator: 1))
    // Not representable: the nearest fraction with both terms ≤ 65535 (found
    // by exhaustive search over denominators).
    #expect(FrameDelay(seconds: Double.pi) == FrameDelay(numerator: 65298, denominator: 20785))
  }

  @Test func writingIntoAMissingFolderThrowsNamingThePath() {
    let path = "/nonexistent-sleet-folder/out.png"
    do {
      try PNGFile.write(RGBAImage(width: 1, height: 1), to: path)
      Issue.record("writing into a missing folder succeeded")
    } catch {
      guard case .cannotWrite(let named, let reason) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(named == path)
      #expect(reason.hasSuffix(String(cString: strerror(ENOENT))))
    }
  }

  @Test func aFailedRenameLeavesNoPartialFile() throws {
    // The destination is an existing folder: writing the temporary file
    // succeeds, the rename fails, and the temporary file must be removed.
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let target = folder + "/taken.apng"
    #expect(mkdir(target, 0o755) == 0)
    #expect(open(target + "/keep", O_CREAT | O_WRONLY, 0o644) >= 0)
    var encoder = APNGEncoder(width: 2, height: 2)
    encoder.append(RGBAImage(width: 2, height: 2), delay: FrameDelay(framesPerSecond: 10))
    do {
      try encoder.write(to: target)
      Issue.record("rename onto a non-empty folder succeeded")
    } catch {
      guard case .cannotWrite(let path, _) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(path == target)
    }
    #expect(folderEntries(folder) == ["taken.apng"])
    #expect(folderEntries(target) == ["keep"])
  }

  @Test func readingErrorsNameThePath() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    #expect(throws: ImageFileError.cannotRead(path: folder + "/missing.png", reason: String(cString: strerror(ENOENT))))
    {
      try PNGFile.read(path: folder + "/missing.png")
    }
    try AtomicFile.write(Array("not a png".utf8), to: folder + "/bad.png")
    do {
      _ = try PNGFile.read(path: folder + "/bad.png")
      Issue.record("garbage decoded")
    } catch {
      guard case .invalidImage(let path, let reason) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(path == folder + "/bad.png" && !reason.isEmpty)
    }
  }

  /// A valid 1×1 PNG whose IHDR claims `width`×`height` (CRC recomputed with zlib's crc32).
  static func pngClaiming(width: UInt32, height: UInt32) -> [UInt8] {
    var bytes = PNGFile.encode(RGBAImage(straightRGBA8: [1, 2, 3, 4], width: 1, height: 1))
    // Signature (8), length (4), "IHDR" at 12..<16, width 16..<20, height 20..<24, CRC 29..<33.
    #expect(Array(bytes[12..<16]) == Array("IHDR".utf8))
    for (offset, value) in [(16, width), (20, height)] {
      for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(i))) }
    }
    let crc = bytes[12..<29].withContiguousStorageIfAvailable { crc32(0, $0.baseAddress, 17) }!
    for i in 0..<4 { bytes[29 + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt(i))) }
    return bytes
  }

  @Test func oversizedHeadersAreRefusedBeforeAllocating() throws {
    #expect(PNGFile.maximumSide == 8192 && SleetLimits.imagePixels == 33_554_432)
    // A side over 8192, or 8192 × 4097 (over 2²⁵ px although each side is allowed).
    for (width, height) in [(UInt32(8193), UInt32(1)), (1, 8193), (8192, 4097), (1_000_000, 1_000_000)] {
      #expect(
        throws: ImageFileError.invalidImage(
          path: "huge.png", reason: "the image is \(width)×\(height) px: at most 8192 px a side and 33554432 px in all")
      ) {
        try PNGFile.decode(Self.pngClaiming(width: width, height: height), path: "huge.png")
      }
    }
    // The patching itself keeps the file valid: an honest header decodes.
    let honest = try PNGFile.decode(Self.pngClaiming(width: 1, height: 1))
    #expect(honest.width == 1 && honest.straightRGBA8() == [1, 2, 3, 4])
  }
}

/// PNG files are untrusted input: read up to SleetLimits.pngFileBytes, and
/// decoded only within the image size limits (docs/reliability.md, "Limits").
@Suite("PNG file limits")
struct PNGFileLimitTests {
  @Test func pngFilesAreReadUpTo256MiB() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let big = folder + "/big.png"
    let fd = open(big, O_CREAT | O_WRONLY, 0o644)
    #expect(fd >= 0 && ftruncate(fd, off_t(SleetLimits.pngFileBytes + 1)) == 0)
    close(fd)
    #expect(
      throws: ImageFileError.cannotRead(
        path: big, reason: "larger than 256 MiB, the limit for PNG files (SleetLimits)")
    ) { try PNGFile.read(path: big) }
    #expect(throws: ImageFileError.cannotRead(path: folder, reason: "Is a directory")) {
      try PNGFile.read(path: folder)
    }
  }
}
