extension Transform3DBatch {
  /// The SIMD backend: explicit `SIMD4<Float>` kernels over raw buffers.
  ///
  /// **Numerics.** Every kernel evaluates the same expressions in the same order
  /// as the scalar reference (`row · M = ((x·r1 + y·r2) + z·r3) + w·r4`, separate
  /// multiplies and adds — Swift never contracts them into FMA — and a true
  /// IEEE division for the homogeneous divide), so the SIMD backend is
  /// **bit-identical** to ``Transform3DBatch/_Scalar`` on every input, in the
  /// portable and in the `-target-cpu haswell` build alike. The speed comes from
  /// layout, not from different arithmetic: broadcast loads instead of lane
  /// extraction, shared operands hoisted into registers, structure-of-arrays
  /// over the points of operation 3, no ARC, no bounds checks, no allocation.
  ///
  /// **Common invariants** (checked by the public entry points, assumed here):
  /// - *Alignment:* inputs and outputs may be arbitrary sub-ranges of larger
  ///   buffers. Only the natural alignment of the element types is assumed:
  ///   16 bytes for `Transform3D` and `SIMD3<Float>`, 8 bytes for
  ///   `SIMD2<Float>`. 16-byte rows are loaded with aligned `SIMD4` loads; the
  ///   packed `SIMD2` output uses unaligned stores.
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
    /// The four rows of `shared` stay in registers; each entry of `a[i]` is a
    /// broadcast load (`vbroadcastss`/`movss+shufps`), so one product is 16
    /// broadcasts, 16 multiplies, 12 adds and 4 stores, with no shuffles.
    /// - Invariant: `a`, `out` 16-byte aligned (natural alignment of
    ///   `Transform3D`), `n ≥ 1`, `out[0..<n]` disjoint from `a[0..<n]`. No tail:
    ///   one transform per iteration.
    @inline(__always)
    static func _timesShared(
      _ a: UnsafePointer<Transform3D>, _ shared: Transform3D,
      _ out: UnsafeMutablePointer<Transform3D>, _ n: Int
    ) {
      let b1 = shared.row1
      let b2 = shared.row2
      let b3 = shared.row3
      let b4 = shared.row4
      let src = UnsafeRawPointer(a)
      let dst = UnsafeMutableRawPointer(out)
      for i in 0..<n {
        let s = src + 64 &* i
        let d = dst + 64 &* i
        for r in 0..<4 {
          let row = _rowTimes(s + 16 &* r, b1, b2, b3, b4)
          d.storeBytes(of: row, toByteOffset: 16 &* r, as: SIMD4<Float>.self)
        }
      }
    }

    /// `out[i] = a[i] · b[i]` for `i < n`, where `a[i]` sits at byte
    /// `aStride · i` of `a` (`aStride == 0` repeats one left operand: that is
    /// operation 1 with the shared transform on the left).
    ///
    /// Per product: 4 row loads of `b[i]`, 16 broadcast loads from `a[i]`,
    /// 16 multiplies, 12 adds, 4 stores.
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
        let l = a + aStride &* i
        let r = b + 64 &* i
        let b1 = r.load(fromByteOffset: 0, as: SIMD4<Float>.self)
        let b2 = r.load(fromByteOffset: 16, as: SIMD4<Float>.self)
        let b3 = r.load(fromByteOffset: 32, as: SIMD4<Float>.self)
        let b4 = r.load(fromByteOffset: 48, as: SIMD4<Float>.self)
        let d = dst + 64 &* i
        for k in 0..<4 {
          let row = _rowTimes(l + 16 &* k, b1, b2, b3, b4)
          d.storeBytes(of: row, toByteOffset: 16 &* k, as: SIMD4<Float>.self)
        }
      }
    }

    /// One row of a product: `((x·b1 + y·b2) + z·b3) + w·b4` where x…w are the
    /// four floats at `row` — the order of `Transform3D._rowTimes`, so the result
    /// is bit-identical to the scalar reference.
    @inline(__always)
    static func _rowTimes(
      _ row: UnsafeRawPointer, _ b1: SIMD4<Float>, _ b2: SIMD4<Float>, _ b3: SIMD4<Float>,
      _ b4: SIMD4<Float>
    ) -> SIMD4<Float> {
      let x = SIMD4(repeating: row.load(fromByteOffset: 0, as: Float.self)) * b1
      let y = SIMD4(repeating: row.load(fromByteOffset: 4, as: Float.self)) * b2
      let z = SIMD4(repeating: row.load(fromByteOffset: 8, as: Float.self)) * b3
      let w = SIMD4(repeating: row.load(fromByteOffset: 12, as: Float.self)) * b4
      return ((x + y) + z) + w
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
    /// live in three registers and the loop body is straight-line.
    /// - Invariant: as for ``project(_:through:into:)``; `out` has `4·n` slots.
    @inline(__always)
    static func _projectQuads(
      _ px: SIMD4<Float>, _ py: SIMD4<Float>, _ pz: SIMD4<Float>,
      _ t: UnsafePointer<Transform3D>, _ n: Int, _ out: UnsafeMutablePointer<SIMD2<Float>>
    ) {
      let src = UnsafeRawPointer(t)
      let dst = UnsafeMutableRawPointer(out)
      for i in 0..<n {
        _projectFour(px, py, pz, src + 64 &* i, dst + 32 &* i)
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
    /// The four rows of the transform stay in registers; each point costs three
    /// broadcast loads, 3 multiplies, 3 adds, one 4-lane divide, a compare, a
    /// blend and one 16-byte store.
    /// - Invariant: `points`, `out` 16-byte aligned (natural alignment of
    ///   `SIMD3<Float>`, whose fourth lane is padding); `out` disjoint from
    ///   `points`. The padding lane of each output receives `w/w` (1, or NaN):
    ///   it is not part of the value. No tail: one point per iteration.
    static func project(
      _ points: UnsafeBufferPointer<SIMD3<Float>>, through transform: Transform3D,
      into out: UnsafeMutableBufferPointer<SIMD3<Float>>
    ) {
      guard let src = points.baseAddress, let dst = out.baseAddress, points.count > 0 else { return }
      let r1 = transform.row1
      let r2 = transform.row2
      let r3 = transform.row3
      let r4 = transform.row4
      let s = UnsafeRawPointer(src)
      let d = UnsafeMutableRawPointer(dst)
      for i in 0..<points.count {
        let p = s + 16 &* i
        let x = SIMD4(repeating: p.load(fromByteOffset: 0, as: Float.self)) * r1
        let y = SIMD4(repeating: p.load(fromByteOffset: 4, as: Float.self)) * r2
        let z = SIMD4(repeating: p.load(fromByteOffset: 8, as: Float.self)) * r3
        let h = ((x + y) + z) + r4
        var q = h / SIMD4(repeating: h.w)
        q.replace(with: .nan, where: SIMD4(repeating: h.w) .<= 0)
        d.storeBytes(of: q, toByteOffset: 16 &* i, as: SIMD4<Float>.self)
      }
    }
  }
}
