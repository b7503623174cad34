/// The closed form of `semantics.md`, the one definition of a particle's state
/// at age a that every path evaluates: the four-lane kernel, its naive twin,
/// ``BirthRecord``'s accessors and the inspection API. The eight-lane kernel
/// of uniform blocks (`sleet_evaluate_uniform_block8`, C, `CSleetKernels`)
/// restates these formulas with the same operations in the same order;
/// `UniformBlockKernelTests` hold it to this definition bit for bit.
///
/// ```
/// position(a)       = p0 + v0·a + h·(a·a)           h = ½·acceleration
/// velocity(a)       = v0 + h·(a + a)
/// scale(a)          = max(0, s0 + scaleSpeed·a)
/// rotation(a)       = spin·a
/// colour(a)         = clamp(c0 + colourSpeed·a, 0, 1)
/// normalisedAge(a)  = min(a·(1/lifetime), 1 − 2⁻²⁴)
/// ```
///
/// Each formula is generic over the lanes it is evaluated on (`Float`, or a
/// `SIMD` vector of `Float`: axes for a record, particles for the kernel), with
/// one operation order, so every path gives the same bits: IEEE operations
/// are correctly rounded lane by lane, and Swift does not contract `a + b·c`
/// into a fused multiply-add. `max`/`clamp` keep the comparison form
/// (`x < 0 ? 0 : x`), so −0 and NaN pass through as the scalar code lets them.
///
/// Always inlined: the kernel's loops must see straight-line vector code.
enum ClosedForm {
  @inline(__always)
  static func position<V: ClosedFormLanes>(_ p0: V, _ v0: V, _ h: V, age a: V, ageSquared aa: V) -> V {
    p0 + v0 * a + h * aa
  }

  @inline(__always)
  static func velocity<V: ClosedFormLanes>(_ v0: V, _ h: V, age a: V) -> V {
    v0 + h * (a + a)
  }

  @inline(__always)
  static func scale<V: ClosedFormLanes>(_ s0: V, _ scaleSpeed: V, age a: V) -> V {
    (s0 + scaleSpeed * a).clampedBelowAtZero()
  }

  @inline(__always)
  static func rotation<V: ClosedFormLanes>(_ spin: V, age a: V) -> V {
    spin * a
  }

  @inline(__always)
  static func color<V: ClosedFormLanes>(_ c0: V, _ colorSpeed: V, age a: V) -> V {
    (c0 + colorSpeed * a).clampedToUnitInterval()
  }

  /// The largest `Float` below 1: a particle's normalised age never reaches 1.
  static let belowOne: Float = 0x1.fffffep-1

  @inline(__always)
  static func normalizedAge<V: ClosedFormLanes>(age a: V, inverseLifetime: V) -> V {
    (a * inverseLifetime).clampedAbove(at: ClosedForm.belowOne)
  }
}

/// What the closed form needs of its lanes: `Float` and `SIMD` vectors of
/// `Float` conform.
protocol ClosedFormLanes {
  static func + (lhs: Self, rhs: Self) -> Self
  static func * (lhs: Self, rhs: Self) -> Self
  /// `x < 0 ? 0 : x` per lane.
  func clampedBelowAtZero() -> Self
  /// `x > limit ? limit : x` per lane.
  func clampedAbove(at limit: Float) -> Self
  /// `x < 0 ? 0 : (x > 1 ? 1 : x)` per lane.
  func clampedToUnitInterval() -> Self
}

extension Float: ClosedFormLanes {
  @inline(__always) func clampedBelowAtZero() -> Float { self < 0 ? 0 : self }
  @inline(__always) func clampedAbove(at limit: Float) -> Float { self > limit ? limit : self }
  @inline(__always) func clampedToUnitInterval() -> Float { self < 0 ? 0 : (self > 1 ? 1 : self) }
}

/// The vector form, shared by every `SIMD` width.
extension SIMD where Scalar == Float {
  @inline(__always) func clampedBelowAtZero() -> Self {
    var x = self
    x.replace(with: 0, where: x .< 0)
    return x
  }

  @inline(__always) func clampedAbove(at limit: Float) -> Self {
    var x = self
    x.replace(with: limit, where: x .> limit)
    return x
  }

  @inline(__always) func clampedToUnitInterval() -> Self {
    var x = self
    x.replace(with: 0, where: x .< 0)
    x.replace(with: 1, where: x .> 1)
    return x
  }
}

extension SIMD3: ClosedFormLanes where Scalar == Float {}
extension SIMD4: ClosedFormLanes where Scalar == Float {}
extension SIMD8: ClosedFormLanes where Scalar == Float {}
