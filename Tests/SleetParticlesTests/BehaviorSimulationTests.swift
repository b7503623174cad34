import Foundation
import SleetMath
import Testing

@testable import SleetParticles

/// Effects with emitter behaviors, one per law (and combinations), as
/// `BehaviorSimulationTests` runs them: a moving, spreading cell so every
/// force has something to act on.
enum BehaviorCase: String, CaseIterable, CustomStringConvertible {
  case drag, wave, dragAndWave, spring, dampedSpring, falloffAttractor, axialAttractor, planarAttractor
  case massRange, colorOverLife, valueOverLifeScale, additiveAlpha, keyedVelocity, keyedSpin, keyedScaleSpeed
  case alignToMotion, layerAndCell, subCells, disabled, keyedPosition
  /// Curves whose list order matters: each applies to what the ones before
  /// it left.
  case curveOrder
  /// Time-varying parameters (integrated): an attractor's stiffness eased
  /// from 80 to 5, a drag stepped, a wave's force in keyframes, a force
  /// enabled later.
  case animatedStiffness, steppedDrag, keyframedWave, enabledLater

  var description: String { rawValue }

  var behaviors: [EmitterBehavior] {
    switch self {
    case .drag: [.drag(DragBehavior(drag: 1.5))]
    case .wave: [.wave(WaveBehavior(force: SIMD3(100, -40, 10), frequency: 0.7))]
    case .dragAndWave:
      [
        .drag(DragBehavior(drag: 2)), .wave(WaveBehavior(force: SIMD3(100, 0, 0), frequency: 0.5)),
        .wave(WaveBehavior(force: SIMD3(0, 500, 0), frequency: 3)),
      ]
    case .spring: [.attractor(AttractorBehavior(stiffness: 9, position: SIMD2(150, 150)))]
    case .dampedSpring:
      [
        .attractor(AttractorBehavior(stiffness: 40, position: SIMD2(150, 150), zPosition: -20)),
        .drag(DragBehavior(drag: 3)),
      ]
    case .falloffAttractor:
      [
        .attractor(
          AttractorBehavior(stiffness: 10, radius: 30, position: SIMD2(150, 150), falloff: -4, falloffDistance: 20)),
        .drag(DragBehavior(drag: 0.5)),
      ]
    case .axialAttractor:
      [
        .attractor(
          AttractorBehavior(
            attractorType: .axial, stiffness: 6, radius: 5, position: SIMD2(150, 150), orientationLongitude: 0.4))
      ]
    case .planarAttractor:
      [
        .attractor(
          AttractorBehavior(
            attractorType: .planar, stiffness: 6, position: SIMD2(150, 150), orientationLatitude: 0.3,
            orientationLongitude: 1.2))
      ]
    case .massRange: [.drag(DragBehavior(drag: 1)), .wave(WaveBehavior(force: SIMD3(60, 0, 0), frequency: 1))]
    case .colorOverLife:
      [
        .colorOverLife(
          ColorOverLifeBehavior(
            colors: [
              ColorRGBA(red: 1, green: 1, blue: 1, alpha: 0), .white,
              ColorRGBA(red: 1, green: 0.5, blue: 0.2, alpha: 0),
            ],
            locations: [0, 0.1, 1]))
      ]
    case .valueOverLifeScale:
      [.valueOverLife(ValueOverLifeBehavior(keyPath: .scale, values: [0.2, 1, 0.5], locations: [0, 0.3, 1]))]
    case .additiveAlpha:
      [.valueOverLife(ValueOverLifeBehavior(keyPath: .colorAlpha, values: [-1, 0, -0.5], isAdditive: true))]
    case .keyedVelocity:
      [
        .valueOverLife(ValueOverLifeBehavior(keyPath: .velocityX, values: [0, 80, -40])),
        .valueOverLife(ValueOverLifeBehavior(keyPath: .velocityY, values: [10, 20], isAdditive: true)),
      ]
    case .keyedSpin: [.valueOverLife(ValueOverLifeBehavior(keyPath: .spin, values: [0, 6, 0]))]
    case .curveOrder:
      [
        .wave(WaveBehavior(force: SIMD3(60, 0, 0), frequency: 0.5)),
        .alignToMotion(AlignToMotionBehavior(rotation: 0.1)),
        .valueOverLife(ValueOverLifeBehavior(keyPath: .velocityX, values: [0, 60], isAdditive: true)),
        .valueOverLife(ValueOverLifeBehavior(keyPath: .spin, values: [2], isAdditive: true)),
        .valueOverLife(ValueOverLifeBehavior(keyPath: .scale, values: [2])),
        .valueOverLife(ValueOverLifeBehavior(keyPath: .scaleSpeed, values: [0.5, -0.5])),
        .valueOverLife(ValueOverLifeBehavior(keyPath: .colorAlpha, values: [0.5])),
        .colorOverLife(ColorOverLifeBehavior(colors: [.white, ColorRGBA(red: 1, green: 1, blue: 1, alpha: 0.5)])),
      ]
    case .keyedPosition:
      [
        .drag(DragBehavior(drag: 1)),
        .valueOverLife(ValueOverLifeBehavior(keyPath: .positionX, values: [0, 40, -20], isAdditive: true)),
      ]
    case .keyedScaleSpeed: [.valueOverLife(ValueOverLifeBehavior(keyPath: .scaleSpeed, values: [1, -1]))]
    case .alignToMotion:
      [
        .wave(WaveBehavior(force: SIMD3(80, 0, 0), frequency: 0.4)),
        .alignToMotion(AlignToMotionBehavior(rotation: 0.25)),
      ]
    case .layerAndCell: [.drag(DragBehavior(drag: 1))]
    case .subCells: [.drag(DragBehavior(drag: 2)), .wave(WaveBehavior(force: SIMD3(0, 300, 0), frequency: 1))]
    case .disabled: [.drag(DragBehavior(isEnabled: false, drag: 5))]
    case .animatedStiffness:
      [
        .attractor(AttractorBehavior(name: "pull", stiffness: 80, position: SIMD2(150, 150))),
        .drag(DragBehavior(drag: 1)),
      ]
    case .steppedDrag: [.drag(DragBehavior(name: "brake", drag: 0.5))]
    case .keyframedWave: [.wave(WaveBehavior(name: "sway", force: SIMD3(100, 0, 0), frequency: 0.5))]
    case .enabledLater: [.drag(DragBehavior(name: "brake", isEnabled: false, drag: 3))]
    }
  }

  /// The changes of the time-varying cases.
  var changes: [PropertyChange] {
    switch self {
    case .animatedStiffness:
      [
        PropertyChange(
          time: 0.3, keyPath: "emitterCells.c.emitterBehaviors.pull.stiffness", value: 5, duration: 1.2,
          timingFunction: .easeOut)
      ]
    case .steppedDrag:
      [
        PropertyChange(time: 1, keyPath: "emitterCells.c.emitterBehaviors.brake.drag", value: 4),
        PropertyChange(time: 2, keyPath: "emitterCells.c.emitterBehaviors.brake.drag", value: 0.25),
      ]
    case .keyframedWave:
      [
        PropertyChange(
          time: 0.5, keyPath: "emitterCells.c.emitterBehaviors.sway.force", duration: 2, keyTimes: [0, 0.5, 1],
          values: [.vector([100, 0, 0]), .vector([-50, 200, 0]), .vector([0, 0, 30])])
      ]
    case .enabledLater:
      [PropertyChange(time: 1.5, keyPath: "emitterCells.c.emitterBehaviors.brake.enabled", value: .bool(true))]
    default: []
    }
  }

  /// `behaviors` as they are at emitter time `t` in `effect` (the animated
  /// values from `Effect.value(forKeyPath:at:)`, the format's reference).
  func behaviors(in effect: Effect, at t: Double) -> [EmitterBehavior] {
    var list = behaviors
    for i in list.indices {
      guard let name = list[i].name else { continue }
      func value(_ key: String) -> PropertyValue {
        try! effect.value(forKeyPath: "emitterCells.c.emitterBehaviors.\(name).\(key)", at: t)
      }
      func number(_ key: String) -> Float {
        guard case .number(let x) = value(key) else { fatalError("\(key) is a number") }
        return Float(x)
      }
      switch list[i] {
      case .attractor(var b):
        b.stiffness = number("stiffness")
        list[i] = .attractor(b)
      case .drag(var b):
        b.drag = number("drag")
        guard case .bool(let on) = value("enabled") else { fatalError("enabled is a flag") }
        b.isEnabled = on
        list[i] = .drag(b)
      case .wave(var b):
        guard case .vector(let f) = value("force") else { fatalError("force is a vector") }
        b.force = SIMD3(Float(f[0]), Float(f[1]), Float(f[2]))
        list[i] = .wave(b)
      default: break
      }
    }
    return list
  }

  var effect: Effect {
    var cell = testCell("c", birthRate: 40, lifetime: 3, velocity: 120) {
      $0.lifetimeRange = 1
      $0.velocityRange = 60
      $0.emissionRange = 2 * .pi
      $0.yAcceleration = 30
      $0.spin = 0.5
      $0.spinRange = 1
      $0.scaleSpeed = 0.1
      $0.alphaSpeed = -0.1
      $0.color = ColorRGBA(red: 0.9, green: 0.7, blue: 0.4, alpha: 1)
      $0.redRange = 0.2
    }
    var layerBehaviors: [EmitterBehavior] = []
    switch self {
    case .layerAndCell:
      cell.emitterBehaviors = behaviors
      layerBehaviors = [.wave(WaveBehavior(force: SIMD3(0, 50, 0), frequency: 2))]
    case .massRange:
      cell.emitterBehaviors = behaviors
      cell.mass = 2
      cell.massRange = 3
    case .subCells:
      cell.emitterBehaviors = behaviors
      cell.emitterCells = [
        testCell("spark", birthRate: 15, lifetime: 0.5, velocity: 30) {
          $0.emissionRange = 2 * .pi
          $0.scale = 0.5
        }
      ]
    default:
      cell.emitterBehaviors = behaviors
    }
    var emitter = Emitter(emitterCells: [cell])
    emitter.emitterPosition = SIMD2(100, 120)
    emitter.emitterShape = .circle
    emitter.emitterSize = SIMD2(40, 40)
    emitter.seed = 11
    emitter.emitterBehaviors = layerBehaviors
    return try! Effect(emitter: emitter, changes: changes)
  }
}

@Suite("Emitter behaviors: simulation")
struct BehaviorSimulationTests {
  @Test(arguments: BehaviorCase.allCases)
  func framesEqualTheScalarStatesOnAnyThreadCount(_ c: BehaviorCase) throws {
    let effect = c.effect
    for time in [0.4, 2.7] {
      let scalar = try ParticleSystem(effect: effect)
      scalar.seek(to: time)
      let expected = scalar.particles()
      #expect(!expected.isEmpty)
      var reference: [UInt32]?
      for threads in [1, 2, 3, 8] {
        let system = try ParticleSystem(
          effect: effect, configuration: .init(threads: threads, chunkSize: 40, computesIDs: true))
        system.seek(to: time)
        var frame = ParticleFrame()
        system.render(into: &frame)
        let drawn = Dictionary(uniqueKeysWithValues: zip(frame.ids, frame.instances))
        #expect(drawn.count == expected.count, "\(c) at \(time), \(threads) threads")
        for p in expected {
          guard let d = drawn[p.id] else {
            Issue.record("\(c) at \(time): particle \(p.id) not drawn")
            continue
          }
          let got = [d.x, d.y, d.scale, d.rotation, d.color.x, d.color.y, d.color.z, d.color.w].map(\.bitPattern)
          let want = [p.position.x, p.position.y, p.scale, p.rotation, p.color.x, p.color.y, p.color.z, p.color.w]
            .map(\.bitPattern)
          #expect(got == want, "\(c) at \(time), \(threads) threads, particle \(p.id)")
        }
        if let reference { #expect(bits(frame) == reference, "\(c) at \(time), \(threads) threads") }
        reference = bits(frame)
      }
    }
  }

  @Test(arguments: BehaviorCase.allCases)
  func steppingGivesTheBitsOfSeeking(_ c: BehaviorCase) throws {
    let effect = c.effect
    let stepped = try ParticleSystem(effect: effect, configuration: .init(computesAffines: true))
    let seeked = try ParticleSystem(effect: effect, configuration: .init(computesAffines: true))
    var a = ParticleFrame()
    var b = ParticleFrame()
    for n in 1...150 {
      let t = Double(n) / 60
      stepped.advance(to: t)
      guard n % 25 == 0 else { continue }
      seeked.seek(to: t)
      stepped.render(into: &a)
      seeked.render(into: &b)
      #expect(bits(a) == bits(b), "\(c) at \(t)")
      #expect(bits(stepped.particles()) == bits(seeked.particles()), "\(c) at \(t)")
    }
  }
}

/// The force laws of `docs/semantics.md` written out again, per unit mass,
/// from the definitions (not from the simulation's `ForceTerm`), and an
/// RK4 integration in `Double` at a small step: the independent reference
/// the simulated positions are held to.
enum BehaviorReference {
  static func force(_ b: EmitterBehavior, p: SIMD3<Double>, v: SIMD3<Double>, T: Double) -> SIMD3<Double> {
    guard b.isEnabled else { return .zero }
    switch b {
    case .wave(let x):
      return SIMD3<Double>(x.force) * BehaviorMathTests.waveDefinition(frequency: Double(x.frequency), time: T)
    case .drag(let x): return -Double(x.drag) * v
    case .simpleAttractor(let x): return force(.attractor(x.attractor), p: p, v: v, T: T)
    case .attractor(let x):
      let c = SIMD3(Double(x.position.x), Double(x.position.y), Double(x.zPosition))
      let lat = Double(x.orientationLatitude)
      let lon = Double(x.orientationLongitude)
      let n = SIMD3(cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
      let toCentre = c - p
      let r: SIMD3<Double> =
        switch x.attractorType {
        case .radial: toCentre
        case .axial: toCentre - (toCentre * n).sum() * n
        case .planar: (toCentre * n).sum() * n
        }
      let d = (r * r).sum().squareRoot()
      let beyond = d - Double(x.radius)
      if x.radius == 0 && x.falloff == 0 { return Double(x.stiffness) * r }
      guard beyond > 0 else { return .zero }
      let m = Double(x.stiffness) * beyond + Double(x.falloff) * max(0, beyond - Double(x.falloffDistance))
      return m * r / d
    default: return .zero
    }
  }

  /// Position and velocity of `r` at `age` under `behaviors` (forces only).
  static func motion(
    _ r: BirthRecord, behaviors: (Double) -> [EmitterBehavior], changeTimes: [Double] = [], mass: Double,
    age: Double, step h: Double = 1e-3
  ) -> (SIMD3<Double>, SIMD3<Double>) {
    let g = SIMD3<Double>(r.halfAcceleration) * 2
    // Forces within a step take their values inside the step, even where
    // birth + age rounds onto the change at its end.
    var window = (low: -Double.infinity, high: Double.infinity)
    func a(_ p: SIMD3<Double>, _ v: SIMD3<Double>, _ s: Double) -> SIMD3<Double> {
      var total = SIMD3<Double>()
      let T = min(max(r.birthTime + s, window.low), window.high)
      for b in behaviors(T) { total += force(b, p: p, v: v, T: T) }
      return g + total / mass
    }
    var p = SIMD3<Double>(r.position)
    var v = SIMD3<Double>(r.velocity)
    // Steps end at every change time, where a stepped force jumps.
    let breaks = changeTimes.map { $0 - r.birthTime }.filter { $0 > 0 }
    var s = 0.0
    while s < age {
      let next = breaks.first { $0 > s + 1e-12 }
      let dt = min(h, age - s, next.map { $0 - s } ?? .infinity)
      let previous = breaks.last { $0 <= s + 1e-12 }
      window = (
        previous.map { r.birthTime + $0 } ?? -.infinity,
        next.map { (r.birthTime + $0).nextDown } ?? .infinity
      )
      let k1 = (v, a(p, v, s))
      let k2 = (v + k1.1 * (dt / 2), a(p + k1.0 * (dt / 2), v + k1.1 * (dt / 2), s + dt / 2))
      let k3 = (v + k2.1 * (dt / 2), a(p + k2.0 * (dt / 2), v + k2.1 * (dt / 2), s + dt / 2))
      let k4 = (v + k3.1 * dt, a(p + k3.0 * dt, v + k3.1 * dt, s + dt))
      let dp: SIMD3<Double> = k1.0 + k2.0 * 2 + k3.0 * 2 + k4.0
      let dv: SIMD3<Double> = k1.1 + k2.1 * 2 + k3.1 * 2 + k4.1
      p += dp * (dt / 6)
      v += dv * (dt / 6)
      s += dt
    }
    return (p, v)
  }
}

extension BehaviorSimulationTests {
  static let forceCases: [BehaviorCase] = [
    .drag, .wave, .dragAndWave, .spring, .dampedSpring, .falloffAttractor, .axialAttractor, .planarAttractor,
    .massRange, .layerAndCell, .disabled, .animatedStiffness, .steppedDrag, .keyframedWave, .enabledLater,
  ]

  /// Every simulated position and velocity (closed form or integrated)
  /// agrees with the independent RK4 reference of the force laws: within
  /// 0.01 pt and 0.01 pt/s plus 2·10⁻⁶ of the magnitude (Float rounding
  /// of the output), over lives of up to 3.5 s.
  @Test(arguments: forceCases)
  func motionAgreesWithAnIndependentIntegration(_ c: BehaviorCase) throws {
    let effect = c.effect
    let system = try ParticleSystem(effect: effect)
    let t = 3.1
    system.seek(to: t)
    let snapshots = Dictionary(uniqueKeysWithValues: system.particles().map { ($0.id, $0) })
    let tree = CellTree(effect: effect)
    let layer = effect.emitter.emitterBehaviors
    let constant = layer + effect.emitter.emitterCells[0].emitterBehaviors
    let behaviors = { (T: Double) in c.changes.isEmpty ? constant : layer + c.behaviors(in: effect, at: T) }
    var checked = 0
    for r in system.liveRecords().prefix(16) where r.cell == 0 {
      // A behavior disabled for good compiles to no program: mass 1.
      let mass = tree.nodes[0].behaviors.map { $0.mass(of: r, segment: 0) } ?? 1
      let (p, v) = BehaviorReference.motion(
        r, behaviors: behaviors, changeTimes: c.changes.flatMap { [$0.time, $0.time + $0.duration] }, mass: mass,
        age: t - r.birthTime)
      let s = try #require(snapshots[r.id])
      let dp = maxAbs(SIMD3<Double>(s.position) - p)
      let dv = maxAbs(SIMD3<Double>(s.velocity) - v)
      #expect(dp <= 0.01 + 2e-6 * maxAbs(p), "\(c): particle \(r.id) position off by \(dp)")
      #expect(dv <= 0.01 + 2e-6 * maxAbs(v), "\(c): particle \(r.id) velocity off by \(dv)")
      checked += 1
    }
    #expect(checked >= 10)
  }

  /// The force laws by finite differences of simulated positions: the
  /// second difference of the position over ±h equals the law's
  /// acceleration at the middle state (to O(h²)).
  @Test(arguments: [BehaviorCase.drag, .wave, .dampedSpring, .falloffAttractor, .axialAttractor])
  func secondDifferencesOfPositionsAreTheForceLaw(_ c: BehaviorCase) throws {
    let effect = c.effect
    let tree = CellTree(effect: effect)
    let system = try ParticleSystem(effect: effect)
    let t = 2.0
    system.seek(to: t)
    let behaviors = effect.emitter.emitterBehaviors + effect.emitter.emitterCells[0].emitterBehaviors
    let h = 1.0 / 64
    for r in system.liveRecords().prefix(12) where r.cell == 0 && t - r.birthTime > 2 * h {
      let state = { (time: Double) in SIMD3<Double>(try! #require(tree.behaviorState(of: r, at: time)).position) }
      let mid = try #require(tree.behaviorState(of: r, at: t))
      let second = (state(t + h) - 2 * state(t) + state(t - h)) / (h * h)
      let law =
        SIMD3<Double>(r.halfAcceleration) * 2
        + behaviors.reduce(SIMD3<Double>()) {
          $0 + BehaviorReference.force($1, p: SIMD3(mid.position), v: SIMD3(mid.velocity), T: t)
        }
      let error = maxAbs(second - law)
      #expect(error <= 0.5 + 1e-3 * maxAbs(law), "\(c): particle \(r.id): \(second) vs \(law)")
    }
  }
}

/// The largest component magnitude of `v`.
func maxAbs(_ v: SIMD3<Double>) -> Double { max(abs(v.x), abs(v.y), abs(v.z)) }

extension BehaviorSimulationTests {
  /// The naive twin (objects, explicit 1 ms sub-steps of the forces, keyed
  /// rates integrated numerically) and the kernel (closed form or fixed-step
  /// RK4) hold the same particles, within the naive steps' first-order
  /// error: 1 pt, 1 pt/s, 0.02 in scale and colour, 0.02 rad (looser for
  /// sub-particles, whose naive births are late by up to a step).
  @Test(arguments: BehaviorCase.allCases)
  func naiveTwinAgrees(_ c: BehaviorCase) throws {
    let effect = c.effect
    let naive = NaiveParticleSimulator(effect: effect)
    let dt = 1.0 / 120
    for _ in 0..<240 { naive.step(dt) }
    let system = try ParticleSystem(effect: effect)
    system.seek(to: naive.time)
    let reference = Dictionary(uniqueKeysWithValues: naive.snapshots().map { ($0.id, $0) })
    var compared = 0
    for p in system.particles()
    where p.birthTime < naive.time - 2 * dt && p.birthTime + Double(p.lifetime) > naive.time + 2 * dt {
      guard let q = reference[p.id] else {
        Issue.record("\(c): particle \(p.id) missing from the naive path")
        continue
      }
      let position = maxAbs(SIMD3<Double>(p.position - q.position))
      let velocity = maxAbs(SIMD3<Double>(p.velocity - q.velocity))
      let color = p.color - q.color
      // A sub-particle is born at the naive step's end from its parent's
      // state there, not at its exact time: its origin and cone axis move
      // with the parent over up to one step (|v|·dt ≈ 2 pt here).
      let isSub = p.cellPath.contains(".")
      #expect(position <= (isSub ? 5 : 1), "\(c): particle \(p.id) |Δp| = \(position)")
      // Its velocity's direction is the parent's direction of motion at
      // that moment, which drag and a fast wave turn quickly: not compared.
      #expect(isSub || velocity <= 1, "\(c): particle \(p.id) |Δv| = \(velocity)")
      #expect(abs(p.scale - q.scale) <= 0.02, "\(c): particle \(p.id) scale \(p.scale) vs \(q.scale)")
      #expect(abs(p.rotation - q.rotation) <= 0.02, "\(c): particle \(p.id) rotation \(p.rotation) vs \(q.rotation)")
      #expect(
        max(abs(color.x), abs(color.y), abs(color.z), abs(color.w)) <= 0.02,
        "\(c): particle \(p.id) colour \(p.color) vs \(q.color)")
      compared += 1
    }
    #expect(compared >= 20, "\(c): \(compared) particles compared")
  }
}

extension BehaviorSimulationTests {
  /// The integrator's cache (each particle's last grid point) changes no
  /// bits: a system moved forward, back and forward again draws what a fresh
  /// system draws at each time.
  @Test(arguments: [BehaviorCase.falloffAttractor, .animatedStiffness, .steppedDrag, .keyframedWave])
  func anyOrderOfTimesGivesTheBitsOfAFreshSystem(_ c: BehaviorCase) throws {
    let effect = c.effect
    let moved = try ParticleSystem(effect: effect, configuration: .init(threads: 2, chunkSize: 40))
    var a = ParticleFrame()
    var b = ParticleFrame()
    for t in [2.5, 0.9, 1.7, 3.2, 3.2, 0.2, 2.1] {
      moved.seek(to: t)
      moved.render(into: &a)
      let fresh = try ParticleSystem(effect: effect)
      fresh.seek(to: t)
      fresh.render(into: &b)
      #expect(bits(a) == bits(b), "\(c) at \(t)")
    }
  }
}

extension BehaviorSimulationTests {
  /// A snapshot's velocity is the derivative of its position, whatever
  /// moves it: central differences of positions over ±1/512 s.
  @Test(arguments: [BehaviorCase.keyedPosition, .keyedVelocity, .dragAndWave, .falloffAttractor, .animatedStiffness])
  func velocityIsTheDerivativeOfThePosition(_ c: BehaviorCase) throws {
    let effect = c.effect
    let tree = CellTree(effect: effect)
    let system = try ParticleSystem(effect: effect)
    let t = 2.2
    let h = 1.0 / 512
    system.seek(to: t)
    var compared = 0
    for r in system.liveRecords().prefix(20) where r.cell == 0 && t - r.birthTime > 2 * h {
      guard t + h - r.birthTime < Double(r.lifetime) else { continue }
      let before = try #require(tree.behaviorState(of: r, at: t - h)).position
      let after = try #require(tree.behaviorState(of: r, at: t + h)).position
      let v = try #require(tree.behaviorState(of: r, at: t)).velocity
      let slope = SIMD3<Double>(after - before) / (2 * h)
      #expect(maxAbs(slope - SIMD3<Double>(v)) <= 0.05 + 1e-3 * maxAbs(SIMD3<Double>(v)), "\(c): particle \(r.id)")
      compared += 1
    }
    #expect(compared >= 10)
  }

  /// The integrator's cache is keyed by id and checked by birth time: a
  /// checkpoint stored for another particle with the same id (sub-particle
  /// ids are 56-bit hashes) is not used.
  @Test func aCheckpointOfAnotherBirthIsIgnored() throws {
    let effect = BehaviorCase.falloffAttractor.effect
    let tree = CellTree(effect: effect)
    let system = try ParticleSystem(effect: effect)
    system.seek(to: 2)
    let records = system.liveRecords().filter { $0.cell == 0 }
    let (a, b) = (records[0], records[1])
    let expected = try #require(tree.behaviorState(of: b, at: 2.5))
    let program = try #require(tree.nodes[0].behaviors)
    // Store a's checkpoint, then ask for b under a's id.
    _ = program.state(of: a, at: 2.5, mass: program.mass(of: a, segment: 0), cache: tree.integrators)
    var impostor = b
    impostor.id = a.id
    let got = program.state(of: impostor, at: 2.5, mass: program.mass(of: b, segment: 0), cache: tree.integrators)
    #expect(got == expected)
  }
}
