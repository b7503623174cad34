import SleetMath

/// Every birth of a compiled effect (its ``CellTree``) in a time interval:
/// the one source of births for ``ParticleSystem/seek(to:)``,
/// ``ParticleSystem/advance(to:)`` and the GPU birth-delta stream
/// (``ParticleSystem/appendAliveBirthSlots(after:at:into:records:)``).
///
/// A birth is a pure function of the tree, the emitter's seed and its birth
/// index (a sub-cell's, of its parent's record too). Top-level cells count
/// their births with their schedule, eight at a time
/// (``forEachTopLevelBatch(node:after:through:nextLength:_:)``,
/// BirthEnumerator+TopLevel.swift); a sub-cell first enumerates its
/// parents, then each parent's own schedule
/// (``forEachChildBirth(node:cell:parent:after:through:cursor:_:)``,
/// BirthEnumerator+SubCells.swift). What the enumerator keeps from one call
/// to the next — the sub-cells' parents (``ParentBirths``) and each
/// parent's ``ChildCursor`` — saves work and never changes a birth.
///
/// From here births go to the live store (``ParticleStore``, appended in
/// (birth time, id) order) or to the GPU's birth slots.
final class BirthEnumerator {
  /// The compiled effect.
  let tree: CellTree
  /// The emitter's seed.
  let seed: UInt32
  /// The system's path choices (``ParticleSystem/paths``, copied there on
  /// every change); the enumerator reads the births' ones.
  var paths = PathOverrides()
  /// Counts of the fast paths taken (``ParticleSystem/diagnostics``).
  var diagnostics = PathDiagnostics()
  /// Per cell with sub-cells, its births kept from one step to the next
  /// (``forEachParentBirth(node:slot:after:through:_:)``); nil for the others.
  var parentBirths: [ParentBirths?] = []
  /// Per cell, the lowest time the running step or seek asks it from; nil
  /// outside ``forEachBirthOfEveryCell(after:through:_:)``.
  var parentBirthFloors: [Double]?

  init(tree: CellTree, seed: UInt32) {
    self.tree = tree
    self.seed = seed
  }
}

extension BirthEnumerator {
  // MARK: - Every cell, and a sub-cell's parents

  /// Calls `body` with every particle of `node` (lifetime > 0) born in
  /// (`lo`, `hi`], dead or alive, in no particular order.
  ///
  /// Top-level cells count births with the schedule in their window; a
  /// sub-cell first enumerates the parents born in (lo − maximum emission
  /// age, hi], then each parent's own schedule in its window
  /// (``CellNode/window(origin:parentLifetime:)``), sampled by
  /// ``forEachChildBirth(node:cell:parent:after:through:cursor:_:)``.
  func forEachBirth(node: Int, after lo: Double, through hi: Double, _ body: (BirthRecord) -> Void) {
    guard hi > lo else { return }
    if let parent = tree.nodes[node].parent {
      // Looked up once, not per parent: a copy of the node per parent
      // retains and releases its six arrays.
      let n = tree.nodes[node]
      let slot = tree.nodes[parent].children.firstIndex(of: node)!
      var skips = 0
      forEachParentBirth(node: parent, slot: slot, after: lo - tree.maximumEmissionAge(node), through: hi) {
        p, cursor in
        if forEachChildBirth(node: node, cell: n, parent: p, after: lo, through: hi, cursor: cursor, body) {
          skips += 1
        }
      }
      // Once per call: the stored property's dynamic exclusivity check per
      // skip cost more than the skip.
      diagnostics.childCursorSkips += skips
    } else {
      forEachTopLevelBirth(node: node, after: lo, through: hi, body)
    }
  }

  /// ``forEachBirth(node:after:through:_:)`` of every cell c, each after
  /// `lowerBound(c)` and through `hi` (a step's or a seek's enumeration),
  /// with the sub-cells' parents kept in ``parentBirths`` from the previous
  /// call. Before, each kept cell's records at or before the lowest time
  /// this call can ask it from (its floor: c's bound less the maximum
  /// emission ages up the chain, as `forEachBirth` subtracts them) are
  /// dropped.
  ///
  /// Why: a sub-cell's births in a step come from its parents' schedules,
  /// and enumerating the parents anew each step samples every parent whose
  /// window could reach the step (each rocket and spark of the last few
  /// seconds of `fireworks`); kept, only the parents born in the step are
  /// sampled.
  func forEachBirthOfEveryCell(
    after lowerBound: (Int) -> Double, through hi: Double, _ body: (BirthRecord) -> Void
  ) {
    func enumerate() {
      for node in tree.nodes.indices { forEachBirth(node: node, after: lowerBound(node), through: hi, body) }
    }
    guard paths.parentBirthCache, tree.nodes.count > 1, tree.roots.count < tree.nodes.count else {
      enumerate()
      return
    }
    var floors = [Double](repeating: .infinity, count: tree.nodes.count)
    for c in tree.nodes.indices {
      var lo = lowerBound(c)
      var node = c
      while let parent = tree.nodes[node].parent {
        lo = lo - tree.maximumEmissionAge(node)
        floors[parent] = Swift.min(floors[parent], lo)
        node = parent
      }
    }
    if parentBirths.count != tree.nodes.count { parentBirths = Array(repeating: nil, count: tree.nodes.count) }
    for p in parentBirths.indices {
      guard var entry = parentBirths[p] else { continue }
      parentBirths[p] = nil
      if entry.lo <= floors[p] && floors[p] <= entry.hi {
        entry.removeRecords(bornAtOrBefore: floors[p])
        entry.lo = floors[p]
      }
      parentBirths[p] = entry
    }
    parentBirthFloors = floors
    enumerate()
    parentBirthFloors = nil
  }

  /// ``forEachBirth(node:after:through:_:)`` of a cell asked for its
  /// sub-cells' parents: from ``parentBirths`` while
  /// ``forEachBirthOfEveryCell(after:through:_:)`` runs, else enumerated
  /// anew.
  ///
  /// The cache holds every birth of the cell in (lo, hi] (`ParentBirths`).
  /// A call asking (`lo`, `hi`] with lo at or above the cache's lo and `hi`
  /// at or above its hi extends it by the births in (cache hi, `hi`] and
  /// yields its records born after `lo`; anything else (a seek back, a jump
  /// past the cache) rebuilds it from the call's floor. That is the same set
  /// of records as enumerating (`lo`, `hi`] anew: the schedule counts the
  /// births in (a, b] as those whose birth time t has a < t ≤ b (its
  /// `count(in:upTo:)` settles against the birth times), so splitting an
  /// interval at any time, or filtering by birth time, neither loses nor
  /// repeats a birth. Only the order differs (earlier births first, then
  /// the extension's), which the canonical order of the collected births
  /// makes irrelevant, except between records equal in birth time and id.
  ///
  /// `body` also gets the record's ``ChildCursor`` for the sub-cell at
  /// `slot` of p's `children` when the record is kept, nil otherwise.
  func forEachParentBirth(
    node p: Int, slot: Int, after lo: Double, through hi: Double,
    _ body: (BirthRecord, UnsafeMutablePointer<ChildCursor>?) -> Void
  ) {
    guard hi > lo else { return }
    guard let floors = parentBirthFloors, floors[p] <= lo else {
      forEachBirth(node: p, after: lo, through: hi) { body($0, nil) }
      return
    }
    // Taken out while in use, so that appending does not copy the records
    // (the recursion below asks only for other cells: ancestors of p).
    var entry = parentBirths[p] ?? ParentBirths(lo: floors[p], hi: floors[p], stride: tree.nodes[p].children.count)
    parentBirths[p] = nil
    if lo < entry.lo || hi < entry.hi || lo > entry.hi {
      entry.reset(to: floors[p])
    }
    if hi > entry.hi {
      forEachBirth(node: p, after: entry.hi, through: hi) { entry.append($0) }
      entry.hi = hi
    }
    entry.forEachRecord(bornAfter: lo, slot: slot) { body($0, $1) }
    parentBirths[p] = entry
  }
}
