/// What a ``ParticleSystem`` may use and how it treats too many particles.
public struct ParticleSystemConfiguration: Hashable, Sendable {
  /// What happens when a definition's computed peak exceeds the budget.
  public enum OverflowPolicy: String, Hashable, Sendable {
    /// Refuse the definition at load with ``ParticleSystemError/budgetExceeded(peak:budget:)``.
    case reject
    /// Accept it and keep at most `budget` live particles, dropping the oldest
    /// first. Frames stay deterministic for a given sequence of frame times.
    ///
    /// - Important: once capping has happened, ``ParticleSystem/seek(to:)``
    ///   and ``ParticleSystem/advance(to:)`` may give different particles:
    ///   stepping drops parents as it goes, and a dropped parent emits no
    ///   more sub-particles, while seeking enumerates every parent and keeps
    ///   the newest `budget` at the target time. Until the live count first
    ///   exceeds the budget, both give the same particles bit for bit.
    case capOldestFirst
  }

  /// The most live particles allowed, at most ``maximumBudget``. Default
  /// 4,000,000.
  public var budget: Int = 4_000_000
  /// The largest budget a system accepts: 2³¹ − 1, so a frame's particles
  /// can be indexed with 32-bit integers (the render-order sort keeps its
  /// permutation as `Int32`, half the memory traffic of `Int`).
  public static let maximumBudget = Int(Int32.max)
  /// What happens when the computed peak exceeds `budget`. Default `reject`.
  /// With ``OverflowPolicy/capOldestFirst``, seek and step agree only until
  /// capping first happens (see there).
  public var overflowPolicy: OverflowPolicy = .reject
  /// Worker threads for frame evaluation (1 = the calling thread only).
  /// Results are bit-identical for any value. Default 1.
  public var threads: Int = 1
  /// Particles per work chunk, rounded up to a multiple of 8. Results are
  /// bit-identical for any value. Default 16,384.
  public var chunkSize: Int = 16_384
  /// Whether ``ParticleFrame/affines`` is filled. Default false: a renderer
  /// that draws with a per-instance matrix asks for it (24 more bytes written
  /// per particle, and a sine and cosine); the instance's position, scale and
  /// rotation say the same.
  public var computesAffines: Bool = false
  /// Which instance buffer a frame fills.
  public enum InstanceLayout: String, Hashable, Sendable {
    /// ``ParticleFrame/instances``: 64-byte ``ParticleInstance``s.
    case full
    /// ``ParticleFrame/compactInstances``: 32-byte ``CompactParticleInstance``s.
    case compact
  }

  /// Which instance buffer a frame fills. Default ``InstanceLayout/full``.
  public var instanceLayout: InstanceLayout = .full
  /// Whether ``ParticleFrame/ids`` is filled (8 more bytes written per
  /// particle). Default false.
  public var computesIDs: Bool = false

  /// A configuration; every default is the property's documented default.
  public init(
    budget: Int = 4_000_000, overflowPolicy: OverflowPolicy = .reject, threads: Int = 1,
    chunkSize: Int = 16_384, computesAffines: Bool = false, computesIDs: Bool = false,
    instanceLayout: InstanceLayout = .full
  ) {
    self.instanceLayout = instanceLayout
    self.budget = budget
    self.overflowPolicy = overflowPolicy
    self.threads = threads
    self.chunkSize = chunkSize
    self.computesAffines = computesAffines
    self.computesIDs = computesIDs
  }
}

/// Why a definition cannot be simulated.
public enum ParticleSystemError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The definition can have up to `peak` live particles at once, more than
  /// the configured `budget`.
  case budgetExceeded(peak: Int, budget: Int)
  /// The effect has more cells (sub-cells included) than particle ids can
  /// number: at most ``ParticleSystemError/maximumCells``.
  case tooManyCells(Int)
  /// The effect nests sub-cells deeper than `SleetLimits.cellDepth` levels.
  case cellsTooDeep(Int)
  /// The definition has a bad value or cell name (`Emitter.validate()`,
  /// sprite names aside):
  /// NaN or ∞, a negative rate or lifetime, a colour outside [0, 1], sibling
  /// cells sharing a name, …; the error names the key path.
  case invalidDefinition(KeyPathError)

  /// The most cells (sub-cells included) an effect may have: ids keep the
  /// cell number in their top 8 bits.
  public static var maximumCells: Int { Effect.maximumCells }

  public var description: String {
    switch self {
    case .budgetExceeded(let peak, let budget):
      "the effect can have up to \(peak) live particles, over the budget of \(budget)"
    case .tooManyCells(let count):
      "the effect has \(count) cells; at most \(ParticleSystemError.maximumCells) are supported"
    case .cellsTooDeep(let depth):
      EffectValidationError.cellsTooDeep(depth).description
    case .invalidDefinition(let problem):
      "invalid effect definition: \(problem)"
    }
  }
}

/// One live particle in full, for inspection (`sleet particles dump`) and
/// tests: the closed form evaluated at one time, colour clamped.
public struct ParticleSnapshot: Hashable, Sendable {
  /// The particle's id (``ParticleID``): stable across seeks and thread counts.
  public var id: UInt64
  /// The cell's key path without `emitterCells.`, e.g. `rocket.spark`.
  public var cellPath: String
  /// Emitter-local birth time, seconds.
  public var birthTime: Double
  /// Lifetime, seconds.
  public var lifetime: Float
  /// Position, layer space, points: p0 + v0·a + ½·acc·a².
  public var position: SIMD3<Float>
  /// Velocity, points per second: v0 + acc·a.
  public var velocity: SIMD3<Float>
  /// Drawn scale, max(0, s0 + scaleSpeed·a) × inherited.
  public var scale: Float
  /// Rotation, radians: spin·a.
  public var rotation: Float
  /// Colour c0 + colorSpeed·a, clamped to [0, 1].
  public var color: SIMD4<Float>
}
