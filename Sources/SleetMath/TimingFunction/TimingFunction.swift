/// A cubic Bézier timing curve with the semantics of `CAMediaTimingFunction`.
///
/// The curve runs from (0, 0) to (1, 1) with control points (x1, y1) and
/// (x2, y2). For an input time fraction x ∈ [0, 1], the output is y(t) where t
/// solves x(t) = x:
///
/// ```
/// B(t) = 3(1−t)²t·P1 + 3(1−t)t²·P2 + t³          (P0 = (0,0), P3 = (1,1))
/// ```
///
/// **Edge Cases:** inputs below 0 give 0 and above 1 give 1 (Core Animation
/// clamps the time fraction); NaN gives NaN. Control x values must lie in [0, 1]
/// (a precondition, as `CAMediaTimingFunction` requires) so x(t) is monotonic.
///
/// **Postconditions:** the value is within 1e−6 of the exact curve for every
/// x ∈ [0, 1] and every curve whose x(t) has no stationary point inside (0, 1)
/// — all of Core Animation's named curves — (tested against a 200-step
/// bisection). A curve with x1 = 1 and x2 = 0 has x′(½) = 0: there the
/// problem itself is ill-conditioned in `Double` and the error near x = ½ grows
/// to a few 1e−6.
///
/// Algorithm: Newton–Raphson on x(t) from t = x, falling back to bisection
/// when the derivative is small — the method of WebKit's `UnitBezier`.
public struct TimingFunction: Hashable, Sendable, Codable {
  /// The first control point's time coordinate, in [0, 1] (the curve runs
  /// from (0, 0) to (1, 1)).
  public let x1: Double
  /// The first control point's progress coordinate (may leave [0, 1]:
  /// overshoot).
  public let y1: Double
  /// The second control point's time coordinate, in [0, 1].
  public let x2: Double
  /// The second control point's progress coordinate (may leave [0, 1]).
  public let y2: Double

  /// A custom curve, `CAMediaTimingFunction(controlPoints:)`.
  public init(controlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
    precondition(
      (0...1).contains(x1) && (0...1).contains(x2) && y1.isFinite && y2.isFinite,
      "TimingFunction: control x values must be in [0, 1] and y values finite, got (\(x1), \(y1), \(x2), \(y2))"
    )
    self.x1 = x1
    self.y1 = y1
    self.x2 = x2
    self.y2 = y2
  }

  /// `kCAMediaTimingFunctionLinear`: (0, 0, 1, 1).
  public static let linear = TimingFunction(controlPoints: 0, 0, 1, 1)
  /// `kCAMediaTimingFunctionEaseIn`: (0.42, 0, 1, 1).
  public static let easeIn = TimingFunction(controlPoints: 0.42, 0, 1, 1)
  /// `kCAMediaTimingFunctionEaseOut`: (0, 0, 0.58, 1).
  public static let easeOut = TimingFunction(controlPoints: 0, 0, 0.58, 1)
  /// `kCAMediaTimingFunctionEaseInEaseOut`: (0.42, 0, 0.58, 1).
  public static let easeInEaseOut = TimingFunction(controlPoints: 0.42, 0, 0.58, 1)
  /// `kCAMediaTimingFunctionDefault`: (0.25, 0.1, 0.25, 1).
  public static let `default` = TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1)

  /// Core Animation's named curves, by their `CAMediaTimingFunctionName` spelling.
  public static let named: [String: TimingFunction] = [
    "linear": .linear, "easeIn": .easeIn, "easeOut": .easeOut,
    "easeInEaseOut": .easeInEaseOut, "default": .default,
  ]

  // Polynomial coefficients: x(t) = ((ax·t + bx)·t + cx)·t, likewise y.
  @inline(__always) private var cx: Double { 3 * x1 }
  @inline(__always) private var bx: Double { 3 * (x2 - x1) - cx }
  @inline(__always) private var ax: Double { 1 - cx - bx }
  @inline(__always) private var cy: Double { 3 * y1 }
  @inline(__always) private var by: Double { 3 * (y2 - y1) - cy }
  @inline(__always) private var ay: Double { 1 - cy - by }

  @inline(__always) private func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
  @inline(__always) private func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
  @inline(__always) private func slopeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

  /// The curve parameter t with x(t) = x, for x ∈ [0, 1].
  private func solveCurveX(_ x: Double) -> Double {
    var t = x
    for _ in 0..<8 {
      let error = sampleX(t) - x
      let d = slopeX(t)
      if abs(d) < 1e-6 { break }
      let step = error / d
      t -= step
      if abs(step) < 1e-13 && (0...1).contains(t) { return t }
    }
    // Bisection to a 2⁻⁴⁸ bracket: always converges because x(t) is monotonic.
    var lo = 0.0
    var hi = 1.0
    while hi - lo > 0x1p-48 {
      let mid = (lo + hi) / 2
      if sampleX(mid) < x { lo = mid } else { hi = mid }
    }
    return (lo + hi) / 2
  }

  /// The curve's output for a time fraction `x`.
  /// - Complexity: O(1); at most 8 Newton and 48 bisection steps.
  public func value(at x: Double) -> Double {
    if x.isNaN { return .nan }
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    return sampleY(solveCurveX(x))
  }

  /// `value(at:)` for `Float` input and output (computed in `Double`).
  @inlinable
  public func value(at x: Float) -> Float {
    Float(value(at: Double(x)))
  }

  /// The batch form: `out[i] = value(at: inputs[i])`.
  /// - Precondition: `out.count == inputs.count`.
  /// - Complexity: O(n), no allocations.
  public func values(
    at inputs: UnsafeBufferPointer<Float>, into out: UnsafeMutableBufferPointer<Float>
  ) {
    precondition(
      out.count == inputs.count,
      "TimingFunction.values: out.count \(out.count) != inputs.count \(inputs.count)")
    for i in 0..<inputs.count {
      out[i] = Float(value(at: Double(inputs[i])))
    }
  }

  /// The batch form over arrays.
  public func values(at inputs: [Float]) -> [Float] {
    [Float](unsafeUninitializedCapacity: inputs.count) { out, n in
      inputs.withUnsafeBufferPointer { values(at: $0, into: out) }
      n = inputs.count
    }
  }
}
