import SleetMath
import Testing

@testable import SleetParticles

/// The batched sub-cell sampler (``ChildBirthBatch``, eight births of one
/// parent at a time) against its naive twin, the scalar
/// ``BirthSampler/child(tree:seed:node:parent:k:birthTime:)``: bit for bit,
/// lane by lane, and through whole steps and seeks of effects with
/// sub-cells.
@Suite("Batched sub-cell births equal the scalar sampler")
struct ChildBirthBatchTests {
  /// A sub-cell exercising every sampled attribute (``BirthBatchTests``'s
  /// cell, whose `lifetimeRange` makes about a third of the births lifetime
  /// ≤ 0), with its own longitude, a colour and a z acceleration.
  static func child(
    _ name: String, range: Float, latitude: Float, longitude: Float, rate: Float
  ) -> EmitterCell {
    var c = BirthBatchTests.cell(name, range: range, latitude: latitude, rate: rate)
    c.emissionLongitude = longitude
    c.color = ColorRGBA(red: 0.9, green: 0.5, blue: 0.2, alpha: 0.8)
    c.zAcceleration = 4
    return c
  }

  /// One top-level cell whose sub-cells cover closed, tiny, open, full and
  /// over-full cones, latitudes in and out of the screen's plane (an axis
  /// along +z included: the basis's other branch) and a longitude, under
  /// layer multipliers ≠ 1; `rate` births a second per parent and sub-cell.
  static func effect(seed: UInt32 = 11, rate: Float = 400) -> Effect {
    let children = [
      child("closed", range: 0, latitude: 0, longitude: 0, rate: rate),
      child("tiny", range: 1e-4, latitude: 0.3, longitude: 0.7, rate: rate),
      child("open", range: 1, latitude: -0.4, longitude: 2, rate: rate),
      child("full", range: 2 * .pi, latitude: 0, longitude: 0, rate: rate),
      child("over", range: 7, latitude: 1.2, longitude: -1, rate: rate),
      child("up", range: 0.5, latitude: .pi / 2, longitude: 0, rate: rate),
    ]
    let parent = testCell("parent", birthRate: 3, lifetime: 1.2, velocity: 150) {
      $0.velocityRange = 100
      $0.emissionRange = 2
      $0.emissionLatitude = 0.5
      $0.yAcceleration = 60
      $0.scale = 0.5
      $0.scaleSpeed = -0.6
      $0.color = ColorRGBA(red: 0.9, green: 0.8, blue: 0.7, alpha: 1)
      $0.redRange = 0.8
      $0.redSpeed = 0.5
      $0.alphaSpeed = -1
      $0.emitterCells = children
    }
    return testEffect([parent]) {
      $0.emitterShape = .rectangle
      $0.emitterPosition = SIMD2(200, 300)
      $0.emitterSize = SIMD2(100, 40)
      $0.lifetime = 1.25
      $0.velocity = 0.9
      $0.scale = 1.1
      $0.spin = -1.5
      $0.seed = seed
    }
  }

  /// Parents that reach every branch: at rest (the point rule's axis),
  /// moving in the screen's plane (no normalisation), out of it, along ±z,
  /// decelerating through rest, with −0 components, colours leaving [0, 1]
  /// and a scale crossing 0 within the batch's ages.
  static let parents: [BirthRecord] = {
    func parent(
      _ id: UInt64, velocity: SIMD3<Float>, halfAcceleration: SIMD3<Float> = .zero, scale: Float = 0.7,
      scaleSpeed: Float = -0.3, color: SIMD4<Float> = SIMD4(0.5, 0.9, 1.2, 1),
      colorSpeed: SIMD4<Float> = SIMD4(0.4, -0.8, -0.1, -2)
    ) -> BirthRecord {
      BirthRecord(
        id: id, cell: 0, birthTime: 1.2345678, lifetime: 2, position: SIMD3(10, -20, 3), velocity: velocity,
        halfAcceleration: halfAcceleration, scale: scale, scaleSpeed: scaleSpeed, spin: 0.5, color: color,
        colorSpeed: colorSpeed, contentsRect: SIMD4(0, 0, 1, 1), sprite: 0)
    }
    return [
      parent(1, velocity: .zero),
      parent(2, velocity: SIMD3(30, -40, 0), halfAcceleration: SIMD3(0, 20, 0)),
      parent(3, velocity: SIMD3(30, -40, 25), halfAcceleration: SIMD3(-3, 20, 5)),
      parent(4, velocity: SIMD3(0, 0, 50)),
      parent(5, velocity: SIMD3(-0.0, 0, -50), halfAcceleration: SIMD3(0, 0, 1)),
      parent(6, velocity: SIMD3(0, -3, 0), halfAcceleration: SIMD3(0, 10, 0), scale: 0.05, scaleSpeed: -1),
      parent(7, velocity: SIMD3(1e-3, 2e-3, -0.0), color: SIMD4(-0.5, 2, 0.5, 0.5)),
      parent(0x0123_4567_89AB_CDEF, velocity: SIMD3(120, 5, -7), halfAcceleration: SIMD3(0, 40, 0)),
    ]
  }()

  /// Every field of a record as bits (`==` on Float would equate −0 and 0).
  static func bits(_ r: BirthRecord) -> [UInt64] { BirthBatchTests.bits(r) }

  /// Each lane of a batch against the scalar sample of its index, for every
  /// sub-cell, parent and count 1…8, at birth indices whose batches start
  /// anywhere, in both copies of the kernel.
  @Test(arguments: BirthBatchTests.copies)
  func everyLaneEqualsTheScalarSample(avx2: Bool) throws {
    let system = try ParticleSystem(effect: Self.effect())
    let tree = system.tree
    let seed = system.effect.emitter.seed
    var births = 0
    var skipped = 0
    for node in tree.nodes.indices where tree.nodes[node].parent != nil {
      let n = tree.nodes[node]
      for parent in Self.parents {
        let batch = ChildBirthBatch(parent: parent)
        for (first, count) in [(0, 8), (5, 3), (1 << 20, 1), ((1 << 32) - 3, 8), (77, 7)] {
          // Ages 0 (born with the parent) to 0.6 s, unevenly spaced.
          var times = [Double](repeating: 0, count: 8)
          for l in 0..<8 { times[l] = parent.birthTime + Double(l * l) * 0.0093 }
          var batched: [BirthRecord] = []
          times.withUnsafeMutableBufferPointer { times in
            n.parameters.withUnsafeBufferPointer { parameters in
              n.birthSampling.withUnsafeBufferPointer { sampling in
                batch.sample(
                  node: node, first: first, count: count, times: times.baseAddress!, parameters.baseAddress!,
                  sampling: sampling.baseAddress!, avx2: avx2
                ) { batched.append($0) }
              }
            }
          }
          let scalar = (0..<count).compactMap { l in
            BirthSampler.child(
              tree: tree, seed: seed, node: node, parent: parent, k: first + l, birthTime: times[l])
          }
          #expect(
            scalar.map(Self.bits) == batched.map(Self.bits),
            "\(n.path), parent \(parent.id), births \(first) + \(count)")
          births += batched.count
          skipped += count - scalar.count
        }
      }
    }
    // Enough births, and lifetime ≤ 0 births skipped.
    #expect(births > 1_000)
    #expect(skipped > 100)
  }

  /// The times visited: steps of 1/60 s, a long step, a seek back, a seek
  /// forward, then steps again (as ParentBirthCacheTests).
  static var times: [(Double, seeks: Bool)] { ParentBirthCacheTests.times }

  /// Steps and seeks with the batches against the scalar sampler: the same
  /// live records in the same store order and the same frames, on the
  /// fireworks preset (bursts of many births a parent, trails of one), a
  /// fireworks-like effect with timed changes (batches split where the
  /// segment changes) and the 3D effect above. (Records by `==`, the frames
  /// byte for byte.)
  @Test func stepsAndSeeksEqualTheScalarSampler() throws {
    let effects = try ParentBirthCacheTests.effects() + [("3D sub-cells", Self.effect(rate: 90))]
    for (name, effect) in effects {
      let batched = try ParticleSystem(effect: effect)
      let scalar = try ParticleSystem(effect: effect)
      scalar.paths.childBirthBatches = false
      var frames = (ParticleFrame(), ParticleFrame())
      var live = 0
      for (k, (t, seeks)) in Self.times.enumerated() {
        move(batched, scalar, to: t, seeks: seeks)
        let records = (batched.liveRecords(), scalar.liveRecords())
        #expect(records.0 == records.1, "\(name), time \(k): \(t) s")
        batched.render(into: &frames.0)
        scalar.render(into: &frames.1)
        let same = sameOutputs(frames.0, frames.1)
        #expect(same.instances && same.affines, "\(name), time \(k): \(t) s")
        live = max(live, records.0.count)
      }
      #expect(live > 100, "\(name) has particles")
      // The path under test ran, and the other did not.
      #expect(
        batched.diagnostics.childBatchesSampled > 0 && scalar.diagnostics.childBatchesSampled == 0,
        "\(name) sampled batches")
    }
  }
}
