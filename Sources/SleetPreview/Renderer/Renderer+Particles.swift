import SleetMath
import SleetParticles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Renderer {
  /// Draws a particle frame: every instance covered by `frame.batches`, in
  /// batch order and instance order within a batch (the order `renderMode`
  /// chose), each with its batch's blend mode.
  ///
  /// Instance i is drawn as ``SpriteDraw`` with
  /// `transform = frame.affines[i] · viewTransform`, its `contentsRect`, and tint
  /// `color` (straight alpha); the sprite is `frame.sprites[instance.sprite]`
  /// resolved through `sprites`, its point size divided by the cell's
  /// `frame.spriteContentsScales[instance.sprite]` (a frame without that
  /// table, built by hand, draws sprites at their own size) and sampled as
  /// `frame.spriteSampling[instance.sprite]` says (linear when the table has
  /// no entry for it). Instances without contents
  /// (``ParticleInstance/noSprite``), with zero alpha or zero scale draw nothing.
  /// Sprite-table entries no instance uses are not resolved. A frame without
  /// affines (a simulation configured not to compute them) is drawn with the
  /// contract's affine built from the instance: `scale(s) · rotate(rotation) ·
  /// translate(x, y)`.
  ///
  /// - Precondition: `frame.affines` is empty or has one entry per instance;
  ///   batch ranges and sprite indices are in bounds.
  /// - Throws: ``SpriteError`` for a sprite the provider cannot resolve.
  /// - Complexity: O(n + drawn pixels), n = instances; allocations per call
  ///   (sprite table and draw list), none per instance.
  public func render(
    _ frame: ParticleFrame, into image: inout RGBAImage, sprites: some SpriteProvider
  ) throws(SpriteError) {
    let draws = try _spriteDraws(for: frame, sprites: sprites)
    Rasterizer.drawSprites(draws.draws, sprites: draws.table, into: &image, options: options)
  }

  /// The draws and the resolved sprite table for a frame.
  internal func _spriteDraws(
    for frame: ParticleFrame, sprites provider: some SpriteProvider
  ) throws(SpriteError) -> (draws: [SpriteDraw], table: [Sprite]) {
    let instances = frame.instances
    let hasAffines = !frame.affines.isEmpty
    precondition(
      !hasAffines || frame.affines.count == instances.count,
      "Renderer.render: \(frame.affines.count) affines for \(instances.count) instances")
    // Resolve only the sprite-table entries in use, each once.
    var slot = [Int](repeating: -1, count: frame.sprites.count)
    var table: [Sprite] = []
    var draws: [SpriteDraw] = []
    draws.reserveCapacity(instances.count)
    let view = viewTransform
    for batch in frame.batches {
      precondition(
        batch.range.lowerBound >= 0 && batch.range.upperBound <= instances.count,
        "Renderer.render: batch range \(batch.range) outside 0..<\(instances.count)")
      for i in batch.range {
        let instance = instances[i]
        if instance.sprite == ParticleInstance.noSprite { continue }
        guard instance.color.w > 0, instance.scale != 0 else { continue }
        let index = Int(instance.sprite)
        precondition(
          index < frame.sprites.count,
          "Renderer.render: sprite index \(index) outside the sprite table (\(frame.sprites.count))")
        if slot[index] < 0 {
          slot[index] = table.count
          var sprite = try provider.sprite(for: frame.sprites[index])
          // The cell's contentsScale: pixels per point of its contents.
          if index < frame.spriteContentsScales.count {
            let contentsScale = frame.spriteContentsScales[index]
            if contentsScale > 0 && contentsScale.isFinite { sprite.pointSize /= contentsScale }
          }
          table.append(sprite)
        }
        draws.append(
          SpriteDraw(
            transform: (hasAffines ? frame.affines[i] : Renderer.instanceAffine(instance))._concatenating(view),
            sprite: slot[index],
            contentsRect: instance.contentsRect, tint: instance.color, blendMode: batch.blendMode,
            sampling: index < frame.spriteSampling.count ? frame.spriteSampling[index] : .linear))
      }
    }
    return (draws, table)
  }
}

extension Renderer {
  /// The ParticleFrame contract's affine for an instance, row vectors:
  ///
  /// ```
  /// scale(s) · rotate(θ) · translate(x, y) = ⎡ s·cos θ   s·sin θ ⎤
  ///                                          ⎢−s·sin θ   s·cos θ ⎥
  ///                                          ⎣ x         y       ⎦
  /// ```
  ///
  /// (θ > 0 turns clockwise on screen, y being down.) Precision: libm's
  /// `cos`/`sin` in Float.
  /// - Complexity: O(1).
  public static func instanceAffine(_ instance: ParticleInstance) -> AffineTransform2D {
    let s = instance.scale
    let c = cos(instance.rotation), n = sin(instance.rotation)
    return AffineTransform2D(a: s * c, b: s * n, c: -s * n, d: s * c, tx: instance.x, ty: instance.y)
  }
}
