import Foundation
import SleetMath
import Testing

@testable import SleetParticles

/// The one-cell fast path, whole batches of eight births written as slab
/// blocks — sampled straight into the slab by the C kernel
/// (``ParticleStore/appendSampledBlock(_:times:at:constantsIndex:cell:lanes:avx2:)``,
/// in both of its copies) or, for shapes placed per lane, column by column
/// (``ParticleStore/appendBlock(_:times:constantsIndex:cell:)``) — against
/// its naive twin, the record-by-record ``ParticleSystem/append(_:)``
/// (`paths.blockAppend = false`): after every seek and step the two stores hold
/// the same bytes — every slot of every stored block including the tail
/// lanes, the ids and each block's surely-alive bound.
@Suite("Batched slab append equals the per-record append")
struct BatchedAppendTests {
  /// Everything the store holds, as bits.
  static func contents(_ system: ParticleSystem) -> [UInt64] {
    let store = system.store
    var out: [UInt64] = [UInt64(store.count)]
    let words = store.blocks.assumingMemoryBound(to: UInt32.self)
    for i in 0..<(store.blockCount * ParticleStore.blockBytes / 4) { out.append(UInt64(words[i])) }
    for i in 0..<store.count { out.append(store.id(i)) }
    for b in 0..<store.blockCount { out.append(store.surelyAliveBound(block: b).bitPattern) }
    return out
  }

  /// One-cell effects that reach every branch: the benchmark's steady state;
  /// lifetimes ≤ 0 in about a third of the lanes and short lives (dead lanes
  /// in seek windows and long steps); a window that opens and closes
  /// mid-batch with a phase (`beginTime`, `duration`, `timeOffset`); a
  /// point emitter without a cone; a circle outline (a point per lane, so
  /// the column-by-column path); key-path changes (segments, a rate change,
  /// a changed shape).
  static func effects() throws -> [(String, Effect)] {
    var out: [(String, Effect)] = []
    out.append(("steady", ParticleSystem.steadyStateEffect(liveParticles: 2_000, lifetime: 2)))
    out.append(
      (
        "dead lanes",
        testEffect([
          testCell("c", birthRate: 300, lifetime: 0.4, velocity: 20) {
            $0.lifetimeRange = 1.2
            $0.emissionRange = 1
            $0.spinRange = 1
          }
        ]) {
          $0.emitterShape = .cuboid
          $0.emitterMode = .volume
          $0.emitterSize = SIMD2(50, 20)
          $0.emitterDepth = 10
        }
      ))
    out.append(
      (
        "window",
        testEffect([
          testCell("c", birthRate: 157, lifetime: 3, velocity: 5) {
            $0.beginTime = 0.3
            $0.duration = 0.71
            $0.timeOffset = 0.0123
            $0.lifetimeRange = 1
          }
        ])
      ))
    out.append(
      (
        "point",
        testEffect([testCell("c", birthRate: 480, lifetime: 0.9)]) {
          $0.emitterShape = .point
          $0.seed = 99
        }
      ))
    out.append(
      (
        "circle outline",
        testEffect([testCell("c", birthRate: 350, lifetime: 0.7, velocity: 30) { $0.emissionRange = 0.5 }]) {
          $0.emitterShape = .circle
          $0.emitterMode = .outline
          $0.emitterSize = SIMD2(40, 40)
        }
      ))
    let segmentedBase = testEffect([
      testCell("a", birthRate: 211, lifetime: 0.8, velocity: 40) {
        $0.lifetimeRange = 0.6
        $0.emissionRange = 2
      }
    ]) {
      $0.emitterShape = .rectangle
      $0.emitterSize = SIMD2(100, 50)
    }
    let segmented = try Effect(
      emitter: segmentedBase.emitter,
      changes: [
        PropertyChange(time: 0.1013, keyPath: "emitterCells.a.velocity", value: .number(80)),
        PropertyChange(time: 0.2, keyPath: "emitterShape", value: .string("cuboid")),
        PropertyChange(time: 0.2571, keyPath: "emitterCells.a.birthRate", value: .number(733)),
        PropertyChange(time: 0.4, keyPath: "emitterCells.a.lifetimeRange", value: .number(0)),
        PropertyChange(time: 0.9, keyPath: "emitterCells.a.birthRate", value: .number(0)),
        PropertyChange(time: 1.1, keyPath: "emitterCells.a.birthRate", value: .number(95)),
      ])
    out.append(("segmented", segmented))
    return out
  }

  /// Frame steps of 1/60 s, odd steps (partial batches, misaligned blocks),
  /// a step longer than the lifetimes (only the last lifetime is
  /// enumerated, with dead lanes) and seeks forward and backward.
  static let schedule: [(seek: Bool, time: Double)] = [
    (true, 0.05), (false, 0.05 + 1 / 60.0), (false, 0.0831), (false, 0.0832), (false, 0.2), (false, 0.2571),
    (false, 0.31), (false, 0.55), (false, 0.9), (false, 1.05), (false, 1.3), (false, 3.7), (true, 1.01),
    (false, 1.0101), (false, 1.75), (true, 0.4), (false, 0.4 + 1 / 60.0), (false, 2.5),
  ]

  /// The birth kernel's copies to run: the build's, and AVX2 where the CPU
  /// has it.
  static let avx2Copies = SIMDBuildTarget.runsAVX2Kernels ? [false, true] : [false]

  @Test(arguments: avx2Copies)
  func blockAppendEqualsRecordAppend(avx2: Bool) throws {
    var blocksWritten = 0
    for (name, effect) in try Self.effects() {
      let fast = try ParticleSystem(effect: effect)
      fast.paths.avx2BirthKernels = avx2
      let naive = try ParticleSystem(effect: effect)
      naive.paths.blockAppend = false
      #expect(fast.tree.nodes.count == 1)
      for step in Self.schedule {
        if step.seek {
          fast.seek(to: step.time)
          naive.seek(to: step.time)
        } else {
          fast.advance(to: step.time)
          naive.advance(to: step.time)
        }
        let a = Self.contents(fast)
        let b = Self.contents(naive)
        // The first differing word (nil when equal): a short message on failure.
        let mismatch = a.count == b.count ? a.indices.first { a[$0] != b[$0] } : -1
        #expect(mismatch == nil, "\(name) at \(step.time): \(a.count) against \(b.count) words")
      }
      #expect(fast.store.blocksAppended > 0, "\(name): the block path never ran")
      #expect(naive.store.blocksAppended == 0)
      blocksWritten += fast.store.blocksAppended
      // The rendered frames agree as well (what users see).
      var frameA = ParticleFrame()
      var frameB = ParticleFrame()
      fast.render(into: &frameA)
      naive.render(into: &frameB)
      #expect(bits(frameA) == bits(frameB), "\(name)")
    }
    #expect(blocksWritten > 500)
  }

  /// ``BirthSchedule/uniformBirthTimes(_:in:lanes:)`` against
  /// ``BirthSchedule/birthTime(_:in:)`` lane by lane, with phases, a closing
  /// window (nil exactly when the last lane asked for is outside), large
  /// indices and the exactness limit.
  @Test func uniformBirthTimesEqualTheScalarSchedule() {
    let windows = [
      ActivityWindow(start: 0, length: .infinity, phase: 0),
      ActivityWindow(start: 0.3, length: 0.71, phase: 0.37),
      ActivityWindow(start: 2.3, length: 0.1, phase: 0),
      ActivityWindow(start: 1e-3, length: 1e6, phase: 0.999_999),
    ]
    var compared = 0
    var closed = 0
    for rate: Double in [1, 150, 1_048_576, 333.3, 0.7] {
      let schedule = BirthSchedule(segmentStarts: [-.infinity], rates: [rate])
      for window in windows {
        let near = Int((window.length.isFinite ? window.length * rate : 100).rounded(.down))
        let starts = [0, 1, 5, 13, Swift.max(0, near - 9), Swift.max(0, near - 4), near, (1 << 40) + 3, (1 << 53) - 8]
        for k in starts {
          for lanes in 1...8 {
            let vector = schedule.uniformBirthTimes(k, in: window, lanes: lanes)
            let scalar = (0..<lanes).map { schedule.birthTime(k + $0, in: window) }
            if let vector {
              for l in 0..<lanes {
                #expect(scalar[l]?.bitPattern == vector[l].bitPattern, "rate \(rate) k \(k) lane \(l)")
              }
              compared += lanes
            } else {
              // Nil only when the last lane asked for is outside the window.
              #expect(scalar[lanes - 1] == nil, "rate \(rate) k \(k) lanes \(lanes)")
              closed += 1
            }
          }
        }
      }
    }
    #expect(compared > 1_000)
    #expect(closed > 10)
    // Past the exact range, and with several segments: nil (the caller asks per birth).
    let one = BirthSchedule(segmentStarts: [-.infinity], rates: [10])
    let open = ActivityWindow(start: 0, length: .infinity, phase: 0)
    #expect(one.uniformBirthTimes((1 << 53) - 7, in: open, lanes: 8) == nil)
    let two = BirthSchedule(segmentStarts: [-.infinity, 1], rates: [10, 20])
    #expect(two.uniformBirthTimes(0, in: open, lanes: 8) == nil)
  }
}
