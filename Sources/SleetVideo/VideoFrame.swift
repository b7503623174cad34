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
  // Safe to mark Sendable: the frame is written only by `_convert` before
  // the object is shared, then only read (the codec takes its own
  // reference to the buffers and never writes them).
  let frame: UnsafeMutablePointer<AVFrame>

  init(_ frame: UnsafeMutablePointer<AVFrame>) { self.frame = frame }

  deinit {
    var frame: UnsafeMutablePointer<AVFrame>? = frame
    av_frame_free(&frame)
  }
}

/// The colour conversion's naive twin, which the tests compare
/// ``_convertDirect(_:to:)`` with: premultiplied Float RGBA → straight
/// 8-bit RGBA (``RGBAImage/straightRGBA8()``) → `pixelFormat` through
/// libswscale, with BT.709 coefficients, full-range RGB in, limited-range
/// YUV out (alpha stays full range, scaled to the format's depth). The
/// frame is tagged so, as the codec context is.
///
/// Pure: a new scaler context a call (libswscale's are not thread-safe).
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
  _tagBT709(
    &frame.pointee.color_range, &frame.pointee.colorspace, &frame.pointee.color_primaries,
    &frame.pointee.color_trc)
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
  var planes = frame.pointee.data
  var strides = frame.pointee.linesize
  let rows = rgba.withUnsafeBufferPointer { source in
    // Safe: `planes` and `strides` are homogeneous tuples of
    // AV_NUM_DATA_POINTERS elements, laid out as C arrays; libswscale
    // reads as many as the formats have planes, and writes only through
    // the plane pointers into the frame's buffers.
    withUnsafePointer(to: &planes) { planes in
      withUnsafePointer(to: &strides) { strides in
        planes.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: Int(AV_NUM_DATA_POINTERS)) {
          planes in
          strides.withMemoryRebound(to: Int32.self, capacity: Int(AV_NUM_DATA_POINTERS)) { strides in
            let sourcePlanes: [UnsafePointer<UInt8>?] = [source.baseAddress, nil, nil, nil]
            let sourceStrides: [Int32] = [4 * width, 0, 0, 0]
            return sws_scale(scaler, sourcePlanes, sourceStrides, 0, height, planes, strides)
          }
        }
      }
    }
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
