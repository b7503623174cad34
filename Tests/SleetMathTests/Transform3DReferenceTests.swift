import Testing

@testable import SleetMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// MARK: - An independent Double reference (nothing here calls Transform3D math)

/// A 4×4 matrix in `Double`, row-major, `m[i][j]` = row i + 1, column j + 1
/// (CATransform3D's m(i+1)(j+1)). Points are row vectors: `p' = p · M`.
typealias Matrix4d = [[Double]]

enum Reference {
  static let identity: Matrix4d = (0..<4).map { i in (0..<4).map { j in i == j ? 1 : 0 } }

  /// The entries of a transform as `Double`, read by name (m11…m44).
  static func matrix(_ t: Transform3D) -> Matrix4d {
    [
      [t.m11, t.m12, t.m13, t.m14].map(Double.init), [t.m21, t.m22, t.m23, t.m24].map(Double.init),
      [t.m31, t.m32, t.m33, t.m34].map(Double.init), [t.m41, t.m42, t.m43, t.m44].map(Double.init),
    ]
  }

  /// `a · b`, the textbook triple loop.
  static func product(_ a: Matrix4d, _ b: Matrix4d) -> Matrix4d {
    (0..<4).map { i in (0..<4).map { j in (0..<4).reduce(0.0) { $0 + a[i][$1] * b[$1][j] } } }
  }

  /// Rodrigues' rotation formula for a vector (right-hand rule about the unit
  /// axis `u`): `v' = v cos θ + (u × v) sin θ + u (u·v)(1 − cos θ)`.
  static func rodrigues(_ v: SIMD3<Double>, axis u: SIMD3<Double>, angle: Double) -> SIMD3<Double> {
    let cross = SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
    let dot = (u * v).sum()
    return v * cos(angle) + cross * sin(angle) + u * (dot * (1 - cos(angle)))
  }

  /// The CATransform3D rotation as a row-vector matrix: row i is the image of
  /// the basis vector e_i under Rodrigues' formula (so `e_i · M` is that image).
  ///
  /// Sign convention, from Core Graphics' header: `CGAffineTransformMakeRotation(θ)`
  /// is `[cos θ, sin θ, −sin θ, cos θ, 0, 0]` (a, b, c, d, tx, ty) with
  /// `[x' y'] = [x y]·[[a b] [c d]]`, so a positive angle about +z maps (1, 0) to
  /// (cos θ, sin θ) — the right-hand rule, which Rodrigues' `u × v` term gives
  /// for u = ẑ (ẑ × x̂ = ŷ). `CATransform3DMakeRotation(θ, 0, 0, 1)` equals
  /// `CATransform3DMakeAffineTransform(CGAffineTransformMakeRotation(θ))`, and
  /// Core Animation applies the same rule about every axis.
  static func rotation(angle: Double, axis: SIMD3<Double>) -> Matrix4d {
    let u = axis / (axis * axis).sum().squareRoot()
    var m = identity
    for i in 0..<3 {
      var e = SIMD3<Double>(0, 0, 0)
      e[i] = 1
      let image = rodrigues(e, axis: u, angle: angle)
      m[i] = [image.x, image.y, image.z, 0]
    }
    return m
  }

  static func translation(_ x: Double, _ y: Double, _ z: Double) -> Matrix4d {
    var m = identity
    m[3] = [x, y, z, 1]
    return m
  }

  /// Identity with m34 = p (`w = 1 + z·p`).
  static func perspective(m34 p: Double) -> Matrix4d {
    var m = identity
    m[2][3] = p
    return m
  }

  /// Gauss–Jordan elimination with partial pivoting on `[A | I]`.
  static func inverse(_ a: Matrix4d) -> Matrix4d? {
    var left = a
    var right = identity
    for column in 0..<4 {
      let pivot = (column..<4).max { abs(left[$0][column]) < abs(left[$1][column]) }!
      guard left[pivot][column] != 0 else { return nil }
      left.swapAt(column, pivot)
      right.swapAt(column, pivot)
      let scale = 1 / left[column][column]
      left[column] = left[column].map { $0 * scale }
      right[column] = right[column].map { $0 * scale }
      for row in 0..<4 where row != column {
        let factor = left[row][column]
        guard factor != 0 else { continue }
        for j in 0..<4 {
          left[row][j] -= factor * left[column][j]
          right[row][j] -= factor * right[column][j]
        }
      }
    }
    return right
  }

  /// A row-vector matrix rounded to `Float` entry by entry.
  static func transform(_ m: Matrix4d) -> Transform3D {
    let f = m.map { $0.map(Float.init) }
    return Transform3D(
      row1: SIMD4(f[0][0], f[0][1], f[0][2], f[0][3]), row2: SIMD4(f[1][0], f[1][1], f[1][2], f[1][3]),
      row3: SIMD4(f[2][0], f[2][1], f[2][2], f[2][3]), row4: SIMD4(f[3][0], f[3][1], f[3][2], f[3][3]))
  }
}

/// `|Double(got) − exact| ≤ ulps · ulp(Float(exact)) + slack`.
func withinULPs(_ got: Float, _ exact: Double, ulps: Double, slack: Double = 0) -> Bool {
  abs(Double(got) - exact) <= ulps * Double(Float(exact).ulp) + slack
}

// MARK: - Rotations about arbitrary axes

@Suite("Transform3D against an independent Double reference")
struct Transform3DReferenceTests {
  /// Unnormalised, off-axis axes (and one negative axis), with angles of
  /// both signs beyond ±π/2.
  static let rotations: [(angle: Float, axis: SIMD3<Float>)] = [
    (0.3, SIMD3(1, 2, 3)),
    (-1.2, SIMD3(-0.3, 0.8, 2.5)),
    (2.9, SIMD3(4, -1, 0.5)),
    (Float.pi / 2, SIMD3(1, 1, 0)),
    (5.0, SIMD3(1e-3, 2e-3, -5e-3)),
    (0.75, SIMD3(0, 0, -7)),
    (-2.2, SIMD3(250, -40, 13)),
  ]

  /// `makeRotation` is Rodrigues' matrix (row-vector, right-hand rule) of the
  /// Float inputs, each entry within 1 ulp (its documented precision: Double
  /// evaluation rounded once). `1e-15` absolute slack covers the two Double
  /// evaluations' difference for entries that cancel to nearly zero.
  @Test(arguments: 0..<rotations.count)
  func arbitraryAxisRotationIsRodrigues(index: Int) {
    let (angle, axis) = Self.rotations[index]
    let got = Transform3D.makeRotation(angle: angle, x: axis.x, y: axis.y, z: axis.z)
    let exact = Reference.rotation(
      angle: Double(angle), axis: SIMD3(Double(axis.x), Double(axis.y), Double(axis.z)))
    let g = Reference.matrix(got)
    for i in 0..<4 {
      for j in 0..<4 {
        #expect(
          withinULPs(Float(g[i][j]), exact[i][j], ulps: 1, slack: 1e-15),
          "axis \(axis) angle \(angle): m\(i + 1)\(j + 1) = \(g[i][j]), Rodrigues \(exact[i][j])")
      }
    }
  }

  /// Points move as Rodrigues says, and the axis itself stays put.
  @Test(arguments: 0..<rotations.count)
  func rotationMovesPointsAsRodriguesSays(index: Int) {
    let (angle, axis) = Self.rotations[index]
    let r = Transform3D.makeRotation(angle: angle, x: axis.x, y: axis.y, z: axis.z)
    let a = SIMD3(Double(axis.x), Double(axis.y), Double(axis.z))
    let u = a / (a * a).sum().squareRoot()
    let points: [SIMD3<Float>] = [
      SIMD3(1, 0, 0), SIMD3(3, -2, 5), SIMD3(-40, 12, 0.5), SIMD3(Float(u.x), Float(u.y), Float(u.z)),
    ]
    for p in points {
      let pd = SIMD3(Double(p.x), Double(p.y), Double(p.z))
      let exact = Reference.rodrigues(pd, axis: u, angle: Double(angle))
      let image = r.projecting(p)!
      // Entries within 1 ulp (2⁻²³ relative) plus three rounded products and
      // adds: at most 6·2⁻²⁴·|p|₁ ≤ 6√3·2⁻²⁴·|p| < 12·2⁻²⁴·|p| per coordinate.
      let bound = 12 * 0x1p-24 * (pd * pd).sum().squareRoot()
      for k in 0..<3 {
        #expect(abs(Double(image[k]) - exact[k]) <= bound, "axis \(axis) angle \(angle) point \(p)")
      }
    }
  }

  /// `rotated` is CATransform3DRotate: `rotation · t`, against the reference
  /// product in Double. Bound per entry: the rotation's entries are within
  /// 1 ulp (≤ 2⁻²³ relative) and the Float product of four terms adds at most
  /// 4·2⁻²⁴ of `Σₖ |Rᵢₖ tₖⱼ|`, so 8·2⁻²⁴ of that sum.
  @Test func rotatedPrependsTheRotation() {
    let t = Reference.transform(
      Reference.product(Reference.translation(7, -3, 11), Reference.perspective(m34: -1.0 / 500)))
    let got = Reference.matrix(t.rotated(angle: 0.9, x: 2, y: -1, z: 3))
    let rotation = Reference.rotation(angle: 0.9, axis: SIMD3(2, -1, 3))
    let td = Reference.matrix(t)
    let exact = Reference.product(rotation, td)
    for i in 0..<4 {
      for j in 0..<4 {
        let bound = 8 * 0x1p-24 * (0..<4).reduce(0.0) { $0 + abs(rotation[i][$1] * td[$1][j]) }
        #expect(abs(got[i][j] - exact[i][j]) <= bound, "m\(i + 1)\(j + 1) = \(got[i][j]), reference \(exact[i][j])")
      }
    }
  }

  // MARK: - Inverses of perspective matrices

  /// Perspective transforms as the shatter styles build them (m34 = −1/500,
  /// −1/900, about a container centre, combined with rotations and
  /// translations), each in Double with the factors' closed-form inverses:
  /// `R(θ, u)⁻¹ = R(−θ, u)`, `T(t)⁻¹ = T(−t)`, `P(p)⁻¹ = P(−p)` (with m34 = p
  /// and otherwise the identity: `w = 1 + z·p` and `z` unchanged, so undoing it
  /// is `w = 1 − z·p`), and `(A·B)⁻¹ = B⁻¹·A⁻¹`.
  static let perspectiveCases: [(name: String, matrix: Matrix4d, closedFormInverse: Matrix4d)] = {
    let p500 = -1.0 / 500
    let p900 = -1.0 / 900
    let r = Reference.rotation(angle: 0.7, axis: SIMD3(1, -2, 0.5))
    let rInverse = Reference.rotation(angle: -0.7, axis: SIMD3(1, -2, 0.5))
    let t = Reference.translation(12, -7, 30)
    let tInverse = Reference.translation(-12, 7, -30)
    let (cx, cy) = (195.0, 422.0)
    func chain(_ ms: [Matrix4d]) -> Matrix4d { ms.dropFirst().reduce(ms[0], Reference.product) }
    return [
      ("P(−1/500)", Reference.perspective(m34: p500), Reference.perspective(m34: -p500)),
      (
        "R·T·P(−1/500)", chain([r, t, Reference.perspective(m34: p500)]),
        chain([Reference.perspective(m34: -p500), tInverse, rInverse])
      ),
      (
        "P(−1/500)·R·T", chain([Reference.perspective(m34: p500), r, t]),
        chain([tInverse, rInverse, Reference.perspective(m34: -p500)])
      ),
      (
        "T(−c)·P(−1/900)·T(c), a container's perspective",
        chain([Reference.translation(-cx, -cy, 0), Reference.perspective(m34: p900), Reference.translation(cx, cy, 0)]),
        chain([Reference.translation(-cx, -cy, 0), Reference.perspective(m34: -p900), Reference.translation(cx, cy, 0)])
      ),
      (
        "a flipped tile: R_y(2.1)·T·(T(−c)·P(−1/900)·T(c))",
        chain([
          Reference.rotation(angle: 2.1, axis: SIMD3(0, 1, 0)), Reference.translation(40, 80, 0),
          Reference.translation(-cx, -cy, 0), Reference.perspective(m34: p900), Reference.translation(cx, cy, 0),
        ]),
        chain([
          Reference.translation(-cx, -cy, 0), Reference.perspective(m34: -p900), Reference.translation(cx, cy, 0),
          Reference.translation(-40, -80, 0), Reference.rotation(angle: -2.1, axis: SIMD3(0, 1, 0)),
        ])
      ),
    ]
  }()

  /// Three independent checks of `inverse` for each perspective matrix M
  /// (rounded to Float, as the type holds it):
  /// 1. against Gauss–Jordan in Double on the same Float entries: within
  ///    2 ulps of each entry (the type computes in Double and rounds once),
  ///    plus 1e−13 of the largest entry for Double's own error;
  /// 2. `M · M⁻¹ = I` in Double, within the residual that rounding M⁻¹ to
  ///    Float allows: `|(M·M⁻¹ − I)ᵢⱼ| ≤ 4·2⁻²⁴ Σₖ |Mᵢₖ||M⁻¹ₖⱼ|`;
  /// 3. against the closed-form inverse of the exact (unrounded) product:
  ///    relative 1e−5 of the entry scale (M's Float rounding moves it).
  @Test(arguments: 0..<perspectiveCases.count)
  func perspectiveInverseMatchesIndependentReferences(index: Int) throws {
    let (name, exactMatrix, closedForm) = Self.perspectiveCases[index]
    let m = Reference.transform(exactMatrix)
    let inverse = try #require(m.inverse, "\(name) has an inverse")
    let md = Reference.matrix(m)
    let got = Reference.matrix(inverse)
    let gaussJordan = try #require(Reference.inverse(md))
    let scale = gaussJordan.joined().map(abs).max()!
    let closedScale = closedForm.joined().map(abs).max()!
    let residual = Reference.product(md, got)
    for i in 0..<4 {
      for j in 0..<4 {
        #expect(
          withinULPs(Float(got[i][j]), gaussJordan[i][j], ulps: 2, slack: 1e-13 * scale),
          "\(name): inverse m\(i + 1)\(j + 1) = \(got[i][j]), Gauss–Jordan \(gaussJordan[i][j])")
        let bound = 4 * 0x1p-24 * (0..<4).reduce(0.0) { $0 + abs(md[i][$1] * got[$1][j]) }
        #expect(
          abs(residual[i][j] - (i == j ? 1 : 0)) <= bound,
          "\(name): (M·M⁻¹)\(i + 1)\(j + 1) = \(residual[i][j])")
        #expect(
          abs(got[i][j] - closedForm[i][j]) <= 1e-5 * closedScale,
          "\(name): inverse m\(i + 1)\(j + 1) = \(got[i][j]), closed form \(closedForm[i][j])")
      }
    }
    #expect(m.inverted() == inverse)
  }

  /// The pure perspective's inverse is exact: m34 negated, nothing else.
  @Test func perspectiveAloneInvertsByNegatingM34() throws {
    for eye: Float in [500, 900, 1000] {
      let p = Transform3D.makePerspective(eyeDistance: eye)
      let inverse = try #require(p.inverse)
      var expected = Transform3D.identity
      expected.m34 = 1 / eye
      #expect(inverse == expected, "eye \(eye)")
    }
  }
}
