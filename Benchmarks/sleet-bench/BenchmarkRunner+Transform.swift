import SleetKit

/// The transform suite of issue 2: the four batch operations at 1k, 64k, 1M and
/// 4M items (and 1…256, for the crossovers behind `automatic`) on every backend,
/// plus a cache-resident 4×4·4×4 product.
///
/// Data: seeded `RandomStream` transforms with entries in [−1, 1), a small
/// perspective column (|m14|, |m24|, |m34| < 10⁻³) and m44 = 1, and points in
/// [−100, 100)³, so w stays near 1 and no path spends time on w ≤ 0 branches.
extension BenchmarkRunner {
  static var transform: BenchmarkSuite {
    BenchmarkSuite(name: "transform") { scale in
      // 1…256: where `automatic` must decide; 1k…4M: the sizes the targets are stated for.
      let sizes = scale.sizes([1, 8, 64, 256, 1_024, 65_536, 1_048_576, 4_194_304])
      let paths: [TransformBackend] = [.scalar, .simd, .blas]
      var groups: [BenchmarkGroup] = []

      func group(
        _ name: String, _ n: Int, _ model: ByteModel,
        _ make: @escaping () -> (TransformBackend) -> () -> Void
      ) -> BenchmarkGroup {
        BenchmarkGroup(name: name, items: n, byteModel: model, baseline: "scalar", reference: "blas") {
          let run = make()
          return paths.map { p in BenchmarkCase(p.name, run(p)) }
        }
      }

      let shared = TransformData.transform(seed: 99, index: 0)
      for n in sizes {
        for side in ConcatenationSide.allCases {
          groups.append(
            group(
              "concat-shared-\(side.rawValue) n=\(n)", n,
              ByteModel(bytesPerItem: 128, "64 B transform in + 64 B out")
            ) {
              let a = TransformData.transforms(seed: 1, count: n)
              let out = BenchmarkBuffer<Transform3D>(count: n) { _ in .identity }
              return { backend in
                {
                  Transform3DBatch.concatenate(a.readOnly, with: shared, side: side, into: out.buffer, backend: backend)
                  blackHole(out.buffer[n - 1].m44)
                }
              }
            })
        }
        groups.append(
          group("concat-pairs n=\(n)", n, ByteModel(bytesPerItem: 192, "2 × 64 B transforms in + 64 B out")) {
            let a = TransformData.transforms(seed: 2, count: n)
            let b = TransformData.transforms(seed: 3, count: n)
            let out = BenchmarkBuffer<Transform3D>(count: n) { _ in .identity }
            return { backend in
              {
                Transform3DBatch.concatenate(a.readOnly, b.readOnly, into: out.buffer, backend: backend)
                blackHole(out.buffer[n - 1].m44)
              }
            }
          })
        groups.append(
          group(
            "project-tiles n=\(n)", n,
            ByteModel(bytesPerItem: 96, "per tile: 64 B transform in + 4 corners × 8 B out")
          ) {
            let t = TransformData.transforms(seed: 4, count: n)
            let corners = BenchmarkBuffer<SIMD3<Float>>(count: 4) {
              SIMD3(Float($0 & 1) * 40 - 20, Float($0 >> 1) * 40 - 20, 0)
            }
            let out = BenchmarkBuffer<SIMD2<Float>>(count: 4 * n) { _ in .zero }
            return { backend in
              {
                Transform3DBatch.project(corners.readOnly, through: t.readOnly, into: out.buffer, backend: backend)
                blackHole(out.buffer[4 * n - 1])
              }
            }
          })
        groups.append(
          group(
            "project-points n=\(n)", n,
            ByteModel(bytesPerItem: 32, "16 B SIMD3 point in + 16 B SIMD3 out")
          ) {
            let p = TransformData.points(seed: 5, count: n)
            let out = BenchmarkBuffer<SIMD3<Float>>(count: n) { _ in .zero }
            return { backend in
              {
                Transform3DBatch.project(p.readOnly, through: shared, into: out.buffer, backend: backend)
                blackHole(out.buffer[n - 1])
              }
            }
          })
      }
      // 128 products: inputs and output (24 KiB) stay in the 32 KiB L1 cache.
      groups.append(
        group(
          "product-4x4-cached n=128", 128,
          ByteModel(bytesPerItem: 192, "2 × 64 B in + 64 B out, L1-resident")
        ) {
          let a = TransformData.transforms(seed: 6, count: 128)
          let b = TransformData.transforms(seed: 7, count: 128)
          let out = BenchmarkBuffer<Transform3D>(count: 128) { _ in .identity }
          return { backend in
            {
              Transform3DBatch.concatenate(a.readOnly, b.readOnly, into: out.buffer, backend: backend)
              blackHole(out.buffer[127].m44)
            }
          }
        })
      return groups
    }
  }
}

/// Seeded benchmark inputs (untimed setup).
enum TransformData {
  static func transform(seed: UInt64, index: Int) -> Transform3D {
    let r = RandomStream(seed: seed, stream: UInt64(index))
    var m = Transform3D.identity
    withUnsafeMutableBytes(of: &m) { raw in
      let f = raw.bindMemory(to: Float.self)
      // Words 0..<16 of the stream, one Philox block per row (the same values
      // as 16 `uniform(k)` calls, which compute a whole block per value: 4×
      // the setup time, 15 s of a --dry-run at 4M).
      for row in 0..<4 {
        let u = r.uniforms(block: UInt64(row))
        for j in 0..<4 { f[4 * row + j] = 2 * u[j] - 1 }
      }
      f[3] *= 1e-3
      f[7] *= 1e-3
      f[11] *= 1e-3
      f[15] = 1
    }
    return m
  }

  static func transforms(seed: UInt64, count: Int) -> BenchmarkBuffer<Transform3D> {
    BenchmarkBuffer(count: count) { transform(seed: seed, index: $0) }
  }

  static func points(seed: UInt64, count: Int) -> BenchmarkBuffer<SIMD3<Float>> {
    let r = RandomStream(seed: seed)
    return BenchmarkBuffer(count: count) { i in
      let u = r.uniforms(block: UInt64(i))
      return SIMD3(u.x, u.y, u.z) * 200 - 100
    }
  }
}
