import SleetMath
import SleetShatter
import SleetTransitions
import Testing

// Every way `Transition` refuses its inputs: the error case, the `field` it
// names and the whole message, for both the initialiser and
// `Transition.validate`.

@Suite("Transition input errors")
struct TransitionErrorTests {
  static let button = Rect(x: 16, y: 50, width: 44, height: 44)
  static let imageRect = Rect(x: 20, y: 100, width: 100, height: 80)
  static let targetRect = Rect(x: 0, y: 64, width: 390, height: 300)

  /// The options a style needs to be made at all.
  static func needed(_ style: TransitionStyle) -> TransitionOptions {
    switch style {
    case .zoom: TransitionOptions(imageRect: imageRect, targetRect: targetRect)
    case .circleReveal: TransitionOptions(button: button)
    default: TransitionOptions()
    }
  }

  /// Expects both `Transition.init` and `Transition.validate` to throw
  /// `expected` (compared by case and fields; pass nil when a NaN makes the
  /// error unequal to itself), naming `field`, with `message`.
  static func expectError(
    _ style: TransitionStyle, _ direction: TransitionDirection? = nil, width: Double = 390, height: Double = 844,
    options: TransitionOptions? = nil, _ expected: TransitionError?, field: String, message: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let options = options ?? needed(style)
    let thrown = #expect(throws: TransitionError.self, sourceLocation: sourceLocation) {
      _ = try Transition(style: style, direction: direction, width: width, height: height, options: options)
    }
    let validated = #expect(throws: TransitionError.self, sourceLocation: sourceLocation) {
      try Transition.validate(
        style: style, direction: direction ?? style.directions[0], width: width, height: height, options: options)
    }
    for error in [thrown, validated] {
      guard let error else { continue }
      if let expected { #expect(error == expected, sourceLocation: sourceLocation) }
      #expect(error.field == field, sourceLocation: sourceLocation)
      #expect(error.description == message, sourceLocation: sourceLocation)
    }
  }

  // MARK: - Directions

  @Test func everyStyleTakesOnlyItsDirections() throws {
    // Worked out from transitions.md and docs/semantics.md: navigation styles
    // push and pop, modal ones present and dismiss, explode and glass break
    // push only.
    let takes: [TransitionStyle: [TransitionDirection]] = [
      .slide: [.push, .pop], .fade: [.push, .pop], .zoom: [.push, .pop], .circleReveal: [.push, .pop],
      .checkerboard: [.push, .pop], .window: [.present, .dismiss], .tilt3D: [.present, .dismiss],
      .explode: [.push], .glassBreak: [.push],
    ]
    #expect(Set(takes.keys) == Set(TransitionStyle.allCases))
    for style in TransitionStyle.allCases {
      let accepted = takes[style]!
      for direction in TransitionDirection.allCases {
        if accepted.contains(direction) {
          let t = try Transition(
            style: style, direction: direction, width: 390, height: 844, options: Self.needed(style))
          #expect(t.direction == direction)
        } else {
          let list = accepted.map(\.rawValue).joined(separator: " or ")
          Self.expectError(
            style, direction, .unsupportedDirection(style: style, direction: direction), field: "direction",
            message: "\(style.rawValue) does not take the direction \(direction.rawValue); it takes \(list)")
        }
      }
    }
  }

  @Test func wrongDirectionMessages() {
    Self.expectError(
      .slide, .present, .unsupportedDirection(style: .slide, direction: .present), field: "direction",
      message: "slide does not take the direction present; it takes push or pop")
    Self.expectError(
      .window, .push, .unsupportedDirection(style: .window, direction: .push), field: "direction",
      message: "window does not take the direction push; it takes present or dismiss")
    Self.expectError(
      .explode, .pop, .unsupportedDirection(style: .explode, direction: .pop), field: "direction",
      message: "explode does not take the direction pop; it takes push")
    Self.expectError(
      .tilt3D, .pop, .unsupportedDirection(style: .tilt3D, direction: .pop), field: "direction",
      message: "tilt3D does not take the direction pop; it takes present or dismiss")
    Self.expectError(
      .glassBreak, .dismiss, .unsupportedDirection(style: .glassBreak, direction: .dismiss), field: "direction",
      message: "glassBreak does not take the direction dismiss; it takes push")
  }

  // MARK: - Container size

  @Test func sizesOutsideTheRange() {
    let cases: [(Double, String)] = [
      (0, "0"), (-1, "-1"), (.infinity, "inf"), (-.infinity, "-inf"), (100_001, "100001"), (100_000.5, "100000.5"),
      (1e300, "1e+300"),
    ]
    for (value, text) in cases {
      Self.expectError(
        .slide, width: value, .invalidSize(field: "width", value: value, limit: 100_000), field: "width",
        message: "width must be a finite number in (0, 100000] points, got \(text)")
      Self.expectError(
        .fade, height: value, .invalidSize(field: "height", value: value, limit: 100_000), field: "height",
        message: "height must be a finite number in (0, 100000] points, got \(text)")
    }
    // NaN is unequal to itself: checked by field and message.
    Self.expectError(
      .slide, width: .nan, nil, field: "width", message: "width must be a finite number in (0, 100000] points, got nan")
    Self.expectError(
      .zoom, height: .nan, nil, field: "height",
      message: "height must be a finite number in (0, 100000] points, got nan")
    // Width is checked first; sizes before anything else (here a wrong direction and a stray option).
    Self.expectError(
      .slide, .present, width: 0, height: -5, options: TransitionOptions(seed: 1),
      .invalidSize(field: "width", value: 0, limit: 100_000), field: "width",
      message: "width must be a finite number in (0, 100000] points, got 0")
    // Every style refuses the same sizes (the shatter styles' limit).
    for style in TransitionStyle.allCases {
      Self.expectError(
        style, width: 200_000, .invalidSize(field: "width", value: 200_000, limit: 100_000), field: "width",
        message: "width must be a finite number in (0, 100000] points, got 200000")
    }
    #expect(Transition.maximumSide == 100_000)
  }

  @Test func theLargestAndSmallestSizesAreAccepted() throws {
    _ = try Transition(style: .slide, width: 100_000, height: 100_000)
    _ = try Transition(style: .fade, width: 0.5, height: 1e-3)
  }

  @Test func tiltNeedsRoomForItsSheet() throws {
    Self.expectError(
      .tilt3D, height: 279, .containerTooSmall(style: .tilt3D, field: "height", value: 279, minimum: 280),
      field: "height", message: "height must be at least 280 points for tilt3D, got 279")
    Self.expectError(
      .tilt3D, .dismiss, height: 279.5,
      .containerTooSmall(style: .tilt3D, field: "height", value: 279.5, minimum: 280),
      field: "height", message: "height must be at least 280 points for tilt3D, got 279.5")
    _ = try Transition(style: .tilt3D, width: 390, height: 280)
    // The other styles take short containers.
    _ = try Transition(style: .slide, width: 390, height: 100)
  }

  // MARK: - Rects

  @Test func rectsOutsideTheContainer() throws {
    Self.expectError(
      .zoom,
      options: TransitionOptions(imageRect: Rect(x: 300, y: 0, width: 100, height: 100), targetRect: Self.targetRect),
      .invalidRect(
        field: "imageRect", rect: Rect(x: 300, y: 0, width: 100, height: 100),
        reason: "is not inside the 390×844 container"),
      field: "imageRect", message: "imageRect (300, 0, 100, 100) is not inside the 390×844 container")
    Self.expectError(
      .zoom, .pop,
      options: TransitionOptions(imageRect: Self.imageRect, targetRect: Rect(x: 0, y: 800, width: 390, height: 50)),
      .invalidRect(
        field: "targetRect", rect: Rect(x: 0, y: 800, width: 390, height: 50),
        reason: "is not inside the 390×844 container"),
      field: "targetRect", message: "targetRect (0, 800, 390, 50) is not inside the 390×844 container")
    Self.expectError(
      .circleReveal, options: TransitionOptions(button: Rect(x: -1, y: 10, width: 44, height: 44)),
      .invalidRect(
        field: "button", rect: Rect(x: -1, y: 10, width: 44, height: 44), reason: "is not inside the 390×844 container"),
      field: "button", message: "button (-1, 10, 44, 44) is not inside the 390×844 container")
    // Fractions print as they are, whole numbers without ".0".
    Self.expectError(
      .circleReveal, width: 390.5, options: TransitionOptions(button: Rect(x: 0.5, y: 1.25, width: 400, height: 10)),
      .invalidRect(
        field: "button", rect: Rect(x: 0.5, y: 1.25, width: 400, height: 10),
        reason: "is not inside the 390.5×844 container"),
      field: "button", message: "button (0.5, 1.25, 400, 10) is not inside the 390.5×844 container")
    // imageRect is checked before targetRect.
    Self.expectError(
      .zoom,
      options: TransitionOptions(
        imageRect: Rect(x: 0, y: 0, width: 391, height: 1), targetRect: Rect(x: 0, y: 0, width: 0, height: 0)),
      .invalidRect(
        field: "imageRect", rect: Rect(x: 0, y: 0, width: 391, height: 1), reason: "is not inside the 390×844 container"
      ),
      field: "imageRect", message: "imageRect (0, 0, 391, 1) is not inside the 390×844 container")
    // Edges may touch the container's.
    _ = try Transition(
      style: .zoom, width: 390, height: 844,
      options: TransitionOptions(imageRect: Rect(x: 0, y: 0, width: 390, height: 844), targetRect: Self.targetRect))
    _ = try Transition(
      style: .circleReveal, width: 390, height: 844,
      options: TransitionOptions(button: Rect(x: 346, y: 800, width: 44, height: 44)))
  }

  @Test func emptyRects() {
    Self.expectError(
      .zoom,
      options: TransitionOptions(imageRect: Rect(x: 10, y: 10, width: 0, height: 50), targetRect: Self.targetRect),
      .invalidRect(
        field: "imageRect", rect: Rect(x: 10, y: 10, width: 0, height: 50),
        reason: "is empty: width and height must be positive"),
      field: "imageRect", message: "imageRect (10, 10, 0, 50) is empty: width and height must be positive")
    Self.expectError(
      .circleReveal, .pop, options: TransitionOptions(button: Rect(x: 10, y: 10, width: 20, height: -4)),
      .invalidRect(
        field: "button", rect: Rect(x: 10, y: 10, width: 20, height: -4),
        reason: "is empty: width and height must be positive"),
      field: "button", message: "button (10, 10, 20, -4) is empty: width and height must be positive")
  }

  @Test func nonFiniteRects() {
    Self.expectError(
      .circleReveal, options: TransitionOptions(button: Rect(x: .nan, y: 0, width: 10, height: 10)), nil,
      field: "button", message: "button (nan, 0, 10, 10) is not finite")
    Self.expectError(
      .zoom,
      options: TransitionOptions(imageRect: Self.imageRect, targetRect: Rect(x: 0, y: 0, width: .infinity, height: 10)),
      .invalidRect(field: "targetRect", rect: Rect(x: 0, y: 0, width: .infinity, height: 10), reason: "is not finite"),
      field: "targetRect", message: "targetRect (0, 0, inf, 10) is not finite")
    // Not finite is reported before empty and outside.
    Self.expectError(
      .zoom,
      options: TransitionOptions(
        imageRect: Rect(x: -5, y: 0, width: 0, height: -.infinity), targetRect: Self.targetRect),
      .invalidRect(field: "imageRect", rect: Rect(x: -5, y: 0, width: 0, height: -.infinity), reason: "is not finite"),
      field: "imageRect", message: "imageRect (-5, 0, 0, -inf) is not finite")
  }

  @Test func missingOptions() {
    Self.expectError(
      .zoom, options: TransitionOptions(imageRect: Self.imageRect), .missingOption(style: .zoom, field: "targetRect"),
      field: "targetRect", message: "zoom needs targetRect")
    Self.expectError(
      .zoom, .pop, options: TransitionOptions(targetRect: Self.targetRect),
      .missingOption(style: .zoom, field: "imageRect"),
      field: "imageRect", message: "zoom needs imageRect")
    Self.expectError(
      .zoom, options: TransitionOptions(), .missingOption(style: .zoom, field: "imageRect"),
      field: "imageRect", message: "zoom needs imageRect")
    Self.expectError(
      .circleReveal, options: TransitionOptions(), .missingOption(style: .circleReveal, field: "button"),
      field: "button", message: "circleReveal needs button")
  }

  @Test func inapplicableOptions() {
    let cases: [(TransitionStyle, TransitionOptions, String)] = [
      (.slide, TransitionOptions(button: Self.button), "button"),
      (.checkerboard, TransitionOptions(seed: 3), "seed"),
      (.fade, TransitionOptions(divisor: 8), "divisor"),
      (.window, TransitionOptions(targetRect: Self.targetRect), "targetRect"),
      (.tilt3D, TransitionOptions(seed: 0), "seed"),
      (.circleReveal, TransitionOptions(imageRect: Self.imageRect, button: Self.button), "imageRect"),
      (.zoom, TransitionOptions(imageRect: Self.imageRect, targetRect: Self.targetRect, button: Self.button), "button"),
      (.zoom, TransitionOptions(imageRect: Self.imageRect, targetRect: Self.targetRect, divisor: 10), "divisor"),
      (.explode, TransitionOptions(button: Self.button, seed: 1), "button"),
      (.glassBreak, TransitionOptions(imageRect: Self.imageRect), "imageRect"),
      // The first stray one in the order imageRect, targetRect, button, divisor, seed.
      (.slide, TransitionOptions(button: Self.button, seed: 9), "button"),
      (.window, TransitionOptions(divisor: 2, seed: 9), "divisor"),
    ]
    for (style, options, field) in cases {
      Self.expectError(
        style, options: options, .inapplicableOption(style: style, field: field), field: field,
        message: "\(field) does not apply to \(style.rawValue)")
    }
    // A stray option is reported before a missing or bad rect.
    Self.expectError(
      .circleReveal, options: TransitionOptions(seed: 1), .inapplicableOption(style: .circleReveal, field: "seed"),
      field: "seed", message: "seed does not apply to circleReveal")
  }

  // MARK: - The shatter styles' own checks

  @Test func badDivisors() throws {
    Self.expectError(
      .checkerboard, options: TransitionOptions(divisor: 0),
      .invalidShatter(.invalidDivisor(0, reason: "must be at least 1")), field: "divisor",
      message: "divisor 0 must be at least 1")
    Self.expectError(
      .explode, options: TransitionOptions(divisor: -3, seed: 1),
      .invalidShatter(.invalidDivisor(-3, reason: "must be at least 1")), field: "divisor",
      message: "divisor -3 must be at least 1")
    // round(390/1000) = 0: no tile.
    Self.expectError(
      .checkerboard, .pop, options: TransitionOptions(divisor: 1000),
      .invalidShatter(.invalidDivisor(1000, reason: "gives a tile side round(390.0/1000) below 1 pt")),
      field: "divisor",
      message: "divisor 1000 gives a tile side round(390.0/1000) below 1 pt")
    // 390/500 = 0.78 pt pieces.
    Self.expectError(
      .explode, options: TransitionOptions(divisor: 500),
      .invalidShatter(.invalidDivisor(500, reason: "gives a piece side 390.0/500 below 1 pt")), field: "divisor",
      message: "divisor 500 gives a piece side 390.0/500 below 1 pt")
    Self.expectError(
      .glassBreak, options: TransitionOptions(divisor: 5000),
      .invalidShatter(.invalidDivisor(5000, reason: "(glass-break grid) must be in 1...4096")), field: "divisor",
      message: "divisor 5000 (glass-break grid) must be in 1...4096")
    // Too many pieces: 100 000² one-point tiles; a 4096 × 4096 glass-break grid.
    Self.expectError(
      .checkerboard, width: 100_000, height: 100_000, options: TransitionOptions(divisor: 100_000),
      .invalidShatter(.tooManyTiles(count: 10_000_000_000, limit: 4_194_304)), field: "divisor",
      message: "10000000000 tiles exceed the limit of 4194304")
    Self.expectError(
      .glassBreak, options: TransitionOptions(divisor: 4096),
      .invalidShatter(.tooManyTiles(count: 16_777_216, limit: 4_194_304)), field: "divisor",
      message: "16777216 tiles exceed the limit of 4194304")
    // The article's divisor is one option away and valid.
    let eight = try Transition(style: .checkerboard, width: 390, height: 844, options: TransitionOptions(divisor: 8))
    #expect(eight.shatter?.makeFrame().columns == 8)  // round(390/8) = 49 pt: ⌈390/49⌉ = 8 columns
  }
}
