/// An animated PNG (APNG 1.0) encoder, written by hand because Debian's libpng
/// has no APNG support.
///
/// Layout: signature, `IHDR` (8-bit RGBA), `sRGB`, `acTL` (frame count, loop
/// count), then per frame an `fcTL` (full-canvas region, exact delay
/// `numerator/denominator`, dispose `none`, blend `source`) followed by its
/// image data — `IDAT` for the first frame (so viewers without APNG support
/// show it), `fdAT` for the others — then `IEND`. `fcTL` and `fdAT` share one
/// sequence-number counter starting at 0. Every chunk carries its CRC-32.
///
/// Frames are filtered and deflated as they are appended, so the encoder holds
/// only compressed data — but all of it: to write an animation of any length
/// in constant memory, use ``APNGFileWriter`` (same bytes, streamed to disk).
public struct APNGEncoder: Sendable {
  /// Canvas size in pixels; every frame has this size.
  public let width: Int
  /// Canvas height in pixels.
  public let height: Int
  /// How many times the animation plays; 0 means forever (`acTL` `num_plays`).
  public var loopCount: UInt32
  /// zlib level 0…9. Default 6.
  public var compressionLevel: Int32

  private var _frames: [(delay: FrameDelay, data: [UInt8])] = []

  /// - Precondition: `width`, `height` in 1…2³¹−1; level in 0…9.
  public init(width: Int, height: Int, loopCount: UInt32 = 0, compressionLevel: Int32 = 6) {
    precondition(
      width >= 1 && height >= 1 && width <= Int(Int32.max) && height <= Int(Int32.max),
      "APNGEncoder: size must be ≥ 1×1, got \(width)×\(height)")
    precondition((0...9).contains(compressionLevel), "APNGEncoder: compressionLevel must be 0…9")
    self.width = width
    self.height = height
    self.loopCount = loopCount
    self.compressionLevel = compressionLevel
  }

  /// The number of frames appended so far.
  public var frameCount: Int { _frames.count }

  /// The delays of the frames appended so far, in order.
  public var delays: [FrameDelay] { _frames.map(\.delay) }

  /// Appends a frame shown for `delay`.
  /// - Precondition: `image` is `width × height`.
  /// - Complexity: O(pixels) (filtering and deflate).
  public mutating func append(_ image: RGBAImage, delay: FrameDelay) {
    precondition(
      image.width == width && image.height == height,
      "APNGEncoder.append: frame is \(image.width)×\(image.height), canvas is \(width)×\(height)")
    _frames.append(
      (
        delay,
        _PNG.compressedScanlines(
          image.straightRGBA8(), width: width, height: height, level: compressionLevel)
      ))
  }

  /// Appends frames, compressing them in parallel; the output is identical to
  /// appending them one by one.
  /// - Precondition: every image is `width × height`; `delays.count == images.count`.
  /// - Complexity: O(total pixels) work.
  public mutating func append(contentsOf images: [RGBAImage], delays: [FrameDelay]) {
    precondition(delays.count == images.count, "APNGEncoder.append: \(images.count) frames, \(delays.count) delays")
    for image in images {
      precondition(
        image.width == width && image.height == height,
        "APNGEncoder.append: frame is \(image.width)×\(image.height), canvas is \(width)×\(height)")
    }
    let compressed = parallelMap(
      images, _PNG.framePreparation(width: width, height: height, level: compressionLevel))
    for (i, data) in compressed.enumerated() { _frames.append((delays[i], data)) }
  }

  /// The complete file.
  /// - Precondition: at least one frame.
  /// - Complexity: O(compressed size).
  public func encoded() -> [UInt8] {
    precondition(!_frames.isEmpty, "APNGEncoder: an animation needs at least one frame")
    var stream = APNGStreamEncoder(
      width: width, height: height, frameCount: _frames.count, loopCount: loopCount,
      compressionLevel: compressionLevel)
    var out = stream.header()
    for frame in _frames { stream.appendChunks(compressed: frame.data, delay: frame.delay, to: &out) }
    out += stream.trailer()
    return out
  }

  /// Writes the file atomically (temporary file, then rename).
  /// - Throws: ``ImageFileError/cannotWrite(path:reason:)`` naming `path`.
  public func write(to path: String) throws(ImageFileError) {
    try AtomicFile.write(encoded(), to: path)
  }
}
