import SleetMath

// Animated birth rates (`semantics.md`, "Animated birth rates"): an animated
// change of the layer's `birthRate` or of a cell's adds segment boundaries to
// the tree, and the cells' schedules run piecewise linear between them.

extension CellTree {
  /// Linear pieces per keyframe span under a timing function other than
  /// `linear`: N = 32, so N × spans pieces equal in time over the animation
  /// (at most ``maximumPacedPieces``), each exact at its ends.
  ///
  /// **Tolerance.** On a piece of width h = duration/N the line through the
  /// ends of a twice-differentiable rate r deviates from it by at most
  /// h²/8 · max|r″|; for a basic animation from a to b paced by f,
  /// r″ = (b − a)·f″/duration², so the deviation is at most
  /// |b − a| · max|f″| / (8·N²) = |b − a| · max|f″| / 8192. Measured on a
  /// 1 → 0 ramp: 4.4·10⁻⁴·|b − a| for `easeIn` and `easeOut`,
  /// 5.4·10⁻⁴·|b − a| for `easeInEaseOut`, 1.5·10⁻³·|b − a| for `default`
  /// (the tests hold them to 6·10⁻⁴ and 1.6·10⁻³). The integral, and so the
  /// births counted up to any time, then differ from the paced rate's by at
  /// most that deviation times the duration; a birth time moves by that
  /// difference divided by the rate there. Under a Bézier pace a keyframe's
  /// corner falls inside a piece and is rounded off there; a product of two
  /// animated factors is linear between piece ends.
  static let pacedPieces = 32

  /// The most pieces of one paced animation (128 keyframe spans' worth):
  /// each piece is a segment of every cell, so the keyframes of a file must
  /// not multiply them without bound. Past it the pieces stay equal in time,
  /// duration/4096 each, finer than the tolerance above needs.
  static let maximumPacedPieces = 4096

  /// An animated change of the layer's `birthRate` (``indexPath`` nil) or of
  /// one cell's, with its values resolved once.
  struct RateAnimation {
    /// The cell's index path in the emitter at time 0; nil for the layer.
    var indexPath: [Int]?
    var start: Double
    var duration: Double
    /// `start + duration`, as validation computes it.
    var end: Double
    var timingFunction: TimingFunction
    /// The stored value before the change (basic animations).
    var from: Double
    /// The stored value after it: `value`, the last of `values`.
    var to: Double
    var keyTimes: [Double]
    /// The stored value of each of `values`.
    var keyValues: [Double]
    /// The animation's own segment boundaries and the progress u at each:
    /// the key times, or the paced pieces' ends, with the start and end.
    var boundaries: [(time: Double, progress: Double)]

    /// The value where a segment starting at `t` begins (the reference's
    /// value at `t`, ``Effect/value(forKeyPath:at:)``).
    func value(startingAt t: Double) -> Double { value(progress: progress(at: t), fromBelow: false) }

    /// The value where a segment ending at `t` ends: the limit from below,
    /// which differs from the value at `t` where keyframes share a key time.
    func value(endingAt t: Double) -> Double {
      t == end ? to : value(progress: progress(at: t), fromBelow: true)
    }

    /// The progress at `t`: exact at the animation's own boundaries (a key
    /// time, the pace of i/n), the timing function's value elsewhere.
    /// - Complexity: O(log boundaries).
    private func progress(at t: Double) -> Double {
      // The first boundary at or after t (the boundaries' times ascend).
      var lo = 0
      var hi = boundaries.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if boundaries[mid].time < t { lo = mid + 1 } else { hi = mid }
      }
      if lo < boundaries.count && boundaries[lo].time == t { return boundaries[lo].progress }
      return PropertyChange.pace(timingFunction, (t - start) / duration)
    }

    private func value(progress u: Double, fromBelow: Bool) -> Double {
      guard !keyValues.isEmpty else { return from + (to - from) * u }
      let keys = keyTimes
      let last = keys.count - 1
      if u <= keys[0] { return keyValues[0] }
      if fromBelow ? u > keys[last] : u >= keys[last] { return keyValues[last] }
      // Safe: keys[0] < u ≤ keys[last] (< from above), so i < last exists.
      let i = fromBelow ? keys.lastIndex { $0 < u }! : keys.lastIndex { $0 <= u }!
      if fromBelow && u == keys[i + 1] { return keyValues[i + 1] }
      return keyValues[i] + (keyValues[i + 1] - keyValues[i]) * ((u - keys[i]) / (keys[i + 1] - keys[i]))
    }
  }

  /// The animated birth-rate changes of `effect`, in change order.
  /// - Complexity: O(changes × (cells + keyframes + N)).
  static func rateAnimations(of effect: Effect) -> [RateAnimation] {
    var result: [RateAnimation] = []
    for change in effect.changes where change.isAnimation {
      guard let path = try? Emitter.KeyPath(change.keyPath), path.behaviorName == nil,
        path.property == "birthRate"
      else { continue }
      var indexPath: [Int] = []
      var cells = effect.emitter.emitterCells
      for name in path.cellNames {
        // Safe: `Effect.init` resolved the path against this emitter.
        let i = cells.firstIndex { $0.name == name }!
        indexPath.append(i)
        cells = cells[i].emitterCells
      }
      let t0 = change.time
      let d = change.duration
      let end = t0 + d
      // The stored values (a `Float` property's rounded), read back as the
      // reference reads them.
      var e = effect.emitter(at: t0)
      func stored(_ v: PropertyValue) -> Double {
        do throws(KeyPathError) {
          try e.setValue(v, forKeyPath: change.keyPath)
          guard case .number(let x) = try e.value(forKeyPath: change.keyPath) else {
            preconditionFailure("CellTree: '\(change.keyPath)' is not a number")
          }
          return x
        } catch {
          preconditionFailure("CellTree: animated change '\(change.keyPath)' no longer applies: \(error)")
        }
      }
      let keyValues = change.values.map(stored)
      let to = stored(change.value)
      var boundaries: [(time: Double, progress: Double)] = [(t0, 0)]
      if change.timingFunction == .linear {
        boundaries += change.keyTimes.map { (t0 + d * $0, $0) }
      } else {
        let n = Swift.min(pacedPieces * Swift.max(1, change.keyTimes.count - 1), maximumPacedPieces)
        boundaries += (1..<n).map { i in
          let x = Double(i) / Double(n)
          return (t0 + d * x, PropertyChange.pace(change.timingFunction, x))
        }
      }
      boundaries.append((end, 1))
      // The reference's value at the start is the value before the change
      // exactly (from + (to − from) · 0); keyframe animations do not use it.
      var from = keyValues.first ?? to
      if change.values.isEmpty, case .number(let x)? = try? effect.value(forKeyPath: change.keyPath, at: t0) {
        from = x
      }
      result.append(
        RateAnimation(
          indexPath: path.cellNames.isEmpty ? nil : indexPath, start: t0, duration: d, end: end,
          timingFunction: change.timingFunction, from: from, to: to, keyTimes: change.keyTimes,
          keyValues: keyValues, boundaries: boundaries))
    }
    return result
  }
}

extension CellTree {
  /// The segment starts after −∞: the change times, and every boundary of
  /// every rate animation; the change times alone when nothing animates a
  /// rate.
  /// - Complexity: O(b log b) for b boundaries.
  static func segmentTimes(_ changeTimes: [Double], _ animations: [RateAnimation]) -> [Double] {
    guard !animations.isEmpty else { return changeTimes }
    return Set(changeTimes + animations.flatMap { $0.boundaries.map(\.time) }).sorted()
  }

  /// The birth schedule of a cell with index path `indexPath`, whose
  /// definition in segment j is `parameters[j]` (with `cellRates[j]` its own
  /// `birthRate`) and whose speed is `speed`:
  ///
  /// ```
  /// rate = cell.birthRate × layer.birthRate × speed
  /// ```
  ///
  /// per segment, constant where neither the layer's rate nor the cell's is
  /// animated (`Double(parameters[j].birthRate) × speed`, as without
  /// animations), and otherwise linear from its value at the segment's start
  /// to its value just before the segment's end. Each factor is exact at
  /// both ends (linear between them under a `linear` pace; under another
  /// pace, exact at the ends of its pieces); when both factors animate at
  /// once their product is quadratic within a segment and is approximated by
  /// the line through its end values. Where the cell is disabled or absent
  /// the rate is 0.
  /// - Complexity: O(segments × animations).
  static func birthSchedule(
    segmentStarts: [Double], parameters: [CellParameters], cellRates: [Float], speed: Double,
    indexPath: [Int], animations: [RateAnimation]
  ) -> BirthSchedule {
    let layer = animations.filter { $0.indexPath == nil }
    let own = animations.filter { $0.indexPath == indexPath }
    guard !layer.isEmpty || !own.isEmpty else {
      return BirthSchedule(segmentStarts: segmentStarts, rates: parameters.map { Double($0.birthRate) * speed })
    }
    var rates: [Double] = []
    var slopes: [Double] = []
    for (j, p) in parameters.enumerated() {
      let from = segmentStarts[j]
      let to = j + 1 < segmentStarts.count ? segmentStarts[j + 1] : .infinity
      let l = layer.first { $0.start <= from && to <= $0.end }
      let c = own.first { $0.start <= from && to <= $0.end }
      guard l != nil || c != nil else {
        rates.append(Double(p.birthRate) * speed)
        slopes.append(0)
        continue
      }
      guard p.isEnabled else {
        rates.append(0)
        slopes.append(0)
        continue
      }
      func rate(_ cellRate: Double, _ layerRate: Double) -> Double {
        let r = cellRate * layerRate * speed
        return r.isFinite && r > 0 ? r : 0
      }
      let r0 = rate(
        c?.value(startingAt: from) ?? Double(cellRates[j]), l?.value(startingAt: from) ?? Double(p.layer.birthRate))
      let r1 = rate(
        c?.value(endingAt: to) ?? Double(cellRates[j]), l?.value(endingAt: to) ?? Double(p.layer.birthRate))
      rates.append(r0)
      slopes.append((r1 - r0) / (to - from))
    }
    return BirthSchedule(segmentStarts: segmentStarts, rates: rates, slopes: slopes)
  }
}
