import CPNG
import Testing

@testable import SleetPreview

@Suite("PNG encoded with one compression")
struct PNGEncodeTests {
  /// Incompressible noise (every byte random, alpha included), a flat
  /// image and a random opaque one, in sizes from a pixel to a few zlib
  /// buffers.
  static let images: [RGBAImage] = {
    var random = TestRandom(state: 91)
    let noise = (0..<(4 * 131 * 97)).map { _ in random.byte() }
    return [
      RGBAImage(straightRGBA8: noise, width: 131, height: 97),
      RGBAImage(straightRGBA8: [1, 2, 3, 4], width: 1, height: 1),
      RGBAImage(width: 300, height: 2, fill: SIMD4(0.5, 0.25, 0, 1)),
      randomOpaqueImage(width: 64, height: 48, seed: 5),
    ]
  }()

  /// libpng's two-pass write: measure with a null buffer, then write.
  static func measuredThenWritten(_ image: RGBAImage) -> [UInt8] {
    let rgba = image.straightRGBA8()
    var png = png_image()
    png.version = UInt32(PNG_IMAGE_VERSION)
    png.width = UInt32(image.width)
    png.height = UInt32(image.height)
    png.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
    var size = 0
    let measured = rgba.withUnsafeBytes {
      png_image_write_to_memory(&png, nil, &size, 0, $0.baseAddress, Int32(4 * image.width), nil)
    }
    #expect(measured != 0)
    var out = [UInt8](repeating: 0, count: size)
    let written = out.withUnsafeMutableBytes { dst in
      rgba.withUnsafeBytes {
        png_image_write_to_memory(&png, dst.baseAddress, &size, 0, $0.baseAddress, Int32(4 * image.width), nil)
      }
    }
    #expect(written != 0 && size == out.count)
    return out
  }

  @Test(arguments: images.indices)
  func encodeCompressesOnceAndGivesTheTwoPassBytes(index: Int) {
    let image = Self.images[index]
    var compressions = 0
    let bytes = PNGFile.encode(image, compressions: &compressions)
    #expect(compressions == 1)
    #expect(bytes == Self.measuredThenWritten(image))
    #expect(bytes == PNGFile.encode(image))
    #expect(bytes.count <= PNGFile.maximumEncodedSize(width: image.width, height: image.height))
  }
}
