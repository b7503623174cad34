import SleetMath

/// The emission shape (`CAEmitterLayerEmitterShape`).
public enum EmitterShape: String, Hashable, Sendable, CaseIterable {
  case point, line, rectangle, circle, cuboid, sphere
}

/// Where on the shape particles are born (`CAEmitterLayerEmitterMode`).
public enum EmitterMode: String, Hashable, Sendable, CaseIterable {
  case points, outline, surface, volume
}

/// The order and blending of particles when drawn (`CAEmitterLayerRenderMode`).
public enum RenderMode: String, Hashable, Sendable, CaseIterable {
  case unordered, oldestFirst, oldestLast, backToFront, additive
}

/// An emitter: every property of `CAEmitterLayer` with Apple's default.
///
/// The layer's `birthRate`, `lifetime`, `velocity`, `scale` and `spin` multiply
/// the matching cell values when a particle is born (and only then).
public struct Emitter: Hashable, Sendable {
  /// The cells emitted. Default empty.
  public var emitterCells: [EmitterCell] = []

  /// Multipliers applied at birth. Default 1.
  public var birthRate: Float = 1
  public var lifetime: Float = 1
  public var velocity: Float = 1
  public var scale: Float = 1
  public var spin: Float = 1

  /// Centre of the emission shape in layer space (points, y down). Default (0, 0), 0.
  public var emitterPosition: SIMD2<Float> = .zero
  public var emitterZPosition: Float = 0
  /// Size of the shape (width, height) and its depth. Default (0, 0), 0.
  public var emitterSize: SIMD2<Float> = .zero
  public var emitterDepth: Float = 0
  /// Default `point`, `volume`, `unordered`.
  public var emitterShape: EmitterShape = .point
  public var emitterMode: EmitterMode = .volume
  public var renderMode: RenderMode = .unordered
  /// Whether particles keep their z when drawn. Default false.
  public var preservesDepth: Bool = false
  /// Seed of the emitter's random streams. Default 0.
  public var seed: UInt32 = 0

  /// The emitter's own timing: local time t = (T − beginTime)·speed + timeOffset.
  /// Defaults 0, 1, 0.
  public var beginTime: Double = 0
  public var speed: Float = 1
  public var timeOffset: Double = 0

  /// An emitter with Apple's defaults.
  public init(emitterCells: [EmitterCell] = []) {
    self.emitterCells = emitterCells
  }
}
