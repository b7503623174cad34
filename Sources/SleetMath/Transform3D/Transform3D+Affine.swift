/// A 2D affine transform with the conventions of `CGAffineTransform`:
///
/// ```
/// [x' y' 1] = [x y 1] · ⎡a  b  0⎤
///                       ⎢c  d  0⎥
///                       ⎣tx ty 1⎦
/// ```
///
/// Renderers that only draw in 2D (the per-particle affine of the particle
/// instance buffer) use this six-float form.
@frozen
public struct AffineTransform2D: Hashable, Sendable, Codable {
  /// x′'s factor of x (row 1, column 1).
  public var a: Float
  /// y′'s factor of x (row 1, column 2).
  public var b: Float
  /// x′'s factor of y (row 2, column 1).
  public var c: Float
  /// y′'s factor of y (row 2, column 2).
  public var d: Float
  /// Translation along x, added after the linear part.
  public var tx: Float
  /// Translation along y, added after the linear part.
  public var ty: Float

  /// The transform `x′ = a·x + c·y + tx`, `y′ = b·x + d·y + ty`.
  @inlinable
  public init(a: Float, b: Float, c: Float, d: Float, tx: Float, ty: Float) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
    self.tx = tx
    self.ty = ty
  }

  /// `CGAffineTransformIdentity`.
  public static let identity = AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

  /// `(x·a + y·c + tx, x·b + y·d + ty)`.
  @inlinable
  public func applying(to point: SIMD2<Float>) -> SIMD2<Float> {
    SIMD2(point.x * a + point.y * c + tx, point.x * b + point.y * d + ty)
  }
}

extension Transform3D {
  /// `CATransform3DMakeAffineTransform`: m11 = a, m12 = b, m21 = c, m22 = d,
  /// m41 = tx, m42 = ty, everything else the identity's.
  @inlinable
  public init(_ affine: AffineTransform2D) {
    self.init(
      m11: affine.a, m12: affine.b, m13: 0, m14: 0,
      m21: affine.c, m22: affine.d, m23: 0, m24: 0,
      m31: 0, m32: 0, m33: 1, m34: 0,
      m41: affine.tx, m42: affine.ty, m43: 0, m44: 1)
  }

  /// `CATransform3DIsAffine`: true when the transform is exactly of the form
  /// produced by `init(_: AffineTransform2D)` (m13 = m14 = m23 = m24 = m31 = m32 =
  /// m34 = m43 = 0 and m33 = m44 = 1).
  @inlinable
  public var isAffine: Bool {
    m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0
      && m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0
      && m43 == 0 && m44 == 1
  }

  /// `CATransform3DGetAffineTransform`: the 2D part (a = m11, b = m12, c = m21,
  /// d = m22, tx = m41, ty = m42). Like Core Animation, this reads those entries
  /// even when the transform is not affine; check `isAffine` first when it matters.
  @inlinable
  public var affineTransform: AffineTransform2D {
    AffineTransform2D(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
  }
}
