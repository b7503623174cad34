import SleetMath

/// One of Core Animation's emitter behaviors (`CAEmitterBehavior`, reached in
/// UIKit through the `emitterBehaviors` key): a force on the particles
/// (``WaveBehavior``, ``DragBehavior``, ``AttractorBehavior``,
/// ``SimpleAttractorBehavior``) or a curve over each particle's life
/// (``ValueOverLifeBehavior``, ``ColorOverLifeBehavior``,
/// ``AlignToMotionBehavior``).
///
/// Behaviors on the emitter (``Emitter/emitterBehaviors``) act on every
/// cell's particles; behaviors on a cell (``EmitterCell/emitterBehaviors``)
/// on that cell's particles only. The layer's come first, then the cell's,
/// each list in order: forces add; curves apply in turn.
///
/// The laws are `docs/semantics.md`'s ("Emitter behaviors"): which are
/// evaluated in closed form (a seek costs the same as without behaviors)
/// and which are integrated on a fixed step from each particle's birth.
/// Core Animation's `light` behavior is not supported: SleetKit draws unlit
/// sprites, and an effect file that names it is refused with that reason.
///
///     emitter.emitterBehaviors = [
///       .wave(WaveBehavior(name: "sway", force: SIMD3(100, 0, 0), frequency: 0.5)),
///       .drag(DragBehavior(name: "brake", drag: 1.5)),
///     ]
public enum EmitterBehavior: Hashable, Sendable {
  /// A force along `force` whose strength follows a smooth triangle wave
  /// in the emitter's time.
  case wave(WaveBehavior)
  /// A force against each particle's velocity.
  case drag(DragBehavior)
  /// A spring toward a point, axis or plane.
  case attractor(AttractorBehavior)
  /// A spring toward a point (`simpleAttractor`).
  case simpleAttractor(SimpleAttractorBehavior)
  /// A particle property keyed over the particle's life.
  case valueOverLife(ValueOverLifeBehavior)
  /// A colour keyed over the particle's life, multiplying its own.
  case colorOverLife(ColorOverLifeBehavior)
  /// Rotation that follows the direction of motion.
  case alignToMotion(AlignToMotionBehavior)

  /// The behavior's type as Core Animation names it (`kCAEmitterBehavior…`):
  /// `wave`, `drag`, `attractor`, `simpleAttractor`, `valueOverLife`,
  /// `colorOverLife`, `alignToMotion`.
  public var type: String {
    switch self {
    case .wave: "wave"
    case .drag: "drag"
    case .attractor: "attractor"
    case .simpleAttractor: "simpleAttractor"
    case .valueOverLife: "valueOverLife"
    case .colorOverLife: "colorOverLife"
    case .alignToMotion: "alignToMotion"
    }
  }

  /// The types SleetKit simulates, in the order above.
  public static let types = [
    "wave", "drag", "attractor", "simpleAttractor", "valueOverLife", "colorOverLife", "alignToMotion",
  ]

  /// The name key paths use (`emitterBehaviors.<name>.stiffness`); nil for
  /// an unnamed behavior, which key paths cannot reach.
  public var name: String? {
    get {
      switch self {
      case .wave(let b): b.name
      case .drag(let b): b.name
      case .attractor(let b): b.name
      case .simpleAttractor(let b): b.name
      case .valueOverLife(let b): b.name
      case .colorOverLife(let b): b.name
      case .alignToMotion(let b): b.name
      }
    }
    set {
      switch self {
      case .wave(var b): b.name = newValue; self = .wave(b)
      case .drag(var b): b.name = newValue; self = .drag(b)
      case .attractor(var b): b.name = newValue; self = .attractor(b)
      case .simpleAttractor(var b): b.name = newValue; self = .simpleAttractor(b)
      case .valueOverLife(var b): b.name = newValue; self = .valueOverLife(b)
      case .colorOverLife(var b): b.name = newValue; self = .colorOverLife(b)
      case .alignToMotion(var b): b.name = newValue; self = .alignToMotion(b)
      }
    }
  }

  /// Whether the behavior acts (`enabled`). A disabled behavior is kept
  /// (a key path may enable it later) but has no effect.
  public var isEnabled: Bool {
    get {
      switch self {
      case .wave(let b): b.isEnabled
      case .drag(let b): b.isEnabled
      case .attractor(let b): b.isEnabled
      case .simpleAttractor(let b): b.isEnabled
      case .valueOverLife(let b): b.isEnabled
      case .colorOverLife(let b): b.isEnabled
      case .alignToMotion(let b): b.isEnabled
      }
    }
    set {
      switch self {
      case .wave(var b): b.isEnabled = newValue; self = .wave(b)
      case .drag(var b): b.isEnabled = newValue; self = .drag(b)
      case .attractor(var b): b.isEnabled = newValue; self = .attractor(b)
      case .simpleAttractor(var b): b.isEnabled = newValue; self = .simpleAttractor(b)
      case .valueOverLife(var b): b.isEnabled = newValue; self = .valueOverLife(b)
      case .colorOverLife(var b): b.isEnabled = newValue; self = .colorOverLife(b)
      case .alignToMotion(var b): b.isEnabled = newValue; self = .alignToMotion(b)
      }
    }
  }

  /// Whether the behavior is a force (it changes the particles' motion
  /// through their acceleration, divided by their mass).
  public var isForce: Bool {
    switch self {
    case .wave, .drag, .attractor, .simpleAttractor: true
    case .valueOverLife, .colorOverLife, .alignToMotion: false
    }
  }
}

extension Emitter {
  /// Whether any emitter behavior is present: on the emitter or on any cell
  /// or sub-cell, enabled or not. Such an effect draws on the CPU only
  /// (the GPU path refuses it).
  /// - Complexity: O(cells).
  public var hasBehaviors: Bool {
    func any(_ cells: [EmitterCell]) -> Bool {
      cells.contains { !$0.emitterBehaviors.isEmpty || any($0.emitterCells) }
    }
    return !emitterBehaviors.isEmpty || any(emitterCells)
  }
}
