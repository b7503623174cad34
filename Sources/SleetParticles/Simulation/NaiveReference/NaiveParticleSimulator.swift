/// The straightforward simulator most hand-written emitters are: a class per
/// particle, an array of objects, explicit Euler steps. It is the benchmark
/// baseline and a cross-check for ``ParticleSystem``.
///
/// Per step of `dt`, in this order:
/// 1. every live particle moves by explicit Euler (p += v·dt, then v += acc·dt;
///    scale, rotation and colour likewise), ages by dt, and dies at
///    age ≥ lifetime;
/// 2. every live particle's sub-cells accumulate rate × (the part of the step
///    inside their window) and emit one particle per whole unit, from the
///    parent's current Euler state;
/// 3. every top-level cell accumulates rate·dt and emits one particle per
///    whole unit, at the fractional time where the unit was crossed, moved by
///    Euler to the end of the step.
///
/// Births use the same `BirthSampler` (same ids, same random attributes)
/// as the kernel, so the two agree on which particles exist; positions differ
/// by the Euler error, about ½·|acc|·dt·age per particle (plus the parent's
/// error for sub-particles). Key-path changes are not modelled: the naive
/// path simulates the effect's emitter at time 0.
public final class NaiveParticleSimulator {
  /// One particle, as a reference type (the point of the baseline).
  public final class Particle {
    /// The same id the kernel gives this particle (``ParticleID``).
    public let id: UInt64
    /// The cell's depth-first number.
    public let cell: Int
    /// Emitter-local birth time, seconds.
    public let birthTime: Double
    /// Lifetime, seconds; the particle is removed once `age ≥ lifetime`.
    public let lifetime: Float
    /// Seconds since birth, advanced by each Euler step.
    public var age: Double
    /// Position, points, integrated by explicit Euler steps (p += v·dt).
    public var position: SIMD3<Float>
    /// Velocity, points per second (v += acc·dt each step).
    public var velocity: SIMD3<Float>
    /// Constant acceleration, points per second².
    public let acceleration: SIMD3<Float>
    /// Current scale (scale += scaleSpeed·dt).
    public var scale: Float
    /// Change of scale per second.
    public let scaleSpeed: Float
    /// Rotation rate, radians per second.
    public let spin: Float
    /// Current rotation, radians (rotation += spin·dt).
    public var rotation: Float = 0
    /// Current colour, unclamped (color += colorSpeed·dt).
    public var color: SIMD4<Float>
    /// Colour change per second.
    public let colorSpeed: SIMD4<Float>
    /// Per sub-cell: accumulated rate·time and births so far.
    var accumulators: [Double]
    var births: [Int]
    /// The behaviors acting on the particle, nil when none (then the Euler
    /// steps above); see NaiveParticleSimulator+Behaviors.swift.
    let behaviors: BehaviorProgram?
    /// The particle's mass (1 without behaviors).
    let mass: Double
    /// With behaviors: position and velocity in `Double`, moved by the
    /// forces in small explicit steps (the drawn state adds the curves).
    var motionPosition: SIMD3<Double>
    var motionVelocity: SIMD3<Double>
    /// With behaviors: per curve of the program, the integral over the age
    /// of its keyed rate (velocity, spin or scale speed), summed step by step.
    var keyedIntegrals: [Double]
    /// The birth position and scale (replacing keyed rates start from them).
    let birthPosition: SIMD3<Float>
    let birthScale: Float

    init(_ r: BirthRecord, subCells: Int, behaviors: BehaviorProgram? = nil, mass: Double = 1) {
      self.behaviors = behaviors
      self.mass = mass
      motionPosition = SIMD3<Double>(r.position)
      motionVelocity = SIMD3<Double>(r.velocity)
      keyedIntegrals = Array(repeating: 0, count: behaviors?.curves.count ?? 0)
      birthPosition = r.position
      birthScale = r.scale
      id = r.id
      cell = Int(r.cell)
      birthTime = r.birthTime
      lifetime = r.lifetime
      age = 0
      position = r.position
      velocity = r.velocity
      acceleration = r.halfAcceleration * 2
      scale = r.scale
      scaleSpeed = r.scaleSpeed
      spin = r.spin
      color = r.color
      colorSpeed = r.colorSpeed
      accumulators = Array(repeating: 0, count: subCells)
      births = Array(repeating: 0, count: subCells)
    }

    func step(_ dt: Float) {
      if behaviors != nil {
        stepWithBehaviors(Double(dt))
        return
      }
      position += velocity * dt
      velocity += acceleration * dt
      scale += scaleSpeed * dt
      rotation += spin * dt
      color += colorSpeed * dt
    }

    var drawnColor: SIMD4<Float> {
      var c = color
      c.replace(with: 0, where: c .< 0)
      c.replace(with: 1, where: c .> 1)
      return c
    }
  }

  /// The effect simulated (its emitter at time 0).
  public let effect: Effect
  let tree: CellTree
  /// Emitter-local time.
  public private(set) var time: Double = 0
  /// The live particles, in birth order.
  public private(set) var particles: [Particle] = []
  private var accumulators: [Double]
  private var births: [Int]

  /// A simulator at local time 0 with no particles.
  /// - Complexity: O(cells × segments).
  public init(effect: Effect) {
    precondition(
      effect.emitter.cellCount <= Effect.maximumCells, "NaiveParticleSimulator supports at most 255 cells")
    self.effect = effect
    tree = CellTree(effect: effect)
    accumulators = Array(repeating: 0, count: tree.nodes.count)
    births = Array(repeating: 0, count: tree.nodes.count)
  }

  /// Replaces the state (see `init(startingFrom:)`): top-level accumulators
  /// and birth counts are taken from the kernel's schedule at `time`.
  func setState(time: Double, particles: [Particle], system: ParticleSystem) {
    self.time = time
    self.particles = particles
    for root in tree.roots {
      let node = tree.nodes[root]
      guard let window = node.window(origin: 0, parentLifetime: nil) else { continue }
      births[root] = node.schedule.count(in: window, upTo: time)
      accumulators[root] = Swift.max(
        0,
        node.schedule.integral(from: window.start, to: Swift.min(time, window.end)) + window.phase
          - Double(births[root]))
    }
  }

  /// Advances the simulation by `dt` seconds.
  /// - Complexity: O(live particles), with per-particle allocations.
  public func step(_ dt: Double) {
    precondition(dt > 0, "dt must be positive")
    let seed = effect.emitter.seed
    let start = time
    let end = time + dt
    // 1. Move, age, kill.
    for p in particles {
      p.step(Float(dt))
      p.age += dt
    }
    particles.removeAll { $0.age >= Double($0.lifetime) }
    // 2. Sub-cell emission from the parents' current state.
    var newborn: [Particle] = []
    for p in particles {
      let children = tree.nodes[p.cell].children
      for (j, child) in children.enumerated() {
        let node = tree.nodes[child]
        let rate = Double(node.parameters[0].birthRate) * node.speed
        // The kernel's window, on the parent's age (origin 0).
        guard let window = node.window(origin: 0, parentLifetime: Double(p.lifetime)) else { continue }
        let overlap = Swift.min(p.age, window.end) - Swift.max(p.age - dt, window.start)
        guard rate > 0, overlap > 0 else { continue }
        if p.age - dt <= window.start { p.accumulators[j] = window.phase }
        p.accumulators[j] += rate * overlap
        while p.accumulators[j] >= 1 {
          p.accumulators[j] -= 1
          let k = p.births[j]
          p.births[j] += 1
          let parent = p.drawnState
          if let r = BirthSampler.child(
            tree: tree, seed: seed, node: child, parentID: p.id, k: k, birthTime: end,
            parentPosition: parent.position, parentVelocity: parent.velocity, parentScale: parent.scale,
            parentColor: parent.color)
          {
            newborn.append(makeParticle(r))
          }
        }
      }
    }
    // 3. Top-level births at their fractional times.
    for root in tree.roots {
      let node = tree.nodes[root]
      let rate = Double(node.parameters[0].birthRate) * node.speed
      guard let window = node.window(origin: 0, parentLifetime: nil) else { continue }
      let windowEnd = window.end
      let overlap = Swift.min(end, windowEnd) - Swift.max(start, window.start)
      guard rate > 0, overlap > 0 else { continue }
      if start <= window.start { accumulators[root] = window.phase }
      accumulators[root] += rate * overlap
      while accumulators[root] >= 1 {
        accumulators[root] -= 1
        let k = births[root]
        births[root] += 1
        let birthTime = Swift.min(end, windowEnd) - accumulators[root] / rate
        guard
          let r = BirthSampler.topLevel(tree: tree, seed: seed, node: root, k: k, birthTime: birthTime)
        else { continue }
        let p = makeParticle(r)
        let partial = end - birthTime
        p.step(Float(partial))
        p.age = partial
        if p.age < Double(p.lifetime) { newborn.append(p) }
      }
    }
    particles.append(contentsOf: newborn)
    time = end
  }

  /// The live particles, sorted by id.
  /// - Complexity: O(n log n), n = live particles.
  public func snapshots() -> [ParticleSnapshot] {
    particles.map { p in
      let s = p.drawnState
      return ParticleSnapshot(
        id: p.id, cellPath: tree.nodes[p.cell].path, birthTime: p.birthTime, lifetime: p.lifetime,
        position: s.position, velocity: s.velocity, scale: s.scale, rotation: s.rotation, color: s.color)
    }.sorted { $0.id < $1.id }
  }
}
