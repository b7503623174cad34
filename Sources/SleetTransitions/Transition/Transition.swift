import SleetMath
import SleetShatter

/// One transition between two screens in any ``TransitionStyle``, evaluated
/// into a ``TransitionFrame`` at any time: the one engine behind every style.
///
/// ```swift
/// let slide = try Transition(style: .slide, direction: .push, width: 390, height: 844)
/// var frame = slide.makeFrame()
/// slide.evaluate(at: 0.175, into: &frame)   // half way: the to screen's left edge at x = 195
/// ```
///
/// Times are seconds since the transition began. Before 0 every value is at
/// its start, from ``endTime`` on at its end (``TransitionFrame/isComplete``).
/// The numbers of each style are the binding ones of `transitions.md`; see
/// `docs/transitions.md` for each style's layers and timeline.
///
/// Deterministic: the same inputs give the same frame bits for any `threads`
/// and for the `scalar`, `simd` and `automatic` backends; `blas` rounds
/// differently (FMA, its own summation order), within the bound
/// ``TransformBackend`` documents (only the shatter styles use either).
public struct Transition: Sendable {
  /// The style.
  public let style: TransitionStyle
  /// The direction (one of ``TransitionStyle/directions``).
  public let direction: TransitionDirection
  /// The container size W × H in points: W.
  public let width: Double
  /// The container height H, points.
  public let height: Double
  /// The style's inputs, as given.
  public let options: TransitionOptions

  /// The shatter transition behind a shatter style (nil for the others).
  public let shatter: ShatterTransition?

  /// The largest container side accepted (the shatter styles' limit, so
  /// every style accepts the same sizes).
  public static let maximumSide = CheckerboardPlan.maximumSide

  /// Makes a transition, checking every input.
  ///
  /// - Throws: ``TransitionError`` naming the input at fault: a size not in
  ///   (0, ``maximumSide``], a direction the style does not take, a missing or
  ///   inapplicable option, a rect that is not finite, is empty or is not
  ///   inside the container, a tilt3D container shorter than its 280-point
  ///   sheet, or a divisor the shatter style refuses.
  /// - Complexity: O(1), or O(pieces) for a shatter style.
  public init(
    style: TransitionStyle, direction: TransitionDirection? = nil, width: Double, height: Double,
    options: TransitionOptions = TransitionOptions()
  ) throws(TransitionError) {
    let direction = direction ?? style.defaultDirection
    try Transition.validate(style: style, direction: direction, width: width, height: height, options: options)
    self.style = style
    self.direction = direction
    self.width = width
    self.height = height
    self.options = options
    if let shatterStyle = style.shatterStyle {
      shatter = ShatterTransition(
        style: shatterStyle, width: width, height: height,
        direction: direction == .pop ? .pop : .push,
        divisor: options.divisor ?? CheckerboardPlan.defaultDivisor, seed: options.seed ?? 0)
    } else {
      shatter = nil
    }
  }

  /// Checks the inputs of ``init(style:direction:width:height:options:)``
  /// without making the transition.
  /// - Complexity: O(1).
  public static func validate(
    style: TransitionStyle, direction: TransitionDirection, width: Double, height: Double,
    options: TransitionOptions = TransitionOptions()
  ) throws(TransitionError) {
    for (field, value) in [("width", width), ("height", height)] {
      guard value.isFinite, value > 0, value <= maximumSide else {
        throw .invalidSize(field: field, value: value, limit: maximumSide)
      }
    }
    guard style.directions.contains(direction) else {
      throw .unsupportedDirection(style: style, direction: direction)
    }
    // Which options the style uses; any other one given is refused.
    let uses: Set<String>
    switch style {
    case .zoom: uses = ["imageRect", "targetRect"]
    case .circleReveal: uses = ["button"]
    case .checkerboard: uses = ["divisor"]
    case .explode, .glassBreak: uses = ["divisor", "seed"]
    case .slide, .fade, .window, .tilt3D: uses = []
    }
    let given: [(String, Bool)] = [
      ("imageRect", options.imageRect != nil), ("targetRect", options.targetRect != nil),
      ("button", options.button != nil), ("divisor", options.divisor != nil), ("seed", options.seed != nil),
    ]
    for (field, isGiven) in given where isGiven && !uses.contains(field) {
      throw .inapplicableOption(style: style, field: field)
    }
    let container = Rect(x: 0, y: 0, width: width, height: height)
    func check(_ rect: Rect?, _ field: String) throws(TransitionError) {
      guard let rect else { throw .missingOption(style: style, field: field) }
      guard rect.isFinite else { throw .invalidRect(field: field, rect: rect, reason: "is not finite") }
      guard rect.width > 0, rect.height > 0 else {
        throw .invalidRect(field: field, rect: rect, reason: "is empty: width and height must be positive")
      }
      guard rect.isInside(container) else {
        throw .invalidRect(
          field: field, rect: rect, reason: "is not inside the \(_text(width))×\(_text(height)) container")
      }
    }
    switch style {
    case .zoom:
      try check(options.imageRect, "imageRect")
      try check(options.targetRect, "targetRect")
    case .circleReveal:
      try check(options.button, "button")
    case .tilt3D:
      guard height >= Transition.sheetHeight else {
        throw .containerTooSmall(style: style, field: "height", value: height, minimum: Transition.sheetHeight)
      }
    case .checkerboard, .explode, .glassBreak:
      do throws(ShatterPlanError) {
        try ShatterTransition.validate(
          style: style.shatterStyle!, width: width, height: height,
          divisor: options.divisor ?? CheckerboardPlan.defaultDivisor)
      } catch {
        throw .invalidShatter(error)
      }
    case .slide, .fade, .window:
      break
    }
  }

  /// D: the style's nominal duration, its animator's `transitionDuration`,
  /// which interactive progress p maps onto as transition time p·D:
  ///
  /// | style | D |
  /// |---|---|
  /// | slide | 0.35 s |
  /// | fade, zoom, circleReveal | 0.5 s |
  /// | window | 0.45 s |
  /// | tilt3D | 0.6 s (two phases of 0.3 s) |
  /// | checkerboard, explode, glassBreak | ``ShatterTransition/duration`` (3.0, 1.0, 2.0 s) |
  public var duration: Double {
    switch style {
    case .slide: 0.35
    case .fade, .zoom, .circleReveal: 0.5
    case .window: 0.45
    case .tilt3D: 2 * Transition.tiltPhase
    case .checkerboard, .explode, .glassBreak: shatter!.duration
    }
  }

  /// When every value has reached its end (≤ ``duration``; equal to it for
  /// every style but the shatter ones, whose last piece may land earlier).
  public var endTime: Double {
    shatter?.endTime ?? duration
  }

  /// A frame sized for this transition (allocate once, reuse every frame).
  /// - Complexity: O(pieces).
  public func makeFrame() -> TransitionFrame {
    var frame = TransitionFrame(style: style, width: width, height: height, shatter: shatter?.makeFrame())
    frame.layers.reserveCapacity((frame._shatter?.count ?? 3) + 1)
    return frame
  }

  /// Evaluates the transition at `time` into `frame`.
  ///
  /// `backend` and `threads` reach the shatter styles' batched transforms;
  /// the result is bit-identical for any `threads` and for every backend
  /// but `blas`, which rounds differently (see ``TransformBackend``).
  ///
  /// - Precondition: `time` is finite; `frame` came from this transition's
  ///   ``makeFrame()`` (same style and container).
  /// - Complexity: O(layers) (O(n log n) for n shatter pieces, which are
  ///   sorted by depth); no allocation once `frame` has been used, apart from
  ///   the shatter styles' `blas` backend.
  public func evaluate(
    at time: Double, into frame: inout TransitionFrame, backend: TransformBackend = .automatic,
    threads: Int = 1
  ) {
    precondition(time.isFinite, "Transition.evaluate: time must be finite, got \(time)")
    precondition(
      frame.style == style && frame.containerWidth == width && frame.containerHeight == height,
      "Transition.evaluate: the frame was made for another transition")
    frame.time = time
    frame.isComplete = time >= endTime
    frame.layers.removeAll(keepingCapacity: true)
    switch style {
    case .slide: _slide(at: time, into: &frame.layers)
    case .fade: _fade(at: time, into: &frame.layers)
    case .zoom: _zoom(at: time, into: &frame.layers)
    case .window: _window(at: time, into: &frame.layers)
    case .circleReveal: _circleReveal(at: time, into: &frame.layers)
    case .tilt3D: _tilt3D(at: time, into: &frame.layers)
    case .checkerboard, .explode, .glassBreak:
      _shatter(at: time, into: &frame, backend: backend, threads: threads)
    }
  }

  /// A fresh frame at `time` (allocates; use
  /// ``evaluate(at:into:backend:threads:)`` in loops).
  /// - Complexity: as ``evaluate(at:into:backend:threads:)``.
  public func frame(at time: Double, backend: TransformBackend = .automatic) -> TransitionFrame {
    var frame = makeFrame()
    evaluate(at: time, into: &frame, backend: backend)
    return frame
  }

  /// The frame at progress p ∈ [0, 1] (a paused interactive transition):
  /// transition time p·``duration``.
  /// - Complexity: as ``evaluate(at:into:backend:threads:)``.
  public func evaluate(
    progress: Double, into frame: inout TransitionFrame, backend: TransformBackend = .automatic,
    threads: Int = 1
  ) {
    precondition(progress.isFinite, "Transition.evaluate: progress must be finite, got \(progress)")
    evaluate(
      at: Swift.min(Swift.max(progress, 0), 1) * duration, into: &frame, backend: backend, threads: threads)
  }
}
