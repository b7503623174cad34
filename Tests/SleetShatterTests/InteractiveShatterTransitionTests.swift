import SleetMath
import Testing

@testable import SleetShatter

@Suite("Interactive transitions")
struct InteractiveShatterTransitionTests {
  @Test func finishLandsExactlyOnOne() {
    var i = InteractiveShatterTransition(duration: 2.8, completionSpeed: 1.5)
    i.update(0.3)
    #expect(i.progress(at: 100) == 0.3 && i.phase(at: 100) == .interactive)
    i.finish(at: 10)
    let span = 0.7 * 2.8 / 1.5
    #expect(abs(i.completionDuration - span) < 1e-12)
    #expect(i.progress(at: 10) == 0.3)
    let mid = i.progress(at: 10 + span / 2)
    #expect(abs(mid - (0.3 + 0.7 * TimingFunction.easeInEaseOut.value(at: 0.5))) < 1e-12)
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
    var i = InteractiveShatterTransition(duration: 3, completionCurve: .linear)
    i.update(0.8)
    i.cancel(at: 1)
    #expect(abs(i.completionDuration - 2.4) < 1e-12)
    #expect(abs(i.progress(at: 2.2) - 0.4) < 1e-12)
    #expect(i.progress(at: 1 + i.completionDuration) == 0)
    #expect(i.phase(at: 5) == .cancelled)
    #expect(i.transitionTime(at: 5) == 0)
  }

  @Test func reversibleAtAnyPoint() {
    var i = InteractiveShatterTransition(duration: 2)
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
    #expect(InteractiveShatterTransition.shouldFinish(progress: 0.6, velocity: -100))
    #expect(InteractiveShatterTransition.shouldFinish(progress: 0.1, velocity: 5))
    #expect(!InteractiveShatterTransition.shouldFinish(progress: 0.4, velocity: -5))
    #expect(!InteractiveShatterTransition.shouldFinish(progress: 0.5, velocity: 0))
    var i = InteractiveShatterTransition(duration: 1)
    i.update(InteractiveShatterTransition.progress(translation: 120, extent: 390))
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
      var i = InteractiveShatterTransition(t)
      var frame = t.makeFrame()
      i.update(0.45)
      t.evaluate(i, at: 0, into: &frame)
      #expect(abs(frame.time - 0.45 * t.endTime) < 1e-12)
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

  @Test func timeAndProgressMapBothWays() {
    #expect(InteractiveShatterTransition.time(forProgress: 0.25, duration: 2.8) == 0.7)
    #expect(InteractiveShatterTransition.progress(forTime: 0.7, duration: 2.8) == 0.25)
    #expect(InteractiveShatterTransition.progress(forTime: 9, duration: 2.8) == 1)
  }
}
