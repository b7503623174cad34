import Testing

@testable import SleetParticles

/// ``RadixPermutation`` against its naive twin, the standard library's
/// stable sort of indices by key: every pass count's parity (the passes
/// alternate between the arrays and their scratch twins), constant bytes
/// skipped, and two keys composed (minor, then major).
@Suite("Radix permutation = stable sort")
struct RadixPermutationTests {
  /// The stable order of `keys` by `key` (ties keep index order).
  static func stableOrder(_ n: Int, _ key: (Int) -> UInt64) -> [Int32] {
    (0..<n).sorted { (key($0), $0) < (key($1), $1) }.map { Int32($0) }
  }

  /// (count, mask): the mask keeps the bytes that vary, so the sort runs
  /// zero, one (odd), two (even) or eight passes.
  static let cases: [(Int, UInt64)] = [
    (0, ~0), (1, ~0), (2, ~0), (7, 0), (100, 0xFF), (100, 0xFF00_00FF), (688, 0x00FF_0000_0000_00FF),
    (1_000, ~0), (4_097, 0x0000_0F00),
  ]

  @Test(arguments: 0..<cases.count)
  func sortEqualsTheStableSort(index: Int) {
    let (n, mask) = Self.cases[index]
    var generator = SplitMix64(state: UInt64(index))  // the same keys every run
    // Few distinct values under narrow masks: many ties, so stability shows.
    let keys = (0..<n).map { _ in generator.next() & mask }
    var permutation = RadixPermutation()
    permutation.reset(count: n)
    permutation.sort(bytes: 8) { keys[$0] }
    #expect(permutation.order == Self.stableOrder(n) { keys[$0] })
  }

  /// Sorting by a minor key, then stably by a major key, orders by (major,
  /// minor): how `backToFront` sorts by id, then depth.
  @Test func twoKeysCompose() {
    var generator = SplitMix64(state: 42)
    let n = 3_000
    let minor = (0..<n).map { _ in generator.next() }
    let major = (0..<n).map { _ in generator.next() & 0x0301 }
    var permutation = RadixPermutation()
    permutation.reset(count: n)
    permutation.sort(bytes: 8) { minor[$0] }
    permutation.sort(bytes: 4) { major[$0] }
    let expected = (0..<n).sorted { (major[$0], minor[$0]) < (major[$1], minor[$1]) }.map { Int32($0) }
    #expect(permutation.order == expected)
  }
}
