/// An animation frame's display time as the exact fraction
/// `numerator / denominator` seconds, the form APNG's `fcTL` chunk stores
/// (two 16-bit fields).
public struct FrameDelay: Hashable, Sendable, CustomStringConvertible {
  /// Seconds × denominator (`fcTL` `delay_num`).
  public var numerator: UInt16
  /// The fraction's denominator (`fcTL` `delay_den`), > 0.
  public var denominator: UInt16

  /// - Precondition: `denominator > 0` (APNG would read 0 as 100).
  public init(numerator: UInt16, denominator: UInt16) {
    precondition(denominator > 0, "FrameDelay: denominator must be > 0")
    self.numerator = numerator
    self.denominator = denominator
  }

  /// One frame at an integral frame rate: exactly `1 / framesPerSecond` s.
  /// - Precondition: 1 ≤ `framesPerSecond` ≤ 65535.
  public init(framesPerSecond: Int) {
    precondition(
      framesPerSecond >= 1 && framesPerSecond <= 65535,
      "FrameDelay: framesPerSecond must be in 1...65535, got \(framesPerSecond)")
    self.init(numerator: 1, denominator: UInt16(framesPerSecond))
  }

  /// The fraction with both terms ≤ 65535 closest to `seconds` (the best
  /// rational approximation, by continued fractions); exact whenever `seconds`
  /// is such a fraction, e.g. `1/30` or `0.04`.
  /// - Precondition: `seconds` finite, in [0, 65535].
  /// - Complexity: O(log 65535) steps.
  public init(seconds: Double) {
    precondition(
      seconds.isFinite && seconds >= 0 && seconds <= 65535,
      "FrameDelay: seconds must be finite and in [0, 65535], got \(seconds)")
    // Convergents h/k of the continued fraction of `seconds`, stopping before a
    // term exceeds 16 bits; then the best semiconvergent between the last two.
    let limit: Double = 65535
    var (h0, h1): (Double, Double) = (0, 1)
    var (k0, k1): (Double, Double) = (1, 0)
    var x = seconds
    var best = (n: seconds.rounded(), d: 1.0)
    for _ in 0..<64 {
      let a = x.rounded(.down)
      let h2 = a * h1 + h0, k2 = a * k1 + k0
      if h2 > limit || k2 > limit {
        // Largest semiconvergent that fits, if closer.
        let m = Swift.min(
          k1 > 0 ? ((limit - k0) / k1).rounded(.down) : a,
          h1 > 0 ? ((limit - h0) / h1).rounded(.down) : a)
        if m >= 1 {
          let hs = m * h1 + h0, ks = m * k1 + k0
          if abs(hs / ks - seconds) < abs(best.n / best.d - seconds) { best = (hs, ks) }
        }
        break
      }
      (h0, h1) = (h1, h2)
      (k0, k1) = (k1, k2)
      best = (h2, k2)
      let fraction = x - a
      if fraction < 1e-12 || abs(h2 / k2 - seconds) < 1e-15 { break }
      x = 1 / fraction
    }
    self.init(numerator: UInt16(best.n), denominator: UInt16(best.d))
  }

  /// The delay in seconds.
  public var seconds: Double { Double(numerator) / Double(denominator) }

  public var description: String { "\(numerator)/\(denominator) s" }
}
