import SleetMath
import SleetTransitions
import Testing

// Leftward pans (the back swipe mirrored for right-to-left layouts) and the
// fields pan recorders log besides time and translationX (`transitions.md`,
// Interactive transitions; `docs/transitions.md`, Gesture files). A pan's
// direction is the sign of its first non-zero translation; progress and
// velocity are measured along it, so a leftward pan replays exactly as its
// mirror image does; a leftward pan drives pop and dismiss only.

@Suite("Leftward pans")
struct LeftwardPanTests {
  typealias S = PanGesture.Sample

  static func gesture(_ points: [(Double, Double)]) throws -> PanGesture {
    try PanGesture(samples: points.map { S(time: $0.0, translationX: $0.1) })
  }

  /// The same samples with every translation negated.
  static func mirrored(_ gesture: PanGesture) throws -> PanGesture {
    try PanGesture(samples: gesture.samples.map { S(time: $0.time, translationX: -$0.translationX) })
  }

  static func pop(_ style: TransitionStyle) throws -> Transition {
    try Transition(style: style, direction: .pop, width: 390, height: 844)
  }

  /// Rightward pans of every kind the replay tests use: released past half
  /// moving back, short of half moving forward, exactly at half, flung past
  /// W, dragged back past the start, a single sample, on a shifted clock.
  static let rightward: [[(Double, Double)]] = [
    [(0, 0), (0.1, 78), (0.2, 195), (0.3, 273), (0.35, 234)],
    [(0, 0), (0.1, 100), (0.2, 140), (0.25, 156)],
    [(0, 0), (0.125, 190), (0.25, 195)],
    [(0, 0), (0.125, 500)],
    [(0, 3), (0.125, -50)],
    [(0.5, 120)],
    [(10, 0), (10.125, 117), (10.25, 234), (10.3, 229.7)],
    [(0, 0), (0.05, 0), (0.1, 33.3), (0.2, 210.9), (0.27, 401.2)],
  ]

  /// Mirroring a rightward pan gives a leftward one whose replay has the same
  /// bits at every clock: progress, transition time, finish decision, landing.
  @Test(arguments: [TransitionStyle.slide, .fade, .tilt3D], [0.5, 1, 3])
  func aMirroredPanReplaysBitForBit(style: TransitionStyle, speed: Double) throws {
    // Pop or dismiss: the directions a leftward pan drives.
    let transition = try Transition(style: style, direction: style.directions.last!, width: 390, height: 844)
    for points in Self.rightward {
      let right = try Self.gesture(points)
      let left = try Self.mirrored(right)
      let note = "\(points)"
      #expect(right.direction == .rightward && left.direction == .leftward, "\(note)")
      let interaction = InteractiveTransition(transition, completionSpeed: speed)
      let a = GestureReplay(right, extent: 390, interaction: interaction)
      let b = GestureReplay(left, extent: 390, interaction: interaction)
      #expect(left.forwardVelocity == right.velocity, "\(note)")
      #expect(left.velocity == -right.velocity, "\(note)")
      #expect(a.finishes == b.finishes, "\(note)")
      #expect(a.interaction == b.interaction, "\(note)")
      #expect(a.endClock.bitPattern == b.endClock.bitPattern, "\(note)")
      #expect(a.clocks(fps: 60, hold: 0.1) == b.clocks(fps: 60, hold: 0.1), "\(note)")
      var clocks = a.clocks(fps: 60, hold: 0.1)
      clocks += right.samples.map(\.time) + [right.startTime - 1, a.endClock + 1]
      for clock in clocks {
        #expect(a.progress(at: clock).bitPattern == b.progress(at: clock).bitPattern, "\(note) τ = \(clock)")
        #expect(
          a.transitionTime(at: clock).bitPattern == b.transitionTime(at: clock).bitPattern, "\(note) τ = \(clock)")
      }
    }
  }

  /// The first pan above mirrored, worked by hand: at 0.2 s the finger is
  /// 195 pt left of its start, p = ½; it lifts at 234 pt left (p = 0.6)
  /// moving back to the right at 780 pt/s, forward velocity −780; slide
  /// finishes (p > ½) and lands at 0.35 + 0.4·0.35 = 0.49.
  @Test func aLeftwardPanByHand() throws {
    let g = try Self.gesture([(0, 0), (0.1, -78), (0.2, -195), (0.3, -273), (0.35, -234)])
    #expect(g.direction == .leftward)
    #expect(g.translation(at: 0.2) == -195 && g.forwardTranslation(at: 0.2) == 195)
    #expect(g.forwardTranslation(at: -1) == 0)
    #expect(abs(g.velocity - 780) < 1e-9 && abs(g.forwardVelocity - -780) < 1e-9)
    let replay = GestureReplay(g, extent: 390, interaction: InteractiveTransition(try Self.pop(.slide)))
    #expect(replay.progress(at: 0.2) == 0.5)
    #expect(abs(replay.progress(at: 0.35) - 0.6) < 1e-15)
    #expect(replay.finishes)
    #expect(abs(replay.endClock - 0.49) < 1e-12 && replay.transitionTime(at: 0.49) == 0.35)
    // Fade finishes on forward velocity alone, but this pan moves back at
    // the end; released short of half it cancels.
    let short = try Self.gesture([(0, 0), (0.1, -150), (0.15, -140)])
    #expect(!GestureReplay(short, extent: 390, interaction: InteractiveTransition(try Self.pop(.fade))).finishes)
    // Still moving left: forward, so fade finishes.
    let forward = try Self.gesture([(0, 0), (0.1, -140), (0.15, -150)])
    #expect(abs(forward.forwardVelocity - 200) < 1e-9)
    #expect(GestureReplay(forward, extent: 390, interaction: InteractiveTransition(try Self.pop(.fade))).finishes)
  }

  /// A leftward pan whose finger comes back past where it started: the
  /// progress clamps to 0 (never negative), as UIKit's handler clamps.
  @Test func aLeftwardPanBackPastItsStartClampsToZero() throws {
    let g = try Self.gesture([(0, 0), (0.1, -117), (0.2, 20), (0.3, 80)])
    #expect(g.direction == .leftward)
    let replay = GestureReplay(g, extent: 390, interaction: InteractiveTransition(try Self.pop(.fade)))
    #expect(abs(replay.progress(at: 0.15) - 0.3) < 1e-15)
    #expect(replay.progress(at: 0.2) == 0 && replay.progress(at: 0.25) == 0)
    // Lifted at 80 pt right of the start moving right: p = 0, forward
    // velocity −600 pt/s, so even fade cancels; nothing is left to run back.
    #expect(abs(g.forwardVelocity - -600) < 1e-9)
    #expect(!replay.finishes)
    #expect(replay.endClock == 0.3 && replay.transitionTime(at: 0.3) == 0 && replay.transitionTime(at: 1) == 0)
    #expect(replay.interaction.phase(at: 0.3) == .cancelled)
  }

  @Test func theDirectionIsTheSignOfTheFirstNonZeroSample() throws {
    #expect(try Self.gesture([(0, 0), (0.1, -3), (0.2, 50)]).direction == .leftward)
    #expect(try Self.gesture([(0, 0), (0.1, 3), (0.2, -50)]).direction == .rightward)
    #expect(try Self.gesture([(0, -0.5)]).direction == .leftward)
    #expect(try Self.gesture([(0, 1e-300), (1, -400)]).direction == .rightward)
    // Every sample 0 (either sign of zero): rightward.
    #expect(try Self.gesture([(0, 0), (0.1, -0.0), (0.2, 0)]).direction == .rightward)
    #expect(try Self.gesture([(0, -0.0)]).direction == .rightward)
    // A rightward pan's forward numbers are its own.
    let r = try Self.gesture([(0, 0), (0.1, 30), (0.2, -10)])
    #expect(r.forwardTranslation(at: 0.25) == -10 && r.forwardVelocity == r.velocity)
    // From a file too.
    let file = try PanGesture(
      json: Array(#"{"samples": [{"time": 0, "translationX": 0}, {"time": 1, "translationX": -2}]}"#.utf8))
    #expect(file.direction == .leftward)
  }

  @Test func aLeftwardPanDrivesPopAndDismissOnly() throws {
    let left = try Self.gesture([(0, 0), (0.1, -40)])
    let right = try Self.gesture([(0, 0), (0.1, 40)])
    for direction in TransitionDirection.allCases {
      try right.check(drives: direction)
    }
    try left.check(drives: .pop)
    try left.check(drives: .dismiss)
    let push = #expect(throws: GestureError.self) { try left.check(drives: .push) }
    #expect(push == .leftwardPanCannotDrive(.push))
    #expect(
      push?.description
        == "a leftward pan (translationX < 0) drives pop or dismiss, not push; record the pan rightward or use direction pop"
    )
    let present = #expect(throws: GestureError.self) { try left.check(drives: .present) }
    #expect(present == .leftwardPanCannotDrive(.present))
    #expect(
      present?.description
        == "a leftward pan (translationX < 0) drives pop or dismiss, not present; record the pan rightward or use direction dismiss"
    )
  }
}

@Suite("Gesture file fields")
struct GestureFileFieldTests {
  typealias S = PanGesture.Sample

  static func read(_ text: String) throws -> PanGesture {
    try PanGesture(json: Array(text.utf8))
  }

  static func jsonError(_ text: String) -> GestureError? {
    #expect(throws: GestureError.self) { _ = try read(text) }
  }

  /// Three samples, each with `extra` spliced in after its translation.
  static func file(time: String = "time", extra: (Int) -> String = { _ in "" }) -> String {
    let samples = [(0.0, 0.0), (0.125, -150.0), (0.25, -170.0)].enumerated().map { i, s in
      #"{"\#(time)": \#(s.0), "translationX": \#(s.1)\#(extra(i))}"#
    }
    return #"{"samples": ["# + samples.joined(separator: ", ") + "]}"
  }

  static let plain = [
    S(time: 0, translationX: 0), S(time: 0.125, translationX: -150), S(time: 0.25, translationX: -170),
  ]

  /// Every field a recorder logs is read and ignored: the samples, direction,
  /// velocity and replay are those of the file without it.
  @Test(arguments: [
    (#""translationY": 12.5"#, "translationY"),
    (#""velocityX": -1e4"#, "velocityX"),
    (#""velocityY": 0"#, "velocityY"),
    (#""locationX": 388"#, "locationX"),
    (#""locationY": 402.33"#, "locationY"),
    (#""state": "changed""#, "state"),
    (#""state": 2"#, "state"),
    (#""velocityX": 1e999"#, "velocityX"),
  ])
  func anIgnoredFieldChangesNothing(field: String, name: String) throws {
    let without = try Self.read(Self.file())
    #expect(without.samples == Self.plain && without.ignoredFields.isEmpty)
    let with = try Self.read(Self.file(extra: { _ in ", " + field }))
    #expect(with.samples == without.samples)
    #expect(with.ignoredFields == [name])
    #expect(with.direction == .leftward && with.direction == without.direction)
    #expect(with.velocity.bitPattern == without.velocity.bitPattern)
    let pop = try Transition(style: .fade, direction: .pop, width: 390, height: 844)
    let a = GestureReplay(without, extent: 390, interaction: InteractiveTransition(pop))
    let b = GestureReplay(with, extent: 390, interaction: InteractiveTransition(pop))
    #expect(a.finishes == b.finishes && a.interaction == b.interaction)
    for clock in a.clocks(fps: 30) {
      #expect(a.transitionTime(at: clock).bitPattern == b.transitionTime(at: clock).bitPattern)
    }
    // On one sample only, too.
    let once = try Self.read(Self.file(extra: { $0 == 1 ? ", " + field : "" }))
    #expect(once.samples == Self.plain && once.ignoredFields == [name])
  }

  /// `velocityX` never replaces the velocity from the samples:
  /// (−170 − (−150)) / 0.125 = −160 pt/s whatever the recorder logged.
  @Test func aRecordedVelocityIsNotUsed() throws {
    let g = try Self.read(Self.file(extra: { _ in #", "velocityX": 900"# }))
    #expect(g.velocity == -160 && g.forwardVelocity == 160)
  }

  @Test func ignoredFieldsAreListedSortedOnce() throws {
    let g = try Self.read(
      Self.file(extra: { i in
        [
          #", "state": "began", "velocityY": 1, "locationX": 380"#,
          #", "translationY": 2, "state": 2, "locationY": 5"#,
          #", "velocityX": -3, "locationX": 300, "state": "ended""#,
        ][i]
      }))
    #expect(g.samples == Self.plain)
    #expect(g.ignoredFields == ["locationX", "locationY", "state", "translationY", "velocityX", "velocityY"])
    #expect(try PanGesture(samples: Self.plain).ignoredFields == [])
  }

  /// The example of `docs/transitions.md`, Gesture files: a right-edge pan
  /// as a handler logs it, read as its times and translations.
  @Test func theDocumentedExampleReads() throws {
    let g = try Self.read(
      """
      {"samples": [
        {"timestamp": 5021.25, "translationX": 0, "translationY": 0, "velocityX": 0, "state": "began"},
        {"timestamp": 5021.30, "translationX": -64.5, "translationY": 3, "velocityX": -1290, "state": "changed"},
        {"timestamp": 5021.35, "translationX": -141, "translationY": 5, "velocityX": -1530, "state": "ended"}
      ]}
      """)
    #expect(
      g.samples == [
        S(time: 5021.25, translationX: 0), S(time: 5021.30, translationX: -64.5),
        S(time: 5021.35, translationX: -141),
      ])
    #expect(g.ignoredFields == ["state", "translationY", "velocityX"])
    #expect(g.direction == .leftward)
    try g.check(drives: .pop)
  }

  @Test func timestampIsAnotherNameForTime() throws {
    let a = try Self.read(Self.file(time: "timestamp"))
    let b = try Self.read(Self.file())
    let c = try PanGesture(samples: Self.plain)
    #expect(a == b && a == c)
    #expect(a.ignoredFields.isEmpty)
    // Samples may mix the two names; a recorder's clock can start anywhere.
    let mixed = try Self.read(
      #"{"samples": [{"timestamp": 5021.25, "translationX": 0}, {"time": 5021.5, "translationX": 40}]}"#)
    #expect(mixed.samples == [S(time: 5021.25, translationX: 0), S(time: 5021.5, translationX: 40)])
    // Its value is checked as the time's is.
    let order = Self.jsonError(
      #"{"samples": [{"timestamp": 1, "translationX": 0}, {"timestamp": 0.5, "translationX": 40}]}"#)
    #expect(order == .outOfOrder(index: 1, time: 0.5, previous: 1))
  }

  @Test func aSampleHasExactlyOneTime() {
    let both = Self.jsonError(
      #"{"samples": [{"time": 0, "translationX": 0}, {"time": 1, "timestamp": 1, "translationX": 4}]}"#)
    #expect(both == .malformed("samples[1] has both time and timestamp (the same field): give one"))
    let neither = Self.jsonError(#"{"samples": [{"time": 0, "translationX": 0}, {"translationX": 4, "state": 1}]}"#)
    #expect(neither == .malformed("samples[1] has no time (or timestamp)"))
    #expect(neither?.description == "samples[1] has no time (or timestamp)")
    let twice = Self.jsonError(#"{"samples": [{"timestamp": 0, "timestamp": 1, "translationX": 0}]}"#)
    #expect(twice == .malformed("samples[0].timestamp appears twice"))
    let string = Self.jsonError(#"{"samples": [{"timestamp": "0", "translationX": 0}]}"#)
    #expect(string == .malformed("samples[0].timestamp must be a number, got the string '0'"))
  }

  /// A name the format does not know is an error (a typo is caught),
  /// and an ignored field must hold what recorders log there.
  @Test func otherFieldsAreStillRefused() {
    let unknown: [(String, String)] = [
      (#""translationx": 3"#, "samples[0].translationx"),
      (#""translationZ": 3"#, "samples[0].translationZ"),
      (#""velocity": 3"#, "samples[0].velocity"),
      (#""timeStamp": 3"#, "samples[0].timeStamp"),
      (#""State": "ended""#, "samples[0].State"),
    ]
    for (field, path) in unknown {
      let e = Self.jsonError(Self.file(extra: { $0 == 0 ? ", " + field : "" }))
      #expect(e == .unknownField(path), "\(field)")
      #expect(e?.description == "unknown field \(path)", "\(field)")
    }
    let wrong: [(String, String)] = [
      (#""translationY": "3""#, "samples[2].translationY must be a number, got the string '3'"),
      (#""velocityX": null"#, "samples[2].velocityX must be a number, got null"),
      (#""locationX": [1, 2]"#, "samples[2].locationX must be a number, got an array"),
      (#""state": true"#, "samples[2].state must be a string or a number, got true"),
      (#""state": {}"#, "samples[2].state must be a string or a number, got an object"),
      (#""velocityY": 1, "velocityY": 2"#, "samples[2].velocityY appears twice"),
    ]
    for (field, message) in wrong {
      let e = Self.jsonError(Self.file(extra: { $0 == 2 ? ", " + field : "" }))
      #expect(e == .malformed(message), "\(field)")
    }
  }
}
