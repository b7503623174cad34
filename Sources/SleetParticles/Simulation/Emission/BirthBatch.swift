import SleetMath

/// Eight consecutive top-level births of one cell, sampled at once: lane l is
/// birth `first + l`, attribute by attribute (structure of arrays).
///
/// **Invariant:** lane l holds bit for bit what the scalar
/// ``BirthSampler/topLevel(_:node:key:seed:k:birthTime:)`` computes for birth
/// `first + l` (tested over all shapes × modes, cone ranges, multipliers):
/// the same random words (Philox lanes across births instead of across
/// blocks), the same IEEE operations in the same order per lane (Swift does
/// not contract into FMA). Lanes never read each other, so a final partial
/// batch simply computes the unused lanes and ``record(_:)`` is never asked
/// for them; a lane whose lifetime is ≤ 0 is a birth that never exists (the
/// caller skips it; its index is still consumed).
struct BirthBatch {
  typealias V = SIMD8<Float>
  /// Birth index of lane 0.
  var first: Int
  var lifetime, speed, scale, spin: V
  var red, green, blue, alpha: V
  var x, y, z: V
  var vx, vy, vz: V

  /// Samples births `first ..< first + 8` of the top-level cell with
  /// parameters `p` (one segment for all eight) and path key `key`;
  /// `basis` is ``Emission/basis(axis:)`` of `p.axis`, hoisted per cell.
  ///
  /// Only the Philox blocks an attribute reads are computed: blocks 0 and 1
  /// always (lifetime, speed, scale, spin; colour), block 2 when the cone
  /// is open or the shape reads a continuous coordinate, block 3 when the
  /// shape reads z or a discrete choice. Unread words cannot change a record.
  @inline(__always)
  init(
    _ p: borrowing CellParameters, basis: (SIMD3<Float>, SIMD3<Float>), key: UInt32, seed: UInt32,
    first: Int
  ) {
    self.first = first
    // RandomStream(seed: seed | key << 32, stream: k): Philox key = seed
    // words, counter (b, 0, k.low32, k.high32) for block b.
    let philoxKey = SIMD2(seed, key)
    let lanes = SIMD8<UInt32>(0, 1, 2, 3, 4, 5, 6, 7)
    let k0 = UInt64(first)
    let low = UInt32(truncatingIfNeeded: k0)
    let c2 = SIMD8(repeating: low) &+ lanes
    var c3 = SIMD8(repeating: UInt32(truncatingIfNeeded: k0 >> 32))
    if low > UInt32.max - 7 {
      // The low word wraps inside the batch: carry into the high word.
      for l in 0..<8 where c2[l] < low { c3[l] &+= 1 }
    }
    let zero = SIMD8<UInt32>(repeating: 0)
    @inline(__always) func block(_ b: UInt32) -> (V, V, V, V) {
      let (w0, w1, w2, w3) = Philox4x32.blocks8(SIMD8(repeating: b), zero, c2, c3, key: philoxKey)
      return (
        RandomStream.unitFloat(w0), RandomStream.unitFloat(w1), RandomStream.unitFloat(w2),
        RandomStream.unitFloat(w3)
      )
    }
    let layer = p.layer
    let shape = layer.shape
    let mode = layer.mode
    let (u0, u1, u2, u3) = block(0)
    // Every mean/range pair is uniform on [M − R/2, M + R/2].
    lifetime = (p.lifetime + (u0 - 0.5) * p.lifetimeRange) * p.lifetimeMultiplier
    speed = (p.velocity + (u1 - 0.5) * p.velocityRange) * p.velocityMultiplier
    scale = (p.scale + (u2 - 0.5) * p.scaleRange) * p.scaleMultiplier
    spin = (p.spin + (u3 - 0.5) * p.spinRange) * p.spinMultiplier
    let (r, g, b, a) = block(1)
    red = (p.color.x + (r - 0.5) * p.colorRange.x)
    green = (p.color.y + (g - 0.5) * p.colorRange.y)
    blue = (p.color.z + (b - 0.5) * p.colorRange.z)
    alpha = (p.color.w + (a - 0.5) * p.colorRange.w)
    let needsBlock2 = p.angles.range > 0 || !Self.isConstant(shape, mode)
    let needsBlock3 = Self.readsBlock3(shape, mode)
    let zeros = V(repeating: 0)
    let (polar, azimuth, sx, sy) = needsBlock2 ? block(2) : (zeros, zeros, zeros, zeros)
    let (sz, choice, _, _) = needsBlock3 ? block(3) : (zeros, zeros, zeros, zeros)
    let (dx, dy, dz) = Emission.cone8(axis: p.axis, basis: basis, angles: p.angles, u: polar, v: azimuth)
    vx = dx * speed
    vy = dy * speed
    vz = dz * speed
    // Emission.position: center + offset, per component, for the shapes
    // that need no branch per lane; the others per lane through it.
    let c = layer.position
    let w = layer.size.x
    let h = layer.size.y
    switch (shape, mode) {
    case (.point, _), (.circle, .points), (.sphere, .points):
      (x, y, z) = (V(repeating: c.x + 0), V(repeating: c.y + 0), V(repeating: c.z + 0))
    case (.line, .points):
      let right = V(repeating: w / 2)
      x = c.x + right.replacing(with: -w / 2, where: choice .< 0.5)
      (y, z) = (V(repeating: c.y + 0), V(repeating: c.z + 0))
    case (.line, _):
      x = c.x + (sx - 0.5) * w
      (y, z) = (V(repeating: c.y + 0), V(repeating: c.z + 0))
    case (.rectangle, .surface), (.rectangle, .volume):
      x = c.x + (sx - 0.5) * w
      y = c.y + (sy - 0.5) * h
      z = V(repeating: c.z + 0)
    case (.cuboid, .volume):
      x = c.x + (sx - 0.5) * w
      y = c.y + (sy - 0.5) * h
      z = c.z + (sz - 0.5) * layer.depth
    default:
      (x, y, z) = (zeros, zeros, zeros)
      for l in 0..<8 {
        let q = Emission.position(
          shape: shape, mode: mode, center: c, size: layer.size, depth: layer.depth,
          u: SIMD4(sx[l], sy[l], sz[l], choice[l]))
        (x[l], y[l], z[l]) = (q.x, q.y, q.z)
      }
    }
  }

  /// Whether the shape's point is the centre whatever the random words.
  @inline(__always)
  static func isConstant(_ shape: EmitterShape, _ mode: EmitterMode) -> Bool {
    switch (shape, mode) {
    case (.point, _), (.circle, .points), (.sphere, .points): true
    default: false
    }
  }

  /// Whether ``Emission/position(shape:mode:center:size:depth:u:)`` reads
  /// `u.z` or `u.w` (words 12 and 13, block 3) for this shape and mode.
  @inline(__always)
  static func readsBlock3(_ shape: EmitterShape, _ mode: EmitterMode) -> Bool {
    switch (shape, mode) {
    case (.line, .points), (.rectangle, .points), (.cuboid, _), (.sphere, .volume): true
    default: false
    }
  }

  /// Whether every lane is a birth that exists and is alive at `t`, born at
  /// `times`: ``BirthRecord/isAlive(at:)`` of every lane's record (age =
  /// t − birth time ∈ [0, lifetime), with the lifetime widened to `Double`
  /// as there). A lifetime ≤ 0 or NaN fails the second comparison, so
  /// "exists" needs no test of its own.
  @inline(__always)
  func allAlive(times: SIMD8<Double>, at t: Double) -> Bool {
    let life = SIMD8<Double>(
      lowHalf: SIMD4<Double>(lifetime.lowHalf), highHalf: SIMD4<Double>(lifetime.highHalf))
    let age = SIMD8<Double>(repeating: t) - times
    return all((age .>= 0) .& (age .< life))
  }

  /// The record of lane `l` of top-level cell `node`, born at `birthTime`
  /// (only for a lane whose lifetime is > 0).
  @inline(__always)
  func record(_ l: Int, _ p: borrowing CellParameters, node: Int, birthTime: Double) -> BirthRecord {
    BirthRecord(
      id: ParticleID.topLevel(cell: node, birthIndex: first + l), cell: UInt32(node), birthTime: birthTime,
      lifetime: lifetime[l], position: SIMD3(x[l], y[l], z[l]), velocity: SIMD3(vx[l], vy[l], vz[l]),
      halfAcceleration: p.halfAcceleration, scale: scale[l], scaleSpeed: p.scaleSpeed, spin: spin[l],
      color: SIMD4(red[l], green[l], blue[l], alpha[l]), colorSpeed: p.colorSpeed,
      contentsRect: p.contentsRect, sprite: p.sprite)
  }
}
