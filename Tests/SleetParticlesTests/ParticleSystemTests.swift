import Foundation
import SleetMath
import Testing

@testable import SleetParticles

@Suite("Particle system: schedule, lifetime, determinism, seek, sub-cells, order")
struct ParticleSystemTests {
  @Test func birthCountsFollowTheScheduleFirstAtOneOverRate() throws {
    let system = try ParticleSystem(effect: testEffect([testCell("c", birthRate: 10, lifetime: 100)]))
    system.seek(to: 0.0999)
    #expect(system.liveCount == 0)
    system.seek(to: 0.1)
    #expect(system.liveCount == 1)
    system.seek(to: 1.05)
    #expect(system.liveCount == 10)
    #expect(system.particles().map(\.id) == (0..<10).map { UInt64($0) })
    // The layer's birthRate multiplies the cell's.
    let doubled = try ParticleSystem(
      effect: testEffect([testCell("c", birthRate: 10, lifetime: 100)]) { $0.birthRate = 2 })
    doubled.seek(to: 1.01)
    #expect(doubled.liveCount == 20)
  }

  @Test func cellWindowsBoundBirths() throws {
    let cell = testCell("c", birthRate: 10, lifetime: 100) {
      $0.beginTime = 1
      $0.duration = 0.55
    }
    let system = try ParticleSystem(effect: testEffect([cell]))
    system.seek(to: 1.0999)
    #expect(system.liveCount == 0)
    system.seek(to: 5)
    // Births at 1.1, 1.2, …, 1.5 (five), none at or after 1.55.
    #expect(system.liveCount == 5)
    #expect(system.particles().first!.birthTime == 1.1)
  }

  @Test func emitterTimingMapsToLocalTime() throws {
    let system = try ParticleSystem(
      effect: testEffect([testCell("c", birthRate: 10, lifetime: 100)]) {
        $0.beginTime = 2
        $0.speed = 2
        $0.timeOffset = 0.5
      })
    #expect(system.localTime(for: 3) == 2.5)
    system.seek(to: 3)
    #expect(system.liveCount == 25)
    system.seek(to: 1)
    #expect(system.liveCount == 0)
  }

  /// A sampled lifetime ≤ 0 never exists but consumes its birth index.
  @Test func nonPositiveLifetimesNeverExistButConsumeTheirIndex() throws {
    let effect = testEffect([testCell("c", birthRate: 10, lifetime: 50) { $0.lifetimeRange = 120 }]) { $0.seed = 3 }
    let system = try ParticleSystem(effect: effect)
    system.seek(to: 2.05)
    let live = Set(system.particles().map(\.id))
    let tree = CellTree(effect: effect)
    var skipped = 0
    for k in 0..<20 {
      let random = RandomStream(seed: UInt64(3) | UInt64(tree.nodes[0].key) << 32, stream: UInt64(k))
      let lifetime: Float = 50 + (random.uniform(0) - 0.5) * 120
      let age = 2.05 - Double(k + 1) / 10
      let expected = lifetime > 0 && age < Double(lifetime)
      #expect(live.contains(UInt64(k)) == expected, "birth \(k), lifetime \(lifetime)")
      if lifetime <= 0 { skipped += 1 }
    }
    #expect(skipped > 0, "the seed should produce some non-positive lifetimes")
    #expect(system.particles().allSatisfy { $0.lifetime > 0 })
  }

  @Test func layerMultipliersApplyAtBirth() throws {
    let cell = testCell("c", birthRate: 10, lifetime: 2, velocity: 5) {
      $0.scale = 0.5
      $0.spin = 1
    }
    let system = try ParticleSystem(
      effect: testEffect([cell]) {
        $0.lifetime = 3
        $0.velocity = 2
        $0.scale = 4
        $0.spin = -1
      })
    system.seek(to: 0.1)
    let p = try #require(system.particles().first)
    #expect(p.lifetime == 6)
    #expect(abs((p.velocity * p.velocity).sum().squareRoot() - 10) < 1e-5)
    #expect(p.scale == 2)
    system.seek(to: 1.1)
    let q = try #require(system.particles().first { $0.id == 0 })
    #expect(abs(q.rotation + 1) < 1e-6)
  }

  @Test func closedFormMotion() throws {
    let cell = testCell("c", birthRate: 1, lifetime: 10, velocity: 3) {
      $0.xAcceleration = 2
      $0.yAcceleration = -4
      $0.scaleSpeed = -0.25
      $0.alphaSpeed = -0.1
      $0.spin = 0.5
    }
    let system = try ParticleSystem(effect: testEffect([cell]) { $0.emitterPosition = SIMD2(10, 20) })
    system.seek(to: 3)  // particle 0 born at 1, age 2
    let p = try #require(system.particles().first)
    #expect(abs(p.position.x - (10 + 3 * 2 + 0.5 * 2 * 4)) < 1e-4)
    #expect(abs(p.position.y - (20 + 0.5 * -4 * 4)) < 1e-4)
    #expect(abs(p.velocity.x - 7) < 1e-5 && abs(p.velocity.y + 8) < 1e-5)
    #expect(p.scale == 0.5 && p.rotation == 1 && abs(p.color.w - 0.8) < 1e-6)
  }

  @Test func emptyEffectsRenderEmptyFrames() throws {
    let system = try ParticleSystem(effect: testEffect([]))
    var frame = ParticleFrame()
    system.render(into: &frame)
    system.advance(to: 3)
    system.render(into: &frame)
    #expect(frame.instances.isEmpty && frame.batches.isEmpty && frame.time == 3)
  }

  @Test func disabledCellsEmitNothing() throws {
    let system = try ParticleSystem(
      effect: testEffect([testCell("off") { $0.isEnabled = false }, testCell("on")]))
    system.seek(to: 2)
    #expect(system.liveCount == 20)
    #expect(system.particles().allSatisfy { $0.cellPath == "on" })
  }

  /// Bit-identical frames for every thread count and chunk size.
  @Test func deterministicAcrossThreadsAndChunkSizes() throws {
    let effect = fireworksLikeEffect()
    var reference: [UInt32]?
    for threads in [1, 2, 3, 8] {
      for chunk in [8, 24, 1000, 16_384] {
        let system = try ParticleSystem(
          effect: effect, configuration: .init(threads: threads, chunkSize: chunk, computesAffines: true))
        var frame = ParticleFrame()
        system.seek(to: 2.7)
        system.render(into: &frame)
        #expect(frame.instances.count > 100)
        let b = bits(frame)
        if let reference {
          #expect(b == reference, "threads \(threads), chunk \(chunk)")
        } else {
          reference = b
        }
      }
    }
  }

  /// Stepping frame by frame and seeking give the same particles, same ids,
  /// bit for bit — forward, backward, and across sub-cell windows.
  @Test func seekEqualsStep() throws {
    let effect = fireworksLikeEffect(seed: 11)
    let stepper = try ParticleSystem(
      effect: effect, configuration: .init(threads: 2, chunkSize: 64, computesAffines: true))
    let seeker = try ParticleSystem(effect: effect, configuration: .init(computesAffines: true))
    var stepped = ParticleFrame()
    var sought = ParticleFrame()
    for n in 0...200 {
      let t = Double(n) / 60
      stepper.advance(to: t)
      if n % 20 == 0 || n == 200 {
        seeker.seek(to: t)
        #expect(bits(stepper.particles()) == bits(seeker.particles()), "t = \(t)")
        stepper.render(into: &stepped)
        seeker.render(into: &sought)
        #expect(bits(stepped) == bits(sought), "t = \(t)")
      }
    }
    #expect(stepper.liveCount > 50)
    // Backward, then forward again with a different frame rate.
    stepper.advance(to: 1.3)
    seeker.seek(to: 1.3)
    #expect(bits(stepper.particles()) == bits(seeker.particles()))
    for n in 1...40 { stepper.advance(to: 1.3 + Double(n) / 24) }
    seeker.seek(to: 1.3 + 40.0 / 24)
    #expect(bits(stepper.particles()) == bits(seeker.particles()))
  }

  @Test func subCellWindowsAndInheritance() throws {
    let child = testCell("child", birthRate: 10, lifetime: 5, velocity: 7) {
      $0.beginTime = 0.5
      $0.duration = 0.25
      $0.scale = 2
    }
    let parent = testCell("parent", birthRate: 1, lifetime: 3, velocity: 20) {
      $0.emissionLongitude = .pi / 2
      $0.scale = 0.5
      $0.scaleSpeed = 0.1
      $0.color = ColorRGBA(red: 1, green: 0.5, blue: 0.25, alpha: 1)
      $0.greenSpeed = -0.1
      $0.xAcceleration = 30
      $0.emitterCells = [child]
    }
    let system = try ParticleSystem(effect: testEffect([parent]))
    system.seek(to: 1.9)  // parent 0 born at 1: children at parent ages 0.6, 0.7
    let all = system.particles()
    let children = all.filter { $0.cellPath == "parent.child" }
    #expect(children.count == 2)
    let p = try #require(all.first { $0.cellPath == "parent" })
    for (c, age) in zip(children.sorted { $0.birthTime < $1.birthTime }, [Float(0.6), 0.7]) {
      #expect(abs(c.birthTime - (1 + Double(age))) < 1e-6)
      // Multiplicative inheritance of the parent's current scale and colour.
      #expect(abs(c.scale - 2 * (0.5 + 0.1 * age)) < 1e-5)
      #expect(abs(c.color.y - (0.5 - 0.1 * age)) < 1e-5 && c.color.x == 1 && abs(c.color.z - 0.25) < 1e-6)
      // Born at the parent's position then; moving along the parent's direction
      // of motion at its own speed (velocity not inherited).
      let parentVelocity = SIMD3<Float>(30 * age, 20, 0)
      let direction = parentVelocity / (parentVelocity * parentVelocity).sum().squareRoot()
      #expect(abs((c.velocity * c.velocity).sum().squareRoot() - 7) < 1e-4)
      #expect(((c.velocity / 7) * direction).sum() > 0.9999)
      let parentAtBirth = SIMD3<Float>(15 * age * age, 20 * age, 0)
      let expected = parentAtBirth + c.velocity * Float(1.9 - c.birthTime)
      #expect(((c.position - expected) * (c.position - expected)).sum().squareRoot() < 1e-3)
    }
    #expect(p.id == 0)
    // Sub-particles outlive their parent.
    system.seek(to: 4.5)
    #expect(system.particles().filter { $0.cellPath == "parent.child" }.count == 6)
    #expect(!system.particles().contains { $0.id == 0 })
  }

  @Test(arguments: RenderMode.allCases)
  func renderOrderPerMode(mode: RenderMode) throws {
    let cells = [
      testCell("a", birthRate: 7, lifetime: 2, velocity: 30) {
        $0.emissionRange = 6; $0.lifetimeRange = 1
      },
      testCell("b", birthRate: 5, lifetime: 3, velocity: 30) {
        $0.emissionRange = 6; $0.zAcceleration = 5
      },
    ]
    let system = try ParticleSystem(
      effect: testEffect(cells) {
        $0.renderMode = mode
        $0.preservesDepth = true
      })
    system.seek(to: 2.5)
    var frame = ParticleFrame()
    system.render(into: &frame)
    let live = system.particles()
    #expect(frame.instances.count == live.count && live.count > 20)
    let byID = Dictionary(uniqueKeysWithValues: live.map { ($0.id, $0) })
    // Recover each instance's particle by its position (unique here).
    let ordered = frame.instances.map { i in live.first { $0.position.x == i.x && $0.position.y == i.y }! }
    #expect(Set(ordered.map(\.id)).count == live.count && byID.count == live.count)
    switch mode {
    case .unordered, .additive:
      #expect(ordered.map(\.id) == ordered.map(\.id).sorted())
    case .oldestFirst:
      #expect(zip(ordered, ordered.dropFirst()).allSatisfy { $0.birthTime <= $1.birthTime })
    case .oldestLast:
      #expect(zip(ordered, ordered.dropFirst()).allSatisfy { $0.birthTime >= $1.birthTime })
    case .backToFront:
      // Ties and flattened depth: RenderOrderTests.
      #expect(zip(frame.instances, frame.instances.dropFirst()).allSatisfy { $0.z <= $1.z })
    }
    #expect(frame.batches == [DrawBatch(range: 0..<live.count, blendMode: mode == .additive ? .additive : .sourceOver)])
    #expect(frame.cellPaths == ["a", "b"])
  }

  @Test func budgetRejectsWithThePeakOrCapsOldestFirst() throws {
    let effect = testEffect([testCell("c", birthRate: 1000, lifetime: 2)])
    #expect(throws: ParticleSystemError.budgetExceeded(peak: 2001, budget: 500)) {
      try ParticleSystem(effect: effect, configuration: .init(budget: 500))
    }
    let capped = try ParticleSystem(effect: effect, configuration: .init(budget: 500, overflowPolicy: .capOldestFirst))
    capped.seek(to: 1.5)
    #expect(capped.liveCount == 500)
    // The newest survive.
    #expect(capped.particles().map(\.id).min() == 1000)
    for n in 1...30 { capped.advance(to: 1.5 + Double(n) / 60) }
    #expect(capped.liveCount == 500)
    // ⌊R·L⌋ + 1 (docs/particles.md): 2000 live is reachable up to rounding of birth times.
    #expect(try ParticleSystem(effect: effect, configuration: .init(budget: 2001)).peakLiveParticles == 2001)
    #expect(throws: ParticleSystemError.budgetExceeded(peak: 2001, budget: 2000)) {
      try ParticleSystem(effect: effect, configuration: .init(budget: 2000))
    }
  }

  @Test func samplingFiltersReachTheFrameTablePerSprite() throws {
    // Two cells draw one image with different filters: two table entries.
    let sharp = testCell("sharp") {
      $0.contents = SpriteReference("spark")
      $0.magnificationFilter = "nearest"
    }
    let soft = testCell("soft") { $0.contents = SpriteReference("spark") }
    let system = try ParticleSystem(effect: testEffect([sharp, soft]))
    system.seek(to: 1)
    var frame = ParticleFrame()
    system.render(into: &frame)
    #expect(frame.sprites == [SpriteReference("spark"), SpriteReference("spark")])
    #expect(frame.spriteSampling == [SpriteSampling(magnificationFilter: .nearest), SpriteSampling()])
    let sharpSprites = Set(frame.instances.filter { $0.cell == 0 }.map(\.sprite))
    #expect(sharpSprites == [0])
  }

  @Test func tooManyCellsIsATypedError() {
    let cells = (0..<256).map { testCell("c\($0)") }
    #expect(throws: ParticleSystemError.tooManyCells(256)) { try ParticleSystem(effect: testEffect(cells)) }
  }

  @Test func affinesAreComputedOnlyWhenAsked() throws {
    let plain = try ParticleSystem(effect: fireworksLikeEffect(seed: 5))
    plain.seek(to: 2.2)
    var frame = ParticleFrame()
    plain.render(into: &frame)
    #expect(!frame.instances.isEmpty && frame.affines.isEmpty)
  }

  @Test func kernelMatchesItsNaiveTwinBitForBit() throws {
    let system = try ParticleSystem(effect: fireworksLikeEffect(seed: 5), configuration: .init(computesAffines: true))
    system.seek(to: 2.2)
    var frame = ParticleFrame()
    system.render(into: &frame)
    let records = system.liveRecords()
    let t = system.localTime!
    let twin = records.map { ParticleStore.evaluateNaive($0, at: t, flattensDepth: true) }
    #expect(records.count == frame.instances.count)
    // The frame is in id order (unordered); the twin in birth order.
    let sortedTwin = zip(records, twin).sorted { $0.0.id < $1.0.id }.map(\.1)
    #expect(frame.instances.map(\.x.bitPattern) == sortedTwin.map(\.x.bitPattern))
    #expect(frame.instances == sortedTwin)
    for (instance, affine) in zip(frame.instances, frame.affines) {
      #expect(abs(affine.a - instance.scale * cos(instance.rotation)) < 1e-5 * (1 + instance.scale))
      #expect(abs(affine.b - instance.scale * sin(instance.rotation)) < 1e-5 * (1 + instance.scale))
      #expect(affine.c == -affine.b && affine.d == affine.a && affine.tx == instance.x)
    }
  }

  @Test func fastSinCosIsAccurate() {
    var worst: Float = 0
    for i in 0..<4000 {
      let base = Float(i) * 2.5 - 5000
      let x = SIMD8<Float>(base, base + 0.1, base + 0.3, -base * 0.001, base * 1e-4, 1e-6, -0.7, base + 1.9)
      let (s, c) = FastTrig.sinCos(x)
      for l in 0..<8 {
        worst = max(worst, abs(s[l] - Float(sin(Double(x[l])))), abs(c[l] - Float(cos(Double(x[l])))))
      }
    }
    #expect(worst < 2e-6)
  }

  @Test func storeRoundTripsRecordsAndCompactsStably() {
    let (records, store) = sampleStore(fireworksLikeEffect(), count: 37)
    #expect((0..<store.count).map(store.record(at:)) == records)
    store.removeAll { $0 % 3 == 0 }
    #expect(
      (0..<store.count).map(store.record(at:)) == records.enumerated().filter { $0.offset % 3 != 0 }.map(\.element))
    #expect(store.aliveCount(blocks: 0..<store.blockCount, at: 0, hidden: nil) == store.count)
  }

  @Test func aliveCountsWithAndWithoutTheBlockShortcutAgree() throws {
    // Varied lifetimes, counts at times right at particles' ends of life
    // (where the per-block shortcut must defer to the lanes) and between.
    let effect = testEffect([testCell("c", birthRate: 240, lifetime: 1) { $0.lifetimeRange = 0.8 }])
    let system = try ParticleSystem(effect: effect)
    system.seek(to: 1.5)
    let records = system.liveRecords()
    let store = system.store
    var times: [Double] = [1.5, 1.5000001, 1.6, 1.9, 2.2]
    for r in records.prefix(40) {
      times += [r.birthTime + Double(r.lifetime), (r.birthTime + Double(r.lifetime)).nextDown]
    }
    for t in times where t >= 1.5 {
      let expected = records.filter { $0.isAlive(at: t) }.count
      #expect(store.aliveCount(blocks: 0..<store.blockCount, at: t, hidden: nil) == expected, "t = \(t)")
    }
    // Compaction recomputes the blocks' ends of life.
    store.removeAll { !records[$0].isAlive(at: 1.9) }
    let survivors = records.filter { $0.isAlive(at: 1.9) }
    for t in [1.9, 2.0, 2.1] {
      #expect(
        store.aliveCount(blocks: 0..<store.blockCount, at: t, hidden: nil)
          == survivors.filter { $0.isAlive(at: t) }.count)
    }
  }

  @Test func droppingWholeLeadingBlocksKeepsTheRestInOrder() {
    let (records, store) = sampleStore(fireworksLikeEffect(), count: 37)
    store.removeFirstBlocks(2)
    #expect((0..<store.count).map(store.record(at:)) == Array(records[16...]))
    // The tail lanes of the last block still read as never alive.
    #expect(store.aliveCount(blocks: 0..<store.blockCount, at: 0, hidden: nil) == records.count - 16)
    let tree = CellTree(effect: fireworksLikeEffect())
    store.append(
      records[0], constantsIndex: tree.constantsIndex(cell: records[0].cell, birthTime: records[0].birthTime))
    #expect(store.record(at: records.count - 16) == records[0])
  }
}

/// `count` sampled births of `effect` appended to a store of capacity 8 (so
/// it grows), with their constants rows.
func sampleStore(_ effect: Effect, count: Int) -> ([BirthRecord], ParticleStore) {
  let records = sampleBirths(effect, count: count)
  let tree = CellTree(effect: effect)
  let store = ParticleStore(constants: tree.makeConstantsTable(), capacity: 8)
  for r in records { store.append(r, constantsIndex: tree.constantsIndex(cell: r.cell, birthTime: r.birthTime)) }
  return (records, store)
}
