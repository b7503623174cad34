/// A sprite image ready to draw: premultiplied pixels plus the size it has in
/// points at scale 1 (Core Animation's image size divided by `contentsScale`).
///
/// A particle draws the `contentsRect` part of the sprite as a rectangle of
/// `pointSize · (contentsRect.width, contentsRect.height)` points centred on the
/// particle, so a sprite rendered at twice the pixel density keeps its size on
/// screen and only gets sharper.
public struct Sprite: Sendable {
  /// The pixels, premultiplied (see ``RGBAImage``).
  public var image: RGBAImage
  /// Width and height in points at particle scale 1.
  public var pointSize: SIMD2<Float>

  /// - Precondition: the image is not empty; both point sizes are finite and > 0.
  public init(image: RGBAImage, pointSize: SIMD2<Float>) {
    precondition(image.width > 0 && image.height > 0, "Sprite: image must not be empty")
    precondition(
      pointSize.x > 0 && pointSize.y > 0 && pointSize.x.isFinite && pointSize.y.isFinite,
      "Sprite: pointSize must be finite and > 0, got \(pointSize)")
    self.image = image
    self.pointSize = pointSize
  }

  /// A sprite whose point size is its pixel size divided by `contentsScale`
  /// (`CAEmitterCell.contentsScale`, default 1).
  /// - Precondition: `contentsScale` finite and > 0.
  public init(image: RGBAImage, contentsScale: Float = 1) {
    precondition(
      contentsScale > 0 && contentsScale.isFinite,
      "Sprite: contentsScale must be finite and > 0, got \(contentsScale)")
    self.init(
      image: image,
      pointSize: SIMD2(Float(image.width), Float(image.height)) / contentsScale)
  }
}
