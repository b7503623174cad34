import SleetMath
import Testing

@testable import SleetParticles

/// The birth-delta stream (`docs/gpu.md`): a ring fed only with deltas,
/// evaluated by the naive closed form, gives `render(into:)`'s frame bit for
/// bit — instances, ids, counts and order — through steps, seeks, long and
/// backward steps, ring wrap-around and overflow.
@Suite("Birth-delta stream")
struct BirthDeltaStreamTests {
  /// Steps (`advance`) and jumps (`seek`) that cover short steps, a long
  /// step, a seek, a backward step and a step past several lifetimes.
  static let schedule: [(seek: Bool, time: Double)] =
    (0...90).map { (false, Double($0) / 60) } + [(false, 6.5), (true, 1.3), (false, 1.35), (false, 0.5)]
    + (0...40).map { (false, 30 + Double($0) / 30) }

  // The presets without emitter behaviors: the shader evaluates the closed
  // form, and GPUParticleRenderer refuses behaviors (GPUBehaviorRefusalTests).
  @Test(arguments: Effect.presetNames.filter { !(try! Effect.preset(named: $0)).emitter.hasBehaviors })
  func presetRingsReproduceRender(name: String) throws {
    let effect = try Effect.preset(named: name)
    let stats = try Self.compareRingWithRender(effect, label: name)
    #expect(stats.appends > 0 && stats.comparedParticles > 0, "\(name): nothing compared")
  }

  @Test func subCellsHiddenCellsAndDepthOrderReproduceRender() throws {
    // Sub-cells, a hidden cell (disabled trail), backToFront with depth.
    var effect = fireworksLikeEffect()
    effect.emitter.renderMode = .backToFront
    effect.emitter.preservesDepth = true
    effect.emitter.emitterCells[0].emitterCells[0].isEnabled = false
    _ = try Self.compareRingWithRender(effect, label: "fireworks-like backToFront")
    effect.emitter.renderMode = .oldestLast
    effect.emitter.preservesDepth = false
    _ = try Self.compareRingWithRender(effect, label: "fireworks-like oldestLast")
  }

  @Test func ringWrapsAroundAndOverflowFallsBackToASnapshot() throws {
    let effect = try Effect.preset(named: "rain")
    // The default capacity (the peak): the ring wraps, never overflows.
    let wrapping = try Self.compareRingWithRender(effect, label: "rain, peak capacity")
    #expect(wrapping.wraps > 0 && wrapping.overflows == 0)
    // Barely more than the live set: appends would overwrite live slots.
    let live = try ParticleSystem(effect: effect)
    live.seek(to: 10)
    let tight = try Self.compareRingWithRender(effect, capacity: live.liveCount + 3, label: "rain, tight capacity")
    #expect(tight.overflows > 0)
    // Smaller than the live set: an error, then a snapshot once it fits.
    let stream = try BirthDeltaStream(system: try ParticleSystem(effect: effect), capacity: 16)
    #expect(throws: BirthDeltaError.self) { try stream.seek(to: 10) }
    #expect(try stream.advance(to: 0.05).kind == .snapshot)
  }

  @Test func cappingSystemsAreRefused() throws {
    let system = try ParticleSystem(
      effect: try Effect.preset(named: "rain"), configuration: .init(budget: 10, overflowPolicy: .capOldestFirst))
    #expect(throws: BirthDeltaError.unsupportedOverflowPolicy) { try BirthDeltaStream(system: system) }
  }

  /// The death key decides life exactly as `BirthRecord.isAlive(at:)` does,
  /// at and around the boundary where `t − b` rounds to the lifetime.
  @Test func deathKeysMatchTheDoubleAgeRule() {
    var state: UInt64 = 11
    func uniform() -> Double {  // SplitMix64 → [0, 1)
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Double((z ^ (z >> 31)) >> 11) * 0x1p-53
    }
    for _ in 0..<2000 {
      let b = uniform() * 1000 * uniform()
      let lifetime = Float(uniform() * 20) + 0x1p-20
      let death = GPUBirthSlot.firstDeadTime(birthTime: b, lifetime: lifetime)
      var r = BirthRecord.sample(birthTime: b, lifetime: lifetime)
      r.id = 1
      let slot = GPUBirthSlot(r, constantsRow: 0)
      var t = death
      for _ in 0..<3 { t = t.nextDown }
      for _ in 0..<6 {
        #expect(
          slot.isAlive(atKey: GPUBirthSlot.orderedKey(t)) == r.isAlive(at: t), "b = \(b), L = \(lifetime), t = \(t)")
        t = t.nextUp
      }
      #expect(slot.isAlive(atKey: GPUBirthSlot.orderedKey(b.nextDown)) == false)
      #expect(GPUBirthSlot.time(forKey: GPUBirthSlot.orderedKey(b)) == b)
    }
    #expect(GPUBirthSlot.orderedKey(-1) < GPUBirthSlot.orderedKey(-0.0))
    #expect(GPUBirthSlot.orderedKey(-0.0) < GPUBirthSlot.orderedKey(0))
    #expect(GPUBirthSlot.orderedKey(0) < GPUBirthSlot.orderedKey(.leastNonzeroMagnitude))
  }

  struct Stats {
    var appends = 0
    var wraps = 0
    var overflows = 0
    var comparedParticles = 0
  }

  /// Runs ``schedule`` on a stream (ring mirror + reference evaluation) and
  /// on a plain system (`render`), comparing every frame's instances (bits),
  /// ids and batches.
  static func compareRingWithRender(_ effect: Effect, capacity: Int? = nil, label: String) throws -> Stats {
    let reference = try ParticleSystem(effect: effect, configuration: .init(computesIDs: true))
    let stream = try BirthDeltaStream(system: try ParticleSystem(effect: effect), capacity: capacity)
    var ring = BirthRing(capacity: stream.capacity)
    let constants = stream.constantsRows
    var expected = ParticleFrame()
    var actual = ParticleFrame()
    var stats = Stats()
    for (seek, time) in schedule {
      let delta = seek ? try stream.seek(to: time) : try stream.advance(to: time)
      if seek { reference.seek(to: time) } else { reference.advance(to: time) }
      ring.apply(delta)
      if delta.kind == .append {
        stats.appends += 1
        if delta.uploadRanges(capacity: stream.capacity).count == 2 { stats.wraps += 1 }
      } else if !seek && time > 1 && time != 0.5 && time != 6.5 {
        stats.overflows += 1
      }
      let parameters = stream.frameParameters()
      stream.finishFrame(ring.evaluate(parameters, constants: constants), parameters: parameters, into: &actual)
      reference.render(into: &expected)
      // Booleans, so a failure names the frame without printing it.
      let sameInstances = bits(actual.instances) == bits(expected.instances)
      let sameIDs = actual.ids == expected.ids
      #expect(sameInstances, "\(label) at \(time): instances differ")
      #expect(sameIDs, "\(label) at \(time): ids differ")
      #expect(actual.batches == expected.batches, "\(label) at \(time)")
      #expect(actual.cellPaths == expected.cellPaths && actual.sprites == expected.sprites)
      stats.comparedParticles += expected.instances.count
    }
    return stats
  }
}

/// The instances' bytes (exact comparison: −0 ≠ +0, NaN = NaN).
private func bits(_ instances: [ParticleInstance]) -> [UInt32] {
  instances.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
}

extension BirthRecord {
  /// A record with the given time and lifetime, everything else zero.
  static func sample(birthTime: Double, lifetime: Float) -> BirthRecord {
    BirthRecord(
      id: 0, cell: 0, birthTime: birthTime, lifetime: lifetime, position: .zero, velocity: .zero,
      halfAcceleration: .zero, scale: 1, scaleSpeed: 0, spin: 0, color: .one, colorSpeed: .zero,
      contentsRect: .zero, sprite: 0)
  }
}
