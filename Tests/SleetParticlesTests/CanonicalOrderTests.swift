import Testing

@testable import SleetParticles

/// `seek(to:)` and long steps of effects with several cells put the live
/// records in the canonical order (birth time, then id) by sorting keys, not
/// the records themselves. These compare that order with a stable sort of the
/// records (what the code did before), ties included.
@Suite("Canonical order of birth records")
struct CanonicalOrderTests {
  /// Records with few distinct birth times and ids, so that equal times and
  /// equal (time, id) pairs both occur; `tag` (stored in `sprite`) tells
  /// records of one (time, id) apart.
  private func records(count: Int, seed: UInt64) -> [BirthRecord] {
    var state = seed
    return (0..<count).map { tag in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      var r = BirthRecord.sample(birthTime: Double((state >> 33) % 40) / 8, lifetime: 1)
      r.id = (state >> 20) % 5
      r.sprite = UInt32(tag)
      return r
    }
  }

  /// The reference: a stable sort of the records (ties by input position).
  /// The tests compare tags, unique per record, so a failure prints numbers.
  private func stablySorted(_ records: [BirthRecord]) -> [BirthRecord] {
    records.enumerated()
      .sorted { a, b in
        ParticleSystem.precedes(a.element, b.element)
          || (!ParticleSystem.precedes(b.element, a.element) && a.offset < b.offset)
      }
      .map(\.element)
  }

  @Test(arguments: [0, 1, 2, 7, 300, 5000])
  func keyOrderIsTheStableSortOfTheRecords(count: Int) {
    let input = records(count: count, seed: UInt64(count) + 17)
    let order = ParticleSystem.canonicalOrder(of: input)
    #expect(order.count == input.count)
    #expect(order.map { input[$0].sprite } == stablySorted(input).map(\.sprite))
  }

  @Test func recordsAlreadyInOrderKeepTheirIndices() {
    let sorted = stablySorted(records(count: 1000, seed: 3))
    #expect(ParticleSystem.canonicalOrder(of: sorted) == Array(sorted.indices))
  }

  /// insertionSort's branch for long lists (over 256 records) gathers the
  /// records in key order; the short branch moves them one by one.
  @Test(arguments: [40, 257, 3000])
  func insertionSortGivesTheStableSort(count: Int) {
    let input = records(count: count, seed: 99)
    var sorted = input
    ParticleSystem.insertionSort(&sorted)
    #expect(sorted.map(\.sprite) == stablySorted(input).map(\.sprite))
  }
}
