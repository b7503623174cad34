import SleetMath

/// The emission shape (`CAEmitterLayerEmitterShape`).
public enum EmitterShape: String, Hashable, Sendable, CaseIterable {
  /// `point`: every particle at `emitterPosition`; `line` along x; `rectangle`,
  /// `circle` in the xy plane; `cuboid`, `sphere` in 3-D (`emitterDepth` deep).
  case point, line, rectangle, circle, cuboid, sphere
}

/// Where on the shape particles are born (`CAEmitterLayerEmitterMode`).
public enum EmitterMode: String, Hashable, Sendable, CaseIterable {
  /// `points`: at the shape's vertices (its centre for a point); `outline` on
  /// its edges; `surface` on its faces; `volume` anywhere inside.
  case points, outline, surface, volume
}

/// The order and blending of particles when drawn (`CAEmitterLayerRenderMode`).
public enum RenderMode: String, Hashable, Sendable, CaseIterable {
  /// `unordered`: birth order, source-over; `oldestFirst`/`oldestLast`: by birth
  /// time, oldest drawn first/last; `backToFront`: by depth (z), far first;
  /// `additive`: birth order, colours added (glow).
  case unordered, oldestFirst, oldestLast, backToFront, additive
}

/// An emitter: every property of `CAEmitterLayer` with Apple's default.
///
/// The layer's `birthRate`, `lifetime`, `velocity`, `scale` and `spin` multiply
/// the matching cell values when a particle is born (and only then).
public struct Emitter: Hashable, Sendable {
  /// The cells emitted. Default empty.
  public var emitterCells: [EmitterCell] = []

  /// Multiplies every cell's `birthRate` (particles per second). The
  /// multipliers below apply when a particle is born, never to live ones.
  /// Default 1.
  public var birthRate: Float = 1
  /// Multiplies every cell's `lifetime` at birth. Default 1.
  public var lifetime: Float = 1
  /// Multiplies every cell's `velocity` and `velocityRange` at birth. Default 1.
  public var velocity: Float = 1
  /// Multiplies every cell's initial scale at birth. Default 1.
  public var scale: Float = 1
  /// Multiplies every cell's `spin` at birth. Default 1.
  public var spin: Float = 1

  /// Centre of the emission shape in layer space (points, y down). Default (0, 0), 0.
  public var emitterPosition: SIMD2<Float> = .zero
  /// z of the emission shape's centre, points (toward the viewer). Default 0.
  public var emitterZPosition: Float = 0
  /// Size of the shape (width, height) and its depth. Default (0, 0), 0.
  public var emitterSize: SIMD2<Float> = .zero
  /// Depth (z extent) of the `cuboid` and `sphere` shapes, points. Default 0.
  public var emitterDepth: Float = 0
  /// The emission shape. Default `point`.
  public var emitterShape: EmitterShape = .point
  /// Where on the shape particles are born. Default `volume`.
  public var emitterMode: EmitterMode = .volume
  /// Draw order and blending of the particles. Default `unordered`.
  public var renderMode: RenderMode = .unordered
  /// Whether particles keep their z when drawn. Default false.
  public var preservesDepth: Bool = false
  /// Seed of the emitter's random streams. Default 0.
  public var seed: UInt32 = 0
  /// Behaviors acting on every cell's particles (`emitterBehaviors`), before
  /// each cell's own. Default empty.
  public var emitterBehaviors: [EmitterBehavior] = []

  /// The emitter's own timing: local time t = (T − beginTime)·speed + timeOffset.
  /// Defaults 0, 1, 0.
  public var beginTime: Double = 0
  /// Rate of the emitter's local time relative to the caller's time. Default 1.
  public var speed: Float = 1
  /// Seconds added to the emitter's local time. Default 0.
  public var timeOffset: Double = 0

  /// An emitter with Apple's defaults.
  public init(emitterCells: [EmitterCell] = []) {
    self.emitterCells = emitterCells
  }
}
