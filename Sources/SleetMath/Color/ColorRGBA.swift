/// A colour with straight (not premultiplied) alpha, components nominally in
/// [0, 1]. Particle colours may leave that range while they evolve
/// (`redSpeed` …); they are clamped only when output, as Core Animation does.
@frozen
public struct ColorRGBA: Hashable, Sendable {
  public var red: Float
  public var green: Float
  public var blue: Float
  public var alpha: Float

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

  @inlinable
  public init(_ vector: SIMD4<Float>) {
    self.init(red: vector.x, green: vector.y, blue: vector.z, alpha: vector.w)
  }

  public static let white = ColorRGBA(red: 1, green: 1, blue: 1, alpha: 1)
  public static let black = ColorRGBA(red: 0, green: 0, blue: 0, alpha: 1)
  public static let clear = ColorRGBA(red: 0, green: 0, blue: 0, alpha: 0)
}
