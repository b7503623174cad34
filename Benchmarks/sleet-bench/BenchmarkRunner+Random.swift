import SleetKit

/// `RandomStream`: the SIMD batch form `fill` against one `uniform(_:)` call per
/// value (the naive path). Byte model: the 4 B written per value.
extension BenchmarkRunner {
  static var random: BenchmarkSuite {
    BenchmarkSuite(name: "random") { scale in
      scale.sizes([1_024, 65_536, 1_048_576]).map { n in
        BenchmarkGroup(
          name: "uniform-fill n=\(n)", items: n,
          byteModel: ByteModel(bytesPerItem: 4, "4 B Float written per value"),
          baseline: "naive", reference: nil
        ) {
          let stream = RandomStream(seed: 0x5EED, stream: 3)
          let out = BenchmarkBuffer<Float>(count: n) { _ in 0 }
          return [
            BenchmarkCase("naive") {
              let o = out.buffer
              for i in 0..<n { o[i] = stream.uniform(UInt64(i)) }
              blackHole(o[n - 1])
            },
            BenchmarkCase("fill") {
              stream.fill(out.buffer)
              blackHole(out.buffer[n - 1])
            },
          ]
        }
      }
    }
  }
}
