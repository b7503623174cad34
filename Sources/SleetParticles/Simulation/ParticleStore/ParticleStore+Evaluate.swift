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
      @inline(__always) func slot(_ s: Int) -> SIMD8<Float> {
        p.load(fromByteOffset: s * 32, as: SIMD8<Float>.self)
      }
      let ageD = now - p.load(as: SIMD8<Double>.self)
      let life = slot(2)
      let alive = (ageD .>= 0) .& (ageD .< SIMD8<Double>(life))
      let a = SIMD8<Float>(ageD)
      let aa = a * a
      let x = slot(4) + slot(7) * a + slot(10) * aa
      let y = slot(5) + slot(8) * a + slot(11) * aa
      let z = slot(6) + slot(9) * a + slot(12) * aa
      var s = slot(13) + slot(14) * a
      s.replace(with: zero, where: s .< zero)
      let rotation = slot(15) * a
      var r = slot(16) + slot(20) * a
      var g = slot(17) + slot(21) * a
      var bl = slot(18) + slot(22) * a
      var al = slot(19) + slot(23) * a
      r.replace(with: zero, where: r .< zero)
      r.replace(with: one, where: r .> one)
      g.replace(with: zero, where: g .< zero)
      g.replace(with: one, where: g .> one)
      bl.replace(with: zero, where: bl .< zero)
      bl.replace(with: one, where: bl .> one)
      al.replace(with: zero, where: al .< zero)
      al.replace(with: one, where: al .> one)
      var normalizedAge = a * slot(3)
      normalizedAge.replace(with: belowOne, where: normalizedAge .> belowOne)
      let drawnZ = target.flattensDepth ? zero : z
      let rx = slot(24)
      let ry = slot(25)
      let rw = slot(26)
      let rh = slot(27)
      let sprite = p.load(fromByteOffset: 28 * 32, as: SIMD8<UInt32>.self)
      let cell = p.load(fromByteOffset: 29 * 32, as: SIMD8<UInt32>.self)
      let idLow = p.load(fromByteOffset: 30 * 32, as: SIMD8<UInt32>.self)
      let idHigh = p.load(fromByteOffset: 31 * 32, as: SIMD8<UInt32>.self)
      var sinR = zero
      var cosR = one
      if target.affines != nil { (sinR, cosR) = FastTrig.sinCos(rotation) }
      let sc = s * cosR
      let ss = s * sinR
      let aliveLanes = unsafeBitCast(alive, to: SIMD8<Int64>.self)
      @inline(__always) func emit(_ lane: Int, at index: Int) {
        target.instances[index] = ParticleInstance(
          x: x[lane], y: y[lane], z: drawnZ[lane], scale: s[lane],
          color: SIMD4(r[lane], g[lane], bl[lane], al[lane]),
          contentsRect: SIMD4(rx[lane], ry[lane], rw[lane], rh[lane]),
          rotation: rotation[lane], normalizedAge: normalizedAge[lane], sprite: sprite[lane],
          cell: cell[lane])
        target.affines?[index] = AffineTransform2D(
          a: sc[lane], b: ss[lane], c: -ss[lane], d: sc[lane], tx: x[lane], ty: y[lane])
        if target.writesSortKeys {
          target.ids[index] = UInt64(idLow[lane]) | UInt64(idHigh[lane]) << 32
          target.depths[index] = z[lane]
        }
      }
      // The common case, a block with every lane alive and nothing hidden:
      // transpose the eight lanes into rows with shuffles and store each
      // instance as four aligned 16-byte rows.
      let allAlive =
        (aliveLanes[0] & aliveLanes[1] & aliveLanes[2] & aliveLanes[3] & aliveLanes[4] & aliveLanes[5]
          & aliveLanes[6] & aliveLanes[7]) != 0
      if allAlive && target.hidden == nil {
        let out = UnsafeMutableRawPointer(target.instances + o)
        let spriteBits = unsafeBitCast(sprite, to: SIMD8<Float>.self)
        let cellBits = unsafeBitCast(cell, to: SIMD8<Float>.self)
        Self.storeRows(x, y, drawnZ, s, to: out, offset: 0)
        Self.storeRows(r, g, bl, al, to: out, offset: 16)
        Self.storeRows(rx, ry, rw, rh, to: out, offset: 32)
        Self.storeRows(rotation, normalizedAge, spriteBits, cellBits, to: out, offset: 48)
        if let affines = target.affines {
          for lane in 0..<8 {
            affines[o + lane] = AffineTransform2D(
              a: sc[lane], b: ss[lane], c: -ss[lane], d: sc[lane], tx: x[lane], ty: y[lane])
          }
        }
        if target.writesSortKeys {
          for lane in 0..<8 { target.ids[o + lane] = UInt64(idLow[lane]) | UInt64(idHigh[lane]) << 32 }
          UnsafeMutableRawPointer(target.depths + o).storeBytes(of: z, as: SIMD8<Float>.self)
        }
        o += 8
        continue
      }
      for lane in 0..<8 where aliveLanes[lane] != 0 {
        if let hidden = target.hidden, hidden[Int(cell[lane])] { continue }
        emit(lane, at: o)
        o += 1
      }
    }
    return o - start
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
    @inline(__always) func transpose(
      _ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>, _ base: Int
    ) {
      let ab = SIMD8(lowHalf: a, highHalf: b)
      let cd = SIMD8(lowHalf: c, highHalf: d)
      let evens = SIMD8(lowHalf: ab.evenHalf, highHalf: cd.evenHalf)
      let odds = SIMD8(lowHalf: ab.oddHalf, highHalf: cd.oddHalf)
      out.storeBytes(of: evens.evenHalf, toByteOffset: base + offset, as: SIMD4<Float>.self)
      out.storeBytes(of: odds.evenHalf, toByteOffset: base + 64 + offset, as: SIMD4<Float>.self)
      out.storeBytes(of: evens.oddHalf, toByteOffset: base + 128 + offset, as: SIMD4<Float>.self)
      out.storeBytes(of: odds.oddHalf, toByteOffset: base + 192 + offset, as: SIMD4<Float>.self)
    }
    transpose(a.lowHalf, b.lowHalf, c.lowHalf, d.lowHalf, 0)
    transpose(a.highHalf, b.highHalf, c.highHalf, d.highHalf, 256)
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
