import Dispatch

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
/// only compressed data.
public struct APNGEncoder: Sendable {
  /// Canvas size in pixels; every frame has this size.
  public let width: Int
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
    let results = _ParallelResults(count: images.count)
    let (w, h, level) = (width, height, compressionLevel)
    DispatchQueue.concurrentPerform(iterations: images.count) { i in
      results.set(i, _PNG.compressedScanlines(images[i].straightRGBA8(), width: w, height: h, level: level))
    }
    for (i, data) in results.values.enumerated() { _frames.append((delays[i], data)) }
  }

  /// The complete file.
  /// - Precondition: at least one frame.
  /// - Complexity: O(compressed size).
  public func encoded() -> [UInt8] {
    precondition(!_frames.isEmpty, "APNGEncoder: an animation needs at least one frame")
    var out = _PNG.signature
    _PNG.appendChunk("IHDR", _PNG.header(width: width, height: height), to: &out)
    _PNG.appendChunk("sRGB", [0], to: &out)
    var animation: [UInt8] = []
    _PNG.appendUInt32(UInt32(_frames.count), to: &animation)
    _PNG.appendUInt32(loopCount, to: &animation)
    _PNG.appendChunk("acTL", animation, to: &out)
    var sequence: UInt32 = 0
    for (index, frame) in _frames.enumerated() {
      var control: [UInt8] = []
      _PNG.appendUInt32(sequence, to: &control)
      _PNG.appendUInt32(UInt32(width), to: &control)
      _PNG.appendUInt32(UInt32(height), to: &control)
      _PNG.appendUInt32(0, to: &control)  // x offset
      _PNG.appendUInt32(0, to: &control)  // y offset
      _PNG.appendUInt16(frame.delay.numerator, to: &control)
      _PNG.appendUInt16(frame.delay.denominator, to: &control)
      control += [0, 0]  // dispose_op none, blend_op source
      _PNG.appendChunk("fcTL", control, to: &out)
      sequence += 1
      if index == 0 {
        _PNG.appendChunk("IDAT", frame.data, to: &out)
      } else {
        var data: [UInt8] = []
        data.reserveCapacity(frame.data.count + 4)
        _PNG.appendUInt32(sequence, to: &data)
        data += frame.data
        _PNG.appendChunk("fdAT", data, to: &out)
        sequence += 1
      }
    }
    _PNG.appendChunk("IEND", [], to: &out)
    return out
  }

  /// Writes the file atomically (temporary file, then rename).
  /// - Throws: ``ImageFileError/cannotWrite(path:reason:)`` naming `path`.
  public func write(to path: String) throws(ImageFileError) {
    try AtomicFile.write(encoded(), to: path)
  }
}

/// Slots that parallel iterations fill, one each.
private final class _ParallelResults: @unchecked Sendable {
  // Safe to mark Sendable: iteration i writes only slot i, and `values` is read
  // after `concurrentPerform` returns.
  private var slots: UnsafeMutableBufferPointer<[UInt8]>

  init(count: Int) {
    slots = .allocate(capacity: count)
    slots.initialize(repeating: [])
  }

  func set(_ i: Int, _ value: [UInt8]) { slots[i] = value }

  var values: [[UInt8]] { Array(slots) }

  deinit {
    slots.deinitialize()
    slots.deallocate()
  }
}
