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

/// The colour conversion of one frame size and pixel format:
/// premultiplied Float RGBA → straight 8-bit RGBA (exactly
/// ``RGBAImage/straightRGBA8()``'s bytes) → `pixelFormat` through
/// libswscale, with BT.709 coefficients, full-range RGB in, limited-range
/// YUV out (alpha stays full range, scaled to the format's depth). The
/// frame is tagged so, as the codec context is.
///
/// The 8-bit stage goes through a band of ``bandRows`` rows at a time
/// (libswscale takes the image as consecutive slices), so no full-size
/// intermediate image is made; the frame's planes come from a buffer pool,
/// so a long video reuses the same few buffers instead of mapping fresh
/// memory for every frame.
///
/// Thread-safe: ``convert(_:)`` makes a scaler context a call (libswscale's
/// are not thread-safe) and libavutil's buffer pools are.
final class _FrameConversion: @unchecked Sendable {
  // Safe to mark Sendable: every stored property is set once in `init`;
  // `av_buffer_pool_get` locks the pool.
  let pixelFormat: AVPixelFormat
  let width: Int32
  let height: Int32
  private let pool: OpaquePointer

  /// Rows converted to 8-bit at a time.
  static let bandRows = 16
  /// The planes' alignment (bytes), for the codecs' SIMD loads.
  static let alignment: Int32 = 64

  /// - Throws: ``VideoError/library(doing:message:code:)`` when FFmpeg
  ///   cannot size or allocate the frames.
  init(pixelFormat: AVPixelFormat, width: Int, height: Int) throws(VideoError) {
    self.pixelFormat = pixelFormat
    self.width = Int32(width)
    self.height = Int32(height)
    let size = av_image_get_buffer_size(pixelFormat, self.width, self.height, Self.alignment)
    guard size > 0 else { throw .library(size, doing: "sizing a \(width)×\(height) frame") }
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
    precondition(image.width == Int(width) && image.height == Int(height), "_FrameConversion: wrong frame size")
    guard let frame = av_frame_alloc() else {
      return .failure(.library(sleet_averror_nomem(), doing: "allocating a frame"))
    }
    let buffer = _FrameBuffer(frame)
    frame.pointee.width = width
    frame.pointee.height = height
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
      &planes, &strides, planesBuffer.pointee.data, pixelFormat, width, height, Self.alignment)
    guard filled >= 0 else { return .failure(.library(filled, doing: "laying out a frame's planes")) }
    (frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2, frame.pointee.data.3) =
      (planes[0], planes[1], planes[2], planes[3])
    (frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2, frame.pointee.linesize.3) =
      (strides[0], strides[1], strides[2], strides[3])
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
    let columns = Int(width)
    var band = [UInt8](repeating: 0, count: 4 * columns * Self.bandRows)
    var written: Int32 = 0
    image.withUnsafeBufferPointer { pixels in
      band.withUnsafeMutableBufferPointer { band in
        for top in stride(from: 0, to: Int(height), by: Self.bandRows) {
          let rows = min(Self.bandRows, Int(height) - top)
          // Safe: rows top ..< top + rows lie inside the image, and the
          // band holds `bandRows` rows of `4 · width` bytes.
          _quantizeStraight(
            UnsafeBufferPointer(rebasing: pixels[(top * columns)..<((top + rows) * columns)]), into: band)
          let source: [UnsafePointer<UInt8>?] = [UnsafePointer(band.baseAddress), nil, nil, nil]
          let sourceStrides: [Int32] = [4 * width, 0, 0, 0]
          // libswscale takes consecutive slices of the source, top to
          // bottom, and writes the output rows they complete.
          written += sws_scale(scaler, source, sourceStrides, Int32(top), Int32(rows), planes, strides)
        }
      }
    }
    guard written == height else {
      return .failure(.library(sleet_averror_invalid(), doing: "converting a frame to YUV"))
    }
    return .success(buffer)
  }
}

/// Premultiplied Float RGBA → straight 8-bit RGBA, the bytes of
/// ``RGBAImage/straightRGBA8()`` (the same operations in the same order):
///
/// ```
/// a' = clamp(a, 0, 1);  c' = clamp(c, 0, a') / a'  (0 when a' = 0)
/// byte = ⌊255·v + 0.5⌋, at most 255
/// ```
///
/// NaN alpha gives a transparent pixel, a NaN colour component 0.
/// Invariant: `out.count ≥ 4 · pixels.count`.
func _quantizeStraight(_ pixels: UnsafeBufferPointer<SIMD4<Float>>, into out: UnsafeMutableBufferPointer<UInt8>) {
  assert(out.count >= 4 * pixels.count, "_quantizeStraight: output too small")
  for i in 0..<pixels.count {
    let p = pixels[i]
    let a = p.w > 1 ? 1 : p.w
    // `!(a > 0)` also maps NaN alpha to transparent.
    guard a > 0 else {
      out[4 * i] = 0
      out[4 * i + 1] = 0
      out[4 * i + 2] = 0
      out[4 * i + 3] = 0
      continue
    }
    let inverse = 1 / a
    out[4 * i] = _straightByte(p.x, limit: a, inverse: inverse)
    out[4 * i + 1] = _straightByte(p.y, limit: a, inverse: inverse)
    out[4 * i + 2] = _straightByte(p.z, limit: a, inverse: inverse)
    out[4 * i + 3] = UInt8(a * 255 + 0.5)
  }
}

/// One colour component of ``_quantizeStraight(_:into:)``.
@inline(__always)
func _straightByte(_ c: Float, limit a: Float, inverse: Float) -> UInt8 {
  // NaN fails `c > 0` and becomes 0.
  let clamped = c > 0 ? (c < a ? c : a) : 0
  let v = clamped * inverse * 255 + 0.5
  // NaN (0 · ∞ for a subnormal alpha) fails `v < 255` and becomes 255.
  return UInt8(v < 255 ? v : 255)
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
