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
    let zero = SIMD8<Float>(repeating: 0)
    let one = SIMD8<Float>(repeating: 1)
    let belowOne = SIMD8<Float>(repeating: 0x1.fffffep-1)
    var o = start
    for b in blocks {
      let p = UnsafeRawPointer(base + b * Self.blockBytes)
      // The closed form, one formula per field, shared by both block paths
      // so they give identical bits. (Nested and always inlined: as separate
      // functions the lane-wise comparisons stop being vectorised.)
      @inline(__always) func slot(_ s: Int) -> SIMD8<Float> {
        p.load(fromByteOffset: s * 32, as: SIMD8<Float>.self)
      }
      /// Coordinate `axis`: p0 + v0·a + h·(a·a).
      @inline(__always) func coordinate(_ axis: Int, _ a: SIMD8<Float>, _ aa: SIMD8<Float>) -> SIMD8<Float> {
        slot(4 + axis) + slot(7 + axis) * a + slot(10 + axis) * aa
      }
      /// max(0, s0 + scaleSpeed·a).
      @inline(__always) func scale(_ a: SIMD8<Float>) -> SIMD8<Float> {
        var s = slot(13) + slot(14) * a
        s.replace(with: zero, where: s .< zero)
        return s
      }
      /// Colour component `k`: c0 + speed·a clamped to [0, 1].
      @inline(__always) func color(_ k: Int, _ a: SIMD8<Float>) -> SIMD8<Float> {
        var c = slot(16 + k) + slot(20 + k) * a
        c.replace(with: zero, where: c .< zero)
        c.replace(with: one, where: c .> one)
        return c
      }
      /// min(a·(1/lifetime), 1 − 2⁻²⁴).
      @inline(__always) func normalizedAge(_ a: SIMD8<Float>) -> SIMD8<Float> {
        var n = a * slot(3)
        n.replace(with: belowOne, where: n .> belowOne)
        return n
      }

      let ageD = now - p.load(as: SIMD8<Double>.self)
      let aliveLanes = unsafeBitCast((ageD .>= 0) .& (ageD .< SIMD8<Double>(slot(2))), to: SIMD8<Int64>.self)
      let a = SIMD8<Float>(ageD)
      let aa = a * a
      let allAlive =
        (aliveLanes[0] & aliveLanes[1] & aliveLanes[2] & aliveLanes[3] & aliveLanes[4] & aliveLanes[5]
          & aliveLanes[6] & aliveLanes[7]) != 0
      if allAlive && target.hidden == nil {
        // Every lane drawn: compute each group of four fields, transpose it
        // with shuffles and store aligned 16-byte rows before computing the
        // next group (few live registers).
        let out = UnsafeMutableRawPointer(target.instances + o)
        let x = coordinate(0, a, aa)
        let y = coordinate(1, a, aa)
        let z = coordinate(2, a, aa)
        let s = scale(a)
        Self.storeRows(x, y, target.flattensDepth ? zero : z, s, to: out, offset: 0)
        if target.writesSortKeys {
          UnsafeMutableRawPointer(target.depths + o).storeBytes(of: z, as: SIMD8<Float>.self)
          let idLow = p.load(fromByteOffset: 30 * 32, as: SIMD8<UInt32>.self)
          let idHigh = p.load(fromByteOffset: 31 * 32, as: SIMD8<UInt32>.self)
          for lane in 0..<8 { target.ids[o + lane] = UInt64(idLow[lane]) | UInt64(idHigh[lane]) << 32 }
        }
        let rotation = slot(15) * a
        if let affines = target.affines {
          let (sinR, cosR) = FastTrig.sinCos(rotation)
          Self.storeAffines(s * cosR, s * sinR, x, y, to: UnsafeMutableRawPointer(affines + o))
        }
        Self.storeRows(color(0, a), color(1, a), color(2, a), color(3, a), to: out, offset: 16)
        Self.storeRows(slot(24), slot(25), slot(26), slot(27), to: out, offset: 32)
        Self.storeRows(rotation, normalizedAge(a), slot(28), slot(29), to: out, offset: 48)
        o += 8
        continue
      }
      // Dead or hidden lanes: evaluate every lane, write the drawn ones.
      let x = coordinate(0, a, aa)
      let y = coordinate(1, a, aa)
      let z = coordinate(2, a, aa)
      let s = scale(a)
      let drawnZ = target.flattensDepth ? zero : z
      let rotation = slot(15) * a
      let r = color(0, a)
      let g = color(1, a)
      let bl = color(2, a)
      let al = color(3, a)
      let normalized = normalizedAge(a)
      let (rx, ry, rw, rh) = (slot(24), slot(25), slot(26), slot(27))
      let sprite = p.load(fromByteOffset: 28 * 32, as: SIMD8<UInt32>.self)
      let cell = p.load(fromByteOffset: 29 * 32, as: SIMD8<UInt32>.self)
      let idLow = p.load(fromByteOffset: 30 * 32, as: SIMD8<UInt32>.self)
      let idHigh = p.load(fromByteOffset: 31 * 32, as: SIMD8<UInt32>.self)
      var sinR = zero
      var cosR = one
      if target.affines != nil { (sinR, cosR) = FastTrig.sinCos(rotation) }
      let sc = s * cosR
      let ss = s * sinR
      for lane in 0..<8 where aliveLanes[lane] != 0 {
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
        out.storeBytes(
          of: SIMD4(lowHalf: t0.lowHalf, highHalf: r1.lowHalf), toByteOffset: at + 16, as: SIMD4<Float>.self)
        out.storeBytes(
          of: SIMD4(lowHalf: r1.highHalf, highHalf: t1.lowHalf), toByteOffset: at + 32, as: SIMD4<Float>.self)
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
