import SleetMath

extension TransformBackend {
  /// OpenBLAS on stacked or packed layouts: one `cblas_sgemm` per operation
  /// (four banded `cblas_sgbmv` for the element-wise product, which has no GEMM
  /// form), never one call per matrix. Operations that need a side-by-side
  /// layout (shared-left concatenation, shared-point projection, element-wise
  /// product) allocate a packing buffer per call. OpenBLAS uses the process's
  /// thread count, which the library never changes (the executables pin one:
  /// ``BLASInfo/useSingleThreadedBLAS()``).
  ///
  /// Precision: OpenBLAS uses FMA and its own summation order, so each entry
  /// of a product `c = Σ a_k·b_k` is within `1e-5 · Σ|a_k·b_k|` of the
  /// ``TransformBackend/scalar`` result (the classic GEMM bound is γ₄ ≈ 4.8e-7
  /// of it), projected coordinates within that bound carried through the
  /// divide; its last bits may depend on OpenBLAS's kernels and thread count.
  /// ``TransformBackend/automatic`` never chooses it.
  public static let blas = TransformBackend(name: "blas", kernels: BLASKernels())

  /// Every backend SleetKit ships, in the order the tools report them:
  /// `scalar`, `simd`, ``blas``, `automatic` (SleetMath alone has
  /// ``TransformBackend/builtIn``, without `blas`).
  public static let allCases: [TransformBackend] = [.scalar, .simd, .blas, .automatic]
}

/// The BLAS backend: each operation is phrased as one OpenBLAS call on a
/// stacked or packed layout — never one call per matrix (OpenBLAS 0.3.21 has
/// no batched GEMM). All calls go through `BLAS.swift`.
///
/// A batch is, in memory, a row-major `4N × 4` matrix: the N transforms stacked
/// vertically. That layout serves a shared *right* factor directly. A shared
/// *left* factor needs the transforms side by side (`4 × 4N`), which no BLAS
/// stride can express over the stacked layout (element (r, 4i+c) sits at
/// 16i + 4r + c, not an affine function of the column), so those operations
/// pack first. Packing buffers are allocated per call (documented in the
/// public API); the other backends allocate nothing.
///
/// Numerics: OpenBLAS's kernels use FMA and their own summation order, so
/// results differ from the scalar reference in the last bits; the agreement
/// tolerance is stated in `Transform3DBatchBackendTests`. Threads: whatever
/// the process chose (the executables pin one with
/// `BLASInfo.useSingleThreadedBLAS()`; the library never changes it).
internal struct BLASKernels: Transform3DBatchKernels {
  // MARK: Operation 1

  /// - Right: `[A_0; …; A_{N−1}] · S` is one `(4N×4)·(4×4)` SGEMM straight
  ///   on the caller's buffers (no packing).
  /// - Left: `S · [B_0 | … | B_{N−1}]` is one `(4×4)·(4×4N)` SGEMM after packing
  ///   the batch side by side, then unpacking the `4 × 4N` result.
  func concatenate(
    _ batch: UnsafeBufferPointer<Transform3D>, with shared: Transform3D,
    side: ConcatenationSide, into out: UnsafeMutableBufferPointer<Transform3D>
  ) {
    let n = batch.count
    guard n > 0, let src = batch.baseAddress, let dst = out.baseAddress else { return }
    withUnsafePointer(to: shared) { sp in
      let s = UnsafeRawPointer(sp).assumingMemoryBound(to: Float.self)
      let a = UnsafeRawPointer(src).assumingMemoryBound(to: Float.self)
      let c = UnsafeMutableRawPointer(dst).assumingMemoryBound(to: Float.self)
      switch side {
      case .right:
        _BLAS.sgemm(m: 4 * n, n: 4, k: 4, a: a, lda: 4, b: s, ldb: 4, c: c, ldc: 4)
      case .left:
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 32 * n)
        defer { scratch.deallocate() }
        let packed = scratch
        let product = scratch + 16 * n
        Self._packSideBySide(src, n, into: packed)
        _BLAS.sgemm(m: 4, n: 4 * n, k: 4, a: s, lda: 4, b: packed, ldb: 4 * n, c: product, ldc: 4 * n)
        Self._unpackSideBySide(product, n, into: dst)
      }
    }
  }

  // MARK: Operation 2

  /// `out[i] = a[i] · b[i]` has no GEMM form: the batch index would have to be
  /// an index of both factors *and* of the result, while GEMM's m, n, k each
  /// belong to only two of the three. The only single-GEMM phrasing is
  /// block-diagonal, O(N²) work. Instead, for each output column `c`:
  ///
  /// ```
  /// y_c = blockdiag(A_0, …, A_{N−1}) · x_c     x_c[4i+k] = B_i[k][c]
  ///                                            y_c[4i+r] = out_i[r][c]
  /// ```
  ///
  /// The block-diagonal matrix is a *band* matrix (3 sub- and 3
  /// super-diagonals), `x_c` and `y_c` are the batch buffers read with stride 4
  /// from offset `c`, so each column is one `cblas_sgbmv` call and the operation
  /// takes **four calls in total, independent of N** (the minimum for BLAS
  /// here). The band is packed once (7 floats per row, 112 B per transform);
  /// the work is 7/4 of the useful multiply-adds. A single `sgbmv` with 12
  /// sub/super-diagonals over the whole `16N` vector would also work but packs
  /// 1,600 B per transform (6.4 GB at 4M) and does 6.25× the useful work.
  func concatenate(
    _ a: UnsafeBufferPointer<Transform3D>, _ b: UnsafeBufferPointer<Transform3D>,
    into out: UnsafeMutableBufferPointer<Transform3D>
  ) {
    let n = a.count
    guard n > 0, let pa = a.baseAddress, let pb = b.baseAddress, let dst = out.baseAddress else { return }
    let rows = 4 * n
    let band = UnsafeMutablePointer<Float>.allocate(capacity: 7 * rows)
    defer { band.deallocate() }
    Self._packBand(pa, n, into: band)
    let x = UnsafeRawPointer(pb).assumingMemoryBound(to: Float.self)
    let y = UnsafeMutableRawPointer(dst).assumingMemoryBound(to: Float.self)
    // beta = 0 must not read y (BLAS semantics), but some OpenBLAS versions
    // scale y by 0, which would keep a NaN already in `out`: start from zeros.
    y.initialize(repeating: 0, count: 16 * n)
    for c in 0..<4 {
      _BLAS.sgbmv(
        m: rows, n: rows, kl: 3, ku: 3, a: band, lda: 7, x: x + c, incx: 4, y: y + c, incy: 4)
    }
  }

  // MARK: Operation 3

  /// `H = [p_j 1]_{P×4} · [T_0 | … | T_{N−1}]_{4×4N}` is one SGEMM after packing
  /// the transforms side by side; `H[j][4i..<4i+4]` is the homogeneous image of
  /// point j under transform i, divided in a final pass.
  func project(
    _ points: UnsafeBufferPointer<SIMD3<Float>>,
    through transforms: UnsafeBufferPointer<Transform3D>,
    into out: UnsafeMutableBufferPointer<SIMD2<Float>>
  ) {
    let n = transforms.count
    let p = points.count
    guard n > 0, p > 0, let t = transforms.baseAddress, let pts = points.baseAddress,
      let dst = out.baseAddress
    else { return }
    let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 16 * n + 4 * p + 4 * n * p)
    defer { scratch.deallocate() }
    let packed = scratch
    let homogeneous = scratch + 16 * n
    let h = homogeneous + 4 * p
    Self._packSideBySide(t, n, into: packed)
    for j in 0..<p {
      let q = pts[j]
      UnsafeMutableRawPointer(homogeneous).storeBytes(
        of: SIMD4(q.x, q.y, q.z, 1), toByteOffset: 16 &* j, as: SIMD4<Float>.self)
    }
    _BLAS.sgemm(m: p, n: 4 * n, k: 4, a: homogeneous, lda: 4, b: packed, ldb: 4 * n, c: h, ldc: 4 * n)
    let hv = UnsafeRawPointer(h)
    for j in 0..<p {
      let row = hv + (16 &* n) &* j  // row j: 4N floats
      for i in 0..<n {
        let v = row.load(fromByteOffset: 16 &* i, as: SIMD4<Float>.self)
        dst[i &* p &+ j] = v.w > 0 ? SIMD2(v.x / v.w, v.y / v.w) : SIMD2(.nan, .nan)
      }
    }
  }

  // MARK: Operation 4

  /// `H = [p_i]_{N×3} · T[0..<3] + 1·T.row4`: one SGEMM with K = 3 that reads
  /// the `SIMD3` points in place (leading dimension 4 skips the padding lane)
  /// and accumulates (beta = 1) onto `out`, pre-filled with `T.row4`; `out`'s
  /// 16-byte elements are the rows of H. Then the divide, in place. No packing.
  func project(
    _ points: UnsafeBufferPointer<SIMD3<Float>>, through transform: Transform3D,
    into out: UnsafeMutableBufferPointer<SIMD3<Float>>
  ) {
    let n = points.count
    guard n > 0, let src = points.baseAddress, let dst = out.baseAddress else { return }
    let c = UnsafeMutableRawPointer(dst)
    let row4 = transform.row4
    for i in 0..<n {
      c.storeBytes(of: row4, toByteOffset: 16 &* i, as: SIMD4<Float>.self)
    }
    withUnsafePointer(to: transform) { tp in
      _BLAS.sgemm(
        m: n, n: 4, k: 3, a: UnsafeRawPointer(src).assumingMemoryBound(to: Float.self), lda: 4,
        b: UnsafeRawPointer(tp).assumingMemoryBound(to: Float.self), ldb: 4, beta: 1,
        c: c.assumingMemoryBound(to: Float.self), ldc: 4)
    }
    for i in 0..<n {
      let h = c.load(fromByteOffset: 16 &* i, as: SIMD4<Float>.self)
      let q = h.w > 0 ? h / SIMD4(repeating: h.w) : SIMD4(repeating: .nan)
      c.storeBytes(of: q, toByteOffset: 16 &* i, as: SIMD4<Float>.self)
    }
  }

  // MARK: Packing

  /// `packed[r][4i + c] = t_i[r][c]`: the `4 × 4N` side-by-side layout
  /// (row-major, leading dimension 4N). Moves 16-byte rows.
  static func _packSideBySide(
    _ t: UnsafePointer<Transform3D>, _ n: Int, into packed: UnsafeMutablePointer<Float>
  ) {
    let src = UnsafeRawPointer(t)
    let dst = UnsafeMutableRawPointer(packed)
    let rowBytes = 16 &* n  // 4N floats
    for i in 0..<n {
      for r in 0..<4 {
        let v = src.load(fromByteOffset: 64 &* i &+ 16 &* r, as: SIMD4<Float>.self)
        dst.storeBytes(of: v, toByteOffset: rowBytes &* r &+ 16 &* i, as: SIMD4<Float>.self)
      }
    }
  }

  /// The inverse of ``_packSideBySide(_:_:into:)``.
  static func _unpackSideBySide(
    _ packed: UnsafePointer<Float>, _ n: Int, into t: UnsafeMutablePointer<Transform3D>
  ) {
    let src = UnsafeRawPointer(packed)
    let dst = UnsafeMutableRawPointer(t)
    let rowBytes = 16 &* n  // 4N floats
    for i in 0..<n {
      for r in 0..<4 {
        let v = src.load(fromByteOffset: rowBytes &* r &+ 16 &* i, as: SIMD4<Float>.self)
        dst.storeBytes(of: v, toByteOffset: 64 &* i &+ 16 &* r, as: SIMD4<Float>.self)
      }
    }
  }

  /// Row-major band storage (lda 7, kl = ku = 3) of `blockdiag(A_0, …)`:
  /// band row `4i + r` holds `A_i[r][k]` at position `3 + k − r`, zeros
  /// elsewhere (entries outside the block, and outside the matrix).
  static func _packBand(
    _ a: UnsafePointer<Transform3D>, _ n: Int, into band: UnsafeMutablePointer<Float>
  ) {
    band.initialize(repeating: 0, count: 28 * n)
    let src = UnsafeRawPointer(a).assumingMemoryBound(to: Float.self)
    for i in 0..<n {
      for r in 0..<4 {
        let bandRow: Int = 7 &* (4 &* i &+ r) &+ (3 &- r)
        let entryRow: Int = 16 &* i &+ 4 &* r
        let row = band + bandRow
        let m = src + entryRow
        row[0] = m[0]
        row[1] = m[1]
        row[2] = m[2]
        row[3] = m[3]
      }
    }
  }
}
