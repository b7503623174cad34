import SleetMath

/// A timing curve sampled for the batched paths, which cannot afford a Newton
/// solve (and, for the checkerboard, a sine and a cosine) per piece per frame.
///
/// Node k (k = 0…N, N = ``segments``) holds, for x_k = k/N,
///
/// ```
/// e = curve(x_k),   cos(π·e),   sin(π·e),   0
/// ```
///
/// and ``lookup(_:)`` interpolates linearly between nodes. The inputs 0 and 1
/// (and anything outside) return the exact end values. A copy of node N is
/// appended (N + 2 nodes in all) so that a lane-parallel lookup can treat
/// x = 1 as the segment [N, N + 1] with weight 0, without a branch.
///
/// **Postconditions:** for Core Animation's named curves the interpolation
/// error is below h²/8 · max|f″| with h = 1/4096: under 3e−8 for e and under
/// 4e−7 for cos(πe) and sin(πe) (|d²/dx² cos(π e(x))| ≤ π²·e′² + π·|e″| < 50).
/// Multiplied by a tile side s this is far below a pixel for any s ≤ 100 000.
internal struct _CurveTable: Sendable {
  static let segments = 4096
  let nodes: [SIMD4<Float>]

  init(_ curve: TimingFunction) {
    let n = _CurveTable.segments
    var nodes: [SIMD4<Float>] = []
    nodes.reserveCapacity(n + 2)
    for k in 0...n {
      let e = curve.value(at: Double(k) / Double(n))
      nodes.append(SIMD4(Float(e), Float(_cosPi(e)), Float(_sinPi(e)), 0))
    }
    nodes.append(nodes[n])
    self.nodes = nodes
  }

  /// (e, cos πe, sin πe, 0) at x; x ≤ 0 gives node 0 and x ≥ 1 node N exactly.
  /// `nodes` must be the table's storage (passed as a pointer so that the hot
  /// loop does no array access checks).
  @inline(__always)
  static func lookup(_ x: Double, in nodes: UnsafePointer<SIMD4<Float>>) -> SIMD4<Float> {
    let n = segments
    if x <= 0 { return nodes[0] }
    if x >= 1 { return nodes[n] }
    let f = x * Double(n)
    let k = Swift.min(Int(f), n - 1)
    let t = Float(f - Double(k))
    let a = nodes[k]
    let b = nodes[k + 1]
    return a + (b - a) * t
  }
}
