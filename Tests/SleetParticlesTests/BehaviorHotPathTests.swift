import Foundation
import Testing

@testable import SleetParticles

/// The behavior program's precomputed parts give the bits of computing
/// them at each use: wave periods, forces resolved from their settle time
/// on, and integrated lanes resumed from their cached grid points.
@Suite("Behavior hot paths")
struct BehaviorHotPathTests {
  @Test func wavePeriodsGiveTheBitsOfTheResponse() {
    var random = SplitMix64(state: 33)
    for i in 0..<2_000 {
      let f = Double.random(in: -4...4, using: &random)
      let λ = [0, Double.random(in: 0...0.5, using: &random), Double.random(in: 0...30, using: &random)][i % 3]
      let profile = WaveProfile(frequency: f)
      let T0 = Double.random(in: -3...20, using: &random)
      let a = Double.random(in: 0...12, using: &random)
      let plain = profile.response(from: T0, age: a, decay: λ)
      let periods = WaveProfile.Periods(profile, decay: λ)
      let table = profile.response(from: T0, age: a, decay: λ, periods: periods)
      #expect(plain.velocity.bitPattern == table.velocity.bitPattern, "f \(f) λ \(λ) T0 \(T0) a \(a)")
      #expect(plain.displacement.bitPattern == table.displacement.bitPattern, "f \(f) λ \(λ) T0 \(T0) a \(a)")
      // Periods of another decay are not used.
      let other = profile.response(from: T0, age: a, decay: λ, periods: WaveProfile.Periods(profile, decay: λ + 1))
      #expect(plain.velocity.bitPattern == other.velocity.bitPattern)
    }
  }

  /// The wave's inlined floor is `rounded(.down)` bit for bit: signed
  /// zeros, each side of integers, the 2⁵² boundary, the extremes,
  /// infinities, NaN, and random values of every magnitude the phase meets.
  @Test func waveFloorIsTheLibraryFloor() {
    var values: [Double] = [
      0, -0.0, 0.5, -0.5, 1, -1, 1.0.nextDown, (-1.0).nextUp, (-1.0).nextDown, 0x1p52, -0x1p52, 0x1p52.nextDown,
      -(0x1p52.nextDown), 0x1p52 + 2, 0x1p53, .infinity, -.infinity, .greatestFiniteMagnitude,
      -.greatestFiniteMagnitude, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .nan,
    ]
    var random = SplitMix64(state: 35)
    for _ in 0..<20_000 {
      let x = Double.random(in: -1...1, using: &random) * pow(2, Double.random(in: -60...70, using: &random))
      values += [x, x.rounded(), x.rounded().nextUp, x.rounded().nextDown]
    }
    for x in values {
      #expect(WaveProfile.floor(x).bitPattern == x.rounded(.down).bitPattern, "floor of \(x)")
    }
  }

  /// An attractor whose stiffness and position animate: resolved from the
  /// time-0 parameters, or once for good after its last change, it is
  /// ``ForceTerm/resolved(at:)`` at every time.
  @Test func settledAndPartlyResolvedForcesAreTheResolvedOnes() throws {
    let program = try #require(try ParticleSystem(effect: celebrationEffect()).tree.nodes[0].behaviors)
    let pull = try #require(program.forces.firstIndex { !$0.isConstant })
    let settle = program.hot.settleTimes[pull]
    #expect(settle == 2.5)
    for k in 0...400 {
      let T = Double(k) / 100 - 0.5
      for i in program.forces.indices {
        let want = program.forces[i].resolved(at: T)
        #expect(program.forces[i].resolved(at: T, from: program.hot.atZero[i]) == want, "force \(i) at \(T)")
        if T >= program.hot.settleTimes[i] { #expect(program.hot.settled[i] == want, "force \(i) at \(T)") }
      }
    }
  }

  /// Five cells in one store (their blocks mix programs), an integrated
  /// attractor animating: frames (each lane resuming from its cached grid
  /// point) equal the snapshots, and stepping equals seeking.
  @Test func integratedLanesOfSeveralCellsGiveTheBitsOfTheSnapshots() throws {
    let effect = try celebrationEffect()
    for time in [0.3, 1.1, 2.9] {
      let system = try ParticleSystem(effect: effect, configuration: .init(computesIDs: true))
      system.seek(to: time)
      let expected = system.particles()
      #expect(expected.count > 20)
      var frame = ParticleFrame()
      system.render(into: &frame)
      let drawn = Dictionary(uniqueKeysWithValues: zip(frame.ids, frame.instances))
      for p in expected {
        let d = try #require(drawn[p.id])
        #expect(
          [d.x, d.y, d.scale, d.rotation].map(\.bitPattern)
            == [p.position.x, p.position.y, p.scale, p.rotation].map(\.bitPattern), "particle \(p.id) at \(time)")
      }
    }
  }

  func celebrationEffect() throws -> Effect {
    let cells = ["a", "b", "c", "d", "e"].map { name in
      testCell(name, birthRate: 30, lifetime: 3, velocity: 300) {
        $0.velocityRange = 80
        $0.emissionRange = 0.8
        $0.emissionLongitude = -.pi / 2
        $0.lifetimeRange = 0.5
      }
    }
    let emitter = testEffect(cells) {
      $0.emitterPosition = SIMD2(195, 600)
      $0.emitterBehaviors = [
        .wave(WaveBehavior(force: SIMD3(100, 0, 0), frequency: 0.5)),
        .wave(WaveBehavior(force: SIMD3(0, 500, 0), frequency: 3)),
        .drag(DragBehavior(drag: 2)),
        .attractor(
          AttractorBehavior(
            name: "pull", stiffness: 80, radius: 200, position: SIMD2(195, -20), falloff: -5, falloffDistance: 8)),
      ]
    }.emitter
    let changes = [
      PropertyChange(
        time: 0, keyPath: "emitterBehaviors.pull.stiffness", value: 5, duration: 1.2, timingFunction: .easeOut),
      PropertyChange(time: 0.5, keyPath: "emitterBehaviors.pull.position", value: .vector([100, 50]), duration: 2),
    ]
    return try Effect(emitter: emitter, changes: changes)
  }
}
