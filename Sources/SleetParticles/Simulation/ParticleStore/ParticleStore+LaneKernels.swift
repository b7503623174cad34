import CSleetKernels
import SleetMath

/// The constants-table values of four lanes, one `SIMD4` per field (see
/// ``ParticleConstantsTable`` for the row layout).
struct LaneConstants {
  var hx, hy, hz, scaleSpeed: SIMD4<Float>
  var colorSpeedR, colorSpeedG, colorSpeedB, colorSpeedA: SIMD4<Float>
  var rectX, rectY, rectW, rectH: SIMD4<Float>
  /// Sprite and cell numbers as `Float` bit patterns (copied, never computed
  /// on), and both packed in 16 bits each for the compact instance.
  var sprite, cell, spriteCell16: SIMD4<Float>

  /// The rows of lanes 0…3 at `rows[0…3]`: four aligned 16-byte loads per
  /// row and a 4×4 transpose per group of four lanes give each row lane's
  /// four values, `lane[f]`; each field is then the lane its `SLEET_ROW_*`
  /// constant names (constant indices: the choice folds away).
  @inline(__always)
  init(rows r: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>)) {
    @inline(__always) func group(_ g: Int) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
      @inline(__always) func load(_ p: UnsafePointer<Float>) -> SIMD4<Float> {
        UnsafeRawPointer(p).load(fromByteOffset: g * 16, as: SIMD4<Float>.self)
      }
      return ParticleStore.transpose(load(r.0), load(r.1), load(r.2), load(r.3))
    }
    let (g0, g1, g2, g3) = (group(0), group(1), group(2), group(3))
    let lane: InlineArray<16, SIMD4<Float>> = [
      g0.0, g0.1, g0.2, g0.3, g1.0, g1.1, g1.2, g1.3, g2.0, g2.1, g2.2, g2.3, g3.0, g3.1, g3.2, g3.3,
    ]
    let h = SLEET_ROW_HALF_ACCELERATION
    let colorSpeed = SLEET_ROW_COLOR_SPEED
    let rect = SLEET_ROW_CONTENTS_RECT
    (hx, hy, hz, scaleSpeed) = (lane[h], lane[h + 1], lane[h + 2], lane[SLEET_ROW_SCALE_SPEED])
    (colorSpeedR, colorSpeedG, colorSpeedB, colorSpeedA) = (
      lane[colorSpeed], lane[colorSpeed + 1], lane[colorSpeed + 2], lane[colorSpeed + 3]
    )
    (rectX, rectY, rectW, rectH) = (lane[rect], lane[rect + 1], lane[rect + 2], lane[rect + 3])
    (sprite, cell, spriteCell16) = (lane[SLEET_ROW_SPRITE], lane[SLEET_ROW_CELL], lane[SLEET_ROW_COMPACT_SPRITE_CELL])
  }
}

extension ParticleStore {
  /// The lane constants of lanes `lanes..<lanes + 4` of the block at `p`
  /// (its constants-row field holds each lane's row index).
  @inline(__always)
  func laneConstants(_ p: UnsafeRawPointer, lanes: Int) -> LaneConstants {
    let index = p.load(fromByteOffset: SLEET_SLAB_CONSTANTS_ROW + lanes * 4, as: SIMD4<UInt32>.self)
    let rows = UnsafePointer(constants.rows)
    let w = ParticleConstantsTable.rowFloats
    let r0: UnsafePointer<Float> = rows + Int(index[0]) * w
    let r1: UnsafePointer<Float> = rows + Int(index[1]) * w
    let r2: UnsafePointer<Float> = rows + Int(index[2]) * w
    let r3: UnsafePointer<Float> = rows + Int(index[3]) * w
    return LaneConstants(rows: (r0, r1, r2, r3))
  }

  /// Block `b` one lane at a time where needed: the path for every block
  /// while some cell is hidden (the C loops draw every live lane) or
  /// behaviors act (their lanes are redrawn after the closed form), and the
  /// naive twin of the C loops' blocks of several rows
  /// (`BlockRunKernelTests.oneBlockAtATimeEqualsTheRuns`). Writes the drawn lanes from output index `o` and returns how
  /// many; `sinCos` is scratch for the block's rotation sines and cosines
  /// (two vectors, computed here, only for a live block with affines).
  func evaluateBlock(
    _ b: Int, at t: Double, sinCos: UnsafeMutablePointer<SIMD8<Float>>, into target: EvaluationTarget, at o: Int,
    scratch: EvaluationTarget
  ) -> Int {
    let p = UnsafeRawPointer(blocks + b * Self.blockBytes)
    let ageD = SIMD8<Double>(repeating: t) - p.load(fromByteOffset: SLEET_SLAB_BIRTH_TIME, as: SIMD8<Double>.self)
    let aliveLanes = unsafeBitCast(
      (ageD .>= 0) .& (ageD .< SIMD8<Double>(p.load(fromByteOffset: SLEET_SLAB_LIFETIME, as: SIMD8<Float>.self))),
      to: SIMD8<Int64>.self)
    if aliveLanes == SIMD8(repeating: 0) { return 0 }  // a dead block: nothing to draw
    let rowIndex = p.load(fromByteOffset: SLEET_SLAB_CONSTANTS_ROW, as: SIMD8<UInt32>.self)
    let oneRow = rowIndex == SIMD8(repeating: rowIndex[0])
    // One row is one cell: when behaviors act on it, applyBehaviors redraws
    // every live lane whole (instance, affine, tracked z), so the closed
    // form is not drawn first.
    let redrawnWhole =
      oneRow && target.behaviors.map { $0.tree.nodes[Int(constants[Int(rowIndex[0])].cell)].behaviors != nil } ?? false
    if target.affines != nil && !redrawnWhole { Self.rotationSinCos(p, at: t, into: sinCos) }
    let allAlive = aliveLanes == SIMD8(repeating: -1)
    let drawsAll = allAlive && target.hidden == nil
    let out = drawsAll ? target : scratch
    let at = drawsAll ? o : 0
    if redrawnWhole {
      // Drawn below, lane by lane.
    } else if oneRow {
      Self.evaluateUniformBlock(
        p, at: t, row: UnsafePointer(constants.rows + Int(rowIndex[0]) * ParticleConstantsTable.rowFloats),
        sinCos: sinCos, into: out, at: at)
    } else {
      // Lanes of several constants rows: two four-lane halves, each lane
      // with its own row's constants.
      let a = SIMD8<Float>(ageD)
      let trig =
        target.affines == nil
        ? (sin: SIMD8<Float>(), cos: SIMD8<Float>()) : (sin: sinCos[0], cos: sinCos[1])
      evaluateHalf(
        p, lanes: 0, age: a.lowHalf, constants: laneConstants(p, lanes: 0),
        sinCos: (trig.sin.lowHalf, trig.cos.lowHalf), into: out, at: at)
      evaluateHalf(
        p, lanes: 4, age: a.highHalf, constants: laneConstants(p, lanes: 4),
        sinCos: (trig.sin.highHalf, trig.cos.highHalf), into: out, at: at + 4)
    }
    if let cells = target.behaviors {
      applyBehaviors(block: b, alive: aliveLanes, at: t, tree: cells.tree, into: out, at: at)
    }
    if drawsAll {
      if target.writesSortKeys { (target.ids + o).update(from: ids + b * 8, count: 8) }
      return 8
    }
    var n = 0
    for lane in 0..<8 where aliveLanes[lane] != 0 {
      if let compact = target.compact {
        let instance = scratch.compact![lane]
        if let hidden = target.hidden, hidden[Int(instance.cell)] { continue }
        compact[o + n] = instance
      } else {
        let instance = scratch.instances[lane]
        if let hidden = target.hidden, hidden[Int(instance.cell)] { continue }
        target.instances[o + n] = instance
      }
      if let affines = target.affines { affines[o + n] = scratch.affines![lane] }
      if target.writesSortKeys {
        target.ids[o + n] = ids[b * 8 + lane]
        target.depths[o + n] = scratch.depths[lane]
      }
      n += 1
    }
    return n
  }

  /// The closed form for lanes `lanes..<lanes + 4` of the block at `p`,
  /// written to `target`'s output indices `o..<o + 4` (instances, affines
  /// from the lanes' precomputed `sinCos` when asked, tracked z when sort
  /// keys are asked): ``ClosedForm`` in `SIMD4` (one SSE register per field)
  /// so a half stays in registers. Used for blocks whose lanes use several
  /// constants rows.
  ///
  /// Invariants: `p` is a block of the 64-byte-aligned slab, so the loads at
  /// a field's offset + `lanes·4` are 16-byte aligned; instance rows are
  /// 16-byte aligned; affines are stored unaligned.
  @inline(__always)
  func evaluateHalf(
    _ p: UnsafeRawPointer, lanes: Int, age a: SIMD4<Float>, constants k: LaneConstants,
    sinCos trig: (sin: SIMD4<Float>, cos: SIMD4<Float>), into target: EvaluationTarget, at o: Int
  ) {
    let (x, y, z, s) = Self.positionAndScale(p, lanes: lanes, age: a, constants: k)
    let drawnZ = target.flattensDepth ? SIMD4(repeating: 0) : z
    if target.writesSortKeys { UnsafeMutableRawPointer(target.depths + o).storeBytes(of: z, as: SIMD4<Float>.self) }
    let (rotation, normalized) = Self.rotationAndAge(p, lanes: lanes, age: a)
    if let affines = target.affines {
      Self.storeAffines4(s * trig.cos, s * trig.sin, x, y, to: UnsafeMutableRawPointer(affines + o))
    }
    let c = Self.clampedColors(p, lanes: lanes, age: a, constants: k)
    if let compact = target.compact {
      let out = UnsafeMutableRawPointer(compact + o)
      Self.storeRows4(x, y, drawnZ, s, to: out, offset: 0, stride: 32)
      let color = unsafeBitCast(Self.unorm8(c), to: SIMD4<Float>.self)
      Self.storeRows4(rotation, normalized, color, k.spriteCell16, to: out, offset: 16, stride: 32)
      return
    }
    let out = UnsafeMutableRawPointer(target.instances + o)
    Self.storeRows4(x, y, drawnZ, s, to: out, offset: 0, stride: 64)
    Self.storeRows4(c.0, c.1, c.2, c.3, to: out, offset: 16, stride: 64)
    Self.storeRows4(k.rectX, k.rectY, k.rectW, k.rectH, to: out, offset: 32, stride: 64)
    Self.storeRows4(rotation, normalized, k.sprite, k.cell, to: out, offset: 48, stride: 64)
  }

  /// The closed form for all eight lanes of a block whose particles share
  /// one constants row (`row`: one cell and segment, the common case),
  /// written to `target`'s output indices `o..<o + 8` (and the affines,
  /// from the precomputed `sinCos`, when asked): `sleet_evaluate_uniform_block8`
  /// of the `CSleetKernels` header, in every build.
  ///
  /// Why C: the kernel must stay one straight-line eight-lane body, and
  /// written in Swift LLVM does not keep it one. Swift passes `SIMD8`
  /// values between functions as pairs of 16-byte halves and builds
  /// `init(lowHalf:highHalf:)`, `evenHalf` and the `Double`-to-`Float`
  /// conversion lane by lane; inlined into one function, the age vector
  /// comes out split 4 + 2 + 2 and every clamp a chain of
  /// `vpcmpgtd`/`vblendvps` on the pieces, and the 4×4 transposes
  /// `vinsertps` chains. In C the kernel is Clang's generic vectors: one `ymm` per
  /// field in AVX builds, `xmm` pairs in the SSE2 build, NEON on ARM; the
  /// transposes are explicit `shufflevector`s. The header states the formulas
  /// and why the bits are ``ClosedForm``'s (no contraction, same operation
  /// order); `UniformBlockKernelTests` and the render agreement tests check it.
  ///
  /// Invariants: `p` is a block of the slab with `row` its lanes' shared
  /// row; `sinCos` holds the block's sines then cosines (written by
  /// ``rotationSinCos(_:at:into:)``; read only for affines); the
  /// target has 8 writable rows from `o`.
  @inline(__always)
  static func evaluateUniformBlock(
    _ p: UnsafeRawPointer, at t: Double, row: UnsafePointer<Float>, sinCos: UnsafePointer<SIMD8<Float>>,
    into target: EvaluationTarget, at o: Int
  ) {
    let kernelTarget = sleet_block_target(
      instances: target.compact == nil ? UnsafeMutableRawPointer(target.instances + o) : nil,
      compact: target.compact.map { UnsafeMutableRawPointer($0 + o) },
      affines: target.affines.map { UnsafeMutableRawPointer($0 + o) },
      depths: target.writesSortKeys ? target.depths + o : nil,
      flattensDepth: target.flattensDepth ? 1 : 0)
    sleet_evaluate_uniform_block8(
      p, t, row, UnsafeRawPointer(sinCos), kernelTarget)
  }

  /// The sines and cosines of the rotations (``ClosedForm/rotation(_:age:)``)
  /// of the block at `p` at time `t`, lanes in order: `out[0]` the sines and
  /// `out[1]` the cosines, all eight lanes (dead and unused lanes too: their
  /// values are never stored).
  ///
  /// Used for the blocks evaluated one at a time
  /// (``evaluateBlock(_:at:sinCos:into:at:scratch:)``). Runs compute theirs
  /// in C, a group of four blocks ahead (`sleet_rotation_sincos8`, which
  /// says why ahead); this is its naive twin, ``FastTrig`` on the same
  /// age conversion and product, and `BlockRunKernelTests` compares the two
  /// bit for bit through the affines.
  ///
  /// Invariants: `p` is a block of the 64-byte-aligned slab; `out` holds
  /// two vectors.
  @inline(never)
  static func rotationSinCos(_ p: UnsafeRawPointer, at t: Double, into out: UnsafeMutablePointer<SIMD8<Float>>) {
    let a = SIMD8<Float>(SIMD8(repeating: t) - p.load(fromByteOffset: SLEET_SLAB_BIRTH_TIME, as: SIMD8<Double>.self))
    let (sinR, cosR) = FastTrig.sinCos(
      ClosedForm.rotation(p.load(fromByteOffset: SLEET_SLAB_SPIN, as: SIMD8<Float>.self), age: a))
    out[0] = sinR
    out[1] = cosR
  }

  /// Four lanes of clamped colour as `R8G8B8A8_UNORM` words: each channel
  /// 255·c rounded to nearest (ties to even), as
  /// ``CompactParticleInstance/init(_:)`` rounds it. Adding 1.5·2²³ rounds
  /// the product to an integer in the low mantissa bits (exact for
  /// 0 ≤ 255·c ≤ 255), so no float-to-integer conversion is needed.
  @inline(__always)
  static func unorm8(
    _ c: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
  ) -> SIMD4<UInt32> {
    let magic = SIMD4<Float>(repeating: 12_582_912)
    let scale = SIMD4<Float>(repeating: 255)
    @inline(__always) func channel(_ v: SIMD4<Float>) -> SIMD4<UInt32> {
      unsafeBitCast(v * scale + magic, to: SIMD4<UInt32>.self) & SIMD4(repeating: 0xFF)
    }
    return channel(c.0) | channel(c.1) &<< 8 | channel(c.2) &<< 16 | channel(c.3) &<< 24
  }

  // The field groups of one half, each a separate small function on purpose:
  // in a small function LLVM lowers `replace(with:where:)` to one `maxps` or
  // `minps`, but inside the large kernel it builds the masks lane by lane in
  // general registers.

  /// Position per axis and scale (``ClosedForm``).
  @inline(never)
  static func positionAndScale(
    _ p: UnsafeRawPointer, lanes: Int, age a: SIMD4<Float>, constants k: LaneConstants
  ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
    @inline(__always) func field(_ offset: Int, _ component: Int = 0) -> SIMD4<Float> {
      p.load(fromByteOffset: offset + component * slotBytes + lanes * 4, as: SIMD4<Float>.self)
    }
    let aa = a * a
    return (
      ClosedForm.position(field(SLEET_SLAB_POSITION), field(SLEET_SLAB_VELOCITY), k.hx, age: a, ageSquared: aa),
      ClosedForm.position(field(SLEET_SLAB_POSITION, 1), field(SLEET_SLAB_VELOCITY, 1), k.hy, age: a, ageSquared: aa),
      ClosedForm.position(field(SLEET_SLAB_POSITION, 2), field(SLEET_SLAB_VELOCITY, 2), k.hz, age: a, ageSquared: aa),
      ClosedForm.scale(field(SLEET_SLAB_SCALE), k.scaleSpeed, age: a)
    )
  }

  /// Rotation and normalised age (``ClosedForm``); 1/lifetime is the same
  /// division the naive twin makes.
  @inline(never)
  static func rotationAndAge(
    _ p: UnsafeRawPointer, lanes: Int, age a: SIMD4<Float>
  ) -> (SIMD4<Float>, SIMD4<Float>) {
    @inline(__always) func field(_ offset: Int, _ component: Int = 0) -> SIMD4<Float> {
      p.load(fromByteOffset: offset + component * slotBytes + lanes * 4, as: SIMD4<Float>.self)
    }
    return (
      ClosedForm.rotation(field(SLEET_SLAB_SPIN), age: a),
      ClosedForm.normalizedAge(age: a, inverseLifetime: SIMD4(repeating: 1) / field(SLEET_SLAB_LIFETIME))
    )
  }

  /// Colour (``ClosedForm``).
  @inline(never)
  static func clampedColors(
    _ p: UnsafeRawPointer, lanes: Int, age a: SIMD4<Float>, constants k: LaneConstants
  ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
    @inline(__always) func field(_ offset: Int, _ component: Int = 0) -> SIMD4<Float> {
      p.load(fromByteOffset: offset + component * slotBytes + lanes * 4, as: SIMD4<Float>.self)
    }
    return (
      ClosedForm.color(field(SLEET_SLAB_COLOR), k.colorSpeedR, age: a),
      ClosedForm.color(field(SLEET_SLAB_COLOR, 1), k.colorSpeedG, age: a),
      ClosedForm.color(field(SLEET_SLAB_COLOR, 2), k.colorSpeedB, age: a),
      ClosedForm.color(field(SLEET_SLAB_COLOR, 3), k.colorSpeedA, age: a)
    )
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

  /// Field group `(a, b, c, d)` of four consecutive instances of `stride`
  /// bytes: row l at `out + stride·l + offset` is (a[l], b[l], c[l], d[l]);
  /// aligned stores (instances are 16-byte aligned, strides multiples of 16).
  @inline(__always)
  static func storeRows4(
    _ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>,
    to out: UnsafeMutableRawPointer, offset: Int, stride: Int
  ) {
    let rows = transpose(a, b, c, d)
    out.storeBytes(of: rows.0, toByteOffset: offset, as: SIMD4<Float>.self)
    out.storeBytes(of: rows.1, toByteOffset: stride + offset, as: SIMD4<Float>.self)
    out.storeBytes(of: rows.2, toByteOffset: 2 * stride + offset, as: SIMD4<Float>.self)
    out.storeBytes(of: rows.3, toByteOffset: 3 * stride + offset, as: SIMD4<Float>.self)
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
