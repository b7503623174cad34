import Foundation
import Testing

@testable import SleetParticles

// MARK: - Independent references

/// w(T) written literally from its definition (``WaveBehavior``'s doc).
private func waveDefinition(frequency f: Double, time T: Double) -> Double {
  let x = f * T
  let tri = 1 - abs(2 * (x - x.rounded(.down)) - 1)
  let q = tri < 0.5 ? 2 * tri * tri : 1 - 2 * (1 - tri) * (1 - tri)
  return 2 * q - 1
}

/// Classical RK4 in Double for x'' = A(x, x', age), steps of at most 10⁻⁴ s
/// (each interval between checkpoints cut into equal steps), the state at each
/// checkpoint age (ascending).
private func referenceRK4(
  position x0: Double, velocity v0: Double, checkpoints: [Double], step: Double = 1e-4,
  acceleration: (Double, Double, Double) -> Double
) -> [(position: Double, velocity: Double)] {
  var x = x0
  var v = v0
  var t = 0.0
  var states: [(position: Double, velocity: Double)] = []
  for end in checkpoints {
    let count = max(1, Int(((end - t) / step).rounded(.up)))
    let h = (end - t) / Double(count)
    let start = t
    for i in 0..<count {
      let s = start + Double(i) * h
      let k1 = acceleration(x, v, s)
      let k2 = acceleration(x + h / 2 * v, v + h / 2 * k1, s + h / 2)
      let k3 = acceleration(x + h / 2 * (v + h / 2 * k1), v + h / 2 * k2, s + h / 2)
      let k4 = acceleration(x + h * (v + h / 2 * k2), v + h * k3, s + h)
      x += h / 6 * (v + 2 * (v + h / 2 * k1) + 2 * (v + h / 2 * k2) + (v + h * k3))
      v += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    }
    t = end
    states.append((x, v))
  }
  return states
}

/// Composite Simpson's rule with `panels` (even) panels.
private func simpson(_ a: Double, _ b: Double, panels: Int, _ g: (Double) -> Double) -> Double {
  let h = (b - a) / Double(panels)
  var sum = g(a) + g(b)
  for i in 1..<panels { sum += Double(i % 2 == 0 ? 2 : 4) * g(a + Double(i) * h) }
  return sum * h / 3
}

/// |actual − expected| ≤ tolerance · scale, with the numbers in the message.
private func expectClose(
  _ actual: Double, _ expected: Double, tolerance: Double, scale: Double, _ what: @autoclosure () -> String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let error = abs(actual - expected)
  #expect(
    error <= tolerance * scale, "\(what()): \(actual) vs \(expected), error \(error) > \(tolerance) × \(scale)",
    sourceLocation: sourceLocation)
}

private let waveFrequencies: [Double] = [0, 0.5, 3]
private let birthTimes: [Double] = [0, 1e4 + 0.37]
private let waveAges: [Double] = [1e-3, 0.37, 2.3, 5]

@Suite("Behavior math: wave integrals, axis closed forms, fixed-step RK4")
struct BehaviorMathTests {
  // MARK: WaveProfile

  /// w(0) = −1, w(P/4) = 0, w(P/2) = +1, w(3P/4) = 0, w(P) = −1, and the
  /// quadratic between: w(P/8) = −¾, w(3P/8) = ¾; also after 10⁴ s.
  @Test func waveMatchesItsDefinitionAtQuarterPoints() {
    for f in [0.5, 1, 3] {
      let wave = WaveProfile(frequency: f)
      for base in [0, 1e4] {
        let points: [(Double, Double)] = [
          (0, -1), (0.125, -0.75), (0.25, 0), (0.375, 0.75), (0.5, 1), (0.625, 0.75), (0.75, 0), (0.875, -0.75),
          (1, -1),
        ]
        for (fraction, expected) in points {
          expectClose(
            wave.value(at: base + fraction / f), expected, tolerance: base == 0 ? 1e-14 : 1e-10, scale: 1,
            "w(\(base) + \(fraction)P), f = \(f)")
        }
      }
    }
    #expect(WaveProfile(frequency: 0).value(at: 123.4) == -1)
    #expect(WaveProfile(frequency: 2).value(at: 0) == -1)
    #expect(WaveProfile(frequency: 2).value(at: 0.25) == 1)
  }

  /// value(at:) against the definition on a fine grid of times.
  @Test func waveMatchesItsDefinitionEverywhere() {
    for f in [0.5, 3, 7.3] {
      let wave = WaveProfile(frequency: f)
      for base in birthTimes {
        for i in 0...2000 {
          let T = base + Double(i) * 0.0017
          expectClose(
            wave.value(at: T), waveDefinition(frequency: f, time: T), tolerance: base == 0 ? 1e-13 : 1e-10,
            scale: 1, "w(\(T)), f = \(f)")
        }
      }
    }
  }

  /// ∫w, ∬w and their damped forms against Simpson's rule on value(at:)
  /// (2·10⁵ panels per 5 s: the kinks of w'' at quarter periods bound it to
  /// about 10⁻¹⁰): |error| ≤ 10⁻⁹·a (J) and 10⁻⁹·a² (K).
  @Test func waveIntegralsMatchQuadrature() {
    for f in waveFrequencies {
      let wave = WaveProfile(frequency: f)
      for T0 in birthTimes {
        for a in waveAges {
          for λ in [0, 0.05, 2, 30] {
            let panels = 2 * max(500, Int(a * 20_000))
            let damp = { (s: Double) in exp(-λ * (a - s)) }
            let lever = { (s: Double) in λ == 0 ? a - s : -expm1(-λ * (a - s)) / λ }
            let J = simpson(0, a, panels: panels) { damp($0) * wave.value(at: T0 + $0) }
            let K = simpson(0, a, panels: panels) { lever($0) * wave.value(at: T0 + $0) }
            let r = wave.response(from: T0, age: a, decay: λ)
            let label = "f \(f), T0 \(T0), a \(a), λ \(λ)"
            expectClose(r.velocity, J, tolerance: 1e-9, scale: a, "J, \(label)")
            expectClose(r.displacement, K, tolerance: 1e-9, scale: a * a, "K, \(label)")
            expectClose(wave.dampedIntegral(from: T0, age: a, decay: λ), J, tolerance: 1e-9, scale: a, label)
            expectClose(wave.dampedDoubleIntegral(from: T0, age: a, decay: λ), K, tolerance: 1e-9, scale: a * a, label)
            if λ == 0 {
              expectClose(wave.integral(from: T0, age: a), J, tolerance: 1e-9, scale: a, "∫w, \(label)")
              expectClose(wave.doubleIntegral(from: T0, age: a), K, tolerance: 1e-9, scale: a * a, "∬w, \(label)")
            }
          }
        }
      }
    }
  }

  /// The response (J, K) against RK4 at 10⁻⁴ s (2·10⁻³/λ where smaller) of v' = −λv + w(T0 + t),
  /// x' = v from rest: |error| ≤ 10⁻¹¹·a (J) and 10⁻¹¹·a² (K).
  @Test func waveResponseMatchesRK4() {
    for f in waveFrequencies {
      let wave = WaveProfile(frequency: f)
      for T0 in birthTimes {
        for λ in [0, 1e-6, 0.05, 1, 2, 30] {
          let reference = referenceRK4(position: 0, velocity: 0, checkpoints: waveAges, step: min(1e-4, 2e-3 / λ)) {
            _, v, t in
            -λ * v + wave.value(at: T0 + t)
          }
          for (a, expected) in zip(waveAges, reference) {
            let r = wave.response(from: T0, age: a, decay: λ)
            let label = "f \(f), T0 \(T0), a \(a), λ \(λ)"
            expectClose(r.velocity, expected.velocity, tolerance: 1e-11, scale: a, "J, \(label)")
            expectClose(r.displacement, expected.position, tolerance: 1e-11, scale: a * a, "K, \(label)")
          }
        }
      }
    }
  }

  /// Long lives and late births: the O(1) whole-period sums against a walk
  /// of one period at a time (K grows by the same amount each period at λ = 0;
  /// J(a + P) = e^(−λP)·J(a) + J over one period from the same phase).
  @Test func waveWholePeriodsAddUp() {
    for f in [0.5, 3] {
      let wave = WaveProfile(frequency: f)
      let P = 1 / f
      for T0 in [0.2, 1e5 + 0.37] {
        for λ in [0, 1e-9, 0.3, 4] {
          let one = wave.response(from: T0, age: P, decay: λ)
          var velocity = 0.0
          var displacement = 0.0
          for n in 1...40 {
            displacement += P * ExponentialPhi.phi1(-λ * P) * velocity + one.displacement
            velocity = exp(-λ * P) * velocity + one.velocity
            let r = wave.response(from: T0, age: Double(n) * P, decay: λ)
            let a = Double(n) * P
            expectClose(r.velocity, velocity, tolerance: 1e-13, scale: a, "J, f \(f), T0 \(T0), λ \(λ), n \(n)")
            expectClose(r.displacement, displacement, tolerance: 1e-13, scale: a * a, "K, n \(n)")
          }
        }
      }
    }
  }

  /// The response is continuous in the decay: λ = 10⁻¹² is within 10⁻¹¹ (relative
  /// to a, a²) of λ = 0, and K moves at the rate dK/dλ = −∫ (a−s)²/2 · w.
  @Test func waveResponseIsContinuousAsDecayVanishes() {
    let wave = WaveProfile(frequency: 3)
    for T0 in birthTimes {
      for a in waveAges {
        let undamped = wave.response(from: T0, age: a, decay: 0)
        let tiny = wave.response(from: T0, age: a, decay: 1e-12)
        expectClose(tiny.velocity, undamped.velocity, tolerance: 1e-11, scale: a, "J, T0 \(T0), a \(a)")
        expectClose(tiny.displacement, undamped.displacement, tolerance: 1e-11, scale: a * a, "K, T0 \(T0), a \(a)")
        let slope = -simpson(0, a, panels: 2 * max(500, Int(a * 20_000))) {
          (a - $0) * (a - $0) / 2 * wave.value(at: T0 + $0)
        }
        let small = wave.response(from: T0, age: a, decay: 1e-6)
        expectClose(
          (small.displacement - undamped.displacement) / 1e-6, slope, tolerance: 1e-6, scale: a * a * a,
          "dK/dλ, T0 \(T0), a \(a)")
      }
    }
  }

  // MARK: AxisMotion

  /// One axis's parameters and its acceleration, for the references.
  struct Axis: CustomStringConvertible {
    var p0 = 0.0
    var v0 = 0.0
    var g = 0.0
    var λ = 0.0
    var κ = 0.0
    var c = 0.0
    var waves: [WaveTerm] = []
    var T0 = 0.0

    func acceleration(_ x: Double, _ v: Double, _ t: Double) -> Double {
      var total = g - λ * v - κ * (x - c)
      for wave in waves { total += wave.amplitude * wave.profile.value(at: T0 + t) }
      return total
    }

    func state(at a: Double) -> (position: Double, velocity: Double) {
      AxisMotion.state(
        p0: p0, v0: v0, acceleration: g, drag: λ, spring: κ, center: c, waves: waves, birthTime: T0, age: a)
    }

    /// The size of the motion: distances and speeds are compared relative to it.
    var scale: Double {
      abs(p0) + abs(v0) * 5 + (abs(g) + abs(κ * (c - p0)) + waves.map { abs($0.amplitude) }.reduce(0, +)) * 25
    }

    var description: String { "p0 \(p0) v0 \(v0) g \(g) λ \(λ) κ \(κ) c \(c) waves \(waves.count) T0 \(T0)" }
  }

  static let axisAges: [Double] = [1e-3, 0.05, 0.5, 1.7, 5]

  /// The closed form against RK4 at 10⁻⁴ s (2·10⁻³/λ where that is smaller:
  /// RK4's own error grows as (λh)⁴) over a 5-second life:
  /// |error| ≤ 10⁻¹² × the motion's scale (positions and speeds).
  private func expectMatchesReference(_ axis: Axis, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(AxisMotion.isClosedForm(spring: axis.κ, hasWaves: !axis.waves.isEmpty))
    let reference = referenceRK4(
      position: axis.p0, velocity: axis.v0, checkpoints: Self.axisAges, step: min(1e-4, 2e-3 / axis.λ),
      acceleration: axis.acceleration)
    for (a, expected) in zip(Self.axisAges, reference) {
      let s = axis.state(at: a)
      expectClose(
        s.position, expected.position, tolerance: 1e-12, scale: axis.scale, "position at \(a), \(axis)",
        sourceLocation: sourceLocation)
      expectClose(
        s.velocity, expected.velocity, tolerance: 1e-12, scale: axis.scale, "velocity at \(a), \(axis)",
        sourceLocation: sourceLocation)
    }
  }

  @Test func ballisticMatchesReference() {
    expectMatchesReference(Axis(p0: 10, v0: -200, g: 98))
    let s = Axis(p0: 10, v0: -200, g: 98).state(at: 2)
    #expect(s.position == 10 - 400 + 98 * 2)
    #expect(s.velocity == -200 + 196)
  }

  @Test func dragMatchesReference() {
    expectMatchesReference(Axis(p0: 3, v0: 120, g: 300, λ: 1.5))
    expectMatchesReference(Axis(p0: -40, v0: -500, g: 0, λ: 0.02))
    expectMatchesReference(Axis(p0: 0, v0: 900, g: -150, λ: 40))
  }

  /// λ = 10⁻¹² and 10⁻⁶ agree with the ballistic law's expansion in λ to
  /// second order, x = x₀ − λ(v0·a²/2 + g·a³/6) + λ²(v0·a³/6 + g·a⁴/24), to
  /// 10⁻¹⁵ × scale (a few ulps): no v∞ = g/λ cancellation.
  @Test func dragTendsToBallisticContinuously() {
    let base = Axis(p0: 7, v0: 100, g: 300)
    let (v0, g) = (base.v0, base.g)
    for a in Self.axisAges {
      let ballistic = base.state(at: a)
      for λ in [1e-12, 1e-6] {
        var damped = base
        damped.λ = λ
        let s = damped.state(at: a)
        let position =
          ballistic.position - λ * (v0 * a * a / 2 + g * a * a * a / 6) + λ * λ
          * (v0 * a * a * a / 6 + g * a * a * a * a / 24)
        let velocity = ballistic.velocity - λ * (v0 * a + g * a * a / 2) + λ * λ * (v0 * a * a / 2 + g * a * a * a / 6)
        expectClose(s.position, position, tolerance: 1e-15, scale: base.scale, "position at \(a), λ \(λ)")
        expectClose(s.velocity, velocity, tolerance: 1e-15, scale: base.scale, "velocity at \(a), λ \(λ)")
      }
    }
    expectMatchesReference(Axis(p0: 7, v0: 100, g: 300, λ: 1e-12))
    expectMatchesReference(Axis(p0: 7, v0: 100, g: 300, λ: 1e-6))
  }

  @Test func wavesMatchReference() {
    let sway = WaveTerm(amplitude: 100, profile: WaveProfile(frequency: 0.5))
    let flutter = WaveTerm(amplitude: -60, profile: WaveProfile(frequency: 3))
    for T0 in [0.3, 1e4 + 0.37] {
      expectMatchesReference(Axis(p0: 5, v0: 30, waves: [sway], T0: T0))
      expectMatchesReference(Axis(p0: 5, v0: 30, g: 50, waves: [sway, flutter], T0: T0))
      expectMatchesReference(Axis(p0: 5, v0: 30, g: 50, λ: 2, waves: [sway], T0: T0))
      expectMatchesReference(Axis(p0: 5, v0: 30, g: 50, λ: 2, waves: [sway, flutter], T0: T0))
      expectMatchesReference(Axis(p0: 5, v0: 30, g: 50, λ: 1e-12, waves: [sway, flutter], T0: T0))
      expectMatchesReference(Axis(p0: 5, v0: 30, λ: 25, waves: [flutter], T0: T0))
      expectMatchesReference(Axis(v0: 10, waves: [WaveTerm(amplitude: 40, profile: WaveProfile(frequency: 0))], T0: T0))
    }
  }

  /// Two waves act as the sum of their separate responses (the law is linear).
  @Test func wavesAddLinearly() {
    let sway = WaveTerm(amplitude: 100, profile: WaveProfile(frequency: 0.5))
    let flutter = WaveTerm(amplitude: -60, profile: WaveProfile(frequency: 3))
    for a in Self.axisAges {
      let both = Axis(p0: 5, v0: 30, g: 50, λ: 2, waves: [sway, flutter], T0: 12.5).state(at: a)
      let one = Axis(p0: 5, v0: 30, g: 50, λ: 2, waves: [sway], T0: 12.5).state(at: a)
      let other = Axis(λ: 2, waves: [flutter], T0: 12.5).state(at: a)
      expectClose(both.position, one.position + other.position, tolerance: 1e-15, scale: 2000, "position at \(a)")
      expectClose(both.velocity, one.velocity + other.velocity, tolerance: 1e-15, scale: 2000, "velocity at \(a)")
    }
  }

  /// Under-, critically and over-damped springs, with and without drag and
  /// gravity, and a repelling one.
  @Test func springsMatchReference() {
    let springs: [(λ: Double, κ: Double)] = [
      (0, 80), (2, 80), (10, 25), (20, 25), (200, 1), (0.5, 0.01), (3, 1e-9), (1, -4), (0, -0.3),
    ]
    for (λ, κ) in springs {
      for g: Double in [0, 300] {
        expectMatchesReference(Axis(p0: -10, v0: 200, g: g, λ: λ, κ: κ, c: 40))
        expectMatchesReference(Axis(p0: 40, v0: 0, g: g, λ: λ, κ: κ, c: 40))
      }
    }
  }

  /// λ² = 4κ(1 ± 10⁻⁹) and exactly critical agree with RK4 and with each other
  /// (no 1/ω blow-up).
  @Test func nearCriticalSpringsAreStable() {
    let κ = 25.0
    for factor in [1 - 1e-9, 1, 1 + 1e-9] {
      let λ = (4 * κ * factor).squareRoot()
      expectMatchesReference(Axis(p0: -10, v0: 200, g: 300, λ: λ, κ: κ, c: 40))
      for a in Self.axisAges {
        let s = Axis(p0: -10, v0: 200, g: 300, λ: λ, κ: κ, c: 40).state(at: a)
        let critical = Axis(p0: -10, v0: 200, g: 300, λ: 10, κ: κ, c: 40).state(at: a)
        expectClose(s.position, critical.position, tolerance: 1e-8, scale: 1000, "position at \(a), λ \(λ)")
        expectClose(s.velocity, critical.velocity, tolerance: 1e-8, scale: 1000, "velocity at \(a), λ \(λ)")
      }
    }
  }

  /// A vanishing spring tends to the drag-only law.
  @Test func vanishingSpringTendsToDrag() {
    for λ: Double in [0, 0.5, 30] {
      for a in Self.axisAges {
        let drag = Axis(p0: 1, v0: 80, g: 300, λ: λ).state(at: a)
        let spring = Axis(p0: 1, v0: 80, g: 300, λ: λ, κ: 1e-13, c: 0).state(at: a)
        expectClose(spring.position, drag.position, tolerance: 1e-11, scale: 10_000, "position at \(a), λ \(λ)")
        expectClose(spring.velocity, drag.velocity, tolerance: 1e-11, scale: 10_000, "velocity at \(a), λ \(λ)")
      }
    }
  }

  @Test func closedFormCoverage() {
    #expect(AxisMotion.isClosedForm(spring: 0, hasWaves: true))
    #expect(AxisMotion.isClosedForm(spring: 0, hasWaves: false))
    #expect(AxisMotion.isClosedForm(spring: 80, hasWaves: false))
    #expect(!AxisMotion.isClosedForm(spring: 80, hasWaves: true))
  }

  // MARK: FixedStepIntegrator

  /// Three axes in one: the integrator's acceleration and the closed form per axis.
  private static func integrate(
    _ axes: [Axis], age a: Double, step h: Double = FixedStepIntegrator.step
  ) -> (position: SIMD3<Double>, velocity: SIMD3<Double>) {
    FixedStepIntegrator.state(
      position: SIMD3(axes[0].p0, axes[1].p0, axes[2].p0), velocity: SIMD3(axes[0].v0, axes[1].v0, axes[2].v0),
      age: a, step: h
    ) { p, v, t in
      SIMD3(axes[0].acceleration(p.x, v.x, t), axes[1].acceleration(p.y, v.y, t), axes[2].acceleration(p.z, v.z, t))
    }
  }

  /// The largest position error over a 5-second life, sampled at 60 Hz.
  private static func largestError(_ axes: [Axis], step h: Double = FixedStepIntegrator.step) -> Double {
    var largest = 0.0
    for frame in 1...300 {
      let a = Double(frame) / 60
      let integrated = integrate(axes, age: a, step: h).position
      for (axis, value) in zip(axes, [integrated.x, integrated.y, integrated.z]) {
        largest = max(largest, abs(value - axis.state(at: a).position))
      }
    }
    return largest
  }

  static let springAxes = [
    Axis(p0: 50, v0: 200, λ: 2, κ: 80, c: 0),
    Axis(p0: -20, v0: -100, g: 300, λ: 2, κ: 80, c: 10),
    Axis(p0: 0, v0: 40, g: 300, λ: 2, κ: 80, c: -30),
  ]
  static let waveAxes = [
    Axis(
      p0: 0, v0: 50, λ: 2,
      waves: [
        WaveTerm(amplitude: 100, profile: WaveProfile(frequency: 0.5)),
        WaveTerm(amplitude: 60, profile: WaveProfile(frequency: 3)),
      ], T0: 1.25),
    Axis(p0: 0, v0: -80, g: 300, λ: 2, T0: 1.25),
    Axis(p0: 0, v0: 0, λ: 2, waves: [WaveTerm(amplitude: -40, profile: WaveProfile(frequency: 1.5))], T0: 1.25),
  ]

  /// At h = 1/240 s the integrator stays within its documented error of the
  /// closed form (drag 2 + spring 80 + gravity 300: ≤ 5·10⁻⁶ points, 3.0·10⁻⁶
  /// measured; drag 2 + waves: ≤ 10⁻⁸ points, 3.1·10⁻⁹ measured), and the error
  /// is fourth order in h.
  @Test func fixedStepMatchesClosedFormOnLinearLaws() {
    let spring = Self.largestError(Self.springAxes)
    let waves = Self.largestError(Self.waveAxes)
    #expect(spring <= 5e-6, "spring: \(spring)")
    #expect(waves <= 1e-8, "waves: \(waves)")
    let halved = Self.largestError(Self.springAxes, step: FixedStepIntegrator.step / 2)
    #expect(spring / halved > 12 && spring / halved < 20, "order: \(spring) / \(halved)")
  }

  /// A law outside the closed form (a spring that weakens with distance, whose
  /// stiffness changes over time): the acceleration the determinism tests use.
  private static func nonlinear(_ p: SIMD3<Double>, _ v: SIMD3<Double>, _ t: Double) -> SIMD3<Double> {
    let r = SIMD3(195, 422, -70) - p
    let d = (r * r).sum().squareRoot()
    let stiffness = 80 - 75 * min(t / 1.2, 1)
    let magnitude = stiffness * max(0, d - 30) - 2.9 * max(0, d - 300)
    return (d > 0 ? magnitude / d * r : .zero) - 1.5 * v + SIMD3(0, 300, 0)
  }

  /// state == resume(from: 0) bit for bit; resuming from any returned grid
  /// state reaches the same bits as integrating from birth, whatever the
  /// stepping; the grid point returned is the last one ≤ a.
  @Test func fixedStepIsAPureFunctionOfAge() {
    let p0 = SIMD3<Double>(10, 20, 0)
    let v0 = SIMD3<Double>(300, -450, 25)
    let h = FixedStepIntegrator.step
    for steps in [[1.0 / 60], [1.0 / 7], [0.013, 0.29, 1.0 / 240], [0.5]] {
      var cache = (gridPoint: 0, position: p0, velocity: v0)
      var a = 0.0
      var index = 0
      while a < 3 {
        a += steps[index % steps.count]
        index += 1
        let fromBirth = FixedStepIntegrator.state(position: p0, velocity: v0, age: a, acceleration: Self.nonlinear)
        let viaResume = FixedStepIntegrator.resume(
          from: 0, position: p0, velocity: v0, age: a, acceleration: Self.nonlinear)
        let resumed = FixedStepIntegrator.resume(
          from: cache.gridPoint, position: cache.position, velocity: cache.velocity, age: a,
          acceleration: Self.nonlinear)
        #expect(fromBirth.position == viaResume.position && fromBirth.velocity == viaResume.velocity, "age \(a)")
        #expect(fromBirth.position == resumed.position && fromBirth.velocity == resumed.velocity, "age \(a)")
        #expect(resumed.gridPoint == viaResume.gridPoint)
        #expect(resumed.gridPosition == viaResume.gridPosition && resumed.gridVelocity == viaResume.gridVelocity)
        #expect(Double(resumed.gridPoint) * h <= a && Double(resumed.gridPoint + 1) * h > a, "age \(a)")
        cache = (resumed.gridPoint, resumed.gridPosition, resumed.gridVelocity)
      }
    }
    // On a grid point the state is the grid state (no partial step).
    let onGrid = FixedStepIntegrator.resume(
      from: 0, position: p0, velocity: v0, age: Double(96) * h, acceleration: Self.nonlinear)
    #expect(onGrid.gridPoint == 96 && onGrid.position == onGrid.gridPosition && onGrid.velocity == onGrid.gridVelocity)
  }

  @Test func fixedStepGridAndStepCount() {
    let h = FixedStepIntegrator.step
    for k in 0...2000 {
      let a = Double(k) * h
      #expect(FixedStepIntegrator.gridPoint(atOrBefore: a) == k)
      #expect(FixedStepIntegrator.gridPoint(atOrBefore: a.nextDown) == max(k - 1, 0) || k == 0)
      #expect(FixedStepIntegrator.stepCount(from: 0, age: a) == k)
      #expect(FixedStepIntegrator.stepCount(from: 0, age: a + h / 3) == k + 1)
    }
    #expect(FixedStepIntegrator.stepCount(from: 100, age: 101.5 * h) == 2)
    var evaluations = 0
    _ = FixedStepIntegrator.state(position: .zero, velocity: .one, age: 10.5 * h) { _, _, _ in
      evaluations += 1
      return .zero
    }
    #expect(evaluations == 4 * 11)
  }
}
