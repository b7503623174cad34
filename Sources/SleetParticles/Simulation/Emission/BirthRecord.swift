import SleetMath

/// Everything about a particle that is fixed at birth. Its state at any age a
/// is the closed form of `semantics.md`:
///
/// `ClosedForm` (position p0 + v0·a + ½acc·a², scale, rotation, colour);
/// the accessors below evaluate it.
///
/// A record is a pure function of (effect, seed, cell, birth index, parent
/// record): `BirthSampler` computes it the same way on every path.
public struct BirthRecord: Hashable, Sendable {
  /// The particle's id (see ``ParticleID``).
  public var id: UInt64
  /// The cell's depth-first number (index into ``ParticleFrame/cellPaths``).
  public var cell: UInt32
  /// Emitter-local birth time, seconds.
  public var birthTime: Double
  /// Sampled lifetime × layer lifetime (> 0: records are made only for
  /// particles that exist).
  public var lifetime: Float
  /// Position at birth p0, layer space, points (a sub-particle's includes
  /// its parent's position at that moment).
  public var position: SIMD3<Float>
  /// Velocity at birth v0, points per second.
  public var velocity: SIMD3<Float>
  /// ½·acc, points per second², stored halved so position is
  /// p0 + v0·a + halfAcceleration·a² with no multiply by ½.
  public var halfAcceleration: SIMD3<Float>
  /// Scale at birth s0 (sampled scale × layer scale).
  public var scale: Float
  /// Change of scale per second of age.
  public var scaleSpeed: Float
  /// Rotation rate, radians per second (× layer spin).
  public var spin: Float
  /// Colour at birth c0 (r, g, b, a; unclamped: clamping happens on output).
  public var color: SIMD4<Float>
  /// Colour change per second of age (red/green/blue/alphaSpeed).
  public var colorSpeed: SIMD4<Float>
  /// The cell's unit sub-rectangle of the sprite (x, y, width, height).
  public var contentsRect: SIMD4<Float>
  /// Index into the frame's sprite table; `ParticleInstance.noSprite` for none.
  public var sprite: UInt32

  /// Whether the particle is alive at emitter-local time `t`:
  /// age = t − birthTime ∈ [0, lifetime).
  @inlinable
  public func isAlive(at t: Double) -> Bool {
    let age = t - birthTime
    return age >= 0 && age < Double(lifetime)
  }

  /// Position at age `a`: `ClosedForm.position(_:_:_:age:ageSquared:)`.
  public func position(age a: Float) -> SIMD3<Float> {
    ClosedForm.position(
      position, velocity, halfAcceleration, age: SIMD3(repeating: a), ageSquared: SIMD3(repeating: a * a))
  }

  /// Velocity at age `a`: v0 + acc·a (`ClosedForm.velocity(_:_:age:)`).
  public func velocity(age a: Float) -> SIMD3<Float> {
    ClosedForm.velocity(velocity, halfAcceleration, age: SIMD3(repeating: a))
  }

  /// Drawn scale at age `a`: max(0, s0 + scaleSpeed·a).
  public func scale(age a: Float) -> Float {
    ClosedForm.scale(scale, scaleSpeed, age: a)
  }

  /// Rotation at age `a`: spin·a.
  public func rotation(age a: Float) -> Float {
    ClosedForm.rotation(spin, age: a)
  }

  /// Drawn colour at age `a`: c0 + speed·a clamped to [0, 1].
  public func color(age a: Float) -> SIMD4<Float> {
    ClosedForm.color(color, colorSpeed, age: SIMD4(repeating: a))
  }
}

/// The id scheme. Ids are stable, deterministic 64-bit values; the top 8 bits
/// are the cell's depth-first number, the low 56 bits (``birthKey(of:)``) the
/// birth's identity within its cell path:
///
/// ```
/// top-level particle:  cell << 56 | k                                   k = birth index
/// sub-particle:        cell << 56 | mix64(birthKey(parentID) ⊕ mix64(k + 1)) >> 8
/// ```
///
/// `mix64` is SplitMix64's finaliser. Top-level ids are exact and ordered by
/// birth within a cell; a sub-particle's id is a 56-bit hash of its identity
/// (parent, sub-cell, index), so two live sub-particles of a cell collide with
/// probability about n²/2⁵⁷ (≈ 7·10⁻⁶ for a million). Ids never depend on
/// threads, chunking, frame rate or storage slots, and their low 56 bits
/// never depend on cell numbers: adding or reordering cells renumbers the
/// cells after them but changes no birth key, hence no random draw.
public enum ParticleID {
  /// The id of top-level birth `k` of cell `cell`.
  @inlinable
  public static func topLevel(cell: Int, birthIndex k: Int) -> UInt64 {
    precondition(k >= 0 && k < 1 << 56, "birth index out of range")
    return UInt64(cell) << 56 | UInt64(k)
  }

  /// The id of birth `k` of sub-cell `cell` from the parent with id `parent`.
  @inlinable
  public static func child(cell: Int, parent: UInt64, birthIndex k: Int) -> UInt64 {
    UInt64(cell) << 56 | mix64(birthKey(of: parent) ^ mix64(UInt64(k) &+ 1)) >> 8
  }

  /// The id without its cell number (the low 56 bits): the birth's identity
  /// within its cell, independent of how cells are numbered. Random streams
  /// are keyed on it (the cell path enters through the stream's seed).
  @inlinable
  public static func birthKey(of id: UInt64) -> UInt64 { id & ((1 << 56) - 1) }

  /// The cell number encoded in an id.
  @inlinable
  public static func cell(of id: UInt64) -> Int { Int(id >> 56) }

  /// SplitMix64's finaliser (Steele, Lea, Flood 2014): a bijection of UInt64.
  @inlinable
  public static func mix64(_ x: UInt64) -> UInt64 {
    var z = x &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Samples births: the pure function from a birth's identity to its record.
///
/// Random numbers come from ``RandomStream`` with
/// `seed = emitterSeed | cellKey << 32` (cellKey = FNV-1a of the cell path) and
/// `stream = ParticleID.birthKey(of: id)` (birth index k, or the parent/k hash
/// for sub-cells; never the cell's number, so draws are keyed by (seed, cell
/// path, birth, slot) as docs/semantics.md requires); the attribute slots are words
///
/// | words | attribute |
/// |---|---|
/// | 0–3 | lifetime, speed, scale, spin |
/// | 4–7 | red, green, blue, alpha |
/// | 8–9 | cone: polar, azimuth |
/// | 10–13 | shape coordinates x, y, z, discrete choice |
enum BirthSampler {
  /// Record of top-level birth `k` of `node` at `birthTime`, or nil when its
  /// sampled lifetime is ≤ 0 (it never exists; the index is still consumed).
  static func topLevel(tree: CellTree, seed: UInt32, node: Int, k: Int, birthTime: Double) -> BirthRecord? {
    let segment = tree.segment(at: birthTime)
    return tree.nodes[node].parameters.withUnsafeBufferPointer { parameters in
      topLevel(parameters[segment], node: node, key: tree.nodes[node].key, seed: seed, k: k, birthTime: birthTime)
    }
  }

  /// ``topLevel(tree:seed:node:k:birthTime:)`` with the cell's parameters of
  /// the birth's segment and its path key already looked up: the per-birth
  /// form of the emission loop, which hoists the look-ups out of it.
  @inline(__always)
  static func topLevel(
    _ p: borrowing CellParameters, node: Int, key: UInt32, seed: UInt32, k: Int, birthTime: Double
  ) -> BirthRecord? {
    sample(
      p, node: node, key: key, seed: seed, id: ParticleID.topLevel(cell: node, birthIndex: k),
      birthTime: birthTime, origin: nil, axis: p.axis, inheritedScale: 1, inheritedColor: SIMD4(repeating: 1))
  }

  /// Record of birth `k` of sub-cell `node` from `parent` at `birthTime`:
  /// the parent's drawn state at that time (closed form, or after its
  /// cell's behaviors: ``CellTree/drawnState(of:at:)``) is the origin, base
  /// direction and inherited scale and colour.
  ///
  /// Always inlined, as is the sampler under it: called, its optional
  /// 160-byte record comes back through memory, and the caller copies it
  /// twice (two `memcpy` calls and an outlined tag test per birth).
  @inline(__always)
  static func child(
    tree: CellTree, seed: UInt32, node: Int, parent: BirthRecord, k: Int, birthTime: Double
  ) -> BirthRecord? {
    let state = tree.drawnState(of: parent, at: birthTime)
    return child(
      tree: tree, seed: seed, node: node, parentID: parent.id, k: k, birthTime: birthTime,
      parentPosition: state.position, parentVelocity: state.velocity, parentScale: state.scale,
      parentColor: state.color)
  }

  /// Record of birth `k` of sub-cell `node` from the parent with id
  /// `parentID` whose current (drawn) state is given: it is born at the
  /// parent's position, its cone axis is the parent's direction of motion
  /// (the point rule when the parent is at rest), and its sampled scale and
  /// colour are multiplied by the parent's. Velocity is not inherited.
  @inline(__always)
  static func child(
    tree: CellTree, seed: UInt32, node: Int, parentID: UInt64, k: Int, birthTime: Double,
    parentPosition: SIMD3<Float>, parentVelocity v: SIMD3<Float>, parentScale: Float,
    parentColor: SIMD4<Float>
  ) -> BirthRecord? {
    let segment = tree.segment(at: birthTime)
    let id = ParticleID.child(cell: node, parent: parentID, birthIndex: k)
    let speed = (v * v).sum().squareRoot()
    let base = speed > 0 ? v / speed : SIMD3<Float>(1, 0, 0)
    let p = tree.nodes[node].parameters[segment]
    return sample(
      p, node: node, key: tree.nodes[node].key, seed: seed, id: id, birthTime: birthTime,
      origin: parentPosition, axis: Emission.axis(base: base, angles: p.angles), inheritedScale: parentScale,
      inheritedColor: parentColor)
  }

  /// Words 0–15 of `random` as uniforms, four per block — equal bit for bit
  /// to `random.uniforms(block: 0…3)` (tested): the four Philox4x32-10 blocks
  /// (counters (b, 0, stream low, stream high), b = 0…3) run lane-parallel in
  /// ``Philox4x32/blocks4(_:_:_:_:key:)``, one block per lane, then a 4×4
  /// transpose turns lanes back into blocks.
  @inline(__always)
  static func attributeUniforms(
    _ random: RandomStream
  ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
    let key = SIMD2(UInt32(truncatingIfNeeded: random.seed), UInt32(truncatingIfNeeded: random.seed >> 32))
    let (w0, w1, w2, w3) = Philox4x32.blocks4(
      SIMD4(0, 1, 2, 3), SIMD4(repeating: 0), SIMD4(repeating: UInt32(truncatingIfNeeded: random.stream)),
      SIMD4(repeating: UInt32(truncatingIfNeeded: random.stream >> 32)), key: key)
    // Word j of block b is lane b of w_j: transpose by two levels of unzipping.
    let ab = SIMD8(lowHalf: w0, highHalf: w1)
    let cd = SIMD8(lowHalf: w2, highHalf: w3)
    let evens = SIMD8(lowHalf: ab.evenHalf, highHalf: cd.evenHalf)
    let odds = SIMD8(lowHalf: ab.oddHalf, highHalf: cd.oddHalf)
    return (
      RandomStream.unitFloat(evens.evenHalf), RandomStream.unitFloat(odds.evenHalf),
      RandomStream.unitFloat(evens.oddHalf), RandomStream.unitFloat(odds.oddHalf)
    )
  }

  @inline(__always)
  private static func sample(
    _ p: borrowing CellParameters, node: Int, key: UInt32, seed: UInt32, id: UInt64, birthTime: Double,
    origin: SIMD3<Float>?, axis: SIMD3<Float>, inheritedScale: Float, inheritedColor: SIMD4<Float>
  ) -> BirthRecord? {
    let (u0, u1, u2, u3) = attributeUniforms(
      RandomStream(seed: UInt64(seed) | UInt64(key) << 32, stream: ParticleID.birthKey(of: id)))
    // Every mean/range pair is uniform on [M − R/2, M + R/2].
    let lifetime = (p.lifetime + (u0.x - 0.5) * p.lifetimeRange) * p.lifetimeMultiplier
    guard lifetime > 0 else { return nil }
    let speed = (p.velocity + (u0.y - 0.5) * p.velocityRange) * p.velocityMultiplier
    let scale = (p.scale + (u0.z - 0.5) * p.scaleRange) * p.scaleMultiplier * inheritedScale
    let spin = (p.spin + (u0.w - 0.5) * p.spinRange) * p.spinMultiplier
    let color = (p.color + (u1 - 0.5) * p.colorRange) * inheritedColor
    let direction = Emission.cone(axis: axis, angles: p.angles, u: u2.x, v: u2.y)
    let position: SIMD3<Float>
    if let origin {
      position = origin
    } else {
      position = Emission.position(
        shape: p.layer.shape, mode: p.layer.mode, center: p.layer.position, size: p.layer.size,
        depth: p.layer.depth, u: SIMD4(u2.z, u2.w, u3.x, u3.y))
    }
    return BirthRecord(
      id: id, cell: UInt32(node), birthTime: birthTime, lifetime: lifetime, position: position,
      velocity: direction * speed, halfAcceleration: p.halfAcceleration, scale: scale,
      scaleSpeed: p.scaleSpeed, spin: spin, color: color, colorSpeed: p.colorSpeed,
      contentsRect: p.contentsRect, sprite: p.sprite)
  }
}
