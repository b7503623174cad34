import SleetKit
import _SleetTestSupport

/// `PNGFile.decode` on any bytes. For an accepted image:
/// - libpng called directly (`libpngDecode`, test support) gives the same
///   size, and the same samples wherever alpha > 0 (transparent pixels are
///   stored as (0, 0, 0, 0), documented);
/// - `PNGFile.encode` then `PNGFile.decode` gives the same image.
enum PNGTarget {
  static func run(_ bytes: [UInt8]) {
    let image: RGBAImage
    do throws(ImageFileError) {
      image = try PNGFile.decode(bytes, path: "fuzz.png")
    } catch {
      fuzzCheck(!error.description.isEmpty, "an empty error message")
      return
    }
    fuzzCheck(image.width >= 1 && image.height >= 1, "an empty image decoded")
    fuzzCheck(
      SleetLimits.imageSizeProblem(width: image.width, height: image.height) == nil,
      "an image over the size limit decoded: \(image.width)×\(image.height)")
    guard let direct = libpngDecode(bytes) else {
      fuzzCheck(false, "PNGFile.decode accepts what libpng refuses")
      return
    }
    fuzzCheck(direct.width == image.width && direct.height == image.height, "libpng reads another size")
    let samples = image.straightRGBA8()
    fuzzCheck(samples.count == direct.rgba.count, "libpng gives another number of samples")
    // Sample by sample, without allocating (images can have 2²⁵ pixels).
    for i in samples.indices {
      let transparent = direct.rgba[i | 3] == 0
      fuzzCheck(samples[i] == (transparent ? 0 : direct.rgba[i]), "pixel \(i / 4) differs from libpng's")
    }
    let again = try? PNGFile.decode(PNGFile.encode(image))
    fuzzCheck(again == image, "encode → decode changes the image")
  }
}

/// Random small animations through `APNGEncoder`, decoded independently:
/// chunk framing and CRCs with the test support's own CRC-32, the chunk
/// order, sequence numbers, `acTL` and `fcTL` fields, and every frame's
/// pixels through libpng (the frame's `IDAT`/`fdAT` payload wrapped in a
/// plain PNG). `FrameDelay(seconds:)` is checked on the way: exact for
/// fractions with 16-bit terms.
enum APNGTarget {
  static func run(_ bytes: [UInt8]) {
    var input = ByteReader(bytes)
    let width = input.int(in: 1...12)
    let height = input.int(in: 1...12)
    let frameCount = input.int(in: 1...5)
    let level = Int32(input.int(in: 0...9))
    let loops = UInt32(input.byte())
    let parallel = input.byte() & 1 == 1
    var delays: [FrameDelay] = []
    for _ in 0..<frameCount {
      let numerator = input.uint16()
      let denominator = Swift.max(1, input.uint16())
      delays.append(checkedDelay(numerator: numerator, denominator: denominator))
    }
    // Pixels: the rest of the input, repeated (or a gradient when empty).
    let pixels = input.rest()
    let total = 4 * width * height
    var frames: [RGBAImage] = []
    for f in 0..<frameCount {
      let rgba = (0..<total).map { i in
        pixels.isEmpty ? UInt8(truncatingIfNeeded: i &* 37 &+ f) : pixels[(f * total + i) % pixels.count]
      }
      frames.append(RGBAImage(straightRGBA8: rgba, width: width, height: height))
    }

    var encoder = APNGEncoder(width: width, height: height, loopCount: loops, compressionLevel: level)
    if parallel {
      encoder.append(contentsOf: frames, delays: delays)
    } else {
      for (frame, delay) in zip(frames, delays) { encoder.append(frame, delay: delay) }
    }
    fuzzCheck(encoder.frameCount == frameCount && encoder.delays == delays, "frame count or delays")
    let file = encoder.encoded()
    check(file, frames: frames, delays: delays, width: width, height: height, loops: loops)
  }

  /// `FrameDelay(seconds: n/d)` must give exactly n/d (in lowest terms).
  static func checkedDelay(numerator: UInt16, denominator: UInt16) -> FrameDelay {
    let delay = FrameDelay(seconds: Double(numerator) / Double(denominator))
    fuzzCheck(
      UInt64(delay.numerator) * UInt64(denominator) == UInt64(numerator) * UInt64(delay.denominator),
      "FrameDelay(seconds: \(numerator)/\(denominator)) gave \(delay)")
    return delay
  }

  struct Chunk {
    var type: String
    var data: [UInt8]
  }

  /// Splits a PNG stream into chunks, checking the signature, lengths and CRCs.
  static func chunks(_ file: [UInt8]) -> [Chunk] {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    fuzzCheck(Array(file.prefix(8)) == signature, "no PNG signature")
    var result: [Chunk] = []
    var i = 8
    while i < file.count {
      fuzzCheck(file.count - i >= 12, "a truncated chunk at \(i)")
      let length = Int(bigEndian32(file, i))
      fuzzCheck(file.count - i - 12 >= length, "a chunk longer than the file at \(i)")
      let type = String(decoding: file[(i + 4)..<(i + 8)], as: UTF8.self)
      let crc = bigEndian32(file, i + 8 + length)
      fuzzCheck(referenceCRC32(file[(i + 4)..<(i + 8 + length)]) == crc, "bad CRC in \(type)")
      result.append(Chunk(type: type, data: Array(file[(i + 8)..<(i + 8 + length)])))
      i += 12 + length
    }
    return result
  }

  static func bigEndian32(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
  }

  static func check(
    _ file: [UInt8], frames: [RGBAImage], delays: [FrameDelay], width: Int, height: Int, loops: UInt32
  ) {
    let list = chunks(file)
    var expected = ["IHDR", "sRGB", "acTL"]
    for f in frames.indices { expected += ["fcTL", f == 0 ? "IDAT" : "fdAT"] }
    expected.append("IEND")
    fuzzCheck(list.map(\.type) == expected, "chunk order \(list.map(\.type))")
    let header = list[0].data
    fuzzCheck(
      header.count == 13 && bigEndian32(header, 0) == UInt32(width) && bigEndian32(header, 4) == UInt32(height)
        && Array(header[8...]) == [8, 6, 0, 0, 0], "IHDR")
    let actl = list[2].data
    fuzzCheck(
      actl.count == 8 && bigEndian32(actl, 0) == UInt32(frames.count) && bigEndian32(actl, 4) == loops, "acTL")
    var sequence: UInt32 = 0
    for (f, frame) in frames.enumerated() {
      let control = list[3 + 2 * f].data
      let payload = list[4 + 2 * f].data
      fuzzCheck(control.count == 26 && bigEndian32(control, 0) == sequence, "fcTL \(f) sequence")
      fuzzCheck(
        bigEndian32(control, 4) == UInt32(width) && bigEndian32(control, 8) == UInt32(height)
          && bigEndian32(control, 12) == 0 && bigEndian32(control, 16) == 0, "fcTL \(f) region")
      let numerator = UInt16(control[20]) << 8 | UInt16(control[21])
      let denominator = UInt16(control[22]) << 8 | UInt16(control[23])
      fuzzCheck(
        numerator == delays[f].numerator && denominator == delays[f].denominator && control[24] == 0
          && control[25] == 0, "fcTL \(f) delay or operations")
      sequence += 1
      var data = payload
      if f > 0 {
        fuzzCheck(payload.count >= 4 && bigEndian32(payload, 0) == sequence, "fdAT \(f) sequence")
        data = Array(payload[4...])
        sequence += 1
      }
      // The frame as a plain PNG: signature, the same IHDR, its data as IDAT.
      var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
      appendChunk("IHDR", header, to: &png)
      appendChunk("IDAT", data, to: &png)
      appendChunk("IEND", [], to: &png)
      guard let decoded = libpngDecode(png) else {
        fuzzCheck(false, "libpng cannot decode frame \(f)")
        return
      }
      fuzzCheck(decoded.rgba == frame.straightRGBA8(), "frame \(f) pixels differ")
    }
    // A viewer without APNG support shows frame 0.
    fuzzCheck(libpngDecode(file)?.rgba == frames[0].straightRGBA8(), "the default image is not frame 0")
  }

  static func appendChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
    func append32(_ v: UInt32) {
      out += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
    append32(UInt32(data.count))
    let body = Array(type.utf8) + data
    out += body
    append32(referenceCRC32(body[...]))
  }
}
