import SleetMath

/// The fast path of the frame kernel: a *uniform run*, up to
/// ``ParticleStore/runBlocks`` consecutive blocks that are alive in every
/// lane, drawn whole (no hidden cell), and share one constants row.
///
/// It runs in two phases, each a small loop in its own function:
///
/// 1. ``ParticleStore/computeUniformRun(_:blocks:at:row:affines:into:)``
///    evaluates ``ClosedForm`` on eight lanes at a time and stores every field
///    of the run as columns (`SIMD8<Float>`) in a stack scratch;
/// 2. a store function (full instances, compact instances, affines) reads
///    the columns back four lanes at a time and transposes them into rows.
///
/// Why two phases: Swift's `SIMD` arithmetic is written as per-lane loops
/// that LLVM's SLP vectoriser turns back into vector instructions. When the
/// closed form and the transposes sit in one function, the vectoriser seeds
/// from the row stores and vectorises *across fields* (x, y, z, scale of one
/// particle) instead of across particles: scalar `mulss`, `insertps` and
/// spills (`objdump`; 1.5–2× the instructions). Alone, the compute loop is
/// one vector instruction per operation (about 55 per eight particles in
/// the AVX2 build), and the transposes are clean shuffles of loaded columns.
/// The scratch costs a few L1 stores and loads per particle.
///
/// Bits: every lane goes through the same IEEE operations in the same order
/// as ``ClosedForm`` on `Float` (no FMA: Swift does not contract), so the
/// output is identical to the four-lane halves and the naive twin
/// (`RenderPathAgreementTests`, `ParticleSystemTests.kernelMatchesItsNaiveTwinBitForBit`,
/// `UniformRunTests`).
extension ParticleStore {
  /// The longest uniform run evaluated at once (its columns, 16 blocks × 12
  /// fields × 32 B = 6 KiB, stay in L1).
  static let runBlocks = 16
  /// Columns per block in the run scratch: x, y, z, scale, r, g, b, a,
  /// rotation, normalised age, scale·cos, scale·sin.
  static let runFields = 12

  /// Phase 1 for `blocks` consecutive blocks from `p`: each block's twelve
  /// columns at `scratch + 12·k` (the last two only when `affines`).
  ///
  /// Invariants: `p` is a 512-byte block of the 64-byte-aligned slab (every
  /// load is an aligned 32-byte column); every lane is alive at `t` (lanes
  /// past the store's count never reach here); `row` is the constants row
  /// shared by every lane; `scratch` holds `12·blocks` columns and does not
  /// alias the slab.
  @inline(never)
  static func computeUniformRun(
    _ p: UnsafeRawPointer, blocks: Int, at t: Double, row: UnsafePointer<Float>, affines: Bool,
    into scratch: UnsafeMutablePointer<SIMD8<Float>>
  ) {
    typealias V = SIMD8<Float>
    let hx = V(repeating: row[0])
    let hy = V(repeating: row[1])
    let hz = V(repeating: row[2])
    let scaleSpeed = V(repeating: row[3])
    let cr = V(repeating: row[4])
    let cg = V(repeating: row[5])
    let cb = V(repeating: row[6])
    let ca = V(repeating: row[7])
    let now = SIMD8<Double>(repeating: t)
    for k in 0..<blocks {
      let block = p + k * blockBytes
      @inline(__always) func slot(_ s: Int) -> V { block.load(fromByteOffset: s * 32, as: V.self) }
      let a = floatLanes(now - block.load(as: SIMD8<Double>.self))
      let aa = a * a
      let out = scratch + k * runFields
      out[0] = ClosedForm.position(slot(4), slot(7), hx, age: a, ageSquared: aa)
      out[1] = ClosedForm.position(slot(5), slot(8), hy, age: a, ageSquared: aa)
      out[2] = ClosedForm.position(slot(6), slot(9), hz, age: a, ageSquared: aa)
      let s = ClosedForm.scale(slot(10), scaleSpeed, age: a)
      out[3] = s
      out[4] = ClosedForm.color(slot(12), cr, age: a)
      out[5] = ClosedForm.color(slot(13), cg, age: a)
      out[6] = ClosedForm.color(slot(14), cb, age: a)
      out[7] = ClosedForm.color(slot(15), ca, age: a)
      let rotation = ClosedForm.rotation(slot(11), age: a)
      out[8] = rotation
      out[9] = ClosedForm.normalizedAge(age: a, inverseLifetime: V(repeating: 1) / slot(2))
      if affines {
        let (sinR, cosR) = FastTrig.sinCos(rotation)
        out[10] = s * cosR
        out[11] = s * sinR
      }
    }
  }

  /// `SIMD8<Float>(d)` lane by lane (round to nearest, as `Float(Double)`),
  /// written out because the standard library's generic conversion stays an
  /// out-of-line call in the compute loop (`objdump`); this is two
  /// `cvtpd2ps` (one in the AVX2 build).
  @inline(__always)
  static func floatLanes(_ d: SIMD8<Double>) -> SIMD8<Float> {
    SIMD8(Float(d[0]), Float(d[1]), Float(d[2]), Float(d[3]), Float(d[4]), Float(d[5]), Float(d[6]), Float(d[7]))
  }

  /// Phase 2, full instances: the run's columns at `scratch` as 64-byte
  /// `ParticleInstance` rows from `out` (8 per block), contentsRect, sprite
  /// and cell from `row`; z written as 0 when `flattensDepth`.
  ///
  /// Invariants: `out` is 16-byte aligned (instances are 64-byte strided
  /// Swift array elements) and holds `8·blocks` instances; it does not alias
  /// `scratch`. Columns are read as 16-byte halves (aligned: the scratch is
  /// 32-byte strided from an aligned base).
  @inline(never)
  static func storeInstances(
    _ scratch: UnsafePointer<SIMD8<Float>>, blocks: Int, row: UnsafePointer<Float>, flattensDepth: Bool,
    to out: UnsafeMutableRawPointer
  ) {
    typealias V = SIMD4<Float>
    let rect = UnsafeRawPointer(row).load(fromByteOffset: 32, as: V.self)
    let sprite = V(repeating: row[12])
    let cell = V(repeating: row[13])
    for k in 0..<blocks {
      let columns = UnsafeRawPointer(scratch + k * runFields)
      for half in 0..<2 {
        @inline(__always) func column(_ f: Int) -> V { columns.load(fromByteOffset: f * 32 + half * 16, as: V.self) }
        let o = out + k * 512 + half * 256
        storeRows4(
          column(0), column(1), flattensDepth ? V(repeating: 0) : column(2), column(3), to: o, offset: 0, stride: 64)
        storeRows4(column(4), column(5), column(6), column(7), to: o, offset: 16, stride: 64)
        for lane in 0..<4 { o.storeBytes(of: rect, toByteOffset: lane * 64 + 32, as: V.self) }
        storeRows4(column(8), column(9), sprite, cell, to: o, offset: 48, stride: 64)
      }
    }
  }

  /// Phase 2, compact instances: 32-byte `CompactParticleInstance` rows
  /// (colour packed by ``unorm8(_:)``, sprite and cell from `row[14]`).
  ///
  /// Invariants: as ``storeInstances(_:blocks:row:flattensDepth:to:)`` with
  /// a 32-byte stride.
  @inline(never)
  static func storeCompactInstances(
    _ scratch: UnsafePointer<SIMD8<Float>>, blocks: Int, row: UnsafePointer<Float>, flattensDepth: Bool,
    to out: UnsafeMutableRawPointer
  ) {
    typealias V = SIMD4<Float>
    let spriteCell = V(repeating: row[14])
    for k in 0..<blocks {
      let columns = UnsafeRawPointer(scratch + k * runFields)
      for half in 0..<2 {
        @inline(__always) func column(_ f: Int) -> V { columns.load(fromByteOffset: f * 32 + half * 16, as: V.self) }
        let o = out + k * 256 + half * 128
        storeRows4(
          column(0), column(1), flattensDepth ? V(repeating: 0) : column(2), column(3), to: o, offset: 0, stride: 32)
        let color = unsafeBitCast(unorm8((column(4), column(5), column(6), column(7))), to: V.self)
        storeRows4(column(8), column(9), color, spriteCell, to: o, offset: 16, stride: 32)
      }
    }
  }

  /// Phase 2, affines: from the x, y, scale·cos and scale·sin columns,
  /// ``storeAffines4(_:_:_:_:to:)`` per four lanes.
  ///
  /// Invariants: `out` holds `8·blocks` transforms (stored unaligned) and
  /// does not alias `scratch`; the run was computed with `affines: true`.
  @inline(never)
  static func storeAffines(
    _ scratch: UnsafePointer<SIMD8<Float>>, blocks: Int, to out: UnsafeMutableRawPointer
  ) {
    typealias V = SIMD4<Float>
    for k in 0..<blocks {
      let columns = UnsafeRawPointer(scratch + k * runFields)
      for half in 0..<2 {
        @inline(__always) func column(_ f: Int) -> V { columns.load(fromByteOffset: f * 32 + half * 16, as: V.self) }
        storeAffines4(column(10), column(11), column(0), column(1), to: out + (k * 8 + half * 4) * 24)
      }
    }
  }

  /// A uniform run of `blocks` blocks from block `b` (relative to the
  /// window), written to output indices `o..<o + 8·blocks` of `target`:
  /// instances (full or compact), affines when asked, tracked z when sort
  /// keys are asked (the caller copies the ids).
  ///
  /// Invariants: as the two phases; `scratch` holds
  /// `runBlocks · runFields` columns; `blocks ≤ runBlocks`.
  func drawUniformRun(
    from b: Int, blocks: Int, at t: Double, row: UInt32, into target: EvaluationTarget, at o: Int,
    scratch: UnsafeMutablePointer<SIMD8<Float>>
  ) {
    let rowPointer = UnsafePointer(constants.rows + Int(row) * ParticleConstantsTable.rowFloats)
    let p = UnsafeRawPointer(self.blocks + b * Self.blockBytes)
    Self.computeUniformRun(
      p, blocks: blocks, at: t, row: rowPointer, affines: target.affines != nil, into: scratch)
    if let compact = target.compact {
      Self.storeCompactInstances(
        scratch, blocks: blocks, row: rowPointer, flattensDepth: target.flattensDepth,
        to: UnsafeMutableRawPointer(compact + o))
    } else {
      Self.storeInstances(
        scratch, blocks: blocks, row: rowPointer, flattensDepth: target.flattensDepth,
        to: UnsafeMutableRawPointer(target.instances + o))
    }
    if let affines = target.affines {
      Self.storeAffines(scratch, blocks: blocks, to: UnsafeMutableRawPointer(affines + o))
    }
    if target.writesSortKeys {
      for k in 0..<blocks {
        UnsafeMutableRawPointer(target.depths + o + k * 8).storeBytes(
          of: scratch[k * Self.runFields + 2], as: SIMD8<Float>.self)
      }
    }
  }
}
