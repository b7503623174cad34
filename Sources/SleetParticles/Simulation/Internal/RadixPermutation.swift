/// A stable radix sort of a permutation by 64-bit keys, with all scratch
/// owned and reused: sorting allocates nothing once the buffers have grown.
///
/// Two strategies, one result (the stable order; the tests run both):
/// - **Least significant byte first**: one scatter pass per byte that is not
///   the same in every key, after one read that fills every byte's
///   histogram.
/// - **Most significant byte first**: a range is split by its highest byte
///   that differs within it (one histogram, one scatter), then each bucket
///   by the next byte; a range already in order stops, and a range of at
///   most ``insertionLimit`` keys is finished by insertion sort.
///
/// Why two: the render order's keys are ids, whose top byte is the cell and
/// whose low 56 bits are a birth index (top-level cells, already in order
/// within the cell) or a hash (sub-cells). Splits order them in two or
/// three levels (by cell, by the hash's top bytes, then buckets of a few
/// keys) where the bytewise passes take all eight bytes, so id-shaped keys
/// sort faster by splits at every size. Four-byte depth keys (float bits,
/// whose top byte takes few values) need more levels: splits win up to
/// about ten thousand keys and lose at a million. Ids of top-level cells
/// only (the cell byte, then ascending birth indices) split once, by cell,
/// into buckets already in order. So
/// ``sort(bytes:strategy:by:)`` splits 8-byte keys (the render order's ids),
/// keys of at least five differing bytes, and any keys up to
/// ``splitsUpTo``; it runs passes for many narrow keys (depths).
///
/// Stability (every pass, split and insertion keeps equal keys in order)
/// makes multi-key sorts compose: sort by the minor key, then re-key and
/// sort by the major key.
/// - Complexity: O(n × bytes) time, O(n) scratch, no allocations in steady
///   state.
/// - Note: Within a range, the already-in-order test counts descents with
///   arithmetic (``borrow(_:_:)``): as a comparison, LLVM made it a branch
///   that mispredicts on about every other random key.
struct RadixPermutation {
  /// The sorted order: `order[j]` is the index of the j-th smallest key.
  private(set) var order: [Int32] = []
  private var keys: [UInt64] = []
  private var scratchKeys: [UInt64] = []
  private var scratchOrder: [Int32] = []
  /// One 256-entry histogram per key byte.
  private var counts = [Int](repeating: 0, count: 8 * 256)

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

  /// Starts over from `order`, which the next sort reorders stably (its
  /// ties keep their order in `order`).
  /// - Precondition: `order` is a permutation of 0..<order.count.
  mutating func reset(to order: [Int32]) {
    let n = order.count
    precondition(n <= Int(Int32.max), "RadixPermutation indexes at most Int32.max elements")
    self.order = order
    resize(&keys, n)
    resize(&scratchKeys, n)
    resize(&scratchOrder, n)
  }

  /// Ranges this short are finished by insertion sort rather than split
  /// again (a split costs a 256-entry histogram).
  static let insertionLimit = 24

  /// Up to this many keys, ``Strategy/automatic`` splits whatever their
  /// width (see the type's documentation).
  static let splitsUpTo = 1 << 16

  /// Which radix sort ``sort(bytes:strategy:by:)`` runs.
  enum Strategy {
    /// Splits for 8-byte keys, at least five differing bytes or at most
    /// ``splitsUpTo`` keys; passes otherwise (see the type's documentation).
    case automatic
    case mostSignificantFirst
    case leastSignificantFirst
  }

  /// Stably sorts the current order by `key(index)` over its low `bytes` bytes.
  ///
  /// Reads every key once into `keys`, noting which bits differ and whether
  /// the keys are already in order (then nothing moves), chooses the
  /// strategy, and sorts over buffer pointers: written as array subscripts,
  /// every element stored paid a uniqueness check and a bounds check.
  mutating func sort(bytes: Int, strategy: Strategy = .automatic, by key: (Int) -> UInt64) {
    precondition(bytes >= 1 && bytes <= 8, "a key has 1 to 8 bytes")
    let n = order.count
    guard n > 1 else { return }
    let mask: UInt64 = bytes == 8 ? ~0 : (1 << UInt64(bytes * 8)) - 1
    var passes = 0
    order.withUnsafeMutableBufferPointer { order in
      keys.withUnsafeMutableBufferPointer { keys in
        scratchOrder.withUnsafeMutableBufferPointer { scratchOrder in
          scratchKeys.withUnsafeMutableBufferPointer { scratchKeys in
            counts.withUnsafeMutableBufferPointer { counts in
              let buffers = Buffers(
                keys: keys.baseAddress!, order: order.baseAddress!, scratchKeys: scratchKeys.baseAddress!,
                scratchOrder: scratchOrder.baseAddress!, counts: counts.baseAddress!)
              var all = ~UInt64(0)
              var any: UInt64 = 0
              var descents = 0
              var previous: UInt64 = 0
              for j in 0..<n {
                let k = key(Int(order[j])) & mask
                keys[j] = k
                all &= k
                any |= k
                descents &+= Self.borrow(k, previous)
                previous = k
              }
              if descents == 0 { return }
              var differingBytes = 0
              for byte in 0..<bytes where ((all ^ any) >> UInt64(byte * 8)) & 0xFF != 0 { differingBytes += 1 }
              let splits =
                switch strategy {
                case .automatic: bytes == 8 || n <= Self.splitsUpTo || differingBytes >= 5
                case .mostSignificantFirst: true
                case .leastSignificantFirst: false
                }
              if splits {
                Self.sortRange(buffers, 0, n, byte: bytes - 1)
                return
              }
              counts.update(repeating: 0)
              for j in 0..<n {
                let k = keys[j]
                for byte in 0..<bytes {
                  counts[byte &* 256 &+ Int(truncatingIfNeeded: (k >> UInt64(byte &* 8)) & 0xFF)] &+= 1
                }
              }
              passes = Self.sortByPasses(buffers, n, bytes: bytes)
            }
          }
        }
      }
    }
    // After an odd number of passes the result is in the scratch arrays.
    if passes % 2 == 1 {
      swap(&keys, &scratchKeys)
      swap(&order, &scratchOrder)
    }
  }

  /// Least significant byte first, with `counts` holding the histograms of
  /// bytes 0..<`bytes` of `keys[0..<n]`: one stable scatter pass per byte
  /// that is not the same in every key, alternating from (keys, order) to
  /// the scratch twins and back. Returns the number of passes (odd: the
  /// result is in the scratch).
  private static func sortByPasses(_ b: Buffers, _ n: Int, bytes: Int) -> Int {
    var (fromKeys, fromOrder) = (b.keys, b.order)
    var (toKeys, toOrder) = (b.scratchKeys, b.scratchOrder)
    var passes = 0
    for byte in 0..<bytes {
      let shift = UInt64(byte * 8)
      let start = b.counts + byte * 256
      if start[Int(truncatingIfNeeded: (fromKeys[0] >> shift) & 0xFF)] == n { continue }  // constant byte
      var sum = 0
      for d in 0..<256 {
        let c = start[d]
        start[d] = sum
        sum &+= c
      }
      for j in 0..<n {
        let k = fromKeys[j]
        let d = Int(truncatingIfNeeded: (k >> shift) & 0xFF)
        let to = start[d]
        start[d] = to &+ 1
        toKeys[to] = k
        toOrder[to] = fromOrder[j]
      }
      swap(&fromKeys, &toKeys)
      swap(&fromOrder, &toOrder)
      passes += 1
    }
    return passes
  }

  /// The sort's arrays as pointers: `keys[j]` is the key of `order[j]`;
  /// the scratch twins hold a split's scatter; `counts` one 256-entry
  /// histogram per byte (a split by byte b uses histogram b, and its
  /// buckets' splits use lower bytes only, so a histogram lives until its
  /// buckets are done).
  private struct Buffers {
    var keys: UnsafeMutablePointer<UInt64>
    var order: UnsafeMutablePointer<Int32>
    var scratchKeys: UnsafeMutablePointer<UInt64>
    var scratchOrder: UnsafeMutablePointer<Int32>
    var counts: UnsafeMutablePointer<Int>
  }

  /// Most significant byte first: stably sorts positions `lo..<hi` of
  /// `keys` (moving `order` alongside) by bytes `byte…0`, the higher bytes
  /// being equal in the whole range; the result stays in (keys, order).
  private static func sortRange(_ b: Buffers, _ lo: Int, _ hi: Int, byte: Int) {
    let (keys, order) = (b.keys, b.order)
    if hi - lo <= insertionLimit {
      insertionSort(b, lo, hi)
      return
    }
    // Which bits differ in the range, and whether it is already in order.
    var all = ~UInt64(0)
    var any: UInt64 = 0
    var descents = 0
    var previous = keys[lo]
    for j in lo..<hi {
      let k = keys[j]
      all &= k
      any |= k
      descents &+= Self.borrow(k, previous)
      previous = k
    }
    if descents == 0 { return }
    let differing = all ^ any
    var byte = byte
    while (differing >> UInt64(byte * 8)) & 0xFF == 0 { byte -= 1 }  // ≥ 0: the keys are not all equal
    let shift = UInt64(byte * 8)
    // Split by `byte`: histogram, starts, then a stable scatter and back.
    let counts = b.counts + byte * 256
    counts.update(repeating: 0, count: 256)
    for j in lo..<hi { counts[Int(truncatingIfNeeded: (keys[j] >> shift) & 0xFF)] &+= 1 }
    var sum = lo
    for d in 0..<256 {
      let c = counts[d]
      counts[d] = sum
      sum &+= c
    }
    for j in lo..<hi {
      let k = keys[j]
      let d = Int(truncatingIfNeeded: (k >> shift) & 0xFF)
      let to = counts[d]
      counts[d] = to &+ 1
      b.scratchKeys[to] = k
      b.scratchOrder[to] = order[j]
    }
    (keys + lo).update(from: b.scratchKeys + lo, count: hi - lo)
    (order + lo).update(from: b.scratchOrder + lo, count: hi - lo)
    guard byte > 0 else { return }
    // counts[d] is now the end of bucket d.
    var start = lo
    for d in 0..<256 {
      let end = counts[d]
      if end - start > 1 { sortRange(b, start, end, byte: byte - 1) }
      start = end
    }
  }

  /// 1 if x < y, else 0: the borrow out of x − y (Hacker's Delight 2-13),
  /// in arithmetic. Written as a comparison, LLVM made it a branch, which
  /// mispredicted about every other key of a range of random keys.
  @inline(__always)
  private static func borrow(_ x: UInt64, _ y: UInt64) -> Int {
    Int(truncatingIfNeeded: ((~x & y) | (~(x ^ y) & (x &- y))) >> 63)
  }

  /// Stable insertion sort of positions `lo..<hi` by key.
  private static func insertionSort(_ b: Buffers, _ lo: Int, _ hi: Int) {
    let (keys, order) = (b.keys, b.order)
    var i = lo + 1
    while i < hi {
      let k = keys[i]
      let o = order[i]
      var j = i
      while j > lo && keys[j - 1] > k {
        keys[j] = keys[j - 1]
        order[j] = order[j - 1]
        j -= 1
      }
      keys[j] = k
      order[j] = o
      i += 1
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
