extension ParticleStore {
  /// The per-block bounds of ``isSurelyAlive(block:at:)``, block 0 first,
  /// for the ``fullBlocks`` whole blocks (the frame's C block loop reads
  /// them). Valid until the next mutation.
  var surelyAliveBounds: UnsafePointer<Double> { UnsafePointer(aliveBounds) }

  /// Blocks whose eight lanes are all stored (holes included).
  var fullBlocks: Int { count >> 3 }

  /// d − 10⁻¹²·max(1, |d|): below it, t − birth < lifetime holds exactly in
  /// every lane of a block whose earliest end of life is d (see
  /// ``isSurelyAlive(block:at:)``). Monotonic in d: every step rounds a
  /// monotonic function. −∞ stays −∞; +∞ gives NaN, never above any t.
  @inline(__always)
  static func surelyAliveBound(death d: Double) -> Double { d - 1e-12 * Swift.max(1, abs(d)) }

  /// Whether every lane of full block `b` is certainly alive at `t`, read
  /// from one `Double` instead of the block's birth-time and lifetime slots:
  /// t is below the block's earliest end of life by a margin of 10⁻¹²
  /// relative (thousands of ulps), so t − birth < lifetime holds exactly in
  /// every lane. False for the last, partial block and near the margin (the
  /// caller then checks the lanes).
  ///
  /// Invariant the callers keep: `t` is at or after every stored birth (the
  /// store only ever holds births up to the system's current time).
  @inline(__always)
  func isSurelyAlive(block b: Int, at t: Double) -> Bool {
    guard (b + 1) * 8 <= count else { return false }
    return t < aliveBounds[b]
  }

  /// The bound of ``isSurelyAlive(block:at:)`` recorded for stored block
  /// `b` (tests compare it).
  func surelyAliveBound(block b: Int) -> Double { aliveBounds[b] }
}
