import SleetMath

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
  /// Eight lanes: the four-lane kernel on each half (the same bits as
  /// calling it on the halves). In AVX2 builds the same kernel written on
  /// `SIMD8` (one `ymm` register per step, ``sinCos8(_:)``): lane-wise the
  /// same operations, so the same bits.
  @inline(__always)
  static func sinCos(_ x: SIMD8<Float>) -> (sin: SIMD8<Float>, cos: SIMD8<Float>) {
    if SIMDBuildTarget.hasAVX2AndFMA { return sinCos8(x) }
    let low = sinCos(x.lowHalf)
    let high = sinCos(x.highHalf)
    return (SIMD8(lowHalf: low.sin, highHalf: high.sin), SIMD8(lowHalf: low.cos, highHalf: high.cos))
  }

  /// Four lanes, one SSE register: every step below is one vector
  /// instruction (shifts by a constant, `&`, `|`, `^`; no integer compares,
  /// which lower to per-lane code on this toolchain).
  @inline(__always)
  static func sinCos(_ x: SIMD4<Float>) -> (sin: SIMD4<Float>, cos: SIMD4<Float>) {
    typealias V = SIMD4<Float>
    typealias U = SIMD4<UInt32>
    let magic = V(repeating: 12_582_912)  // 1.5·2²³
    let shifted: V = x * V(repeating: 0.636_619_77) + magic
    let k: V = shifted - magic
    let quadrant: U = unsafeBitCast(shifted, to: U.self) & U(repeating: 3)
    // Three-part π/2 (Cephes): k·C₁ and k·C₂ are exact for |k| < 2¹⁵.
    var r: V = x - k * V(repeating: 1.570_312_5)
    r = r - k * V(repeating: 4.837_512_969_970_703_125e-4)
    r = r - k * V(repeating: 7.549_789_954_891_882_16e-8)
    let r2 = r * r
    var ps: V = r2 * V(repeating: 1.0 / 362_880) + V(repeating: -1.0 / 5040)
    ps = r2 * ps + V(repeating: 1.0 / 120)
    ps = r2 * ps + V(repeating: -1.0 / 6)
    let s: V = r + (r * r2) * ps
    var pc: V = r2 * V(repeating: 1.0 / 40320) + V(repeating: -1.0 / 720)
    pc = r2 * pc + V(repeating: 1.0 / 24)
    pc = r2 * pc + V(repeating: -0.5)
    let c: V = V(repeating: 1) + r2 * pc
    // Quadrants 1 and 3 swap sin and cos; 2, 3 negate sin; 1, 2 negate cos.
    let swap: U = U(repeating: 0) &- (quadrant & U(repeating: 1))
    let sb = unsafeBitCast(s, to: U.self)
    let cb = unsafeBitCast(c, to: U.self)
    let sinBits: U = ((sb & ~swap) | (cb & swap)) ^ ((quadrant & U(repeating: 2)) &<< 30)
    let cosBits: U = ((cb & ~swap) | (sb & swap)) ^ (((quadrant &+ U(repeating: 1)) & U(repeating: 2)) &<< 30)
    return (unsafeBitCast(sinBits, to: V.self), unsafeBitCast(cosBits, to: V.self))
  }
}

extension FastTrig {
  /// ``sinCos(_:)-(SIMD4<Float>)`` on eight lanes, operation for operation
  /// (keep the two in step: the tests compare the eight-lane cone with the
  /// scalar one in the haswell build; and with `sleet_sincos8`, the C copy
  /// in `CSleetKernels` that the frame's block loop uses, which
  /// `BlockRunKernelTests` compares with these bit for bit).
  @inline(__always)
  static func sinCos8(_ x: SIMD8<Float>) -> (sin: SIMD8<Float>, cos: SIMD8<Float>) {
    typealias V = SIMD8<Float>
    typealias U = SIMD8<UInt32>
    let magic = V(repeating: 12_582_912)  // 1.5·2²³
    let shifted: V = x * V(repeating: 0.636_619_77) + magic
    let k: V = shifted - magic
    let quadrant: U = unsafeBitCast(shifted, to: U.self) & U(repeating: 3)
    var r: V = x - k * V(repeating: 1.570_312_5)
    r = r - k * V(repeating: 4.837_512_969_970_703_125e-4)
    r = r - k * V(repeating: 7.549_789_954_891_882_16e-8)
    let r2 = r * r
    var ps: V = r2 * V(repeating: 1.0 / 362_880) + V(repeating: -1.0 / 5040)
    ps = r2 * ps + V(repeating: 1.0 / 120)
    ps = r2 * ps + V(repeating: -1.0 / 6)
    let s: V = r + (r * r2) * ps
    var pc: V = r2 * V(repeating: 1.0 / 40320) + V(repeating: -1.0 / 720)
    pc = r2 * pc + V(repeating: 1.0 / 24)
    pc = r2 * pc + V(repeating: -0.5)
    let c: V = V(repeating: 1) + r2 * pc
    let swap: U = U(repeating: 0) &- (quadrant & U(repeating: 1))
    let sb = unsafeBitCast(s, to: U.self)
    let cb = unsafeBitCast(c, to: U.self)
    let sinBits: U = ((sb & ~swap) | (cb & swap)) ^ ((quadrant & U(repeating: 2)) &<< 30)
    let cosBits: U = ((cb & ~swap) | (sb & swap)) ^ (((quadrant &+ U(repeating: 1)) & U(repeating: 2)) &<< 30)
    return (unsafeBitCast(sinBits, to: V.self), unsafeBitCast(cosBits, to: V.self))
  }
}

extension SIMD8 where Scalar == Float {
  @inline(__always)
  var bitPattern: SIMD8<UInt32> { unsafeBitCast(self, to: SIMD8<UInt32>.self) }
}
