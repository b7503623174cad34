import CPNG

/// Byte-level PNG building blocks for the hand-written APNG encoder.
internal enum _PNG {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// Appends one chunk: big-endian length, 4-byte type, data, CRC-32 (zlib's
  /// `crc32`, over type and data, as the PNG specification §5.3 defines).
  static func appendChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
    let typeBytes = Array(type.utf8)
    precondition(typeBytes.count == 4, "PNG chunk type must be 4 bytes: \(type)")
    appendUInt32(UInt32(data.count), to: &out)
    out += typeBytes
    out += data
    var crc = typeBytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, 4) }
    crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
    appendUInt32(UInt32(crc), to: &out)
  }

  static func appendUInt32(_ v: UInt32, to out: inout [UInt8]) {
    out += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
  }

  static func appendUInt16(_ v: UInt16, to out: inout [UInt8]) {
    out += [UInt8(v >> 8), UInt8(v & 0xFF)]
  }

  /// IHDR for 8-bit RGBA, no interlace.
  static func header(width: Int, height: Int) -> [UInt8] {
    var data: [UInt8] = []
    appendUInt32(UInt32(width), to: &data)
    appendUInt32(UInt32(height), to: &data)
    data += [8, 6, 0, 0, 0]  // bit depth, colour type RGBA, deflate, adaptive filters, no interlace
    return data
  }

  /// The zlib stream of an image's filtered scanlines (the contents of IDAT or,
  /// after a sequence number, fdAT).
  ///
  /// Each row gets the filter (None, Sub, Up, Average, Paeth; PNG §9) whose
  /// output has the smallest sum of absolute values as signed bytes — the
  /// heuristic the PNG specification recommends (§12.8).
  /// - Complexity: O(pixels), plus deflate.
  static func compressedScanlines(_ rgba: [UInt8], width: Int, height: Int, level: Int32) -> [UInt8] {
    let stride = 4 * width
    var filtered = [UInt8](repeating: 0, count: (stride + 1) * height)
    rgba.withUnsafeBufferPointer { src in
      filtered.withUnsafeMutableBufferPointer { dst in
        // Scratch: five candidate rows, then one zero row standing in for
        // the row above the first.
        var scratch = [UInt8](repeating: 0, count: 6 * stride)
        scratch.withUnsafeMutableBufferPointer { cand in
          let zeroRow = UnsafePointer(cand.baseAddress! + 5 * stride)
          for y in 0..<height {
            let row = src.baseAddress! + y * stride
            _filterRow(
              row, above: y > 0 ? row - stride : zeroRow, stride: stride,
              candidates: cand.baseAddress!, into: dst.baseAddress! + y * (stride + 1))
          }
        }
      }
    }
    var size = compressBound(uLong(filtered.count))
    var out = [UInt8](repeating: 0, count: Int(size))
    let status = out.withUnsafeMutableBufferPointer { dst in
      filtered.withUnsafeBufferPointer { compress2(dst.baseAddress, &size, $0.baseAddress, uLong($0.count), level) }
    }
    precondition(status == Z_OK, "zlib compress2 failed with status \(status)")
    // A copy of the exact size: `removeSubrange` would keep the whole
    // compressBound capacity (≈ the raw frame) alive with every frame.
    return Array(out[..<Int(size)])
  }

  /// Kernel: filters one row five ways into `candidates` (5 × stride bytes)
  /// and writes the filter byte plus the best candidate to `out`
  /// (stride + 1 bytes). Invariant: `row` and `above` hold `stride` bytes each
  /// (`above` is zeros for the first row); no buffers overlap.
  private static func _filterRow(
    _ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, stride: Int,
    candidates: UnsafeMutablePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>
  ) {
    var sums = SIMD8<Int>.zero
    for i in 0..<stride {
      let x = row[i]
      let a: UInt8 = i >= 4 ? row[i - 4] : 0
      let b = above[i]
      let c: UInt8 = i >= 4 ? above[i - 4] : 0
      let p = Int(a) + Int(b) - Int(c)
      let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
      let paeth = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
      let values = SIMD8<UInt8>(x, x &- a, x &- b, x &- UInt8((Int(a) + Int(b)) / 2), x &- paeth, 0, 0, 0)
      for f in 0..<5 {
        candidates[f * stride + i] = values[f]
        sums[f] += abs(Int(Int8(bitPattern: values[f])))
      }
    }
    var best = 0
    for f in 1..<5 where sums[f] < sums[best] { best = f }
    out[0] = UInt8(best)
    (out + 1).update(from: candidates + best * stride, count: stride)
  }
}
