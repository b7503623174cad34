import CFFmpeg
import CSleetConversion
import SleetPreview

/// The colour conversion of every frame a ``VideoEncoder`` writes:
/// premultiplied Float RGBA straight to the codec's planar YUV(A), one
/// pass over the image, BT.709, limited range.
///
/// For a pixel (r, g, b, a) of an ``RGBAImage``:
///
/// ```
/// α  = clamp(a, 0, 1)                        (NaN → 0)
/// c' = clamp(c, 0, α) / α  for c ∈ {r, g, b}  (0 when α = 0; NaN → 0)
/// Y' = 0.2126 r' + 0.7152 g' + 0.0722 b'
/// Pb = (b' − Y') / 1.8556,   Pr = (r' − Y') / 1.5748
/// 8-bit:  Y = 16 + 219 Y',  Cb = 128 + 224 Pb,  Cr = 128 + 224 Pr,  A = 255 α
/// 10-bit: Y = 64 + 876 Y',  Cb = 512 + 896 Pb,  Cr = 512 + 896 Pr,  A = 1023 α
/// ```
///
/// each rounded half up. 4:2:0 chroma is that of the mean straight colour
/// of a 2×2 block (an odd last column or row repeats itself, so it counts
/// twice). Colour is straight (unassociated) as H.264, VP9's alpha and
/// ProRes 4444 store it; the values are the image's encoded values (no
/// transfer function, as PNG files get them).
///
/// Precision: Float arithmetic without fused multiply-adds, so a sample
/// lies within 1 code of the exact value of the formula rounded (the tests
/// check the bound on every sample against a Double twin). The kernels are
/// C (Sources/CSleetConversion/sleet_yuv.h): four pixels a step, one
/// vector a channel.
enum _YUVConversion {
  /// One plane: its first sample and the distance between rows, in samples.
  struct Plane<Sample> {
    var base: UnsafeMutablePointer<Sample>
    var stride: Int
  }

  /// The 8-bit 4:2:0 planes (and an alpha plane when `alpha` is given),
  /// `padded` in size (default: the image's), of a `width × height` image:
  /// the C kernel `sleet_yuv420_from_premultiplied`
  /// (Sources/CSleetConversion). Padding repeats the last column and row.
  ///
  /// Precondition: `pixels.count == width·height`, 1 ≤ width ≤
  /// padded.width, 1 ≤ height ≤ padded.height; the luma and alpha planes
  /// hold `padded.height` rows of `padded.width` samples, the chroma planes
  /// ⌈padded.height/2⌉ rows of ⌈padded.width/2⌉.
  /// - Complexity: O(padded.width·padded.height), one read of every pixel.
  static func convert420(
    _ pixels: UnsafeBufferPointer<SIMD4<Float>>, width: Int, height: Int, padded: (width: Int, height: Int)? = nil,
    luma: Plane<UInt8>, cb: Plane<UInt8>, cr: Plane<UInt8>, alpha: Plane<UInt8>?
  ) {
    let padded = padded ?? (width, height)
    precondition(
      width >= 1 && height >= 1 && pixels.count == width * height && padded.width >= width
        && padded.height >= height)
    // Safe: the kernel reads width·height pixels and writes inside the
    // planes' rows, as the precondition and the planes' sizes say.
    UnsafeRawPointer(pixels.baseAddress!).withMemoryRebound(to: Float.self, capacity: 4 * pixels.count) { floats in
      sleet_yuv420_from_premultiplied(
        floats, width, height, padded.width, padded.height, luma.base, luma.stride, cb.base, cb.stride, cr.base,
        cr.stride, alpha?.base,
        alpha?.stride ?? 0)
    }
  }

  /// The 10-bit 4:4:4 planes with alpha (`yuva444p10le`: the low 10 bits
  /// of native 16-bit words), `padded` in size (default: the image's), of a
  /// `width × height` image: the C kernel
  /// `sleet_yuva444p10_from_premultiplied`.
  ///
  /// Precondition: `pixels.count == width·height`, 1 ≤ width ≤
  /// padded.width, 1 ≤ height ≤ padded.height; each plane holds
  /// `padded.height` rows of `padded.width` samples.
  /// - Complexity: O(padded.width·padded.height), one read of every pixel.
  static func convert444p10(
    _ pixels: UnsafeBufferPointer<SIMD4<Float>>, width: Int, height: Int, padded: (width: Int, height: Int)? = nil,
    luma: Plane<UInt16>, cb: Plane<UInt16>, cr: Plane<UInt16>, alpha: Plane<UInt16>
  ) {
    let padded = padded ?? (width, height)
    precondition(
      width >= 1 && height >= 1 && pixels.count == width * height && padded.width >= width
        && padded.height >= height)
    func bytes(_ plane: Plane<UInt16>) -> (UnsafeMutablePointer<UInt8>, Int) {
      (UnsafeMutableRawPointer(plane.base).assumingMemoryBound(to: UInt8.self), 2 * plane.stride)
    }
    let (l, ls) = bytes(luma), (u, us) = bytes(cb), (v, vs) = bytes(cr), (a, as_) = bytes(alpha)
    // Safe: as for `convert420`; the kernel writes 16-bit samples through
    // the planes' own 2-byte-aligned rows.
    UnsafeRawPointer(pixels.baseAddress!).withMemoryRebound(to: Float.self, capacity: 4 * pixels.count) { floats in
      sleet_yuva444p10_from_premultiplied(
        floats, width, height, padded.width, padded.height, l, ls, u, us, v, vs, a, as_)
    }
  }
}
