/// The stable sort by id of a frame's particles (given in evaluation order),
/// computed from the previous frame's sort where the frames share particles.
///
/// Between two frames of a stepped effect, the evaluation order (the store's:
/// birth time, then id) loses the particles that died and gains the births
/// at its end. The previous frame's sorted order, less the dead, is then
/// already the survivors' sorted order: only the births need a sort, and one
/// merge joins the two. Sub-cells' ids are hashes, so each frame of an effect
/// with sub-cells (fireworks) needs this sort, which as a full radix sort
/// is most of such an effect's `render`.
///
/// The result is exactly ``RadixPermutation``'s stable sort of the new ids,
/// whatever happened between the frames (a seek, capping, a hidden cell shown
/// again, another effect's ids); those only make it slower:
/// - **Matching is monotone.** The previous frame's ids are walked against
///   the new frame's, and new position j is matched with previous position
///   i only if their ids are equal, both walks moving forward. So the
///   matched new positions are a prefix 0..<m, and matched pairs keep their
///   relative order.
/// - **The survivors**, listed in the previous sorted order and renamed to
///   their new positions, ascend by (id, new position): by id because the
///   previous order did, and equal ids by previous position, which matching
///   kept as the new positions' order.
/// - **The rest** (positions m..<n: the births) are sorted by (id,
///   position), stably by ``RadixPermutation`` or, when few, by insertion.
/// - **A merge by (id, position)** joins them; on equal ids a survivor goes
///   first, its position being below m.
///
/// Every sort key (id, position) is distinct, so the order sorted by it is
/// unique and equals the stable sort by id (ties in position order).
/// `IncrementalIDOrderTests` compare the two on random frames, with
/// collisions, and `render(into:)` with the full sort on the presets.
/// - Complexity: O(p + n + b·log b) a frame for p previous ids, n ids and
///   b births (b·bytes with the radix sort); no allocations once the buffers
///   have grown.
struct IncrementalIDOrder {
  /// The sorted order: `order[j]` is the position of the j-th smallest id
  /// (equal ids in position order).
  private(set) var order: [Int32] = []
  /// The previous frame's ids in evaluation order, and (during a sort) their
  /// sorted order: the last result, swapped out of ``order``.
  private var previousIDs: [UInt64] = []
  private var previousOrder: [Int32] = []
  /// The new position of each previous position, or −1 (not matched).
  private var matched: [Int32] = []
  /// The survivors' new positions, in the previous sorted order.
  private var survivors: [Int32] = []
  /// The births' order (indices from m) when sorted by insertion, and the
  /// radix sort for more of them.
  private var birthOrder: [Int32] = []
  private var births = RadixPermutation()

  /// Births up to this many are sorted by insertion (a radix split costs
  /// a 256-entry histogram; a frame's births are usually a few dozen).
  static let insertionLimit = 32

  /// Sorts `ids` (a frame's ids in evaluation order) into ``order``, and
  /// keeps them for the next call.
  /// - Precondition: ids.count ≤ Int32.max.
  mutating func sort(_ ids: UnsafeBufferPointer<UInt64>) {
    let n = ids.count
    precondition(n <= Int(Int32.max), "IncrementalIDOrder indexes at most Int32.max elements")
    // The same ids as the last call (a frame rendered again without a step,
    // as a paused preview does): the last result is this sort's, the sort
    // being a function of the ids alone. A stepped frame differs early: its
    // oldest particles, first in evaluation order, are the ones that die.
    if n == previousIDs.count, Self.equal(ids, previousIDs) { return }
    let p = previousIDs.count
    ParticleSystem.resize(&matched, to: p, filler: 0)
    ParticleSystem.resize(&survivors, to: p, filler: 0)
    // The last result becomes the previous order; its old buffer takes the
    // merge.
    swap(&order, &previousOrder)
    ParticleSystem.resize(&order, to: n, filler: 0)
    var m = 0
    var s = 0
    previousIDs.withUnsafeBufferPointer { previousIDs in
      matched.withUnsafeMutableBufferPointer { matched in
        // Monotone matching: the matched new positions are 0..<m.
        for i in 0..<p {
          let same = m < n && previousIDs[i] == ids[m]
          matched[i] = same ? Int32(truncatingIfNeeded: m) : -1
          m &+= same ? 1 : 0
        }
        // The survivors in the previous sorted order (a permutation of
        // 0..<p: written with previousIDs).
        previousOrder.withUnsafeBufferPointer { previousOrder in
          survivors.withUnsafeMutableBufferPointer { survivors in
            for k in 0..<p {
              let position = matched[Int(previousOrder[k])]
              survivors[s] = position
              s &+= position >= 0 ? 1 : 0
            }
          }
        }
      }
    }
    let b = n - m
    let birthOrder = sortBirths(ids, from: m)
    // The merge by (id, position): survivors (positions < m) first on ties.
    survivors.withUnsafeBufferPointer { survivors in
      birthOrder.withUnsafeBufferPointer { birthOrder in
        order.withUnsafeMutableBufferPointer { order in
          var (i, j) = (0, 0)
          for k in 0..<n {
            let takesSurvivor: Bool
            if i == s {
              takesSurvivor = false
            } else if j == b {
              takesSurvivor = true
            } else {
              takesSurvivor = ids[Int(survivors[i])] <= ids[m + Int(birthOrder[j])]
            }
            if takesSurvivor {
              order[k] = survivors[i]
              i += 1
            } else {
              order[k] = Int32(truncatingIfNeeded: m + Int(birthOrder[j]))
              j += 1
            }
          }
        }
      }
    }
    // The next call's previous frame (``order`` is swapped in as its order).
    ParticleSystem.resize(&previousIDs, to: n, filler: 0)
    if n > 0 {
      previousIDs.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: ids.baseAddress!, count: n) }
    }
  }

  /// Whether `ids` and `previous` hold the same ids (equal counts).
  private static func equal(_ ids: UnsafeBufferPointer<UInt64>, _ previous: [UInt64]) -> Bool {
    previous.withUnsafeBufferPointer { previous in
      for i in previous.indices where previous[i] != ids[i] { return false }
      return true
    }
  }

  /// Positions m..<n sorted by (id, position), as indices from m.
  private mutating func sortBirths(_ ids: UnsafeBufferPointer<UInt64>, from m: Int) -> [Int32] {
    let b = ids.count - m
    if b > Self.insertionLimit {
      births.reset(count: b)
      births.sort(bytes: 8) { ids[m + $0] }
      return births.order
    }
    ParticleSystem.resize(&birthOrder, to: b, filler: 0)
    birthOrder.withUnsafeMutableBufferPointer { order in
      for i in 0..<b { order[i] = Int32(truncatingIfNeeded: i) }
      // Stable insertion sort: a key moves only past larger keys.
      for i in 1..<Swift.max(b, 1) {
        let o = order[i]
        let key = ids[m + Int(o)]
        var j = i
        while j > 0 && ids[m + Int(order[j - 1])] > key {
          order[j] = order[j - 1]
          j -= 1
        }
        order[j] = o
      }
    }
    return birthOrder
  }
}
