// The backend agreement checks of Transform3DBatch, shared by SleetMathTests
// and SleetBLASTests (each runs them for its own backends).
import SleetMath
import Testing

/// Agreement of batch backends with the `scalar` reference on seeded random
/// data, shared by `Transform3DBatchBackendTests` (SleetMathTests: `simd` and
/// `automatic`, exact) and `BLASBackendAgreementTests` (SleetBLASTests: `blas`,
/// within tolerance).
///
/// Reference: `scalar` (plain `Transform3D` arithmetic) is exact by definition.
/// - `simd` evaluates the same expressions in the same order, and `automatic`
///   only chooses `scalar` or `simd`, so both must be **bit-identical** (NaN
///   where the reference has NaN).
/// - `blas` may round differently (OpenBLAS uses FMA and its own summation
///   order). Tolerance, per output entry, for a product
///   `c = Σ_k a_k·b_k`: `|c − c_ref| ≤ 1e-5 · Σ_k |a_k·b_k|` — relative 1e-5 of
///   the magnitude of the terms (the classic GEMM error bound is γ₄ ≈ 4.8e-7 of
///   it). After the homogeneous divide `q = x/w` the bound propagates to
///   `1e-5 · (Σ|x terms| + |q|·Σ|w terms|) / |w|`. NaN positions (w ≤ 0) must be
///   identical: the data keep w either ≥ 0.5, ≤ −0.5 or exactly 0.
public struct BatchBackendAgreement: Sendable {
  /// The batch sizes the suites run (SIMD block boundaries, a large odd size).
  public static let sizes = [0, 1, 3, 4, 7, 8, 9, 1023, 65537]
  /// The relative tolerance of an inexact backend (see above).
  public static let tolerance: Double = 1e-5

  /// The backends under test.
  public let backends: [TransformBackend]
  /// Whether they must be bit-identical to `scalar` (else within `tolerance`).
  public let exact: Bool

  public init(backends: [TransformBackend], exact: Bool) {
    self.backends = backends
    self.exact = exact
  }

  // MARK: Seeded data

  /// Transform `i` of a seeded family. Entries uniform in [−1, 1); the last
  /// column is chosen so w = [p 1]·col4 is ≥ 0.5 (kind 0), ≤ −0.5 (kind 1) or
  /// exactly 0 (kind 2) for points in [−10, 10)³.
  public static func transform(seed: UInt64, _ i: Int) -> Transform3D {
    let r = RandomStream(seed: seed, stream: UInt64(i))
    var f = (0..<16).map { 2 * r.uniform(UInt64($0)) - 1 }
    let kind = Int(r.word(16) % 3)
    for k in [3, 7, 11] { f[k] = kind == 2 ? 0 : f[k] * 1e-2 }
    f[15] = kind == 0 ? 1 + f[15] * 0.4 : kind == 1 ? -1 - f[15] * 0.4 : 0
    return Transform3D(
      row1: SIMD4(f[0], f[1], f[2], f[3]), row2: SIMD4(f[4], f[5], f[6], f[7]),
      row3: SIMD4(f[8], f[9], f[10], f[11]), row4: SIMD4(f[12], f[13], f[14], f[15]))
  }

  public static func transforms(seed: UInt64, count: Int) -> [Transform3D] {
    (0..<count).map { transform(seed: seed, $0) }
  }

  public static func points(seed: UInt64, count: Int) -> [SIMD3<Float>] {
    let r = RandomStream(seed: seed, stream: 1_000_000)
    return (0..<count).map { i in
      let u = r.uniforms(block: UInt64(i))
      return SIMD3(u.x, u.y, u.z) * 20 - 10
    }
  }

  // MARK: Comparison helpers

  /// Bit-identical, treating every NaN as equal to every NaN.
  static func identical(_ a: Float, _ b: Float) -> Bool {
    a.isNaN ? b.isNaN : a.bitPattern == b.bitPattern
  }

  /// Checks `out[i] ≈ a[i]·b[i]` entry by entry (see the suite comment).
  static func checkProducts(
    _ a: (Int) -> Transform3D, _ b: (Int) -> Transform3D, _ got: [Transform3D],
    exact: Bool, _ label: String
  ) {
    var failures = 0
    for i in got.indices {
      let (x, y, ref) = (a(i), b(i), a(i).concatenating(b(i)))
      for r in 0..<4 {
        for c in 0..<4 {
          let g = got[i].entry(r, c)
          let e = ref.entry(r, c)
          let ok: Bool
          if exact {
            ok = identical(g, e)
          } else {
            let scale = (0..<4).reduce(0.0) { $0 + abs(Double(x.entry(r, $1)) * Double(y.entry($1, c))) }
            ok = abs(Double(g) - Double(e)) <= tolerance * scale
          }
          if !ok && failures < 5 {
            failures += 1
            Issue.record("\(label): entry [\(i)][\(r)][\(c)] = \(g), expected \(e)")
          }
        }
      }
    }
  }

  /// Checks one projected coordinate `q = h[c]/h.w` against the reference.
  static func projectedMatches(
    _ got: Float, _ expected: Float, point p: SIMD3<Float>, _ m: Transform3D, column c: Int, exact: Bool
  ) -> Bool {
    if expected.isNaN || got.isNaN { return expected.isNaN && got.isNaN }
    if exact { return identical(got, expected) }
    let v = SIMD4<Double>(Double(p.x), Double(p.y), Double(p.z), 1)
    var sx = 0.0
    var sw = 0.0
    var w = 0.0
    for k in 0..<4 {
      sx += abs(v[k] * Double(m.entry(k, c)))
      sw += abs(v[k] * Double(m.entry(k, 3)))
      w += v[k] * Double(m.entry(k, 3))
    }
    let bound = tolerance * (sx + abs(Double(expected)) * sw) / abs(w)
    return abs(Double(got) - Double(expected)) <= bound
  }

  // MARK: Operation 1 and 2

  public func concatenateShared(count: Int) {
    let batch = Self.transforms(seed: 11, count: count)
    let shared = Self.transform(seed: 12, 0)
    for side in ConcatenationSide.allCases {
      for backend in backends {
        var out = [Transform3D](repeating: .identity, count: count)
        batch.withUnsafeBufferPointer { src in
          out.withUnsafeMutableBufferPointer { dst in
            Transform3DBatch.concatenate(src, with: shared, side: side, into: dst, backend: backend)
          }
        }
        let label = "op1 \(side) \(backend) n=\(count)"
        switch side {
        case .right: Self.checkProducts({ batch[$0] }, { _ in shared }, out, exact: exact, label)
        case .left: Self.checkProducts({ _ in shared }, { batch[$0] }, out, exact: exact, label)
        }
      }
    }
  }

  public func concatenatePairs(count: Int) {
    let a = Self.transforms(seed: 21, count: count)
    let b = Self.transforms(seed: 22, count: count)
    for backend in backends {
      var out = [Transform3D](repeating: .identity, count: count)
      a.withUnsafeBufferPointer { pa in
        b.withUnsafeBufferPointer { pb in
          out.withUnsafeMutableBufferPointer { dst in
            Transform3DBatch.concatenate(pa, pb, into: dst, backend: backend)
          }
        }
      }
      Self.checkProducts({ a[$0] }, { b[$0] }, out, exact: exact, "op2 \(backend) n=\(count)")
    }
  }

  // MARK: Operation 3

  /// Runs operation 3 with a backend and checks it against the scalar result.
  public func checkProjectShared(
    points: [SIMD3<Float>], transforms: ArraySlice<Transform3D>, outOffset: Int, _ label: String
  ) {
    let p = points.count
    let n = transforms.count
    var reference = [SIMD2<Float>](repeating: .zero, count: n * p)
    points.withUnsafeBufferPointer { pts in
      transforms.withUnsafeBufferPointer { t in
        reference.withUnsafeMutableBufferPointer {
          Transform3DBatch.project(pts, through: t, into: $0, backend: .scalar)
        }
      }
    }
    for backend in backends {
      // Written into a larger buffer at `outOffset` (odd offsets: 8-byte aligned only).
      var big = [SIMD2<Float>](repeating: SIMD2(-7, -7), count: n * p + outOffset + 1)
      points.withUnsafeBufferPointer { pts in
        transforms.withUnsafeBufferPointer { t in
          big.withUnsafeMutableBufferPointer { all in
            let dst = UnsafeMutableBufferPointer(rebasing: all[outOffset..<(outOffset + n * p)])
            Transform3DBatch.project(pts, through: t, into: dst, backend: backend)
          }
        }
      }
      #expect(big[outOffset + n * p] == SIMD2(-7, -7), "\(label) \(backend): wrote past the end")
      if outOffset > 0 { #expect(big[outOffset - 1] == SIMD2(-7, -7), "\(label) \(backend): wrote before the start") }
      var failures = 0
      for i in 0..<n {
        for j in 0..<p {
          let g = big[outOffset + i * p + j]
          let e = reference[i * p + j]
          let m = transforms[transforms.startIndex + i]
          let ok =
            Self.projectedMatches(g.x, e.x, point: points[j], m, column: 0, exact: exact)
            && Self.projectedMatches(g.y, e.y, point: points[j], m, column: 1, exact: exact)
          if !ok && failures < 5 {
            failures += 1
            Issue.record("\(label) \(backend): tile \(i) point \(j) = \(g), expected \(e)")
          }
        }
      }
    }
  }

  public func projectSharedPoints(count: Int) {
    let t = Self.transforms(seed: 31, count: count)
    // 4 is the tile-corner fast path; 1 and 3 exercise the tail only, 5 and 8
    // blocks plus tail and several blocks.
    let pointCounts = count > 10_000 ? [4] : [4, 1, 3, 5, 8]
    for p in pointCounts {
      checkProjectShared(
        points: Self.points(seed: 32, count: p), transforms: t[...], outOffset: 0, "op3 n=\(count) P=\(p)")
    }
  }

  // MARK: Operation 4

  public func projectManyPoints(count: Int) {
    let pts = Self.points(seed: 41, count: count)
    for kind in 0..<3 {
      // One transform of each kind (w > 0, w < 0, w == 0).
      let m = (0..<30).lazy.map { Self.transform(seed: 42, $0) }.first {
        $0.m44 == 0 ? kind == 2 : ($0.m44 > 0 ? kind == 0 : kind == 1)
      }!
      checkProjectMany(points: pts[...], m, outOffset: 0, "op4 n=\(count) kind=\(kind)")
    }
  }

  public func checkProjectMany(
    points: ArraySlice<SIMD3<Float>>, _ m: Transform3D, outOffset: Int, _ label: String
  ) {
    let n = points.count
    var reference = [SIMD3<Float>](repeating: .zero, count: n)
    points.withUnsafeBufferPointer { src in
      reference.withUnsafeMutableBufferPointer {
        Transform3DBatch.project(src, through: m, into: $0, backend: .scalar)
      }
    }
    for backend in backends {
      var big = [SIMD3<Float>](repeating: SIMD3(-7, -7, -7), count: n + outOffset + 1)
      points.withUnsafeBufferPointer { src in
        big.withUnsafeMutableBufferPointer { all in
          let dst = UnsafeMutableBufferPointer(rebasing: all[outOffset..<(outOffset + n)])
          Transform3DBatch.project(src, through: m, into: dst, backend: backend)
        }
      }
      #expect(big[outOffset + n] == SIMD3(-7, -7, -7), "\(label) \(backend): wrote past the end")
      var failures = 0
      for i in 0..<n {
        let g = big[outOffset + i]
        let e = reference[i]
        let p = points[points.startIndex + i]
        let ok = (0..<3).allSatisfy { Self.projectedMatches(g[$0], e[$0], point: p, m, column: $0, exact: exact) }
        if !ok && failures < 5 {
          failures += 1
          Issue.record("\(label) \(backend): point \(i) = \(g), expected \(e)")
        }
      }
    }
  }

  // MARK: Misaligned sub-ranges

  public func misalignedSubRanges(start: Int, count: Int) {
    let all = Self.transforms(seed: 51, count: 1030)
    let others = Self.transforms(seed: 52, count: 1030)
    let shared = Self.transform(seed: 53, 0)
    let range = start..<(start + count)
    for backend in backends {
      // Operation 1 and 2: inputs and output are sub-ranges at offsets start, start+1.
      var out = [Transform3D](repeating: .identity, count: 1030)
      all.withUnsafeBufferPointer { pa in
        others.withUnsafeBufferPointer { pb in
          out.withUnsafeMutableBufferPointer { po in
            let a = UnsafeBufferPointer(rebasing: pa[range])
            let b = UnsafeBufferPointer(rebasing: pb[(start + 1)..<(start + 1 + count)])
            let o = UnsafeMutableBufferPointer(rebasing: po[(start + 2)..<(start + 2 + count)])
            Transform3DBatch.concatenate(a, b, into: o, backend: backend)
          }
        }
      }
      Self.checkProducts(
        { all[start + $0] }, { others[start + 1 + $0] }, Array(out[(start + 2)..<(start + 2 + count)]),
        exact: exact, "op2 sub-range \(start) \(backend)")
      #expect(out[start + 1] == .identity && out[start + 2 + count] == .identity)
      for side in ConcatenationSide.allCases {
        all.withUnsafeBufferPointer { pa in
          out.withUnsafeMutableBufferPointer { po in
            Transform3DBatch.concatenate(
              UnsafeBufferPointer(rebasing: pa[range]), with: shared, side: side,
              into: UnsafeMutableBufferPointer(rebasing: po[(start + 1)..<(start + 1 + count)]), backend: backend)
          }
        }
        let got = Array(out[(start + 1)..<(start + 1 + count)])
        switch side {
        case .right: Self.checkProducts({ all[start + $0] }, { _ in shared }, got, exact: exact, "op1")
        case .left: Self.checkProducts({ _ in shared }, { all[start + $0] }, got, exact: exact, "op1")
        }
      }
    }
    // Operations 3 and 4 on sub-ranges, output at odd offsets.
    let pts = Self.points(seed: 54, count: 1030)
    checkProjectShared(
      points: Array(pts[start..<(start + 4)]), transforms: all[range], outOffset: start, "op3 sub-range")
    checkProjectShared(
      points: Array(pts[start..<(start + 6)]), transforms: all[range], outOffset: start + 2, "op3 sub-range P=6")
    checkProjectMany(points: pts[range], shared, outOffset: start, "op4 sub-range")
  }
}

extension Transform3D {
  /// Entry (row r, column c), zero-based.
  public func entry(_ r: Int, _ c: Int) -> Float {
    [row1, row2, row3, row4][r][c]
  }
}
