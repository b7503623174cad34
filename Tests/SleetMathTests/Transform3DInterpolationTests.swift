import Testing

@testable import SleetMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Degrees to Float radians: one Double product, rounded once (the reference
/// script docs/tools/transform_interpolation_reference.py builds its inputs the same way).
private func radians(_ degrees: Double) -> Float {
  Float(degrees * Double.pi / 180)
}

/// A Transform3D from 16 row-major entries.
private func matrix(_ e: [Float]) -> Transform3D {
  precondition(e.count == 16)
  return Transform3D(
    row1: SIMD4(e[0], e[1], e[2], e[3]), row2: SIMD4(e[4], e[5], e[6], e[7]),
    row3: SIMD4(e[8], e[9], e[10], e[11]), row4: SIMD4(e[12], e[13], e[14], e[15]))
}

/// The rotation about z by `degrees` written out by hand (row vectors:
/// (1, 0) maps to (cos, sin)), entries from Double trigonometry.
private func handRotationZ(_ degrees: Double) -> Transform3D {
  let a = degrees * Double.pi / 180
  let (c, s) = (Float(cos(a)), Float(sin(a)))
  return matrix([c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
}

/// Largest entry-wise difference, in units of `ulp(max(|expected|, floor))`.
/// `floor` keeps entries that are 0 in theory from demanding sub-normal agreement.
private func maxULPError(_ actual: Transform3D, _ expected: Transform3D, floor: Float) -> Float {
  zip(actual.entries, expected.entries).map { a, e in
    abs(a - e) / max(abs(e), floor).ulp
  }.max()!
}

private func bitPatterns(_ t: Transform3D) -> [UInt32] { t.entries.map(\.bitPattern) }

/// det of the upper-left 3×3 and the largest deviation of its rows from an orthonormal set.
private func rotationDefects(_ t: Transform3D) -> (determinant: Double, orthonormality: Double) {
  let r = [t.row1, t.row2, t.row3].map { SIMD3<Double>(Double($0.x), Double($0.y), Double($0.z)) }
  let det =
    r[0].x * (r[1].y * r[2].z - r[1].z * r[2].y) - r[0].y * (r[1].x * r[2].z - r[1].z * r[2].x)
    + r[0].z * (r[1].x * r[2].y - r[1].y * r[2].x)
  var worst = 0.0
  for i in 0..<3 {
    for j in 0..<3 {
      let d = (r[i] * r[j]).sum() - (i == j ? 1 : 0)
      worst = max(worst, abs(d))
    }
  }
  return (det, worst)
}

@Suite("Transform3D interpolation (CSS Transforms Level 2 decomposition)")
struct Transform3DInterpolationTests {
  static let perspective900 = Transform3D.makePerspective(eyeDistance: 900)

  // MARK: 1. Hand-derived values

  @Test func halfWayToAQuarterTurnIsAnEighthTurn() {
    // q(R_z(90°)) = (0, 0, sin 45°, cos 45°); the slerp from (0, 0, 0, 1) at ½ is
    // (0, 0, sin 22.5°, cos 22.5°) = q(R_z(45°)).
    let r90 = Transform3D.makeRotation(angle: radians(90), x: 0, y: 0, z: 1)
    let half = Transform3D.identity.interpolated(to: r90, fraction: 0.5)
    let h = Float(0.5.squareRoot())
    let expected = matrix([h, h, 0, 0, -h, h, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    // Float(π/2) is 4.4e−8 past π/2, so the exact half-angle is off by 2.2e−8: within 1 ulp.
    #expect(maxULPError(half, expected, floor: 1) <= 1)
  }

  @Test func translationIsLinear() {
    let t = Transform3D.makeTranslation(x: 10, y: -20, z: 30)
    let quarter = Transform3D.identity.interpolated(to: t, fraction: 0.25)
    // Every other part is the identity's, so the result is exact.
    #expect(quarter == Transform3D.makeTranslation(x: 2.5, y: -5, z: 7.5))
  }

  @Test func scaleIsLinearNotGeometric() {
    let a = Transform3D.makeScale(x: 2, y: 4, z: 1)
    let b = Transform3D.makeScale(x: 4, y: 8, z: 1)
    // (2 + 4)/2 = 3 and (4 + 8)/2 = 6; a geometric mean would give √8 ≈ 2.83 and √32 ≈ 5.66.
    #expect(a.interpolated(to: b, fraction: 0.5) == Transform3D.makeScale(x: 3, y: 6, z: 1))
  }

  @Test func perspectiveIsLinearInM34() {
    // decomposition(P).perspective = (0, 0, −1/900, 1); half of it is (0, 0, −1/1800, 1),
    // and halving a Float is exact, so m34 is exactly Float(−1/1800).
    let half = Transform3D.identity.interpolated(to: Self.perspective900, fraction: 0.5)
    var expected = Transform3D.identity
    expected.m34 = -1 / Float(1800)
    #expect(half == expected)
  }

  @Test func rotationThenPerspectiveInterpolatesBothParts() {
    // M = R·P with R = R_x(15°), P = identity with m34 = −1/900. Its upper 3×3 is R
    // (P changes only column 4), so the spec's perspectiveMatrix is R (with
    // row 4 = (0, 0, 0, 1)), and the right-hand side, column 4 of M, is
    // R·(0, 0, −1/900) with w = 1: solving R·p = R·(0, 0, −1/900) gives the
    // perspective vector (0, 0, −1/900, 1). The rest decomposes as R alone. At ½:
    // perspective (0, 0, −1/1800, 1), quaternion of R_x(7.5°), so the result is
    // R_x(7.5°)·P(−1/1800).
    let m = Transform3D.makeRotation(angle: radians(15), x: 1, y: 0, z: 0)
      .concatenating(Self.perspective900)
    let half = Transform3D.identity.interpolated(to: m, fraction: 0.5)
    let a = 7.5 * Double.pi / 180
    let (c, s, d) = (cos(a), sin(a), -1.0 / 1800)
    // R_x(θ) in row-vector layout: row2 = (0, c, s), row3 = (0, −s, c); times P puts
    // m24 = s·d and m34 = c·d.
    let expected = matrix(
      [1, 0, 0, 0, 0, Float(c), Float(s), Float(s * d), 0, Float(-s), Float(c), Float(c * d), 0, 0, 0, 1])
    #expect(maxULPError(half, expected, floor: 1e-3) <= 1)
  }

  // MARK: 2. Rotations past π

  @Test func rotationPastPiTakesTheShortWayFromIdentity() throws {
    // R_z(200°) is the same matrix as R_z(−160°). The decomposition returns w =
    // ½√(1 + trace) ≥ 0: |z| = sin 80°, w = cos 80°, and z < 0 because
    // m21 = −sin 200° = 0.34 > m12 = sin 200° = −0.34. So q = (0, 0, −sin 80°, cos 80°),
    // the rotation by −160°. dot(q_identity, q) = cos 80° > 0, so the spec's slerp
    // (which never flips signs) goes 80° in quaternion space toward it and stops
    // half way: (0, 0, −sin 40°, cos 40°) = R_z(−80°). Not R_z(100°).
    let r200 = Transform3D.makeRotation(angle: radians(200), x: 0, y: 0, z: 1)
    let q = try #require(r200.decomposition).quaternion
    let a80 = 80 * Double.pi / 180
    #expect(abs(q.z + sin(a80)) < 1e-7 && abs(q.w - cos(a80)) < 1e-7)
    let half = Transform3D.identity.interpolated(to: r200, fraction: 0.5)
    #expect(maxULPError(half, handRotationZ(-80), floor: 1) <= 1)
    #expect(maxULPError(half, handRotationZ(100), floor: 1) > 1_000_000)
  }

  @Test func slerpBetweenTwoRotationsCanTakeTheLongWay() {
    // q(R_z(170°)) = (0, 0, sin 85°, cos 85°), q(R_z(−170°)) = (0, 0, −sin 85°, cos 85°):
    // both have w ≥ 0, their dot is cos²85° − sin²85° = cos 170° < 0, and the spec
    // does not negate one of them. The slerp midpoint is (qa + qb)/(2 cos 85°) =
    // (0, 0, 0, 1): the identity, reached by turning back through 0° (340°), not
    // R_z(180°) (20°), which a shortest-path slerp would give.
    let a = Transform3D.makeRotation(angle: radians(170), x: 0, y: 0, z: 1)
    let b = Transform3D.makeRotation(angle: radians(-170), x: 0, y: 0, z: 1)
    let half = a.interpolated(to: b, fraction: 0.5)
    #expect(maxULPError(half, .identity, floor: 1) <= 1)
  }

  // MARK: 3. The 15° tilt, against the independent reference

  /// P = m34 −1/900; t1 = R_x(15°)·S(0.95, 0.95, 1)·P; t2 = S(0.8, 0.8, 1)·T(0, −0.08·844, 0)·P.
  static let t1 = Transform3D.makeRotation(angle: radians(15), x: 1, y: 0, z: 0)
    .concatenating(.makeScale(x: 0.95, y: 0.95, z: 1)).concatenating(perspective900)
  static let t2 = Transform3D.makeScale(x: 0.8, y: 0.8, z: 1)
    .concatenating(.makeTranslation(x: 0, y: Float(-0.08 * 844.0), z: 0)).concatenating(perspective900)

  /// g = S(2, 3, 0.5)·K·R(40°, axis (1, −2, 0.5))·T(5, −7, 11)·P₂ with all three
  /// shears in K (xy 0.3, xz −0.2, yz 0.4) and P₂ = m14 0.002, m34 −1/400: pins the
  /// order of the skew steps and the perspective solve (p.w ≠ 1), which t1 and t2 do not.
  static let g: Transform3D = {
    var p2 = Transform3D.makePerspective(eyeDistance: 400)
    p2.m14 = 0.002
    let shear = matrix([1, 0, 0, 0, 0.3, 1, 0, 0, -0.2, 0.4, 1, 0, 0, 0, 0, 1])
    return Transform3D.makeScale(x: 2, y: 3, z: 0.5).concatenating(shear)
      .concatenating(.makeRotation(angle: radians(40), x: 1, y: -2, z: 0.5))
      .concatenating(Transform3D.makeTranslation(x: 5, y: -7, z: 11).concatenating(p2))
  }()

  /// Output of `python3 docs/tools/transform_interpolation_reference.py` (float64
  /// implementation of the spec from its text, with numpy's 4×4 inverse; 9
  /// significant digits, enough to identify a Float).
  static let reference: [(from: Transform3D, to: Transform3D, fraction: Double, entries: [Float])] = [
    (
      .identity, t1, 0.25,
      [
        0.987499997, 0, 0, 0, 0, 0.986024503, 0.0678739741, -1.88538843e-05, 0, -0.0622181221, 0.997181692,
        -0.000276994913, 0, 0, 0, 1,
      ]
    ),
    (
      .identity, t1, 0.5,
      [
        0.974999994, 0, 0, 0, 0, 0.967503183, 0.133832231, -7.43512445e-05, 0, -0.124091071, 0.990540112,
        -0.000550300059, 0, 0, 0, 1,
      ]
    ),
    (
      .identity, t1, 0.75,
      [
        0.962499991, 0, 0, 0, 0, 0.944632781, 0.197574648, -0.000164645547, 0, -0.185387391, 0.980106491,
        -0.000816755404, 0, 0, 0, 1,
      ]
    ),
    (
      t1, t2, 0.25,
      [
        0.912499994, 0, 0, 0, 0, 0.895691807, 0.1873384, -0.000208153786, 0, -0.185387391, 0.980106491,
        -0.00108900721, 0, -16.8799992, 0, 1,
      ]
    ),
    (
      t1, t2, 0.5,
      [
        0.875, 0, 0, 0, 0, 0.868446398, 0.12012996, -0.00013347774, 0, -0.124091071, 0.990540112,
        -0.00110060014, 0, -33.7599983, 0, 1,
      ]
    ),
    (
      t1, t2, 0.75,
      [
        0.837500006, 0, 0, 0, 0, 0.836378634, 0.0575729523, -6.39699504e-05, 0, -0.0622181221, 0.997181692,
        -0.00110797968, 0, -50.6399975, 0, 1,
      ]
    ),
    (
      t2, .identity, 0.25,
      [
        0.850000009, 0, 0, 0, 0, 0.850000009, 0, 0, 0, 0, 1, -0.000833333354, 0, -50.6399975, 0, 1,
      ]
    ),
    (
      t2, .identity, 0.5,
      [
        0.900000006, 0, 0, 0, 0, 0.900000006, 0, 0, 0, 0, 1, -0.000555555569, 0, -33.7599983, 0, 1,
      ]
    ),
    (
      t2, .identity, 0.75,
      [
        0.950000003, 0, 0, 0, 0, 0.950000003, 0, 0, 0, 0, 1, -0.000277777785, 0, -16.8799992, 0, 1,
      ]
    ),
    (
      .identity, g, 0.25,
      [
        1.24342322, 0.0404179488, 0.19263706, 0.000501313498, 0.0460015026, 1.51152868, 0.127680531,
        -5.67995532e-05, -0.178847883, 0.0169769379, 0.864216731, -0.000629559412, 1.27226461, -1.78117045,
        2.79898214, 1.00333969,
      ]
    ),
    (
      .identity, g, 0.5,
      [
        1.44371175, 0.0784111775, 0.461844618, 0.000866406094, 0.0913397385, 2.01332132, 0.371751062,
        -0.000373349017, -0.30739119, 0.0235428741, 0.708953849, -0.00119358354, 2.54452922, -3.56234091,
        5.59796428, 1.00445293,
      ]
    ),
  ]

  @Test func tiltMatchesTheReferenceImplementation() {
    // The inputs are the script's inputs bit for bit (it rebuilds them in float32).
    #expect(
      Self.t1.entries == [
        0.949999988, 0, 0, 0, 0, 0.91762954, 0.258819044, -0.000287576724, 0, -0.245878085, 0.965925813,
        -0.0010732509, 0, 0, 0, 1,
      ])
    #expect(
      Self.t2.entries == [
        0.800000012, 0, 0, 0, 0, 0.800000012, 0, 0, 0, 0, 1, -0.00111111114, 0, -67.5199966, 0, 1,
      ])
    #expect(
      Self.g.entries == [
        1.62121487, 0.102283664, 1.16670501, 0.000325667439, 0.0413656831, 2.8789165, 1.23293495,
        -0.00299960584, -0.396334231, 0.0211958587, 0.377451867, -0.0017362982, 5, -7, 11, 0.982500017,
      ])
    // Each entry within 1 ulp of itself (entries below 1e−6 within 1 ulp of 1e−6).
    // Not 0: 9 digits identify a Float, but a float64 result that lies exactly on a
    // tie between two Floats (e.g. the scale (1 + 0.95)/2) prints on one side of it
    // and may round to the other Float here. Observed: 0 ulp except at such ties.
    for c in Self.reference {
      let actual = c.from.interpolated(to: c.to, fraction: c.fraction)
      let error = maxULPError(actual, matrix(c.entries), floor: 1e-6)
      #expect(error <= 1, "\(c.fraction): \(actual.entries) vs \(c.entries), \(error) ulp")
    }
  }

  @Test func tiltHandChecks() {
    // Both t1 and t2 end in the same P, so every intermediate does too:
    // column 4 = column 3 · (−1/900) in rows 1…3, m44 = 1 (no z translation).
    let mid = Self.t1.interpolated(to: Self.t2, fraction: 0.5)
    for row in [mid.row1, mid.row2, mid.row3] {
      #expect(abs(row.w - row.z * (-1 / 900)) <= 1e-9)
    }
    #expect(mid.m44 == 1)
    // Scale x is linear: (0.95 + 0.8)/2; translation y: −0.08·844/2.
    #expect(abs(mid.m11 - 0.875) <= 1e-7)
    #expect(abs(mid.m42 - Float(-0.04 * 844.0)) <= 4e-6)
    // Interpolating t1 to itself gives t1 back (the slerp's |p| = 1 branch).
    let same = Self.t1.interpolated(to: Self.t1, fraction: 0.5)
    #expect(maxULPError(same, Self.t1, floor: 1e-3) <= 1)
  }

  // MARK: 4. Round trips, end points, non-decomposable matrices

  @Test func randomTransformsRoundTrip() throws {
    // M = S · R · T · P with scales in ±[0.5, 2] (one axis negative in a quarter of
    // the cases), a random axis and angle in [−π, π), translations in [−100, 100)
    // and perspective m14, m24 in [−1e−3, 1e−3), m34 = −1/d with d in [500, 1500).
    // m44 = 1 + t·(m14, m24, m34) ≠ 1, and recomposition normalises m44 to 1, so
    // the comparison is with M / m44.
    //
    // Tolerance: 1 ulp of the row's largest entry. The Double decomposition and
    // recomposition are exact to ~1e−8 relative (the spec's square roots; see
    // `decomposition`), far below Float's 6e−8, so what remains is the final
    // rounding to Float (½ ulp) and the rounding of M / m44 on this side (½ ulp).
    var worst: Float = 0
    for i in 0..<20 {
      let r = RandomStream(seed: 0x7ab1e, stream: UInt64(i))
      let u = (0..<16).map { r.uniform(UInt64($0)) }
      var s = SIMD3<Float>(0.5 + 1.5 * u[0], 0.5 + 1.5 * u[1], 0.5 + 1.5 * u[2])
      if i % 4 == 1 { s.y = -s.y }
      let axis = SIMD3<Float>(2 * u[3] - 1, 2 * u[4] - 1, 2 * u[5] - 1)
      let angle = Float.pi * (2 * u[6] - 1)
      var p = Transform3D.identity
      p.m14 = 2e-3 * u[7] - 1e-3
      p.m24 = 2e-3 * u[8] - 1e-3
      p.m34 = -1 / (500 + 1000 * u[9])
      let m = Transform3D.makeScale(x: s.x, y: s.y, z: s.z)
        .concatenating(.makeRotation(angle: angle, x: axis.x, y: axis.y, z: axis.z))
        .concatenating(.makeTranslation(x: 200 * u[10] - 100, y: 200 * u[11] - 100, z: 200 * u[12] - 100))
        .concatenating(p)
      let d = try #require(m.decomposition)
      let back = d.recomposed()
      let m44 = Double(m.m44)
      let rowsBack = [back.row1, back.row2, back.row3, back.row4]
      let rows = [m.row1, m.row2, m.row3, m.row4].map { SIMD4<Float>(SIMD4<Double>($0) / m44) }
      for (a, e) in zip(rowsBack, rows) {
        let scale = max(abs(e.x), abs(e.y), abs(e.z), abs(e.w)).ulp
        worst = max(worst, ((a - e) / scale).max(), ((e - a) / scale).max())
      }
      #expect(d.quaternion.w >= 0)
      #expect(abs((d.quaternion * d.quaternion).sum() - 1) < 1e-12)
    }
    #expect(worst <= 1, "worst round-trip error \(worst) ulp of the row's largest entry")
  }

  @Test func generalMatricesRoundTrip() throws {
    // Upper 3×3 = I + 0.6·(uniform in [−1, 1)) in every entry (all three shears
    // non-zero), translation in [−50, 50), perspective column in [−2e−3, 2e−3) with
    // m44 = 1. Every one of these is decomposable (det checked below). Compared
    // with M / m44 as above; the tolerance is 2 ulp of the row's largest entry because
    // Gram–Schmidt on a non-orthogonal 3×3 loses about log2(condition number) bits
    // of the Double result, still far below Float resolution: the observed error is 0.
    var worst: Float = 0
    for i in 0..<20 {
      let r = RandomStream(seed: 0x5e3e, stream: UInt64(i))
      var e = (0..<16).map { k -> Float in
        let u = 2 * r.uniform(UInt64(k)) - 1
        switch k {
        case 0, 5, 10: return 1 + 0.6 * u
        case 3, 7, 11: return 2e-3 * u
        case 12, 13, 14: return 50 * u
        case 15: return 1
        default: return 0.6 * u
        }
      }
      e[15] = 1
      let m = matrix(e)
      let d = try #require(m.decomposition)
      #expect(d.skew.x != 0 && d.skew.y != 0 && d.skew.z != 0)
      let back = d.recomposed()
      let m44 = Double(m.m44)
      for (a, row) in zip([back.row1, back.row2, back.row3, back.row4], [m.row1, m.row2, m.row3, m.row4]) {
        let e = SIMD4<Float>(SIMD4<Double>(row) / m44)
        let scale = max(abs(e.x), abs(e.y), abs(e.z), abs(e.w)).ulp
        worst = max(worst, ((a - e) / scale).max(), ((e - a) / scale).max())
      }
    }
    #expect(worst <= 2, "worst round-trip error \(worst) ulp of the row's largest entry")
  }

  @Test func endPointsAreTheInputsBitForBit() {
    // Entries that a decomposition would not reproduce exactly (and a −0).
    let a = matrix([1.1, 0.3, -0.0, 0, 0.2, 0.9, 0, 0.001, 0, 0, 1, 0, 3.3, -7.7, 0, 1.25])
    let b = Self.t1
    #expect(bitPatterns(a.interpolated(to: b, fraction: 0)) == bitPatterns(a))
    #expect(bitPatterns(a.interpolated(to: b, fraction: 1)) == bitPatterns(b))
    let singular = Transform3D.makeScale(x: 1, y: 0, z: 1)
    #expect(bitPatterns(singular.interpolated(to: b, fraction: 0)) == bitPatterns(singular))
    #expect(bitPatterns(b.interpolated(to: singular, fraction: 1)) == bitPatterns(singular))
  }

  @Test func nonDecomposableMatricesInterpolateDiscretely() {
    var noW = Transform3D.identity
    noW.m44 = 0
    let flat = Transform3D.makeScale(x: 1, y: 0, z: 1)
    var nonFinite = Transform3D.identity
    nonFinite.m41 = .infinity
    #expect(noW.decomposition == nil)
    #expect(flat.decomposition == nil)
    #expect(nonFinite.decomposition == nil)
    let r = Transform3D.makeRotation(angle: 0.5, x: 0, y: 0, z: 1)
    for bad in [noW, flat] {
      #expect(r.interpolated(to: bad, fraction: 0.25) == r)
      #expect(r.interpolated(to: bad, fraction: 0.4999) == r)
      #expect(r.interpolated(to: bad, fraction: 0.5) == bad)
      #expect(r.interpolated(to: bad, fraction: 0.75) == bad)
      #expect(bad.interpolated(to: r, fraction: 0.25) == bad)
      #expect(bad.interpolated(to: r, fraction: 0.5) == r)
    }
  }

  @Test func decompositionIsInvariantUnderScalingByM44() throws {
    // The spec divides by m44 first; halving every entry is exact in Float.
    let m = Self.t1.concatenating(.makeTranslation(x: 3, y: 4, z: 120))
    let halved = matrix(m.entries.map { $0 / 2 })
    let decomposed = try #require(m.decomposition)
    #expect(decomposed == halved.decomposition)
    // m44 = 1 − 120/900 here; the recomposition is m / m44, the same projective map.
    let back = decomposed.recomposed()
    #expect(back.m44 == 1)
    let point = SIMD3<Float>(10, -20, 30)
    let (p, q) = (try #require(m.projecting(point)), try #require(back.projecting(point)))
    #expect(abs(p.x - q.x) < 1e-4 && abs(p.y - q.y) < 1e-4 && abs(p.z - q.z) < 1e-4)
  }

  @Test func exactHalfTurnAboutAMixedAxisLosesTheAxisSigns() throws {
    // A limitation of the spec's step 6 (w3c/csswg-drafts#3710), kept as specified:
    // the half-turn about (1, −1, 0)/√2 is the symmetric matrix below, so the sign
    // tests compare equal entries and x, y stay ≥ 0: it decomposes as the half-turn
    // about (1, 1, 0)/√2.
    let halfTurn = matrix([0, -1, 0, 0, -1, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1])
    let q = try #require(halfTurn.decomposition).quaternion
    let h = 0.5.squareRoot()
    #expect(abs(q.x - h) < 1e-15 && abs(q.y - h) < 1e-15 && q.z == 0 && q.w == 0)
    let back = try #require(halfTurn.decomposition).recomposed()
    #expect(maxULPError(back, matrix([0, 1, 0, 0, 1, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1]), floor: 1) <= 1)
    // A Float rotation by "π" is not an exact half-turn and keeps its axis.
    let floatHalfTurn = Transform3D.makeRotation(angle: .pi, x: 1, y: -1, z: 0)
    let back2 = try #require(floatHalfTurn.decomposition).recomposed()
    #expect(maxULPError(back2, floatHalfTurn, floor: 1) <= 1)
  }

  // MARK: 5. Not entry-wise

  @Test func nearHalfTurnStaysARotation() {
    // Entry-wise lerp of identity and R_z(179°) at ½ has m11 = m22 = (1 + cos 179°)/2
    // ≈ 7.6e−5 and m12 = −m21 = sin 179°/2 ≈ 0.0087: determinant ≈ 7.6e−5, rows of
    // length ≈ 0.0087, nothing like a rotation. Decomposition gives R_z(89.5°).
    let r = Transform3D.makeRotation(angle: radians(179), x: 0, y: 0, z: 1)
    let half = Transform3D.identity.interpolated(to: r, fraction: 0.5)
    let (det, orth) = rotationDefects(half)
    #expect(abs(det - 1) < 3e-7 && orth < 3e-7)
    #expect(maxULPError(half, handRotationZ(89.5), floor: 1) <= 1)
    let lerp = matrix(zip(Transform3D.identity.entries, r.entries).map { ($0 + $1) / 2 })
    let (lerpDet, lerpOrth) = rotationDefects(lerp)
    #expect(abs(lerpDet) < 1e-3 && lerpOrth > 0.9)
  }
}
