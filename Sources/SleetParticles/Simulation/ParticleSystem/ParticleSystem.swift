import SleetMath

/// A running particle effect: the particles of an ``Effect`` at any time, as a
/// pure function of (effect, seed, time).
///
/// ```swift
/// let system = try ParticleSystem(effect: effect)
/// var frame = ParticleFrame()
/// for n in 0..<600 {
///   system.advance(to: Double(n) / 60)   // or system.seek(to: 7.5)
///   system.render(into: &frame)          // frame.instances, in render order
/// }
/// ```
///
/// Every particle's state is the closed form of its ``BirthRecord``; births
/// happen at times the `BirthSchedule` computes from the birth index. So:
/// - ``seek(to:)`` rebuilds the live set directly from the schedule, in time
///   proportional to the particles alive at t (plus the parents whose emission
///   windows could reach t), not to t;
/// - ``advance(to:)`` updates it incrementally (new births appended, the dead
///   dropped) and gives the same particles with the same ids, bit for bit;
/// - ``render(into:)`` evaluates the live set with a SIMD kernel over fixed
///   chunks, in parallel, bit-identical for any thread count and chunk size.
///
/// Times passed in are on the layer's parent timeline; the emitter's local
/// time is t = (time − beginTime)·speed + timeOffset (the emitter's timing at
/// time 0). The simulation starts at local t = 0.
///
/// A system is a mutable, single-owner object (not `Sendable`): drive it from
/// one thread; it uses worker threads internally for `render(into:)`.
///
/// Where a birth goes, each part with one job: the effect compiled once
/// (`CellTree`) → its births in an interval (`BirthEnumerator`, for
/// seeks, steps and the GPU stream) → the live store (`ParticleStore`:
/// appends, drops the dead, compacts; or a store per cell,
/// ParticleSystem+CellStores.swift) → a frame plan chosen once a frame
/// (`FramePlan`, ParticleSystem+Rendering.swift) and executed by one
/// function (ParticleSystem+FramePasses.swift) → the render order
/// (ParticleSystem+RenderOrder.swift). Tests compare fast paths with their
/// twins through `PathOverrides`.
public final class ParticleSystem {
  /// The effect simulated (fixed for the system's life; key-path changes are
  /// part of it).
  public let effect: Effect
  /// Budget, threads, chunking and output options, fixed at creation.
  public let configuration: ParticleSystemConfiguration
  let tree: CellTree
  /// The particles, in (birth time, id) order; empty while ``usesCellStores``.
  let store: ParticleStore
  /// One store per cell, cell by cell, for effects that keep them
  /// (``keepsCellStores(_:_:)``, ParticleSystem+CellStores.swift); empty
  /// for the others.
  let cellStores: [ParticleStore]
  /// Which of its twin paths the system takes (the production ones unless a
  /// test or benchmark overrides them; ``PathOverrides``). Whether it keeps
  /// cell stores is chosen before the first seek or step.
  package var paths = PathOverrides() {
    willSet {
      precondition(
        localTime == nil || newValue.cellStores == paths.cellStores,
        "paths.cellStores is chosen before the first seek or step")
    }
    didSet {
      births.paths = paths
      tree.integrators.isEnabled = paths.integratorCache
    }
  }
  /// Counts of the fast paths taken, for tests (``PathDiagnostics``).
  package var diagnostics: PathDiagnostics { births.diagnostics }
  /// The births of the effect (``BirthEnumerator``): where seeks and steps
  /// take the particles they append to the store.
  let births: BirthEnumerator
  /// Whether the particles live in ``cellStores``: the effects that keep
  /// them, unless ``paths`` asks for the single store.
  package var usesCellStores: Bool { paths.cellStores && !cellStores.isEmpty }
  /// Local time of the live set, nil before the first seek/advance.
  public internal(set) var localTime: Double?
  /// An upper bound on the live particles this effect can have at once.
  public let peakLiveParticles: Int
  /// Whether behaviors act on some cell's particles (frames then take the
  /// lane-by-lane path, ``EvaluationTarget/behaviors``).
  let hasBehaviors: Bool

  /// The latest emitter-local time at which this effect is simulated
  /// exactly (``seek(to:)`` and ``advance(to:)`` refuse later times); see
  /// ``supports(time:)``.
  public let maximumLocalTime: Double

  // Scratch, grown as needed, reused across frames (the extensions in
  // ParticleSystem+Stepping/+Rendering/+RenderOrder use them).
  var chunkCounts: [Int] = []
  var born: [BirthRecord] = []
  /// Per part of the cell-order write and cell: the live count, then the
  /// next output index. With cell stores: per cell, the particles its
  /// store wrote in the last frame.
  var cellCursors: [Int] = []
  /// The chunks of a frame with cell stores (``cutCellStoresIntoParts()``).
  var cellStoreParts: [CellStorePart] = []
  var scratchIDs: [UInt64] = []
  var scratchDepths: [Float] = []
  var permutation = RadixPermutation()
  /// The id order of `unordered` and `additive` frames, and the first stage
  /// of `backToFront`'s, kept from frame to frame (``IncrementalIDOrder``).
  var idOrder = IncrementalIDOrder()
  var scratchInstances: [ParticleInstance] = []
  var scratchCompactInstances: [CompactParticleInstance] = []
  var scratchAffines: [AffineTransform2D] = []
  var hidden = [Bool](repeating: false, count: 256)

  /// Loads `effect`, validating it as the effect reader does
  /// (`Effect.validate(includingSprites: false)`: sprite names are resolved
  /// by a renderer's sprite library; effects built in code are checked like
  /// effect files) and computing its peak live-particle count.
  /// - Throws: ``ParticleSystemError/invalidDefinition(_:)`` naming the key
  ///   path of a bad value or cell name;
  ///   ``ParticleSystemError/budgetExceeded(peak:budget:)`` when the
  ///   peak exceeds `configuration.budget` and the policy is `reject`;
  ///   ``ParticleSystemError/tooManyCells(_:)`` beyond 255 cells.
  /// - Complexity: O(cells × (properties + segments)).
  public init(effect: Effect, configuration: ParticleSystemConfiguration = .init()) throws(ParticleSystemError) {
    precondition(
      configuration.budget > 0 && configuration.budget <= ParticleSystemConfiguration.maximumBudget,
      "the particle budget must be in 1…ParticleSystemConfiguration.maximumBudget (2³¹ − 1)")
    precondition(configuration.threads > 0, "threads must be at least 1")
    precondition(configuration.chunkSize > 0, "chunkSize must be positive")
    do throws(EffectValidationError) {
      // The effect reader's validation. Sprite names are the renderer's
      // business (code may register its own).
      try effect.validate(includingSprites: false)
    } catch {
      switch error {
      case .invalidDefinition(let problem): throw .invalidDefinition(problem)
      case .tooManyCells(let count): throw .tooManyCells(count)
      case .cellsTooDeep(let depth): throw .cellsTooDeep(depth)
      case .invalidChange: preconditionFailure("Effect.init validates the changes: \(error)")
      }
    }
    self.effect = effect
    self.configuration = configuration
    tree = CellTree(effect: effect)
    births = BirthEnumerator(tree: tree, seed: effect.emitter.seed)
    store = ParticleStore(constants: tree.makeConstantsTable())
    let keepsCellStores = Self.keepsCellStores(tree, configuration)
    cellStores = keepsCellStores ? tree.nodes.map { [store] _ in ParticleStore(constants: store.constants) } : []
    peakLiveParticles = Self.peak(tree)
    hasBehaviors = tree.hasBehaviors
    maximumLocalTime = Self.maximumLocalTime(tree)
    if peakLiveParticles > configuration.budget && configuration.overflowPolicy == .reject {
      throw .budgetExceeded(peak: peakLiveParticles, budget: configuration.budget)
    }
  }

  /// The emitter-local time for a time on the layer's parent timeline:
  /// (time − beginTime)·speed + timeOffset, in `Double`.
  /// - Complexity: O(1).
  public func localTime(for time: Double) -> Double {
    let e = effect.emitter
    return (time - e.beginTime) * Double(e.speed) + e.timeOffset
  }

  /// The paths (as ``cellPaths``) of the cells that emitter behaviors act
  /// on; empty for an effect without behaviors.
  /// - Complexity: O(cells).
  package var behaviorCellPaths: [String] { tree.nodes.filter { $0.behaviors != nil }.map(\.path) }

  /// The key path (without `emitterCells.`) of every cell, indexed by cell number.
  /// - Complexity: O(cells).
  public var cellPaths: [String] { tree.nodes.map(\.path) }

  /// Live particles (alive at the current time), holes excluded.
  /// - Complexity: O(stored particles).
  public var liveCount: Int {
    guard let t = localTime else { return 0 }
    var n = 0
    for s in storesInUse {
      for i in 0..<s.count where s.isAlive(i, at: t) { n += 1 }
    }
    return n
  }

  /// Whether `time` (on the layer's parent timeline) is one this effect can
  /// be simulated at: its local time is finite and at most
  /// ``maximumLocalTime``. Earlier local times (before the simulation
  /// starts) are always supported and show no particles.
  ///
  /// Beyond the limit a 64-bit birth index or a `Double` time can no longer
  /// tell the births apart (see `maximumLocalTime(_:)`); a caller that takes
  /// times from a user checks this first and reports the limit.
  /// - Complexity: O(1).
  public func supports(time: Double) -> Bool {
    let t = localTime(for: time)
    return t.isFinite && t <= maximumLocalTime
  }

  /// The precondition of ``seek(to:)`` and ``advance(to:)``.
  func checkSupported(_ time: Double, _ caller: StaticString) -> Double {
    precondition(time.isFinite, "\(caller) needs a finite time")
    let t = localTime(for: time)
    precondition(
      t.isFinite && t <= maximumLocalTime,
      "\(caller): local time \(t) s is past this effect's limit of \(maximumLocalTime) s (ParticleSystem.maximumLocalTime)"
    )
    return t
  }

  // MARK: - Inspection

  /// Every live particle at the current time, sorted by id.
  /// - Complexity: O(n log n), n = stored particles.
  public func particles() -> [ParticleSnapshot] {
    guard let t = localTime else { return [] }
    var out: [ParticleSnapshot] = []
    for store in storesInUse {
      for i in 0..<store.count where store.isAlive(i, at: t) {
        let r = store.record(at: i)
        let s = tree.drawnState(of: r, at: t)
        out.append(
          ParticleSnapshot(
            id: r.id, cellPath: tree.nodes[Int(r.cell)].path, birthTime: r.birthTime, lifetime: r.lifetime,
            position: s.position, velocity: s.velocity, scale: s.scale, rotation: s.rotation, color: s.color))
      }
    }
    out.sort { $0.id < $1.id }
    return out
  }

  /// The birth records of the live set in the single store's order (birth
  /// time, then id): the cell stores' records merged into it.
  package func liveRecords() -> [BirthRecord] {
    guard let t = localTime else { return [] }
    var records = storesInUse.flatMap { s in (0..<s.count).filter { s.isAlive($0, at: t) }.map { s.record(at: $0) } }
    if usesCellStores { Self.sortCanonically(&records) }
    return records
  }
}
