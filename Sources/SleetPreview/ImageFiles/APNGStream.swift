import SleetParticles

/// The bytes of an animated PNG produced piece by piece, so an animation of
/// any length needs memory for one batch of frames only: ``header()``, then
/// ``frames(_:delays:)`` for consecutive batches, then ``trailer()``. The
/// concatenation is exactly ``APNGEncoder/encoded()`` of the same frames.
///
/// The frame count lives in the `acTL` chunk near the start. Give it to the
/// initializer when it is known (a stream that cannot seek, such as standard
/// output), or leave it nil: the header then says 0 and
/// ``animationControl(frameCount:)`` is the chunk to write over it, at
/// ``animationControlOffset``, once the frames are written.
public struct APNGStreamEncoder: Sendable {
  /// Canvas width in pixels; every frame has this size.
  public let width: Int
  /// Canvas height in pixels.
  public let height: Int
  /// How many times the animation plays; 0 means forever.
  public let loopCount: UInt32
  /// zlib level 0…9.
  public let compressionLevel: Int32
  /// The frame count the header announces, or nil for a placeholder of 0.
  public let announcedFrameCount: Int?
  /// Frames encoded so far.
  public private(set) var frameCount = 0
  private var sequence: UInt32 = 0

  /// The byte offset of the `acTL` chunk: after the signature (8 bytes),
  /// `IHDR` (25) and `sRGB` (13).
  public static let animationControlOffset = 46

  /// - Precondition: `width`, `height` in 1…2³¹−1; level in 0…9;
  ///   `frameCount`, when given, in 1…2³¹−1.
  public init(
    width: Int, height: Int, frameCount: Int? = nil, loopCount: UInt32 = 0, compressionLevel: Int32 = 6
  ) {
    precondition(
      width >= 1 && height >= 1 && width <= Int(Int32.max) && height <= Int(Int32.max),
      "APNGStreamEncoder: size must be ≥ 1×1, got \(width)×\(height)")
    precondition((0...9).contains(compressionLevel), "APNGStreamEncoder: compressionLevel must be 0…9")
    precondition(
      frameCount.map { $0 >= 1 && $0 <= Int(Int32.max) } ?? true,
      "APNGStreamEncoder: frameCount must be in 1…2³¹−1")
    self.width = width
    self.height = height
    self.announcedFrameCount = frameCount
    self.loopCount = loopCount
    self.compressionLevel = compressionLevel
  }

  /// Signature, `IHDR`, `sRGB` and `acTL` (``animationControlOffset`` +
  /// 20 bytes).
  public func header() -> [UInt8] {
    var out = _PNG.signature
    _PNG.appendChunk("IHDR", _PNG.header(width: width, height: height), to: &out)
    _PNG.appendChunk("sRGB", [0], to: &out)
    out += animationControl(frameCount: announcedFrameCount ?? 0)
    return out
  }

  /// The `acTL` chunk for `frameCount` frames (20 bytes).
  public func animationControl(frameCount: Int) -> [UInt8] {
    var data: [UInt8] = []
    _PNG.appendUInt32(UInt32(frameCount), to: &data)
    _PNG.appendUInt32(loopCount, to: &data)
    var out: [UInt8] = []
    _PNG.appendChunk("acTL", data, to: &out)
    return out
  }

  /// The chunks of the next frames (`fcTL` and `IDAT` or `fdAT` each),
  /// compressed in parallel.
  /// - Precondition: every image is `width × height`; `delays.count ==
  ///   images.count`; no more frames than announced.
  /// - Complexity: O(total pixels) work.
  public mutating func frames(_ images: [RGBAImage], delays: [FrameDelay]) -> [UInt8] {
    var output = AnimationOutput()
    encodeBatch(images, delays: delays, into: &output)
    return output.bytes
  }

  /// Appends one frame's chunks, from its compressed scanlines.
  mutating func appendChunks(compressed data: [UInt8], delay: FrameDelay, to out: inout [UInt8]) {
    precondition(
      frameCount < announcedFrameCount ?? Int(Int32.max),
      "APNGStreamEncoder: more frames than the \(announcedFrameCount ?? Int(Int32.max)) announced")
    var control: [UInt8] = []
    _PNG.appendUInt32(sequence, to: &control)
    _PNG.appendUInt32(UInt32(width), to: &control)
    _PNG.appendUInt32(UInt32(height), to: &control)
    _PNG.appendUInt32(0, to: &control)  // x offset
    _PNG.appendUInt32(0, to: &control)  // y offset
    _PNG.appendUInt16(delay.numerator, to: &control)
    _PNG.appendUInt16(delay.denominator, to: &control)
    control += [0, 0]  // dispose_op none, blend_op source
    _PNG.appendChunk("fcTL", control, to: &out)
    sequence += 1
    if frameCount == 0 {
      _PNG.appendChunk("IDAT", data, to: &out)
    } else {
      var chunk: [UInt8] = []
      chunk.reserveCapacity(data.count + 4)
      _PNG.appendUInt32(sequence, to: &chunk)
      chunk += data
      _PNG.appendChunk("fdAT", chunk, to: &out)
      sequence += 1
    }
    frameCount += 1
  }

  /// `IEND`.
  /// - Precondition: at least one frame, and as many as announced.
  public func trailer() -> [UInt8] {
    precondition(frameCount >= 1, "APNGStreamEncoder: an animation needs at least one frame")
    precondition(
      announcedFrameCount.map { $0 == frameCount } ?? true,
      "APNGStreamEncoder: \(frameCount) frames written, \(announcedFrameCount ?? 0) announced")
    var out: [UInt8] = []
    _PNG.appendChunk("IEND", [], to: &out)
    return out
  }
}

extension APNGStreamEncoder: AnimationEncoder {
  /// APNG encoding cannot fail (every check is a precondition).
  public typealias Failure = Never

  /// Filters and deflates one image (its compressed scanlines).
  public var framePreparation: @Sendable (RGBAImage) -> [UInt8] {
    _PNG.framePreparation(width: width, height: height, level: compressionLevel)
  }

  /// Appends ``header()``.
  public func start(into output: inout AnimationOutput) { output.bytes += header() }

  /// Appends the frame's `fcTL` and `IDAT` or `fdAT` chunks.
  public mutating func encode(_ frame: [UInt8], delay: FrameDelay, into output: inout AnimationOutput) {
    appendChunks(compressed: frame, delay: delay, to: &output.bytes)
  }

  /// Appends ``trailer()``; without an announced frame count, writes the
  /// count over the header's placeholder (at ``animationControlOffset``).
  public func finish(into output: inout AnimationOutput) {
    output.bytes += trailer()
    if announcedFrameCount == nil {
      output.overwrite(at: Self.animationControlOffset, with: animationControl(frameCount: frameCount))
    }
  }
}

/// An animated PNG written to a file frame by frame, in memory independent of
/// the number of frames: ``AnimationFileWriter`` over an
/// ``APNGStreamEncoder`` without an announced frame count, whose
/// ``APNGStreamEncoder/finish(into:)`` writes the count into the header
/// before the file is renamed into place. The bytes are exactly
/// ``APNGEncoder/encoded()`` of the same frames.
public typealias APNGFileWriter = AnimationFileWriter<APNGStreamEncoder>

extension AnimationFileWriter where Encoder == APNGStreamEncoder {
  /// Creates the temporary file and writes the header.
  /// - Precondition: as ``APNGStreamEncoder/init(width:height:frameCount:loopCount:compressionLevel:)``.
  /// - Throws: ``ImageFileError/cannotWrite(path:reason:)`` naming `path`.
  public convenience init(
    path: String, width: Int, height: Int, loopCount: UInt32 = 0, compressionLevel: Int32 = 6
  ) throws(ImageFileError) {
    try self.init(
      path: path,
      encoder: APNGStreamEncoder(
        width: width, height: height, loopCount: loopCount, compressionLevel: compressionLevel))
  }
}

extension _PNG {
  /// The per-frame stage of APNG: an image's compressed scanlines.
  static func framePreparation(width: Int, height: Int, level: Int32) -> @Sendable (RGBAImage) -> [UInt8] {
    { image in compressedScanlines(image.straightRGBA8(), width: width, height: height, level: level) }
  }
}
