import Testing

@testable import SleetMath

@Suite("Philox4x32-10 and RandomStream")
struct RandomStreamTests {
  /// Random123's `kat_vectors` for philox4x32 with 10 rounds.
  @Test(arguments: [
    (
      SIMD4<UInt32>(0, 0, 0, 0), SIMD2<UInt32>(0, 0),
      SIMD4<UInt32>(0x6627_e8d5, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8)
    ),
    (
      SIMD4<UInt32>(repeating: 0xffff_ffff), SIMD2<UInt32>(repeating: 0xffff_ffff),
      SIMD4<UInt32>(0x408f_276d, 0x41c8_3b0e, 0xa20b_c7c6, 0x6d54_51fd)
    ),
    (
      SIMD4<UInt32>(0x243f_6a88, 0x85a3_08d3, 0x1319_8a2e, 0x0370_7344),
      SIMD2<UInt32>(0xa409_3822, 0x299f_31d0),
      SIMD4<UInt32>(0xd16c_fe09, 0x94fd_cceb, 0x5001_e420, 0x2412_6ea1)
    ),
  ])
  func knownAnswers(counter: SIMD4<UInt32>, key: SIMD2<UInt32>, expected: SIMD4<UInt32>) {
    #expect(Philox4x32.block(counter: counter, key: key) == expected)
  }

  @Test func laneParallelBlocksMatchScalar() {
    let key = SIMD2<UInt32>(0x1234_5678, 0x9abc_def0)
    let c0 = SIMD8<UInt32>(0, 1, 2, 3, 0xffff_ffff, 77, 1 << 31, 12345)
    let c1 = SIMD8<UInt32>(9, 8, 7, 6, 5, 4, 3, 2)
    let c2 = SIMD8<UInt32>(repeating: 42)
    let c3 = SIMD8<UInt32>(1, 0, 1, 0, 1, 0, 1, 0)
    let (w0, w1, w2, w3) = Philox4x32.blocks(c0, c1, c2, c3, key: key)
    for l in 0..<8 {
      let s = Philox4x32.block(counter: SIMD4(c0[l], c1[l], c2[l], c3[l]), key: key)
      #expect(s == SIMD4(w0[l], w1[l], w2[l], w3[l]))
    }
  }

  @Test(arguments: [0, 1, 3, 4, 5, 31, 32, 33, 100, 1027])
  func fillMatchesScalar(count: Int) {
    let stream = RandomStream(seed: 0xDEAD_BEEF_0000_0001, stream: 7)
    for start: UInt64 in [0, 1, 2, 3, 4, 1_000_003] {
      var out = [Float](repeating: -1, count: count)
      out.withUnsafeMutableBufferPointer { stream.fill($0, startingAt: start) }
      for i in 0..<count {
        #expect(out[i] == stream.uniform(start + UInt64(i)))
      }
    }
  }

  @Test func uniformsHaveTwentyFourBitResolutionInUnitInterval() {
    #expect(RandomStream.unitFloat(0) == 0)
    #expect(RandomStream.unitFloat(.max) == 1 - 0x1p-24)
    #expect(RandomStream.unitFloat(0x100) == 0x1p-24)
    let s = RandomStream(seed: 1)
    for i in 0..<10_000 as Range<UInt64> {
      let u = s.uniform(i)
      #expect(u >= 0 && u < 1 && (u * 0x1p24).rounded() == u * 0x1p24)
    }
  }

  @Test func streamsAndSeedsDiffer() {
    let a = RandomStream(seed: 5, stream: 0)
    let b = RandomStream(seed: 5, stream: 1)
    let c = RandomStream(seed: 6, stream: 0)
    #expect(a.block(0) != b.block(0))
    #expect(a.block(0) != c.block(0))
    #expect(a.block(0) == RandomStream(seed: 5, stream: 0).block(0))
  }

  /// Mean 1/2, variance 1/12 and a 64-bin chi-square on a fixed seed.
  @Test(arguments: [UInt64(0), 42, 0xFFFF_FFFF_FFFF_FFFF])
  func statisticalSanity(seed: UInt64) {
    let n = 1 << 18
    var values = [Float](repeating: 0, count: n)
    values.withUnsafeMutableBufferPointer { RandomStream(seed: seed, stream: 3).fill($0) }
    let mean = values.reduce(0.0) { $0 + Double($1) } / Double(n)
    let variance = values.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / Double(n)
    // Standard error of the mean is sqrt(1/12/n) ≈ 5.6e-4; allow 5σ.
    #expect(abs(mean - 0.5) < 3e-3)
    #expect(abs(variance - 1.0 / 12) < 2e-3)
    var bins = [Int](repeating: 0, count: 64)
    for v in values { bins[Int(v * 64)] += 1 }
    let expected = Double(n) / 64
    let chi2 = bins.reduce(0.0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
    // 63 degrees of freedom: P(χ² > 110) < 1e-4.
    #expect(chi2 < 110)
  }
}
