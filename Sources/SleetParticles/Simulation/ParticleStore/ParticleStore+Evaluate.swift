import SleetMath

/// Where one chunk of evaluation writes: raw output pointers, shared with
/// worker threads. Each chunk writes a disjoint range, so no two threads ever
/// touch the same element.
struct EvaluationTarget: @unchecked Sendable {
  var instances: UnsafeMutablePointer<ParticleInstance>
  /// nil: skip the affines.
  var affines: UnsafeMutablePointer<AffineTransform2D>?
  /// Per output index: the particle's id and tracked z (for render-order sorts).
  var ids: UnsafeMutablePointer<UInt64>
  var depths: UnsafeMutablePointer<Float>
  /// Per cell number: whether its particles are hidden (cell disabled); nil
  /// when no cell is hidden.
  var hidden: UnsafePointer<Bool>?
  var flattensDepth: Bool
  /// Whether `ids` and `depths` are written (only when the render order
  /// needs a sort or a sortedness check).
  var writesSortKeys: Bool
}

extension ParticleStore {
  /// Pass 1: how many particles of blocks `blocks` are alive (and not hidden)
  /// at emitter-local time `t`.
  ///
  /// Invariant: the slab is 64-byte aligned and blocks are 1024 bytes, so
  /// every SIMD8 load below is aligned; lanes past `count` have lifetime 0 and
  /// count as dead.
  /// - Complexity: O(particles in `blocks`), no allocations.
  func aliveCount(blocks: Range<Int>, at t: Double, hidden: UnsafePointer<Bool>?) -> Int {
    let now = SIMD8<Double>(repeating: t)
    var n = 0
    for b in blocks {
      let p = UnsafeRawPointer(base + b * Self.blockBytes)
      let age = now - p.load(as: SIMD8<Double>.self)
      let life = SIMD8<Double>(p.load(fromByteOffset: 64, as: SIMD8<Float>.self))
      // Mask lanes are 0 or −1: their negated sum is the live count.
      let alive = unsafeBitCast((age .>= 0) .& (age .< life), to: SIMD8<Int64>.self)
      guard let hidden else {
        n &-= Int(alive.wrappedSum())
        continue
      }
      for lane in 0..<8 where alive[lane] != 0 {
        if hidden[Int(p.load(fromByteOffset: 29 * 32 + lane * 4, as: UInt32.self))] { continue }
        n += 1
      }
    }
    return n
  }

  /// Pass 2: evaluates the closed form at `t` for blocks `blocks` and writes
  /// the live particles, in store order, from output index `start`. Returns
  /// the number written (equal to pass 1's count for the same blocks).
  ///
  /// ```
  /// a = Float(t − birthTime)
  /// p = p0 + v0·a + h·(a·a)           h = ½·acceleration
  /// s = max(0, s0 + scaleSpeed·a);  θ = spin·a
  /// c = clamp(c0 + speed·a, 0, 1);  normalisedAge = min(a·(1/lifetime), 1 − 2⁻²⁴)
  /// ```
  ///
  /// Arithmetic is lane-wise with the same operation order as
  /// ``evaluateNaive(_:at:flattensDepth:)``, so both give identical bits.
  /// Invariants: as in pass 1; output ranges of different chunks are disjoint.
  /// - Complexity: O(particles in `blocks`), no allocations.
  func evaluate(blocks: Range<Int>, at t: Double, into target: EvaluationTarget, start: Int) -> Int {
    let now = SIMD8<Double>(repeating: t)
    var o = start
    for b in blocks {
      let p = UnsafeRawPointer(base + b * Self.blockBytes)
      let ageD = now - p.load(as: SIMD8<Double>.self)
      let life = Self.slot(p, 2)
      let aliveLanes = unsafeBitCast((ageD .>= 0) .& (ageD .< SIMD8<Double>(life)), to: SIMD8<Int64>.self)
      let a = SIMD8<Float>(ageD)
      let allAlive =
        (aliveLanes[0] & aliveLanes[1] & aliveLanes[2] & aliveLanes[3] & aliveLanes[4] & aliveLanes[5]
          & aliveLanes[6] & aliveLanes[7]) != 0
      if allAlive && target.hidden == nil {
        Self.evaluateFullBlock(p, age: a, into: target, at: o)
        o += 8
      } else {
        o += Self.evaluatePartialBlock(p, age: a, alive: aliveLanes, into: target, at: o)
      }
    }
    return o - start
  }

  // The closed form, one formula per field, shared by both block paths so
  // they give identical bits.

  @inline(__always)
  static func slot(_ p: UnsafeRawPointer, _ s: Int) -> SIMD8<Float> {
    p.load(fromByteOffset: s * 32, as: SIMD8<Float>.self)
  }

  /// Coordinate `axis` (0, 1, 2) of p0 + v0·a + h·(a·a).
  @inline(__always)
  static func coordinate(_ p: UnsafeRawPointer, _ axis: Int, _ a: SIMD8<Float>) -> SIMD8<Float> {
    slot(p, 4 + axis) + slot(p, 7 + axis) * a + slot(p, 10 + axis) * (a * a)
  }

  /// max(0, s0 + scaleSpeed·a).
  @inline(__always)
  static func scale(_ p: UnsafeRawPointer, _ a: SIMD8<Float>) -> SIMD8<Float> {
    var s = slot(p, 13) + slot(p, 14) * a
    s.replace(with: SIMD8(repeating: 0), where: s .< SIMD8(repeating: 0))
    return s
  }

  /// Colour component `k`: c0 + speed·a clamped to [0, 1].
  @inline(__always)
  static func colorComponent(_ p: UnsafeRawPointer, _ k: Int, _ a: SIMD8<Float>) -> SIMD8<Float> {
    var c = slot(p, 16 + k) + slot(p, 20 + k) * a
    c.replace(with: SIMD8(repeating: 0), where: c .< SIMD8(repeating: 0))
    c.replace(with: SIMD8(repeating: 1), where: c .> SIMD8(repeating: 1))
    return c
  }

  /// min(a·(1/lifetime), 1 − 2⁻²⁴).
  @inline(__always)
  static func normalizedAge(_ p: UnsafeRawPointer, _ a: SIMD8<Float>) -> SIMD8<Float> {
    var n = a * slot(p, 3)
    let belowOne = SIMD8<Float>(repeating: 0x1.fffffep-1)
    n.replace(with: belowOne, where: n .> belowOne)
    return n
  }

  /// A block whose eight lanes are all drawn: each group of four fields is
  /// computed, transposed with shuffles and stored as aligned 16-byte rows
  /// before the next group is computed (few live registers, no spills of
  /// the whole block).
  @inline(__always)
  static func evaluateFullBlock(_ p: UnsafeRawPointer, age a: SIMD8<Float>, into target: EvaluationTarget, at o: Int) {
    let out = UnsafeMutableRawPointer(target.instances + o)
    let x = coordinate(p, 0, a)
    let y = coordinate(p, 1, a)
    let z = coordinate(p, 2, a)
    let s = scale(p, a)
    storeRows(x, y, target.flattensDepth ? SIMD8(repeating: 0) : z, s, to: out, offset: 0)
    if target.writesSortKeys {
      UnsafeMutableRawPointer(target.depths + o).storeBytes(of: z, as: SIMD8<Float>.self)
      let idLow = p.load(fromByteOffset: 30 * 32, as: SIMD8<UInt32>.self)
      let idHigh = p.load(fromByteOffset: 31 * 32, as: SIMD8<UInt32>.self)
      for lane in 0..<8 { target.ids[o + lane] = UInt64(idLow[lane]) | UInt64(idHigh[lane]) << 32 }
    }
    let rotation = slot(p, 15) * a
    if let affines = target.affines {
      let (sinR, cosR) = FastTrig.sinCos(rotation)
      storeAffines(s * cosR, s * sinR, x, y, to: UnsafeMutableRawPointer(affines + o))
    }
    storeRows(
      colorComponent(p, 0, a), colorComponent(p, 1, a), colorComponent(p, 2, a), colorComponent(p, 3, a),
      to: out, offset: 16)
    storeRows(slot(p, 24), slot(p, 25), slot(p, 26), slot(p, 27), to: out, offset: 32)
    storeRows(rotation, normalizedAge(p, a), slot(p, 28), slot(p, 29), to: out, offset: 48)
  }

  /// A block with dead or hidden lanes: evaluate all lanes, write the drawn
  /// ones one by one. Returns how many were written.
  static func evaluatePartialBlock(
    _ p: UnsafeRawPointer, age a: SIMD8<Float>, alive: SIMD8<Int64>, into target: EvaluationTarget, at start: Int
  ) -> Int {
    let x = coordinate(p, 0, a)
    let y = coordinate(p, 1, a)
    let z = coordinate(p, 2, a)
    let s = scale(p, a)
    let drawnZ = target.flattensDepth ? SIMD8(repeating: 0) : z
    let rotation = slot(p, 15) * a
    let r = colorComponent(p, 0, a)
    let g = colorComponent(p, 1, a)
    let bl = colorComponent(p, 2, a)
    let al = colorComponent(p, 3, a)
    let normalized = normalizedAge(p, a)
    let (rx, ry, rw, rh) = (slot(p, 24), slot(p, 25), slot(p, 26), slot(p, 27))
    let sprite = p.load(fromByteOffset: 28 * 32, as: SIMD8<UInt32>.self)
    let cell = p.load(fromByteOffset: 29 * 32, as: SIMD8<UInt32>.self)
    let idLow = p.load(fromByteOffset: 30 * 32, as: SIMD8<UInt32>.self)
    let idHigh = p.load(fromByteOffset: 31 * 32, as: SIMD8<UInt32>.self)
    var sinR = SIMD8<Float>(repeating: 0)
    var cosR = SIMD8<Float>(repeating: 1)
    if target.affines != nil { (sinR, cosR) = FastTrig.sinCos(rotation) }
    let sc = s * cosR
    let ss = s * sinR
    var o = start
    for lane in 0..<8 where alive[lane] != 0 {
      if let hidden = target.hidden, hidden[Int(cell[lane])] { continue }
      target.instances[o] = ParticleInstance(
        x: x[lane], y: y[lane], z: drawnZ[lane], scale: s[lane],
        color: SIMD4(r[lane], g[lane], bl[lane], al[lane]),
        contentsRect: SIMD4(rx[lane], ry[lane], rw[lane], rh[lane]),
        rotation: rotation[lane], normalizedAge: normalized[lane], sprite: sprite[lane], cell: cell[lane])
      target.affines?[o] = AffineTransform2D(
        a: sc[lane], b: ss[lane], c: -ss[lane], d: sc[lane], tx: x[lane], ty: y[lane])
      if target.writesSortKeys {
        target.ids[o] = UInt64(idLow[lane]) | UInt64(idHigh[lane]) << 32
        target.depths[o] = z[lane]
      }
      o += 1
    }
    return o - start
  }

  /// Writes eight consecutive `AffineTransform2D`s (24 bytes each:
  /// a, b, c, d, tx, ty) with a = d = `sc`, b = `ss`, c = −`ss`: per pair of
  /// particles three 16-byte stores (a₀b₀c₀d₀)(tx₀ty₀a₁b₁)(c₁d₁tx₁ty₁).
  ///
  /// Invariant: `out` points at 8 writable transforms; stores are unaligned
  /// (`storeBytes`), so any output index works.
  @inline(__always)
  static func storeAffines(
    _ sc: SIMD8<Float>, _ ss: SIMD8<Float>, _ x: SIMD8<Float>, _ y: SIMD8<Float>, to out: UnsafeMutableRawPointer
  ) {
    @inline(__always) func four(
      _ sc: SIMD4<Float>, _ ss: SIMD4<Float>, _ x: SIMD4<Float>, _ y: SIMD4<Float>, _ base: Int
    ) {
      // Rows (a, b, c, d) and (tx, ty, tx, ty) of lanes 0…3, by two transposes.
      // c = −ss by flipping the sign bit, as scalar negation does (SIMD
      // prefix minus computes 0 − x, which turns −0 into +0).
      let negated = unsafeBitCast(
        unsafeBitCast(ss, to: SIMD4<UInt32>.self) ^ SIMD4(repeating: 0x8000_0000), to: SIMD4<Float>.self)
      let abcd = transpose(sc, ss, negated, sc)
      let t = transpose(x, y, x, y)
      @inline(__always) func pair(
        _ r0: SIMD4<Float>, _ r1: SIMD4<Float>, _ t0: SIMD4<Float>, _ t1: SIMD4<Float>, _ at: Int
      ) {
        out.storeBytes(of: r0, toByteOffset: at, as: SIMD4<Float>.self)
        out.storeBytes(of: SIMD4(lowHalf: t0.lowHalf, highHalf: r1.lowHalf), toByteOffset: at + 16, as: SIMD4<Float>.self)
        out.storeBytes(of: SIMD4(lowHalf: r1.highHalf, highHalf: t1.lowHalf), toByteOffset: at + 32, as: SIMD4<Float>.self)
      }
      pair(abcd.0, abcd.1, t.0, t.1, base)
      pair(abcd.2, abcd.3, t.2, t.3, base + 48)
    }
    four(sc.lowHalf, ss.lowHalf, x.lowHalf, y.lowHalf, 0)
    four(sc.highHalf, ss.highHalf, x.highHalf, y.highHalf, 96)
  }

  /// Rows (a[l], b[l], c[l], d[l]) for l = 0…3: a 4×4 transpose by two
  /// levels of unzipping, which lowers to shuffles.
  @inline(__always)
  static func transpose(
    _ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>
  ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
    let ab = SIMD8(lowHalf: a, highHalf: b)
    let cd = SIMD8(lowHalf: c, highHalf: d)
    let evens = SIMD8(lowHalf: ab.evenHalf, highHalf: cd.evenHalf)
    let odds = SIMD8(lowHalf: ab.oddHalf, highHalf: cd.oddHalf)
    return (evens.evenHalf, odds.evenHalf, evens.oddHalf, odds.oddHalf)
  }

  /// Writes field group `(a, b, c, d)` of eight consecutive instances: row l
  /// (at `out + 64·l + offset`) is (a[l], b[l], c[l], d[l]). Two 4×4
  /// transposes by unzipping (`evenHalf`/`oddHalf`), which lower to shuffles.
  ///
  /// Invariant: `out` is 16-byte aligned (a `ParticleInstance` buffer) and
  /// `offset` is a multiple of 16, so every row store is aligned.
  @inline(__always)
  static func storeRows(
    _ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>, _ d: SIMD8<Float>,
    to out: UnsafeMutableRawPointer, offset: Int
  ) {
    @inline(__always) func four(
      _ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>, _ base: Int
    ) {
      let rows = transpose(a, b, c, d)
      out.storeBytes(of: rows.0, toByteOffset: base + offset, as: SIMD4<Float>.self)
      out.storeBytes(of: rows.1, toByteOffset: base + 64 + offset, as: SIMD4<Float>.self)
      out.storeBytes(of: rows.2, toByteOffset: base + 128 + offset, as: SIMD4<Float>.self)
      out.storeBytes(of: rows.3, toByteOffset: base + 192 + offset, as: SIMD4<Float>.self)
    }
    four(a.lowHalf, b.lowHalf, c.lowHalf, d.lowHalf, 0)
    four(a.highHalf, b.highHalf, c.highHalf, d.highHalf, 256)
  }

  /// The naive twin of the kernel for one record: the same formulas and
  /// operation order, scalar.
  static func evaluateNaive(_ r: BirthRecord, at t: Double, flattensDepth: Bool) -> ParticleInstance {
    let a = Float(t - r.birthTime)
    let aa = a * a
    let x = r.position.x + r.velocity.x * a + r.halfAcceleration.x * aa
    let y = r.position.y + r.velocity.y * a + r.halfAcceleration.y * aa
    let z = r.position.z + r.velocity.z * a + r.halfAcceleration.z * aa
    let s = Swift.max(0, r.scale + r.scaleSpeed * a)
    var c = r.color + r.colorSpeed * a
    c.replace(with: 0, where: c .< 0)
    c.replace(with: 1, where: c .> 1)
    let normalizedAge = Swift.min(a * (1 / r.lifetime), 0x1.fffffep-1)
    return ParticleInstance(
      x: x, y: y, z: flattensDepth ? 0 : z, scale: s, color: c, contentsRect: r.contentsRect,
      rotation: r.spin * a, normalizedAge: normalizedAge, sprite: r.sprite, cell: r.cell)
  }
}
