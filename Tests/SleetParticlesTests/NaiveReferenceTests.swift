import SleetMath
import Testing

@testable import SleetParticles

/// The naive reference (objects, explicit Euler) and the kernel (closed form)
/// agree on short horizons: the same births (ids, attributes) and positions
/// within the Euler error.
@Suite("Naive reference vs kernel")
struct NaiveReferenceTests {
  /// Runs both to `horizon` and compares the particles that are safely alive
  /// in both (born before horizon − dt, dying after horizon + dt).
  func compare(_ effect: Effect, dt: Double, horizon: Double, tolerance: (ParticleSnapshot) -> Float) throws -> Int {
    let naive = NaiveParticleSimulator(effect: effect)
    let steps = Int((horizon / dt).rounded())
    for _ in 0..<steps { naive.step(dt) }
    let system = try ParticleSystem(effect: effect)
    system.seek(to: naive.time)
    let kernel = system.particles()
    let reference = Dictionary(uniqueKeysWithValues: naive.snapshots().map { ($0.id, $0) })
    let margin = 2 * dt
    func settled(_ p: ParticleSnapshot) -> Bool {
      p.birthTime < naive.time - margin && p.birthTime + Double(p.lifetime) > naive.time + margin
    }
    var compared = 0
    for p in kernel where settled(p) {
      guard let q = reference[p.id] else {
        Issue.record("particle \(p.id) (\(p.cellPath)) missing from the naive path")
        continue
      }
      let d = p.position - q.position
      let error = (d * d).sum().squareRoot()
      #expect(error <= tolerance(p), "particle \(p.id) (\(p.cellPath)): |Δp| = \(error)")
      #expect(p.lifetime == q.lifetime && abs(p.scale - q.scale) < 1e-3)
      compared += 1
    }
    let kernelIDs = Set(kernel.map(\.id))
    for q in reference.values where settled(q) {
      #expect(kernelIDs.contains(q.id), "particle \(q.id) (\(q.cellPath)) missing from the kernel")
    }
    return compared
  }

  /// Top-level particles: |Δp| ≤ ½·|acc|·dt·age + 10⁻³ (first-order Euler error).
  @Test func topLevelParticlesAgreeWithinTheEulerError() throws {
    let cell = testCell("c", birthRate: 37.3, lifetime: 1.5, velocity: 120) {
      $0.lifetimeRange = 1
      $0.velocityRange = 40
      $0.emissionRange = 2
      $0.xAcceleration = 20
      $0.yAcceleration = 90
      $0.scaleSpeed = 0.2
    }
    let effect = testEffect([cell]) {
      $0.emitterShape = .rectangle
      $0.emitterSize = SIMD2(100, 50)
      $0.seed = 9
    }
    let dt = 1.0 / 240
    let acc = (Float(20 * 20 + 90 * 90)).squareRoot()
    let n = try compare(effect, dt: dt, horizon: 2) { p in
      0.5 * acc * Float(dt) * Float(2 - p.birthTime) + 1e-3
    }
    #expect(n > 30)
  }

  /// Sub-particles: the naive path emits at the end of the step from the
  /// parent's Euler state, so add the emission-time quantisation:
  /// |Δp| ≤ dt·(|acc|·horizon + 2·(parent speed + own speed)) + 10⁻³.
  @Test func subParticlesAgreeWithinTheStepError() throws {
    let spark = testCell("spark", birthRate: 23.3, lifetime: 0.6, velocity: 50) {
      $0.emissionRange = 6
      $0.beginTime = 0.3
      $0.duration = 0.4
    }
    let rocket = testCell("rocket", birthRate: 3.7, lifetime: 1.2, velocity: 150) {
      $0.yAcceleration = 60
      $0.emissionRange = 0.5
      $0.scale = 0.5
      $0.emitterCells = [spark]
    }
    let effect = testEffect([rocket]) { $0.seed = 4 }
    let dt = 1.0 / 480
    let n = try compare(effect, dt: dt, horizon: 1.8) { _ in
      Float(dt) * (60 * 1.8 + 2 * (150 + 60 * 1.2 + 50)) + 1e-3
    }
    #expect(n > 20)
  }

  /// The benchmark set-up: a naive simulator seeded from the kernel's live set
  /// holds the same particles, and both stay in agreement afterwards.
  @Test func naiveStartingFromTheKernelHoldsTheSameParticles() throws {
    let effect = ParticleSystem.steadyStateEffect(liveParticles: 300, lifetime: 2)
    let system = try ParticleSystem(effect: effect)
    system.seek(to: 3)
    let naive = NaiveParticleSimulator(startingFrom: system)
    #expect(naive.snapshots().map(\.id) == system.particles().map(\.id))
    #expect(system.liveCount >= 299 && system.liveCount <= 301)
    let dt = 1.0 / 120
    for _ in 0..<60 { naive.step(dt) }
    system.seek(to: naive.time)
    let kernel = Dictionary(uniqueKeysWithValues: system.particles().map { ($0.id, $0) })
    var compared = 0
    for q in naive.snapshots()
    where q.birthTime < naive.time - 2 * dt && q.birthTime + Double(q.lifetime) > naive.time + 2 * dt {
      let p = try #require(kernel[q.id])
      let d = p.position - q.position
      // ½·|acc|·dt·age with |acc| ≈ 9.06, age < 2.
      #expect((d * d).sum().squareRoot() <= 0.5 * 9.06 * Float(dt) * 2 + 1e-3)
      compared += 1
    }
    #expect(compared > 250)
  }
}
