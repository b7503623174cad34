import SleetMath
import SleetShatter

extension Renderer {
  /// Draws a shatter frame (any style) from its two snapshots, the way the
  /// samples' container shows it:
  ///
  /// 1. the backdrop: opaque black (``ShatterBackdrop/black``, the
  ///    checkerboard's container, visible beside every card for its whole
  ///    flip: a turned card covers only part of its cell), or the
  ///    whole to-snapshot over transparent (``ShatterBackdrop/toSnapshot``,
  ///    uncovered by explode and glass break);
  /// 2. every piece as a perspective-correct ``TexturedQuad``: its four
  ///    projected corners (container points), its four texture corners, the
  ///    snapshot of its face (`from` or `to`) at its opacity, in ascending
  ///    depth, ties in piece order (``ShatterFrame/drawOrder(into:)``). Pieces
  ///    with a corner behind the eye (NaN) are skipped.
  ///
  /// The snapshots may have any pixel size: texture corners are normalised to
  /// the container, so each snapshot is stretched over the container. Unlike
  /// the particle and quad entry points this clears `image` first, because
  /// the backdrop is part of the frame.
  ///
  /// - Precondition: both snapshots are non-empty.
  /// - Complexity: O(n log n + drawn pixels), n = `frame.count`; one quad
  ///   array per call.
  public func render(
    _ frame: ShatterFrame, from fromSnapshot: RGBAImage, to toSnapshot: RGBAImage,
    into image: inout RGBAImage
  ) {
    precondition(
      fromSnapshot.pixelCount > 0 && toSnapshot.pixelCount > 0,
      "Renderer.render(_:from:to:into:): snapshots must not be empty")
    let textures = [fromSnapshot, toSnapshot]
    switch frame.backdrop {
    case .black:
      image.clear(to: .black)
    case .toSnapshot:
      image.clear(toPremultiplied: .zero)
      let container = Quad2D(
        x: 0, y: 0, width: Float(frame.containerWidth), height: Float(frame.containerHeight))
      render(
        [TexturedQuad(corners: container, texture: Int(ShatterFace.to.rawValue))], textures: textures, into: &image)
    }
    render(Renderer.quads(for: frame), textures: textures, into: &image)
  }

  /// The pieces of a shatter frame as textured quads in piece order:
  /// `corners`, `textureCorners`, `texture = face.rawValue` (0 from, 1 to),
  /// `opacity`, `z = depth`.
  /// - Complexity: O(n), n = `frame.count`.
  public static func quads(for frame: ShatterFrame) -> [TexturedQuad] {
    var quads: [TexturedQuad] = []
    quads.reserveCapacity(frame.count)
    let c = frame.corners, t = frame.textureCorners
    for (i, piece) in frame.pieces.enumerated() {
      let k = 4 * i
      quads.append(
        TexturedQuad(
          corners: Quad2D(topLeft: c[k], topRight: c[k + 1], bottomRight: c[k + 2], bottomLeft: c[k + 3]),
          textureCorners: Quad2D(topLeft: t[k], topRight: t[k + 1], bottomRight: t[k + 2], bottomLeft: t[k + 3]),
          texture: Int(piece.faceRawValue), opacity: piece.opacity, z: piece.depth))
    }
    return quads
  }
}
