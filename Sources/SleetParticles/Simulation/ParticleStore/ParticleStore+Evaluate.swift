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
    var o = start
    for b in blocks {
      let p = UnsafeRawPointer(base + b * Self.blockBytes)
      @inline(__always) func slot(_ s: Int) -> SIMD8<Float> {
        p.load(fromByteOffset: s * 32, as: SIMD8<Float>.self)
      }
      /// Coordinate `axis` (``ClosedForm``).
      @inline(__always) func coordinate(_ axis: Int, _ a: SIMD8<Float>, _ aa: SIMD8<Float>) -> SIMD8<Float> {
        ClosedForm.position(slot(4 + axis), slot(7 + axis), slot(10 + axis), age: a, ageSquared: aa)
      }

      let ageD = now - p.load(as: SIMD8<Double>.self)
      let aliveLanes = unsafeBitCast((ageD .>= 0) .& (ageD .< SIMD8<Double>(slot(2))), to: SIMD8<Int64>.self)
      let a = SIMD8<Float>(ageD)
      // All eight lanes alive: and-reduce the 0/−1 masks with two halvings.
      let alive4 = aliveLanes.lowHalf & aliveLanes.highHalf
      let alive2 = alive4.lowHalf & alive4.highHalf
      if alive2[0] & alive2[1] != 0 && target.hidden == nil {
        // Every lane drawn: two four-lane halves, each computed, transposed
        // and stored before the next (few live registers: no spills).
        Self.evaluateHalf(p, lanes: 0, age: a.lowHalf, into: target, at: o)
        Self.evaluateHalf(p, lanes: 4, age: a.highHalf, into: target, at: o + 4)
        o += 8
        continue
      }
      let aa = a * a
      // Dead or hidden lanes: evaluate every lane, write the drawn ones.
      let x = coordinate(0, a, aa)
      let y = coordinate(1, a, aa)
      let z = coordinate(2, a, aa)
      let s = ClosedForm.scale(slot(13), slot(14), age: a)
      let drawnZ = target.flattensDepth ? zero : z
      let rotation = ClosedForm.rotation(slot(15), age: a)
      let r = ClosedForm.color(slot(16), slot(20), age: a)
      let g = ClosedForm.color(slot(17), slot(21), age: a)
      let bl = ClosedForm.color(slot(18), slot(22), age: a)
      let al = ClosedForm.color(slot(19), slot(23), age: a)
      let normalized = ClosedForm.normalizedAge(age: a, inverseLifetime: slot(3))
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

  /// The closed form for lanes `lanes..<lanes + 4` of the fully drawn block
  /// at `p`, written to output indices `o..<o + 4`: the same formulas and
  /// operation order as the eight-lane path and
  /// ``evaluateNaive(_:at:flattensDepth:)`` (identical bits), in `SIMD4`
  /// (one SSE register per field) so the whole half stays in registers.
  ///
  /// Invariants: `p` is a 1024-byte block of the 64-byte-aligned slab, so
  /// the loads at `slot·32 + lanes·4` are 16-byte aligned; instance rows are
  /// 16-byte aligned; affines are stored unaligned.
  @inline(__always)
  static func evaluateHalf(
    _ p: UnsafeRawPointer, lanes: Int, age a: SIMD4<Float>, into target: EvaluationTarget, at o: Int
  ) {
    typealias V = SIMD4<Float>
    @inline(__always) func slot(_ s: Int) -> V { p.load(fromByteOffset: s * 32 + lanes * 4, as: V.self) }
    let zero = V(repeating: 0)
    let out = UnsafeMutableRawPointer(target.instances + o)
    let (x, y, z, s) = positionAndScale(p, lanes: lanes, age: a)
    storeRows4(x, y, target.flattensDepth ? zero : z, s, to: out, offset: 0)
    if target.writesSortKeys {
      UnsafeMutableRawPointer(target.depths + o).storeBytes(of: z, as: V.self)
      let idLow = p.load(fromByteOffset: 30 * 32 + lanes * 4, as: SIMD4<UInt32>.self)
      let idHigh = p.load(fromByteOffset: 31 * 32 + lanes * 4, as: SIMD4<UInt32>.self)
      for lane in 0..<4 { target.ids[o + lane] = UInt64(idLow[lane]) | UInt64(idHigh[lane]) << 32 }
    }
    let (rotation, normalized) = rotationAndAge(p, lanes: lanes, age: a)
    if let affines = target.affines {
      let (sinR, cosR) = FastTrig.outlinedSinCos(rotation)
      storeAffines4(s * cosR, s * sinR, x, y, to: UnsafeMutableRawPointer(affines + o))
    }
    let c = clampedColors(p, lanes: lanes, age: a)
    storeRows4(c.0, c.1, c.2, c.3, to: out, offset: 16)
    storeRows4(slot(24), slot(25), slot(26), slot(27), to: out, offset: 32)
    storeRows4(rotation, normalized, slot(28), slot(29), to: out, offset: 48)
  }

  // The field groups of one half, each a separate small function on purpose:
  // in a small function LLVM lowers `replace(with:where:)` to one `maxps` or
  // `minps`, but inside the large kernel it built the masks lane by lane in
  // general registers (`perf annotate`: a 1.5× slower kernel); four calls
  // per half cost far less. Formulas and operation order are those of
  // ``evaluateNaive(_:at:flattensDepth:)``, so the bits are identical.

  /// Position per axis and scale (``ClosedForm``).
  @inline(never)
  static func positionAndScale(
    _ p: UnsafeRawPointer, lanes: Int, age a: SIMD4<Float>
  ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
    @inline(__always) func slot(_ s: Int) -> SIMD4<Float> {
      p.load(fromByteOffset: s * 32 + lanes * 4, as: SIMD4<Float>.self)
    }
    let aa = a * a
    return (
      ClosedForm.position(slot(4), slot(7), slot(10), age: a, ageSquared: aa),
      ClosedForm.position(slot(5), slot(8), slot(11), age: a, ageSquared: aa),
      ClosedForm.position(slot(6), slot(9), slot(12), age: a, ageSquared: aa),
      ClosedForm.scale(slot(13), slot(14), age: a)
    )
  }

  /// Rotation and normalised age (``ClosedForm``).
  @inline(never)
  static func rotationAndAge(
    _ p: UnsafeRawPointer, lanes: Int, age a: SIMD4<Float>
  ) -> (SIMD4<Float>, SIMD4<Float>) {
    @inline(__always) func slot(_ s: Int) -> SIMD4<Float> {
      p.load(fromByteOffset: s * 32 + lanes * 4, as: SIMD4<Float>.self)
    }
    return (ClosedForm.rotation(slot(15), age: a), ClosedForm.normalizedAge(age: a, inverseLifetime: slot(3)))
  }

  /// Colour (``ClosedForm``).
  @inline(never)
  static func clampedColors(
    _ p: UnsafeRawPointer, lanes: Int, age a: SIMD4<Float>
  ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
    @inline(__always) func color(_ k: Int) -> SIMD4<Float> {
      ClosedForm.color(
        p.load(fromByteOffset: (16 + k) * 32 + lanes * 4, as: SIMD4<Float>.self),
        p.load(fromByteOffset: (20 + k) * 32 + lanes * 4, as: SIMD4<Float>.self), age: a)
    }
    return (color(0), color(1), color(2), color(3))
  }

  /// Writes four consecutive `AffineTransform2D`s (24 bytes each: a, b, c,
  /// d, tx, ty) with a = d = `sc`, b = `ss`, c = −`ss`: per pair of particles
  /// three 16-byte stores (a₀b₀c₀d₀)(tx₀ty₀a₁b₁)(c₁d₁tx₁ty₁).
  ///
  /// Invariant: `out` points at 4 writable transforms; stores are unaligned
  /// (`storeBytes`), so any output index works.
  @inline(__always)
  static func storeAffines4(
    _ sc: SIMD4<Float>, _ ss: SIMD4<Float>, _ x: SIMD4<Float>, _ y: SIMD4<Float>, to out: UnsafeMutableRawPointer
  ) {
    // c = −ss by flipping the sign bit, as scalar negation does (SIMD prefix
    // minus computes 0 − x, which turns −0 into +0).
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
    pair(abcd.0, abcd.1, t.0, t.1, 0)
    pair(abcd.2, abcd.3, t.2, t.3, 48)
  }

  /// Field group `(a, b, c, d)` of four consecutive instances: row l at
  /// `out + 64·l + offset` is (a[l], b[l], c[l], d[l]); aligned stores.
  @inline(__always)
  static func storeRows4(
    _ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>,
    to out: UnsafeMutableRawPointer, offset: Int
  ) {
    let rows = transpose(a, b, c, d)
    out.storeBytes(of: rows.0, toByteOffset: offset, as: SIMD4<Float>.self)
    out.storeBytes(of: rows.1, toByteOffset: 64 + offset, as: SIMD4<Float>.self)
    out.storeBytes(of: rows.2, toByteOffset: 128 + offset, as: SIMD4<Float>.self)
    out.storeBytes(of: rows.3, toByteOffset: 192 + offset, as: SIMD4<Float>.self)
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

  /// The naive twin of the kernel for one record: the same ``ClosedForm``,
  /// one particle at a time.
  static func evaluateNaive(_ r: BirthRecord, at t: Double, flattensDepth: Bool) -> ParticleInstance {
    let a = Float(t - r.birthTime)
    let p = r.position(age: a)
    return ParticleInstance(
      x: p.x, y: p.y, z: flattensDepth ? 0 : p.z, scale: r.scale(age: a), color: r.color(age: a),
      contentsRect: r.contentsRect, rotation: r.rotation(age: a),
      normalizedAge: ClosedForm.normalizedAge(age: a, inverseLifetime: 1 / r.lifetime), sprite: r.sprite,
      cell: r.cell)
  }
}
