/// A reproducible stream of random numbers: value = f(seed, stream, index), with
/// no mutable state.
///
/// Word `i` of the stream is word `i % 4` of the Philox4x32-10 block
///
/// ```
/// key     = (seed.low32, seed.high32)
/// counter = ((i/4).low32, (i/4).high32, stream.low32, stream.high32)
/// ```
///
/// so streams with different `stream` numbers never share a block, and any
/// value can be computed without computing the ones before it. SleetKit keys its
/// streams by meaning (for particles: emitter seed, cell path, birth index and
/// attribute), never by thread or storage slot.
@frozen
public struct RandomStream: Hashable, Sendable {
  /// The Philox key: streams with different seeds are independent.
  public var seed: UInt64
  /// The stream number, the high half of every block counter: one seed's
  /// streams never share a block.
  public var stream: UInt64

  /// The stream `stream` of generator `seed`. Creating one costs nothing: no
  /// state is computed until a value is asked for.
  @inlinable
  public init(seed: UInt64, stream: UInt64 = 0) {
    self.seed = seed
    self.stream = stream
  }

  @inlinable
  internal var _key: SIMD2<UInt32> {
    SIMD2(UInt32(truncatingIfNeeded: seed), UInt32(truncatingIfNeeded: seed >> 32))
  }

  /// Block `blockIndex` of the stream: words `4·blockIndex ..< 4·blockIndex + 4`.
  @inlinable
  public func block(_ blockIndex: UInt64) -> SIMD4<UInt32> {
    Philox4x32.block(
      counter: SIMD4(
        UInt32(truncatingIfNeeded: blockIndex), UInt32(truncatingIfNeeded: blockIndex >> 32),
        UInt32(truncatingIfNeeded: stream), UInt32(truncatingIfNeeded: stream >> 32)),
      key: _key)
  }

  /// Word `index` of the stream.
  @inlinable
  public func word(_ index: UInt64) -> UInt32 {
    block(index >> 2)[Int(index & 3)]
  }

  /// A uniform `Float` in [0, 1) with full 24-bit resolution: `(word >> 8) · 2⁻²⁴`.
  ///
  /// **Postconditions:** the result is exactly a multiple of 2⁻²⁴ in
  /// [0, 1 − 2⁻²⁴]; every such value has probability 2⁻²⁴.
  @inlinable
  public func uniform(_ index: UInt64) -> Float {
    RandomStream.unitFloat(word(index))
  }

  /// Four uniforms from one block: words `4·blockIndex ..< 4·blockIndex + 4`.
  @inlinable
  public func uniforms(block blockIndex: UInt64) -> SIMD4<Float> {
    RandomStream.unitFloat(block(blockIndex))
  }

  /// Maps a 32-bit word to [0, 1): the top 24 bits, exactly representable.
  @inlinable
  public static func unitFloat(_ word: UInt32) -> Float {
    Float(word >> 8) * 0x1p-24
  }

  /// Lane-wise ``unitFloat(_:)``. Always inlined: three instructions, while an
  /// out-of-line call from a caller's vector kernel spills its live vector
  /// registers (all are caller-saved) and, in AVX2 builds, passes `SIMD8`
  /// as two halves and adds a `vzeroupper` (a batch sampler making 16 calls
  /// per batch of eight spent 14 % of its haswell profile there).
  @inlinable @inline(__always)
  public static func unitFloat(_ words: SIMD4<UInt32>) -> SIMD4<Float> {
    SIMD4<Float>(words &>> 8) * 0x1p-24
  }

  /// Lane-wise ``unitFloat(_:)`` for eight words (always inlined, as above).
  @inlinable @inline(__always)
  public static func unitFloat(_ words: SIMD8<UInt32>) -> SIMD8<Float> {
    SIMD8<Float>(words &>> 8) * 0x1p-24
  }

  /// The SIMD batch form: fills `out` with uniforms `start ..< start + out.count`.
  /// Equal, value for value, to calling ``uniform(_:)`` for each index.
  ///
  /// Eight Philox blocks (32 values) are computed per step, lane-parallel; a
  /// start or end that is not a multiple of 4 is handled by scalar head and tail
  /// loops.
  /// - Complexity: O(`out.count`), no allocations.
  public func fill(_ out: UnsafeMutableBufferPointer<Float>, startingAt start: UInt64 = 0) {
    var index = start
    var o = 0
    let n = out.count
    // Head: up to the next block boundary.
    while o < n && index & 3 != 0 {
      out[o] = uniform(index)
      o += 1
      index += 1
    }
    let key = _key
    let s0 = SIMD8<UInt32>(repeating: UInt32(truncatingIfNeeded: stream))
    let s1 = SIMD8<UInt32>(repeating: UInt32(truncatingIfNeeded: stream >> 32))
    let lanes = SIMD8<UInt64>(0, 1, 2, 3, 4, 5, 6, 7)
    // Body: 32 values per step, written word-interleaved as the scalar order demands.
    while n - o >= 32 {
      let b = SIMD8<UInt64>(repeating: index >> 2) &+ lanes
      let (w0, w1, w2, w3) = Philox4x32.blocks(
        SIMD8<UInt32>(truncatingIfNeeded: b), SIMD8<UInt32>(truncatingIfNeeded: b &>> 32),
        s0, s1, key: key)
      let f0 = RandomStream.unitFloat(w0)
      let f1 = RandomStream.unitFloat(w1)
      let f2 = RandomStream.unitFloat(w2)
      let f3 = RandomStream.unitFloat(w3)
      // Block l's four words are contiguous: one 16-byte store each, unaligned,
      // within `out` (o + 32 ≤ n), no per-element bounds checks.
      let dst = UnsafeMutableRawPointer(out.baseAddress! + o)
      for l in 0..<8 {
        dst.storeBytes(of: SIMD4(f0[l], f1[l], f2[l], f3[l]), toByteOffset: 16 * l, as: SIMD4<Float>.self)
      }
      o += 32
      index += 32
    }
    // Tail.
    while o < n {
      out[o] = uniform(index)
      o += 1
      index += 1
    }
  }
}
