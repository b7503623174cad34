import Testing

@testable import SleetParticles

/// The births-only source of the birth-delta stream (`docs/gpu.md`) gives
/// the full-system source's deltas bit for bit — kind, first slot, every
/// slot's 96 bytes, the ring window, the uniforms and the errors — for every
/// preset and for sub-cells, timed changes, tight rings (wrap-around and
/// overflow snapshots) and a ring smaller than the live set, through steps,
/// a long step, seeks and backward steps; and it keeps no live particle.
@Suite("Births-only birth-delta stream")
struct BirthsOnlyStreamTests {
  @Test(arguments: Effect.presetNames)
  func presetDeltasEqualTheFullSystemStream(name: String) throws {
    let effect = try Effect.preset(named: name)
    let stats = try Self.compareSources(effect, label: name)
    #expect(stats.appendedSlots > 0 && stats.snapshots > 0, "\(name): nothing compared")
    // A ring barely larger than the live set at the schedule's last steps:
    // wrap-around or overflow there for the steady effects, and a ring too
    // small for the live set before for the others (the errors compared).
    _ = try Self.compareSources(effect, capacity: try Self.liveCount(effect, at: 30) + 3, label: "\(name), tight ring")
  }

  @Test func wrapAroundAndOverflowSnapshotsEqualTheFullSystemStream() throws {
    let effect = try Effect.preset(named: "rain")
    let wrapping = try Self.compareSources(effect, label: "rain")
    #expect(wrapping.wraps > 0)
    let tight = try Self.compareSources(effect, capacity: try Self.liveCount(effect, at: 30) + 3, label: "rain, tight")
    // Three snapshots are the schedule's (first step, seek, backward step);
    // the others are overflows.
    #expect(tight.wraps > 0 && tight.snapshots > 3)
  }

  @Test func subCellsHiddenCellsAndTimedChangesEqualTheFullSystemStream() throws {
    var effect = fireworksLikeEffect(seed: 3)
    effect.emitter.renderMode = .backToFront
    effect.emitter.emitterCells[0].emitterCells[0].isEnabled = false
    let stats = try Self.compareSources(effect, label: "fireworks-like")
    #expect(stats.appendedSlots > 0)
    // Timed changes: rate segments, a changed sub-cell, a changed position.
    let changed = try Effect(
      emitter: fireworksLikeEffect(seed: 5).emitter,
      changes: [
        PropertyChange(time: 0.7, keyPath: "emitterCells.rocket.birthRate", value: .number(6)),
        PropertyChange(time: 1.2, keyPath: "emitterCells.rocket.emitterCells.burst.velocity", value: .number(20)),
        PropertyChange(time: 1.4, keyPath: "emitterPosition", value: .vector([50, 60])),
        PropertyChange(time: 31, keyPath: "birthRate", value: .number(0.5)),
      ])
    let changedStats = try Self.compareSources(changed, label: "fireworks-like with changes")
    #expect(changedStats.appendedSlots > 0)
  }

  @Test func capacityErrorsMatchTheFullSystemStream() throws {
    let effect = try Effect.preset(named: "rain")
    let full = try BirthDeltaStream(system: try ParticleSystem(effect: effect), capacity: 16, source: .fullSystem)
    let births = try BirthDeltaStream(system: try ParticleSystem(effect: effect), capacity: 16)
    #expect(births.source == .birthsOnly)
    #expect(throws: BirthDeltaError.capacityExceeded(live: try Self.liveCount(effect, at: 10), capacity: 16)) {
      try births.seek(to: 10)
    }
    #expect(throws: BirthDeltaError.self) { try full.seek(to: 10) }
    let a = try full.advance(to: 0.05)
    let b = try births.advance(to: 0.05)
    #expect(a.kind == .snapshot && Self.same(a, b))
  }

  @Test func theBirthsOnlySourceNeverStepsTheSystem() throws {
    let stream = try BirthDeltaStream(system: try ParticleSystem(effect: try Effect.preset(named: "snow")))
    _ = try stream.seek(to: 5)
    _ = try stream.advance(to: 5.5)
    #expect(stream.system.localTime == nil && stream.system.store.count == 0)
    #expect(stream.localTime == 5.5)
  }

  struct Stats {
    var appendedSlots = 0
    var snapshots = 0
    var wraps = 0
  }

  /// Runs `BirthDeltaStreamTests.schedule` on two streams over the same
  /// effect, one per source, and expects equal deltas (bits), uniforms and
  /// errors at every step.
  static func compareSources(_ effect: Effect, capacity: Int? = nil, label: String) throws -> Stats {
    let full = try BirthDeltaStream(
      system: try ParticleSystem(effect: effect), capacity: capacity, source: .fullSystem)
    let births = try BirthDeltaStream(system: try ParticleSystem(effect: effect), capacity: capacity)
    #expect(full.constantsRows.map(\.bitPattern) == births.constantsRows.map(\.bitPattern))
    var stats = Stats()
    for (seek, time) in BirthDeltaStreamTests.schedule {
      let expected: Result<BirthDelta, BirthDeltaError>
      let actual: Result<BirthDelta, BirthDeltaError>
      do throws(BirthDeltaError) {
        expected = .success(seek ? try full.seek(to: time) : try full.advance(to: time))
      } catch {
        expected = .failure(error)
      }
      do throws(BirthDeltaError) {
        actual = .success(seek ? try births.seek(to: time) : try births.advance(to: time))
      } catch {
        actual = .failure(error)
      }
      switch (expected, actual) {
      case (.success(let e), .success(let a)):
        #expect(same(e, a), "\(label) at \(time): deltas differ")
        if e.kind == .snapshot { stats.snapshots += 1 } else { stats.appendedSlots += e.slots.count }
        if e.uploadRanges(capacity: full.capacity).count == 2 { stats.wraps += 1 }
      case (.failure(let e), .failure(let a)):
        #expect(e == a, "\(label) at \(time)")
      default:
        Issue.record("\(label) at \(time): \(expected) vs \(actual)")
      }
      #expect(full.frameParameters() == births.frameParameters(), "\(label) at \(time): uniforms differ")
    }
    return stats
  }

  /// Whether two deltas are equal, slots compared byte for byte.
  static func same(_ a: BirthDelta, _ b: BirthDelta) -> Bool {
    a.kind == b.kind && a.firstSlot == b.firstSlot && a.ringStart == b.ringStart && a.ringCount == b.ringCount
      && a.slots.withUnsafeBytes { x in b.slots.withUnsafeBytes { y in x.elementsEqual(y) } }
  }

  static func liveCount(_ effect: Effect, at time: Double) throws -> Int {
    let system = try ParticleSystem(effect: effect)
    system.seek(to: time)
    return system.liveCount
  }
}
