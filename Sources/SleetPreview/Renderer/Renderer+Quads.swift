import SleetMath

extension Renderer {
  /// Draws textured quads (shatter pieces, pictures in perspective) with
  /// ``Rasterizer/drawQuads(_:textures:into:options:)`` after mapping their
  /// corners through ``viewTransform`` and sorting them far to near: ascending
  /// ``TexturedQuad/z``, ties in array order (as `backToFront`). Quads with a
  /// NaN z or a non-finite corner are skipped.
  ///
  /// - Precondition: every `quad.texture` indexes `textures`.
  /// - Complexity: O(n log n + drawn pixels), n = `quads.count`.
  public func render(_ quads: [TexturedQuad], textures: [RGBAImage], into image: inout RGBAImage) {
    let view = viewTransform
    var order = quads.indices.filter { !quads[$0].z.isNaN && quads[$0].corners.isFinite }
    order.sort { quads[$0].z < quads[$1].z || (quads[$0].z == quads[$1].z && $0 < $1) }
    let mapped = order.map { i -> TexturedQuad in
      var q = quads[i]
      q.corners = Quad2D(
        topLeft: view.applying(to: q.corners.topLeft), topRight: view.applying(to: q.corners.topRight),
        bottomRight: view.applying(to: q.corners.bottomRight),
        bottomLeft: view.applying(to: q.corners.bottomLeft))
      return q
    }
    Rasterizer.drawQuads(mapped, textures: textures, into: &image, options: options)
  }
}
