import CFFmpeg
import SleetPreview
import Testing

@testable import SleetVideo

/// The conversion kernels (`_YUVConversion`) against their naive twin: the
/// formula of the type's documentation evaluated pixel by pixel in Double.
/// Every sample must lie within 1 code of the twin's rounded value.
struct YUVConversionTests {
  /// Pixels that exercise every branch: opaque, translucent, transparent,
  /// out-of-range (additive blending leaves [0, 1]), NaN, negative, and a
  /// smooth gradient.
  static func testImage(width: Int, height: Int) -> RGBAImage {
    var image = RGBAImage(width: width, height: height)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Float {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Float(state >> 40) / Float(1 << 24)
    }
    for y in 0..<height {
      for x in 0..<width {
        let a: Float
        switch (x + 3 * y) % 7 {
        case 0: a = 0
        case 1: a = next()
        case 2: a = 1.4
        default: a = 1
        }
        var p = SIMD4(next(), next(), next(), 1) * max(a, 0)
        p.w = a
        if (x * 7 + y) % 23 == 0 { p.x = 1.7 }  // over a
        if (x + y * 5) % 29 == 0 { p.y = -0.2 }
        if (x * 3 + y) % 31 == 0 { p.z = .nan }
        if (x + y) % 37 == 0 { p.w = .nan }
        image[x, y] = p
      }
    }
    return image
  }

  /// The straight colour and alpha of a pixel, in Double, as documented.
  static func straight(_ p: SIMD4<Float>) -> (r: Double, g: Double, b: Double, a: Double) {
    let a = p.w > 0 ? min(Double(p.w), 1) : 0
    guard a > 0 else { return (0, 0, 0, 0) }
    func c(_ v: Float) -> Double { v > 0 ? min(Double(v), a) / a : 0 }
    return (c(p.x), c(p.y), c(p.z), a)
  }

  static let kr = 0.2126
  static let kb = 0.0722
  static let kg = 1 - kr - kb

  /// `|sample − (value rounded half up)| ≤ 1`.
  static func expectWithinOneCode(_ sample: Int, _ value: Double, _ what: @autoclosure () -> String) {
    let exact = Int((value + 0.5).rounded(.down))
    #expect(abs(sample - exact) <= 1, "\(what()): \(sample), the formula gives \(value)")
  }

  @Test(arguments: [(8, 6), (7, 5), (1, 1), (33, 17)])
  func fourTwoZeroAgreesWithTheDoubleTwin(size: (width: Int, height: Int)) {
    let (w, h) = size
    let image = Self.testImage(width: w, height: h)
    let cw = (w + 1) / 2, ch = (h + 1) / 2
    var luma = [UInt8](repeating: 0, count: w * h), alpha = luma
    var cb = [UInt8](repeating: 0, count: cw * ch), cr = cb
    image.withUnsafeBufferPointer { pixels in
      luma.withUnsafeMutableBufferPointer { l in
        alpha.withUnsafeMutableBufferPointer { a in
          cb.withUnsafeMutableBufferPointer { u in
            cr.withUnsafeMutableBufferPointer { v in
              _YUVConversion.convert420(
                pixels, width: w, height: h, luma: .init(base: l.baseAddress!, stride: w),
                cb: .init(base: u.baseAddress!, stride: cw), cr: .init(base: v.baseAddress!, stride: cw),
                alpha: .init(base: a.baseAddress!, stride: w))
            }
          }
        }
      }
    }
    for y in 0..<h {
      for x in 0..<w {
        let s = Self.straight(image[x, y])
        let yPrime = Self.kr * s.r + Self.kg * s.g + Self.kb * s.b
        Self.expectWithinOneCode(Int(luma[y * w + x]), 16 + 219 * yPrime, "Y at (\(x), \(y))")
        Self.expectWithinOneCode(Int(alpha[y * w + x]), 255 * s.a, "A at (\(x), \(y))")
      }
    }
    for by in 0..<ch {
      for bx in 0..<cw {
        var mean = (r: 0.0, g: 0.0, b: 0.0)
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
          let s = Self.straight(image[min(2 * bx + dx, w - 1), min(2 * by + dy, h - 1)])
          mean = (mean.r + s.r / 4, mean.g + s.g / 4, mean.b + s.b / 4)
        }
        let yPrime = Self.kr * mean.r + Self.kg * mean.g + Self.kb * mean.b
        Self.expectWithinOneCode(Int(cb[by * cw + bx]), 128 + 224 * (mean.b - yPrime) / 1.8556, "Cb at (\(bx), \(by))")
        Self.expectWithinOneCode(Int(cr[by * cw + bx]), 128 + 224 * (mean.r - yPrime) / 1.5748, "Cr at (\(bx), \(by))")
      }
    }
  }

  @Test(arguments: [(9, 4), (4, 3), (1, 2)])
  func fourFourFourTenBitAgreesWithTheDoubleTwin(size: (width: Int, height: Int)) {
    let (w, h) = size
    let image = Self.testImage(width: w, height: h)
    var luma = [UInt16](repeating: 0, count: w * h), cb = luma, cr = luma, alpha = luma
    image.withUnsafeBufferPointer { pixels in
      luma.withUnsafeMutableBufferPointer { l in
        cb.withUnsafeMutableBufferPointer { u in
          cr.withUnsafeMutableBufferPointer { v in
            alpha.withUnsafeMutableBufferPointer { a in
              _YUVConversion.convert444p10(
                pixels, width: w, height: h, luma: .init(base: l.baseAddress!, stride: w),
                cb: .init(base: u.baseAddress!, stride: w), cr: .init(base: v.baseAddress!, stride: w),
                alpha: .init(base: a.baseAddress!, stride: w))
            }
          }
        }
      }
    }
    let planes = [luma, cb, cr, alpha]
    for y in 0..<h {
      for x in 0..<w {
        let s = Self.straight(image[x, y])
        let yPrime = Self.kr * s.r + Self.kg * s.g + Self.kb * s.b
        let i = y * w + x
        Self.expectWithinOneCode(Int(planes[0][i]), 64 + 876 * yPrime, "Y at (\(x), \(y))")
        Self.expectWithinOneCode(Int(planes[1][i]), 512 + 896 * (s.b - yPrime) / 1.8556, "Cb at (\(x), \(y))")
        Self.expectWithinOneCode(Int(planes[2][i]), 512 + 896 * (s.r - yPrime) / 1.5748, "Cr at (\(x), \(y))")
        Self.expectWithinOneCode(Int(planes[3][i]), 1023 * s.a, "A at (\(x), \(y))")
      }
    }
  }
}

extension YUVConversionTests {
  /// Padding to an even size is the image with its last column and row
  /// repeated, converted without padding: the same bits.
  @Test func paddingRepeatsTheLastColumnAndRow() {
    let (w, h) = (5, 3)
    let image = Self.testImage(width: w, height: h)
    var repeated = RGBAImage(width: w + 1, height: h + 1)
    for y in 0...h {
      for x in 0...w { repeated[x, y] = image[min(x, w - 1), min(y, h - 1)] }
    }
    func planes(_ source: RGBAImage, padded: (width: Int, height: Int)?) -> [[UInt8]] {
      let (pw, ph) = padded ?? (source.width, source.height)
      var luma = [UInt8](repeating: 0, count: pw * ph), alpha = luma
      var cb = [UInt8](repeating: 0, count: (pw + 1) / 2 * ((ph + 1) / 2)), cr = cb
      source.withUnsafeBufferPointer { pixels in
        luma.withUnsafeMutableBufferPointer { l in
          alpha.withUnsafeMutableBufferPointer { a in
            cb.withUnsafeMutableBufferPointer { u in
              cr.withUnsafeMutableBufferPointer { v in
                _YUVConversion.convert420(
                  pixels, width: source.width, height: source.height, padded: padded,
                  luma: .init(base: l.baseAddress!, stride: pw), cb: .init(base: u.baseAddress!, stride: (pw + 1) / 2),
                  cr: .init(base: v.baseAddress!, stride: (pw + 1) / 2), alpha: .init(base: a.baseAddress!, stride: pw))
              }
            }
          }
        }
      }
      return [luma, cb, cr, alpha]
    }
    #expect(planes(image, padded: (w + 1, h + 1)) == planes(repeated, padded: nil))
  }
}

/// The kernels against FFmpeg's own BT.709 conversion (libswscale on the
/// 8-bit image, `_convertWithSwscale`): an independent implementation of the
/// same coefficients and ranges. The 8-bit rounding before libswscale and its
/// fixed-point arithmetic allow 2 codes (8 at 10 bits) of difference.
struct YUVConversionAgainstSwscaleTests {
  /// An opaque picture with every hue and level: straight and premultiplied
  /// colour agree, so both paths see the same colours.
  static func opaqueImage(width: Int, height: Int) -> RGBAImage {
    var image = RGBAImage(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width {
        let u = Float(x) / Float(width - 1), v = Float(y) / Float(height - 1)
        image[x, y] = SIMD4(u, v, 1 - u * v, 1)
      }
    }
    return image
  }

  /// Every sample of every plane of the two frames, as integers.
  static func samples(_ buffer: _FrameBuffer, planes: Int, bytesPerSample: Int) -> [[Int]] {
    let frame = buffer.frame.pointee
    let data = [frame.data.0, frame.data.1, frame.data.2, frame.data.3]
    let strides = [frame.linesize.0, frame.linesize.1, frame.linesize.2, frame.linesize.3]
    let chromaShift = planes == 3 || bytesPerSample == 1 ? 1 : 0
    return (0..<planes).map { p in
      let subsampled = (p == 1 || p == 2) && chromaShift == 1
      let w = subsampled ? (Int(frame.width) + 1) / 2 : Int(frame.width)
      let h = subsampled ? (Int(frame.height) + 1) / 2 : Int(frame.height)
      var values: [Int] = []
      for y in 0..<h {
        let row = data[p]! + y * Int(strides[p])
        for x in 0..<w {
          values.append(
            bytesPerSample == 1
              ? Int(row[x]) : Int(UnsafeRawPointer(row).load(fromByteOffset: 2 * x, as: UInt16.self)))
        }
      }
      return values
    }
  }

  @Test(arguments: [(AV_PIX_FMT_YUV420P, 3, 1, 2), (AV_PIX_FMT_YUVA420P, 4, 1, 2), (AV_PIX_FMT_YUVA444P10LE, 4, 2, 8)])
  func kernelsAgreeWithLibswscale(format: (AVPixelFormat, planes: Int, bytes: Int, tolerance: Int)) throws {
    let image = Self.opaqueImage(width: 64, height: 48)
    let direct = try _FrameConversion(pixelFormat: format.0, width: 64, height: 48, stored: (64, 48)).convert(image)
      .get()
    let reference = try _convertWithSwscale(image, to: format.0).get()
    let ours = Self.samples(direct, planes: format.planes, bytesPerSample: format.bytes)
    let theirs = Self.samples(reference, planes: format.planes, bytesPerSample: format.bytes)
    for p in 0..<format.planes {
      let worst = zip(ours[p], theirs[p]).map { abs($0 - $1) }.max() ?? 0
      #expect(worst <= format.tolerance, "plane \(p): the kernel and libswscale differ by \(worst) codes")
    }
  }
}
