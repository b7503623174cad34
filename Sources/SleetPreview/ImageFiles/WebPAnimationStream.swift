import CWebP
import SleetParticles

/// How ``WebPAnimationEncoder`` compresses: lossy at a quality, or lossless.
public struct WebPAnimationOptions: Hashable, Sendable {
  /// Lossy: the quality factor, 0 (smallest) … 100 (best), libwebp's
  /// `WebPConfig.quality` (default 75, as `cwebp`). Lossless: the effort spent
  /// compressing, 0 (fastest) … 100 (smallest); the pixels are exact either way.
  public var quality: Float
  /// Lossless: every pixel, transparent ones included, decodes to exactly
  /// the bytes of ``RGBAImage/straightRGBA8()`` (`WebPConfig.lossless` and
  /// `exact`).
  public var isLossless: Bool
  /// libwebp's `method`: 0 (fastest) … 6 (smallest files). Default 4.
  public var method: Int

  /// - Precondition: `quality` in 0…100, `method` in 0…6.
  public init(quality: Float = 75, isLossless: Bool = false, method: Int = 4) {
    precondition(quality >= 0 && quality <= 100, "WebPAnimationOptions: quality must be in 0…100, got \(quality)")
    precondition((0...6).contains(method), "WebPAnimationOptions: method must be in 0…6, got \(method)")
    self.quality = quality
    self.isLossless = isLossless
    self.method = method
  }
}

/// An animated WebP encoded frame by frame through libwebp's animation
/// encoder (`WebPAnimEncoder`, libwebpmux), looping forever.
///
/// Frames are handed to libwebp as they are appended and the raw frames are
/// not kept. **What libwebp keeps:** `WebPAnimEncoder` holds a few
/// full-canvas ARGB buffers (the previous canvas and the candidate
/// sub-frames of at most two frames while it chooses how to encode each) and
/// *every encoded frame* until ``finish()``, which assembles the whole file in
/// memory: memory grows with the compressed size of the animation (twice
/// it at the end, the encoded frames plus the assembled file), not with its
/// raw size. A WebP file is at most 4 GiB (RIFF's 32-bit size); libwebp
/// refuses a larger one with an error.
///
/// Timing: libwebp takes frame timestamps in whole milliseconds; frame k
/// starts at the exact sum of the earlier delays rounded to the nearest
/// millisecond (`_AnimationTicks`), so each delay is within 1 ms of exact
/// and the total duration does not drift. libwebp merges a frame identical
/// to the one before (for lossy output: within its quality threshold) into
/// that frame, adding the durations, so a decoder may report fewer frames
/// whose durations add up to the same total.
///
/// Not thread-safe: one thread appends (libwebp may use a second thread per
/// frame for lossy alpha, `WebPConfig.thread_level`).
public final class WebPAnimationEncoder {
  /// Canvas width in pixels, at most 16383 (WebP's limit).
  public let width: Int
  /// Canvas height in pixels, at most 16383.
  public let height: Int
  /// Lossy or lossless, quality and method, as given at creation.
  public let options: WebPAnimationOptions
  /// Frames appended so far.
  public private(set) var frameCount = 0
  private var encoder: OpaquePointer?
  private var config = WebPConfig()
  private var ticks = _AnimationTicks(ticksPerSecond: 1000)

  /// The largest canvas side WebP stores (14-bit sizes).
  public static let maximumSide = 16383

  /// - Precondition: `width`, `height` in 1…``maximumSide``.
  public init(width: Int, height: Int, options: WebPAnimationOptions = WebPAnimationOptions()) {
    precondition(
      width >= 1 && height >= 1 && width <= Self.maximumSide && height <= Self.maximumSide,
      "WebPAnimationEncoder: size must be in 1…\(Self.maximumSide) a side, got \(width)×\(height)")
    self.width = width
    self.height = height
    self.options = options
    var animation = WebPAnimEncoderOptions()
    precondition(WebPAnimEncoderOptionsInit(&animation) != 0, "WebPAnimationEncoder: libwebpmux ABI mismatch")
    animation.anim_params.loop_count = 0  // forever
    animation.anim_params.bgcolor = 0  // a hint only: transparent black
    animation.allow_mixed = 0
    encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &animation)
    precondition(encoder != nil, "WebPAnimationEncoder: WebPAnimEncoderNew failed for \(width)×\(height)")
    precondition(WebPConfigInit(&config) != 0, "WebPAnimationEncoder: libwebp ABI mismatch")
    config.lossless = options.isLossless ? 1 : 0
    config.exact = options.isLossless ? 1 : 0
    config.quality = options.quality
    config.method = Int32(options.method)
    config.thread_level = 1
    precondition(WebPValidateConfig(&config) != 0, "WebPAnimationEncoder: libwebp refused the configuration")
  }

  deinit { WebPAnimEncoderDelete(encoder) }

  /// Encodes frames shown for `delays` (converted to 8-bit straight RGBA in
  /// parallel, then encoded in order).
  /// - Precondition: every image is `width × height`; `delays.count ==
  ///   images.count`; ``finish()`` not called yet.
  /// - Throws: ``AnimationEncodingError`` with libwebp's message.
  /// - Complexity: O(total pixels) work.
  public func append(contentsOf images: [RGBAImage], delays: [FrameDelay]) throws(AnimationEncodingError) {
    precondition(encoder != nil, "WebPAnimationEncoder: append after finish")
    var output = AnimationOutput()
    var encoder = self  // a class: the same encoder, as a `var` for the mutating requirement
    try encoder.encodeBatch(images, delays: delays, into: &output)
  }

  /// The whole file: ends the last frame at the total duration and
  /// assembles the animation. The encoder is then spent.
  /// - Precondition: at least one frame; not finished yet.
  /// - Throws: ``AnimationEncodingError`` with libwebp's message.
  public func finish() throws(AnimationEncodingError) -> [UInt8] {
    var output = AnimationOutput()
    try finish(into: &output)
    return output.bytes
  }
}

extension WebPAnimationEncoder: AnimationEncoder {
  /// libwebp's failure, with its message.
  public typealias Failure = AnimationEncodingError

  /// Converts one image to 8-bit straight RGBA.
  public var framePreparation: @Sendable (RGBAImage) -> [UInt8] { { $0.straightRGBA8() } }

  /// Appends nothing: libwebp assembles the whole file at the end.
  public func start(into output: inout AnimationOutput) {
    precondition(encoder != nil, "WebPAnimationEncoder: start after finish")
  }

  /// Hands one frame (8-bit straight RGBA) to libwebp, starting at the
  /// rounded sum of the earlier delays; appends nothing.
  /// - Throws: ``AnimationEncodingError`` with libwebp's message.
  public func encode(_ frame: [UInt8], delay: FrameDelay, into output: inout AnimationOutput)
    throws(AnimationEncodingError)
  {
    precondition(encoder != nil, "WebPAnimationEncoder: append after finish")
    let (start, _) = ticks.advance(by: delay)
    var picture = WebPPicture()
    precondition(WebPPictureInit(&picture) != 0, "WebPAnimationEncoder: libwebp ABI mismatch")
    picture.use_argb = 1
    picture.width = Int32(width)
    picture.height = Int32(height)
    defer { WebPPictureFree(&picture) }
    let imported = frame.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(4 * width)) }
    guard imported != 0 else { throw AnimationEncodingError(reason: "WebP: out of memory importing a frame") }
    guard WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: start), &config) != 0 else {
      throw AnimationEncodingError(reason: "WebP: " + String(cString: WebPAnimEncoderGetError(encoder)))
    }
    frameCount += 1
  }

  /// Ends the last frame at the total duration and appends the assembled
  /// file. The encoder is then spent.
  /// - Precondition: at least one frame; not finished yet.
  /// - Throws: ``AnimationEncodingError`` with libwebp's message.
  public func finish(into output: inout AnimationOutput) throws(AnimationEncodingError) {
    precondition(encoder != nil, "WebPAnimationEncoder: finish called twice")
    precondition(frameCount >= 1, "WebPAnimationEncoder: an animation needs at least one frame")
    defer {
      WebPAnimEncoderDelete(encoder)
      encoder = nil
    }
    guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: ticks.startTick), nil) != 0 else {
      throw AnimationEncodingError(reason: "WebP: " + String(cString: WebPAnimEncoderGetError(encoder)))
    }
    var data = WebPData()
    guard WebPAnimEncoderAssemble(encoder, &data) != 0 else {
      throw AnimationEncodingError(reason: "WebP: " + String(cString: WebPAnimEncoderGetError(encoder)))
    }
    defer { WebPDataClear(&data) }
    output.bytes += UnsafeBufferPointer(start: data.bytes, count: data.size)
  }
}

/// An animated WebP written to a file: ``AnimationFileWriter`` over a
/// ``WebPAnimationEncoder``, whose bytes (the whole file, assembled by
/// libwebp at ``AnimationFileWriter/finish()``) go to a temporary file beside
/// the destination that is then renamed into place. Memory: as
/// ``WebPAnimationEncoder`` (grows with the compressed size).
public typealias WebPFileWriter = AnimationFileWriter<WebPAnimationEncoder>

extension AnimationFileWriter where Encoder == WebPAnimationEncoder {
  /// Creates the temporary file.
  /// - Precondition: as ``WebPAnimationEncoder/init(width:height:options:)``.
  /// - Throws: ``ImageFileError/cannotWrite(path:reason:)`` naming `path`.
  public convenience init(
    path: String, width: Int, height: Int, options: WebPAnimationOptions = WebPAnimationOptions()
  ) throws(ImageFileError) {
    try self.init(path: path, encoder: WebPAnimationEncoder(width: width, height: height, options: options))
  }
}
