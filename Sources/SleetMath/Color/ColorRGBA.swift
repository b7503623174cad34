/// A colour with straight (not premultiplied) alpha, components nominally in
/// [0, 1]. Particle colours may leave that range while they evolve
/// (`redSpeed` …); they are clamped only when output, as Core Animation does.
@frozen
public struct ColorRGBA: Hashable, Sendable {
  /// Red, straight (not multiplied by alpha); 0…1 nominally.
  public var red: Float
  /// Green, straight; 0…1 nominally.
  public var green: Float
  /// Blue, straight; 0…1 nominally.
  public var blue: Float
  /// Opacity: 0 transparent, 1 opaque.
  public var alpha: Float

  /// A colour from straight components (opaque unless `alpha` is given).
  @inlinable
  public init(red: Float, green: Float, blue: Float, alpha: Float = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// The components as a vector (r, g, b, a).
  @inlinable
  public var vector: SIMD4<Float> {
    get { SIMD4(red, green, blue, alpha) }
    set { (red, green, blue, alpha) = (newValue.x, newValue.y, newValue.z, newValue.w) }
  }

  /// A colour from a vector (r, g, b, a), the inverse of ``vector``.
  @inlinable
  public init(_ vector: SIMD4<Float>) {
    self.init(red: vector.x, green: vector.y, blue: vector.z, alpha: vector.w)
  }

  /// Opaque white (1, 1, 1, 1): `EmitterCell.color`'s default.
  public static let white = ColorRGBA(red: 1, green: 1, blue: 1, alpha: 1)
  /// Opaque black (0, 0, 0, 1).
  public static let black = ColorRGBA(red: 0, green: 0, blue: 0, alpha: 1)
  /// Fully transparent (0, 0, 0, 0).
  public static let clear = ColorRGBA(red: 0, green: 0, blue: 0, alpha: 0)
}
