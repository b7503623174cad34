import SleetMath

extension ParticleSystem {
  /// An effect that holds about `liveParticles` particles once it has run for
  /// `lifetime` seconds: one cell (rate N/lifetime, constant lifetime) on a
  /// 300 × 300 rectangle, with every evolving property in use (velocity with
  /// range, cone, acceleration, scale speed, spin, colour speed), so a frame
  /// evaluates the full closed form. For benchmarks of the kernel against the
  /// naive path on the same effect.
  /// - Complexity: O(1).
  package static func steadyStateEffect(liveParticles: Int, lifetime: Float = 10) -> Effect {
    precondition(liveParticles > 0 && lifetime > 0, "liveParticles and lifetime must be positive")
    var cell = EmitterCell(name: "particle")
    cell.birthRate = Float(liveParticles) / lifetime
    cell.lifetime = lifetime
    cell.velocity = 50
    cell.velocityRange = 20
    cell.emissionRange = 3
    cell.xAcceleration = 1
    cell.yAcceleration = 9
    cell.scaleSpeed = -0.01
    cell.spin = 1
    cell.spinRange = 0.5
    cell.alphaSpeed = -0.05
    cell.redRange = 0.2
    var emitter = Emitter(emitterCells: [cell])
    emitter.emitterShape = .rectangle
    emitter.emitterSize = SIMD2(300, 300)
    // Safe: no key-path changes to validate.
    return try! Effect(emitter: emitter)
  }
}

extension NaiveParticleSimulator {
  /// A naive simulator holding exactly the live particles of `system` at its
  /// current time (as objects, their state from the closed form), with the
  /// top-level accumulators where the schedule has them — so a benchmark can
  /// start both paths from the same N live particles without simulating the
  /// naive path up to it.
  /// - Complexity: O(live particles), one allocation per particle.
  /// - Precondition: no behavior acts on the effect's cells (their state
  ///   is not the closed form's).
  package convenience init(startingFrom system: ParticleSystem) {
    precondition(system.behaviorCellPaths.isEmpty, "startingFrom takes effects without emitter behaviors")
    self.init(effect: system.effect)
    guard let t = system.localTime else { return }
    let records = system.liveRecords()
    var objects: [Particle] = []
    objects.reserveCapacity(records.count)
    for r in records {
      let p = Particle(r, subCells: tree.nodes[Int(r.cell)].children.count)
      let age = Float(t - r.birthTime)
      p.age = t - r.birthTime
      p.position = r.position(age: age)
      p.velocity = r.velocity(age: age)
      p.scale = r.scale + r.scaleSpeed * age
      p.rotation = r.rotation(age: age)
      p.color = r.color + r.colorSpeed * age
      objects.append(p)
    }
    setState(time: t, particles: objects, system: system)
  }
}
