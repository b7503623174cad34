import CFFmpeg
import SleetPreview

/// One image converted to a ``VideoEncoder``'s planar YUV(A) pixel format
/// (``VideoEncoder/framePreparation``), ready for the codec; or why the
/// conversion failed, which ``VideoEncoder/encode(_:delay:into:)`` throws.
public struct VideoFrame: Sendable {
  let converted: Result<_FrameBuffer, VideoError>
}

/// An `AVFrame` this module allocated and filled, freed with the object.
final class _FrameBuffer: @unchecked Sendable {
  // Safe to mark Sendable: the frame is written only by `_FrameConversion.convert` before
  // the object is shared, then only read (the codec takes its own
  // reference to the buffers and never writes them).
  let frame: UnsafeMutablePointer<AVFrame>

  init(_ frame: UnsafeMutablePointer<AVFrame>) { self.frame = frame }

  deinit {
    var frame: UnsafeMutablePointer<AVFrame>? = frame
    av_frame_free(&frame)
  }
}

/// The colour conversion of one frame size and pixel format: the
/// one-pass kernels of ``_YUVConversion`` (premultiplied Float RGBA to
/// BT.709 YUV(A), limited range), into a frame tagged so, as the codec
/// context is. An image of `width × height` is stored at `stored` size,
/// its last column and row repeated into the padding (4:2:0 needs even
/// sides). The frame's planes come from a buffer pool, so a long video
/// reuses the same few buffers instead of mapping fresh memory for every
/// frame.
///
/// Thread-safe: libavutil's buffer pools are, and the kernels touch only
/// their own frame.
final class _FrameConversion: @unchecked Sendable {
  // Safe to mark Sendable: every stored property is set once in `init`;
  // `av_buffer_pool_get` locks the pool.
  let pixelFormat: AVPixelFormat
  let width: Int
  let height: Int
  let stored: (width: Int, height: Int)
  private let pool: OpaquePointer

  /// The planes' alignment (bytes), for the codecs' SIMD loads.
  static let alignment: Int32 = 64

  /// - Throws: ``VideoError/library(doing:message:code:)`` when FFmpeg
  ///   cannot size or allocate the frames.
  init(pixelFormat: AVPixelFormat, width: Int, height: Int, stored: (width: Int, height: Int)) throws(VideoError) {
    precondition(stored.width >= width && stored.height >= height, "_FrameConversion: stored smaller than the image")
    self.pixelFormat = pixelFormat
    self.width = width
    self.height = height
    self.stored = stored
    let size = av_image_get_buffer_size(pixelFormat, Int32(stored.width), Int32(stored.height), Self.alignment)
    guard size > 0 else { throw .library(size, doing: "sizing a \(stored.width)×\(stored.height) frame") }
    // Padding past the last plane, for codecs whose SIMD loads read a few
    // bytes past a row's end.
    guard let pool = av_buffer_pool_init(Int(size) + Int(Self.alignment), nil) else {
      throw .library(sleet_averror_nomem(), doing: "allocating the frame pool")
    }
    self.pool = pool
  }

  deinit {
    // Freed once the last frame from it is released.
    var pool: OpaquePointer? = pool
    av_buffer_pool_uninit(&pool)
  }

  /// `image` converted (see the type's summary), or why it could not be.
  /// - Precondition: `image` is ``width`` × ``height``.
  func convert(_ image: RGBAImage) -> Result<_FrameBuffer, VideoError> {
    precondition(image.width == width && image.height == height, "_FrameConversion: wrong frame size")
    guard let frame = av_frame_alloc() else {
      return .failure(.library(sleet_averror_nomem(), doing: "allocating a frame"))
    }
    let buffer = _FrameBuffer(frame)
    frame.pointee.width = Int32(stored.width)
    frame.pointee.height = Int32(stored.height)
    frame.pointee.format = pixelFormat.rawValue
    _tagBT709(
      &frame.pointee.color_range, &frame.pointee.colorspace, &frame.pointee.color_primaries,
      &frame.pointee.color_trc)
    guard let planesBuffer = av_buffer_pool_get(pool) else {
      return .failure(.library(sleet_averror_nomem(), doing: "allocating a frame's planes"))
    }
    // The frame owns the reference: `av_frame_free` returns it to the pool.
    frame.pointee.buf.0 = planesBuffer
    var planes = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: 4)
    var strides = [Int32](repeating: 0, count: 4)
    let filled = av_image_fill_arrays(
      &planes, &strides, planesBuffer.pointee.data, pixelFormat, Int32(stored.width), Int32(stored.height),
      Self.alignment)
    guard filled >= 0 else { return .failure(.library(filled, doing: "laying out a frame's planes")) }
    (frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2, frame.pointee.data.3) =
      (planes[0], planes[1], planes[2], planes[3])
    (frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2, frame.pointee.linesize.3) =
      (strides[0], strides[1], strides[2], strides[3])
    // Safe: av_image_fill_arrays laid out every plane of the format for
    // the stored size inside the pool's buffer (rows of `strides[i]` bytes,
    // 64-byte aligned, so 16-bit samples are aligned); the kernels write
    // inside those rows only.
    func plane<T>(_ i: Int, as: T.Type) -> _YUVConversion.Plane<T> {
      .init(
        base: UnsafeMutableRawPointer(planes[i]!).assumingMemoryBound(to: T.self),
        stride: Int(strides[i]) / MemoryLayout<T>.stride)
    }
    image.withUnsafeBufferPointer { pixels in
      if pixelFormat == AV_PIX_FMT_YUVA444P10LE {
        _YUVConversion.convert444p10(
          pixels, width: width, height: height, padded: stored, luma: plane(0, as: UInt16.self),
          cb: plane(1, as: UInt16.self), cr: plane(2, as: UInt16.self), alpha: plane(3, as: UInt16.self))
      } else {
        _YUVConversion.convert420(
          pixels, width: width, height: height, padded: stored, luma: plane(0, as: UInt8.self),
          cb: plane(1, as: UInt8.self), cr: plane(2, as: UInt8.self),
          alpha: pixelFormat == AV_PIX_FMT_YUVA420P ? plane(3, as: UInt8.self) : nil)
      }
    }
    return .success(buffer)
  }
}

/// The colour conversion's naive twin, which the tests compare the kernels
/// with: premultiplied Float RGBA → straight 8-bit RGBA
/// (``RGBAImage/straightRGBA8()``) → `pixelFormat` through libswscale,
/// with BT.709 coefficients, full-range RGB in, limited-range YUV out
/// (alpha stays full range, scaled to the format's depth), in a new frame
/// of the image's size.
func _convertWithSwscale(_ image: RGBAImage, to pixelFormat: AVPixelFormat) -> Result<_FrameBuffer, VideoError> {
  let width = Int32(image.width)
  let height = Int32(image.height)
  guard let frame = av_frame_alloc() else {
    return .failure(.library(sleet_averror_nomem(), doing: "allocating a frame"))
  }
  let buffer = _FrameBuffer(frame)
  frame.pointee.width = width
  frame.pointee.height = height
  frame.pointee.format = pixelFormat.rawValue
  let allocated = av_frame_get_buffer(frame, 0)
  guard allocated >= 0 else { return .failure(.library(allocated, doing: "allocating a frame's planes")) }
  guard
    let scaler = sws_getContext(
      width, height, AV_PIX_FMT_RGBA, width, height, pixelFormat, SWS_BILINEAR | SWS_ACCURATE_RND, nil, nil, nil)
  else {
    return .failure(.unavailable("conversion from RGBA to \(String(cString: av_get_pix_fmt_name(pixelFormat)))"))
  }
  defer { sws_freeContext(scaler) }
  let bt709 = sws_getCoefficients(SWS_CS_ITU709)
  // Source range 1 (full: RGB), destination range 0 (limited); brightness
  // 0, contrast and saturation 1.0 in 16.16 fixed point.
  _ = sws_setColorspaceDetails(scaler, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16)
  let rgba = image.straightRGBA8()
  var planes = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2, frame.pointee.data.3]
  let strides = [
    frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2, frame.pointee.linesize.3,
  ]
  let rows = rgba.withUnsafeBufferPointer { source in
    let sourcePlanes: [UnsafePointer<UInt8>?] = [source.baseAddress, nil, nil, nil]
    return sws_scale(scaler, sourcePlanes, [4 * width, 0, 0, 0], 0, height, &planes, strides)
  }
  guard rows == height else {
    return .failure(.library(rows < 0 ? rows : sleet_averror_invalid(), doing: "converting a frame to YUV"))
  }
  return .success(buffer)
}

/// BT.709 primaries, transfer and matrix, limited range: the tags of
/// every frame and stream this module writes.
func _tagBT709(
  _ range: inout AVColorRange, _ space: inout AVColorSpace, _ primaries: inout AVColorPrimaries,
  _ transfer: inout AVColorTransferCharacteristic
) {
  range = AVCOL_RANGE_MPEG
  space = AVCOL_SPC_BT709
  primaries = AVCOL_PRI_BT709
  transfer = AVCOL_TRC_BT709
}
