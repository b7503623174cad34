/// When an effect is worth looking at: the default times of `sleet render`
/// (a still's `--time`, an animation's `--start` and `--duration`) and of
/// `sleet demo`. One rule, computed from the effect (``Effect/previewTimes``);
/// `docs/rendering.md` ("Default times") documents it.
public struct PreviewTimes: Hashable, Sendable {
  /// What kind of effect the rule found.
  public enum Kind: String, Hashable, Sendable {
    /// At least one top-level cell keeps emitting for as long as its
    /// particles (sub-particles included) can live: from ``PreviewTimes/still``
    /// on, its live set is steady.
    case steady
    /// Every top-level cell stops emitting before its live set becomes steady
    /// (a `duration`, or changes that set its birth rate to 0): bursts.
    case burst
    /// No cell ever gives birth.
    case empty
  }

  /// Whether the effect settles into a steady state, bursts, or never emits:
  /// what the times below were chosen for.
  public var kind: Kind
  /// The time of a still, on the layer's parent timeline (seconds, ≥ 0).
  public var still: Double
  /// The time of an animation's first frame.
  public var start: Double
  /// An animation's length, in seconds (> 0).
  public var duration: Double

  /// Preview times as given (``Effect/previewTimes`` computes them for an effect).
  public init(kind: Kind, still: Double, start: Double, duration: Double) {
    self.kind = kind
    self.still = still
    self.start = start
    self.duration = duration
  }

  /// How long an animation of a steady (or empty) effect runs.
  public static let steadyDuration = 3.0
  /// The longest default animation of a burst.
  public static let maximumBurstDuration = 10.0
}

extension Effect {
  /// The effect's default preview times, computed from its definition:
  ///
  /// For each top-level cell that gives birth, on the emitter's local clock:
  /// - `open`: when it first emits (its activity window opens with a birth
  ///   rate > 0), `close`: when it stops for good (the window closes, or a
  ///   change sets the rate to 0 for the rest of the window; ∞ if never);
  /// - `L`: the longest a particle of the cell and its descendants can last,
  ///   from its birth to the death of its last sub-particle:
  ///   `L(cell) = max(maxLifetime, max over sub-cells (end of the sub-cell's
  ///   window on the longest-lived parent + L(sub-cell)))`, with
  ///   `maxLifetime = (lifetime + |lifetimeRange|/2) × the layer's lifetime`.
  ///
  /// If some cell emits for at least `L` (`close − open ≥ L`), its live set is
  /// steady from `open + L` on (every particle alive then was born after
  /// emission began): the effect is **steady**, the still is at the latest
  /// such `open + L`, and an animation starts there and lasts
  /// ``PreviewTimes/steadyDuration``. Otherwise the effect is a **burst**
  /// from `first = min(open)` to `last = max(close + L)` (when its last
  /// particle dies): the still is a third of the way through,
  /// `first + (last − first)/3`, and an animation runs from `first` for
  /// `last − first` seconds, at most ``PreviewTimes/maximumBurstDuration``.
  /// An effect that never emits is **empty**: still at 0, animation 0…3 s.
  ///
  /// Times go from the emitter's local clock to the layer's parent timeline
  /// (`beginTime + (t − timeOffset)/speed`), are clamped at 0 and rounded to
  /// a tenth of a second: up, except a burst's start (down, so that the
  /// animation sees the first births).
  /// - Complexity: O(cells × segments).
  public var previewTimes: PreviewTimes {
    let tree = CellTree(effect: self)
    // L for every cell, children before parents (depth-first numbering puts
    // every descendant after its ancestor).
    var span = [Double](repeating: 0, count: tree.nodes.count)
    for node in tree.nodes.reversed() {
      let life = node.exactMaximumLifetime
      var longest = life
      for child in node.children where tree.nodes[child].schedule.maximumRate > 0 {
        guard let window = tree.nodes[child].window(origin: 0, parentLifetime: life) else { continue }
        longest = Swift.max(longest, window.end + span[child])
      }
      span[node.number] = longest
    }
    var steady: Double?
    var first = Double.infinity
    var last = -Double.infinity
    for root in tree.roots {
      let node = tree.nodes[root]
      guard let window = node.window(origin: 0, parentLifetime: nil),
        let emission = node.schedule.emission(in: window), span[root] > 0
      else { continue }
      if emission.close - emission.open >= span[root] {
        steady = Swift.max(steady ?? 0, emission.open + span[root])
      }
      first = Swift.min(first, emission.open)
      last = Swift.max(last, emission.close + span[root])
    }
    let emitter = self.emitter
    let speed = Double(emitter.speed)
    /// `t` in whole tenths of a second (rounded as `rule` says, ignoring the
    /// rounding of the definition's `Float`s: 1.50000005 is 1.5), at least 0.
    func tenths(_ t: Double, _ rule: FloatingPointRoundingRule = .up) -> Double {
      let scaled = rule == .down ? (t * 10 * (1 + 1e-6)).rounded(.down) : (t * 10 * (1 - 1e-6)).rounded(.up)
      return t > 0 && scaled > 0 ? scaled / 10 : 0
    }
    func parentTime(_ local: Double) -> Double { emitter.beginTime + (local - emitter.timeOffset) / speed }
    if let steady, speed > 0 {
      let t = tenths(parentTime(steady))
      return PreviewTimes(kind: .steady, still: t, start: t, duration: PreviewTimes.steadyDuration)
    }
    guard speed > 0, first.isFinite, last.isFinite, last > first else {
      return PreviewTimes(kind: .empty, still: 0, start: 0, duration: PreviewTimes.steadyDuration)
    }
    return PreviewTimes(
      kind: .burst, still: tenths(parentTime(first + (last - first) / 3)), start: tenths(parentTime(first), .down),
      duration: Swift.max(0.1, tenths(Swift.min(PreviewTimes.maximumBurstDuration, (last - first) / speed))))
  }
}

extension BirthSchedule {
  /// When a window with this schedule first emits and when it stops for good:
  /// (the opening or the first later segment with a rate > 0 somewhere, the
  /// end of the last such segment or the window's end), nil when it never
  /// emits. A linear segment's rate is > 0 somewhere when it is at its start
  /// or rises.
  /// - Complexity: O(segments).
  func emission(in window: ActivityWindow) -> (open: Double, close: Double)? {
    var open: Double?
    var close = -Double.infinity
    for j in rates.indices where rates[j] > 0 || slopes[j] > 0 {
      let from = Swift.max(segmentStarts[j], window.start)
      let to = Swift.min(j + 1 < rates.count ? segmentStarts[j + 1] : .infinity, window.end)
      guard from < to else { continue }
      if open == nil { open = from }
      close = to
    }
    guard let open else { return nil }
    return (open, close)
  }
}
