import SleetMath

/// Any of the three shatter styles behind one interface, so tools, the
/// interactive driver and renderers need not care which one runs.
public struct ShatterTransition: Sendable {
  /// The concrete style and its parameters.
  public enum Kind: Sendable {
    /// Apple's checkerboard flip.
    case checkerboard(CheckerboardTransition)
    /// VCTransitionsLibrary's explode.
    case explode(ExplodeTransition)
    /// VariousViewsEffects' glass break.
    case glassBreak(GlassBreakTransition)
  }

  /// The wrapped style and its parameters.
  public let kind: Kind

  /// Wraps a checkerboard transition.
  /// - Complexity: O(1).
  public init(_ checkerboard: CheckerboardTransition) { kind = .checkerboard(checkerboard) }
  /// Wraps an explode transition.
  /// - Complexity: O(1).
  public init(_ explode: ExplodeTransition) { kind = .explode(explode) }
  /// Wraps a glass-break transition.
  /// - Complexity: O(1).
  public init(_ glassBreak: GlassBreakTransition) { kind = .glassBreak(glassBreak) }

  /// A style with its sample's defaults for a W × H container.
  ///
  /// `divisor` is the checkerboard's tile divisor, the explode's pieces per
  /// row and the glass break's columns and rows; `direction` only changes the
  /// checkerboard; `seed` only the two random styles.
  /// - Complexity: O(pieces).
  public init(
    style: ShatterStyle, width: Double, height: Double, direction: ShatterDirection = .push,
    divisor: Int = CheckerboardPlan.defaultDivisor, seed: UInt64 = 0
  ) {
    switch style {
    case .checkerboard:
      kind = .checkerboard(
        CheckerboardTransition(
          plan: CheckerboardPlan(width: width, height: height, direction: direction, divisor: divisor)))
    case .explode:
      kind = .explode(ExplodeTransition(width: width, height: height, divisor: divisor, seed: seed))
    case .glassBreak:
      kind = .glassBreak(
        GlassBreakTransition(width: width, height: height, columns: divisor, rows: divisor, seed: seed))
    }
  }

  /// Checks the inputs of ``init(style:width:height:direction:divisor:seed:)``.
  /// - Complexity: O(1).
  public static func validate(
    style: ShatterStyle, width: Double, height: Double,
    divisor: Int = CheckerboardPlan.defaultDivisor
  ) throws(ShatterPlanError) {
    switch style {
    case .checkerboard: try CheckerboardPlan.validate(width: width, height: height, divisor: divisor)
    case .explode: try ExplodeTransition.validate(width: width, height: height, divisor: divisor)
    case .glassBreak:
      try GlassBreakTransition.validate(width: width, height: height, columns: divisor, rows: divisor)
    }
  }

  /// The style's name (`checkerboard`, `explode`, `glassBreak`).
  public var style: ShatterStyle {
    switch kind {
    case .checkerboard: .checkerboard
    case .explode: .explode
    case .glassBreak: .glassBreak
    }
  }

  /// D: the style's nominal duration, its animator's `transitionDuration`,
  /// which interactive progress p maps onto as transition time p·D
  /// (`InteractiveTransition` in SleetTransitions). Every piece is at rest from
  /// ``endTime`` ≤ D on:
  ///
  /// ```
  /// checkerboard   D = plan.duration (3.0 s)     endTime = max delay + D·S/(L + S)
  /// explode        D = duration (1.0 s)          endTime = D
  /// glass break    D = 1.0 s + 1.0 s = 2.0 s     endTime = max(start + duration)
  /// ```
  ///
  /// (the glass break's source has no transition duration: D is the latest
  /// any shard can land, for any seed; see ``GlassBreakTransition/nominalDuration``).
  public var duration: Double {
    switch kind {
    case .checkerboard(let t): t.plan.duration
    case .explode(let t): t.duration
    case .glassBreak: GlassBreakTransition.nominalDuration
    }
  }

  /// When the last piece reaches its final state (≤ ``duration``).
  public var endTime: Double {
    switch kind {
    case .checkerboard(let t): t.endTime
    case .explode(let t): t.endTime
    case .glassBreak(let t): t.endTime
    }
  }

  /// A frame sized for this transition (allocate once, reuse every frame).
  /// - Complexity: O(pieces).
  public func makeFrame() -> ShatterFrame {
    switch kind {
    case .checkerboard(let t): t.makeFrame()
    case .explode(let t): t.makeFrame()
    case .glassBreak(let t): t.makeFrame()
    }
  }

  /// Evaluates the batched path at `time` (seconds since the transition
  /// began) into `frame`; bit-identical for any `threads`.
  /// - Complexity: O(pieces). Once `frame` has been used, no allocation with
  ///   one thread and the `scalar`, `simd` or `automatic` backend (`automatic`
  ///   resolves to `simd`, or `scalar` for a one-piece chunk, never `blas`);
  ///   the `blas` backend allocates its packing buffer per call, one per
  ///   512-piece chunk (see `docs/shatter.md`).
  public func evaluate(
    at time: Double, into frame: inout ShatterFrame, backend: TransformBackend = .automatic,
    threads: Int = 1
  ) {
    switch kind {
    case .checkerboard(let t): t.evaluate(at: time, into: &frame, backend: backend, threads: threads)
    case .explode(let t): t.evaluate(at: time, into: &frame, backend: backend, threads: threads)
    case .glassBreak(let t): t.evaluate(at: time, into: &frame, backend: backend, threads: threads)
    }
  }

  /// Evaluates the naive per-piece reference at `time` into `frame`.
  /// - Complexity: O(pieces).
  package func evaluateNaively(at time: Double, into frame: inout ShatterFrame) {
    switch kind {
    case .checkerboard(let t): t.evaluateNaively(at: time, into: &frame)
    case .explode(let t): t.evaluateNaively(at: time, into: &frame)
    case .glassBreak(let t): t.evaluateNaively(at: time, into: &frame)
    }
  }

  /// A fresh frame at `time` (allocates; use ``evaluate(at:into:backend:threads:)``
  /// in loops).
  /// - Complexity: O(pieces).
  public func frame(at time: Double, backend: TransformBackend = .automatic) -> ShatterFrame {
    var frame = makeFrame()
    evaluate(at: time, into: &frame, backend: backend)
    return frame
  }
}
