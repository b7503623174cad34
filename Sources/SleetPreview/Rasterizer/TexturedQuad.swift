import SleetMath

/// A textured quadrilateral: one face of a shatter piece, or any picture
/// drawn with a perspective (projective) mapping.
public struct TexturedQuad: Sendable {
  /// Where the quad lands: image pixels for ``Rasterizer``, layer points for
  /// ``Renderer`` (which applies its view transform). A quad with any
  /// non-finite corner is skipped.
  public var corners: Quad2D
  /// The matching texture corners in unit texture coordinates: (0, 0) is the
  /// texture's top-left corner, (1, 1) its bottom-right corner. Parts of the
  /// quad whose texture point falls outside [0, 1]² are left transparent (a
  /// piece that overhangs its snapshot shows nothing there).
  public var textureCorners: Quad2D
  /// Index into the texture array given with the quads.
  public var texture: Int
  /// Multiplies the sampled texels, in [0, 1].
  public var opacity: Float
  /// Layer-space z (toward the viewer). ``Renderer`` draws quads in ascending
  /// z — farthest first — ties in array order; ``Rasterizer`` draws them in
  /// array order.
  public var z: Float

  /// A quad showing `texture` (the whole texture by default), opaque, at z 0.
  public init(
    corners: Quad2D, textureCorners: Quad2D = .unit, texture: Int,
    opacity: Float = 1, z: Float = 0
  ) {
    self.corners = corners
    self.textureCorners = textureCorners
    self.texture = texture
    self.opacity = opacity
    self.z = z
  }
}
