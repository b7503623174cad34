import Testing

@testable import SleetParticles

/// A store per cell (ParticleSystem+CellStores.swift) against the single
/// store it replaces for effects of several top-level cells drawn by id or
/// back to front:
/// the same live records, the same frames byte for byte and the same GPU
/// birth deltas, over steps, a long step, seeks both ways, timed changes
/// (a hidden cell, a rate change, a new shape) and one or two threads in
/// chunks small enough to split every store.
@Suite("A store per cell = the single store")
struct CellStoreTests {
  /// Two cells born in turn, with lifetimes varied enough to leave holes,
  /// one hidden for a while, then re-shaped and sped up.
  static func changingEffect() throws -> Effect {
    let a = testCell("a", birthRate: 90, lifetime: 1.2, velocity: 40) {
      $0.lifetimeRange = 1.6
      $0.emissionRange = 2
      $0.spin = 1
      $0.spinRange = 3
      $0.yAcceleration = 30
    }
    let b = testCell("b", birthRate: 70, lifetime: 0.8, velocity: 25) {
      $0.emissionRange = 6.3
      $0.scaleSpeed = -0.4
      $0.alphaSpeed = -0.5
    }
    let c = testCell("c", birthRate: 5, lifetime: 3, velocity: 10)
    let base = testEffect([a, b, c]) {
      $0.emitterShape = .rectangle
      $0.emitterSize = SIMD2(120, 40)
      $0.emitterPosition = SIMD2(100, 200)
      $0.renderMode = .additive
      $0.seed = 41
    }
    return try Effect(
      emitter: base.emitter,
      changes: [
        PropertyChange(time: 0.7, keyPath: "emitterCells.b.enabled", value: .bool(false)),
        PropertyChange(time: 1.3, keyPath: "emitterCells.b.enabled", value: .bool(true)),
        PropertyChange(time: 1.5, keyPath: "emitterCells.a.birthRate", value: .number(300)),
        PropertyChange(time: 1.9, keyPath: "emitterShape", value: .string("circle")),
        PropertyChange(time: 2.2, keyPath: "renderMode", value: .string("unordered")),
      ])
  }

  /// Three cells in 3D drawn back to front (depth kept), one hidden for a
  /// while: the frame sorts by tracked z after the cell-major id order.
  static func depthEffect() throws -> Effect {
    let cells = ["near", "far", "side"].enumerated().map { i, name in
      testCell(name, birthRate: 60 + 20 * Float(i), lifetime: 1 + 0.3 * Float(i), velocity: 30) {
        $0.lifetimeRange = 0.8
        $0.emissionRange = 3
        $0.emissionLatitude = 0.4 * Float(i) - 0.4
        $0.zAcceleration = 5 - 4 * Float(i)
      }
    }
    let base = testEffect(cells) {
      $0.emitterShape = .cuboid
      $0.emitterMode = .volume
      $0.emitterSize = SIMD2(80, 60)
      $0.emitterDepth = 50
      $0.renderMode = .backToFront
      $0.preservesDepth = true
      $0.seed = 43
    }
    return try Effect(
      emitter: base.emitter,
      changes: [
        PropertyChange(time: 0.9, keyPath: "emitterCells.far.enabled", value: .bool(false)),
        PropertyChange(time: 1.6, keyPath: "emitterCells.far.enabled", value: .bool(true)),
      ])
  }

  static func effects() throws -> [(String, Effect)] {
    [
      ("confetti", try Effect.preset(named: "confetti")), ("sparkle", try Effect.preset(named: "sparkle")),
      ("changing", try changingEffect()), ("depth", try depthEffect()),
    ]
  }

  /// Steps of 1/60 s with a long step, a seek back and a seek forward.
  static let times: [(Double, seeks: Bool)] = {
    var times: [(Double, seeks: Bool)] = []
    var t = 0.0
    for step in 0..<150 {
      switch step {
      case 40: t += 0.8
      case 80: t -= 0.9
      case 110:
        times.append((t + 2, seeks: true))
        t += 2.02
      default: t += 1.0 / 60
      }
      times.append((t, seeks: false))
    }
    return times
  }()

  @Test(arguments: [1, 2], [false, true])
  func stepsSeeksAndFramesEqualTheSingleStore(threads: Int, compact: Bool) throws {
    var checkedStores = 0
    let configuration = ParticleSystemConfiguration(
      threads: threads, chunkSize: 64, computesAffines: true, computesIDs: true,
      instanceLayout: compact ? .compact : .full)
    for (name, effect) in try Self.effects() {
      let cells = try ParticleSystem(effect: effect, configuration: configuration)
      let single = try ParticleSystem(effect: effect, configuration: configuration)
      #expect(cells.usesCellStores, "\(name) keeps a store per cell")
      single.paths.cellStores = false
      var frames = (ParticleFrame(), ParticleFrame())
      var drawn = 0
      var storesInUse = 0
      for (k, (t, seeks)) in Self.times.enumerated() {
        move(cells, single, to: t, seeks: seeks)
        #expect(cells.liveRecords() == single.liveRecords(), "\(name), time \(k): \(t) s")
        cells.render(into: &frames.0)
        single.render(into: &frames.1)
        let same = sameOutputs(frames.0, frames.1)
        #expect(same == (true, true, true, true), "\(name), time \(k): \(t) s")
        #expect(frames.0.batches == frames.1.batches, "\(name), time \(k): \(t) s")
        drawn = max(drawn, frames.0.ids.count)
        storesInUse = max(storesInUse, cells.cellStores.filter { $0.count > 0 }.count)
        #expect(cells.store.count == 0)
      }
      #expect(cells.liveCount == single.liveCount)
      #expect(cells.particles() == single.particles())
      #expect(drawn > 30, "\(name) draws particles")
      #expect(storesInUse >= 2, "\(name) fills several stores")
      // A seek appends each cell's births to its slab a block at a time
      // (the batches cut at its own store's block boundaries), except the
      // blocks with a dead lane (many here: lifetimes from 0.4 to 2 s), not
      // record by record. (Cut at another store's boundaries: none.)
      let before = cells.cellStores.map(\.blocksAppended)
      cells.seek(to: 3)
      for (c, store) in cells.cellStores.enumerated() where store.count >= 64 {
        let blocks = store.blocksAppended - before[c]
        #expect(blocks * 32 >= store.count, "\(name), cell \(c): \(blocks) blocks for \(store.count) particles")
        checkedStores += 1
      }
    }
    #expect(checkedStores > 0, "a store held enough particles to check its blocks")
  }

  /// The GPU birth stream from the full system: the same deltas (kind,
  /// first slot, slots) from cell stores as from the single store.
  @Test func birthDeltasEqualTheSingleStore() throws {
    for (name, effect) in try Self.effects() {
      let cells = try ParticleSystem(effect: effect)
      let single = try ParticleSystem(effect: effect)
      single.paths.cellStores = false
      let streams = (
        try BirthDeltaStream(system: cells, capacity: 4096, source: .fullSystem),
        try BirthDeltaStream(system: single, capacity: 4096, source: .fullSystem)
      )
      var appended = 0
      for (t, seeks) in Self.times {
        let deltas =
          seeks
          ? (try streams.0.seek(to: t), try streams.1.seek(to: t))
          : (try streams.0.advance(to: t), try streams.1.advance(to: t))
        #expect(deltas.0.kind == deltas.1.kind && deltas.0.firstSlot == deltas.1.firstSlot, "\(name) at \(t)")
        #expect(deltas.0.slots == deltas.1.slots, "\(name) at \(t)")
        if deltas.0.kind == .append { appended += deltas.0.slots.count }
      }
      #expect(appended > 30, "\(name) appended births")
    }
  }

  /// Which effects keep a store per cell: several top-level cells drawn by
  /// id, births over the budget rejected.
  @Test func whichEffectsKeepCellStores() throws {
    func keeps(_ effect: Effect, _ configuration: ParticleSystemConfiguration = .init()) throws -> Bool {
      try ParticleSystem(effect: effect, configuration: configuration).usesCellStores
    }
    let two = [testCell("a"), testCell("b")]
    #expect(try keeps(try Effect.preset(named: "confetti")))
    #expect(try keeps(try Self.changingEffect()))
    #expect(try !keeps(testEffect([testCell("a")])), "one cell")
    #expect(try !keeps(try Effect.preset(named: "fireworks")), "sub-cells")
    #expect(try keeps(try Self.depthEffect()))
    #expect(try !keeps(testEffect(two), .init(overflowPolicy: .capOldestFirst)), "capping")
    for mode in [RenderMode.oldestFirst, .oldestLast] {
      #expect(try !keeps(testEffect(two) { $0.renderMode = mode }), "\(mode)")
    }
    // A timed change to an order that needs birth order or depth.
    let changing = try Effect(
      emitter: testEffect(two).emitter,
      changes: [PropertyChange(time: 1, keyPath: "renderMode", value: .string("oldestLast"))])
    #expect(try !keeps(changing), "a change to oldestLast")
  }
}
