import Foundation

/// The wave behavior's time profile w(T) = 2·q(tri(f·T)) − 1 (``WaveBehavior``:
/// tri(x) = 1 − |2·frac(x) − 1|, q(y) = 2y² for y < ½, 1 − 2(1 − y)² otherwise),
/// and its exact integrals. f = 0: w ≡ −1.
///
/// Implementation goals: (1) exact piecewise-polynomial integration, no
/// quadrature; (2) O(1) work for any age and any number of periods; (3) no
/// cancellation that grows with the emitter time, the number of periods or a
/// vanishing decay.
///
/// In the phase x = frac(f·T), w is a quadratic on each quarter period:
///
/// ```
/// x ∈ [0, ¼)   w = 16x² − 1            x ∈ [½, ¾)   w = 1 − 16(x − ½)²
/// x ∈ [¼, ½)   w = 1 − 16(½ − x)²      x ∈ [¾, 1)   w = 16(1 − x)² − 1
/// ```
///
/// C¹, with period P = 1/f and mean 0. Every integral is one response of a
/// particle of unit mass under the drag λ to the force w(T0 + s), started at
/// rest (``response(from:age:decay:)``):
///
/// ```
/// J(a) = ∫₀ᵃ e^(−λ(a−s)) · w(T0+s) ds            velocity   (λ = 0: ∫ w)
/// K(a) = ∫₀ᵃ (1 − e^(−λ(a−s)))/λ · w(T0+s) ds    displacement (λ = 0: ∬ w)
/// ```
///
/// **Algorithm.** Over a piece of τ seconds on which w(s) = p₀ + p₁s + p₂s²/2,
/// with z = −λτ and φⱼ the exponential-integrator functions (``ExponentialPhi``):
///
/// ```
/// J ← e^z·J + p₀τφ₁ + p₁τ²φ₂ + p₂τ³φ₃
/// K ← K + τφ₁·J_old + p₀τ²φ₂ + p₁τ³φ₃ + p₂τ⁴φ₄
/// ```
///
/// exact for any λ ≥ 0 (λ → 0 is continuous: φⱼ(0) = 1/j!). Whole periods go
/// at once: a period from phase x₀ adds c_K to K and c_J = −λ·c_K to J (∫ w
/// over a period is 0), so n periods give K = c_K·R and J = −λ·c_K·R with
/// R = Σₖ₌₀ⁿ⁻¹ e^(−kλP) = n·φ₁(−nλP)/φ₁(−λP) (= n at λ = 0: the double
/// integral grows linearly, by c_K per period). The walk first reaches a
/// quarter-period boundary; from there a period is four whole quarters
/// sharing one set of φ functions, and the rest of the age is whole quarters
/// and one part of a quarter. This equals the periodic steady state y_p of
/// y' = −λy + w, J(a) = y_p(T0 + a) − e^(−λa)·y_p(T0), written so that nothing
/// divides by 1 − e^(−λP).
///
/// **Phase reduction.** frac(f·T) is taken with the rounding error of f·T
/// recovered by a fused multiply-add, so the phase is exact to about one ulp
/// of 1 for any emitter time (not one ulp of f·T).
///
/// **Postconditions** (ε = 2⁻⁵²), measured against 30-digit quadrature split
/// at every quarter period, for f ∈ {0.1, 0.5, 3, 10} Hz, T0 ∈ {0, 0.37,
/// 10⁵ + 0.37} s, a ∈ [10⁻³, 10] s and λ ∈ {0, 10⁻⁹, 0.05, 2, 100}:
/// - `value(at:)`: |error| ≤ 0.4ε.
/// - J (and ∫ w): |error| ≤ 1.0ε·a; K (and ∬ w): |error| ≤ 0.9ε·a².
/// Nothing grows with T0 or with the number of periods: whole periods are one
/// product, never a loop.
struct WaveProfile: Hashable, Sendable {
  /// Periods per second, f. Its sign does not matter (w is even in its phase).
  var frequency: Double

  init(frequency: Double) {
    self.frequency = frequency
  }

  /// w(T).
  func value(at T: Double) -> Double {
    let f = frequency.magnitude
    guard f > 0 else { return -1 }
    return Self.piece(atPhase: Self.phase(of: T, frequency: f)).value
  }

  /// ∫ from T0 to T0 + a of w(s) ds.
  func integral(from T0: Double, age a: Double) -> Double {
    response(from: T0, age: a, decay: 0).velocity
  }

  /// ∫₀ᵃ ∫₀ˢ w(T0 + r) dr ds.
  func doubleIntegral(from T0: Double, age a: Double) -> Double {
    response(from: T0, age: a, decay: 0).displacement
  }

  /// ∫₀ᵃ e^(−λ(a−s)) · w(T0 + s) ds, λ ≥ 0.
  func dampedIntegral(from T0: Double, age a: Double, decay λ: Double) -> Double {
    response(from: T0, age: a, decay: λ).velocity
  }

  /// ∫₀ᵃ (1 − e^(−λ(a−s)))/λ · w(T0 + s) ds = (∫ w − dampedIntegral)/λ, λ ≥ 0,
  /// without that quotient's cancellation (λ = 0: the double integral).
  func dampedDoubleIntegral(from T0: Double, age a: Double, decay λ: Double) -> Double {
    response(from: T0, age: a, decay: λ).displacement
  }

  /// The velocity J and displacement K, at age a, of a particle of unit
  /// mass born at rest at emitter time T0, under the drag λ ≥ 0 and the force
  /// w (see the type's doc). Edge cases: a ≤ 0 gives (0, 0); f = 0 gives
  /// (−a·φ₁(−λa), −a²·φ₂(−λa)).
  ///
  /// - Complexity: O(1) whatever a: at most nine polynomial pieces, three
  ///   evaluations of ``ExponentialPhi`` and two of `expm1` (none at λ = 0).
  func response(from T0: Double, age a: Double, decay λ: Double) -> (velocity: Double, displacement: Double) {
    response(from: T0, age: a, decay: λ, periods: nil)
  }

  /// ``response(from:age:decay:)`` with the parts that depend only on the
  /// frequency and the decay taken from `periods` when they were computed
  /// for this profile and exactly this decay (the same bits: the same
  /// operations, done once for all the particles of a program).
  func response(from T0: Double, age a: Double, decay λ: Double, periods: Periods?)
    -> (velocity: Double, displacement: Double)
  {
    assert(λ >= 0, "a decay is never negative")
    guard a > 0 else { return (0, 0) }
    let f = frequency.magnitude
    guard f > 0 else {
      let φ = ExponentialPhi(-λ * a)
      return (-(a * φ.phi1), -(a * a * φ.phi2))
    }
    let periods = periods.flatMap { $0.frequency == f && $0.decay.bitPattern == λ.bitPattern ? $0 : nil }
    let x = Self.phase(of: T0, frequency: f)
    var remaining = f * a
    var state = Accumulator()
    // Up to the first quarter-period boundary (or the whole age, if sooner).
    let first = Self.piece(atPhase: x)
    let toBoundary = Double(first.quarter + 1) * 0.25 - x
    if remaining <= toBoundary {
      state.advance(first, length: remaining, frequency: f, phi: ExponentialPhi(-λ * (remaining / f)))
      return (state.velocity, state.displacement)
    }
    state.advance(first, length: toBoundary, frequency: f, phi: ExponentialPhi(-λ * (toBoundary / f)))
    remaining -= toBoundary
    var quarter = (first.quarter + 1) & 3
    let quarterPhi = periods?.quarterPhi ?? ExponentialPhi(-λ * (0.25 / f))
    // Whole periods from this boundary, all at once.
    let whole = Self.floor(remaining)
    if whole > 0 {
      let λP = λ / f
      let perPeriod =
        periods?.perPeriod[quarter]
        ?? Self.perPeriod(fromQuarter: quarter, frequency: f, decay: λ, quarterPhi: quarterPhi)
      let spanPhi = ExponentialPhi.phi1(-whole * λP)
      let sum = perPeriod * (whole * spanPhi / (periods?.phi1OfPeriod ?? ExponentialPhi.phi1(-λP)))
      state.displacement += (whole / f) * spanPhi * state.velocity + sum
      state.velocity = (1 + (-whole * λP) * spanPhi) * state.velocity - λ * sum
      remaining -= whole
    }
    // Whole quarters, then the rest of one.
    while remaining > 0 {
      let start = Self.piece(atPhase: Double(quarter) * 0.25)
      if remaining >= 0.25 {
        state.advance(start, length: 0.25, frequency: f, phi: quarterPhi)
        remaining -= 0.25
        quarter = (quarter + 1) & 3
      } else {
        state.advance(start, length: remaining, frequency: f, phi: ExponentialPhi(-λ * (remaining / f)))
        remaining = 0
      }
    }
    return (state.velocity, state.displacement)
  }

  /// frac(f·T) in [0, 1), f > 0, with the rounding error of f·T added back.
  static func phase(of T: Double, frequency f: Double) -> Double {
    let product = f * T
    let error = (-product).addingProduct(f, T)
    var x = (product - Self.floor(product)) + error
    if x < 0 { x += 1 }
    if x >= 1 { x -= 1 }
    return x
  }

  /// `x.rounded(.down)`, bit for bit, without the library call that the
  /// portable (SSE2) build makes for it: below 2⁵² in magnitude the
  /// integer part converts to `Int64` and back exactly, and truncation
  /// toward zero is one too high only for a negative non-integer; from
  /// 2⁵² on every Double is an integer, and an infinity or a NaN is its own
  /// floor; −0.0 keeps its sign.
  @inline(__always)
  static func floor(_ x: Double) -> Double {
    guard x.magnitude < 0x1p52 else { return x }
    let truncated = Double(Int64(x))
    let floor = truncated > x ? truncated - 1 : truncated
    return x == 0 ? x : floor
  }

  /// w at phase x ∈ [0, 1), with its first and second derivatives in x, and
  /// the quarter period x lies in.
  @inline(__always)
  static func piece(atPhase x: Double) -> (value: Double, slope: Double, curvature: Double, quarter: Int) {
    switch min(Int(x * 4), 3) {
    case 0: return (16 * x * x - 1, 32 * x, 32, 0)
    case 1:
      let u = 0.5 - x
      return (1 - 16 * u * u, 32 * u, -32, 1)
    case 2:
      let u = x - 0.5
      return (1 - 16 * u * u, -32 * u, -32, 2)
    default:
      let t = 1 - x
      return (16 * t * t - 1, -32 * t, 32, 3)
    }
  }

  /// The response to one whole period from quarter boundary `quarter`,
  /// per unit of the period's decay: c_K, or −c_J/λ (c_J = −λ·c_K
  /// exactly; whichever is computed without cancellation: c_K while
  /// λP < 1, where c_J is O(λP²), c_J beyond).
  static func perPeriod(fromQuarter quarter: Int, frequency f: Double, decay λ: Double, quarterPhi: ExponentialPhi)
    -> Double
  {
    var period = Accumulator()
    for k in 0..<4 {
      let start = Self.piece(atPhase: Double((quarter + k) & 3) * 0.25)
      period.advance(start, length: 0.25, frequency: f, phi: quarterPhi)
    }
    let λP = λ / f
    return λP < 1 ? period.displacement : -period.velocity / λ
  }

  /// The parts of ``response(from:age:decay:periods:)`` that depend only on
  /// the frequency f = |frequency| > 0 and the decay λ: the φ functions of a
  /// quarter period, the response to a whole period from each quarter
  /// boundary, and φ₁(−λ/f).
  struct Periods: Hashable, Sendable {
    let frequency: Double
    let decay: Double
    let quarterPhi: ExponentialPhi
    let perPeriod: SIMD4<Double>
    let phi1OfPeriod: Double

    /// nil when the frequency is 0 (no periods).
    init?(_ profile: WaveProfile, decay λ: Double) {
      let f = profile.frequency.magnitude
      guard f > 0 else { return nil }
      frequency = f
      decay = λ
      let quarterPhi = ExponentialPhi(-λ * (0.25 / f))
      self.quarterPhi = quarterPhi
      perPeriod = SIMD4(
        (0..<4).map { WaveProfile.perPeriod(fromQuarter: $0, frequency: f, decay: λ, quarterPhi: quarterPhi) })
      phi1OfPeriod = ExponentialPhi.phi1(-(λ / f))
    }
  }

  /// The (J, K) pair carried across pieces.
  private struct Accumulator {
    var velocity = 0.0
    var displacement = 0.0

    /// Carries the state over `length` of phase (within one quarter) from the
    /// start of `piece`; `phi` holds the φ functions at −λ·length/f.
    mutating func advance(
      _ piece: (value: Double, slope: Double, curvature: Double, quarter: Int), length δ: Double,
      frequency f: Double, phi φ: ExponentialPhi
    ) {
      let τ = δ / f
      let p1 = piece.slope * δ
      let p2 = piece.curvature * (δ * δ)
      let dJ = τ * (piece.value * φ.phi1 + p1 * φ.phi2 + p2 * φ.phi3)
      let dK = (τ * τ) * (piece.value * φ.phi2 + p1 * φ.phi3 + p2 * φ.phi4)
      displacement += τ * φ.phi1 * velocity + dK
      velocity = φ.exponential * velocity + dJ
    }
  }
}

/// e^z and the exponential-integrator functions φ₁ … φ₄ at z ≤ 0:
///
/// ```
/// φⱼ(z) = Σₘ zᵐ/(m + j)!      φ₁ = (e^z − 1)/z,  φⱼ₊₁ = (φⱼ − 1/j!)/z
/// ```
///
/// so that ∫₀^τ e^(−λ(τ−s)) · sᵏ/k! ds = τᵏ⁺¹·φₖ₊₁(−λτ). For |z| < 2, φ₄ by its
/// series (21 terms with the nearest Doubles to 1/(m+4)!, truncation below
/// 10⁻¹⁹, summed as two chains in z²) and φ₃, φ₂, φ₁ upward from it
/// (φⱼ = 1/j! + z·φⱼ₊₁, no cancellation); beyond, by the recurrence from
/// `expm1`, whose cancellation there is at most a factor 3 per step.
///
/// **Postconditions:** relative error of each φⱼ ≤ 16ε; φⱼ(0) = 1/j! (rounded).
struct ExponentialPhi: Hashable, Sendable {
  var exponential: Double
  var phi1: Double
  var phi2: Double
  var phi3: Double
  var phi4: Double

  @inline(__always)
  init(_ z: Double) {
    if z == 0 {
      (exponential, phi1, phi2, phi3, phi4) = (1, 1, 0.5, 1.0 / 6, 1.0 / 24)
    } else if z.magnitude < 2 {
      // Σ_{m≤20} zᵐ/(m+4)! as even + z·odd in z², two independent chains.
      let z2 = z * z
      var even = 0x1.f2cf01972f578p-80
      even = even * z2 + 0x1.0ce396db7f853p-70
      even = even * z2 + 0x1.e542ba4020225p-62
      even = even * z2 + 0x1.6827863b97d97p-53
      even = even * z2 + 0x1.ae7f3e733b81fp-45
      even = even * z2 + 0x1.93974a8c07c9dp-37
      even = even * z2 + 0x1.1eed8eff8d898p-29
      even = even * z2 + 0x1.27e4fb7789f5cp-22
      even = even * z2 + 0x1.a01a01a01a01ap-16
      even = even * z2 + 0x1.6c16c16c16c17p-10
      even = even * z2 + 0x1.5555555555555p-5
      var odd = 0x1.761b41316381ap-75
      odd = odd * z2 + 0x1.71b8ef6dcf572p-66
      odd = odd * z2 + 0x1.2f49b46814157p-57
      odd = odd * z2 + 0x1.952c77030ad4ap-49
      odd = odd * z2 + 0x1.ae7f3e733b81fp-41
      odd = odd * z2 + 0x1.6124613a86d09p-33
      odd = odd * z2 + 0x1.ae64567f544e4p-26
      odd = odd * z2 + 0x1.71de3a556c734p-19
      odd = odd * z2 + 0x1.a01a01a01a01ap-13
      odd = odd * z2 + 0x1.1111111111111p-7
      phi4 = even + z * odd
      phi3 = 1.0 / 6 + z * phi4
      phi2 = 0.5 + z * phi3
      phi1 = 1 + z * phi2
      exponential = exp(z)
    } else {
      exponential = exp(z)
      phi1 = expm1(z) / z
      phi2 = (phi1 - 1) / z
      phi3 = (phi2 - 0.5) / z
      phi4 = (phi3 - 1.0 / 6) / z
    }
  }

  /// φ₁(z) = (e^z − 1)/z for any z (1 at 0), relative error ≤ 2ε.
  static func phi1(_ z: Double) -> Double {
    z == 0 ? 1 : expm1(z) / z
  }
}
