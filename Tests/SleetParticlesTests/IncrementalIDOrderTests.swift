import Testing

@testable import SleetParticles

/// ``IncrementalIDOrder`` against its naive twin, the standard library's
/// stable sort of positions by id, frame after frame: frames that lose
/// particles anywhere and gain births at their end (a stepped effect), and
/// frames that break that shape (a seek to other particles, a hidden cell
/// shown again in the middle, reordered survivors, colliding ids), so the
/// matching's fallbacks are exercised too.
@Suite("Incremental id order = stable sort")
struct IncrementalIDOrderTests {
  static func stableOrder(_ ids: [UInt64]) -> [Int32] {
    ids.indices.sorted { (ids[$0], $0) < (ids[$1], $1) }.map { Int32($0) }
  }

  static func sorted(_ order: inout IncrementalIDOrder, _ ids: [UInt64]) -> [Int32] {
    ids.withUnsafeBufferPointer { order.sort($0) }
    return order.order
  }

  /// A sub-cell-like id: the cell byte over a 56-bit hash; `narrow` keeps
  /// few distinct values, so equal ids (collisions) are common.
  static func id(_ generator: inout SplitMix64, narrow: Bool) -> UInt64 {
    let r = generator.next()
    return narrow ? r & 0x0100_0000_0000_0007 : r
  }

  /// Births (some of them small batches sorted by insertion, some past the
  /// insertion limit), deaths anywhere, and every few frames a frame of
  /// another shape.
  @Test(arguments: [false, true])
  func framesSortAsTheStableSort(narrow: Bool) {
    var generator = SplitMix64(state: narrow ? 11 : 7)
    var order = IncrementalIDOrder()
    var ids: [UInt64] = []
    for frame in 0..<120 {
      switch frame % 17 {
      case 3, 4:
        // The same frame again (a render without a step), twice.
        break
      case 5:
        // A seek: mostly other particles.
        ids = (0..<Int(generator.next() % 300)).map { _ in Self.id(&generator, narrow: narrow) }
      case 9:
        // A hidden cell shown again: particles inserted in the middle.
        let at = ids.isEmpty ? 0 : Int(generator.next() % UInt64(ids.count))
        ids.insert(contentsOf: (0..<7).map { _ in Self.id(&generator, narrow: narrow) }, at: at)
      case 13:
        // Survivors out of their previous order.
        ids.shuffle(using: &generator)
      case 16:
        // An empty frame: the next one has no previous particle.
        ids = []
      default:
        // A step: the dead leave from anywhere, births join at the end.
        ids = ids.filter { _ in generator.next() % 10 != 0 }
        let births = frame % 3 == 0 ? 100 : Int(generator.next() % 20)
        ids += (0..<births).map { _ in Self.id(&generator, narrow: narrow) }
      }
      let got = Self.sorted(&order, ids)
      #expect(got == Self.stableOrder(ids), "frame \(frame), \(ids.count) ids")
    }
  }

  /// The edges: empty frames, one id, all ids equal, a frame equal to the
  /// previous one, and every particle dying at once.
  @Test func edgesSortAsTheStableSort() {
    var order = IncrementalIDOrder()
    let frames: [[UInt64]] = [
      [], [5], [5], [5, 5, 5], [5, 5, 5, 5], [3, 1, 2], [3, 1, 2], [], [9, 8], [7, 7, 8, 9, 7],
      [7, 8, 7], [1, 2, 3],
    ]
    for (k, ids) in frames.enumerated() {
      #expect(Self.sorted(&order, ids) == Self.stableOrder(ids), "frame \(k): \(ids)")
    }
  }
}

/// `render(into:)` with the incremental id order against the full radix
/// sort it replaces, on effects with sub-cells (whose frames need the sort;
/// `backToFront` sorts by id first, then by depth):
/// stepped frames, seeks back and forth between them, a sub-cell hidden and
/// shown again (its particles come back in the middle of the evaluation
/// order), one and two threads, full and compact rows, with affines and ids.
@Suite("Render with the incremental id order = render with the full sort")
struct IncrementalIDOrderRenderTests {
  static func effects() throws -> [(String, Effect)] {
    var fireworks = try Effect.preset(named: "fireworks")
    fireworks.emitter.renderMode = .unordered
    let hiding = try Effect(
      emitter: fireworksLikeEffect().emitter,
      changes: [
        PropertyChange(time: 1.1, keyPath: "emitterCells.rocket.emitterCells.trail.enabled", value: .bool(false)),
        PropertyChange(time: 1.6, keyPath: "emitterCells.rocket.emitterCells.trail.enabled", value: .bool(true)),
      ])
    // Back to front: rockets fired straight (emission range 0) stay at
    // z = 0 with their trails, so their depths tie and the id order decides,
    // while the bursts and sparks (cones of 2π) spread in z.
    var deep = fireworksLikeEffect()
    deep.emitter.renderMode = .backToFront
    deep.emitter.preservesDepth = true
    try deep.emitter.setValue(0, forKeyPath: "emitterCells.rocket.emissionRange")
    return [
      ("fireworks (additive)", try Effect.preset(named: "fireworks")), ("fireworks (unordered)", fireworks),
      ("fireworks-like, trail hidden 1.1–1.6 s", hiding), ("fireworks in 3D (backToFront)", deep),
    ]
  }

  @Test(arguments: [false, true])
  func framesEqualTheFullSort(compact: Bool) throws {
    for (name, effect) in try Self.effects() {
      for threads in [1, 2] {
        let configuration = ParticleSystemConfiguration(
          threads: threads, chunkSize: 64, computesAffines: true, computesIDs: true,
          instanceLayout: compact ? .compact : .full)
        let incremental = try ParticleSystem(effect: effect, configuration: configuration)
        let full = try ParticleSystem(effect: effect, configuration: configuration)
        full.paths.incrementalIDOrder = false
        var frames = (ParticleFrame(), ParticleFrame())
        var drawn = 0
        for step in 0..<150 {
          // Steps of 1/60 s, with a seek back every 40 frames and forward
          // every 40 (both systems alike).
          let t = 0.3 + Double(step) / 60 + (step % 40 == 20 ? -0.4 : 0) + (step % 40 == 30 ? 0.5 : 0)
          if step % 40 == 20 || step % 40 == 30 {
            incremental.seek(to: t)
            full.seek(to: t)
          } else {
            incremental.advance(to: max(t, incremental.localTime ?? 0))
            full.advance(to: max(t, full.localTime ?? 0))
          }
          incremental.render(into: &frames.0)
          full.render(into: &frames.1)
          let same = sameOutputs(frames.0, frames.1)
          #expect(same == (true, true, true, true), "\(name) at step \(step), \(threads) threads")
          drawn = max(drawn, frames.0.ids.count)
        }
        #expect(drawn > 100, "\(name) draws particles")
      }
    }
  }
}
