import SleetMath

/// What an emitter emits: the definition of one kind of particle, with every
/// property of `CAEmitterCell` and Apple's default for each.
///
/// A mean/range pair (`lifetime`/`lifetimeRange`, `velocity`/`velocityRange`, …)
/// is sampled uniformly on **[M − R/2, M + R/2]** at birth, as Apple's header
/// documents. Evolution over a particle's age `a` is closed-form
/// (`docs/semantics.md`): position p0 + v0·a + ½·acc·a², scale s0 + scaleSpeed·a,
/// rotation spin·a, colour c0 + speed·a.
///
/// Definitions are immutable values: change a running effect with key paths
/// (see `Effect` and `PropertyChange`), which affect only particles born afterwards.
public struct EmitterCell: Hashable, Sendable {
  /// The name used in key paths (`emitterCells.<name>.birthRate`). Default nil.
  public var name: String?
  /// Whether the cell emits and its particles are drawn. Default true.
  public var isEnabled: Bool = true

  /// Particles per second (multiplied by the layer's `birthRate`). Default 0.
  public var birthRate: Float = 0
  /// Seconds; mean and range. Default 0, 0.
  public var lifetime: Float = 0
  /// Full width of the lifetime's uniform range, seconds: a particle lives
  /// `lifetime ± lifetimeRange/2`. Default 0.
  public var lifetimeRange: Float = 0

  /// Points per second; mean and range. Default 0, 0.
  public var velocity: Float = 0
  /// Full width of the initial speed's uniform range, points per second.
  /// Default 0.
  public var velocityRange: Float = 0
  /// Points per second², constant over the particle's life. Default 0.
  public var xAcceleration: Float = 0
  /// Vertical acceleration, points per second² (y grows downward, so positive
  /// values pull particles down like gravity). Default 0.
  public var yAcceleration: Float = 0
  /// Acceleration along z (toward the viewer), points per second². Default 0.
  public var zAcceleration: Float = 0

  /// Tilt of the emission direction toward +z, radians. Default 0.
  public var emissionLatitude: Float = 0
  /// Angle of the emission direction in the xy plane from the shape's base
  /// direction toward +y, radians. Default 0.
  public var emissionLongitude: Float = 0
  /// Full angle of the emission cone, radians (uniform over solid angle). Default 0.
  public var emissionRange: Float = 0

  /// Mean and range of the initial scale; change per second. Default 1, 0, 0.
  public var scale: Float = 1
  /// Full width of the initial scale's uniform range. Default 0.
  public var scaleRange: Float = 0
  /// Change of scale per second of age (scale = s0 + scaleSpeed·a, clamped at
  /// 0). Default 0.
  public var scaleSpeed: Float = 0

  /// Rotation rate, radians per second; mean and range. Default 0, 0.
  public var spin: Float = 0
  /// Full width of the spin's uniform range, radians per second. Default 0.
  public var spinRange: Float = 0

  /// Mean colour. Default opaque white.
  public var color: ColorRGBA = .white
  /// Per-component ranges. Default 0.
  public var redRange: Float = 0
  /// Full width of the green component's uniform range at birth. Default 0.
  public var greenRange: Float = 0
  /// Full width of the blue component's uniform range at birth. Default 0.
  public var blueRange: Float = 0
  /// Full width of the alpha component's uniform range at birth. Default 0.
  public var alphaRange: Float = 0
  /// Per-component change per second. Default 0.
  public var redSpeed: Float = 0
  /// Change of the green component per second of age (clamped to 0…1). Default 0.
  public var greenSpeed: Float = 0
  /// Change of the blue component per second of age (clamped to 0…1). Default 0.
  public var blueSpeed: Float = 0
  /// Change of alpha per second of age (clamped to 0…1); negative values fade
  /// particles out. Default 0.
  public var alphaSpeed: Float = 0

  /// The sprite drawn for each particle. Default nil (nothing is drawn, but the
  /// particles are still simulated, as on Core Animation).
  public var contents: SpriteReference?
  /// The unit sub-rectangle of the sprite to draw: (x, y, width, height).
  /// Default (0, 0, 1, 1).
  public var contentsRect: SIMD4<Float> = SIMD4(0, 0, 1, 1)
  /// Sprite pixels per point. Default 1.
  public var contentsScale: Float = 1
  /// Sampling filters by their Core Animation names (`linear`, `nearest`,
  /// `trilinear`; ``SamplingFilter``'s raw values), as `CAEmitterCell` takes
  /// them. Default `linear`, `linear`, bias 0. Other names are rejected by
  /// validation, key paths and effect files. See ``sampling``.
  public var magnificationFilter: String = "linear"
  /// The filter used when a sprite is drawn smaller than its pixel size
  /// (`linear`, `nearest` or `trilinear`). Default `linear`.
  public var minificationFilter: String = "linear"
  /// Added to the level of detail when choosing mip levels (trilinear
  /// minification). Default 0.
  public var minificationFilterBias: Float = 0

  /// The three sampling properties, typed: what a renderer receives in
  /// ``ParticleFrame/spriteSampling``. Setting it sets the filter names.
  ///
  ///     cell.sampling = SpriteSampling(magnificationFilter: .nearest)   // pixel art
  ///
  /// - Precondition (get): both filter names are ``SamplingFilter`` names
  ///   (true of every cell that passed `Emitter.validate()`).
  /// - Complexity: O(1).
  public var sampling: SpriteSampling {
    get {
      guard let magnification = SamplingFilter(rawValue: magnificationFilter),
        let minification = SamplingFilter(rawValue: minificationFilter)
      else {
        preconditionFailure(
          "EmitterCell.sampling: unknown filter name in '\(magnificationFilter)', '\(minificationFilter)' "
            + "(expected \(EmitterCell.filterNames.joined(separator: ", ")); validate the emitter first)")
      }
      return SpriteSampling(
        magnificationFilter: magnification, minificationFilter: minification,
        minificationFilterBias: minificationFilterBias)
    }
    set {
      magnificationFilter = newValue.magnificationFilter.rawValue
      minificationFilter = newValue.minificationFilter.rawValue
      minificationFilterBias = newValue.minificationFilterBias
    }
  }

  /// Behaviors acting on this cell's particles (`emitterBehaviors`), after
  /// the emitter's. Not inherited by sub-cells. Default empty.
  public var emitterBehaviors: [EmitterBehavior] = []
  /// Mean mass of a particle, > 0: behavior forces are divided by it (the
  /// cell's accelerations are not). Default 1.
  public var mass: Float = 1
  /// Full width of the mass's uniform range (`mass ± massRange/2`, which
  /// must stay > 0). Default 0.
  public var massRange: Float = 0

  /// Sub-cells: every live particle of this cell emits each of them.
  public var emitterCells: [EmitterCell] = []

  /// Timing (CAMediaTiming). For a top-level cell these are on the emitter's
  /// local timeline; for a sub-cell, on the parent particle's age. `duration` 0
  /// means no end. Defaults 0, 0, 1, 0.
  public var beginTime: Double = 0
  /// How long the cell emits, seconds of its timeline; 0 means forever.
  /// Default 0.
  public var duration: Double = 0
  /// Rate of the cell's timeline relative to its parent's. Default 1.
  public var speed: Float = 1
  /// Seconds added to the cell's local time. Default 0.
  public var timeOffset: Double = 0

  /// A cell with Apple's defaults, optionally named.
  public init(name: String? = nil) {
    self.name = name
  }
}

/// A reference to a sprite image: a built-in procedural sprite by name (`disc`,
/// `snowflake`, `spark`, `star`, `heart`, `confetti`) or a PNG file path
/// (relative paths resolve against the effect file's folder).
public struct SpriteReference: Hashable, Sendable {
  /// The built-in sprite's name or the PNG file's path, as written in the
  /// effect file.
  public var name: String

  /// A reference to a built-in sprite (one of ``builtInNames``) or a PNG path.
  public init(_ name: String) {
    self.name = name
  }

  /// The procedural sprites every renderer provides, usable by name in
  /// `contents` without an image file.
  public static let builtInNames = ["disc", "snowflake", "spark", "star", "heart", "confetti"]
}
