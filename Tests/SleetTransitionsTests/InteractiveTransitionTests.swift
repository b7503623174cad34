import SleetMath
import SleetShatter
import Testing

@testable import SleetTransitions

@Suite("Interactive transitions")
struct InteractiveTransitionTests {
  @Test func finishLandsExactlyOnOne() {
    var i = InteractiveTransition(duration: 2.8, completionSpeed: 1.5)
    i.update(0.3)
    #expect(i.progress(at: 100) == 0.3 && i.phase(at: 100) == .interactive)
    i.finish(at: 10)
    let span = 0.7 * 2.8 / 1.5
    #expect(abs(i.completionDuration - span) < 1e-12)
    #expect(i.progress(at: 10) == 0.3)
    let mid = i.progress(at: 10 + span / 2)
    // The default completion curve is linear: half the span, half the rest.
    #expect(abs(mid - (0.3 + 0.7 * 0.5)) < 1e-9)
    #expect(abs(i.progress(at: 10 + span / 4) - (0.3 + 0.7 * 0.25)) < 1e-9)
    #expect(i.phase(at: 10 + span / 2) == .finishing)
    #expect(i.progress(at: 10 + span) == 1)
    #expect(i.progress(at: 1e9) == 1)
    #expect(i.phase(at: 10 + span) == .finished)
    #expect(i.transitionTime(at: 10 + span) == 2.8)
    var last = 0.0
    for k in 0...100 {
      let p = i.progress(at: 10 + span * Double(k) / 100)
      #expect(p >= last)
      last = p
    }
  }

  @Test func cancelLandsExactlyOnZero() {
    var i = InteractiveTransition(duration: 3, completionCurve: .linear)
    i.update(0.8)
    i.cancel(at: 1)
    #expect(abs(i.completionDuration - 2.4) < 1e-12)
    #expect(abs(i.progress(at: 2.2) - 0.4) < 1e-12)
    #expect(i.progress(at: 1 + i.completionDuration) == 0)
    #expect(i.phase(at: 5) == .cancelled)
    #expect(i.transitionTime(at: 5) == 0)
  }

  @Test func reversibleAtAnyPoint() {
    var i = InteractiveTransition(duration: 2)
    i.update(0.9)
    i.update(0.2)  // the finger goes back
    #expect(i.progress(at: 0) == 0.2)
    i.finish(at: 0)
    let turn = 0.5
    let p = i.progress(at: turn)
    i.cancel(at: turn)  // turn around mid-completion
    #expect(i.progress(at: turn) == p)  // continuous
    #expect(i.progress(at: turn + p * 2) == 0)
    i.update(0.5)  // caught again
    #expect(i.phase(at: 100) == .interactive && i.progress(at: 100) == 0.5)
    i.update(7)
    #expect(i.progress(at: 0) == 1)
    i.update(-1)
    #expect(i.progress(at: 0) == 0)
    // Finishing from 1 or cancelling from 0 lands at once.
    i.cancel(at: 3)
    #expect(i.phase(at: 3) == .cancelled)
  }

  @Test func gestureFinishesPastHalfOrOnPositiveVelocity() {
    #expect(InteractiveTransition.shouldFinish(progress: 0.6, velocity: -100))
    #expect(InteractiveTransition.shouldFinish(progress: 0.1, velocity: 5))
    #expect(!InteractiveTransition.shouldFinish(progress: 0.4, velocity: -5))
    #expect(!InteractiveTransition.shouldFinish(progress: 0.5, velocity: 0))
    var i = InteractiveTransition(duration: 1)
    i.update(InteractiveTransition.progress(translation: 120, extent: 390))
    let finishedEarly = i.endInteraction(velocity: -3, at: 0)
    #expect(!finishedEarly)
    #expect(i.progress(at: 10) == 0)
    i.update(0.7)
    let finishedLate = i.endInteraction(velocity: -3, at: 0)
    #expect(finishedLate)
    #expect(i.progress(at: 10) == 1)
  }

  @Test func drivesEveryStyleToItsFinalFrame() {
    for style in ShatterStyle.allCases {
      let t = ShatterTransition(style: style, width: 320, height: 480, seed: 3)
      var i = InteractiveTransition(t)
      var frame = t.makeFrame()
      i.update(0.45)
      t.evaluate(i, at: 0, into: &frame)
      #expect(abs(frame.time - 0.45 * t.duration) < 1e-12)
      #expect(!frame.isComplete)
      i.finish(at: 0)
      t.evaluate(i, at: i.completionDuration, into: &frame)
      #expect(frame.isComplete)
      if style == .checkerboard {
        let allTo = frame.pieces.allSatisfy { $0.face == .to }
        #expect(allTo)
      }
      i.cancel(at: 0)  // from 1 back to 0
      t.evaluate(i, at: i.completionDuration, into: &frame)
      #expect(frame.time == 0)
      let allFrom = frame.pieces.allSatisfy { $0.face == .from && $0.progress == 0 }
      #expect(allFrom)
    }
  }

  /// While interactive, transition time = p·D with D the style's
  /// nominal duration (`transitions.md`), not the time the last piece lands.
  @Test func progressMapsOntoTheNominalDuration() {
    // Checkerboard: D = 3.0 s (Apple's transitionDuration); 320×480 ends at
    // 2.8193 s, so p = ½ is 1.5 s, not 1.40965 s.
    let checkerboard = ShatterTransition(style: .checkerboard, width: 320, height: 480)
    // Explode: D = 1.0 s (CEReversibleAnimationController's default).
    let explode = ShatterTransition(style: .explode, width: 320, height: 480, seed: 3)
    // Glass break: D = 2.0 s = latest start 1.0 s + longest shard 1.0 s
    // (the source has no transitionDuration; a documented decision).
    let glass = ShatterTransition(style: .glassBreak, width: 320, height: 480, seed: 3)
    // A plan with its own D.
    let slow = ShatterTransition(
      CheckerboardTransition(plan: CheckerboardPlan(width: 320, height: 480, duration: 5)))
    for (t, d) in [(checkerboard, 3.0), (explode, 1.0), (glass, 2.0), (slow, 5.0)] {
      var i = InteractiveTransition(t)
      #expect(i.duration == d, "\(t.style)")
      i.update(0.5)
      #expect(abs(i.transitionTime(at: 0) - d / 2) < 1e-12, "\(t.style)")
      var frame = t.makeFrame()
      t.evaluate(i, at: 0, into: &frame)
      #expect(abs(frame.time - d / 2) < 1e-12, "\(t.style)")
      // Finishing runs on to D itself: (1 − ½)·D at speed 1.
      i.finish(at: 0)
      #expect(abs(i.completionDuration - d / 2) < 1e-12, "\(t.style)")
      #expect(i.transitionTime(at: d / 2) == d, "\(t.style)")
    }
  }

  /// completionSpeed (and completionCurve) are captured when a
  /// completion starts; changing them mid-completion neither jumps nor
  /// re-times it.
  @Test func changingTheCompletionParametersMidCompletionKeepsProgressContinuous() {
    var i = InteractiveTransition(duration: 2, completionSpeed: 1, completionCurve: .linear)
    i.update(0.25)
    i.finish(at: 10)
    // Δ = (1 − 0.25)·2 / 1 = 1.5 s; linear: p(τ) = 0.25 + 0.75·(τ − 10)/1.5
    // (times chosen to be exact in binary).
    #expect(i.completionDuration == 1.5)
    #expect(abs(i.progress(at: 10.5) - 0.5) < 1e-9)
    i.completionSpeed = 4
    i.completionCurve = .easeIn
    #expect(i.completionDuration == 1.5)
    #expect(abs(i.progress(at: 10.5) - 0.5) < 1e-9)  // no jump
    #expect(abs(i.progress(at: 11) - 0.75) < 1e-9)  // still 0.5 per second
    #expect(i.phase(at: 11.49) == .finishing)
    #expect(i.progress(at: 11.5) == 1 && i.phase(at: 11.5) == .finished)
    // The new speed applies from the next completion: back from 0.75 over
    // 0.75·2/4 = 0.375 s.
    i.cancel(at: 11)
    #expect(abs(i.progress(at: 11) - 0.75) < 1e-9)
    #expect(abs(i.completionDuration - 0.375) < 1e-9)
    #expect(i.phase(at: 11.37) == .cancelling)
    #expect(i.progress(at: 11.376) == 0 && i.phase(at: 11.376) == .cancelled)
  }

  /// `transitions.md`: a completion runs "at completionSpeed in wall time",
  /// which the default (linear) completion curve gives exactly.
  @Test func theDefaultCompletionRunsAtCompletionSpeed() {
    var i = InteractiveTransition(duration: 2, completionSpeed: 2)
    i.update(0.3)  // transition time 0.6 s
    i.finish(at: 0)
    // t(τ) = 0.6 + 2·τ until t = 2 at τ = 0.7.
    for (clock, time) in [(0.1, 0.8), (0.35, 1.3), (0.6, 1.8), (0.7, 2.0)] {
      #expect(abs(i.transitionTime(at: clock) - time) < 1e-9, "τ = \(clock)")
    }
    i.cancel(at: 0.35)  // from t = 1.3, back at 2 s per second
    for (clock, time) in [(0.45, 1.1), (0.8, 0.4), (1.0, 0.0)] {
      #expect(abs(i.transitionTime(at: clock) - time) < 1e-9, "τ = \(clock)")
    }
  }

  @Test func timeAndProgressMapBothWays() {
    #expect(InteractiveTransition.time(forProgress: 0.25, duration: 2.8) == 0.7)
    #expect(InteractiveTransition.progress(forTime: 0.7, duration: 2.8) == 0.25)
    #expect(InteractiveTransition.progress(forTime: 9, duration: 2.8) == 1)
  }
}
