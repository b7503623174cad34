import SleetMath
import Testing

@testable import SleetParticles

@Suite("Random keys by cell path; seek vs step under a budget")
struct CellIndependenceAndCappingTests {
  /// The particles of `system` whose cell path starts with `prefix`, with
  /// ids reduced to their birth keys (the cell number may differ), sorted.
  private func particles(of system: ParticleSystem, under prefix: String) -> [ParticleSnapshot] {
    system.particles()
      .filter { $0.cellPath == prefix || $0.cellPath.hasPrefix(prefix + ".") }
      .map { p in
        var q = p
        q.id = ParticleID.birthKey(of: p.id)
        return q
      }
      .sorted { ($0.cellPath, $0.id) < ($1.cellPath, $1.id) }
  }

  /// Draws are keyed by (seed, cell path, birth, slot): a sibling added
  /// before `rocket` renumbers its cells but changes none of its particles,
  /// sub-cells included.
  @Test func addingASiblingCellLeavesOtherCellsBitIdentical() throws {
    let alone = fireworksLikeEffect(seed: 11)
    var emitter = alone.emitter
    let extra = testCell("aaa", birthRate: 30, lifetime: 1, velocity: 40) {
      $0.velocityRange = 20
      $0.emissionRange = .pi
    }
    emitter.emitterCells.insert(extra, at: 0)
    let withSibling = try Effect(emitter: emitter)
    let a = try ParticleSystem(effect: alone)
    let b = try ParticleSystem(effect: withSibling)
    #expect(a.cellPaths.firstIndex(of: "rocket") == 0 && b.cellPaths.firstIndex(of: "rocket") == 1)
    for t in [0.7, 1.6, 2.9] {
      a.seek(to: t)
      b.seek(to: t)
      let before = particles(of: a, under: "rocket")
      let after = particles(of: b, under: "rocket")
      #expect(before.contains { $0.cellPath == "rocket.trail" }, "t = \(t)")
      #expect(before == after, "t = \(t)")
      #expect(b.particles().contains { $0.cellPath == "aaa" }, "t = \(t)")
    }
    b.seek(to: 1.6)
    #expect(particles(of: b, under: "rocket.burst.spark").count > 0)
  }
}
