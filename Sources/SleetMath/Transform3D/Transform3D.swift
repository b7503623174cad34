// Glibc (not Foundation) provides the two transcendental functions this file needs.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A 4×4 homogeneous transform with exactly the conventions of Core Animation's
/// `CATransform3D`.
///
/// Points are **row vectors** and transforms apply on the right:
///
/// ```
/// [x' y' z' w'] = [x y z 1] · M        M = ⎡m11 m12 m13 m14⎤
///                                          ⎢m21 m22 m23 m24⎥
///                                          ⎢m31 m32 m33 m34⎥
///                                          ⎣m41 m42 m43 m44⎦
/// ```
///
/// Translation lives in `m41…m43`; perspective in `m34` (`w = 1 + z·m34` for a
/// point with w = 1 under an otherwise affine transform). Storage is four
/// `SIMD4<Float>` rows, row-major, 64 bytes with no padding, so an array of
/// transforms is a dense `N×16` row-major matrix (what the batch kernels and
/// BLAS read).
///
/// Naming follows `CATransform3D`: `concatenating(b)` is `CATransform3DConcat(self, b)`
/// = `self · b` = "apply `self`, then `b`"; `translated/scaled/rotated` return
/// `op · self` (the operation is applied *first*), like `CATransform3DTranslate`.
///
/// Precision: every product is computed in `Float` with separate multiplies and
/// adds in a fixed order (no fused multiply-add), so results are bit-identical on
/// every platform for the scalar path.
@frozen
public struct Transform3D: Hashable, Sendable {
  /// Row 1, `(m11, m12, m13, m14)`: the image of the x axis (and its
  /// perspective term in m14).
  public var row1: SIMD4<Float>
  /// Row 2, `(m21, m22, m23, m24)`: the image of the y axis.
  public var row2: SIMD4<Float>
  /// Row 3, `(m31, m32, m33, m34)`: the image of the z axis; m34 = −1/d is
  /// the perspective of an eye at distance d.
  public var row3: SIMD4<Float>
  /// Row 4, `(m41, m42, m43, m44)`: the translation, and the homogeneous w.
  public var row4: SIMD4<Float>

  /// Creates a transform from its four rows.
  @inlinable
  public init(
    row1: SIMD4<Float>, row2: SIMD4<Float>, row3: SIMD4<Float>, row4: SIMD4<Float>
  ) {
    self.row1 = row1
    self.row2 = row2
    self.row3 = row3
    self.row4 = row4
  }

  /// Creates a transform from its sixteen entries, in `CATransform3D` order.
  @inlinable
  public init(
    m11: Float, m12: Float, m13: Float, m14: Float,
    m21: Float, m22: Float, m23: Float, m24: Float,
    m31: Float, m32: Float, m33: Float, m34: Float,
    m41: Float, m42: Float, m43: Float, m44: Float
  ) {
    self.init(
      row1: SIMD4(m11, m12, m13, m14), row2: SIMD4(m21, m22, m23, m24),
      row3: SIMD4(m31, m32, m33, m34), row4: SIMD4(m41, m42, m43, m44))
  }

  /// `CATransform3DIdentity`.
  public static let identity = Transform3D(
    row1: SIMD4(1, 0, 0, 0), row2: SIMD4(0, 1, 0, 0),
    row3: SIMD4(0, 0, 1, 0), row4: SIMD4(0, 0, 0, 1))

  /// Whether every entry equals the identity's (`CATransform3DIsIdentity`).
  @inlinable
  public var isIdentity: Bool { self == .identity }

  /// The sixteen entries in row-major order.
  @inlinable
  public var entries: [Float] {
    [
      row1.x, row1.y, row1.z, row1.w, row2.x, row2.y, row2.z, row2.w,
      row3.x, row3.y, row3.z, row3.w, row4.x, row4.y, row4.z, row4.w,
    ]
  }
}

// MARK: - Named entries (m11…m44)

extension Transform3D {
  /// Row 1, column 1 (`row1.x`): x scale/rotation, as `CATransform3D.m11`.
  @inlinable public var m11: Float {
    get { row1.x }
    set { row1.x = newValue }
  }
  /// Row 1, column 2 (`row1.y`): x→y shear/rotation, as `CATransform3D.m12`.
  @inlinable public var m12: Float {
    get { row1.y }
    set { row1.y = newValue }
  }
  /// Row 1, column 3 (`row1.z`): x→z rotation, as `CATransform3D.m13`.
  @inlinable public var m13: Float {
    get { row1.z }
    set { row1.z = newValue }
  }
  /// Row 1, column 4 (`row1.w`): perspective from x, as `CATransform3D.m14`.
  @inlinable public var m14: Float {
    get { row1.w }
    set { row1.w = newValue }
  }
  /// Row 2, column 1 (`row2.x`): y→x shear/rotation, as `CATransform3D.m21`.
  @inlinable public var m21: Float {
    get { row2.x }
    set { row2.x = newValue }
  }
  /// Row 2, column 2 (`row2.y`): y scale/rotation, as `CATransform3D.m22`.
  @inlinable public var m22: Float {
    get { row2.y }
    set { row2.y = newValue }
  }
  /// Row 2, column 3 (`row2.z`): y→z rotation, as `CATransform3D.m23`.
  @inlinable public var m23: Float {
    get { row2.z }
    set { row2.z = newValue }
  }
  /// Row 2, column 4 (`row2.w`): perspective from y, as `CATransform3D.m24`.
  @inlinable public var m24: Float {
    get { row2.w }
    set { row2.w = newValue }
  }
  /// Row 3, column 1 (`row3.x`): z→x rotation, as `CATransform3D.m31`.
  @inlinable public var m31: Float {
    get { row3.x }
    set { row3.x = newValue }
  }
  /// Row 3, column 2 (`row3.y`): z→y rotation, as `CATransform3D.m32`.
  @inlinable public var m32: Float {
    get { row3.y }
    set { row3.y = newValue }
  }
  /// Row 3, column 3 (`row3.z`): z scale/rotation, as `CATransform3D.m33`.
  @inlinable public var m33: Float {
    get { row3.z }
    set { row3.z = newValue }
  }
  /// Row 3, column 4 (`row3.w`): perspective from z (−1/eye distance), as `CATransform3D.m34`.
  @inlinable public var m34: Float {
    get { row3.w }
    set { row3.w = newValue }
  }
  /// Row 4, column 1 (`row4.x`): translation along x, as `CATransform3D.m41`.
  @inlinable public var m41: Float {
    get { row4.x }
    set { row4.x = newValue }
  }
  /// Row 4, column 2 (`row4.y`): translation along y, as `CATransform3D.m42`.
  @inlinable public var m42: Float {
    get { row4.y }
    set { row4.y = newValue }
  }
  /// Row 4, column 3 (`row4.z`): translation along z, as `CATransform3D.m43`.
  @inlinable public var m43: Float {
    get { row4.z }
    set { row4.z = newValue }
  }
  /// Row 4, column 4 (`row4.w`): homogeneous w (1 for affine transforms), as `CATransform3D.m44`.
  @inlinable public var m44: Float {
    get { row4.w }
    set { row4.w = newValue }
  }
}

// MARK: - Construction (CATransform3DMake…)

extension Transform3D {
  /// `CATransform3DMakeTranslation(tx, ty, tz)`: identity with `m41…m43 = (tx, ty, tz)`.
  @inlinable
  public static func makeTranslation(x tx: Float, y ty: Float, z tz: Float) -> Transform3D {
    var t = Transform3D.identity
    t.row4 = SIMD4(tx, ty, tz, 1)
    return t
  }

  /// `CATransform3DMakeScale(sx, sy, sz)`: `diag(sx, sy, sz, 1)`.
  @inlinable
  public static func makeScale(x sx: Float, y sy: Float, z sz: Float) -> Transform3D {
    Transform3D(
      row1: SIMD4(sx, 0, 0, 0), row2: SIMD4(0, sy, 0, 0),
      row3: SIMD4(0, 0, sz, 0), row4: SIMD4(0, 0, 0, 1))
  }

  /// `CATransform3DMakeRotation(angle, x, y, z)`: rotation by `angle` radians about
  /// the axis (x, y, z), which is normalised first.
  ///
  /// With c = cos θ, s = sin θ and the unit axis (x, y, z), the upper 3×3 block is
  /// the transpose of Rodrigues' column-vector matrix (we use row vectors):
  ///
  /// ```
  /// ⎡c+(1−c)x²     (1−c)xy+s·z   (1−c)xz−s·y⎤
  /// ⎢(1−c)xy−s·z   c+(1−c)y²     (1−c)yz+s·x⎥
  /// ⎣(1−c)xz+s·y   (1−c)yz−s·x   c+(1−c)z²  ⎦
  /// ```
  ///
  /// so a rotation about +z maps (1, 0) to (cos θ, sin θ): clockwise on an iOS
  /// (y-down) screen, exactly as Core Animation does.
  ///
  /// **Edge Cases:** a zero (or non-finite-length) axis returns `identity`, as
  /// Core Animation does.
  ///
  /// **Precision:** the trigonometry and the products are evaluated in `Double` and
  /// rounded once to `Float`, so each entry is within 1 ulp of the exact value of
  /// the rounded inputs (rotation by π about y is diag(−1, 1, −1, 1) up to
  /// |sin(Float.pi)| ≈ 1.5e−7 in the off-diagonal terms).
  public static func makeRotation(angle: Float, x: Float, y: Float, z: Float) -> Transform3D {
    let length = (Double(x) * Double(x) + Double(y) * Double(y) + Double(z) * Double(z))
      .squareRoot()
    guard length > 0, length.isFinite else { return .identity }
    let (ux, uy, uz) = (Double(x) / length, Double(y) / length, Double(z) / length)
    let theta = Double(angle)
    let c = _cos(theta)
    let s = _sin(theta)
    let k = 1 - c
    return Transform3D(
      m11: Float(c + k * ux * ux), m12: Float(k * ux * uy + s * uz),
      m13: Float(k * ux * uz - s * uy), m14: 0,
      m21: Float(k * ux * uy - s * uz), m22: Float(c + k * uy * uy),
      m23: Float(k * uy * uz + s * ux), m24: 0,
      m31: Float(k * ux * uz + s * uy), m32: Float(k * uy * uz - s * ux),
      m33: Float(c + k * uz * uz), m34: 0,
      m41: 0, m42: 0, m43: 0, m44: 1)
  }

  /// A perspective transform: identity with `m34 = −1/eyeDistance`, the idiom of
  /// Apple's samples (`m34 = −1/900`).
  ///
  /// **Edge Cases:** `eyeDistance` must be positive and finite (precondition).
  @inlinable
  public static func makePerspective(eyeDistance: Float) -> Transform3D {
    precondition(
      eyeDistance > 0 && eyeDistance.isFinite,
      "Transform3D.makePerspective: eyeDistance must be positive and finite, got \(eyeDistance)")
    var t = Transform3D.identity
    t.m34 = -1 / eyeDistance
    return t
  }
}

// MARK: - Composition

extension Transform3D {
  /// `CATransform3DConcat(self, other)` = `self · other`: apply `self`, then `other`.
  ///
  /// ```
  /// result.row_i = Σ_k self[i][k] · other.row_k     (k = 1…4, left to right)
  /// ```
  ///
  /// **Precision:** Float multiplies and adds in the fixed order above (no FMA):
  /// this is the reference that every batch backend is compared with.
  /// - Complexity: 64 multiplies, 48 adds.
  @inlinable
  public func concatenating(_ other: Transform3D) -> Transform3D {
    Transform3D(
      row1: Transform3D._rowTimes(row1, other),
      row2: Transform3D._rowTimes(row2, other),
      row3: Transform3D._rowTimes(row3, other),
      row4: Transform3D._rowTimes(row4, other))
  }

  /// `row · m` for a row vector, in the fixed order x, y, z, w.
  @inlinable @inline(__always)
  internal static func _rowTimes(_ r: SIMD4<Float>, _ m: Transform3D) -> SIMD4<Float> {
    let a = r.x * m.row1
    let b = r.y * m.row2
    let c = r.z * m.row3
    let d = r.w * m.row4
    return ((a + b) + c) + d
  }

  /// `CATransform3DTranslate(self, tx, ty, tz)` = `translation · self`.
  @inlinable
  public func translated(x tx: Float, y ty: Float, z tz: Float) -> Transform3D {
    Transform3D.makeTranslation(x: tx, y: ty, z: tz).concatenating(self)
  }

  /// `CATransform3DScale(self, sx, sy, sz)` = `scale · self`.
  @inlinable
  public func scaled(x sx: Float, y sy: Float, z sz: Float) -> Transform3D {
    Transform3D.makeScale(x: sx, y: sy, z: sz).concatenating(self)
  }

  /// `CATransform3DRotate(self, angle, x, y, z)` = `rotation · self`.
  /// A zero axis leaves `self` unchanged.
  @inlinable
  public func rotated(angle: Float, x: Float, y: Float, z: Float) -> Transform3D {
    Transform3D.makeRotation(angle: angle, x: x, y: y, z: z).concatenating(self)
  }
}

// MARK: - Applying to points

extension Transform3D {
  /// The homogeneous image `[x y z 1] · M` of a point, before any divide.
  @inlinable
  public func applying(to point: SIMD3<Float>) -> SIMD4<Float> {
    Transform3D._rowTimes(SIMD4(point, 1), self)
  }

  /// The projected image of a point: `(x'/w', y'/w', z'/w')` with
  /// `[x' y' z' w'] = [x y z 1] · M`.
  ///
  /// **Edge Cases:** when `w' ≤ 0` (or is NaN) the point lies at or behind the
  /// eye of a perspective transform; Core Animation clips such geometry, and this
  /// returns `nil`. The batch kernels write NaN for such points instead (see
  /// `Transform3DBatch`), so a renderer can skip the primitive.
  @inlinable
  public func projecting(_ point: SIMD3<Float>) -> SIMD3<Float>? {
    let h = applying(to: point)
    guard h.w > 0 else { return nil }
    return SIMD3(h.x / h.w, h.y / h.w, h.z / h.w)
  }
}

@usableFromInline internal func _cos(_ x: Double) -> Double { cos(x) }
@usableFromInline internal func _sin(_ x: Double) -> Double { sin(x) }
