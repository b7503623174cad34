import SleetMath

/// One particle as a renderer draws it: 64 bytes, 16-byte aligned, no padding,
/// ready to upload as a GPU instance buffer.
///
/// | offset | field | meaning |
/// |---|---|---|
/// | 0  | x, y, z | position in layer space (points; y down) |
/// | 12 | scale | drawn scale, max(0, s0 + scaleSpeed·age) × inherited |
/// | 16 | color | r, g, b, a clamped to [0, 1], straight alpha |
/// | 32 | contentsRect | unit sub-rectangle of the sprite (x, y, w, h) |
/// | 48 | rotation | radians, spin·age |
/// | 52 | normalizedAge | age / lifetime, in [0, 1) |
/// | 56 | sprite | index into ``ParticleFrame/sprites`` (`UInt32.max`: no contents) |
/// | 60 | cell | index into ``ParticleFrame/cellPaths`` |
@frozen
public struct ParticleInstance: Hashable, Sendable {
  /// Position along x in layer space, points (offset 0).
  public var x: Float
  /// Position along y, points, y down (offset 4).
  public var y: Float
  /// Position along z, points, toward the viewer (offset 8).
  public var z: Float
  /// Drawn scale, `max(0, s0 + scaleSpeed·age)` times the inherited scale
  /// (offset 12); the sprite's size in points is its pixel size ×
  /// `scale` / `contentsScale`.
  public var scale: Float
  /// Colour r, g, b, a, each clamped to [0, 1], straight alpha (offset 16).
  public var color: SIMD4<Float>
  /// The unit sub-rectangle of the sprite to draw: x, y, width, height
  /// (offset 32).
  public var contentsRect: SIMD4<Float>
  /// Rotation about z, radians, `spin·age` (offset 48).
  public var rotation: Float
  /// `age / lifetime`, in [0, 1) (offset 52).
  public var normalizedAge: Float
  /// Index into ``ParticleFrame/sprites``; ``noSprite`` when the cell has no
  /// contents (offset 56).
  public var sprite: UInt32
  /// Index into ``ParticleFrame/cellPaths`` (offset 60).
  public var cell: UInt32

  /// An instance from its fields, in layout order.
  @inlinable
  public init(
    x: Float, y: Float, z: Float, scale: Float, color: SIMD4<Float>,
    contentsRect: SIMD4<Float>, rotation: Float, normalizedAge: Float,
    sprite: UInt32, cell: UInt32
  ) {
    self.x = x
    self.y = y
    self.z = z
    self.scale = scale
    self.color = color
    self.contentsRect = contentsRect
    self.rotation = rotation
    self.normalizedAge = normalizedAge
    self.sprite = sprite
    self.cell = cell
  }

  /// The sprite index meaning "this cell has no contents".
  public static let noSprite = UInt32.max
}

/// One particle in 32 bytes, for renderers that need position, size,
/// rotation, colour and sprite only (``ParticleSystemConfiguration/instanceLayout``
/// `.compact`): half the bytes of a ``ParticleInstance``, so a frame of a
/// million particles writes 32 MB instead of 64.
///
/// | offset | field | meaning |
/// |---|---|---|
/// | 0  | x, y, z | position, as in ``ParticleInstance`` |
/// | 12 | scale | drawn scale |
/// | 16 | rotation | radians |
/// | 20 | normalizedAge | age / lifetime, in [0, 1) |
/// | 24 | color | r, g, b, a as unorm8: 255·c rounded to nearest (ties to even), c the clamped colour (`R8G8B8A8_UNORM`) |
/// | 28 | sprite | `UInt16`: index into ``ParticleFrame/sprites``, 0xFFFF for none |
/// | 30 | cell | `UInt16`: index into ``ParticleFrame/cellPaths`` |
///
/// The contentsRect is not carried (a renderer needing it uses the full
/// instance). Every field is the full instance's, converted exactly as
/// ``init(_:)`` converts it (tested bit for bit).
@frozen
public struct CompactParticleInstance: Hashable, Sendable {
  /// Position along x, points (offset 0).
  public var x: Float
  /// Position along y, points, y down (offset 4).
  public var y: Float
  /// Position along z, points (offset 8).
  public var z: Float
  /// Drawn scale, as ``ParticleInstance/scale`` (offset 12).
  public var scale: Float
  /// Rotation about z, radians (offset 16).
  public var rotation: Float
  /// `age / lifetime`, in [0, 1) (offset 20).
  public var normalizedAge: Float
  /// Colour as unorm8, `255·c` rounded to nearest, ties to even (offset 24).
  public var color: SIMD4<UInt8>
  /// Index into ``ParticleFrame/sprites``; ``noSprite`` for none (offset 28).
  public var sprite: UInt16
  /// Index into ``ParticleFrame/cellPaths`` (offset 30).
  public var cell: UInt16

  /// The sprite index meaning "this cell has no contents".
  public static let noSprite = UInt16.max

  /// The compact form of `instance` (the conversion the kernel makes).
  @inlinable
  public init(_ instance: ParticleInstance) {
    x = instance.x
    y = instance.y
    z = instance.z
    scale = instance.scale
    rotation = instance.rotation
    normalizedAge = instance.normalizedAge
    let c = instance.color * 255
    color = SIMD4(
      UInt8(c.x.rounded(.toNearestOrEven)), UInt8(c.y.rounded(.toNearestOrEven)),
      UInt8(c.z.rounded(.toNearestOrEven)), UInt8(c.w.rounded(.toNearestOrEven)))
    sprite = instance.sprite >= UInt32(UInt16.max) ? UInt16.max : UInt16(instance.sprite)
    cell = UInt16(truncatingIfNeeded: instance.cell)
  }
}

/// How a draw batch composites onto the target.
public enum BlendMode: String, Hashable, Sendable {
  /// Porter–Duff source-over.
  case sourceOver
  /// Source plus destination (`renderMode` `additive`).
  case additive
}

/// A texture sampling filter, by its Core Animation name (`kCAFilterLinear`,
/// `kCAFilterNearest`, `kCAFilterTrilinear`), as `CAEmitterCell`'s
/// `magnificationFilter` and `minificationFilter` take it.
public enum SamplingFilter: String, Hashable, Sendable, CaseIterable {
  /// Bilinear interpolation of the four nearest texels.
  case linear
  /// The nearest texel (point sampling): hard texel edges when magnified.
  case nearest
  /// Bilinear within, and linear between, the two nearest mip levels. A
  /// renderer without mip levels samples as `linear` (SleetPreview does;
  /// docs/rendering.md).
  case trilinear
}

/// How a sprite-table entry is sampled: `CAEmitterCell`'s
/// `magnificationFilter`, `minificationFilter` and `minificationFilterBias`.
///
/// The magnification filter applies where the sprite is drawn larger than its
/// pixels (a texel covers at least a pixel), the minification filter where it
/// is drawn smaller; the bias is added to the level of detail
/// λ = log₂(texels per pixel) when choosing mip levels (trilinear only).
public struct SpriteSampling: Hashable, Sendable {
  /// The filter where the sprite is drawn larger than its pixels.
  public var magnificationFilter: SamplingFilter
  /// The filter where the sprite is drawn smaller than its pixels.
  public var minificationFilter: SamplingFilter
  /// Added to the level of detail λ before choosing mip levels (trilinear).
  public var minificationFilterBias: Float

  /// Default: Core Animation's (GNUstep's) `linear`, `linear`, bias 0.
  public init(
    magnificationFilter: SamplingFilter = .linear, minificationFilter: SamplingFilter = .linear,
    minificationFilterBias: Float = 0
  ) {
    self.magnificationFilter = magnificationFilter
    self.minificationFilter = minificationFilter
    self.minificationFilterBias = minificationFilterBias
  }

  /// Linear both ways, bias 0: what a frame without a sampling table means.
  public static let linear = SpriteSampling()
}

/// A contiguous range of ``ParticleFrame/instances`` drawn with one blend mode.
public struct DrawBatch: Hashable, Sendable {
  /// The instances drawn, indices into ``ParticleFrame/instances``.
  public var range: Range<Int>
  /// How they blend: source-over, or additive (`RenderMode.additive`).
  public var blendMode: BlendMode

  /// A batch of `range` drawn with `blendMode`.
  public init(range: Range<Int>, blendMode: BlendMode) {
    self.range = range
    self.blendMode = blendMode
  }
}

/// Everything a renderer needs to draw one frame of a particle effect. A frame
/// is meant to be reused: the simulation refills it in place, keeping capacity,
/// so steady-state frames allocate nothing.
public struct ParticleFrame: Sendable {
  /// The emitter-local time of the frame, seconds.
  public var time: Double = 0
  /// The particles, already in the order that `renderMode` demands (first drawn
  /// first).
  public var instances: [ParticleInstance] = []
  /// The particles in the 32-byte layout, in the same order, when the system
  /// is configured with ``ParticleSystemConfiguration/InstanceLayout/compact``
  /// (then ``instances`` is empty, and the other way round).
  public var compactInstances: [CompactParticleInstance] = []
  /// Per instance (same index), the 2D affine that maps sprite-local points —
  /// centred on the sprite, in points at scale 1 — to layer space:
  /// `scale(s) · rotate(rotation) · translate(x, y)` (row-vector order).
  public var affines: [AffineTransform2D] = []
  /// Per instance (same index), the particle's stable id (``ParticleID``),
  /// filled when ``ParticleSystemConfiguration/computesIDs`` is set (for a
  /// renderer that tracks particles across frames, and `sleet particles
  /// dump`); empty otherwise.
  public var ids: [UInt64] = []
  /// Draw batches covering `instances` (or `compactInstances`) in order.
  public var batches: [DrawBatch] = []
  /// Sprite table: ``ParticleInstance/sprite`` indexes this.
  public var sprites: [SpriteReference] = []
  /// Per sprite-table entry (same index as ``sprites``), the `contentsScale`
  /// of the cells drawing it: sprite pixels per point, as
  /// `CAEmitterCell.contentsScale`. A renderer draws the sprite at its size
  /// for contentsScale 1 divided by this (2: half the size, twice the
  /// density). Cells that draw one image at different scales get different
  /// entries. The ``affines`` do not include it: they place a sprite-local
  /// point space whose unit is the sprite's point.
  public var spriteContentsScales: [Float] = []
  /// Per sprite-table entry (same index as ``sprites``), how the sprite is
  /// sampled: the cells' `magnificationFilter`, `minificationFilter` and
  /// `minificationFilterBias`. Cells that draw one image with different
  /// sampling get different entries. An entry missing here (the table is
  /// empty or shorter than ``sprites``) means ``SpriteSampling/linear``.
  public var spriteSampling: [SpriteSampling] = []
  /// Cell table: ``ParticleInstance/cell`` indexes this; each entry is the
  /// cell's key path without the `emitterCells.` prefixes, e.g. `rocket.spark`.
  public var cellPaths: [String] = []

  /// An empty frame. Pass it to `ParticleSystem.render(into:)` every tick: its
  /// arrays keep their capacity, so steady-state frames allocate nothing.
  public init() {}
}
