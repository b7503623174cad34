import Foundation
import Testing

@testable import SleetParticles

/// Key-path changes in the simulation: a change affects only particles born
/// after it, a rate change changes the slope of the schedule from its time on.
@Suite("Key-path changes in the simulation")
struct KeyPathChangeSimulationTests {
  static let cell = testCell("snow", birthRate: 10, lifetime: 100, velocity: 20) { $0.emissionRange = 1 }

  @Test func rateChangesChangeTheSlopeFromTheChangeTime() throws {
    let emitter = testEffect([Self.cell]).emitter
    let effect = try Effect(
      emitter: emitter,
      changes: [
        PropertyChange(time: 1, keyPath: "emitterCells.snow.birthRate", value: .number(0)),
        PropertyChange(time: 2, keyPath: "birthRate", value: .number(3)),
        PropertyChange(time: 2, keyPath: "emitterCells.snow.birthRate", value: .number(20)),
      ])
    let system = try ParticleSystem(effect: effect)
    system.seek(to: 1.95)
    // Births at 0.1 … 1.0, then none.
    #expect(system.liveCount == 10)
    system.seek(to: 3)
    // From t = 2 the rate is 60/s: 60 more by t = 3.
    #expect(system.liveCount == 70)
  }

  @Test func changesAffectOnlyParticlesBornAfterThem() throws {
    let base = testEffect([Self.cell])
    let changed = try Effect(
      emitter: base.emitter,
      changes: [
        PropertyChange(time: 1.05, keyPath: "emitterCells.snow.velocity", value: .number(80)),
        PropertyChange(time: 1.05, keyPath: "scale", value: .number(3)),
        PropertyChange(time: 1.05, keyPath: "emitterPosition", value: .vector([50, 60])),
      ])
    let before = try ParticleSystem(effect: base)
    let after = try ParticleSystem(effect: changed)
    before.seek(to: 2)
    after.seek(to: 2)
    let old = before.particles()
    let new = after.particles()
    #expect(old.map(\.id) == new.map(\.id))
    for (p, q) in zip(old, new) {
      if p.birthTime < 1.05 {
        #expect(bits([p]) == bits([q]), "particle \(p.id) born before the change must not change")
      } else {
        #expect(q.scale == 3 * p.scale)
        let speed = (q.velocity * q.velocity).sum().squareRoot()
        #expect(abs(speed - 80) < 1e-3)
      }
    }
    #expect(new.contains { $0.birthTime > 1.05 })
  }

  @Test func subCellKeyPathsAndSeekEqualsStepWithChanges() throws {
    let fireworks = fireworksLikeEffect(seed: 2)
    let effect = try Effect(
      emitter: fireworks.emitter,
      changes: [
        PropertyChange(
          time: 1.2, keyPath: "emitterCells.rocket.emitterCells.burst.emissionRange", value: .number(0.2)),
        PropertyChange(time: 1.5, keyPath: "emitterCells.rocket.emitterCells.trail.birthRate", value: .number(5)),
        PropertyChange(time: 2.0, keyPath: "emitterCells.rocket.birthRate", value: .number(6)),
      ])
    let stepper = try ParticleSystem(effect: effect)
    let seeker = try ParticleSystem(effect: effect)
    for n in 0...180 {
      stepper.advance(to: Double(n) / 60)
      if n % 30 == 0 {
        seeker.seek(to: Double(n) / 60)
        #expect(bits(stepper.particles()) == bits(seeker.particles()), "t = \(Double(n) / 60)")
      }
    }
    // Burst particles born after 1.2 s fly within 0.1 rad (half the 0.2 cone)
    // of their parent's direction at their birth.
    let angles = try Self.burstAnglesToParent(effect: effect, at: 3)
    #expect(angles.count >= 10, "\(angles.count) burst particles")
    #expect(angles.allSatisfy { $0 <= 0.1 + 1e-3 }, "largest angle \(angles.max() ?? 0)")
    // The measurement can fail: without the change the bursts fill the sphere.
    let unchanged = try Self.burstAnglesToParent(effect: fireworks, at: 3)
    #expect(unchanged.count >= 5 && unchanged.contains { $0 > 0.5 }, "\(unchanged)")
  }

  /// For every `rocket.burst` particle alive at `time`, the angle (radians)
  /// between its velocity and its parent rocket's velocity at its birth.
  /// Bursts have no acceleration, so the velocity is the birth velocity and
  /// the birth position is position − velocity·age; the parent is the rocket
  /// that is at that position at the birth time (another system, seeked there).
  static func burstAnglesToParent(effect: Effect, at time: Double) throws -> [Double] {
    let system = try ParticleSystem(effect: effect)
    system.seek(to: time)
    let probe = try ParticleSystem(effect: effect)
    var angles: [Double] = []
    for burst in system.particles() where burst.cellPath == "rocket.burst" {
      let v = SIMD3<Double>(burst.velocity)
      let birthPosition = SIMD3<Double>(burst.position) - v * (time - burst.birthTime)
      probe.seek(to: burst.birthTime)
      let rockets = probe.particles().filter { $0.cellPath == "rocket" }
      let distances = rockets.map { r in
        let d = SIMD3<Double>(r.position) - birthPosition
        return (d * d).sum().squareRoot()
      }
      guard let nearest = distances.indices.min(by: { distances[$0] < distances[$1] }), distances[nearest] < 0.05
      else {
        Issue.record("no rocket at burst \(burst.id)'s birth position \(birthPosition)")
        continue
      }
      let p = SIMD3<Double>(rockets[nearest].velocity)
      let cosine = (v * p).sum() / ((v * v).sum().squareRoot() * (p * p).sum().squareRoot())
      angles.append(acos(Swift.min(1, Swift.max(-1, cosine))))
    }
    return angles
  }

  @Test func disablingACellStopsBirthsAndHidesItsParticles() throws {
    let effect = try Effect(
      emitter: testEffect([Self.cell, testCell("other", birthRate: 5, lifetime: 100)]).emitter,
      changes: [PropertyChange(time: 1, keyPath: "emitterCells.snow.enabled", value: .bool(false))])
    let system = try ParticleSystem(effect: effect)
    system.seek(to: 2)
    // Births of `snow` stop at 1 s (10 of them stay alive but are not drawn).
    #expect(system.particles().filter { $0.cellPath == "snow" }.count == 10)
    var frame = ParticleFrame()
    system.render(into: &frame)
    #expect(frame.instances.count == 10 && frame.instances.allSatisfy { $0.cell == 1 })
  }
}
