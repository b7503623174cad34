extension ParticleSystem {
  /// An upper bound on the particles of `tree` alive at once.
  ///
  /// For a top-level cell with maximum rate R (over all segments, layer
  /// multiplier included) and maximum lifetime L: the live particles were born
  /// in a half-open interval of length L, over which ∫rate ≤ R·L, so at most
  /// ⌊R·L⌋ + 1 integer crossings (the + 1 also absorbs the few ulps of
  /// rounding in birth times); and at most the births of its window. For a
  /// sub-cell S of cell P: each parent emits at most
  /// m = ⌈R_S·w⌉ particles (w = the emission window, at most P's lifetime),
  /// and the sub-particles alive at t come from parents born in the last
  /// L_S + w seconds, so peak_S ≤ (B_P·(L_S + w) + 1)·m, where B_P bounds P's
  /// births per second (B = R for a top-level cell, B_S = B_P·m).
  /// - Complexity: O(cells × segments).
  static func peak(_ tree: CellTree) -> Int {
    var birthsPerSecond = [Double](repeating: 0, count: tree.nodes.count)
    var total = 0.0
    for node in tree.nodes {
      let rate = node.schedule.maximumRate
      let life = node.exactMaximumLifetime
      guard rate > 0, life > 0 else { continue }
      var peak: Double
      if let parent = node.parent {
        // Births k with (k + 1 − phase)/R < w number at most ⌈R·w⌉ for any
        // phase in [0, 1).
        let window = node.window(origin: 0, parentLifetime: tree.nodes[parent].exactMaximumLifetime)?.length ?? 0
        let perParent = (rate * window).rounded(.up)
        birthsPerSecond[node.number] = birthsPerSecond[parent] * perParent
        peak = (birthsPerSecond[parent] * (life + window) + 1) * perParent
      } else {
        birthsPerSecond[node.number] = rate
        // ⌊R·L⌋ + 1, as documented: ⌈R·L⌉ is one short when R·L is an
        // integer and rounding puts a birth at each end of the window.
        peak = (rate * life).rounded(.down) + 1
        if let window = node.window(origin: 0, parentLifetime: nil), window.length.isFinite {
          peak = Swift.min(peak, (rate * window.length).rounded(.up) + 1)
        }
      }
      total += peak
    }
    return total >= Double(Int.max / 2) ? Int.max / 2 : Int(total.rounded(.up))
  }

  /// The latest emitter-local time at which `tree` is simulated exactly: the
  /// smaller of two limits, per cell that gives birth —
  ///
  /// ```
  /// birth indices:   t ≤ start + 2⁵⁶ / R · (1 − 10⁻⁶)   top-level cells: ids hold k < 2⁵⁶
  /// time resolution: t ≤ L · 2⁴⁶                          every cell
  /// ```
  ///
  /// with R the cell's largest rate and L its longest lifetime. Below the
  /// second limit a `Double` time has ulp(t) ≤ t·2⁻⁵² ≤ L/64, so ages (and
  /// whether a particle is alive) are resolved to 1/64 of a lifetime; past it
  /// birth times collapse onto a few representable values and whole
  /// generations vanish (snow at t = 10¹⁸ s). `.infinity` when nothing is
  /// ever born.
  /// - Complexity: O(cells × segments).
  static func maximumLocalTime(_ tree: CellTree) -> Double {
    var limit = Double.infinity
    for node in tree.nodes {
      let rate = node.schedule.maximumRate
      let life = node.exactMaximumLifetime
      guard rate > 0, life > 0 else { continue }
      limit = Swift.min(limit, life * 0x1p46)
      if node.parent == nil, let window = node.window(origin: 0, parentLifetime: nil) {
        limit = Swift.min(limit, window.start + 0x1p56 / rate * (1 - 1e-6))
      }
    }
    return limit
  }
}
