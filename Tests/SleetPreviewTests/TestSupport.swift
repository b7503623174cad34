import CPNG
import Glibc
import SleetMath
import _SleetTestSupport

@testable import SleetPreview

/// Straight 8-bit RGBA of pixel (x, y) in a decoded buffer.
func pixel(_ decoded: (width: Int, height: Int, rgba: [UInt8]), _ x: Int, _ y: Int) -> [UInt8] {
  let i = 4 * (y * decoded.width + x)
  return Array(decoded.rgba[i..<i + 4])
}

/// Renders, encodes with PNGFile, decodes with libpng.
func roundTrip(_ image: RGBAImage) -> (width: Int, height: Int, rgba: [UInt8]) {
  libpngDecode(PNGFile.encode(image))!
}

struct Chunk {
  var type: String
  var data: [UInt8]
  var crcIsValid: Bool
}

func bigEndian32(_ b: ArraySlice<UInt8>) -> UInt32 {
  let s = b.startIndex
  return UInt32(b[s]) << 24 | UInt32(b[s + 1]) << 16 | UInt32(b[s + 2]) << 8 | UInt32(b[s + 3])
}

func bigEndian16(_ b: ArraySlice<UInt8>) -> UInt16 {
  UInt16(b[b.startIndex]) << 8 | UInt16(b[b.startIndex + 1])
}

/// Splits a PNG file into chunks (after checking the signature).
func parseChunks(_ bytes: [UInt8]) -> [Chunk]? {
  guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
  var chunks: [Chunk] = []
  var i = 8
  while i + 12 <= bytes.count {
    let length = Int(bigEndian32(bytes[i..<i + 4]))
    guard i + 12 + length <= bytes.count else { return nil }
    let type = String(decoding: bytes[i + 4..<i + 8], as: UTF8.self)
    let data = Array(bytes[i + 8..<i + 8 + length])
    let crc = bigEndian32(bytes[i + 8 + length..<i + 12 + length])
    chunks.append(Chunk(type: type, data: data, crcIsValid: crc == referenceCRC32(bytes[i + 4..<i + 8 + length])))
    i += 12 + length
  }
  return i == bytes.count ? chunks : nil
}

/// A deterministic pseudo-random generator for test data (SplitMix64).
struct TestRandom {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func unit() -> Float { Float(next() >> 40) / Float(1 << 24) }
  mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 56) }
}

/// An opaque image of random colours.
func randomOpaqueImage(width: Int, height: Int, seed: UInt64) -> RGBAImage {
  var random = TestRandom(state: seed)
  var image = RGBAImage(width: width, height: height)
  for y in 0..<height {
    for x in 0..<width {
      image[x, y] = SIMD4(random.unit(), random.unit(), random.unit(), 1)
    }
  }
  return image
}
