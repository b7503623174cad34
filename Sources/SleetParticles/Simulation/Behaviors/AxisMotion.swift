import Foundation

/// A wave force term on one axis: amplitude (force component / mass,
/// points/s²) × w(T).
struct WaveTerm: Hashable, Sendable {
  var amplitude: Double
  var profile: WaveProfile
}

/// One axis of a particle's motion under constant-parameter forces, in closed
/// form:
///
/// ```
/// x'' = g + Σᵢ Aᵢ·wᵢ(T0 + a) − λ·x' − κ·(x − c)      x(0) = p0, x'(0) = v0
/// ```
///
/// Implementation goals: (1) exact formulas, continuous in every parameter
/// (λ → 0, κ → 0, and through critical damping λ² = 4κ); (2) no
/// cancellation beyond a small constant factor in any regime; (3) O(1), no
/// allocation.
///
/// **κ = 0** (any λ ≥ 0, any waves), with z = −λa and ``ExponentialPhi``:
///
/// ```
/// x'(a) = v0·e^z + g·a·φ₁(z) + Σᵢ Aᵢ·Jᵢ(a)
/// x(a)  = p0 + v0·a·φ₁(z) + g·a²·φ₂(z) + Σᵢ Aᵢ·Kᵢ(a)
/// ```
///
/// (J, K the wave's ``WaveProfile/response(from:age:decay:)``): the same as
/// v∞ + (v0 − v∞)e^(−λa) with v∞ = g/λ, written so that λ → 0 tends to the
/// ballistic p0 + v0·a + g·a²/2 with no division by λ.
///
/// **κ ≠ 0, no waves:** with y = x − p0, y'' + λy' + κy = F0, F0 = g + κ(c − p0):
///
/// ```
/// x(a)  = p0 + v0·S(a) + F0·Q(a)       x'(a) = v0·S'(a) + F0·S(a)
/// ```
///
/// S the impulse response (S'' + λS' + κS = 0, S(0) = 0, S'(0) = 1), Q = ∫S (see
/// ``DampedOscillator``). Written about p0 rather than the rest point
/// c + g/κ, so κ → 0 does not cancel large terms. κ < 0 (a repelling spring)
/// is the same formula.
///
/// **Postconditions** (ε = 2⁻⁵²), measured against a 30-digit matrix
/// exponential for λ ∈ [0, 1000], κ ∈ [10⁻⁹, 400] (with λ² = 4κ(1 ± 10⁻⁹)),
/// a ∈ [10⁻³, 5] s: |position error| ≤ 8ε·(|p0| + |v0|·a + |F0|·min(a², 2/κ))
/// and |velocity error| ≤ 8ε·(|v0| + |F0|·min(a, 2/√κ)); κ = 0 (F0 = g):
/// ≤ 1ε of the same scales. For κ < 0 the error is a few ε relative to the
/// growing solution. Waves add their response's error (``WaveProfile``)
/// times |Aᵢ|.
enum AxisMotion {
  /// Whether the closed form covers these parameters: κ == 0 (any λ ≥ 0, any
  /// waves), or κ ≠ 0 with no waves (λ ≥ 0).
  static func isClosedForm(spring κ: Double, hasWaves: Bool) -> Bool {
    κ == 0 || !hasWaves
  }

  /// The position and velocity of one axis at age a ≥ 0: the three-axis
  /// form on that axis alone. Requires λ ≥ 0, and no waves where κ ≠ 0
  /// (``isClosedForm(spring:hasWaves:)``).
  ///
  /// - Complexity: O(1 + waves.count).
  static func state(
    p0: Double, v0: Double, acceleration g: Double, drag λ: Double, spring κ: Double, center c: Double,
    waves: [WaveTerm], birthTime T0: Double, age a: Double
  ) -> (position: Double, velocity: Double) {
    let s = state(
      position: SIMD3(p0, 0, 0), velocity: SIMD3(v0, 0, 0), acceleration: SIMD3(g, 0, 0), drag: λ, spring: κ,
      center: SIMD3(c, 0, 0), waves: waves.map { WaveForce(force: SIMD3($0.amplitude, 0, 0), profile: $0.profile) },
      birthTime: T0, age: a)
    return (s.position.x, s.velocity.x)
  }

  /// The three axes at once, for one drag λ and one spring κ on every axis
  /// (a radial attractor): the φ functions, the oscillator and each wave's
  /// response are computed once, not per axis; each lane is the one-axis
  /// law above.
  ///
  /// - Complexity: O(1 + waves.count); no allocation.
  static func state(
    position p0: SIMD3<Double>, velocity v0: SIMD3<Double>, acceleration g: SIMD3<Double>, drag λ: Double,
    spring κ: Double, center c: SIMD3<Double>, waves: some Collection<WaveForce>, birthTime T0: Double, age a: Double
  ) -> (position: SIMD3<Double>, velocity: SIMD3<Double>) {
    if κ == 0 {
      let φ = ExponentialPhi(-λ * a)
      var velocity = v0 * φ.exponential + g * (a * φ.phi1)
      var position = p0 + v0 * (a * φ.phi1) + g * (a * a * φ.phi2)
      for wave in waves {
        let response = wave.profile.response(from: T0, age: a, decay: λ, periods: wave.periods)
        velocity += wave.force * response.velocity
        position += wave.force * response.displacement
      }
      return (position, velocity)
    }
    assert(waves.isEmpty, "a wave under a spring has no closed form here")
    let unit = DampedOscillator(drag: λ, spring: κ, age: a)
    let force = g + κ * (c - p0)
    return (p0 + v0 * unit.impulse + force * unit.step, v0 * unit.impulseRate + force * unit.impulse)
  }
}

/// A wave force on the three axes: force / mass (points/s²) × w(T).
struct WaveForce: Hashable, Sendable {
  var force: SIMD3<Double>
  var profile: WaveProfile
  /// The profile's parts that depend only on its frequency and a decay,
  /// used when that decay is the motion's (``WaveProfile/Periods``).
  var periods: WaveProfile.Periods? = nil
}

/// The unit responses of y'' + λy' + κy = u at age a: the impulse response
/// S (u = 0, S(0) = 0, S'(0) = 1), its derivative S', and the step response
/// Q = ∫₀ᵃ S (u = 1, Q(0) = Q'(0) = 0). λ ≥ 0, any κ.
///
/// With x = λa/2 and q = (κ − λ²/4)·a² (q > 0 under-damped, q < 0 over-damped):
///
/// ```
/// S  = e^(−x)·a·F(q)         F(q) = sin √q / √q   (sinh √−q / √−q for q < 0)
/// S' = e^(−x)·(C(q) − x·F(q))    C(q) = cos √q       (cosh √−q)
/// Q  = (1 − S' − λS)/κ
/// ```
///
/// F and C are entire in q: for |q| ≤ 1 (within one radian of critical
/// damping) they are summed as series, so critical damping has no 1/ω
/// blow-up. For q < −1 the roots r₁,₂·a = x₁,₂ = −x ± √−q are used instead
/// (x₁ = −κa²/(x + √−q), without cancellation), S = a(e^x₁ − e^x₂)/(x₁ − x₂),
/// so a strong over-damping never forms sinh·e^(−x) (overflow). Q's quotient
/// by κ cancels where κQ ≪ 1; there:
/// - |q| ≤ 1 and x < 2 (young, all roots |r|·a ≤ 3): Q by its Taylor series
///   in a, tₖ₊₂ = −(2x(k+1)tₖ₊₁ + κa²tₖ)/((k+2)(k+1)), t₂ = a²/2 (32 terms);
/// - q < −1 and x₁ > −1 (the slow root not yet decayed, including κ → 0 and
///   κ < 0): the divided difference Q = a²(φ₁(x₁) − φ₁(x₂))/(x₁ − x₂), with
///   x₁ − x₂ ≥ 2.
/// Elsewhere κQ ≥ 0.45 (or Q's true zeros of an oscillation, where the error
/// is relative to Q's amplitude 2/κ).
struct DampedOscillator {
  var impulse: Double
  var impulseRate: Double
  var step: Double

  init(drag λ: Double, spring κ: Double, age a: Double) {
    let x = 0.5 * λ * a
    // κ − λ²/4 is exact near critical damping for parameters that came from Float.
    let q = (κ - 0.25 * (λ * λ)) * (a * a)
    if q >= -1 {
      let (f, c): (Double, Double)
      if q <= 1 {
        (f, c) = Self.series(q)
      } else {
        let w = q.squareRoot()
        (f, c) = (sin(w) / w, cos(w))
      }
      let decay = exp(-x)
      impulse = decay * a * f
      impulseRate = decay * (c - x * f)
      if q <= 1 && x < 2 {
        step = Self.stepSeries(x: x, k2: κ * (a * a)) * (a * a)
      } else {
        step = (1 - impulseRate - λ * impulse) / κ
      }
    } else {
      let d = (-q).squareRoot()
      let x1 = -(κ * (a * a)) / (x + d)
      let x2 = -x - d
      let e1 = exp(x1)
      let e2 = exp(x2)
      let gap = 2 * d
      impulse = a * (e1 - e2) / gap
      impulseRate = (x1 * e1 - x2 * e2) / gap
      if x1 > -1 {
        step = (a * a) * (ExponentialPhi.phi1(x1) - ExponentialPhi.phi1(x2)) / gap
      } else {
        step = (1 - impulseRate - λ * impulse) / κ
      }
    }
  }

  /// F(q) = Σ (−q)ᵐ/(2m+1)! and C(q) = Σ (−q)ᵐ/(2m)!, |q| ≤ 1 (12 terms each,
  /// truncation below 10⁻²⁰).
  static func series(_ q: Double) -> (f: Double, c: Double) {
    var f = 1.0
    var c = 1.0
    var m = 12.0
    while m >= 1 {
      f = 1 - q * f / ((2 * m) * (2 * m + 1))
      c = 1 - q * c / ((2 * m - 1) * (2 * m))
      m -= 1
    }
    return (f, c)
  }

  /// Q/a² by the Taylor series of Q'' + λQ' + κQ = 1 in the age, for x = λa/2
  /// < 2 and k2 = κa² ≤ 1 + x² (32 terms; every root |r|·a ≤ 3, so the terms
  /// fall below 10⁻¹⁸ of the first).
  static func stepSeries(x: Double, k2: Double) -> Double {
    var previous = 0.0
    var current = 0.5
    var sum = 0.5
    var k = 1.0
    while k <= 32 {
      let next = -(2 * x * (k + 1) * current + k2 * previous) / ((k + 2) * (k + 1))
      sum += next
      previous = current
      current = next
      k += 1
    }
    return sum
  }
}
