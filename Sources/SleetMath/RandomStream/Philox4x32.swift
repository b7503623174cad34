/// Philox4x32-10, the counter-based generator of Salmon, Moraes, Dror and Shaw,
/// "Parallel Random Numbers: As Easy as 1, 2, 3" (SC'11), as in Random123.
///
/// `output = bijection_key(counter)`: 10 rounds of
///
/// ```
/// (hi0, lo0) = mulhilo(0xD2511F53, c0)
/// (hi1, lo1) = mulhilo(0xCD9E8D57, c2)
/// c = (hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0)
/// k += (0x9E3779B9, 0xBB67AE85)          (between rounds)
/// ```
///
/// There is no state: the same (key, counter) always gives the same four words,
/// on any thread, in any order. That is what makes SleetKit's effects
/// reproducible for any thread count. Passes BigCrush (per the paper).
///
/// **Postconditions:** matches Random123's `kat_vectors` (tested).
public enum Philox4x32 {
  @usableFromInline static let multiplier0: UInt32 = 0xD251_1F53
  @usableFromInline static let multiplier1: UInt32 = 0xCD9E_8D57
  @usableFromInline static let weyl0: UInt32 = 0x9E37_79B9
  @usableFromInline static let weyl1: UInt32 = 0xBB67_AE85

  /// One 128-bit block: the ten-round bijection of `counter` under `key`.
  @inlinable
  public static func block(counter: SIMD4<UInt32>, key: SIMD2<UInt32>) -> SIMD4<UInt32> {
    var c = counter
    var k = key
    for round in 0..<10 {
      if round > 0 {
        k.x = k.x &+ weyl0
        k.y = k.y &+ weyl1
      }
      let p0 = UInt64(multiplier0) &* UInt64(c.x)
      let p1 = UInt64(multiplier1) &* UInt64(c.z)
      c = SIMD4(
        UInt32(truncatingIfNeeded: p1 >> 32) ^ c.y ^ k.x,
        UInt32(truncatingIfNeeded: p1),
        UInt32(truncatingIfNeeded: p0 >> 32) ^ c.w ^ k.y,
        UInt32(truncatingIfNeeded: p0))
    }
    return c
  }

  /// Eight blocks at once, lane-parallel (structure of arrays: `c0[l]` is word 0
  /// of lane l's counter). Lane l equals `block(counter: (c0[l], c1[l], c2[l], c3[l]), key:)`
  /// bit for bit.
  ///
  /// The 32×32→64 products use `SIMD8<UInt64>`, which LLVM lowers to `pmuludq`.
  @inlinable
  public static func blocks(
    _ c0: SIMD8<UInt32>, _ c1: SIMD8<UInt32>, _ c2: SIMD8<UInt32>, _ c3: SIMD8<UInt32>,
    key: SIMD2<UInt32>
  ) -> (SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>) {
    var (x0, x1, x2, x3) = (c0, c1, c2, c3)
    var k0 = key.x
    var k1 = key.y
    let m0 = SIMD8<UInt64>(repeating: UInt64(multiplier0))
    let m1 = SIMD8<UInt64>(repeating: UInt64(multiplier1))
    for round in 0..<10 {
      if round > 0 {
        k0 = k0 &+ weyl0
        k1 = k1 &+ weyl1
      }
      let p0 = m0 &* SIMD8<UInt64>(truncatingIfNeeded: x0)
      let p1 = m1 &* SIMD8<UInt64>(truncatingIfNeeded: x2)
      let hi0 = SIMD8<UInt32>(truncatingIfNeeded: p0 &>> 32)
      let hi1 = SIMD8<UInt32>(truncatingIfNeeded: p1 &>> 32)
      let n0 = hi1 ^ x1 ^ SIMD8(repeating: k0)
      let n2 = hi0 ^ x3 ^ SIMD8(repeating: k1)
      x1 = SIMD8<UInt32>(truncatingIfNeeded: p1)
      x3 = SIMD8<UInt32>(truncatingIfNeeded: p0)
      x0 = n0
      x2 = n2
    }
    return (x0, x1, x2, x3)
  }

  /// Four blocks at once, lane-parallel in one SSE register per word: lane l
  /// equals `block(counter: (c0[l], c1[l], c2[l], c3[l]), key:)` bit for bit.
  ///
  /// Concrete code on purpose, for callers in other modules (particle
  /// births): there the generic widening conversion of ``blocks(_:_:_:_:key:)``
  /// (`SIMD8<UInt64>(truncatingIfNeeded:)`) is not specialised across the
  /// module boundary; `mulHiLo(_:_:)` needs no conversion and lowers to two
  /// `pshufd`, two `pmuludq` and two `shufps`. (Inside SleetMath, `blocks` is
  /// specialised and is the faster of the two for `RandomStream.fill`, so
  /// `fill` keeps it.)
  @inlinable @inline(__always)
  public static func blocks4(
    _ c0: SIMD4<UInt32>, _ c1: SIMD4<UInt32>, _ c2: SIMD4<UInt32>, _ c3: SIMD4<UInt32>,
    key: SIMD2<UInt32>
  ) -> (SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>) {
    var (x0, x1, x2, x3) = (c0, c1, c2, c3)
    // Round r uses key + r·(weyl0, weyl1). Written out ten times: as a loop,
    // LLVM keeps it rolled and carries the key update as a per-round select.
    @inline(__always) func round(_ r: UInt32) {
      let k0 = key.x &+ r &* weyl0
      let k1 = key.y &+ r &* weyl1
      let (hi0, lo0) = mulHiLo(multiplier0, x0)
      let (hi1, lo1) = mulHiLo(multiplier1, x2)
      x0 = hi1 ^ x1 ^ SIMD4(repeating: k0)
      x2 = hi0 ^ x3 ^ SIMD4(repeating: k1)
      x1 = lo1
      x3 = lo0
    }
    round(0); round(1); round(2); round(3); round(4)
    round(5); round(6); round(7); round(8); round(9)
    return (x0, x1, x2, x3)
  }

  /// Eight blocks at once, concrete code like ``blocks4(_:_:_:_:key:)``: lane
  /// l equals `block(counter: (c0[l], c1[l], c2[l], c3[l]), key:)` bit for bit
  /// (tested). One *item* per lane (eight consecutive births' block b, say,
  /// as the particle births' C kernel `sleet_births.h` computes the same
  /// words); two SSE registers per word on the portable build, one AVX2
  /// register on haswell. Package access: the Swift twin of that kernel's
  /// generator, kept with its tests, not API.
  ///
  /// **Invariant:** every lane is independent; no lane reads another, so a
  /// caller may fill unused lanes with anything and ignore their words.
  @inlinable @inline(__always)
  package static func blocks8(
    _ c0: SIMD8<UInt32>, _ c1: SIMD8<UInt32>, _ c2: SIMD8<UInt32>, _ c3: SIMD8<UInt32>,
    key: SIMD2<UInt32>
  ) -> (SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>) {
    if SIMDBuildTarget.hasAVX2AndFMA { return blocks8Split(c0, c1, c2, c3, key: key) }
    var (x0, x1, x2, x3) = (c0, c1, c2, c3)
    @inline(__always) func round(_ r: UInt32) {
      let k0 = key.x &+ r &* weyl0
      let k1 = key.y &+ r &* weyl1
      let (hi0, lo0) = mulHiLo(multiplier0, x0)
      let (hi1, lo1) = mulHiLo(multiplier1, x2)
      x0 = hi1 ^ x1 ^ SIMD8(repeating: k0)
      x2 = hi0 ^ x3 ^ SIMD8(repeating: k1)
      x1 = lo1
      x3 = lo0
    }
    round(0); round(1); round(2); round(3); round(4)
    round(5); round(6); round(7); round(8); round(9)
    return (x0, x1, x2, x3)
  }

  /// `blocks8(_:_:_:_:key:)` for AVX2 builds, without merging products
  /// back into 32-bit lanes every round: the even lanes (0, 2, 4, 6) and the
  /// odd lanes (1, 3, 5, 7) each run as one `SIMD4<UInt64>` (one `ymm`
  /// register) per word, the lane's word in the low 32 bits of its slot.
  ///
  /// **Invariant:** only the low 32 bits of a slot are the word; the high
  /// 32 bits are don't-care (the previous product's high word, or the
  /// neighbouring lane at the start). They never reach a low word: the
  /// products read their inputs through `& 0xFFFF_FFFF` (which LLVM folds
  /// into `vpmuludq`, a 32×32→64 multiply of the low halves), the high word
  /// of a product is `p >> 32` of that exact product, and xor is bitwise.
  /// The results are merged once, at the end (low words of the even slots,
  /// the odd slots' low words shifted up). Per round and eight lanes: four
  /// `vpmuludq`, four shifts and eight xors. Lane l equals
  /// `block(counter: (c0[l], c1[l], c2[l], c3[l]), key:)` bit for bit (tested
  /// directly in every build, and through `blocks8(_:_:_:_:key:)` in the
  /// haswell build). Correct but slower on SSE2, where the shuffle form of
  /// `blocks8(_:_:_:_:key:)` stays.
  @inlinable @inline(__always)
  package static func blocks8Split(
    _ c0: SIMD8<UInt32>, _ c1: SIMD8<UInt32>, _ c2: SIMD8<UInt32>, _ c3: SIMD8<UInt32>,
    key: SIMD2<UInt32>
  ) -> (SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>) {
    typealias W = SIMD4<UInt64>
    let low = W(repeating: 0xFFFF_FFFF)
    let m0 = W(repeating: UInt64(multiplier0))
    let m1 = W(repeating: UInt64(multiplier1))
    var e0 = unsafeBitCast(c0, to: W.self)
    var e1 = unsafeBitCast(c1, to: W.self)
    var e2 = unsafeBitCast(c2, to: W.self)
    var e3 = unsafeBitCast(c3, to: W.self)
    var o0 = e0 &>> 32
    var o1 = e1 &>> 32
    var o2 = e2 &>> 32
    var o3 = e3 &>> 32
    @inline(__always) func round(_ r: UInt32) {
      let k0 = W(repeating: UInt64(key.x &+ r &* weyl0))
      let k1 = W(repeating: UInt64(key.y &+ r &* weyl1))
      let pe0 = (e0 & low) &* m0
      let pe1 = (e2 & low) &* m1
      let po0 = (o0 & low) &* m0
      let po1 = (o2 & low) &* m1
      e0 = (pe1 &>> 32) ^ e1 ^ k0
      e2 = (pe0 &>> 32) ^ e3 ^ k1
      e1 = pe1
      e3 = pe0
      o0 = (po1 &>> 32) ^ o1 ^ k0
      o2 = (po0 &>> 32) ^ o3 ^ k1
      o1 = po1
      o3 = po0
    }
    round(0); round(1); round(2); round(3); round(4)
    round(5); round(6); round(7); round(8); round(9)
    @inline(__always) func merge(_ e: W, _ o: W) -> SIMD8<UInt32> {
      unsafeBitCast((e & low) | (o &<< 32), to: SIMD8<UInt32>.self)
    }
    return (merge(e0, o0), merge(e1, o1), merge(e2, o2), merge(e3, o3))
  }

  /// `mulHiLo(_:_:)` (four lanes) for eight lanes. With AVX2, without shuffles:
  /// viewed as four 64-bit lanes, the even words are the low halves (masked,
  /// one `pmuludq`) and the odd words the high halves (shifted down, one
  /// `pmuludq`); the products' halves are merged back in place with shifts,
  /// masks and ors, so lane l of the results belongs to lane l of `x`.
  @inlinable @inline(__always)
  package static func mulHiLo(_ m: UInt32, _ x: SIMD8<UInt32>) -> (hi: SIMD8<UInt32>, lo: SIMD8<UInt32>) {
    if !SIMDBuildTarget.hasAVX2AndFMA {
      // SSE2 (no blend): the shuffle form per half is 6 instructions per
      // four lanes against 9–10 for the masks below. Same bits either way.
      let low = mulHiLo(m, x.lowHalf)
      let high = mulHiLo(m, x.highHalf)
      return (SIMD8(lowHalf: low.hi, highHalf: high.hi), SIMD8(lowHalf: low.lo, highHalf: high.lo))
    }
    typealias W = SIMD4<UInt64>
    let low = W(repeating: 0xFFFF_FFFF)
    let wide = unsafeBitCast(x, to: W.self)
    let multiplier = W(repeating: UInt64(m))
    let even = (wide & low) &* multiplier
    let odd = (wide &>> 32) &* multiplier
    let hi = (even &>> 32) | (odd & ~low)
    let lo = (even & low) | (odd &<< 32)
    return (unsafeBitCast(hi, to: SIMD8<UInt32>.self), unsafeBitCast(lo, to: SIMD8<UInt32>.self))
  }

  /// The high and low words of the 64-bit products `m · x[l]`: the lanes are
  /// zero-extended by interleaving with zeros and reinterpreted as
  /// `SIMD4<UInt64>` (no generic conversion), multiplied, and unzipped.
  @inlinable @inline(__always)
  package static func mulHiLo(_ m: UInt32, _ x: SIMD4<UInt32>) -> (hi: SIMD4<UInt32>, lo: SIMD4<UInt32>) {
    let widened = SIMD8<UInt32>(x[0], 0, x[1], 0, x[2], 0, x[3], 0)
    let product = unsafeBitCast(widened, to: SIMD4<UInt64>.self) &* SIMD4<UInt64>(repeating: UInt64(m))
    let words = unsafeBitCast(product, to: SIMD8<UInt32>.self)
    return (words.oddHalf, words.evenHalf)
  }
}
