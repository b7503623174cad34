import Testing

@testable import SleetParticles

/// ``AxisMotion``'s closed forms against RK4 at 10⁻⁴ s: ballistic, drag,
/// waves, springs through critical damping, and their limits.
extension BehaviorMathTests {
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
    let reference = Self.referenceRK4(
      position: axis.p0, velocity: axis.v0, checkpoints: Self.axisAges, step: min(1e-4, 2e-3 / axis.λ),
      acceleration: axis.acceleration)
    for (a, expected) in zip(Self.axisAges, reference) {
      let s = axis.state(at: a)
      Self.expectClose(
        s.position, expected.position, tolerance: 1e-12, scale: axis.scale, "position at \(a), \(axis)",
        sourceLocation: sourceLocation)
      Self.expectClose(
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
        Self.expectClose(s.position, position, tolerance: 1e-15, scale: base.scale, "position at \(a), λ \(λ)")
        Self.expectClose(s.velocity, velocity, tolerance: 1e-15, scale: base.scale, "velocity at \(a), λ \(λ)")
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
      Self.expectClose(both.position, one.position + other.position, tolerance: 1e-15, scale: 2000, "position at \(a)")
      Self.expectClose(both.velocity, one.velocity + other.velocity, tolerance: 1e-15, scale: 2000, "velocity at \(a)")
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
        Self.expectClose(s.position, critical.position, tolerance: 1e-8, scale: 1000, "position at \(a), λ \(λ)")
        Self.expectClose(s.velocity, critical.velocity, tolerance: 1e-8, scale: 1000, "velocity at \(a), λ \(λ)")
      }
    }
  }

  /// A vanishing spring tends to the drag-only law.
  @Test func vanishingSpringTendsToDrag() {
    for λ: Double in [0, 0.5, 30] {
      for a in Self.axisAges {
        let drag = Axis(p0: 1, v0: 80, g: 300, λ: λ).state(at: a)
        let spring = Axis(p0: 1, v0: 80, g: 300, λ: λ, κ: 1e-13, c: 0).state(at: a)
        Self.expectClose(spring.position, drag.position, tolerance: 1e-11, scale: 10_000, "position at \(a), λ \(λ)")
        Self.expectClose(spring.velocity, drag.velocity, tolerance: 1e-11, scale: 10_000, "velocity at \(a), λ \(λ)")
      }
    }
  }

  @Test func closedFormCoverage() {
    #expect(AxisMotion.isClosedForm(spring: 0, hasWaves: true))
    #expect(AxisMotion.isClosedForm(spring: 0, hasWaves: false))
    #expect(AxisMotion.isClosedForm(spring: 80, hasWaves: false))
    #expect(!AxisMotion.isClosedForm(spring: 80, hasWaves: true))
    #expect(AxisMotion.isClosedForm(spring: -4, hasWaves: false))
    #expect(!AxisMotion.isClosedForm(spring: -4, hasWaves: true))
  }

  /// The three-axis form gives the bits of the per-axis form, lane by lane.
  @Test func threeAxesAtOnceEqualEachAxis() {
    let sway = WaveProfile(frequency: 0.5)
    let flutter = WaveProfile(frequency: 3)
    let p0 = SIMD3<Double>(3, -20, 7)
    let v0 = SIMD3<Double>(120, -300, 4)
    let g = SIMD3<Double>(0, 300, -9)
    let c = SIMD3<Double>(195, 422, -70)
    let waves = [
      WaveForce(force: SIMD3(100, 0, -5), profile: sway), WaveForce(force: SIMD3(-60, 30, 0), profile: flutter),
    ]
    for (λ, κ) in [(0, 0), (2, 0), (2, 80), (10, 25), (200, 1), (1, -4)] as [(Double, Double)] {
      for a in Self.axisAges {
        let forces = κ == 0 ? waves : []
        let all = AxisMotion.state(
          position: p0, velocity: v0, acceleration: g, drag: λ, spring: κ, center: c, waves: forces,
          birthTime: 1e4 + 0.37, age: a)
        for i in 0..<3 {
          let one = AxisMotion.state(
            p0: p0[i], v0: v0[i], acceleration: g[i], drag: λ, spring: κ, center: c[i],
            waves: forces.map { WaveTerm(amplitude: $0.force[i], profile: $0.profile) }, birthTime: 1e4 + 0.37,
            age: a)
          #expect(all.position[i] == one.position && all.velocity[i] == one.velocity, "λ \(λ) κ \(κ) a \(a) axis \(i)")
        }
      }
    }
  }

  /// At age 0 every law gives back the birth state exactly.
  @Test func ageZeroIsTheBirthState() {
    let sway = WaveTerm(amplitude: 100, profile: WaveProfile(frequency: 0.5))
    let axes = [
      Axis(p0: 3, v0: -7, g: 300), Axis(p0: 3, v0: -7, g: 300, λ: 2, waves: [sway], T0: 1e4 + 0.37),
      Axis(p0: 3, v0: -7, g: 300, λ: 2, κ: 80, c: 40), Axis(p0: 3, v0: -7, λ: 10, κ: 25, c: 40),
      Axis(p0: 3, v0: -7, λ: 200, κ: 1, c: 40), Axis(p0: 3, v0: -7, λ: 1, κ: -4, c: 40),
    ]
    for axis in axes {
      let s = axis.state(at: 0)
      #expect(s.position == 3 && s.velocity == -7, "\(axis)")
    }
  }
}
