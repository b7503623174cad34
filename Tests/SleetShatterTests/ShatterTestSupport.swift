import SleetMath

@testable import SleetShatter

/// Largest |a − b| over two corner streams; NaN in both places counts as equal,
/// NaN in one only as infinite.
func maxCornerDifference(_ a: [SIMD2<Float>], _ b: [SIMD2<Float>]) -> Float {
  precondition(a.count == b.count)
  var worst: Float = 0
  for i in 0..<a.count {
    for lane in 0..<2 {
      let x = a[i][lane]
      let y = b[i][lane]
      if x.isNaN && y.isNaN { continue }
      if x.isNaN || y.isNaN { return .infinity }
      worst = max(worst, abs(x - y))
    }
  }
  return worst
}

/// The corners of a grid cell in container points, TL, TR, BR, BL.
func cellCorners(column: Int, row: Int, side: Double) -> [SIMD2<Float>] {
  let x0 = Float(Double(column) * side)
  let y0 = Float(Double(row) * side)
  let x1 = Float(Double(column + 1) * side)
  let y1 = Float(Double(row + 1) * side)
  return [SIMD2(x0, y0), SIMD2(x1, y0), SIMD2(x1, y1), SIMD2(x0, y1)]
}

/// Bitwise equality of two corner streams (distinguishes NaN payloads and ±0).
func bitwiseEqual(_ a: [SIMD2<Float>], _ b: [SIMD2<Float>]) -> Bool {
  a.count == b.count
    && zip(a, b).allSatisfy { $0.x.bitPattern == $1.x.bitPattern && $0.y.bitPattern == $1.y.bitPattern }
}

extension ShatterFrame {
  func cornersOf(_ i: Int) -> [SIMD2<Float>] { Array(corners[(4 * i)..<(4 * i + 4)]) }
}
