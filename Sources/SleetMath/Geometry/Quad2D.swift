/// Four corners of a quadrilateral in drawing order: top-left, top-right,
/// bottom-right, bottom-left (the corners of the unit square (0,0), (1,0), (1,1),
/// (0,1) they correspond to).
public struct Quad2D: Hashable, Sendable {
  /// The corner that unit-square point (0, 0) maps to.
  public var topLeft: SIMD2<Float>
  /// The corner that unit-square point (1, 0) maps to.
  public var topRight: SIMD2<Float>
  /// The corner that unit-square point (1, 1) maps to.
  public var bottomRight: SIMD2<Float>
  /// The corner that unit-square point (0, 1) maps to.
  public var bottomLeft: SIMD2<Float>

  /// A quadrilateral from its four corners, in drawing order (any shape: the
  /// corners of a projected tile need not form a rectangle).
  public init(
    topLeft: SIMD2<Float>, topRight: SIMD2<Float>,
    bottomRight: SIMD2<Float>, bottomLeft: SIMD2<Float>
  ) {
    self.topLeft = topLeft
    self.topRight = topRight
    self.bottomRight = bottomRight
    self.bottomLeft = bottomLeft
  }

  /// The axis-aligned rectangle with origin (x, y) and the given size.
  public init(x: Float, y: Float, width: Float, height: Float) {
    self.init(
      topLeft: SIMD2(x, y), topRight: SIMD2(x + width, y),
      bottomRight: SIMD2(x + width, y + height), bottomLeft: SIMD2(x, y + height))
  }

  /// The unit square: texture corners covering a whole texture.
  public static let unit = Quad2D(x: 0, y: 0, width: 1, height: 1)

  /// Whether all eight coordinates are finite.
  public var isFinite: Bool {
    topLeft.x.isFinite && topLeft.y.isFinite && topRight.x.isFinite && topRight.y.isFinite
      && bottomRight.x.isFinite && bottomRight.y.isFinite
      && bottomLeft.x.isFinite && bottomLeft.y.isFinite
  }
}
