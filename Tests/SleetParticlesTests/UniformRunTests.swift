import SleetMath
import Testing

@testable import SleetParticles

/// The uniform-run kernel (`ParticleStore+UniformRuns.swift`: blocks of one
/// constants row, columns computed eight lanes at a time, then transposed)
/// writes exactly the naive twin's instances, compact instances, affines
/// and tracked depths, bit for bit, for any thread count and render order.
@Suite("Uniform runs = naive twin")
struct UniformRunTests {
  /// One cell, so every stored block is uniform; 1,003 live particles, so
  /// the last block is partial (a run of one block into the scratch), and
  /// times between births, so the oldest block is partly dead.
  static func system(_ configuration: ParticleSystemConfiguration, mode: RenderMode) throws -> ParticleSystem {
    var emitter = ParticleSystem.steadyStateEffect(liveParticles: 1003).emitter
    emitter.renderMode = mode
    emitter.preservesDepth = mode == .backToFront
    let system = try ParticleSystem(effect: try Effect(emitter: emitter), configuration: configuration)
    system.seek(to: 10.0123)
    return system
  }

  @Test(arguments: [RenderMode.unordered, .backToFront], [1, 2])
  func runsEqualTheNaiveTwin(_ mode: RenderMode, threads: Int) throws {
    for layout in [ParticleSystemConfiguration.InstanceLayout.full, .compact] {
      for affines in [false, true] {
        let system = try Self.system(
          ParticleSystemConfiguration(
            threads: threads, chunkSize: 200, computesAffines: affines, computesIDs: true, instanceLayout: layout),
          mode: mode)
        var frame = ParticleFrame()
        system.render(into: &frame)
        let t = system.localTime!
        let flattens = mode != .backToFront
        var expected: [UInt64: ParticleInstance] = [:]
        for r in system.liveRecords() {
          expected[r.id] = ParticleStore.evaluateNaive(r, at: t, flattensDepth: flattens)
        }
        let drawn = layout == .full ? frame.instances.count : frame.compactInstances.count
        #expect(drawn == expected.count && frame.ids.count == drawn && expected.count > 1000)
        #expect(affines ? frame.affines.count == drawn : frame.affines.isEmpty)
        for (i, id) in frame.ids.enumerated() {
          guard let want = expected[id] else {
            Issue.record("particle \(id) drawn but not alive")
            continue
          }
          if layout == .full {
            #expect(frame.instances[i] == want, "\(mode) \(threads) threads, particle \(id)")
            #expect(frame.instances[i].x.bitPattern == want.x.bitPattern)
          } else {
            #expect(frame.compactInstances[i] == CompactParticleInstance(want), "\(mode), particle \(id)")
          }
          if affines {
            let (sin, cos) = FastTrig.sinCos(SIMD4<Float>(repeating: want.rotation))
            let b = want.scale * sin[0]
            let a = want.scale * cos[0]
            let affine = AffineTransform2D(a: a, b: b, c: -b, d: a, tx: want.x, ty: want.y)
            #expect(frame.affines[i] == affine, "\(mode) \(threads) threads, affine of particle \(id)")
          }
        }
      }
    }
  }

  @Test func backToFrontSortsByTheRunsDepths() throws {
    let system = try Self.system(ParticleSystemConfiguration(computesIDs: true), mode: RenderMode.backToFront)
    var frame = ParticleFrame()
    system.render(into: &frame)
    let z = frame.instances.map(\.z)
    #expect(z.count > 1000 && z == z.sorted())
    #expect(Set(z).count > 100)
  }
}
