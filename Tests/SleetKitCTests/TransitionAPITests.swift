import SleetKitC
import SleetKitCHeader
import SleetMath
import SleetShatter
import SleetTransitions
import Testing

/// The checkerboard-plan and transition functions, called in-process: their
/// numbers and layers against the Swift API's, bit for bit, and the errors.
@Suite("C API: checkerboard plans and transitions")
struct TransitionAPITests {
  /// Calls `body` with the C options for `options` (the rect pointers live
  /// for the call).
  static func withOptions<R>(_ options: TransitionOptions, _ body: (inout sleet_transition_options) -> R) -> R {
    func c(_ r: Rect?) -> sleet_rect {
      r.map { sleet_rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) } ?? sleet_rect()
    }
    var image = c(options.imageRect)
    var target = c(options.targetRect)
    var button = c(options.button)
    return withUnsafePointer(to: &image) { image in
      withUnsafePointer(to: &target) { target in
        withUnsafePointer(to: &button) { button in
          var o = sleet_transition_options()
          if options.imageRect != nil { o.image_rect = image }
          if options.targetRect != nil { o.target_rect = target }
          if options.button != nil { o.button = button }
          if let d = options.divisor { (o.has_divisor, o.divisor) = (1, Int32(d)) }
          if let s = options.seed { (o.has_seed, o.seed) = (1, s) }
          return body(&o)
        }
      }
    }
  }

  /// Makes the C transition for `c`, or reports the failure.
  static func create(_ c: TransitionCase) -> (OpaquePointer?, sleet_status, String) {
    var error = sleet_error()
    var transition: OpaquePointer?
    let status = withOptions(c.options) { o in
      sleet_transition_create(c.style.rawValue, c.direction?.rawValue, c.width, c.height, &o, &transition, &error)
    }
    #expect(error.status == status)
    return (transition, status, message(error))
  }

  /// Evaluates (count first, then fill) and returns the layers.
  static func layers(_ transition: OpaquePointer, at time: Double) -> [sleet_transition_layer] {
    var error = sleet_error()
    var count = 0
    #expect(sleet_transition_evaluate(transition, time, &count, &error) == SLEET_OK, "\(message(error))")
    var out = [sleet_transition_layer](repeating: .init(), count: count)
    var written = 0
    #expect(sleet_transition_copy_layers(transition, &out, count, &written, &error) == SLEET_OK)
    #expect(written == count)
    return out
  }

  /// Every style, with the options it needs, at times before, during and
  /// after the transition.
  static let everyStyle: [TransitionCase] = TransitionStyle.allCases.flatMap { style -> [TransitionCase] in
    var options = TransitionOptions()
    switch style {
    case .zoom:
      options.imageRect = Rect(x: 24, y: 160, width: 160, height: 160)
      options.targetRect = Rect(x: 0, y: 88, width: 390, height: 390)
    case .circleReveal: options.button = Rect(x: 326, y: 56, width: 44, height: 44)
    case .explode, .glassBreak: options.seed = 11
    default: break
    }
    return style.directions.map {
      TransitionCase(style: style, direction: $0, width: 390, height: 844, options: options, time: 0)
    }
  }

  @Test(arguments: everyStyle)
  func layersAreTheSwiftAPIsBitForBit(_ c: TransitionCase) throws {
    let swift = try Transition(
      style: c.style, direction: c.direction, width: c.width, height: c.height, options: c.options)
    let (made, status, text) = Self.create(c)
    #expect(status == SLEET_OK, "\(text)")
    let transition = try #require(made)
    defer { sleet_transition_destroy(transition) }
    var duration = 0.0
    var end = 0.0
    var error = sleet_error()
    #expect(sleet_transition_get_times(transition, &duration, &end, &error) == SLEET_OK)
    #expect(duration == swift.duration && end == swift.endTime)
    for time in [-0.5, 0, 0.1, swift.duration / 2, swift.endTime * 0.9, swift.endTime, swift.duration + 1] {
      let expected = swift.frame(at: time).layers
      let layers = Self.layers(transition, at: time)
      #expect(layers.count == expected.count)
      for (i, (layer, reference)) in zip(layers, expected).enumerated() {
        let actual = withUnsafeBytes(of: layer) { Array($0) }
        #expect(firstDifference(actual, packed(reference), stride: 192) == nil, "\(c.style) t = \(time), layer \(i)")
      }
    }
  }

  @Test func badTransitionInputsAreErrors() {
    let rect = Rect(x: 0, y: 0, width: 10, height: 10)
    let cases: [(TransitionCase, sleet_status, String)] = [
      (
        .init(style: .slide, direction: .present, width: 390, height: 844, options: .init(), time: 0),
        SLEET_ERROR_INVALID_TRANSITION, "slide does not take the direction present; it takes push or pop"
      ),
      (
        .init(style: .fade, direction: nil, width: .nan, height: 844, options: .init(), time: 0),
        SLEET_ERROR_INVALID_TRANSITION, "width must be a finite number in (0, 100000] points, got nan"
      ),
      (
        .init(style: .fade, direction: nil, width: 390, height: -1, options: .init(), time: 0),
        SLEET_ERROR_INVALID_TRANSITION, "height must be a finite number"
      ),
      (
        .init(style: .zoom, direction: nil, width: 390, height: 844, options: .init(imageRect: rect), time: 0),
        SLEET_ERROR_INVALID_TRANSITION, "zoom needs targetRect"
      ),
      (
        .init(style: .fade, direction: nil, width: 390, height: 844, options: .init(button: rect), time: 0),
        SLEET_ERROR_INVALID_TRANSITION, "button does not apply to fade"
      ),
      (
        .init(
          style: .circleReveal, direction: nil, width: 390, height: 844,
          options: .init(button: Rect(x: .infinity, y: 0, width: 1, height: 1)), time: 0),
        SLEET_ERROR_INVALID_TRANSITION, "button (inf, 0, 1, 1) is not finite"
      ),
      (
        .init(style: .checkerboard, direction: nil, width: 390, height: 844, options: .init(divisor: -4), time: 0),
        SLEET_ERROR_INVALID_TRANSITION, "divisor -4 must be at least 1"
      ),
      (
        .init(style: .tilt3D, direction: nil, width: 390, height: 100, options: .init(), time: 0),
        SLEET_ERROR_INVALID_TRANSITION, "height must be at least 280 points for tilt3D"
      ),
    ]
    for (c, status, needle) in cases {
      let (made, actual, text) = Self.create(c)
      #expect(actual == status && made == nil, "\(c.style)")
      #expect(text.contains(needle), "\(text)")
    }
    var error = sleet_error()
    var transition: OpaquePointer?
    #expect(sleet_transition_create("Slide", nil, 390, 844, nil, &transition, &error) == SLEET_ERROR_INVALID_ARGUMENT)
    #expect(message(error).hasPrefix("unknown style \"Slide\" (styles: slide, fade,"))
    #expect(sleet_transition_create("slide", "up", 390, 844, nil, &transition, &error) == SLEET_ERROR_INVALID_ARGUMENT)
    #expect(message(error) == "unknown direction \"up\" (directions: push, pop, present, dismiss)")
    #expect(sleet_transition_create(nil, nil, 390, 844, nil, &transition, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(sleet_transition_create("fade", nil, 390, 844, nil, nil, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(message(error) == "out_transition is NULL")
    #expect(transition == nil)
  }

  @Test func evaluationChecksTimeAndCapacity() throws {
    let (made, _, _) = Self.create(
      .init(style: .checkerboard, direction: .push, width: 390, height: 844, options: .init(), time: 0))
    let transition = try #require(made)
    defer { sleet_transition_destroy(transition) }
    var error = sleet_error()
    var count = 0
    var written = 7
    // Before any evaluation: no layers.
    #expect(sleet_transition_copy_layers(transition, nil, 0, &written, &error) == SLEET_OK && written == 0)
    for time in [Double.nan, .infinity, -.infinity] {
      #expect(sleet_transition_evaluate(transition, time, &count, &error) == SLEET_ERROR_INVALID_ARGUMENT)
      #expect(message(error) == "time must be finite, got \(time)")
    }
    #expect(sleet_transition_evaluate(transition, 1, nil, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(sleet_transition_evaluate(nil, 1, &count, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(sleet_transition_get_times(nil, nil, nil, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(sleet_transition_get_times(transition, nil, nil, &error) == SLEET_OK)
    let all = Self.layers(transition, at: 1.5)
    #expect(all.count == 1 + 10 * 22)
    var some = [sleet_transition_layer](repeating: .init(), count: 3)
    #expect(sleet_transition_copy_layers(transition, &some, 3, &written, &error) == SLEET_ERROR_CAPACITY)
    #expect(message(error) == "capacity 3 is less than the 221 layers to copy")
    #expect(written == 3 && bytes(some) == bytes(Array(all.prefix(3))))
    #expect(sleet_transition_copy_layers(transition, nil, 3, &written, &error) == SLEET_ERROR_NULL_ARGUMENT)
    sleet_transition_destroy(nil)
  }

  @Test(arguments: [("push", 10), ("pop", 8), (nil, 3)] as [(String?, Int32)])
  func checkerboardPlanIsTheSwiftPlan(_ direction: String?, _ divisor: Int32) throws {
    var options = sleet_checkerboard_options()
    sleet_checkerboard_options_init(&options)
    #expect(options.divisor == 10 && options.duration == 3 && options.spacing == 160 && options.direction == nil)
    options.divisor = divisor
    options.spacing = 120
    let swift = CheckerboardPlan(
      width: 390, height: 844, direction: direction == "pop" ? .pop : .push, divisor: Int(divisor), spacing: 120)
    var error = sleet_error()
    var made: OpaquePointer?
    let status = { () -> sleet_status in
      guard let direction else { return sleet_checkerboard_create(390, 844, &options, &made, &error) }
      return direction.withCString {
        options.direction = $0
        return sleet_checkerboard_create(390, 844, &options, &made, &error)
      }
    }()
    #expect(status == SLEET_OK, "\(message(error))")
    let plan = try #require(made)
    defer { sleet_checkerboard_destroy(plan) }
    var info = sleet_checkerboard_info()
    #expect(sleet_checkerboard_get_info(plan, &info, &error) == SLEET_OK)
    #expect(info.columns == swift.columns && info.rows == swift.rows && info.tile_count == swift.tileCount)
    #expect(info.tile_side == swift.slice && info.tile_duration == swift.tileDuration)
    #expect(info.end_time == swift.endTime && info.duration == swift.duration)
    var tiles = [sleet_checkerboard_tile](repeating: .init(), count: info.tile_count)
    var written = 0
    #expect(sleet_checkerboard_copy_tiles(plan, &tiles, tiles.count, &written, &error) == SLEET_OK)
    #expect(written == swift.tileCount)
    let expected = swift.tiles
    for (c, s) in zip(tiles, expected) {
      #expect(Int(c.column) == s.column && Int(c.row) == s.row)
      #expect(c.delay.bitPattern == s.delay.bitPattern && c.duration.bitPattern == s.duration.bitPattern)
    }
    var few = [sleet_checkerboard_tile](repeating: .init(), count: 5)
    #expect(sleet_checkerboard_copy_tiles(plan, &few, 5, &written, &error) == SLEET_ERROR_CAPACITY && written == 5)
    #expect(bytes(few) == bytes(Array(tiles.prefix(5))))
  }

  @Test func badPlanInputsAreErrors() {
    var error = sleet_error()
    var plan: OpaquePointer?
    var options = sleet_checkerboard_options()
    sleet_checkerboard_options_init(&options)
    let cases: [(Double, Double, (inout sleet_checkerboard_options) -> Void, String)] = [
      (.nan, 844, { _ in }, "width must be a finite number in (0, 100000] points, got nan"),
      (390, 0, { _ in }, "height must be a finite number"),
      (390, 844, { $0.divisor = 0 }, "divisor 0 must be at least 1"),
      (390, 844, { $0.divisor = 1000 }, "gives a tile side round(390.0/1000) below 1 pt"),
      (100_000, 100_000, { $0.divisor = 100_000 }, "tiles exceed the limit of 4194304"),
      (390, 844, { $0.duration = 0 }, "duration must be finite and positive, got 0.0"),
      (390, 844, { $0.spacing = -.infinity }, "spacing must be finite and ≥ 0, got -inf"),
    ]
    for (w, h, change, needle) in cases {
      var o = options
      change(&o)
      #expect(sleet_checkerboard_create(w, h, &o, &plan, &error) == SLEET_ERROR_INVALID_ARGUMENT, "\(needle)")
      #expect(message(error).contains(needle), "\(message(error))")
    }
    "sideways".withCString {
      options.direction = $0
      #expect(sleet_checkerboard_create(390, 844, &options, &plan, &error) == SLEET_ERROR_INVALID_ARGUMENT)
    }
    #expect(message(error) == "options.direction must be \"push\" or \"pop\", got \"sideways\"")
    #expect(sleet_checkerboard_create(390, 844, nil, nil, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(sleet_checkerboard_get_info(nil, nil, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(sleet_checkerboard_copy_tiles(nil, nil, 0, nil, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(plan == nil)
    // NULL options: the defaults.
    #expect(sleet_checkerboard_create(390, 844, nil, &plan, &error) == SLEET_OK)
    var info = sleet_checkerboard_info()
    #expect(sleet_checkerboard_get_info(plan, &info, &error) == SLEET_OK && info.tile_count == 220)
    sleet_checkerboard_destroy(plan)
    sleet_checkerboard_options_init(nil)
  }
}
