import SleetMath
import SleetParticles

/// One sprite to draw, in pixel space: the primitive behind particle rendering.
public struct SpriteDraw: Sendable {
  /// Maps sprite-local points (origin at the sprite's centre, points at scale 1,
  /// y down) to image pixel coordinates (row vectors, as `CGAffineTransform`).
  public var transform: AffineTransform2D
  /// Index into the sprite array passed to ``Rasterizer/drawSprites(_:sprites:into:options:)``.
  public var sprite: Int
  /// The unit sub-rectangle (x, y, width, height) of the sprite to draw
  /// (`CAEmitterCell.contentsRect`). The drawn rectangle is
  /// `pointSize · (width, height)` points, centred on the local origin.
  public var contentsRect: SIMD4<Float>
  /// The tint, straight alpha, each component in [0, 1]: the sprite's
  /// premultiplied texels are multiplied by (r·a, g·a, b·a, a).
  public var tint: SIMD4<Float>
  /// How the sprite composites.
  public var blendMode: BlendMode
  /// How the sprite is sampled (see ``Rasterizer/drawSprites(_:sprites:into:options:)``).
  public var sampling: SpriteSampling

  /// A sprite draw; by default the whole sprite, untinted, source-over,
  /// linear sampling.
  public init(
    transform: AffineTransform2D, sprite: Int, contentsRect: SIMD4<Float> = SIMD4(0, 0, 1, 1),
    tint: SIMD4<Float> = SIMD4(1, 1, 1, 1), blendMode: BlendMode = .sourceOver,
    sampling: SpriteSampling = .linear
  ) {
    self.transform = transform
    self.sprite = sprite
    self.contentsRect = contentsRect
    self.tint = tint
    self.blendMode = blendMode
    self.sampling = sampling
  }
}

extension AffineTransform2D {
  /// `self` then `other`: `[x y 1]·self·other` (CGAffineTransformConcat order).
  @inlinable
  internal func _concatenating(_ other: AffineTransform2D) -> AffineTransform2D {
    AffineTransform2D(
      a: a * other.a + b * other.c, b: a * other.b + b * other.d,
      c: c * other.a + d * other.c, d: c * other.b + d * other.d,
      tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
  }
}
