/// Sine and cosine of eight `Float`s at once, for the per-particle affine.
///
/// ```
/// k = round(x · 2/π)               (via the 1.5·2²³ magic-number trick)
/// r = x − k·C₁ − k·C₂ − k·C₃         (Cody–Waite, C₁+C₂+C₃ = π/2, |r| ≤ π/4 + ε)
/// sin r ≈ r − r³/3! + r⁵/5! − r⁷/7! + r⁹/9!
/// cos r ≈ 1 − r²/2! + r⁴/4! − r⁶/6! + r⁸/8!
/// quadrant k mod 4 selects (±sin r, ±cos r)
/// ```
///
/// **Precision:** absolute error ≤ 2·10⁻⁷ for |x| ≤ 10⁴ (tested against libm);
/// it grows with |x| beyond that as the reduction loses bits, and the result is
/// meaningless past |x| ≈ 4·10⁶ (where the magic trick stops rounding).
/// **Edge Cases:** NaN in, NaN out. Deterministic: no FMA (Swift does not
/// contract), the same bits on every thread.
enum FastTrig {
  @inline(__always)
  static func sinCos(_ x: SIMD8<Float>) -> (sin: SIMD8<Float>, cos: SIMD8<Float>) {
    let magic = SIMD8<Float>(repeating: 12_582_912)  // 1.5·2²³
    let shifted: SIMD8<Float> = x * SIMD8(repeating: 0.636_619_77) + magic
    let k: SIMD8<Float> = shifted - magic
    let quadrant: SIMD8<UInt32> = shifted.bitPattern & SIMD8(repeating: 3)
    // Three-part π/2 (Cephes): k·C₁ and k·C₂ are exact for |k| < 2¹⁵.
    var r: SIMD8<Float> = x - k * SIMD8(repeating: 1.570_312_5)
    r = r - k * SIMD8(repeating: 4.837_512_969_970_703_125e-4)
    r = r - k * SIMD8(repeating: 7.549_789_954_891_882_16e-8)
    let r2 = r * r
    typealias V = SIMD8<Float>
    var ps: V = r2 * V(repeating: 1.0 / 362_880) + V(repeating: -1.0 / 5040)
    ps = r2 * ps + V(repeating: 1.0 / 120)
    ps = r2 * ps + V(repeating: -1.0 / 6)
    let s: V = r + (r * r2) * ps
    var pc: V = r2 * V(repeating: 1.0 / 40320) + V(repeating: -1.0 / 720)
    pc = r2 * pc + V(repeating: 1.0 / 24)
    pc = r2 * pc + V(repeating: -0.5)
    let c: V = V(repeating: 1) + r2 * pc
    // Quadrants 1 and 3 swap sin and cos; 2, 3 negate sin; 1, 2 negate cos.
    // Pure integer bit operations: lane-wise mask comparisons on integer SIMD
    // lower to per-lane loops on this toolchain.
    let swap: SIMD8<UInt32> = SIMD8(repeating: 0) &- (quadrant & SIMD8(repeating: 1))
    let sb = s.bitPattern
    let cb = c.bitPattern
    let sinBits: SIMD8<UInt32> =
      ((sb & ~swap) | (cb & swap)) ^ ((quadrant & SIMD8(repeating: 2)) &<< SIMD8(repeating: 30))
    let cosBits: SIMD8<UInt32> =
      ((cb & ~swap) | (sb & swap))
      ^ (((quadrant &+ SIMD8(repeating: 1)) & SIMD8(repeating: 2)) &<< SIMD8(repeating: 30))
    let sinOut = unsafeBitCast(sinBits, to: SIMD8<Float>.self)
    let cosOut = unsafeBitCast(cosBits, to: SIMD8<Float>.self)
    return (sinOut, cosOut)
  }
}

extension SIMD8 where Scalar == Float {
  @inline(__always)
  var bitPattern: SIMD8<UInt32> { unsafeBitCast(self, to: SIMD8<UInt32>.self) }
}
