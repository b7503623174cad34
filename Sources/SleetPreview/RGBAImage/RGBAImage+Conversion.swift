extension RGBAImage {
  /// Creates an image from 8-bit straight-alpha RGBA samples (4 bytes per pixel,
  /// rows top to bottom, no padding), as PNG decoders deliver them.
  ///
  /// ```
  /// stored = (r/255 · a/255, g/255 · a/255, b/255 · a/255, a/255)
  /// ```
  ///
  /// - Precondition: `bytes.count == 4·width·height`.
  /// - Complexity: O(width·height); one allocation.
  public init(straightRGBA8 bytes: UnsafeBufferPointer<UInt8>, width: Int, height: Int) {
    precondition(
      bytes.count == 4 * width * height,
      "RGBAImage(straightRGBA8:): expected \(4 * width * height) bytes, got \(bytes.count)")
    self.init(width: width, height: height)
    withUnsafeMutableBufferPointer { pixels in
      let scale: Float = 1 / 255
      for i in 0..<pixels.count {
        let a = Float(bytes[4 * i + 3]) * scale
        pixels[i] = SIMD4(
          Float(bytes[4 * i]) * scale * a, Float(bytes[4 * i + 1]) * scale * a,
          Float(bytes[4 * i + 2]) * scale * a, a)
      }
    }
  }

  /// Creates an image from 8-bit straight-alpha RGBA samples in an array.
  /// - Complexity: O(width·height).
  public init(straightRGBA8 bytes: [UInt8], width: Int, height: Int) {
    self = bytes.withUnsafeBufferPointer { RGBAImage(straightRGBA8: $0, width: width, height: height) }
  }

  /// The image as 8-bit straight-alpha RGBA samples (4 bytes per pixel, rows top
  /// to bottom), the form PNG stores:
  ///
  /// ```
  /// a' = clamp(a, 0, 1);  c' = clamp(c, 0, a') / a'  (0 when a' = 0)
  /// byte = ⌊255·v + 0.5⌋
  /// ```
  ///
  /// Values are written as-is: no transfer function (see the type's colour model).
  /// Round trip: for any 8-bit input with a > 0, `straightRGBA8()` of
  /// `init(straightRGBA8:)` returns the same bytes; transparent pixels become
  /// (0, 0, 0, 0).
  /// - Complexity: O(width·height); one allocation.
  public func straightRGBA8() -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: 4 * pixelCount) { out, initialized in
      withUnsafeBufferPointer { pixels in
        Self._quantizeStraight(pixels, into: out)
      }
      initialized = 4 * pixelCount
    }
  }

  /// Kernel: premultiplied floats → straight 8-bit.
  /// Invariant: `out.count ≥ 4·pixels.count`; no alignment requirement.
  @usableFromInline
  internal static func _quantizeStraight(
    _ pixels: UnsafeBufferPointer<SIMD4<Float>>, into out: UnsafeMutableBufferPointer<UInt8>
  ) {
    for i in 0..<pixels.count {
      let p = pixels[i]
      // `!(a > 0)` also maps NaN alpha to transparent.
      let a = p.w > 1 ? 1 : p.w
      guard a > 0 else {
        out[4 * i] = 0; out[4 * i + 1] = 0; out[4 * i + 2] = 0; out[4 * i + 3] = 0
        continue
      }
      let inverse = 1 / a
      out[4 * i] = _byte(p.x, limit: a, inverse: inverse)
      out[4 * i + 1] = _byte(p.y, limit: a, inverse: inverse)
      out[4 * i + 2] = _byte(p.z, limit: a, inverse: inverse)
      out[4 * i + 3] = UInt8(a * 255 + 0.5)
    }
  }

  @inline(__always) @usableFromInline
  internal static func _byte(_ c: Float, limit a: Float, inverse: Float) -> UInt8 {
    // NaN fails `c > 0` and becomes 0.
    let clamped = c > 0 ? (c < a ? c : a) : 0
    let v = clamped * inverse * 255 + 0.5
    return UInt8(v < 255 ? v : 255)
  }
}
