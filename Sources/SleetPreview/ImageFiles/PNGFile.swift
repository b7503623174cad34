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
  /// - Complexity: O(pixels), one compression.
  public static func encode(_ image: RGBAImage) -> [UInt8] {
    var compressions = 0
    return encode(image, compressions: &compressions)
  }

  /// ``encode(_:)``, adding to `compressions` the number of times libpng
  /// compressed the image.
  ///
  /// libpng's `png_image_write_to_memory` learns the file's size only by
  /// compressing, so asking for the size first (a null buffer) and then
  /// writing compresses twice. Instead the image is written once into a
  /// buffer of libpng's own upper bound on the file size
  /// (`PNG_IMAGE_PNG_SIZE_MAX`, which Swift does not import:
  /// ``maximumEncodedSize(width:height:)``), then copied to its exact size.
  /// The bytes are those of the two-pass write: the same call with the same
  /// settings. Only the buffer differs, and its pages past the file are
  /// never touched. Should a zlib ever exceed the bound, libpng reports the
  /// size it needs and the image is compressed a second time into that.
  static func encode(_ image: RGBAImage, compressions: inout Int) -> [UInt8] {
    precondition(image.width > 0 && image.height > 0, "PNGFile.encode: image must not be empty")
    let rgba = image.straightRGBA8()
    var png = png_image()
    png.version = UInt32(PNG_IMAGE_VERSION)
    png.width = UInt32(image.width)
    png.height = UInt32(image.height)
    png.format = _formatRGBA
    var capacity = maximumEncodedSize(width: image.width, height: image.height)
    while true {
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
      defer { buffer.deallocate() }
      var size = capacity
      compressions += 1
      let written = rgba.withUnsafeBytes {
        png_image_write_to_memory(&png, buffer.baseAddress, &size, 0, $0.baseAddress, Int32(4 * image.width), nil)
      }
      if written != 0 { return Array(UnsafeRawBufferPointer(rebasing: buffer[..<size])) }
      // A failure with a larger size means only that the buffer was short.
      // (libpng frees its state either way, so `png` can be written again.)
      precondition(size > capacity, "PNGFile.encode: libpng failed: \(_message(&png))")
      capacity = size
    }
  }

  /// libpng's `PNG_IMAGE_PNG_SIZE_MAX` for an 8-bit RGBA image of
  /// `width × height`: the signature and the fixed chunks (`IHDR`, `gAMA`,
  /// `cHRM`, `IEND`, with room for `sRGB`), zlib's worst case for the
  /// filtered rows (`PNG_ZLIB_MAX_SIZE` of `PNG_IMAGE_DATA_SIZE`: 4 bytes a
  /// pixel and a filter byte a row), and 12 bytes of chunk framing for
  /// every `PNG_ZBUF_SIZE` bytes of it (one `IDAT` each).
  static func maximumEncodedSize(width: Int, height: Int) -> Int {
    let data = 4 * width * height + height
    let compressed = data + (data + 7) >> 3 + (data + 63) >> 6 + 11
    return 8 + 25 + 16 + 44 + 12 + 12 + 12 * (compressed / Int(PNG_ZBUF_SIZE)) + compressed
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
