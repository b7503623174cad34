import SleetShatter

/// Every transition style SleetKit draws: the reference articles' view
/// transitions (seeds 000–004) and the three shatter styles, all evaluated
/// into the same ``TransitionFrame``.
public enum TransitionStyle: String, Hashable, Sendable, CaseIterable, Codable {
  /// Seed 000: the new screen slides in from the right over a dimming layer
  /// (0.35 s).
  case slide
  /// Seed 001: cross-fade (0.5 s).
  case fade
  /// Seed 002a: the photo-feed push: an image flies from its rect on the
  /// from screen to its rect on the to screen while the to screen fades in
  /// (0.5 s).
  case zoom
  /// Seed 002b: a small centred window grows out of a 1-point sliver over a
  /// dimming layer (0.45 s).
  case window
  /// Seed 003: the to screen is revealed by a circle growing out of a
  /// button (0.5 s, a documented decision: the article gives no duration).
  case circleReveal
  /// Seed 004: the from screen tilts back 15° in perspective and shrinks
  /// while a 280-point half sheet slides up (0.6 s in two phases).
  case tilt3D
  /// Apple's checkerboard: square tiles flip in 3D along the diagonal.
  case checkerboard
  /// Pieces fly apart, spin, shrink and fade.
  case explode
  /// Irregular shards fall away.
  case glassBreak

  /// The directions the style accepts; the first is its default.
  ///
  /// Navigation styles take push and pop, modal ones present and dismiss.
  /// Explode and glass break have no reverse in their samples (the pieces
  /// fly off the from screen and never reassemble), so they take push only.
  public var directions: [TransitionDirection] {
    switch self {
    case .slide, .fade, .zoom, .circleReveal, .checkerboard: [.push, .pop]
    case .window, .tilt3D: [.present, .dismiss]
    case .explode, .glassBreak: [.push]
    }
  }

  /// The style's default direction (push or present).
  public var defaultDirection: TransitionDirection { directions[0] }

  /// The shatter style this style is, if it is one.
  public var shatterStyle: ShatterStyle? {
    switch self {
    case .checkerboard: .checkerboard
    case .explode: .explode
    case .glassBreak: .glassBreak
    default: nil
    }
  }

  /// Which reference article the style comes from (`000`…`004`), or the
  /// sample it follows.
  public var source: String {
    switch self {
    case .slide: "seed 000"
    case .fade: "seed 001"
    case .zoom: "seed 002a"
    case .window: "seed 002b"
    case .circleReveal: "seed 003"
    case .tilt3D: "seed 004"
    case .checkerboard: "Apple's checkerboard sample (seed 002)"
    case .explode: "VCTransitionsLibrary's explode"
    case .glassBreak: "VariousViewsEffects' glass break"
    }
  }

  /// How an interactive transition of this style decides, when the gesture
  /// ends, whether to finish or cancel.
  ///
  /// Seed 000 (slide) finishes only past half way; seed 001 (fade) also
  /// when the finger still moves forward. The other articles have no
  /// interactive version: they use seed 001's rule, the one
  /// `UIPercentDrivenInteractiveTransition` samples use most (a documented
  /// decision, `docs/semantics.md`).
  public var finishRule: FinishRule {
    self == .slide ? .pastHalf : .pastHalfOrForward
  }
}

/// The direction of a transition, with UIKit's roles: on push and present the
/// to screen arrives; on pop and dismiss the from screen (the one on top)
/// leaves.
public enum TransitionDirection: String, Hashable, Sendable, CaseIterable, Codable {
  /// Navigation push and pop; modal present and dismiss.
  case push, pop, present, dismiss

  /// Whether the transition brings a screen in (push, present) rather than
  /// taking one away (pop, dismiss).
  public var isForward: Bool { self == .push || self == .present }
}

/// When an interactive transition finishes rather than cancels, given the
/// progress p and the gesture's velocity v at the moment it ends.
public enum FinishRule: String, Hashable, Sendable, CaseIterable, Codable {
  /// p > 0.5 (seed 000).
  case pastHalf
  /// p > 0.5 or v > 0 (seed 001).
  case pastHalfOrForward

  /// Whether a gesture ending at `progress` with `velocity` (positive toward
  /// completion) finishes the transition.
  /// - Complexity: O(1).
  public func finishes(progress: Double, velocity: Double) -> Bool {
    switch self {
    case .pastHalf: progress > 0.5
    case .pastHalfOrForward: progress > 0.5 || velocity > 0
    }
  }
}
