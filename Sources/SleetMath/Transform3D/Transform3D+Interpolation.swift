// Glibc (not Foundation) provides the trigonometry the slerp needs.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Core Animation interpolates `transform` by decomposing both matrices,
// interpolating the parts and recomposing: the algorithm of CSS Transforms
// Level 2, "Interpolation of 3D matrices"
// (https://drafts.csswg.org/css-transforms-2/#interpolation-of-3d-matrices).
// See docs/transform-interpolation.md.

extension Transform3D {
  /// The parts of a decomposed transform (CSS Transforms Level 2, "Decomposing a
  /// 3D matrix", the "unmatrix" of Graphics Gems II with a quaternion).
  ///
  /// With `S` the scale, `K` the shear (the identity with `m21 = xy`, `m31 = xz`,
  /// `m32 = yz`: `[x y z]·K = [x + xy·y + xz·z, y + yz·z, z]`), `R` the rotation of
  /// ``quaternion``, `T` the translation and `P′` the identity with
  /// column 4 (`m14, m24, m34, m44`) replaced by ``perspective``, a decomposition
  /// stands for the row-vector product
  ///
  /// ```
  /// M = S · K · R · T · P′       apply scale, then skew, then rotation,
  ///                              then translation, then perspective
  /// ```
  ///
  /// i.e. `S.concatenating(K).concatenating(R).concatenating(T).concatenating(P′)`,
  /// which is what ``recomposed()`` builds. `P′` is the identity for an affine
  /// transform; for the `m34 = −1/d` idiom it is that matrix itself.
  ///
  /// The quaternion `(x, y, z, w)` of `makeRotation(angle: θ, x:y:z:)` with unit
  /// axis `u` is `(u·sin(θ/2), cos(θ/2))` (or its negation): decomposition always
  /// yields `w ≥ 0`, the representative with rotation angle in [0, π].
  public struct Decomposition: Hashable, Sendable {
    /// The perspective column `(m14, m24, m34, m44)` of `P′`; `(0, 0, 0, 1)` for an
    /// affine transform.
    public var perspective: SIMD4<Double>
    /// `(m41, m42, m43)` of the matrix after dividing it by `m44`.
    public var translation: SIMD3<Double>
    /// The scale factors along x, y, z (negated together when the matrix flips
    /// orientation, as in the spec).
    public var scale: SIMD3<Double>
    /// The shear factors `(xy, xz, yz)`.
    public var skew: SIMD3<Double>
    /// The rotation as a quaternion `(x, y, z, w)`.
    public var quaternion: SIMD4<Double>

    /// A decomposition from its parts; ``recomposed()`` multiplies them back
    /// into a matrix (perspective, translation, rotation, skew, scale).
    public init(
      perspective: SIMD4<Double>, translation: SIMD3<Double>, scale: SIMD3<Double>,
      skew: SIMD3<Double>, quaternion: SIMD4<Double>
    ) {
      self.perspective = perspective
      self.translation = translation
      self.scale = scale
      self.skew = skew
      self.quaternion = quaternion
    }

    /// Recomposes the matrix (CSS "recomposing to a 3D matrix"), rounded once to Float.
    ///
    /// Starting from the identity, in `Double`:
    ///
    /// 1. perspective: column 4 = ``perspective`` (`P′`);
    /// 2. translation: `row4 += t.x·row1 + t.y·row2 + t.z·row3` (= `T · P′`);
    /// 3. rotation: `M = R · M` with, for `q = (x, y, z, w)`,
    ///    ```
    ///    R = ⎡1−2(y²+z²)   2(xy+zw)     2(xz−yw)  ⎤
    ///        ⎢2(xy−zw)     1−2(x²+z²)   2(yz+xw)  ⎥
    ///        ⎣2(xz+yw)     2(yz−xw)     1−2(x²+y²)⎦
    ///    ```
    ///    (row-vector layout: this is the *transpose* of the spec's
    ///    `rotationMatrix`, see below);
    /// 4. skew, each step skipped when its factor is 0 as in the spec:
    ///    `row3 += yz·row2`, then `row3 += xz·row1`, then `row2 += xy·row1`
    ///    (`M = K · M` with `K` lower triangular);
    /// 5. scale: `row_i *= scale[i]` for i = 1…3 (`M = S · M`).
    ///
    /// The result is `S · K · R · T · P′` (apply scale, then skew, then rotation,
    /// then translation, then perspective). The spec's pseudo-code writes
    /// `multiply(matrix, X)` for the column-vector product `matrix · X`, which in
    /// this row-vector layout is `X · matrix`; that reading is the one under which
    /// the spec's skew steps rebuild the decomposition's shear. The spec's
    /// `rotationMatrix` is printed in the column-vector `[row][column]` layout,
    /// the transpose of every other matrix in the pseudo-code: taken literally it
    /// recomposes the inverse rotation (decompose → recompose of a rotation by
    /// +30° gives −30°; w3c/csswg-drafts#3230, and Servo/Gecko store the
    /// transpose as here).
    ///
    /// The `m44` of the result is `t · perspective.xyz + perspective.w`. For the
    /// decomposition of a matrix `M` that is 1: recomposing gives `M / M.m44`
    /// (the decomposition divides by `m44` first), the same projective map when
    /// `M.m44 > 0`. Interpolated parts need not give 1.
    ///
    /// **Precision:** each entry is computed in `Double` and rounded once to
    /// `Float`; decompose → recompose reproduced `M / M.m44` bit for bit on the
    /// 40 random matrices of the tests.
    public func recomposed() -> Transform3D {
      let p = perspective
      var m = _Matrix4D(
        SIMD4(1, 0, 0, p.x), SIMD4(0, 1, 0, p.y), SIMD4(0, 0, 1, p.z), SIMD4(0, 0, 0, p.w))

      // matrix[3][i] += translation[j] * matrix[j][i], j = 0, 1, 2 in that order.
      let t = translation
      m.r3 = ((m.r3 + t.x * m.r0) + t.y * m.r1) + t.z * m.r2

      let (x, y, z, w) = (quaternion.x, quaternion.y, quaternion.z, quaternion.w)
      let rotation = _Matrix4D(
        SIMD4(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0),
        SIMD4(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0),
        SIMD4(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0),
        SIMD4(0, 0, 0, 1))
      m = rotation.times(m)

      if skew.z != 0 { m.r2 += skew.z * m.r1 }
      if skew.y != 0 { m.r2 += skew.y * m.r0 }
      if skew.x != 0 { m.r1 += skew.x * m.r0 }

      m.r0 *= scale.x
      m.r1 *= scale.y
      m.r2 *= scale.z
      return Transform3D(
        row1: SIMD4<Float>(m.r0), row2: SIMD4<Float>(m.r1),
        row3: SIMD4<Float>(m.r2), row4: SIMD4<Float>(m.r3))
    }

    /// Component-wise linear interpolation of every part except the quaternion, which is slerped.
    ///
    /// With `t = fraction`: `perspective`, `translation`, `scale` and `skew` are
    /// `(1 − t)·a + t·b` (exactly `a` at t = 0 and `b` at t = 1). The quaternion is
    /// the spec's slerp, verbatim:
    ///
    /// ```
    /// p = clamp(dot(qa, qb), −1, 1)
    /// if |p| = 1: q = qa
    /// θ = acos(p),  w = sin(tθ) / √(1 − p²)
    /// q = qa·(cos(tθ) − p·w) + qb·w
    /// ```
    ///
    /// **Path:** the spec does *not* negate `qb` when `p < 0`, so the slerp takes
    /// the shorter arc only when `dot(qa, qb) ≥ 0`. From (or to) the identity
    /// `(0, 0, 0, 1)` that always holds (decomposed quaternions have `w ≥ 0`), so
    /// a rotation by 200° is reached as one by −160°, the short way. Between two
    /// rotations it can fail: R_z(170°) → R_z(−170°) passes through the identity
    /// (340° of turning), not through R_z(180°). It holds whenever the two
    /// rotation angles α, β ∈ [0, π] satisfy α + β ≤ π (`dot ≥ cos((α + β)/2)`).
    ///
    /// Fractions outside [0, 1] extrapolate (both the lerp and the slerp formulas
    /// are used as they stand).
    public func interpolated(to other: Decomposition, fraction: Double) -> Decomposition {
      let t = fraction
      return Decomposition(
        perspective: (1 - t) * perspective + t * other.perspective,
        translation: (1 - t) * translation + t * other.translation,
        scale: (1 - t) * scale + t * other.scale,
        skew: (1 - t) * skew + t * other.skew,
        quaternion: Decomposition._slerp(quaternion, other.quaternion, t))
    }

    /// The spec's slerp (no sign flip toward the shorter arc).
    internal static func _slerp(_ qa: SIMD4<Double>, _ qb: SIMD4<Double>, _ t: Double) -> SIMD4<Double> {
      var product = (qa * qb).sum()
      product = min(product, 1.0)
      product = max(product, -1.0)
      if abs(product) == 1.0 { return qa }
      let theta = acos(product)
      let w = sin(t * theta) / (1 - product * product).squareRoot()
      return qa * (cos(t * theta) - product * w) + qb * w
    }
  }

  /// nil when the matrix cannot be decomposed (m44 == 0, or the perspective/upper 3×3 part is singular), as in the spec.
  ///
  /// Also nil when an entry is not finite (the spec has no such case). The steps
  /// of CSS "decomposing a 3D matrix", in `Double`, with `row_i` the upper-left
  /// 3×3 rows:
  ///
  /// 1. divide every entry by `m44`;
  /// 2. perspective: when `(m14, m24, m34) ≠ 0`, solve `N · p = (m14, m24, m34, m44)`
  ///    for the column `p`, where `N` is the matrix with column 4 set to
  ///    `(0, 0, 0, 1)` (the spec's `rightHandSide · transpose(inverse(N))`);
  ///    `N = [[A, 0], [t, 1]]` so `p.xyz = A⁻¹ · (m14, m24, m34)` with
  ///    `A⁻¹ = adj(A) / det(A)` and `p.w = m44 − t · p.xyz`; otherwise `p = (0, 0, 0, 1)`.
  ///    `det(N) = det(A)` is the spec's singularity test;
  /// 3. translation `(m41, m42, m43)`;
  /// 4. Gram–Schmidt on the rows: `scale.x = |row1|`, `row1 /= scale.x`;
  ///    `xy = row1·row2`, `row2 −= xy·row1`, `scale.y = |row2|`, `row2 /= scale.y`,
  ///    `xy /= scale.y`; `xz = row1·row3`, `row3 −= xz·row1`, `yz = row2·row3`,
  ///    `row3 −= yz·row2`, `scale.z = |row3|`, `row3 /= scale.z`, `xz /= scale.z`,
  ///    `yz /= scale.z`;
  /// 5. if `row1 · (row2 × row3) < 0`, negate the three scales and rows;
  /// 6. quaternion, with `r[i][j]` the orthonormal rows:
  ///    `x = ½√max(1 + r00 − r11 − r22, 0)`, `y = ½√max(1 − r00 + r11 − r22, 0)`,
  ///    `z = ½√max(1 − r00 − r11 + r22, 0)`, `w = ½√max(1 + r00 + r11 + r22, 0)`,
  ///    then `x = −x` if `r21 > r12`, `y = −y` if `r02 > r20`, `z = −z` if `r10 > r01`.
  ///
  /// **Edge cases (of the spec's step 6):** `w ≥ 0` always. For an *exact*
  /// half-turn (`w = 0`, symmetric rotation block) the sign tests see equal
  /// entries and leave `x, y, z ≥ 0`, so a half-turn about an axis with mixed
  /// signs, e.g. (1, −1, 0), decomposes as the half-turn about (1, 1, 0)
  /// (w3c/csswg-drafts#3710). Float rotations built by `makeRotation(angle: .pi, …)`
  /// are not exact half-turns and decompose correctly.
  ///
  /// **Precision:** `Double` throughout. The Gram–Schmidt rows are orthonormal
  /// to ~1e−16, but step 6 takes square roots of differences of them, so a
  /// component that is 0 in theory comes out as up to ~1e−8 (√ of the rounding
  /// error); recomposition turns that into entries of order 1e−8 where the exact
  /// value is 0, below Float's resolution at 1 (6e−8).
  public var decomposition: Decomposition? {
    let e = entries.map(Double.init)
    guard e.allSatisfy(\.isFinite), e[15] != 0 else { return nil }
    let m44 = e[15]
    let r0 = SIMD4(e[0], e[1], e[2], e[3]) / m44
    let r1 = SIMD4(e[4], e[5], e[6], e[7]) / m44
    let r2 = SIMD4(e[8], e[9], e[10], e[11]) / m44
    let r3 = SIMD4(e[12], e[13], e[14], e[15]) / m44

    // The upper 3×3 (A) and translation (t) of the normalised matrix.
    var row0 = SIMD3(r0.x, r0.y, r0.z)
    var row1 = SIMD3(r1.x, r1.y, r1.z)
    var row2 = SIMD3(r2.x, r2.y, r2.z)
    let translation = SIMD3(r3.x, r3.y, r3.z)

    // det(perspectiveMatrix) = det(A): its column 4 is (0, 0, 0, 1).
    let c12 = _cross(row1, row2)
    let c20 = _cross(row2, row0)
    let c01 = _cross(row0, row1)
    let det = _dot(row0, c12)
    guard det != 0, det.isFinite else { return nil }

    let perspective: SIMD4<Double>
    if r0.w != 0 || r1.w != 0 || r2.w != 0 {
      // inverse(N) · rightHandSide with N = [[A, 0], [t, 1]], inverse [[A⁻¹, 0], [−t·A⁻¹, 1]];
      // the columns of adj(A) are row1×row2, row2×row0, row0×row1.
      let rhs = SIMD4(r0.w, r1.w, r2.w, r3.w)
      let pxyz = (c12 * rhs.x + c20 * rhs.y + c01 * rhs.z) / det
      perspective = SIMD4(pxyz, rhs.w - _dot(translation, pxyz))
    } else {
      perspective = SIMD4(0, 0, 0, 1)
    }

    var scale = SIMD3<Double>.zero
    var skew = SIMD3<Double>.zero

    // X scale, normalise the first row.
    scale.x = _length(row0)
    row0 /= scale.x

    // XY shear; make the second row orthogonal to the first.
    skew.x = _dot(row0, row1)
    row1 = row1 - skew.x * row0

    // Y scale, normalise the second row.
    scale.y = _length(row1)
    row1 /= scale.y
    skew.x /= scale.y

    // XZ and YZ shears; orthogonalise the third row.
    skew.y = _dot(row0, row2)
    row2 = row2 - skew.y * row0
    skew.z = _dot(row1, row2)
    row2 = row2 - skew.z * row1

    // Z scale, normalise the third row.
    scale.z = _length(row2)
    row2 /= scale.z
    skew.y /= scale.z
    skew.z /= scale.z

    // A coordinate-system flip: negate the scales and the rows.
    if _dot(row0, _cross(row1, row2)) < 0 {
      scale = -scale
      row0 = -row0
      row1 = -row1
      row2 = -row2
    }

    var q = SIMD4<Double>(
      0.5 * max(1 + row0.x - row1.y - row2.z, 0).squareRoot(),
      0.5 * max(1 - row0.x + row1.y - row2.z, 0).squareRoot(),
      0.5 * max(1 - row0.x - row1.y + row2.z, 0).squareRoot(),
      0.5 * max(1 + row0.x + row1.y + row2.z, 0).squareRoot())
    if row2.y > row1.z { q.x = -q.x }
    if row0.z > row2.x { q.y = -q.y }
    if row1.x > row0.y { q.z = -q.z }

    return Decomposition(
      perspective: perspective, translation: translation, scale: scale, skew: skew, quaternion: q)
  }

  /// Core Animation's interpolation of `transform`: decompose both, interpolate, recompose.
  /// fraction 0 returns exactly `self`, 1 exactly `other` (return the inputs themselves, bit-exact, at the end points).
  /// When either matrix cannot be decomposed, the result is `self` for fraction < 0.5 and `other` otherwise (the spec's discrete fallback).
  ///
  /// Otherwise the result is
  /// `decomposition!.interpolated(to: other.decomposition!, fraction:).recomposed()`:
  /// translation, scale, skew and perspective move linearly, the rotation along
  /// the spec's slerp (see ``Decomposition/interpolated(to:fraction:)`` for the
  /// path it takes past 180°). Fractions outside [0, 1] extrapolate.
  ///
  /// **Edge cases:** the parts are those of the inputs divided by their `m44`, so
  /// for an input with `m44 ≠ 1` (e.g. a z translation under perspective) the
  /// entries jump by that factor at its end point (the input is returned as is),
  /// while the projected image does not (when `m44 > 0`). A NaN fraction gives
  /// NaN entries (or `other`, in the discrete fallback).
  ///
  /// **Precision:** computed in `Double` and rounded once to `Float`; matches an
  /// independent float64 implementation of the spec
  /// (docs/tools/transform_interpolation_reference.py) to the Float, except for a
  /// 1-ulp difference where a result lies exactly on a tie between two Floats.
  public func interpolated(to other: Transform3D, fraction: Double) -> Transform3D {
    if fraction == 0 { return self }
    if fraction == 1 { return other }
    guard let a = decomposition, let b = other.decomposition else {
      return fraction < 0.5 ? self : other
    }
    return a.interpolated(to: b, fraction: fraction).recomposed()
  }
}

// MARK: - Double helpers (private to this file)

/// Four `Double` rows, row-major like `Transform3D`.
private struct _Matrix4D {
  var r0, r1, r2, r3: SIMD4<Double>

  init(_ r0: SIMD4<Double>, _ r1: SIMD4<Double>, _ r2: SIMD4<Double>, _ r3: SIMD4<Double>) {
    (self.r0, self.r1, self.r2, self.r3) = (r0, r1, r2, r3)
  }

  /// `self · other`: row i = Σ_k self[i][k] · other.row_k, k in order.
  func times(_ o: _Matrix4D) -> _Matrix4D {
    func row(_ r: SIMD4<Double>) -> SIMD4<Double> {
      ((r.x * o.r0 + r.y * o.r1) + r.z * o.r2) + r.w * o.r3
    }
    return _Matrix4D(row(r0), row(r1), row(r2), row(r3))
  }
}

private func _dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
  (a.x * b.x + a.y * b.y) + a.z * b.z
}

private func _length(_ a: SIMD3<Double>) -> Double {
  _dot(a, a).squareRoot()
}

private func _cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
  SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
