import CPNG
import SleetMath

/// PNG reading and writing through libpng's simplified API (`png_image`).
///
/// Files hold 8-bit straight-alpha RGBA (colour type 6). Values are converted
/// as-is (see ``RGBAImage`` for the colour model); libpng tags written files
/// with an `sRGB` chunk, which matches how viewers show the values anyway.
/// Reading accepts any PNG libpng reads (palette, grey, 16-bit, with or without
/// alpha) and converts it to 8-bit RGBA first.
public enum PNGFile {
  /// The largest width or height ``decode(_:path:)`` accepts:
  /// ``SleetLimits/imageSide`` (libpng itself allows 10⁶ px a side); the
  /// pixel count is limited too (``SleetLimits/imagePixels``).
  public static let maximumSide = SleetLimits.imageSide

  /// Decodes PNG bytes. `path` only names the source in errors.
  /// - Throws: ``ImageFileError/invalidImage(path:reason:)`` with libpng's message,
  ///   or when the size exceeds ``SleetLimits/imageSide`` or
  ///   ``SleetLimits/imagePixels`` (checked from the header, before any pixel
  ///   memory is allocated).
  /// - Complexity: O(pixels).
  public static func decode(_ bytes: [UInt8], path: String = "<memory>") throws(ImageFileError) -> RGBAImage {
    // libpng keeps reading from `bytes` between begin and finish, so both
    // calls run inside one pinned scope.
    let result: Result<(rgba: [UInt8], width: Int, height: Int), ImageFileError> = bytes.withUnsafeBytes { input in
      var image = png_image()
      image.version = UInt32(PNG_IMAGE_VERSION)
      guard png_image_begin_read_from_memory(&image, input.baseAddress, input.count) != 0 else {
        return .failure(.invalidImage(path: path, reason: _message(&image)))
      }
      let width = Int(image.width), height = Int(image.height)
      // The header is untrusted: refuse before allocating 4·width·height bytes.
      if let problem = SleetLimits.imageSizeProblem(width: width, height: height) {
        png_image_free(&image)
        return .failure(.invalidImage(path: path, reason: "the image is \(problem)"))
      }
      image.format = _formatRGBA
      var rgba = [UInt8](repeating: 0, count: 4 * width * height)
      let finished = rgba.withUnsafeMutableBytes { out in
        png_image_finish_read(&image, nil, out.baseAddress, Int32(4 * width), nil)
      }
      guard finished != 0 else {
        let reason = _message(&image)
        png_image_free(&image)
        return .failure(.invalidImage(path: path, reason: reason))
      }
      return .success((rgba, width, height))
    }
    let (rgba, width, height) = try result.get()
    return RGBAImage(straightRGBA8: rgba, width: width, height: height)
  }

  /// Reads and decodes the PNG file at `path`, at most
  /// ``SleetLimits/pngFileBytes`` long.
  /// - Throws: ``ImageFileError`` naming `path`.
  /// - Complexity: O(file size + pixels).
  public static func read(path: String) throws(ImageFileError) -> RGBAImage {
    let bytes: [UInt8]
    do throws(InputFileError) {
      bytes = try InputFile.read(path, limit: SleetLimits.pngFileBytes)
    } catch {
      throw .cannotRead(path: path, reason: error.reason(kind: "PNG files"))
    }
    return try decode(bytes, path: path)
  }

  /// Encodes `image` as an 8-bit RGBA PNG (libpng's default compression).
  /// - Precondition: the image is not empty.
  /// - Complexity: O(pixels).
  public static func encode(_ image: RGBAImage) -> [UInt8] {
    precondition(image.width > 0 && image.height > 0, "PNGFile.encode: image must not be empty")
    let rgba = image.straightRGBA8()
    var png = png_image()
    png.version = UInt32(PNG_IMAGE_VERSION)
    png.width = UInt32(image.width)
    png.height = UInt32(image.height)
    png.format = _formatRGBA
    var size = 0
    // First call measures, second writes.
    let measured = rgba.withUnsafeBytes {
      png_image_write_to_memory(&png, nil, &size, 0, $0.baseAddress, Int32(4 * image.width), nil)
    }
    precondition(measured != 0, "PNGFile.encode: libpng failed: \(_message(&png))")
    var out = [UInt8](repeating: 0, count: size)
    let written = out.withUnsafeMutableBytes { dst in
      rgba.withUnsafeBytes {
        png_image_write_to_memory(&png, dst.baseAddress, &size, 0, $0.baseAddress, Int32(4 * image.width), nil)
      }
    }
    precondition(written != 0, "PNGFile.encode: libpng failed: \(_message(&png))")
    out.removeSubrange(size...)
    return out
  }

  /// Encodes `image` and writes it to `path` atomically (temporary file, then rename).
  /// - Throws: ``ImageFileError/cannotWrite(path:reason:)`` naming `path`.
  /// - Complexity: O(pixels).
  public static func write(_ image: RGBAImage, to path: String) throws(ImageFileError) {
    try AtomicFile.write(encode(image), to: path)
  }

  /// `PNG_FORMAT_RGBA` (a macro expression Swift does not import).
  private static let _formatRGBA = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

  private static func _message(_ image: inout png_image) -> String {
    withUnsafeBytes(of: &image.message) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}
