/// A stable least-significant-digit radix sort of a permutation by 64-bit
/// keys, with all scratch owned and reused: sorting allocates nothing once the
/// buffers have grown.
///
/// Each pass histograms one byte of the keys and scatters (key, index) pairs
/// by it; a byte that is equal in every key is skipped (a single-cell effect's
/// id high bytes, small birth indices), so typical sorts take 2–4 passes.
/// Stability makes multi-key sorts compose: sort by the minor key, then
/// re-key and sort by the major key.
/// - Complexity: O(passes × n) time, O(n) scratch, no allocations in steady state.
struct RadixPermutation {
  /// The sorted order: `order[j]` is the index of the j-th smallest key.
  private(set) var order: [Int32] = []
  private var keys: [UInt64] = []
  private var scratchKeys: [UInt64] = []
  private var scratchOrder: [Int32] = []
  private var counts = [Int](repeating: 0, count: 256)

  /// Starts over with the identity permutation of `n` elements.
  /// - Precondition: n ≤ `Int32.max` (a system's budget bounds its frames:
  ///   ``ParticleSystemConfiguration/maximumBudget``).
  mutating func reset(count n: Int) {
    precondition(n <= Int(Int32.max), "RadixPermutation indexes at most Int32.max elements")
    resize(&order, n)
    resize(&keys, n)
    resize(&scratchKeys, n)
    resize(&scratchOrder, n)
    for i in 0..<n { order[i] = Int32(i) }
  }

  /// Stably sorts the current order by `key(index)` over its low `bytes` bytes.
  mutating func sort(bytes: Int, by key: (Int) -> UInt64) {
    let n = order.count
    guard n > 1 else { return }
    for j in 0..<n { keys[j] = key(Int(order[j])) }
    for byte in 0..<bytes {
      let shift = UInt64(byte * 8)
      for b in 0..<256 { counts[b] = 0 }
      for j in 0..<n { counts[Int((keys[j] >> shift) & 0xFF)] += 1 }
      if counts[Int((keys[0] >> shift) & 0xFF)] == n { continue }  // constant byte
      var sum = 0
      for b in 0..<256 {
        let c = counts[b]
        counts[b] = sum
        sum += c
      }
      for j in 0..<n {
        let b = Int((keys[j] >> shift) & 0xFF)
        let to = counts[b]
        counts[b] = to + 1
        scratchKeys[to] = keys[j]
        scratchOrder[to] = order[j]
      }
      swap(&keys, &scratchKeys)
      swap(&order, &scratchOrder)
    }
  }

  private func resize<T: FixedWidthInteger>(_ a: inout [T], _ n: Int) {
    if a.count > n {
      a.removeLast(a.count - n)
    } else if a.count < n {
      a.append(contentsOf: repeatElement(0, count: n - a.count))
    }
  }

  /// A `UInt32` whose unsigned order is the numeric order of `x` (−0 < +0;
  /// NaNs after +∞ or before −∞ by sign).
  static func orderedBits(_ x: Float) -> UInt64 {
    let b = x.bitPattern
    return UInt64(b & 0x8000_0000 != 0 ? ~b : b | 0x8000_0000)
  }
}
