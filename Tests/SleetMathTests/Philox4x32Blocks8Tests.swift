import SleetMath
import Testing

@Suite("Philox4x32 eight-lane blocks")
struct Philox4x32Blocks8Tests {
  @Test func eightLaneBlocksMatchScalar() {
    let keys: [SIMD2<UInt32>] = [SIMD2(0, 0), SIMD2(0x1234_5678, 0x9abc_def0), SIMD2(repeating: 0xffff_ffff)]
    for key in keys {
      let c0 = SIMD8<UInt32>(0, 1, 0xffff_ffff, 1 << 31, 2, 3, 0x8000_0001, 77)
      let c1 = SIMD8<UInt32>(9, 0, 7, 0xffff_fffe, 0, 0, 1, 0xffff_ffff)
      let c2 = SIMD8<UInt32>(42, 0x8000_0001, 0, 0xffff_ffff, 5, 6, 7, 8)
      let c3 = SIMD8<UInt32>(1, 0, 0xdead_beef, 3, 0, 0, 0xffff_ffff, 1 << 31)
      let (w0, w1, w2, w3) = Philox4x32.blocks8(c0, c1, c2, c3, key: key)
      for l in 0..<8 {
        let s = Philox4x32.block(counter: SIMD4(c0[l], c1[l], c2[l], c3[l]), key: key)
        #expect(s == SIMD4(w0[l], w1[l], w2[l], w3[l]))
      }
    }
  }

  /// The even/odd split form (AVX2 builds' ``Philox4x32/blocks8(_:_:_:_:key:)``)
  /// against the scalar block, in every build, over seeded counters.
  @Test func splitBlocksMatchScalar() {
    let rng = RandomStream(seed: 0x5EED, stream: 9)
    var index: UInt64 = 0
    func word() -> UInt32 {
      defer { index += 1 }
      return rng.word(index)
    }
    for _ in 0..<200 {
      let key = SIMD2(word(), word())
      var c = [SIMD8<UInt32>](repeating: .zero, count: 4)
      for w in 0..<4 { for l in 0..<8 { c[w][l] = word() } }
      let (w0, w1, w2, w3) = Philox4x32.blocks8Split(c[0], c[1], c[2], c[3], key: key)
      for l in 0..<8 {
        let s = Philox4x32.block(counter: SIMD4(c[0][l], c[1][l], c[2][l], c[3][l]), key: key)
        #expect(s == SIMD4(w0[l], w1[l], w2[l], w3[l]))
      }
    }
  }

  @Test func eightLaneMulHiLoIsTheFullProduct() {
    let x = SIMD8<UInt32>(0, 1, 0xffff_ffff, 0x8000_0001, 0xfffe_0001, 12345, 0x7fff_ffff, 2)
    for m: UInt32 in [0xD251_1F53, 0xCD9E_8D57, 0xffff_ffff] {
      let (hi, lo) = Philox4x32.mulHiLo(m, x)
      for l in 0..<8 {
        let p = UInt64(m) * UInt64(x[l])
        #expect(hi[l] == UInt32(p >> 32) && lo[l] == UInt32(truncatingIfNeeded: p))
      }
    }
  }
}
