import Foundation
import SleetMath
import Testing

@testable import SleetParticles

/// Animated birth rates (docs/semantics.md, "Animated birth rates"): the
/// schedule runs piecewise linear, its birth times invert the integral in
/// closed form, and seeking and stepping agree bit for bit.
@Suite("Animated birth rates")
struct AnimatedRateTests {
  /// One top-level cell `c` of rate `rate` and long lifetime, with `changes`.
  static func effect(rate: Float, _ changes: [PropertyChange]) throws -> Effect {
    let emitter = testEffect([testCell("c", birthRate: rate, lifetime: 100)]).emitter
    return try Effect(emitter: emitter, changes: changes)
  }

  static let open = ActivityWindow(start: 0, length: .infinity, phase: 0)

  @Test func linearRampBirthTimesSolveTheClosedForm() throws {
    // The layer's rate 1 → 0 over 1 s from t = 0.5 (iMessage confetti): the
    // cell's rate is 99/s until 0.5, then 99·(1 − (t − 0.5)), then 0.
    let effect = try Self.effect(
      rate: 99, [PropertyChange(time: 0.5, keyPath: "birthRate", value: 0, duration: 1)])
    let schedule = CellTree(effect: effect).nodes[0].schedule
    #expect(schedule.isSloped)
    // Births k < 49 come before 0.5 (at (k + 1)/99); the rest solve
    // k + 1 − 49.5 = 99·τ − ½·99·τ², τ = t − 0.5, on the ramp.
    var k = 0
    while let t = schedule.birthTime(k, in: Self.open) {
      let exact: Double
      if Double(k + 1) <= 49.5 {
        exact = Double(k + 1) / 99
      } else {
        let rest = Double(k + 1) - 49.5
        exact = 0.5 + (1 - (1 - 2 * rest / 99).squareRoot())
      }
      #expect(abs(t - exact) <= 1e-12, "birth \(k): \(t) vs \(exact)")
      k += 1
    }
    // ∫ = 49.5 + 49.5 = 99: births k = 0 … 98, none after the ramp.
    #expect(k == 98 || k == 99)
    let system = try ParticleSystem(effect: effect)
    system.seek(to: 3)
    #expect(system.liveCount == k)
    let times = system.particles().map(\.birthTime).sorted()
    #expect(times == (0..<k).map { schedule.birthTime($0, in: Self.open)! })
  }

  @Test func rampFromZeroInvertsTheSquareRoot() {
    // Rate 0 → 8/s over [1, 3] (slope 4): I(τ) = 2τ², birth k at 1 + √((k + 1)/2).
    let s = BirthSchedule(segmentStarts: [-.infinity, 1, 3], rates: [0, 0, 8], slopes: [0, 4, 0])
    for k in 0..<7 {
      let exact = 1 + (Double(k + 1) / 2).squareRoot()
      #expect(abs(s.birthTime(k, in: Self.open)! - exact) <= 1e-12, "birth \(k)")
    }
    // ∫[1, 3] = 8: birth 7 is the first of the constant segment, 1/8 s after it.
    #expect(abs(s.birthTime(8, in: Self.open)! - 3.125) <= 1e-12)
    #expect(s.maximumRate == 8)
    #expect(s.rate(at: 2) == 4)
    #expect(s.emission(in: Self.open)?.open == 1)
    var n = 0
    for step in 0...400 {
      let t = Double(step) * 0.01
      while let b = s.birthTime(n, in: Self.open), b <= t { n += 1 }
      #expect(s.count(in: Self.open, upTo: t) == n)
      #expect(abs(s.integral(from: 0, to: t) - Self.rampIntegral(t)) <= 1e-12)
    }
  }

  @Test func aWindowOpeningInsideARampStartsFromTheRateThere() {
    // The ramp 0 → 8/s over [1, 3]; a sub-cell's window opens at 1.5 (rate
    // 2/s) with phase 0.25: I(τ) = 2τ + 2τ², birth k where it reaches k + 0.75.
    let s = BirthSchedule(segmentStarts: [-.infinity, 1, 3], rates: [0, 0, 8], slopes: [0, 4, 0])
    let window = ActivityWindow(start: 1.5, length: 1.2, phase: 0.25)
    var k = 0
    while let t = s.birthTime(k, in: window) {
      let exact = 1.5 + (-2 + (4 + 8 * (Double(k) + 0.75)).squareRoot()) / 4
      #expect(abs(t - exact) <= 1e-12, "birth \(k)")
      k += 1
    }
    // I(1.2) = 2.4 + 2.88 = 5.28: births k + 0.75 ≤ 5.28, k = 0 … 4.
    #expect(k == 5)
    #expect(s.count(in: window, upTo: 10) == 5)
  }

  /// ∫[0, t] of the rate 0 → 8 over [1, 3], then 8.
  static func rampIntegral(_ t: Double) -> Double {
    t <= 1 ? 0 : t <= 3 ? 2 * (t - 1) * (t - 1) : 8 + 8 * (t - 3)
  }

  static let animatedFireworks: [(String, [PropertyChange])] = [
    ("linear, layer", [PropertyChange(time: 0.5, keyPath: "birthRate", value: 0.2, duration: 1)]),
    (
      "easeOut, top-level cell",
      [
        PropertyChange(
          time: 0.3, keyPath: "emitterCells.rocket.birthRate", value: 8, duration: 1.5, timingFunction: .easeOut)
      ]
    ),
    (
      "keyframes, sub-cell",
      [
        PropertyChange(
          time: 0.2, keyPath: "emitterCells.rocket.emitterCells.trail.birthRate", duration: 2,
          keyTimes: [0, 0.3, 0.3, 1], values: [60, 200, 20, 0])
      ]
    ),
    (
      "all at once, Bézier keyframes on a sub-sub-cell",
      [
        PropertyChange(time: 0, keyPath: "birthRate", value: 3, duration: 2.5, timingFunction: .easeInEaseOut),
        PropertyChange(time: 0.4, keyPath: "emitterCells.rocket.birthRate", value: 0.5, duration: 1),
        PropertyChange(
          time: 0.1, keyPath: "emitterCells.rocket.emitterCells.burst.emitterCells.spark.birthRate", duration: 2,
          keyTimes: [0, 0.5, 1], values: [0, 300, 10], timingFunction: .easeIn),
      ]
    ),
  ]

  @Test(arguments: animatedFireworks.indices)
  func seekEqualsStepBitForBit(_ i: Int) throws {
    let (name, changes) = Self.animatedFireworks[i]
    let effect = try Effect(emitter: fireworksLikeEffect(seed: 5).emitter, changes: changes)
    let stepper = try ParticleSystem(effect: effect)
    for n in 0...210 {
      let t = Double(n) / 60
      stepper.advance(to: t)
      if n % 15 == 0 {
        let seeker = try ParticleSystem(effect: effect)
        seeker.seek(to: t)
        let stepped = stepper.particles()
        #expect(stepped.map(\.id) == seeker.particles().map(\.id), "\(name), t = \(t)")
        #expect(bits(stepped) == bits(seeker.particles()), "\(name), t = \(t)")
        #expect(stepper.liveCount <= ParticleSystem.peak(CellTree(effect: effect)), "\(name)")
      }
    }
    // The animations change the births: not the unanimated effect's particles.
    let plain = try ParticleSystem(effect: fireworksLikeEffect(seed: 5))
    plain.seek(to: 3.5)
    #expect(plain.particles().map(\.id) != stepper.particles().map(\.id), "\(name)")
  }

  /// The stated tolerances (CellTree.pacedPieces): the largest deviation of
  /// the pieces' rate from the paced rate, as a fraction of the change.
  @Test(arguments: zip([TimingFunction.easeIn, .easeOut, .easeInEaseOut, .default], [6e-4, 6e-4, 6e-4, 1.6e-3]))
  func bezierRampStaysWithinTheStatedTolerance(_ pace: TimingFunction, _ tolerance: Double) throws {
    // A cell at 1000/s, the layer's rate 1 → 0 over [0, 1] under `pace`.
    let effect = try Self.effect(
      rate: 1000, [PropertyChange(time: 0, keyPath: "birthRate", value: 0, duration: 1, timingFunction: pace)])
    let schedule = CellTree(effect: effect).nodes[0].schedule
    func paced(_ t: Double) -> Double { 1000 * (1 - pace.value(at: t)) }
    // The deviation of the rate, against the tolerance of the change (1000/s).
    let bound = tolerance * 1000
    var deviation = 0.0
    for i in 0...20_000 {
      let t = Double(i) / 20_000
      deviation = max(deviation, abs(schedule.rate(at: t) - paced(t)))
    }
    #expect(deviation <= bound, "\(pace): \(deviation)")
    // Births against a brute-force integral of the paced rate (the midpoint
    // rule on 2·10⁵ steps, accurate far below the bound).
    let steps = 200_000
    var exact = 0.0
    for i in 0..<steps {
      let t = (Double(i) + 0.5) / Double(steps)
      exact += paced(t) / Double(steps)
      if (i + 1) % 1000 == 0 {
        let upTo = Double(i + 1) / Double(steps)
        let count = Double(schedule.count(in: Self.open, upTo: upTo))
        #expect(count >= (exact - bound).rounded(.down) && count <= (exact + bound).rounded(.down), "\(pace) t \(upTo)")
      }
    }
    #expect(schedule.count(in: Self.open, upTo: 10) == schedule.count(in: Self.open, upTo: 1))
  }

  @Test(arguments: [TimingFunction.linear, .easeOut])
  func aRateAnimatedToZeroStopsBirths(_ pace: TimingFunction) throws {
    let effect = try Effect(
      emitter: fireworksLikeEffect(seed: 3).emitter,
      changes: [
        PropertyChange(
          time: 0.5, keyPath: "emitterCells.rocket.emitterCells.trail.birthRate", value: 0, duration: 0.5,
          timingFunction: pace),
        PropertyChange(
          time: 1, keyPath: "emitterCells.rocket.birthRate", value: 0, duration: 0.5, timingFunction: pace),
      ])
    let system = try ParticleSystem(effect: effect)
    var trails = 0
    for n in 1...150 {
      system.advance(to: Double(n) / 60)
      let particles = system.particles()
      trails = max(trails, particles.filter { $0.cellPath == "rocket.trail" }.count)
      #expect(!particles.contains { $0.cellPath == "rocket.trail" && $0.birthTime > 1 })
      #expect(!particles.contains { $0.cellPath == "rocket" && $0.birthTime > 1.5 })
    }
    #expect(trails > 0)
    let tree = CellTree(effect: effect)
    #expect(tree.nodes[0].schedule.rate(at: 1.5) == 0)
    #expect(
      tree.nodes[0].schedule.count(in: Self.open, upTo: 1.5) == tree.nodes[0].schedule.count(in: Self.open, upTo: 100))
  }

  @Test func piecesFollowTheTimingFunction() throws {
    // Linear: the start and end; keyframes: each key time; Bézier: N pieces.
    let linear = try Self.effect(
      rate: 10, [PropertyChange(time: 1, keyPath: "emitterCells.c.birthRate", value: 0, duration: 2)])
    #expect(CellTree(effect: linear).segmentStarts == [-.infinity, 1, 3])
    let keyframes = try Self.effect(
      rate: 10,
      [PropertyChange(time: 1, keyPath: "birthRate", duration: 2, keyTimes: [0, 0.25, 1], values: [1, 4, 0])])
    #expect(CellTree(effect: keyframes).segmentStarts == [-.infinity, 1, 1.5, 3])
    #expect(CellTree(effect: keyframes).nodes[0].schedule.rate(at: 1.5) == 40)
    let bezier = try Self.effect(
      rate: 10, [PropertyChange(time: 1, keyPath: "birthRate", value: 0, duration: 2, timingFunction: .easeIn)])
    #expect(CellTree(effect: bezier).segmentStarts.count == 2 + CellTree.pacedPieces)
    // Without animations, no slopes and no extra segments.
    let stepped = try Self.effect(rate: 10, [PropertyChange(time: 1, keyPath: "birthRate", value: 0)])
    #expect(CellTree(effect: stepped).segmentStarts == [-.infinity, 1])
    #expect(!CellTree(effect: stepped).nodes[0].schedule.isSloped)
  }
}

@Suite("Animated birth rates: the reference and the consumers")
struct AnimatedRateReferenceTests {
  @Test(arguments: [TimingFunction.linear, .easeOut, TimingFunction(controlPoints: 0.3, -0.4, 0.7, 1.4)])
  func segmentEndsCarryTheReferenceValue(_ pace: TimingFunction) throws {
    // A sub-cell's rate under keyframes and the layer's under `pace`, at
    // once: every segment start carries cell × layer × speed from
    // `Effect.value(forKeyPath:at:)`.
    var parent = testCell("p", birthRate: 2, lifetime: 4)
    parent.emitterCells = [testCell("k", birthRate: 30, lifetime: 1) { $0.speed = 1.5 }]
    let changes = [
      PropertyChange(time: 0.5, keyPath: "birthRate", value: 2, duration: 2, timingFunction: pace),
      PropertyChange(
        time: 1, keyPath: "emitterCells.p.emitterCells.k.birthRate", duration: 1, keyTimes: [0, 0.4, 1],
        values: [5, 60, 0]),
    ]
    let effect = try Effect(emitter: testEffect([parent]).emitter, changes: changes)
    let tree = CellTree(effect: effect)
    let schedule = tree.nodes[1].schedule
    #expect(schedule.isSloped)
    for t in tree.segmentStarts.dropFirst() {
      guard case .number(let layer) = try effect.value(forKeyPath: "birthRate", at: t),
        case .number(let cell) = try effect.value(forKeyPath: "emitterCells.p.emitterCells.k.birthRate", at: t)
      else { Issue.record("not numbers"); continue }
      let reference = max(0, cell * layer * 1.5)
      #expect(abs(schedule.rate(at: t) - reference) <= 1e-9 * max(1, reference), "t = \(t)")
    }
    #expect(schedule.rate(at: 10) == 0)
    #expect(tree.nodes[0].schedule.rate(at: 10) == 4)
  }

  @Test func aRampFromZeroEmitsForThePreviewAndTheLimits() throws {
    // The layer's rate is 0 at time 0 and rises to 1 over [1, 2]: the
    // effect emits from 1 s on, and its peak and time limit see 50/s.
    var emitter = testEffect([testCell("c", birthRate: 50, lifetime: 2)]).emitter
    emitter.birthRate = 0
    let effect = try Effect(
      emitter: emitter, changes: [PropertyChange(time: 1, keyPath: "birthRate", value: 1, duration: 1)])
    let tree = CellTree(effect: effect)
    #expect(tree.nodes[0].schedule.maximumRate == 50)
    #expect(tree.nodes[0].exactMaximumLifetime == 2)
    #expect(ParticleSystem.peak(tree) == 101)
    #expect(effect.previewTimes.kind != .empty)
    let system = try ParticleSystem(effect: effect)
    system.seek(to: 1)
    #expect(system.liveCount == 0)
    system.seek(to: 2)
    // ∫[1, 2] 50·(t − 1) dt = 25.
    #expect(system.liveCount == 25)
  }

  @Test func theBirthDeltaStreamReproducesRenderWithAnimatedRates() throws {
    for (name, changes) in AnimatedRateTests.animatedFireworks {
      let effect = try Effect(emitter: fireworksLikeEffect(seed: 5).emitter, changes: changes)
      let stats = try BirthDeltaStreamTests.compareRingWithRender(effect, label: name)
      #expect(stats.appends > 0 && stats.comparedParticles > 0, "\(name): nothing compared")
    }
  }

  @Test func confettiFileReadsAndRoundTrips() throws {
    let text = """
      {"format": 1, "emitterCells": [{"name": "confetti", "birthRate": 120, "lifetime": 3}],
       "changes": [{"time": 0, "keyPath": "birthRate", "value": 0, "duration": 1},
                   {"time": 0, "keyPath": "emitterCells.confetti.birthRate", "value": 40, "duration": 0.5,
                    "timingFunction": "easeOut"}]}
      """
    let effect = try Effect(json: text)
    #expect(effect.changes[0].isAnimation && effect.changes[1].timingFunction == .easeOut)
    #expect(try Effect(json: effect.jsonString()) == effect)
    let system = try ParticleSystem(effect: effect)
    system.seek(to: 1)
    let born = system.liveCount
    system.seek(to: 2.5)
    #expect(system.liveCount == born)
    #expect(born > 0 && born < 60)
  }
}
