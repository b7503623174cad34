import Foundation
import SleetMath
import Testing

@testable import SleetParticles

/// The batched top-level sampler (``BirthBatch``, eight births per step, and
/// ``ParticleSystem/forEachTopLevelBirth(node:after:through:_:)`` built on it)
/// against its naive twin, the scalar ``BirthSampler``: bit for bit.
@Suite("Batched birth sampling equals the scalar sampler")
struct BirthBatchTests {
  /// Every field of a record as bits (`==` on Float would equate −0 and 0).
  static func bits(_ r: BirthRecord) -> [UInt64] {
    let floats: [Float] = [
      r.lifetime, r.position.x, r.position.y, r.position.z, r.velocity.x, r.velocity.y, r.velocity.z,
      r.halfAcceleration.x, r.halfAcceleration.y, r.halfAcceleration.z, r.scale, r.scaleSpeed, r.spin,
      r.color.x, r.color.y, r.color.z, r.color.w, r.colorSpeed.x, r.colorSpeed.y, r.colorSpeed.z,
      r.colorSpeed.w, r.contentsRect.x, r.contentsRect.y, r.contentsRect.z, r.contentsRect.w,
    ]
    return [r.id, UInt64(r.cell), r.birthTime.bitPattern, UInt64(r.sprite)] + floats.map { UInt64($0.bitPattern) }
  }

  /// A cell exercising every sampled attribute; `lifetimeRange` 3 around a
  /// lifetime of 1 makes about a third of the births lifetime ≤ 0.
  static func cell(_ name: String, range: Float, latitude: Float = 0.3, rate: Float = 40) -> EmitterCell {
    testCell(name, birthRate: rate, lifetime: 1, velocity: 30) {
      $0.lifetimeRange = 3
      $0.velocityRange = 25
      $0.emissionRange = range
      $0.emissionLongitude = 0.7
      $0.emissionLatitude = latitude
      $0.scale = 0.8
      $0.scaleRange = 0.5
      $0.scaleSpeed = -0.1
      $0.spin = 1.5
      $0.spinRange = 2
      $0.redRange = 0.3
      $0.greenRange = 0.2
      $0.blueRange = 0.1
      $0.alphaRange = 0.4
      $0.alphaSpeed = -0.2
      $0.xAcceleration = 3
      $0.yAcceleration = -7
    }
  }

  static let ranges: [Float] = [0, 1e-4, 1, 3, 2 * .pi, 7]

  /// Effects over all shapes × modes and cone ranges (0, tiny, < 2π, 2π,
  /// > 2π), several top-level cells (node numbers > 0), an axis near +z
  /// (latitude π/2, the other basis branch), layer multipliers ≠ 1 and a
  /// −0 emitter z.
  static func effects() -> [Effect] {
    var out: [Effect] = []
    for shape in EmitterShape.allCases {
      for mode in EmitterMode.allCases {
        let cells = ranges.enumerated().map { i, r in
          cell("c\(i)", range: r, latitude: i == 3 ? .pi / 2 : 0.3)
        }
        out.append(
          testEffect(cells) {
            $0.emitterShape = shape
            $0.emitterMode = mode
            $0.emitterPosition = SIMD2(120, -40)
            $0.emitterZPosition = mode == .points ? -0.0 : 5
            $0.emitterSize = SIMD2(300, 70)
            $0.emitterDepth = 40
            $0.seed = 0x5EED_0000 &+ UInt32(out.count)
            if shape == .circle || mode == .outline {
              $0.lifetime = 1.5
              $0.velocity = 0.5
              $0.scale = 2
              $0.spin = -1
              $0.birthRate = 1.3
            }
          })
      }
    }
    return out
  }

  /// The births of top-level `node` in (lo, hi] the pre-batching way: one
  /// scalar sample per index, parameters looked up per birth.
  static func scalarBirths(_ system: ParticleSystem, node: Int, after lo: Double, through hi: Double) -> [BirthRecord] {
    let tree = system.tree
    let n = tree.nodes[node]
    guard let window = n.window(origin: 0, parentLifetime: nil) else { return [] }
    let first = n.schedule.count(in: window, upTo: lo)
    let last = n.schedule.count(in: window, upTo: hi)
    var out: [BirthRecord] = []
    for k in first..<Swift.max(first, last) {
      guard let tb = n.schedule.birthTime(k, in: window) else { break }
      if let r = BirthSampler.topLevel(tree: tree, seed: system.effect.emitter.seed, node: node, k: k, birthTime: tb) {
        out.append(r)
      }
    }
    return out
  }

  static func batchedBirths(_ system: ParticleSystem, node: Int, after lo: Double, through hi: Double) -> [BirthRecord]
  {
    var out: [BirthRecord] = []
    system.births.forEachTopLevelBirth(node: node, after: lo, through: hi) { out.append($0) }
    return out
  }

  /// Intervals whose first birth index is not a multiple of 8 and whose
  /// counts leave partial batches (1…7 lanes), plus a long one.
  static let intervals: [(Double, Double)] = [(0, 0.02), (0, 0.2), (0.013, 0.4), (0.31, 0.33), (-1, 5.3)]

  @Test func forEachTopLevelBirthEqualsTheScalarSampler() throws {
    var births = 0
    var skipped = 0
    for effect in Self.effects() {
      let system = try ParticleSystem(effect: effect)
      for node in system.tree.nodes.indices where system.tree.nodes[node].parent == nil {
        for (lo, hi) in Self.intervals {
          let scalar = Self.scalarBirths(system, node: node, after: lo, through: hi)
          let batched = Self.batchedBirths(system, node: node, after: lo, through: hi)
          #expect(scalar.map(Self.bits) == batched.map(Self.bits), "\(effect.emitter.emitterShape) node \(node)")
          births += batched.count
          let n = system.tree.nodes[node]
          let window = try #require(n.window(origin: 0, parentLifetime: nil))
          skipped += n.schedule.count(in: window, upTo: hi) - n.schedule.count(in: window, upTo: lo) - scalar.count
        }
      }
    }
    // Enough births, and lifetime ≤ 0 births skipped (their indices consumed).
    #expect(births > 25_000)
    #expect(skipped > 5_000)
  }

  /// The kernel's copies to test: the build target's, and the AVX2 copy
  /// where this CPU runs it (`sleet_sample_births8_avx2`; compiled
  /// separately in a build without AVX2).
  static let copies = SIMDBuildTarget.runsAVX2Kernels ? [false, true] : [false]

  /// Each lane of a batch against the scalar sample of its index, including
  /// the lanes of a last partial batch and a batch whose low counter word
  /// wraps (birth index 2³² − 3 …), over every shape × mode, in both copies
  /// of the kernel.
  @Test(arguments: copies)
  func everyLaneEqualsTheScalarSample(avx2: Bool) throws {
    for effect in Self.effects() {
      let tree = CellTree(effect: effect)
      let seed = effect.emitter.seed
      for node in tree.nodes.indices {
        let n = tree.nodes[node]
        let p = n.parameters[0]
        let basis = Emission.basis(axis: p.axis)
        for first in [0, 5, 1 << 20, (1 << 32) - 3, (1 << 32) - 8, (1 << 40) + 7, (1 << 56) - 8] {
          let batch = BirthBatch(p, basis: basis, key: n.key, seed: seed, first: first, avx2: avx2)
          for l in 0..<8 {
            let r = BirthSampler.topLevel(p, node: node, key: n.key, seed: seed, k: first + l, birthTime: 1.5)
            if let r {
              #expect(
                Self.bits(r) == Self.bits(batch.record(l, p, node: node, birthTime: 1.5)),
                "\(effect.emitter.emitterShape) \(effect.emitter.emitterMode) node \(node) birth \(first + l)")
            } else {
              #expect(!(batch.lifetime[l] > 0))
            }
          }
        }
      }
    }
  }

  /// Key-path changes (a segmented effect): batches that would cross a
  /// segment boundary are split there, and a rate change moves births
  /// across batches.
  @Test func segmentedEffectsEqualTheScalarSampler() throws {
    let cells = [Self.cell("a", range: 1, rate: 37), Self.cell("b", range: 0, rate: 101)]
    let base = testEffect(cells) {
      $0.emitterShape = .rectangle
      $0.emitterSize = SIMD2(100, 50)
    }
    let effect = try Effect(
      emitter: base.emitter,
      changes: [
        PropertyChange(time: 0.1013, keyPath: "emitterCells.a.velocity", value: .number(80)),
        PropertyChange(time: 0.1013, keyPath: "scale", value: .number(3)),
        PropertyChange(time: 0.2, keyPath: "emitterPosition", value: .vector([50, 60])),
        PropertyChange(time: 0.2, keyPath: "emitterShape", value: .string("cuboid")),
        PropertyChange(time: 0.2571, keyPath: "emitterCells.b.birthRate", value: .number(333)),
        PropertyChange(time: 0.2571, keyPath: "emitterCells.a.emissionRange", value: .number(0)),
        PropertyChange(time: 0.4, keyPath: "emitterCells.b.lifetimeRange", value: .number(0)),
      ])
    let system = try ParticleSystem(effect: effect)
    #expect(system.tree.segmentStarts.count > 1)
    for node in system.tree.nodes.indices {
      for (lo, hi) in Self.intervals + [(0.1, 0.3), (0.25, 0.26)] {
        let scalar = Self.scalarBirths(system, node: node, after: lo, through: hi)
        let batched = Self.batchedBirths(system, node: node, after: lo, through: hi)
        #expect(scalar.map(Self.bits) == batched.map(Self.bits))
      }
    }
  }
}
