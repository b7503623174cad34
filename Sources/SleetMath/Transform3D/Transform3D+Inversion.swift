extension Transform3D {
  /// The inverse, or `nil` when the matrix is singular (or has non-finite
  /// entries, or its inverse would overflow `Float`).
  ///
  /// Computed by cofactor expansion in `Double` and rounded once to `Float`; for
  /// well-conditioned matrices `self · inverse` is the identity within a few ulps.
  ///
  /// - Complexity: O(1), about 200 flops.
  public var inverse: Transform3D? {
    let m = entries.map(Double.init)
    // Cofactors of a 4×4 via 2×2 sub-determinants (the standard "MESA" layout).
    let s0 = m[0] * m[5] - m[4] * m[1]
    let s1 = m[0] * m[6] - m[4] * m[2]
    let s2 = m[0] * m[7] - m[4] * m[3]
    let s3 = m[1] * m[6] - m[5] * m[2]
    let s4 = m[1] * m[7] - m[5] * m[3]
    let s5 = m[2] * m[7] - m[6] * m[3]
    let c5 = m[10] * m[15] - m[14] * m[11]
    let c4 = m[9] * m[15] - m[13] * m[11]
    let c3 = m[9] * m[14] - m[13] * m[10]
    let c2 = m[8] * m[15] - m[12] * m[11]
    let c1 = m[8] * m[14] - m[12] * m[10]
    let c0 = m[8] * m[13] - m[12] * m[9]
    let det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
    guard det != 0, det.isFinite else { return nil }
    let r = 1 / det
    let inv: [Double] = [
      (m[5] * c5 - m[6] * c4 + m[7] * c3) * r,
      (-m[1] * c5 + m[2] * c4 - m[3] * c3) * r,
      (m[13] * s5 - m[14] * s4 + m[15] * s3) * r,
      (-m[9] * s5 + m[10] * s4 - m[11] * s3) * r,
      (-m[4] * c5 + m[6] * c2 - m[7] * c1) * r,
      (m[0] * c5 - m[2] * c2 + m[3] * c1) * r,
      (-m[12] * s5 + m[14] * s2 - m[15] * s1) * r,
      (m[8] * s5 - m[10] * s2 + m[11] * s1) * r,
      (m[4] * c4 - m[5] * c2 + m[7] * c0) * r,
      (-m[0] * c4 + m[1] * c2 - m[3] * c0) * r,
      (m[12] * s4 - m[13] * s2 + m[15] * s0) * r,
      (-m[8] * s4 + m[9] * s2 - m[11] * s0) * r,
      (-m[4] * c3 + m[5] * c1 - m[6] * c0) * r,
      (m[0] * c3 - m[1] * c1 + m[2] * c0) * r,
      (-m[12] * s3 + m[13] * s1 - m[14] * s0) * r,
      (m[8] * s3 - m[9] * s1 + m[10] * s0) * r,
    ]
    let f = inv.map { Float($0) }
    guard f.allSatisfy(\.isFinite) else { return nil }
    return Transform3D(
      row1: SIMD4(f[0], f[1], f[2], f[3]), row2: SIMD4(f[4], f[5], f[6], f[7]),
      row3: SIMD4(f[8], f[9], f[10], f[11]), row4: SIMD4(f[12], f[13], f[14], f[15]))
  }

  /// `CATransform3DInvert`: the inverse, or `self` unchanged when the matrix is
  /// singular, exactly as Core Animation behaves. Use ``inverse`` to detect that case.
  public func inverted() -> Transform3D {
    inverse ?? self
  }
}
