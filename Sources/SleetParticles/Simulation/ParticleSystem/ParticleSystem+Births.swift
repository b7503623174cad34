import SleetMath

extension ParticleSystem {
  // MARK: - Birth enumeration

  /// Calls `body` with every particle of `node` (lifetime > 0) born in
  /// (`lo`, `hi`], dead or alive, in no particular order.
  ///
  /// Top-level cells count births with the schedule in their window; a
  /// sub-cell first enumerates the parents born in (lo − maximum emission
  /// age, hi], then each parent's own schedule in its window
  /// (``CellNode/window(origin:parentLifetime:)``).
  func forEachBirth(node: Int, after lo: Double, through hi: Double, _ body: (BirthRecord) -> Void) {
    guard hi > lo else { return }
    let n = tree.nodes[node]
    let seed = effect.emitter.seed
    if let parent = n.parent {
      forEachBirth(node: parent, after: lo - tree.maximumEmissionAge(node), through: hi) { p in
        guard let window = n.window(origin: p.birthTime, parentLifetime: Double(p.lifetime)) else { return }
        let first = n.schedule.count(in: window, upTo: lo)
        let last = n.schedule.count(in: window, upTo: hi)
        guard last > first else { return }
        for k in first..<last {
          guard let tb = n.schedule.birthTime(k, in: window) else { break }
          if let r = BirthSampler.child(tree: tree, seed: seed, node: node, parent: p, k: k, birthTime: tb) {
            body(r)
          }
        }
      }
    } else {
      forEachTopLevelBirth(node: node, after: lo, through: hi, body)
    }
  }

  /// ``forEachBirth(node:after:through:_:)`` for a top-level `node`, in
  /// birth order. Always inlined so that the one-cell paths of ``seek(to:)``
  /// and ``advance(to:)`` get `body` inlined too (no call and no record copy
  /// per birth).
  @inline(__always)
  func forEachTopLevelBirth(node: Int, after lo: Double, through hi: Double, _ body: (BirthRecord) -> Void) {
    guard hi > lo else { return }
    let n = tree.nodes[node]
    let seed = effect.emitter.seed
    // The simulation starts at local time 0 (the window's origin).
    guard let window = n.window(origin: 0, parentLifetime: nil) else { return }
    let first = n.schedule.count(in: window, upTo: lo)
    let last = n.schedule.count(in: window, upTo: hi)
    guard last > first else { return }
    // Per cell, not per birth: the parameter table, path key and segment
    // look-up (one segment unless the effect has timed changes).
    let key = n.key
    let segmented = tree.segmentStarts.count > 1
    n.parameters.withUnsafeBufferPointer { parameters in
      for k in first..<last {
        guard let tb = n.schedule.birthTime(k, in: window) else { break }
        let segment = segmented ? tree.segment(at: tb) : 0
        if let r = BirthSampler.topLevel(parameters[segment], node: node, key: key, seed: seed, k: k, birthTime: tb) {
          body(r)
        }
      }
    }
  }
}
