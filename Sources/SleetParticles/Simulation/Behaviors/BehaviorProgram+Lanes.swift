/// One particle whose motion is integrated, as ``BehaviorProgram/integratedMotion(_:into:)``
/// takes it: its cell's program, birth record, mass and age.
struct IntegratedLane {
  var program: BehaviorProgram
  var record: BirthRecord
  var mass: Double
  var age: Double
}

extension BehaviorProgram {
  /// The integrated motion (``Motion/integrated``) of several particles,
  /// possibly of different cells: `out[j]` is bit for bit
  /// `lanes[j].program.motion(of: record, age: age, mass: mass)`.
  ///
  /// The lanes take their whole RK4 steps in lockstep (grid point i of
  /// every lane whose age reaches it, one evaluation of the acceleration
  /// for each lane in turn), with ``FixedStepIntegrator/rk4Step(_:_:age:dt:acceleration:)``'s
  /// arithmetic, then each its own partial step. A lane's steps form one
  /// chain of dependent operations (square roots and divisions); lanes side
  /// by side let the processor overlap them (`docs/performance-design.md`,
  /// "Behaviors").
  /// - Complexity: O(Σ steps × behaviors).
  static func integratedMotion(
    _ lanes: UnsafeBufferPointer<IntegratedLane>, into out: UnsafeMutablePointer<(SIMD3<Double>, SIMD3<Double>)>
  ) {
    let count = lanes.count
    guard count > 0 else { return }
    let h = FixedStepIntegrator.step
    withUnsafeTemporaryAllocation(of: SIMD3<Double>.self, capacity: 10 * count) { buffer in
      withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { steps in
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * count) { scalars in
          withUnsafeTemporaryAllocation(of: Unmanaged<BehaviorProgram>.self, capacity: count) { programs in
            let p = buffer.baseAddress!
            let v = p + count
            let g = v + count
            let k1 = g + count
            let k2 = k1 + count
            let k3 = k2 + count
            let k4 = k3 + count
            let p2 = k4 + count
            let p3 = p2 + count
            let p4 = p3 + count
            let births = scalars.baseAddress!
            let lifetimes = births + count
            let masses = lifetimes + count
            var most = 0
            for j in 0..<count {
              let r = lanes[j].record
              // Unretained: `lanes` holds every program for the call.
              programs[j] = Unmanaged.passUnretained(lanes[j].program)
              births[j] = r.birthTime
              lifetimes[j] = Double(r.lifetime)
              masses[j] = lanes[j].mass
              p[j] = SIMD3<Double>(r.position)
              v[j] = SIMD3<Double>(r.velocity)
              g[j] = SIMD3<Double>(r.halfAcceleration) * 2
              steps[j] = max(FixedStepIntegrator.gridPoint(atOrBefore: lanes[j].age), 0)
              most = max(most, steps[j])
            }
            @inline(__always)
            func acceleration(_ j: Int, _ p: SIMD3<Double>, _ v: SIMD3<Double>, _ age: Double) -> SIMD3<Double> {
              programs[j]._withUnsafeGuaranteedRef {
                $0.acceleration(
                  position: p, velocity: v, age: age, birthTime: births[j], lifetime: lifetimes[j], mass: masses[j],
                  gravity: g[j])
              }
            }
            var i = 0
            while i < most {
              let t = Double(i) * h
              let dt = h
              let half = 0.5 * dt
              for j in 0..<count where steps[j] > i { k1[j] = acceleration(j, p[j], v[j], t) }
              for j in 0..<count where steps[j] > i {
                p2[j] = v[j] + half * k1[j]
                k2[j] = acceleration(j, p[j] + half * v[j], p2[j], t + half)
              }
              for j in 0..<count where steps[j] > i {
                p3[j] = v[j] + half * k2[j]
                k3[j] = acceleration(j, p[j] + half * p2[j], p3[j], t + half)
              }
              for j in 0..<count where steps[j] > i {
                p4[j] = v[j] + dt * k3[j]
                k4[j] = acceleration(j, p[j] + dt * p3[j], p4[j], t + dt)
              }
              let sixth = dt / 6
              for j in 0..<count where steps[j] > i {
                (p[j], v[j]) = (
                  p[j] + sixth * (v[j] + 2 * p2[j] + 2 * p3[j] + p4[j]),
                  v[j] + sixth * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j])
                )
              }
              i += 1
            }
            for j in 0..<count {
              let n = steps[j]
              let rest = lanes[j].age - Double(n) * h
              guard rest > 0 else {
                out[j] = (p[j], v[j])
                continue
              }
              let end = FixedStepIntegrator.rk4Step(p[j], v[j], age: Double(n) * h, dt: rest) { p, v, age in
                acceleration(j, p, v, age)
              }
              out[j] = (end.position, end.velocity)
            }
          }
        }
      }
    }
  }
}
