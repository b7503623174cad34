import CSleetKernels

/// One particle's birth record as a GPU reads it: 24 4-byte scalars, so its
/// std430 layout is exactly their packing (no padding; the array stride is
/// ``byteCount``).
///
/// The layout is `sleet_gpu_birth_slot` of `Sources/CSleetKernels/sleet_layout.h`,
/// its one definition: this struct stores one, so its memory is the header's
/// layout, and the shader's `Birth` struct is generated from the header's
/// offsets (`ParticleShader` in SleetGPU). docs/gpu.md describes the fields.
/// The birth and death keys are ``orderedKey(_:)`` of the birth time and of
/// the first time at which the particle is dead, split in 32-bit halves;
/// birthHigh and birthLow are the birth time split in two `Float`s,
/// `Float(b)` and `Float(b − Double(birthHigh))`; id is the ``ParticleID``.
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
  /// The slot's bytes, laid out by the header.
  @usableFromInline var storage: sleet_gpu_birth_slot

  /// The slot's size in bytes, the GPU buffer's array stride
  /// (`SLEET_SLOT_BYTES`).
  @inlinable public static var byteCount: Int { SLEET_SLOT_BYTES }

  /// Low 32 bits of ``orderedKey(_:)`` of the birth time.
  @inlinable public var birthKeyLow: UInt32 {
    get { storage.birthKeyLow }
    set { storage.birthKeyLow = newValue }
  }
  /// High 32 bits of ``orderedKey(_:)`` of the birth time.
  @inlinable public var birthKeyHigh: UInt32 {
    get { storage.birthKeyHigh }
    set { storage.birthKeyHigh = newValue }
  }
  /// Low 32 bits of ``orderedKey(_:)`` of the first dead time.
  @inlinable public var deathKeyLow: UInt32 {
    get { storage.deathKeyLow }
    set { storage.deathKeyLow = newValue }
  }
  /// High 32 bits of ``orderedKey(_:)`` of the first dead time.
  @inlinable public var deathKeyHigh: UInt32 {
    get { storage.deathKeyHigh }
    set { storage.deathKeyHigh = newValue }
  }
  /// The birth time rounded to `Float`; with ``birthLow`` it carries the
  /// `Double` birth time to a shader without `double`.
  @inlinable public var birthHigh: Float {
    get { storage.birthHigh }
    set { storage.birthHigh = newValue }
  }
  /// `Float(birthTime − Double(birthHigh))`, the rounding error of
  /// ``birthHigh``.
  @inlinable public var birthLow: Float {
    get { storage.birthLow }
    set { storage.birthLow = newValue }
  }
  /// `1 / lifetime` as the CPU kernel computes it in `Float`.
  @inlinable public var inverseLifetime: Float {
    get { storage.inverseLifetime }
    set { storage.inverseLifetime = newValue }
  }
  /// The row of ``BirthDeltaStream/constantsRows`` holding this particle's
  /// shared values.
  @inlinable public var constantsRow: UInt32 {
    get { storage.constantsRow }
    set { storage.constantsRow = newValue }
  }
  /// Birth position x, in points.
  @inlinable public var positionX: Float {
    get { storage.positionX }
    set { storage.positionX = newValue }
  }
  /// Birth position y, in points.
  @inlinable public var positionY: Float {
    get { storage.positionY }
    set { storage.positionY = newValue }
  }
  /// Birth position z, in points.
  @inlinable public var positionZ: Float {
    get { storage.positionZ }
    set { storage.positionZ = newValue }
  }
  /// Birth scale.
  @inlinable public var scale: Float {
    get { storage.scale }
    set { storage.scale = newValue }
  }
  /// Birth velocity x, in points per second.
  @inlinable public var velocityX: Float {
    get { storage.velocityX }
    set { storage.velocityX = newValue }
  }
  /// Birth velocity y, in points per second.
  @inlinable public var velocityY: Float {
    get { storage.velocityY }
    set { storage.velocityY = newValue }
  }
  /// Birth velocity z, in points per second.
  @inlinable public var velocityZ: Float {
    get { storage.velocityZ }
    set { storage.velocityZ = newValue }
  }
  /// Spin, in radians per second.
  @inlinable public var spin: Float {
    get { storage.spin }
    set { storage.spin = newValue }
  }
  /// Birth colour, red component.
  @inlinable public var red: Float {
    get { storage.red }
    set { storage.red = newValue }
  }
  /// Birth colour, green component.
  @inlinable public var green: Float {
    get { storage.green }
    set { storage.green = newValue }
  }
  /// Birth colour, blue component.
  @inlinable public var blue: Float {
    get { storage.blue }
    set { storage.blue = newValue }
  }
  /// Birth colour, alpha component.
  @inlinable public var alpha: Float {
    get { storage.alpha }
    set { storage.alpha = newValue }
  }
  /// Low 32 bits of the ``ParticleID``.
  @inlinable public var idLow: UInt32 {
    get { storage.idLow }
    set { storage.idLow = newValue }
  }
  /// High 32 bits of the ``ParticleID``.
  @inlinable public var idHigh: UInt32 {
    get { storage.idHigh }
    set { storage.idHigh = newValue }
  }
  /// The lifetime in seconds (informative: the death key is the exact test).
  @inlinable public var lifetime: Float {
    get { storage.lifetime }
    set { storage.lifetime = newValue }
  }
  /// Always 0.
  @inlinable public var reserved: UInt32 {
    get { storage.reserved }
    set { storage.reserved = newValue }
  }

  /// A slot with these fields.
  init(
    birthKeyLow: UInt32,
    birthKeyHigh: UInt32,
    deathKeyLow: UInt32,
    deathKeyHigh: UInt32,
    birthHigh: Float,
    birthLow: Float,
    inverseLifetime: Float,
    constantsRow: UInt32,
    positionX: Float,
    positionY: Float,
    positionZ: Float,
    scale: Float,
    velocityX: Float,
    velocityY: Float,
    velocityZ: Float,
    spin: Float,
    red: Float,
    green: Float,
    blue: Float,
    alpha: Float,
    idLow: UInt32,
    idHigh: UInt32,
    lifetime: Float,
    reserved: UInt32
  ) {
    storage = sleet_gpu_birth_slot()
    storage.birthKeyLow = birthKeyLow
    storage.birthKeyHigh = birthKeyHigh
    storage.deathKeyLow = deathKeyLow
    storage.deathKeyHigh = deathKeyHigh
    storage.birthHigh = birthHigh
    storage.birthLow = birthLow
    storage.inverseLifetime = inverseLifetime
    storage.constantsRow = constantsRow
    storage.positionX = positionX
    storage.positionY = positionY
    storage.positionZ = positionZ
    storage.scale = scale
    storage.velocityX = velocityX
    storage.velocityY = velocityY
    storage.velocityZ = velocityZ
    storage.spin = spin
    storage.red = red
    storage.green = green
    storage.blue = blue
    storage.alpha = alpha
    storage.idLow = idLow
    storage.idHigh = idHigh
    storage.lifetime = lifetime
    storage.reserved = reserved
  }

  /// Field by field, as a struct of these stored values would compare.
  @inlinable
  public static func == (a: GPUBirthSlot, b: GPUBirthSlot) -> Bool {
    a.birthKeyLow == b.birthKeyLow
      && a.birthKeyHigh == b.birthKeyHigh
      && a.deathKeyLow == b.deathKeyLow
      && a.deathKeyHigh == b.deathKeyHigh
      && a.birthHigh == b.birthHigh
      && a.birthLow == b.birthLow
      && a.inverseLifetime == b.inverseLifetime
      && a.constantsRow == b.constantsRow
      && a.positionX == b.positionX
      && a.positionY == b.positionY
      && a.positionZ == b.positionZ
      && a.scale == b.scale
      && a.velocityX == b.velocityX
      && a.velocityY == b.velocityY
      && a.velocityZ == b.velocityZ
      && a.spin == b.spin
      && a.red == b.red
      && a.green == b.green
      && a.blue == b.blue
      && a.alpha == b.alpha
      && a.idLow == b.idLow
      && a.idHigh == b.idHigh
      && a.lifetime == b.lifetime
      && a.reserved == b.reserved
  }

  /// Field by field, consistent with ``==(_:_:)``.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(birthKeyLow)
    hasher.combine(birthKeyHigh)
    hasher.combine(deathKeyLow)
    hasher.combine(deathKeyHigh)
    hasher.combine(birthHigh)
    hasher.combine(birthLow)
    hasher.combine(inverseLifetime)
    hasher.combine(constantsRow)
    hasher.combine(positionX)
    hasher.combine(positionY)
    hasher.combine(positionZ)
    hasher.combine(scale)
    hasher.combine(velocityX)
    hasher.combine(velocityY)
    hasher.combine(velocityZ)
    hasher.combine(spin)
    hasher.combine(red)
    hasher.combine(green)
    hasher.combine(blue)
    hasher.combine(alpha)
    hasher.combine(idLow)
    hasher.combine(idHigh)
    hasher.combine(lifetime)
    hasher.combine(reserved)
  }
}

extension GPUBirthSlot {
  /// The slot of `r`, whose shared values are constants row `constantsRow`.
  /// - Complexity: O(1) (the death time search takes a few steps).
  public init(_ r: BirthRecord, constantsRow: UInt32) {
    storage = sleet_gpu_birth_slot()
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
