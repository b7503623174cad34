/// One particle's birth record as a GPU reads it: 96 bytes of 4-byte scalars,
/// so its std430 layout is exactly this packing (array stride 96, no
/// padding), stable across versions.
///
/// | offset | field | meaning |
/// |---|---|---|
/// | 0 | birthKey lo, hi | ``orderedKey(_:)`` of the birth time (`Double`) |
/// | 8 | deathKey lo, hi | ``orderedKey(_:)`` of the first time at which the particle is dead |
/// | 16 | birthHigh, birthLow | the birth time split in two `Float`s: `Float(b)`, `Float(b − Double(birthHigh))` |
/// | 24 | inverseLifetime | `1 / lifetime`, the `Float` division the CPU kernel makes |
/// | 28 | constantsRow | row of the constants table (per cell and timeline segment) |
/// | 32 | p0 x, y, z; s0 | birth position; birth scale |
/// | 48 | v0 x, y, z; spin | birth velocity; spin (radians per second) |
/// | 64 | c0 r, g, b, a | birth colour |
/// | 80 | id lo, hi | ``ParticleID`` |
/// | 88 | lifetime | seconds (informative: the death key is the exact test) |
/// | 92 | reserved | 0 |
///
/// **The death rule.** The CPU keeps a particle while
/// age = t − birthTime (in `Double`) lies in [0, lifetime). Because
/// `t ↦ fl(t − b)` is non-decreasing, that set of times is
/// [birthTime, deathTime) for one `Double` deathTime (computed by
/// ``firstDeadTime(birthTime:lifetime:)``), so a shader without `double`
/// decides it exactly with two 64-bit unsigned comparisons of ordered keys:
/// `birthKey ≤ key(t) < deathKey`.
///
/// Shared values (½·acceleration, scale speed, colour speed, contentsRect,
/// sprite, cell) are in the constants table row `constantsRow`
/// (``BirthDeltaStream/constantsRows``), uploaded once per effect.
@frozen
public struct GPUBirthSlot: Hashable, Sendable {
  /// Low 32 bits of ``orderedKey(_:)`` of the birth time (offset 0).
  public var birthKeyLow: UInt32
  /// High 32 bits of ``orderedKey(_:)`` of the birth time (offset 4).
  public var birthKeyHigh: UInt32
  /// Low 32 bits of ``orderedKey(_:)`` of the first dead time (offset 8).
  public var deathKeyLow: UInt32
  /// High 32 bits of ``orderedKey(_:)`` of the first dead time (offset 12).
  public var deathKeyHigh: UInt32
  /// The birth time rounded to `Float` (offset 16); with ``birthLow`` it
  /// carries the `Double` birth time to a shader without `double`.
  public var birthHigh: Float
  /// `Float(birthTime − Double(birthHigh))`, the rounding error of
  /// ``birthHigh`` (offset 20).
  public var birthLow: Float
  /// `1 / lifetime` as the CPU kernel computes it in `Float` (offset 24).
  public var inverseLifetime: Float
  /// The row of ``BirthDeltaStream/constantsRows`` holding this particle's
  /// shared values (offset 28).
  public var constantsRow: UInt32
  // Scalars, not SIMD3/SIMD4: those have 16-byte alignment (and SIMD3 a
  // 16-byte stride), which would break the packing.
  /// Birth position x, in points (offset 32).
  public var positionX: Float
  /// Birth position y, in points (offset 36).
  public var positionY: Float
  /// Birth position z, in points (offset 40).
  public var positionZ: Float
  /// Birth scale (offset 44).
  public var scale: Float
  /// Birth velocity x, in points per second (offset 48).
  public var velocityX: Float
  /// Birth velocity y, in points per second (offset 52).
  public var velocityY: Float
  /// Birth velocity z, in points per second (offset 56).
  public var velocityZ: Float
  /// Spin, in radians per second (offset 60).
  public var spin: Float
  /// Birth colour, red component (offset 64).
  public var red: Float
  /// Birth colour, green component (offset 68).
  public var green: Float
  /// Birth colour, blue component (offset 72).
  public var blue: Float
  /// Birth colour, alpha component (offset 76).
  public var alpha: Float
  /// Low 32 bits of the ``ParticleID`` (offset 80).
  public var idLow: UInt32
  /// High 32 bits of the ``ParticleID`` (offset 84).
  public var idHigh: UInt32
  /// The lifetime in seconds (offset 88; informative: the death key is the
  /// exact test).
  public var lifetime: Float
  /// Always 0 (offset 92): pads the slot to 96 bytes.
  public var reserved: UInt32
}

extension GPUBirthSlot {
  /// The slot of `r`, whose shared values are constants row `constantsRow`.
  /// - Complexity: O(1) (the death time search takes a few steps).
  public init(_ r: BirthRecord, constantsRow: UInt32) {
    let birthKey = Self.orderedKey(r.birthTime)
    let deathKey = Self.orderedKey(Self.firstDeadTime(birthTime: r.birthTime, lifetime: r.lifetime))
    birthKeyLow = UInt32(truncatingIfNeeded: birthKey)
    birthKeyHigh = UInt32(truncatingIfNeeded: birthKey >> 32)
    deathKeyLow = UInt32(truncatingIfNeeded: deathKey)
    deathKeyHigh = UInt32(truncatingIfNeeded: deathKey >> 32)
    birthHigh = Float(r.birthTime)
    birthLow = Float(r.birthTime - Double(birthHigh))
    inverseLifetime = 1 / r.lifetime
    self.constantsRow = constantsRow
    (positionX, positionY, positionZ) = (r.position.x, r.position.y, r.position.z)
    scale = r.scale
    (velocityX, velocityY, velocityZ) = (r.velocity.x, r.velocity.y, r.velocity.z)
    spin = r.spin
    (red, green, blue, alpha) = (r.color.x, r.color.y, r.color.z, r.color.w)
    idLow = UInt32(truncatingIfNeeded: r.id)
    idHigh = UInt32(truncatingIfNeeded: r.id >> 32)
    lifetime = r.lifetime
    reserved = 0
  }

  /// Birth position.
  public var position: SIMD3<Float> { SIMD3(positionX, positionY, positionZ) }
  /// Birth velocity.
  public var velocity: SIMD3<Float> { SIMD3(velocityX, velocityY, velocityZ) }
  /// Birth colour.
  public var color: SIMD4<Float> { SIMD4(red, green, blue, alpha) }

  /// The birth key as one integer.
  @inlinable public var birthKey: UInt64 { UInt64(birthKeyHigh) << 32 | UInt64(birthKeyLow) }
  /// The death key as one integer.
  @inlinable public var deathKey: UInt64 { UInt64(deathKeyHigh) << 32 | UInt64(deathKeyLow) }
  /// The particle id.
  @inlinable public var id: UInt64 { UInt64(idHigh) << 32 | UInt64(idLow) }
  /// The exact birth time (decoded from the birth key).
  public var birthTime: Double { Self.time(forKey: birthKey) }

  /// Whether the particle is alive at the time whose key is `timeKey`:
  /// `birthKey ≤ timeKey < deathKey`, the same answer as
  /// ``BirthRecord/isAlive(at:)``.
  @inlinable
  public func isAlive(atKey timeKey: UInt64) -> Bool {
    birthKey <= timeKey && timeKey < deathKey
  }

  /// A `Double`'s bits mapped so that unsigned integer order is numeric
  /// order (−0 just below +0; NaN is not a valid time): the sign bit is
  /// flipped for non-negative values, every bit for negative ones.
  @inlinable
  public static func orderedKey(_ t: Double) -> UInt64 {
    let bits = t.bitPattern
    return bits >> 63 == 0 ? bits | 1 << 63 : ~bits
  }

  /// The inverse of ``orderedKey(_:)``.
  @inlinable
  public static func time(forKey key: UInt64) -> Double {
    Double(bitPattern: key >> 63 == 1 ? key & ~(1 << 63) : ~key)
  }

  /// The smallest `Double` T with `T − birthTime ≥ Double(lifetime)` in
  /// `Double` arithmetic: the particle is alive exactly at the times in
  /// [birthTime, T). Starts from `birthTime + lifetime` (within an ulp of
  /// T) and steps by ulps; `fl(t − b)` is monotonic in t, so the search ends.
  /// - Precondition: finite birth time, lifetime > 0.
  public static func firstDeadTime(birthTime b: Double, lifetime: Float) -> Double {
    precondition(b.isFinite && lifetime > 0, "a birth record has a finite birth time and a positive lifetime")
    let l = Double(lifetime)
    var t = b + l
    if t - b >= l {
      while (t.nextDown - b) >= l { t = t.nextDown }
    } else {
      while t - b < l { t = t.nextUp }
    }
    return t
  }
}
