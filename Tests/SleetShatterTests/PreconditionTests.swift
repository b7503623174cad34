import Testing

@testable import SleetShatter

/// Programmer errors stop with a precondition failure (checked in a child process).
@Suite("Shatter preconditions")
struct PreconditionTests {
  @Test func aFrameFromAnotherTransitionIsRejected() async {
    await #expect(processExitsWith: .failure) {
      let small = CheckerboardTransition(plan: CheckerboardPlan(width: 320, height: 480))
      let large = CheckerboardTransition(plan: CheckerboardPlan(width: 390, height: 844))
      var frame = small.makeFrame()
      large.evaluate(at: 1, into: &frame)
    }
  }

  // A frame fits only the shape it was made for: frames that share the grid
  // but not the rest of their shape are refused.
  // 320×480: the checkerboard's s = round(320/10) = 32 and the explode's
  // a = 320/10 = 32 both give 10 × ⌈480/32⌉ = 10 × 15 pieces.

  @Test func aFrameOfAnotherStyleWithTheSameGridIsRejected() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let checkerboard = ShatterTransition(style: .checkerboard, width: 320, height: 480)
      let explode = ShatterTransition(style: .explode, width: 320, height: 480)
      var frame = explode.makeFrame()
      checkerboard.evaluate(at: 1, into: &frame)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("style explode, not checkerboard"), "\(message)")
  }

  @Test func aFrameOfAnotherSizeWithTheSameGridIsRejected() async {
    // 330×495 /10: a = 33, ⌈495/33⌉ = 15 rows: the same 10 × 15 grid.
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let small = ExplodeTransition(width: 320, height: 480)
      let large = ExplodeTransition(width: 330, height: 495)
      var frame = large.makeFrame()
      small.evaluate(at: 0.5, into: &frame)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("container 330×495 pt, not 320×480 pt"), "\(message)")
  }

  @Test func aGlassBreakFrameOfAnotherSeedIsRejected() async {
    // Same grid, size and backdrop; the shards' texture corners differ.
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let a = GlassBreakTransition(width: 320, height: 480, seed: 1)
      let b = GlassBreakTransition(width: 320, height: 480, seed: 2)
      var frame = a.makeFrame()
      b.evaluateNaively(at: 0.5, into: &frame)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("shards of seed 1, not 2"), "\(message)")
  }

  @Test func aCheckerboardFrameOfAnotherTileSideIsRejected() async {
    // 100×100: divisor 3 gives s = round(33.3) = 33 and ⌈100/33⌉ = 4; divisor
    // 4 gives s = 25 and 4: the same 4 × 4 grid over the same container, but
    // the cells (and so the texture corners) differ.
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let thirds = CheckerboardTransition(plan: CheckerboardPlan(width: 100, height: 100, divisor: 3))
      let quarters = CheckerboardTransition(plan: CheckerboardPlan(width: 100, height: 100, divisor: 4))
      var frame = thirds.makeFrame()
      quarters.evaluate(at: 1, into: &frame)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("cells 33×33 pt, not 25×25 pt"), "\(message)")
  }

  /// What the shape check must not reject: a frame from an equal transition,
  /// or from the other direction (nothing a frame keeps depends on it).
  @Test func framesOfTransitionsOfTheSameShapeAreInterchangeable() {
    let push = ShatterTransition(style: .checkerboard, width: 390, height: 844, direction: .push)
    let pop = ShatterTransition(style: .checkerboard, width: 390, height: 844, direction: .pop)
    var frame = push.makeFrame()
    pop.evaluate(at: 1, into: &frame)
    var reference = pop.makeFrame()
    pop.evaluate(at: 1, into: &reference)
    #expect(bitwiseEqual(frame.corners, reference.corners))
    let explode = ShatterTransition(style: .explode, width: 390, height: 844, seed: 1)
    var explodeFrame = ShatterTransition(style: .explode, width: 390, height: 844, seed: 2).makeFrame()
    explode.evaluate(at: 0.5, into: &explodeFrame)
    #expect(explodeFrame.time == 0.5)
  }

  @Test func aNonFiniteTimeIsRejected() async {
    await #expect(processExitsWith: .failure) {
      let t = ShatterTransition(style: .explode, width: 320, height: 480)
      var frame = t.makeFrame()
      t.evaluate(at: .nan, into: &frame)
    }
  }

  @Test func anInvalidPlanIsRejected() async {
    await #expect(processExitsWith: .failure) {
      _ = CheckerboardPlan(width: 0, height: 480)
    }
  }
}
