extension ParticleStore {
  // MARK: - Dropping the dead and compacting

  /// Whether at most an eighth of the stored particles are dead, by the
  /// last known live count: a frame then writes in one pass into buffers
  /// sized for every stored particle (each hole costs a filler row).
  var hasFewHoles: Bool { (count - lastKnownAlive) * 8 <= count }

  /// Whether the store, with `incoming` particles about to be appended, has
  /// grown well past its last known live count: when counting the live
  /// (O(stored)) to compact is worth it.
  func hasOutgrownLiveCount(adding incoming: Int = 0) -> Bool {
    count + incoming > 2 * lastKnownAlive + 1024
  }

  /// Drops the leading blocks whose particles are all dead at `t` (in birth
  /// order, the oldest die first in the common case): O(1) per block in the
  /// store, and the kernel never reads them again.
  func dropDeadLeadingBlocks(at t: Double) {
    var dead = 0
    while (dead + 1) * 8 <= count {
      var anyAlive = false
      for i in dead * 8..<(dead + 1) * 8 where isAlive(i, at: t) {
        anyAlive = true
        break
      }
      if anyAlive { break }
      dead += 1
    }
    if dead > 0 {
      removeFirstBlocks(dead)
      lastKnownAlive = Swift.min(lastKnownAlive, count)
    }
  }

  /// Counts the live particles at `t` and compacts when an eighth of the
  /// store is dead (``compactIfMostlyDead(alive:at:)``).
  /// - Complexity: O(stored particles).
  func compactIfMostlyDead(at t: Double) {
    compactIfMostlyDead(alive: aliveCount(blocks: 0..<blockCount, at: t, hidden: nil), at: t)
  }

  /// Takes `alive`, the live count just computed at `t` (by a frame or a
  /// step), as ``lastKnownAlive``, and compacts when an eighth of the store
  /// is dead.
  func compactIfMostlyDead(alive: Int, at t: Double) {
    let dead = count - alive
    if dead * 8 > count {
      // The common case (similar lifetimes, deaths in birth order): the
      // dead form a prefix. Dropping its whole blocks is one block-aligned
      // memmove; the few dead lanes left are holes the kernel skips.
      var prefix = 0
      while prefix < count && !isAlive(prefix, at: t) { prefix += 1 }
      if prefix * 2 >= dead && prefix >= 8 {
        removeFirstBlocks(prefix / 8)
      } else {
        removeAll { !isAlive($0, at: t) }
      }
    }
    lastKnownAlive = alive
  }

  /// Keeps at most `budget` particles alive at `t`, the newest (capping,
  /// ``ParticleSystemConfiguration/OverflowPolicy/capOldestFirst``): when
  /// more are alive, the dead are removed and then the oldest.
  /// - Complexity: O(stored particles).
  func capAlive(to budget: Int, at t: Double) {
    let alive = aliveCount(blocks: 0..<blockCount, at: t, hidden: nil)
    if alive > budget {
      removeAll { !isAlive($0, at: t) }
      removeFirst(count - budget)
    }
  }

  /// Empties the store (keeping the slab).
  func removeAll() {
    count = 0
    head = 0
  }

  /// Removes particles for which `remove` is true, keeping the order of the
  /// rest, and resets the lanes past the new count.
  /// - Complexity: O(count), no allocations.
  func removeAll(where remove: (Int) -> Bool) {
    var o = 0
    for i in 0..<count where !remove(i) {
      if o != i { move(from: i, to: o) }
      o += 1
    }
    count = o
    clearTail()
    recomputeBounds()
  }

  /// Recomputes every block's surely-alive bound from its lanes.
  private func recomputeBounds() {
    for b in 0..<blockCount {
      var death = Double.infinity
      for i in b * 8..<Swift.min(count, b * 8 + 8) {
        death = Swift.min(death, birthTime(i) + Double(lifetime(i)))
      }
      aliveBounds[b] = Self.surelyAliveBound(death: death)
    }
  }

  /// Removes the first `blocks` whole blocks (8·blocks particles), keeping
  /// the order: the window's start moves.
  /// - Complexity: O(1).
  func removeFirstBlocks(_ blocks: Int) {
    precondition(blocks >= 0 && blocks * 8 <= count)
    head += blocks
    count -= blocks * 8
    if count == 0 { head = 0 }
  }

  /// Removes the first `n` particles (the oldest), keeping the order.
  func removeFirst(_ n: Int) {
    guard n > 0 else { return }
    removeAll { $0 < n }
  }
}
