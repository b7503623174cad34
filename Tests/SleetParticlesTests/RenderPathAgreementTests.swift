import Testing

@testable import SleetParticles

/// The render kernel (eight-lane blocks, four-lane halves, any thread count
/// and chunk size) draws exactly the particles the scalar inspection path
/// reports, with the same bits, for every preset at several times.
@Suite("Render path = scalar path")
struct RenderPathAgreementTests {
  static let cases: [(preset: String, time: Double)] = Effect.presetNames.flatMap { name in
    [0.35, 2.5, 6.1].map { (name, $0) }
  }

  @Test(arguments: 0..<cases.count)
  func renderedFramesEqualTheScalarPathForAnyThreadCount(_ i: Int) throws {
    let (name, time) = Self.cases[i]
    let effect = try Effect.preset(named: name)
    let scalar = try ParticleSystem(effect: effect)
    scalar.seek(to: time)
    let expected = scalar.particles()
    let preservesDepth = effect.emitter.preservesDepth
    for threads in [1, 2, 3, 8] {
      // Small chunks: several per thread, and chunk borders inside blocks'
      // neighbourhoods, so the multi-chunk path runs even for small frames.
      let system = try ParticleSystem(
        effect: effect, configuration: .init(threads: threads, chunkSize: 40, computesIDs: true))
      system.seek(to: time)
      var frame = ParticleFrame()
      system.render(into: &frame)
      #expect(frame.ids.count == frame.instances.count)
      let drawn = Dictionary(uniqueKeysWithValues: zip(frame.ids, frame.instances))
      #expect(drawn.count == expected.count, "\(name) at \(time), \(threads) threads")
      for p in expected {
        guard let d = drawn[p.id] else {
          Issue.record("\(name) at \(time), \(threads) threads: particle \(p.id) not drawn")
          continue
        }
        let bits = [d.x, d.y, d.z, d.scale, d.rotation, d.color.x, d.color.y, d.color.z, d.color.w].map(\.bitPattern)
        let z: Float = preservesDepth ? p.position.z : 0
        let want = [
          p.position.x, p.position.y, z, p.scale, p.rotation, p.color.x, p.color.y, p.color.z, p.color.w,
        ].map(\.bitPattern)
        #expect(bits == want, "\(name) at \(time), \(threads) threads, particle \(p.id)")
        // Age over lifetime, capped below 1, computed here in the same order.
        let age = Float(system.localTime! - p.birthTime)
        #expect(d.normalizedAge == Swift.min(age * (1 / p.lifetime), 0x1.fffffep-1))
      }
    }
  }

  @Test func idsFollowTheRenderOrder() throws {
    // oldestLast reverses birth order: ids of a one-cell effect descend.
    var effect = try Effect.preset(named: "snow")
    var emitter = effect.emitter
    emitter.renderMode = .oldestLast
    effect = try Effect(emitter: emitter)
    let system = try ParticleSystem(effect: effect, configuration: .init(computesIDs: true))
    system.seek(to: 4)
    var frame = ParticleFrame()
    system.render(into: &frame)
    #expect(frame.ids.count > 10)
    #expect(frame.ids == frame.ids.sorted(by: >))
    // Off by default: no ids written.
    let plain = try ParticleSystem(effect: effect)
    plain.seek(to: 4)
    plain.render(into: &frame)
    #expect(frame.ids.isEmpty && !frame.instances.isEmpty)
  }
}
