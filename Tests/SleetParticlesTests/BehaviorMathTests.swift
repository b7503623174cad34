import Foundation
import Testing

@testable import SleetParticles

@Suite("Behavior math: wave integrals, axis closed forms, fixed-step RK4")
struct BehaviorMathTests {
  // MARK: Independent references

  /// w(T) written literally from its definition (``WaveBehavior``'s doc).
  static func waveDefinition(frequency f: Double, time T: Double) -> Double {
    let x = f * T
    let tri = 1 - abs(2 * (x - x.rounded(.down)) - 1)
    let q = tri < 0.5 ? 2 * tri * tri : 1 - 2 * (1 - tri) * (1 - tri)
    return 2 * q - 1
  }

  /// Classical RK4 in Double for x'' = A(x, x', age), steps of at most 10⁻⁴ s
  /// (each interval between checkpoints cut into equal steps), the state at each
  /// checkpoint age (ascending).
  static func referenceRK4(
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
  static func simpson(_ a: Double, _ b: Double, panels: Int, _ g: (Double) -> Double) -> Double {
    let h = (b - a) / Double(panels)
    var sum = g(a) + g(b)
    for i in 1..<panels { sum += Double(i % 2 == 0 ? 2 : 4) * g(a + Double(i) * h) }
    return sum * h / 3
  }

  /// |actual − expected| ≤ tolerance · scale, with the numbers in the message.
  static func expectClose(
    _ actual: Double, _ expected: Double, tolerance: Double, scale: Double, _ what: @autoclosure () -> String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let error = abs(actual - expected)
    #expect(
      error <= tolerance * scale, "\(what()): \(actual) vs \(expected), error \(error) > \(tolerance) × \(scale)",
      sourceLocation: sourceLocation)
  }

  static let waveFrequencies: [Double] = [0, 0.5, 3]
  static let birthTimes: [Double] = [0, -2.63, 1e4 + 0.37]
  static let waveAges: [Double] = [1e-3, 0.37, 2.3, 5]

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
          Self.expectClose(
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
      for base in Self.birthTimes {
        for i in 0...2000 {
          let T = base + Double(i) * 0.0017
          Self.expectClose(
            wave.value(at: T), Self.waveDefinition(frequency: f, time: T), tolerance: abs(base) < 100 ? 1e-13 : 1e-10,
            scale: 1, "w(\(T)), f = \(f)")
        }
      }
    }
  }

  /// ∫w, ∬w and their damped forms against Simpson's rule on value(at:)
  /// (2·10⁵ panels per 5 s: the kinks of w'' at quarter periods bound it to
  /// about 10⁻¹⁰): |error| ≤ 10⁻⁹·a (J) and 10⁻⁹·a² (K).
  @Test func waveIntegralsMatchQuadrature() {
    for f in Self.waveFrequencies {
      let wave = WaveProfile(frequency: f)
      for T0 in Self.birthTimes {
        for a in Self.waveAges {
          for λ in [0, 0.05, 2, 30] {
            let panels = 2 * max(500, Int(a * 20_000))
            let damp = { (s: Double) in exp(-λ * (a - s)) }
            let lever = { (s: Double) in λ == 0 ? a - s : -expm1(-λ * (a - s)) / λ }
            let J = Self.simpson(0, a, panels: panels) { damp($0) * wave.value(at: T0 + $0) }
            let K = Self.simpson(0, a, panels: panels) { lever($0) * wave.value(at: T0 + $0) }
            let r = wave.response(from: T0, age: a, decay: λ)
            let label = "f \(f), T0 \(T0), a \(a), λ \(λ)"
            Self.expectClose(r.velocity, J, tolerance: 1e-9, scale: a, "J, \(label)")
            Self.expectClose(r.displacement, K, tolerance: 1e-9, scale: a * a, "K, \(label)")
            Self.expectClose(wave.dampedIntegral(from: T0, age: a, decay: λ), J, tolerance: 1e-9, scale: a, label)
            Self.expectClose(
              wave.dampedDoubleIntegral(from: T0, age: a, decay: λ), K, tolerance: 1e-9, scale: a * a, label)
            if λ == 0 {
              Self.expectClose(wave.integral(from: T0, age: a), J, tolerance: 1e-9, scale: a, "∫w, \(label)")
              Self.expectClose(wave.doubleIntegral(from: T0, age: a), K, tolerance: 1e-9, scale: a * a, "∬w, \(label)")
            }
          }
        }
      }
    }
  }

  /// The response (J, K) against RK4 at 10⁻⁴ s (2·10⁻³/λ where smaller) of v' = −λv + w(T0 + t),
  /// x' = v from rest: |error| ≤ 10⁻¹¹·a (J) and 10⁻¹¹·a² (K).
  @Test func waveResponseMatchesRK4() {
    for f in Self.waveFrequencies {
      let wave = WaveProfile(frequency: f)
      for T0 in Self.birthTimes {
        for λ in [0, 1e-6, 0.05, 1, 2, 30] {
          let reference = Self.referenceRK4(
            position: 0, velocity: 0, checkpoints: Self.waveAges, step: min(1e-4, 2e-3 / λ)
          ) {
            _, v, t in
            -λ * v + wave.value(at: T0 + t)
          }
          for (a, expected) in zip(Self.waveAges, reference) {
            let r = wave.response(from: T0, age: a, decay: λ)
            let label = "f \(f), T0 \(T0), a \(a), λ \(λ)"
            Self.expectClose(r.velocity, expected.velocity, tolerance: 1e-11, scale: a, "J, \(label)")
            Self.expectClose(r.displacement, expected.position, tolerance: 1e-11, scale: a * a, "K, \(label)")
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
            Self.expectClose(r.velocity, velocity, tolerance: 1e-13, scale: a, "J, f \(f), T0 \(T0), λ \(λ), n \(n)")
            Self.expectClose(r.displacement, displacement, tolerance: 1e-13, scale: a * a, "K, n \(n)")
          }
        }
      }
    }
  }

  /// The response is continuous in the decay: λ = 10⁻¹² is within 10⁻¹¹ (relative
  /// to a, a²) of λ = 0, and K moves at the rate dK/dλ = −∫ (a−s)²/2 · w.
  @Test func waveResponseIsContinuousAsDecayVanishes() {
    let wave = WaveProfile(frequency: 3)
    for T0 in Self.birthTimes {
      for a in Self.waveAges {
        let undamped = wave.response(from: T0, age: a, decay: 0)
        let tiny = wave.response(from: T0, age: a, decay: 1e-12)
        Self.expectClose(tiny.velocity, undamped.velocity, tolerance: 1e-11, scale: a, "J, T0 \(T0), a \(a)")
        Self.expectClose(
          tiny.displacement, undamped.displacement, tolerance: 1e-11, scale: a * a, "K, T0 \(T0), a \(a)")
        let slope = -Self.simpson(0, a, panels: 2 * max(500, Int(a * 20_000))) {
          (a - $0) * (a - $0) / 2 * wave.value(at: T0 + $0)
        }
        let small = wave.response(from: T0, age: a, decay: 1e-6)
        Self.expectClose(
          (small.displacement - undamped.displacement) / 1e-6, slope, tolerance: 1e-6, scale: a * a * a,
          "dK/dλ, T0 \(T0), a \(a)")
      }
    }
  }
}
