import Dispatch
import SleetParticles

/// An animation format as ``AnimationFileWriter`` drives it: APNG
/// (``APNGStreamEncoder``), WebP (``WebPAnimationEncoder``) and GIF
/// (``GIFStreamEncoder``) conform, and so can any format that turns a
/// sequence of equal-size frames into bytes (a video container through a
/// codec library, say).
///
/// The contract:
/// - **Two stages.** ``framePreparation`` is the work that depends on one
///   image alone (filtering and deflate, quantizing, conversion to 8-bit
///   RGBA, a colour-space conversion): it is called concurrently, from any
///   thread, for every image of a batch, so it must be a pure function of
///   its image and of values captured when it was made. Everything that
///   depends on the frames before (frame differences, timestamps, a codec's
///   state) happens in ``encode(_:delay:into:)``, called on one thread, once
///   per frame, in order.
/// - **Order of calls.** ``start(into:)`` once, then
///   ``encode(_:delay:into:)`` for each frame, then ``finish(into:)`` once,
///   after at least one frame. The encoder is then spent.
/// - **Output.** Each call appends the bytes it completes to
///   ``AnimationOutput/bytes``; the concatenation of everything appended is
///   the file. An encoder may hold bytes back (GIF keeps one frame until the
///   next is known; libwebp keeps every frame until ``finish(into:)``).
///   It may rewrite bytes it appended earlier (a frame count or a box size
///   in a header) only through ``AnimationOutput/overwrite(at:with:)``;
///   such an encoder needs a seekable output, a file, and a stream that
///   cannot seek (standard output) must be given an encoder that knows
///   everything up front and never overwrites.
/// - **Failure.** A thrown ``Failure`` leaves the encoder unusable (the
///   writer removes its temporary file); its description is the reason
///   shown to the user. An encoder that cannot fail uses `Never`.
/// - **Frames.** Every image has the canvas size ``width`` × ``height``
///   (checked before ``framePreparation`` runs).
public protocol AnimationEncoder {
  /// What ``framePreparation`` makes of one image.
  associatedtype PreparedFrame: Sendable
  /// Why encoding failed; `Never` for an encoder that cannot fail.
  associatedtype Failure: Error

  /// Canvas width in pixels; every frame has this size.
  var width: Int { get }
  /// Canvas height in pixels.
  var height: Int { get }
  /// Frames encoded so far.
  var frameCount: Int { get }

  /// The per-image stage, called concurrently for the images of a batch.
  var framePreparation: @Sendable (RGBAImage) -> PreparedFrame { get }

  /// Appends what precedes the first frame (a signature, a header).
  mutating func start(into output: inout AnimationOutput) throws(Failure)

  /// Encodes the next frame, shown for `delay`, appending the bytes it
  /// completes.
  mutating func encode(_ frame: PreparedFrame, delay: FrameDelay, into output: inout AnimationOutput)
    throws(Failure)

  /// Appends the rest of the file and makes any overwrites of earlier bytes.
  mutating func finish(into output: inout AnimationOutput) throws(Failure)
}

/// The bytes an ``AnimationEncoder`` produced in one call: appended at the
/// end of the output, then (seekable outputs only) written over bytes
/// produced earlier.
public struct AnimationOutput: Sendable {
  /// The bytes to append, in order.
  public var bytes: [UInt8] = []
  /// Bytes to write over earlier output, each at an absolute offset from
  /// the start of the file, applied in order after ``bytes``.
  public private(set) var overwrites: [(offset: Int, bytes: [UInt8])] = []

  /// An empty output.
  public init() {}

  /// Writes `bytes` over the output at `offset`, once ``bytes`` is appended.
  /// - Precondition (checked when applied): the range lies inside what
  ///   was produced so far.
  public mutating func overwrite(at offset: Int, with bytes: [UInt8]) {
    overwrites.append((offset, bytes))
  }
}

extension AnimationEncoder {
  /// Encodes a batch: the images are checked, prepared in parallel and
  /// encoded in order, as if each had been prepared and encoded on its own.
  /// - Precondition: every image is ``width`` × ``height``;
  ///   `delays.count == images.count`.
  /// - Complexity: the preparation's work spread over the cores, then the
  ///   encoding's on this thread.
  mutating func encodeBatch(_ images: [RGBAImage], delays: [FrameDelay], into output: inout AnimationOutput)
    throws(Failure)
  {
    precondition(delays.count == images.count, "\(Self.self): \(images.count) frames, \(delays.count) delays")
    for image in images {
      precondition(
        image.width == width && image.height == height,
        "\(Self.self): frame is \(image.width)×\(image.height), canvas is \(width)×\(height)")
    }
    for (i, frame) in parallelMap(images, framePreparation).enumerated() {
      try encode(frame, delay: delays[i], into: &output)
    }
  }
}

/// `transform` of every image, computed in parallel (one
/// `concurrentPerform` iteration an image), in the images' order.
func parallelMap<T: Sendable>(_ images: [RGBAImage], _ transform: @Sendable (RGBAImage) -> T) -> [T] {
  [T](unsafeUninitializedCapacity: images.count) { buffer, initialized in
    let slots = _Slots(base: buffer.baseAddress)
    DispatchQueue.concurrentPerform(iterations: images.count) { i in
      (slots.base! + i).initialize(to: transform(images[i]))
    }
    initialized = images.count
  }
}

/// The uninitialized elements `parallelMap` fills.
private struct _Slots<T>: @unchecked Sendable {
  // Safe to mark Sendable: iteration i initializes only element i, and the
  // array is read after `concurrentPerform` returns.
  let base: UnsafeMutablePointer<T>?
}
