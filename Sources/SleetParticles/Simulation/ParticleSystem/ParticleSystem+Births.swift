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
    // Per cell, not per birth: the parameter table, path key, cone basis
    // and segment look-up (one segment unless the effect has timed changes).
    let key = n.key
    let segmented = tree.segmentStarts.count > 1
    precondition(last <= 1 << 56, "birth index out of range")
    n.parameters.withUnsafeBufferPointer { parameters in
      // Batches of eight consecutive births (``BirthBatch``; the last one
      // may be partial): the birth times and segments first, each from the
      // schedule as before; a batch stops at a closed window (nil time) and
      // at a segment change, so all its lanes share one parameter set, and
      // the next batch starts there.
      var basisSegment = -1
      var basis = (SIMD3<Float>.zero, SIMD3<Float>.zero)
      var times = SIMD8<Double>()
      var k = first
      while k < last {
        var count = 0
        var closed = false
        var segment = 0
        while count < Swift.min(8, last - k) {
          guard let tb = n.schedule.birthTime(k + count, in: window) else {
            closed = true
            break
          }
          if segmented {
            let s = tree.segment(at: tb)
            if count == 0 {
              segment = s
            } else if s != segment {
              break
            }
          }
          times[count] = tb
          count += 1
        }
        if count > 0 {
          if segment != basisSegment {
            basis = Emission.basis(axis: parameters[segment].axis)
            basisSegment = segment
          }
          let batch = BirthBatch(parameters[segment], basis: basis, key: key, seed: seed, first: k)
          for l in 0..<count where batch.lifetime[l] > 0 {
            body(batch.record(l, parameters[segment], node: node, birthTime: times[l]))
          }
        }
        if closed { break }
        k += count
      }
    }
  }
}
