import CPNG
import Glibc
import SleetMath

@testable import SleetPreview

/// Decodes PNG bytes with libpng directly (not through SleetPreview) into 8-bit
/// straight RGBA. Returns nil when libpng rejects the bytes.
func libpngDecode(_ bytes: [UInt8]) -> (width: Int, height: Int, rgba: [UInt8])? {
  bytes.withUnsafeBytes { input -> (width: Int, height: Int, rgba: [UInt8])? in
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    guard png_image_begin_read_from_memory(&image, input.baseAddress, input.count) != 0 else { return nil }
    image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
    let w = Int(image.width), h = Int(image.height)
    var out = [UInt8](repeating: 0, count: 4 * w * h)
    let ok = out.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, Int32(4 * w), nil) }
    guard ok != 0 else {
      png_image_free(&image)
      return nil
    }
    return (w, h, out)
  }
}

/// Straight 8-bit RGBA of pixel (x, y) in a decoded buffer.
func pixel(_ decoded: (width: Int, height: Int, rgba: [UInt8]), _ x: Int, _ y: Int) -> [UInt8] {
  let i = 4 * (y * decoded.width + x)
  return Array(decoded.rgba[i..<i + 4])
}

/// Renders, encodes with PNGFile, decodes with libpng.
func roundTrip(_ image: RGBAImage) -> (width: Int, height: Int, rgba: [UInt8]) {
  libpngDecode(PNGFile.encode(image))!
}

/// A fresh empty folder under /tmp.
func makeTemporaryFolder() -> String {
  var template = Array("/tmp/sleet-preview-tests-XXXXXX".utf8CString)
  let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
  return String(cString: path!)
}

/// Names in a folder, excluding `.` and `..`.
func folderEntries(_ path: String) -> [String] {
  guard let dir = opendir(path) else { return [] }
  defer { closedir(dir) }
  var names: [String] = []
  while let entry = readdir(dir) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    if name != "." && name != ".." { names.append(name) }
  }
  return names.sorted()
}

func removeTree(_ path: String) {
  for name in folderEntries(path) {
    let full = path + "/" + name
    if unlink(full) != 0 { removeTree(full) }
  }
  rmdir(path)
}

/// CRC-32 (ISO-HDLC, polynomial 0xEDB88320) written out independently of zlib.
func referenceCRC32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
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
