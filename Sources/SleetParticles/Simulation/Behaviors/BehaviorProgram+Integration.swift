extension BehaviorProgram {
  /// Position and velocity of particle `r` (mass `mass`) at age `a` under
  /// forces outside the closed form: classical RK4 on the fixed grid
  /// (``FixedStepIntegrator``), anchored at birth and started again at each
  /// breakpoint in the particle's life (``breakpoints``: where a force may
  /// jump or bend, no RK4 step spans one).
  ///
  /// With `cache`, the integration resumes from the particle's last stored
  /// grid point when that is at or before `a`, and stores the last grid point
  /// it reaches: the same bits as integrating from birth
  /// (``IntegratorCache``), at the cost of the steps between.
  /// - Complexity: O(forces × (age or age since the checkpoint) / h).
  func integratedMotion(
    of r: BirthRecord, age a: Double, mass: Double, cache: IntegratorCache?
  ) -> (SIMD3<Double>, SIMD3<Double>) {
    guard hasTimeParts else { return integratedMotion(of: r, age: a, mass: mass, cache: cache, forces: nil) }
    return withForcesAtTime { integratedMotion(of: r, age: a, mass: mass, cache: cache, forces: $0) }
  }

  /// ``integratedMotion(of:age:mass:cache:)`` with `forces` for the parts of
  /// the forces that depend on the time alone (``ForcesAtTime``; nil when
  /// no force has any).
  private func integratedMotion(
    of r: BirthRecord, age a: Double, mass: Double, cache: IntegratorCache?,
    forces: UnsafeMutablePointer<ForcesAtTime>?
  ) -> (SIMD3<Double>, SIMD3<Double>) {
    let birth = r.birthTime
    let lifetime = Double(r.lifetime)
    let g = SIMD3<Double>(r.halfAcceleration) * 2
    // Segment i runs from breaks[i − 1] (birth for i = 0) to breaks[i] (a
    // for the last); its forces take the values of its own side of each
    // breakpoint: times are clamped into [its start, its end) (birth plus
    // an age may round across one). The bounds depend on the breakpoints
    // alone, never on a: a grid point stored at one age is the grid point
    // of any later one.
    let breaks = breakpointAges(birth: birth, age: lifetime)
    let last = breaks.firstIndex { $0.age >= a } ?? breaks.count
    func bounds(_ i: Int) -> (start: Double, low: Double, high: Double, end: Double) {
      (
        i == 0 ? 0 : breaks[i - 1].age, i == 0 ? -.infinity : breaks[i - 1].time,
        i == breaks.count ? .infinity : breaks[i].time.nextDown, i == last ? a : breaks[i].age
      )
    }
    func acceleration(_ segment: Int) -> (SIMD3<Double>, SIMD3<Double>, Double) -> SIMD3<Double> {
      let (from, low, high, _) = bounds(segment)
      return { p, v, since in
        let age = from + since
        return self.acceleration(
          position: p, velocity: v, age: age, time: min(max(birth + age, low), high), lifetime: lifetime, mass: mass,
          gravity: g, forces: forces)
      }
    }
    var segment = 0
    var k = 0
    var p = SIMD3<Double>(r.position)
    var v = SIMD3<Double>(r.velocity)
    if let stored = cache?.checkpoint(for: r.id), stored.birthTime == birth,
      stored.segment < last
        || (stored.segment == last && Double(stored.gridPoint) * FixedStepIntegrator.step <= a - bounds(last).start)
    {
      (segment, k, p, v) = (stored.segment, stored.gridPoint, stored.position, stored.velocity)
    }
    while true {
      let (start, _, _, end) = bounds(segment)
      let step = FixedStepIntegrator.resume(
        from: k, position: p, velocity: v, age: end - start, acceleration: acceleration(segment))
      if segment == last {
        cache?.store(
          IntegratorCache.Checkpoint(
            segment: segment, gridPoint: step.gridPoint, position: step.gridPosition, velocity: step.gridVelocity,
            birthTime: birth, deathTime: birth + lifetime), for: r.id, at: birth + a)
        return (step.position, step.velocity)
      }
      (segment, k, p, v) = (segment + 1, 0, step.position, step.velocity)
    }
  }
}

extension BehaviorProgram {
  /// The breakpoints in a particle's life from birth `birth` to age `a`:
  /// each with its age in (0, a) and its emitter time, ascending (segment i
  /// of the life starts at the i-th, counted from birth).
  /// - Complexity: O(breakpoints).
  func breakpointAges(birth: Double, age a: Double) -> [(age: Double, time: Double)] {
    guard !breakpoints.isEmpty else { return [] }
    var ages: [(age: Double, time: Double)] = []
    for T in breakpoints where T > birth {
      let age = T - birth
      if age >= a { break }
      ages.append((age, T))
    }
    return ages
  }
}
