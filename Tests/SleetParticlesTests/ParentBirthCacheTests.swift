import Testing

@testable import SleetParticles

/// Steps and seeks with the sub-cells' parents kept between calls
/// (`ParticleSystem.parentBirths`, with each parent's `ChildCursor`)
/// against enumerating the parents anew each call: the same live records in
/// the same store order, and the same frames, through steps of several
/// sizes (a long one included), seeks back and forward, and jumps past the
/// cache, on effects with sub-cells two levels deep and with timed changes.
@Suite("Parents kept between steps = parents enumerated anew")
struct ParentBirthCacheTests {
  static func effects() throws -> [(String, Effect)] {
    let changing = try Effect(
      emitter: fireworksLikeEffect(seed: 3).emitter,
      changes: [
        PropertyChange(time: 0.8, keyPath: "emitterCells.rocket.emitterCells.burst.birthRate", value: .number(300)),
        PropertyChange(time: 1.7, keyPath: "emitterCells.rocket.birthRate", value: .number(6)),
      ])
    return [
      ("fireworks", try Effect.preset(named: "fireworks")), ("fireworks-like", fireworksLikeEffect()),
      ("fireworks-like with timed changes", changing),
    ]
  }

  /// The times visited: steps of 1/60 s, a long step, a seek back, a seek
  /// forward past the cache, then steps again.
  static let times: [(Double, seeks: Bool)] = {
    var times: [(Double, seeks: Bool)] = []
    var t = 0.0
    for step in 0..<200 {
      switch step {
      case 60: t += 0.9  // a long step
      case 100: t -= 0.7  // advance(to:) an earlier time seeks
      case 130:
        times.append((t + 5, seeks: true))  // past everything cached
        t += 5.05
      case 160:
        times.append((t + 1.0 / 60, seeks: true))  // a scrub forward: the cache extends
        t += 2.0 / 60
      default: t += 1.0 / 60
      }
      times.append((t, seeks: false))
    }
    return times
  }()

  @Test func stepsAndSeeksEqualEnumeratingAnew() throws {
    for (name, effect) in try Self.effects() {
      let kept = try ParticleSystem(effect: effect)
      let anew = try ParticleSystem(effect: effect)
      anew.paths.parentBirthCache = false
      var frames = (ParticleFrame(), ParticleFrame())
      var live = 0
      var cached = 0
      for (k, (t, seeks)) in Self.times.enumerated() {
        move(kept, anew, to: t, seeks: seeks)
        let records = (kept.liveRecords(), anew.liveRecords())
        #expect(records.0 == records.1, "\(name), time \(k): \(t) s")
        kept.render(into: &frames.0)
        anew.render(into: &frames.1)
        #expect(frames.0.instances == frames.1.instances, "\(name), time \(k): \(t) s")
        live = max(live, records.0.count)
        cached = max(cached, kept.births.parentBirths.compactMap { $0?.records.count }.reduce(0, +))
      }
      #expect(live > 100, "\(name) has particles")
      // The path under test ran: parents were kept.
      #expect(cached > 0 && anew.births.parentBirths.allSatisfy { $0 == nil }, "\(name) kept its parents")
      // Parents without a birth in a step were skipped by their cursors
      // (schedules of one rate: without timed changes), and none without
      // the cache.
      if effect.changes.isEmpty { #expect(kept.diagnostics.childCursorSkips > 0, "\(name) skipped parents") }
      #expect(anew.diagnostics.childCursorSkips == 0, "\(name)")
    }
  }

  /// Births exactly at a step's end: a parent every 0.25 s, its sub-cell's
  /// births every 0.125 s of its age, steps of 0.125 s, all exact in binary,
  /// so sub-cell birth times equal the steps' ends (a birth at `hi` belongs
  /// to that step, not the next: a cursor that skipped or walked past it
  /// would lose or repeat it), with a long step, a seek back and a seek
  /// forward on the way.
  @Test func birthsAtAStepsEndAreCountedOnce() throws {
    let child = testCell("child", birthRate: 8, lifetime: 1, velocity: 10) { $0.emissionRange = 2 * .pi }
    let parent = testCell("parent", birthRate: 4, lifetime: 2, velocity: 40) {
      $0.emissionRange = 2 * .pi
      $0.emitterCells = [child]
    }
    let effect = testEffect([parent])
    let kept = try ParticleSystem(effect: effect)
    let anew = try ParticleSystem(effect: effect)
    anew.paths.parentBirthCache = false
    var t = 0.0
    var live = 0
    for step in 0..<120 {
      switch step {
      case 40: t += 1.5  // a long step
      case 70: t -= 2  // advance(to:) an earlier time seeks
      default: t += 0.125
      }
      move(kept, anew, to: t, seeks: step == 90)
      let records = (kept.liveRecords(), anew.liveRecords())
      #expect(records.0 == records.1, "step \(step): \(t) s")
      live = max(live, records.0.count)
    }
    // Sub-cell births fell on step ends, and the cursors skipped parents.
    let onEnds = kept.liveRecords().filter { $0.cell == 1 && ($0.birthTime * 8).rounded() == $0.birthTime * 8 }
    #expect(!onEnds.isEmpty && live > 50 && kept.diagnostics.childCursorSkips > 0)
  }
}
