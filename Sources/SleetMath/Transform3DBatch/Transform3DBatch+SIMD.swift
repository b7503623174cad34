extension Transform3DBatch {
  /// The SIMD backend: explicit `SIMD4<Float>`/`SIMD8<Float>` kernels over raw
  /// buffers.
  ///
  /// **Numerics.** Every kernel evaluates the same expressions in the same order
  /// as the scalar reference (`row · M = ((x·r1 + y·r2) + z·r3) + w·r4`, separate
  /// multiplies and adds — Swift never contracts them into FMA — and a true
  /// IEEE division for the homogeneous divide), so the SIMD backend is
  /// **bit-identical** to ``Transform3DBatch/_Scalar`` on every input, in the
  /// portable and in the `-target-cpu haswell` build alike. The speed comes from
  /// layout, not from different arithmetic: 8-lane vectors that carry two rows,
  /// two points or the x|y halves of a tile, in-lane permutes instead of lane
  /// extraction, shared operands hoisted into registers, one 8-lane divide per
  /// tile, selects placed where they need no mask shuffles; no ARC, no bounds
  /// checks. The
  /// only allocation is operation 3's structure-of-arrays copy of the shared
  /// points (`withUnsafeTemporaryAllocation`: on the stack for small point counts).
  ///
  /// The reasons behind each layout: `docs/performance-design.md`; the
  /// measurements: `docs/benchmarks.md`.
  ///
  /// **Common invariants** (checked by the public entry points, assumed here):
  /// - *Alignment:* inputs and outputs may be arbitrary sub-ranges of larger
  ///   buffers. Only the natural alignment of the element types is assumed:
  ///   16 bytes for `Transform3D` and `SIMD3<Float>`, 8 bytes for
  ///   `SIMD2<Float>`. 16-byte rows are loaded with aligned `SIMD4` loads;
  ///   32-byte `SIMD8` loads and stores, and the packed `SIMD2` output, are
  ///   unaligned.
  /// - *Aliasing:* the output never overlaps an input (a precondition of the
  ///   public API), so a kernel may write `out[i]` before reading `in[i + 1]`.
  /// - *Counts:* the buffers have the counts the public API checked; an empty
  ///   buffer (whose base address may be nil) returns before any access.
  internal enum _SIMD {
    // MARK: Operation 1

    static func concatenate(
      _ batch: UnsafeBufferPointer<Transform3D>, with shared: Transform3D,
      side: ConcatenationSide, into out: UnsafeMutableBufferPointer<Transform3D>
    ) {
      guard let src = batch.baseAddress, let dst = out.baseAddress, batch.count > 0 else { return }
      switch side {
      case .right: _timesShared(src, shared, dst, batch.count)
      case .left:
        withUnsafePointer(to: shared) { s in
          _pairs(UnsafeRawPointer(s), aStride: 0, UnsafeRawPointer(src), dst, batch.count)
        }
      }
    }

    // MARK: Operation 2

    static func concatenate(
      _ a: UnsafeBufferPointer<Transform3D>, _ b: UnsafeBufferPointer<Transform3D>,
      into out: UnsafeMutableBufferPointer<Transform3D>
    ) {
      guard let pa = a.baseAddress, let pb = b.baseAddress, let dst = out.baseAddress, a.count > 0
      else { return }
      _pairs(UnsafeRawPointer(pa), aStride: 64, UnsafeRawPointer(pb), dst, a.count)
    }

    // MARK: Kernels for operations 1 and 2

    /// `out[i] = a[i] · shared` for `i < n`.
    ///
    /// The rows of `shared` stay in registers, duplicated into both halves of
    /// 8-lane vectors; `a[i]` is read two rows at a time (see ``_product``).
    /// - Invariant: `a`, `out` 16-byte aligned (natural alignment of
    ///   `Transform3D`; 32-byte vectors are loaded and stored unaligned), `n ≥ 1`,
    ///   `out[0..<n]` disjoint from `a[0..<n]`. No tail: one transform per
    ///   iteration.
    @inline(__always)
    static func _timesShared(
      _ a: UnsafePointer<Transform3D>, _ shared: Transform3D,
      _ out: UnsafeMutablePointer<Transform3D>, _ n: Int
    ) {
      let b1 = SIMD8(lowHalf: shared.row1, highHalf: shared.row1)
      let b2 = SIMD8(lowHalf: shared.row2, highHalf: shared.row2)
      let b3 = SIMD8(lowHalf: shared.row3, highHalf: shared.row3)
      let b4 = SIMD8(lowHalf: shared.row4, highHalf: shared.row4)
      let src = UnsafeRawPointer(a)
      let dst = UnsafeMutableRawPointer(out)
      for i in 0..<n {
        _product(src + 64 &* i, b1, b2, b3, b4, dst + 64 &* i)
      }
    }

    /// `out[i] = a[i] · b[i]` for `i < n`, where `a[i]` sits at byte
    /// `aStride · i` of `a` (`aStride == 0` repeats one left operand: that is
    /// operation 1 with the shared transform on the left).
    ///
    /// - Invariant: `a`, `b`, `out` 16-byte aligned, `n ≥ 1`, `aStride` is 0 or
    ///   64, `out[0..<n]` disjoint from both inputs. No tail: one transform per
    ///   iteration.
    @inline(__always)
    static func _pairs(
      _ a: UnsafeRawPointer, aStride: Int, _ b: UnsafeRawPointer,
      _ out: UnsafeMutablePointer<Transform3D>, _ n: Int
    ) {
      let dst = UnsafeMutableRawPointer(out)
      for i in 0..<n {
        let r = b + 64 &* i
        @inline(__always) func row(_ k: Int) -> SIMD8<Float> {
          let v = r.load(fromByteOffset: 16 &* k, as: SIMD4<Float>.self)
          return SIMD8(lowHalf: v, highHalf: v)
        }
        _product(a + aStride &* i, row(0), row(1), row(2), row(3), dst + 64 &* i)
      }
    }

    /// One 4×4 product `a · b` written to `out`, two rows per 8-lane vector:
    ///
    /// ```
    /// (out_r | out_r+1) = (((a_r,1 | a_r+1,1)·(b1|b1) + (a_r,2 | a_r+1,2)·(b2|b2))
    ///                      + (a_r,3 | a_r+1,3)·(b3|b3)) + (a_r,4 | a_r+1,4)·(b4|b4)
    /// ```
    ///
    /// where `(a_r,k | a_r+1,k)` broadcasts entry k of each row within its half
    /// (one in-lane permute of the 32-byte load). Lane for lane this is
    /// `Transform3D._rowTimes`'s `((x·b1 + y·b2) + z·b3) + w·b4`, so the result
    /// is bit-identical to the scalar reference. Per product: 2 loads,
    /// 8 permutes, 8 multiplies, 6 adds, 2 stores of 32 bytes.
    @inline(__always)
    static func _product(
      _ a: UnsafeRawPointer, _ b1: SIMD8<Float>, _ b2: SIMD8<Float>, _ b3: SIMD8<Float>,
      _ b4: SIMD8<Float>, _ out: UnsafeMutableRawPointer
    ) {
      for pair in 0..<2 {
        let v = a.loadUnaligned(fromByteOffset: 32 &* pair, as: SIMD8<Float>.self)
        let x = SIMD8(v[0], v[0], v[0], v[0], v[4], v[4], v[4], v[4]) * b1
        let y = SIMD8(v[1], v[1], v[1], v[1], v[5], v[5], v[5], v[5]) * b2
        let z = SIMD8(v[2], v[2], v[2], v[2], v[6], v[6], v[6], v[6]) * b3
        let w = SIMD8(v[3], v[3], v[3], v[3], v[7], v[7], v[7], v[7]) * b4
        out.storeBytes(of: ((x + y) + z) + w, toByteOffset: 32 &* pair, as: SIMD8<Float>.self)
      }
    }

    // MARK: Operation 3

    /// Projects `points` through every transform, transform-major output.
    ///
    /// Structure of arrays over the points: points are taken four at a time
    /// as `px, py, pz: SIMD4<Float>` (lanes = points) and each transform
    /// contributes broadcast entries, so four projected points cost 9 multiplies,
    /// 9 adds, 2 divides, 1 compare, 2 blends and 2 shuffled stores, and the
    /// twelve broadcasts of a transform are loaded once for all its points.
    /// - Invariant: `transforms` 16-byte aligned; `out` only 8-byte aligned
    ///   (`SIMD2<Float>`), hence unaligned 16-byte stores; `out` disjoint from
    ///   the inputs. Tail: when `points.count % 4 != 0` the last points of each
    ///   transform go through the one-point path, which evaluates the identical
    ///   expressions. The SoA copy of the points lives in a temporary
    ///   (stack-eligible) allocation of `3·⌈P/4⌉` vectors made once per call.
    static func project(
      _ points: UnsafeBufferPointer<SIMD3<Float>>,
      through transforms: UnsafeBufferPointer<Transform3D>,
      into out: UnsafeMutableBufferPointer<SIMD2<Float>>
    ) {
      let p = points.count
      guard let pts = points.baseAddress, let tr = transforms.baseAddress,
        let dst = out.baseAddress, p > 0, transforms.count > 0
      else { return }
      let blocks = p / 4
      if blocks == 0 {
        _projectTail(pts, 0, p, tr, transforms.count, dst)
        return
      }
      withUnsafeTemporaryAllocation(of: SIMD4<Float>.self, capacity: 3 * blocks) { soa in
        let s = soa.baseAddress!
        for b in 0..<blocks {
          let q = pts + 4 * b
          s[3 * b] = SIMD4(q[0].x, q[1].x, q[2].x, q[3].x)
          s[3 * b + 1] = SIMD4(q[0].y, q[1].y, q[2].y, q[3].y)
          s[3 * b + 2] = SIMD4(q[0].z, q[1].z, q[2].z, q[3].z)
        }
        if blocks == 1 && p == 4 {
          _projectQuads(s[0], s[1], s[2], tr, transforms.count, dst)
        } else {
          _projectBlocks(UnsafePointer(s), blocks, p, tr, transforms.count, dst)
          if p % 4 != 0 {
            _projectTail(pts, 4 * blocks, p, tr, transforms.count, dst)
          }
        }
      }
    }

    /// The common case of four points per transform (tile corners): the points
    /// live in registers and the loop body is straight-line.
    ///
    /// Eight lanes carry `(x₀…x₃ | y₀…y₃)` so that one 8-lane divide by
    /// `(w₀…w₃ | w₀…w₃)` serves a whole tile (one `vdivps ymm` in the AVX2 build),
    /// and one 8-lane shuffle interleaves the result into `(x₀,y₀,…,x₃,y₃)` (LLVM
    /// folds it into the evaluation order, so no shuffle remains at the store).
    /// NaN for w ≤ 0 comes from the denominator: the 4-lane `w` is replaced by
    /// NaN where w ≤ 0 *before* it is duplicated, so both quotients are NaN. A
    /// select on the 8-lane result would compile to mask shuffles (pack/unpack
    /// sequences) on the critical path, hence the select on four lanes.
    /// - Invariant: as for ``project(_:through:into:)``; `out` has `4·n` slots
    ///   (32 bytes per tile, stored unaligned).
    @inline(__always)
    static func _projectQuads(
      _ px: SIMD4<Float>, _ py: SIMD4<Float>, _ pz: SIMD4<Float>,
      _ t: UnsafePointer<Transform3D>, _ n: Int, _ out: UnsafeMutablePointer<SIMD2<Float>>
    ) {
      let src = UnsafeRawPointer(t)
      let dst = UnsafeMutableRawPointer(out)
      let px8 = SIMD8(lowHalf: px, highHalf: px)
      let py8 = SIMD8(lowHalf: py, highHalf: py)
      let pz8 = SIMD8(lowHalf: pz, highHalf: pz)
      for i in 0..<n {
        let m = src + 64 &* i
        @inline(__always) func xy(_ row: Int) -> SIMD8<Float> {
          // (m_r1 ×4 | m_r2 ×4): one 16-byte load and one lane permutation.
          let r = m.load(fromByteOffset: 16 &* row, as: SIMD4<Float>.self)
          return SIMD8(r[0], r[0], r[0], r[0], r[1], r[1], r[1], r[1])
        }
        @inline(__always) func w(_ row: Int) -> SIMD4<Float> {
          SIMD4(repeating: m.load(fromByteOffset: 16 &* row &+ 12, as: Float.self))
        }
        let h = ((px8 * xy(0) + py8 * xy(1)) + pz8 * xy(2)) + xy(3)
        var w4 = ((px * w(0) + py * w(1)) + pz * w(2)) + w(3)
        // NaN where w ≤ 0: a NaN denominator makes both quotients NaN, and the
        // select happens on 4 lanes before they are duplicated.
        w4.replace(with: .nan, where: w4 .<= 0)
        let r = h / SIMD8(lowHalf: w4, highHalf: w4)
        let interleaved = SIMD8(r[0], r[4], r[1], r[5], r[2], r[6], r[3], r[7])
        dst.storeBytes(of: interleaved, toByteOffset: 32 &* i, as: SIMD8<Float>.self)
      }
    }

    /// Points in blocks of four for any count of points.
    @inline(__always)
    static func _projectBlocks(
      _ soa: UnsafePointer<SIMD4<Float>>, _ blocks: Int, _ p: Int,
      _ t: UnsafePointer<Transform3D>, _ n: Int, _ out: UnsafeMutablePointer<SIMD2<Float>>
    ) {
      let src = UnsafeRawPointer(t)
      let dst = UnsafeMutableRawPointer(out)
      for i in 0..<n {
        let m = src + 64 &* i
        let o = dst + 8 &* (p &* i)
        for b in 0..<blocks {
          _projectFour(soa[3 &* b], soa[3 &* b &+ 1], soa[3 &* b &+ 2], m, o + 32 &* b)
        }
      }
    }

    /// Four points (lanes) through the transform at `m`, written as four
    /// `SIMD2` at `o` (32 bytes, 8-byte aligned).
    ///
    /// `x = ((px·m11 + py·m21) + pz·m31) + m41` etc., the scalar reference's
    /// order with w = 1 (`1·m41 == m41` exactly); then `x/w`, `y/w` by true
    /// division, NaN where `w ≤ 0` (a NaN `w` already yields NaN).
    @inline(__always)
    static func _projectFour(
      _ px: SIMD4<Float>, _ py: SIMD4<Float>, _ pz: SIMD4<Float>,
      _ m: UnsafeRawPointer, _ o: UnsafeMutableRawPointer
    ) {
      @inline(__always) func e(_ offset: Int) -> SIMD4<Float> {
        SIMD4(repeating: m.load(fromByteOffset: offset, as: Float.self))
      }
      let x = ((px * e(0) + py * e(16)) + pz * e(32)) + e(48)
      let y = ((px * e(4) + py * e(20)) + pz * e(36)) + e(52)
      let w = ((px * e(12) + py * e(28)) + pz * e(44)) + e(60)
      var qx = x / w
      var qy = y / w
      let behind = w .<= 0
      qx.replace(with: .nan, where: behind)
      qy.replace(with: .nan, where: behind)
      let lo = SIMD4(qx[0], qy[0], qx[1], qy[1])
      let hi = SIMD4(qx[2], qy[2], qx[3], qy[3])
      o.storeBytes(of: lo, toByteOffset: 0, as: SIMD4<Float>.self)
      o.storeBytes(of: hi, toByteOffset: 16, as: SIMD4<Float>.self)
    }

    /// Points `first..<p` through every transform, one point at a time.
    static func _projectTail(
      _ pts: UnsafePointer<SIMD3<Float>>, _ first: Int, _ p: Int,
      _ t: UnsafePointer<Transform3D>, _ n: Int, _ out: UnsafeMutablePointer<SIMD2<Float>>
    ) {
      for i in 0..<n {
        let m = t[i]
        for j in first..<p {
          let q = pts[j]
          let h = ((q.x * m.row1 + q.y * m.row2) + q.z * m.row3) + m.row4
          out[i &* p &+ j] = h.w > 0 ? SIMD2(h.x / h.w, h.y / h.w) : SIMD2(.nan, .nan)
        }
      }
    }

    // MARK: Operation 4

    /// One transform applied to many points, with the homogeneous divide.
    ///
    /// Two points per 8-lane vector: the rows of the transform stay in
    /// registers, duplicated into both halves; one 32-byte load brings two
    /// points, in-lane permutes broadcast their coordinates, and one 8-lane
    /// divide by `(w_i ×4 | w_i+1 ×4)` projects both. Lane for lane the
    /// expressions are the scalar reference's, so results are bit-identical.
    /// - Invariant: `points`, `out` 16-byte aligned (natural alignment of
    ///   `SIMD3<Float>`, whose fourth lane is padding; 32-byte accesses are
    ///   unaligned); `out` disjoint from `points`. The padding lane of each output
    ///   receives `w/w` (1, or NaN): it is not part of the value. Tail: an odd
    ///   last point goes through the 4-lane form of the same expressions.
    static func project(
      _ points: UnsafeBufferPointer<SIMD3<Float>>, through transform: Transform3D,
      into out: UnsafeMutableBufferPointer<SIMD3<Float>>
    ) {
      guard let src = points.baseAddress, let dst = out.baseAddress, points.count > 0 else { return }
      let n = points.count
      let s = UnsafeRawPointer(src)
      let d = UnsafeMutableRawPointer(dst)
      let r1 = SIMD8(lowHalf: transform.row1, highHalf: transform.row1)
      let r2 = SIMD8(lowHalf: transform.row2, highHalf: transform.row2)
      let r3 = SIMD8(lowHalf: transform.row3, highHalf: transform.row3)
      let r4 = SIMD8(lowHalf: transform.row4, highHalf: transform.row4)
      var i = 0
      while i &+ 2 <= n {
        let v = s.loadUnaligned(fromByteOffset: 16 &* i, as: SIMD8<Float>.self)
        let x = SIMD8(v[0], v[0], v[0], v[0], v[4], v[4], v[4], v[4]) * r1
        let y = SIMD8(v[1], v[1], v[1], v[1], v[5], v[5], v[5], v[5]) * r2
        let z = SIMD8(v[2], v[2], v[2], v[2], v[6], v[6], v[6], v[6]) * r3
        let h = ((x + y) + z) + r4
        var w = SIMD8(h[3], h[3], h[3], h[3], h[7], h[7], h[7], h[7])
        // NaN where w ≤ 0: a NaN denominator makes every quotient NaN.
        w.replace(with: .nan, where: w .<= 0)
        let r = h / w
        d.storeBytes(of: r, toByteOffset: 16 &* i, as: SIMD8<Float>.self)
        i &+= 2
      }
      if i < n {
        let p = s + 16 &* i
        let x = SIMD4(repeating: p.load(fromByteOffset: 0, as: Float.self)) * transform.row1
        let y = SIMD4(repeating: p.load(fromByteOffset: 4, as: Float.self)) * transform.row2
        let z = SIMD4(repeating: p.load(fromByteOffset: 8, as: Float.self)) * transform.row3
        let h = ((x + y) + z) + transform.row4
        var q = h / SIMD4(repeating: h.w)
        q.replace(with: .nan, where: SIMD4(repeating: h.w) .<= 0)
        d.storeBytes(of: q, toByteOffset: 16 &* i, as: SIMD4<Float>.self)
      }
    }
  }
}
