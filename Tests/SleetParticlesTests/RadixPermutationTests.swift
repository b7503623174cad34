import Testing

@testable import SleetParticles

/// ``RadixPermutation`` against its naive twin, the standard library's
/// stable sort of indices by key, in each strategy (bytewise passes, splits
/// by the most significant byte, and the automatic choice): both pass
/// parities, ranges at and past the insertion-sort limit, constant bytes skipped at every level, many ties, ranges already
/// in order, keys shaped like the render order's ids, and two keys composed
/// (minor, then major).
@Suite("Radix permutation = stable sort")
struct RadixPermutationTests {
  /// The stable order of `keys` by `key` (ties keep index order).
  static func stableOrder(_ n: Int, _ key: (Int) -> UInt64) -> [Int32] {
    (0..<n).sorted { (key($0), $0) < (key($1), $1) }.map { Int32($0) }
  }

  /// (count, mask): the mask keeps the bytes that vary, so the splits skip
  /// the others; 24 and 25 straddle the insertion-sort limit.
  static let cases: [(Int, UInt64)] = [
    (0, ~0), (1, ~0), (2, ~0), (7, 0), (24, ~0), (25, ~0), (25, 0x0101), (100, 0xFF), (100, 0xFF00_00FF),
    (688, 0x00FF_0000_0000_00FF), (1_000, ~0), (4_097, 0x0000_0F00), (20_000, 0x0300_0000_0000_FFFF),
  ]

  static let strategies: [RadixPermutation.Strategy] = [
    .automatic, .mostSignificantFirst, .leastSignificantFirst,
  ]

  @Test(arguments: 0..<cases.count, strategies)
  func sortEqualsTheStableSort(index: Int, strategy: RadixPermutation.Strategy) {
    let (n, mask) = Self.cases[index]
    var generator = SplitMix64(state: UInt64(index))  // the same keys every run
    // Few distinct values under narrow masks: many ties, so stability shows.
    let keys = (0..<n).map { _ in generator.next() & mask }
    var permutation = RadixPermutation()
    permutation.reset(count: n)
    permutation.sort(bytes: 8, strategy: strategy) { keys[$0] }
    #expect(permutation.order == Self.stableOrder(n) { keys[$0] })
    // Only the low bytes count.
    permutation.reset(count: n)
    permutation.sort(bytes: 3, strategy: strategy) { keys[$0] }
    #expect(permutation.order == Self.stableOrder(n) { keys[$0] & 0xFF_FFFF })
  }

  /// Keys like a multi-cell frame's ids, in evaluation order: top-level
  /// births (cell byte, then ascending birth indices, so already in order
  /// within their cell) interleaved with sub-cell particles (cell byte,
  /// then a 56-bit hash), and a run of equal keys; with and without
  /// ascending runs long enough to stop a split early.
  @Test(arguments: [688, 5_000], strategies)
  func idShapedKeysSortAsTheStableSort(n: Int, strategy: RadixPermutation.Strategy) {
    var generator = SplitMix64(state: UInt64(n))
    var nextBirth: [UInt64] = [0, 0, 0]
    let keys: [UInt64] = (0..<n).map { i in
      let r = generator.next()
      switch r % 5 {
      case 0, 1:  // top-level cells 0 and 2
        let cell = Int(r % 5) * 2
        nextBirth[cell / 2] += 1 + (r >> 60)
        return UInt64(cell) << 56 | nextBirth[cell / 2]
      case 2: return 3 << 56 | 12_345  // ties
      default: return UInt64(1 + r % 2 * 3) << 56 | (r >> 8)  // sub-cells 1 and 4
      }
    }
    var permutation = RadixPermutation()
    permutation.reset(count: n)
    permutation.sort(bytes: 8, strategy: strategy) { keys[$0] }
    #expect(permutation.order == Self.stableOrder(n) { keys[$0] })
    // Already in order: the identity.
    let sorted = keys.sorted()
    permutation.reset(count: n)
    permutation.sort(bytes: 8, strategy: strategy) { sorted[$0] }
    #expect(permutation.order == (0..<n).map { Int32($0) })
  }

  /// Sorting by a minor key, then stably by a major key, orders by (major,
  /// minor): how `backToFront` sorts by id, then depth.
  @Test(arguments: strategies)
  func twoKeysCompose(strategy: RadixPermutation.Strategy) {
    var generator = SplitMix64(state: 42)
    let n = 3_000
    let minor = (0..<n).map { _ in generator.next() }
    let major = (0..<n).map { _ in generator.next() & 0x0301 }
    var permutation = RadixPermutation()
    permutation.reset(count: n)
    permutation.sort(bytes: 8, strategy: strategy) { minor[$0] }
    permutation.sort(bytes: 4, strategy: strategy) { major[$0] }
    let expected = (0..<n).sorted { (major[$0], minor[$0]) < (major[$1], minor[$1]) }.map { Int32($0) }
    #expect(permutation.order == expected)
  }

  /// Sorting from a given starting order (`reset(to:)`, as `backToFront`
  /// does after the incremental id order) orders that sequence stably: ties
  /// keep their order in it.
  @Test(arguments: strategies)
  func sortFromAGivenOrderIsStableInThatOrder(strategy: RadixPermutation.Strategy) {
    var generator = SplitMix64(state: 99)
    let n = 3_000
    let keys = (0..<n).map { _ in generator.next() & 0x0F0F }  // many ties
    let start = (0..<Int32(n)).shuffled(using: &generator)
    var permutation = RadixPermutation()
    permutation.reset(to: start)
    permutation.sort(bytes: 2, strategy: strategy) { keys[$0] }
    let expected = start.indices.sorted { (keys[Int(start[$0])], $0) < (keys[Int(start[$1])], $1) }.map { start[$0] }
    #expect(permutation.order == expected)
  }
}
