import Glibc
import SleetMath
import SleetTransitions
import Testing
import _SleetTestSupport

// Recorded pan gestures and their replay through UIPercentDrivenInteractiveTransition's
// semantics (`transitions.md`, Interactive transitions): p = translation.x / W
// clamped to [0, 1], the transition paused at p·D while the finger moves; when
// it lifts, the style's rule (slide: p > 0.5; fade: p > 0.5 or v > 0) decides,
// and the completion runs to D (or back to 0) at completionSpeed, the transition
// time linear in the clock. Every expected number below is worked by hand.

@Suite("Pan gestures and their replay")
struct GestureTests {
  typealias S = PanGesture.Sample

  static func gesture(_ points: [(Double, Double)]) throws -> PanGesture {
    try PanGesture(samples: points.map { S(time: $0.0, translationX: $0.1) })
  }

  static func error(_ points: [(Double, Double)]) -> GestureError? {
    #expect(throws: GestureError.self) { _ = try gesture(points) }
  }

  static func jsonError(_ text: String) -> GestureError? {
    #expect(throws: GestureError.self) { _ = try PanGesture(json: Array(text.utf8)) }
  }

  // MARK: - Validation

  @Test func emptyGesture() {
    let e = Self.error([])
    #expect(e == .empty)
    #expect(e?.description == "a gesture needs at least one sample")
  }

  @Test func nonFiniteNumbers() {
    let e = Self.error([(0, 0), (.infinity, 5)])
    #expect(e == .notFinite(field: "samples[1].time", value: .infinity))
    #expect(e?.description == "samples[1].time must be finite, got inf")
    // NaN is unequal to itself: match the case.
    let n = Self.error([(0, .nan)])
    guard case .notFinite(let field, let value)? = n else {
      Issue.record("expected notFinite, got \(String(describing: n))")
      return
    }
    #expect(field == "samples[0].translationX" && value.isNaN)
    #expect(n?.description == "samples[0].translationX must be finite, got nan")
    let t = Self.error([(0, 0), (0.1, 3), (.nan, 4)])
    #expect(t?.description == "samples[2].time must be finite, got nan")
  }

  @Test func timesMustStrictlyIncrease() {
    let back = Self.error([(0, 0), (0.2, 10), (0.1, 20)])
    #expect(back == .outOfOrder(index: 2, time: 0.1, previous: 0.2))
    #expect(
      back?.description == "samples[2].time 0.1 is not after samples[1].time 0.2: samples must be in increasing time")
    let equal = Self.error([(0, 0), (0.1, 10), (0.1, 20)])
    #expect(equal == .outOfOrder(index: 2, time: 0.1, previous: 0.1))
    #expect(
      equal?.description == "samples[2].time 0.1 is not after samples[1].time 0.1: samples must be in increasing time")
    let first = Self.error([(1, 0), (0.5, 10)])
    #expect(first == .outOfOrder(index: 1, time: 0.5, previous: 1))
  }

  @Test func aValidGesture() throws {
    let g = try Self.gesture([(-0.5, 0), (0, 10)])  // any clock origin
    #expect(g.samples == [S(time: -0.5, translationX: 0), S(time: 0, translationX: 10)])
    #expect(g.startTime == -0.5 && g.endTime == 0)
    let one = try Self.gesture([(3, 7)])
    #expect(one.startTime == 3 && one.endTime == 3)
  }

  // MARK: - The JSON reader

  @Test func readsAGestureFile() throws {
    let text = """
      {"samples": [
        {"time": 0, "translationX": 0},
        {"time": 0.125, "translationX": 12.5},
        {"translationX": -3e1, "time": 0.25}
      ]}
      """
    let g = try PanGesture(json: Array(text.utf8))
    #expect(
      g.samples == [
        S(time: 0, translationX: 0), S(time: 0.125, translationX: 12.5), S(time: 0.25, translationX: -30),
      ])
    // From a file on disk, too.
    let folder = makeTemporaryFolder(prefix: "sleet-gesture")
    defer { removeTree(folder) }
    let path = folder + "/pan.json"
    let file = try #require(fopen(path, "wb"))
    let bytes = Array(text.utf8)
    #expect(fwrite(bytes, 1, bytes.count, file) == bytes.count)
    fclose(file)
    #expect(try PanGesture(contentsOfFile: path) == g)
    let missing = #expect(throws: GestureError.self) { _ = try PanGesture(contentsOfFile: folder + "/none.json") }
    #expect(missing == .unreadable(path: folder + "/none.json"))
    #expect(missing?.description == "cannot read \(folder)/none.json: no such file, or not a readable file")
    let isFolder = #expect(throws: GestureError.self) { _ = try PanGesture(contentsOfFile: folder) }
    #expect(isFolder == .unreadable(path: folder))
  }

  @Test func unknownFields() {
    let top = Self.jsonError(#"{"samples": [{"time": 0, "translationX": 0}], "velocity": 3}"#)
    #expect(top == .unknownField("velocity"))
    #expect(top?.description == "unknown field velocity")
    let inner = Self.jsonError(
      #"{"samples": [{"time": 0, "translationX": 0}, {"time": 1, "translationX": 2, "y": 3}]}"#)
    #expect(inner == .unknownField("samples[1].y"))
    #expect(inner?.description == "unknown field samples[1].y")
  }

  @Test func duplicateFields() {
    let top = Self.jsonError(#"{"samples": [], "samples": []}"#)
    #expect(top == .malformed("samples appears twice"))
    let inner = Self.jsonError(#"{"samples": [{"time": 0, "time": 1, "translationX": 0}]}"#)
    #expect(inner == .malformed("samples[0].time appears twice"))
    #expect(inner?.description == "samples[0].time appears twice")
  }

  @Test func wrongTypesAndMissingFields() {
    let cases: [(String, String)] = [
      (#"[1, 2]"#, "the top level must be an object, got an array"),
      (#"{"samples": {"time": 0}}"#, "samples must be an array, got an object"),
      (#"{"samples": 3}"#, "samples must be an array, got 3"),
      (#"{"samples": [3]}"#, "samples[0] must be an object, got 3"),
      (#"{"samples": [{"time": "0.1", "translationX": 0}]}"#, "samples[0].time must be a number, got the string '0.1'"),
      (
        #"{"samples": [{"time": 0, "translationX": 0}, {"time": 1, "translationX": null}]}"#,
        "samples[1].translationX must be a number, got null"
      ),
      (#"{"samples": [{"time": true, "translationX": 0}]}"#, "samples[0].time must be a number, got true"),
      (#"{}"#, "missing field samples"),
      (#"{"samples": [{"time": 0}]}"#, "samples[0] has no translationX"),
      (#"{"samples": [{"translationX": 0}]}"#, "samples[0] has no time (or timestamp)"),
    ]
    for (text, message) in cases {
      let e = Self.jsonError(text)
      #expect(e == .malformed(message), "\(text)")
      #expect(e?.description == message, "\(text)")
    }
    // A syntax error says where.
    let syntax = Self.jsonError(#"{"samples": [}"#)
    guard case .malformed(let reason)? = syntax else {
      Issue.record("expected malformed, got \(String(describing: syntax))")
      return
    }
    #expect(reason.hasPrefix("line 1, column 14: "), "\(reason)")
    // An empty list is the empty gesture.
    #expect(Self.jsonError(#"{"samples": []}"#) == .empty)
  }

  @Test func outOfOrderInAFileNamesTheSample() {
    let e = Self.jsonError(
      #"{"samples": [{"time": 0, "translationX": 0}, {"time": 0.2, "translationX": 5}, {"time": 0.15, "translationX": 9}]}"#
    )
    #expect(e == .outOfOrder(index: 2, time: 0.15, previous: 0.2))
    #expect(
      e?.description == "samples[2].time 0.15 is not after samples[1].time 0.2: samples must be in increasing time")
    // A number too large for a Double is not finite.
    let big = Self.jsonError(#"{"samples": [{"time": 0, "translationX": 1e999}]}"#)
    #expect(big == .notFinite(field: "samples[0].translationX", value: .infinity))
  }

  // MARK: - Velocity and stepping

  @Test func velocityFromTheLastTwoSamples() throws {
    // (70 − 40) / (0.25 − 0.125) = 240 pt/s; the earlier samples do not count.
    #expect(try Self.gesture([(0, 0), (0.125, 40), (0.25, 70)]).velocity == 240)
    #expect(try Self.gesture([(0, 500), (0.125, 40), (0.25, 70)]).velocity == 240)
    // Moving back: (10 − 70) / 0.5 = −120.
    #expect(try Self.gesture([(0, 0), (0.25, 70), (0.75, 10)]).velocity == -120)
    // One sample: 0.
    #expect(try Self.gesture([(0.5, 100)]).velocity == 0)
  }

  @Test func translationStepsAtEachSample() throws {
    let g = try Self.gesture([(0.5, 10), (0.75, 30), (1.0, 25)])
    let expected: [(Double, Double)] = [
      (-1, 0), (0.4999, 0), (0.5, 10), (0.6, 10), (0.7499, 10), (0.75, 30), (0.99, 30), (1.0, 25), (5, 25),
    ]
    for (clock, x) in expected {
      #expect(g.translation(at: clock) == x, "clock \(clock)")
    }
  }

  // MARK: - Replay

  static func pop(_ style: TransitionStyle) throws -> Transition {
    try Transition(style: style, direction: .pop, width: 390, height: 844)
  }

  /// Checks t(τ) = start ± speed·(τ − lift) on the completion, and the ends.
  static func expectLinearCompletion(
    _ replay: GestureReplay, lift: Double, startTime: Double, speed: Double, endClock: Double, endTime: Double,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(abs(replay.endClock - endClock) < 1e-12, "endClock \(replay.endClock)", sourceLocation: sourceLocation)
    let direction = endTime > startTime ? 1.0 : -1.0
    for k in 0...20 {
      let clock = lift + (endClock - lift) * Double(k) / 20
      let expected = startTime + direction * speed * (clock - lift)
      #expect(
        abs(replay.transitionTime(at: clock) - expected) < 1e-12,
        "τ = \(clock): \(replay.transitionTime(at: clock)) vs \(expected)",
        sourceLocation: sourceLocation)
    }
    #expect(replay.transitionTime(at: endClock) == endTime, sourceLocation: sourceLocation)
    #expect(replay.transitionTime(at: endClock + 1) == endTime, sourceLocation: sourceLocation)
  }

  /// A slide pop dragged to 0.6·W = 234 and released moving back (v < 0):
  /// p = 0.6 > 0.5, so it finishes; the rest, (1 − 0.6)·0.35 = 0.14 s of
  /// transition time, plays in 0.14 s of clock; it lands at 0.35 + 0.14 = 0.49.
  @Test func slidePopPastHalfFinishesEvenMovingBack() throws {
    let slide = try Self.pop(.slide)
    let g = try Self.gesture([(0, 0), (0.1, 78), (0.2, 195), (0.3, 273), (0.35, 234)])
    #expect(abs(g.velocity - -780) < 1e-9)  // (234 − 273) / 0.05
    let replay = GestureReplay(g, extent: 390, interaction: InteractiveTransition(slide))
    #expect(replay.finishes)
    #expect(replay.interaction.finishRule == .pastHalf)
    // While dragging: p·D with p the latest sample / 390.
    let dragging: [(Double, Double)] = [
      (-1, 0), (0, 0), (0.05, 0), (0.1, 0.2 * 0.35), (0.15, 0.2 * 0.35), (0.2, 0.175), (0.3, 0.7 * 0.35),
      (0.3499, 0.7 * 0.35),
    ]
    for (clock, time) in dragging {
      #expect(abs(replay.transitionTime(at: clock) - time) < 1e-12, "τ = \(clock)")
    }
    // The finger lifts at 0.35 with p = 0.6: t = 0.21.
    #expect(abs(replay.progress(at: 0.35) - 0.6) < 1e-15)
    Self.expectLinearCompletion(replay, lift: 0.35, startTime: 0.21, speed: 1, endClock: 0.49, endTime: 0.35)
    #expect(replay.interaction.phase(at: 0.49) == .finished && replay.interaction.phase(at: 0.45) == .finishing)
    // The frames follow: at τ = 0.2 the transition is at D/2, so the from
    // screen is at 390·ease(½) = 195; at τ = 0.42 it is at 0.28 s, fraction
    // 0.8, so at 390·ease(0.8); at the end it is off screen and complete.
    var frame = slide.makeFrame()
    slide.evaluate(at: replay.transitionTime(at: 0.2), into: &frame)
    #expect(close(frame.layers[2].corners.topLeft.x, 195))
    slide.evaluate(at: replay.transitionTime(at: 0.42), into: &frame)
    #expect(close(frame.layers[2].corners.topLeft.x, 390 * referenceEase(0.8)))
    slide.evaluate(at: replay.transitionTime(at: replay.endClock), into: &frame)
    #expect(frame.isComplete && frame.layers[2].corners.topLeft.x == 390)
  }

  @Test func completionSpeedScalesTheCompletion() throws {
    let slide = try Self.pop(.slide)
    let g = try Self.gesture([(0, 0), (0.1, 78), (0.2, 195), (0.3, 273), (0.35, 234)])
    // Speed 2: Δ = 0.4·0.35 / 2 = 0.07; lands at 0.42; t(τ) = 0.21 + 2(τ − 0.35).
    let fast = GestureReplay(g, extent: 390, interaction: InteractiveTransition(slide, completionSpeed: 2))
    #expect(abs(fast.interaction.completionDuration - 0.07) < 1e-15)
    Self.expectLinearCompletion(fast, lift: 0.35, startTime: 0.21, speed: 2, endClock: 0.42, endTime: 0.35)
    #expect(abs(fast.transitionTime(at: 0.385) - 0.28) < 1e-12)
  }

  /// Dragged to 0.4·W = 156 and released still moving forward, 16 pt in
  /// 0.05 s = 320 pt/s: slide's rule is p > 0.5 only, so it cancels, running
  /// back 0.4·0.35 = 0.14 s to land at 0.25 + 0.14 = 0.39; fade's rule also
  /// finishes when v > 0, running on 0.6·0.5 = 0.3 s to land at 0.55.
  @Test func forwardVelocityFinishesFadeButNotSlide() throws {
    let g = try Self.gesture([(0, 0), (0.1, 100), (0.2, 140), (0.25, 156)])
    #expect(abs(g.velocity - 320) < 1e-9)

    let slide = try Self.pop(.slide)
    let s = GestureReplay(g, extent: 390, interaction: InteractiveTransition(slide))
    #expect(!s.finishes)
    Self.expectLinearCompletion(s, lift: 0.25, startTime: 0.14, speed: 1, endClock: 0.39, endTime: 0)
    #expect(abs(s.transitionTime(at: 0.32) - 0.07) < 1e-12)
    #expect(s.interaction.phase(at: 0.39) == .cancelled)
    var frame = slide.makeFrame()
    slide.evaluate(at: s.transitionTime(at: s.endClock), into: &frame)
    #expect(frame.layers[2].corners.topLeft.x == 0 && frame.layers[1].opacity == Float(0.3))

    let fade = try Self.pop(.fade)
    let f = GestureReplay(g, extent: 390, interaction: InteractiveTransition(fade))
    #expect(f.finishes)
    #expect(f.interaction.finishRule == .pastHalfOrForward)
    Self.expectLinearCompletion(f, lift: 0.25, startTime: 0.2, speed: 1, endClock: 0.55, endTime: 0.5)
    #expect(abs(f.transitionTime(at: 0.4) - 0.35) < 1e-12)
    #expect(f.interaction.phase(at: 0.55) == .finished)
    var fading = fade.makeFrame()
    fade.evaluate(at: f.transitionTime(at: 0.4), into: &fading)  // 0.35 s: fraction 0.7
    #expect(close(fading.layers[1].opacity, 1 - referenceEase(0.7), 3e-6))

    // Speed ½: Δ = 0.6·0.5 / 0.5 = 0.6, lands at 0.85; t(τ) = 0.2 + ½(τ − 0.25).
    let slow = GestureReplay(g, extent: 390, interaction: InteractiveTransition(fade, completionSpeed: 0.5))
    Self.expectLinearCompletion(slow, lift: 0.25, startTime: 0.2, speed: 0.5, endClock: 0.85, endTime: 0.5)
    #expect(abs(slow.transitionTime(at: 0.45) - 0.3) < 1e-12)
  }

  @Test func theRulesAtTheirEdges() throws {
    let slide = try Self.pop(.slide)
    let fade = try Self.pop(.fade)
    // p = ½ exactly and v = 0: neither rule finishes (both are strict).
    let still = try Self.gesture([(0, 0), (0.125, 195), (0.25, 195)])
    #expect(still.velocity == 0)
    #expect(!GestureReplay(still, extent: 390, interaction: InteractiveTransition(slide)).finishes)
    #expect(!GestureReplay(still, extent: 390, interaction: InteractiveTransition(fade)).finishes)
    // p = ½ and v = (195 − 190)/0.125 = 40 > 0: fade finishes, slide cancels.
    let creeping = try Self.gesture([(0, 0), (0.125, 190), (0.25, 195)])
    #expect(!GestureReplay(creeping, extent: 390, interaction: InteractiveTransition(slide)).finishes)
    let f = GestureReplay(creeping, extent: 390, interaction: InteractiveTransition(fade))
    #expect(f.finishes)
    Self.expectLinearCompletion(f, lift: 0.25, startTime: 0.25, speed: 1, endClock: 0.5, endTime: 0.5)
    // Dragged right, then back past the start: p clamps to 0, nothing left
    // to cancel. (A pan whose first move is to the left is a leftward pan,
    // measured the other way: LeftwardPanTests.)
    let back = try Self.gesture([(0, 0), (0.0625, 10), (0.125, -50)])
    #expect(back.direction == .rightward)
    let b = GestureReplay(back, extent: 390, interaction: InteractiveTransition(slide))
    #expect(!b.finishes && b.endClock == 0.125 && b.transitionTime(at: 0.125) == 0)
    // Flung past W: p clamps to 1 and it is already over.
    let fling = try Self.gesture([(0, 0), (0.125, 500)])
    let l = GestureReplay(fling, extent: 390, interaction: InteractiveTransition(slide))
    #expect(l.finishes && l.endClock == 0.125 && l.transitionTime(at: 0.125) == 0.35)
    #expect(l.transitionTime(at: 0.124) == 0)  // before the second sample: the first, 0
  }

  /// `endClock` is where the completion lands: there the progress is exactly
  /// 1 or 0, the phase finished or cancelled and the frame at its end, for any
  /// lift time, position and speed. (Comparing τ − τ₀ ≥ Δ instead of
  /// τ ≥ τ₀ + Δ missed the landing by an ulp for about half of these.)
  @Test func theCompletionHasLandedAtEndClock() throws {
    let slide = try Self.pop(.slide)
    var frame = slide.makeFrame()
    var cases: [(Double, Double, Double)] = [(0.5061533404340568, 135.30829941167568, 3)]
    for k in 0..<400 {
      cases.append((0.5 + Double(k) * 0.0173, Double(k * 37 % 391) + 0.3, [0.5, 1, 1.5, 3][k % 4]))
    }
    for (lift, x, speed) in cases {
      let g = try Self.gesture([(lift - 0.1, 0), (lift, x)])
      let replay = GestureReplay(g, extent: 390, interaction: InteractiveTransition(slide, completionSpeed: speed))
      let note = "lift \(lift), x \(x), speed \(speed)"
      #expect(replay.progress(at: replay.endClock) == (replay.finishes ? 1 : 0), "\(note)")
      #expect(replay.interaction.phase(at: replay.endClock) == (replay.finishes ? .finished : .cancelled), "\(note)")
      slide.evaluate(at: replay.transitionTime(at: replay.endClock), into: &frame)
      #expect(frame.time == (replay.finishes ? 0.35 : 0) && frame.isComplete == replay.finishes, "\(note)")
    }
  }

  /// A gesture recorded on another clock: the same numbers shifted by 10 s.
  @Test func anyClockOrigin() throws {
    let slide = try Self.pop(.slide)
    let g = try Self.gesture([(10, 0), (10.125, 117), (10.25, 234)])
    #expect(g.velocity == 936)  // 117 / 0.125
    let replay = GestureReplay(g, extent: 390, interaction: InteractiveTransition(slide))
    #expect(replay.finishes)
    #expect(replay.transitionTime(at: 9) == 0)
    #expect(abs(replay.transitionTime(at: 10.2) - 0.3 * 0.35) < 1e-12)
    Self.expectLinearCompletion(replay, lift: 10.25, startTime: 0.21, speed: 1, endClock: 10.39, endTime: 0.35)
    // Frame clocks: from the first sample to the landing plus the hold, 1/fps apart.
    let clocks = replay.clocks(fps: 50, hold: 0.1)
    #expect(clocks.first == 10)
    #expect(abs(clocks.last! - 10.49) < 1e-12)
    #expect(zip(clocks, clocks.dropFirst()).allSatisfy { $1 > $0 && $1 - $0 <= 0.02 + 1e-12 })
    #expect(zip(clocks, clocks.dropFirst()).dropLast().allSatisfy { abs($1 - $0 - 0.02) < 1e-9 })
  }
}

/// Gesture files are untrusted input: read up to SleetLimits.jsonFileBytes
/// (docs/reliability.md, "Limits").
@Suite("gesture file limits")
struct GestureFileLimitTests {
  @Test func gestureFilesAreReadUpTo16MiB() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-gesture")
    defer { removeTree(folder) }
    let big = folder + "/big.json"
    let fd = open(big, O_CREAT | O_WRONLY, 0o644)
    #expect(fd >= 0 && ftruncate(fd, off_t(SleetLimits.jsonFileBytes + 1)) == 0)
    close(fd)
    let tooLarge = #expect(throws: GestureError.self) { _ = try PanGesture(contentsOfFile: big) }
    #expect(tooLarge == .tooLarge(path: big, limit: 16 << 20))
    #expect(
      tooLarge?.description == "cannot read \(big): larger than 16 MiB, the limit for gesture files (SleetLimits)")
    // A device that never ends stops at the limit.
    let endless = #expect(throws: GestureError.self) { _ = try PanGesture(contentsOfFile: "/dev/zero") }
    #expect(endless == .tooLarge(path: "/dev/zero", limit: 16 << 20))
  }
}
