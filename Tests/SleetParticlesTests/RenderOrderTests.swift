import Testing

@testable import SleetParticles

/// Render order and depth through the public API only (`ParticleSystem`,
/// `ParticleFrame`, `particles()`): the expected order is an independent sort
/// of the particle snapshots.
@Suite("Render order and depth")
struct RenderOrderTests {
  /// Two cells that stay in the plane z = 0 (so their z values tie, within
  /// and across cells) and one that flies in 3D (z of both signs, all distinct).
  static func effect(preservesDepth: Bool) -> Effect {
    // Emission range 0: along one line in the xy plane.
    let flat = testCell("flat", birthRate: 7, lifetime: 3, velocity: 30)
    let flatToo = testCell("flatToo", birthRate: 5, lifetime: 3, velocity: 20) { $0.emissionLongitude = 2 }
    let deep = testCell("deep", birthRate: 9, lifetime: 3, velocity: 40) {
      $0.emissionRange = 2 * .pi
      $0.zAcceleration = 3
    }
    return testEffect([flat, deep, flatToo]) {
      $0.renderMode = .backToFront
      $0.preservesDepth = preservesDepth
      $0.emitterPosition = SIMD2(100, 100)
    }
  }

  /// The frame's instances as particle snapshots, matched by (x, y), which
  /// are distinct here.
  static func drawnParticles(_ system: ParticleSystem) -> (frame: ParticleFrame, drawn: [ParticleSnapshot]) {
    var frame = ParticleFrame()
    system.render(into: &frame)
    let live = system.particles()
    let drawn = frame.instances.compactMap { i in
      live.first { $0.position.x == i.x && $0.position.y == i.y }
    }
    #expect(drawn.count == frame.instances.count && drawn.count == live.count)
    #expect(Set(drawn.map(\.id)).count == live.count)
    return (frame, drawn)
  }

  /// `backToFront` is ascending tracked z, then id, also when depth is
  /// flattened for drawing (semantics: z is still tracked and used for sorting).
  @Test(arguments: [false, true])
  func backToFrontIsAscendingTrackedZThenID(preservesDepth: Bool) throws {
    let system = try ParticleSystem(effect: Self.effect(preservesDepth: preservesDepth))
    system.seek(to: 2.5)
    let (_, drawn) = Self.drawnParticles(system)
    let live = system.particles()
    let expected = live.sorted { ($0.position.z, $0.id) < ($1.position.z, $1.id) }.map(\.id)
    #expect(drawn.map(\.id) == expected)
    // The case is not trivial: z differs, and ties (within and across the flat cells) exist.
    let zeros = live.filter { $0.position.z == 0 }
    #expect(Set(zeros.map(\.cellPath)) == ["flat", "flatToo"])
    #expect(live.contains { $0.position.z < 0 } && live.contains { $0.position.z > 0 })
    // Birth order and id order both differ from the expected order.
    #expect(expected != live.map(\.id))
    #expect(expected != live.sorted { ($0.birthTime, $0.id) < ($1.birthTime, $1.id) }.map(\.id))
  }

  /// `preservesDepth` false draws every particle at z = 0 although z is
  /// tracked; true draws each at its tracked z.
  @Test func depthIsFlattenedUnlessPreserved() throws {
    for preserves in [false, true] {
      let system = try ParticleSystem(effect: Self.effect(preservesDepth: preserves))
      system.seek(to: 2.5)
      let (frame, drawn) = Self.drawnParticles(system)
      #expect(drawn.contains { $0.position.z != 0 })
      for (instance, particle) in zip(frame.instances, drawn) {
        #expect(instance.z == (preserves ? particle.position.z : 0), "preservesDepth \(preserves), id \(particle.id)")
      }
    }
  }
}
