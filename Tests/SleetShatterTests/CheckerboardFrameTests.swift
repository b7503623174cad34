import SleetMath
import Testing

@testable import SleetShatter

@Suite("Checkerboard frames")
struct CheckerboardFrameTests {
  static let transition = CheckerboardTransition(plan: CheckerboardPlan(width: 320, height: 480))

  @Test(arguments: [-1.0, 0.0])
  func atTheStartEveryTileShowsItsFromFaceAtItsRect(time: Double) {
    let t = Self.transition
    var frame = t.makeFrame()
    t.evaluate(at: time, into: &frame)
    #expect(!frame.isComplete)
    for i in 0..<frame.count {
      let p = frame.piece(i)
      #expect(p.face == .from && p.progress == 0 && p.depth == 0 && p.opacity == 1)
      #expect(frame.cornersOf(i) == cellCorners(column: p.column, row: p.row, side: 32))
      let rect = cellCorners(column: p.column, row: p.row, side: 32).map { $0 / SIMD2(320, 480) }
      #expect(maxCornerDifference(p.textureCornerArray, rect) < 1e-7)
    }
  }

  /// docs/shatter.md: the black backdrop shows during the whole flip, not
  /// only edge-on. One 100-pt card centred on a 100×100 container: turned by
  /// φ its corners project to x = 50 ± 50·cos φ / (1 ∓ 50·sin φ/900), a width
  /// of 100·cos φ / (1 − (50·sin φ/900)²), which is below 100 for every
  /// 0 < |φ| < π (1 − cos φ ≥ sin²φ/2 > (50/900)²·sin²φ): part of the cell
  /// is uncovered whenever the card is not at rest.
  @Test func theBackdropShowsBesideAFlippingCardForTheWholeFlip() {
    let t = CheckerboardTransition(plan: CheckerboardPlan(width: 100, height: 100, divisor: 1))
    #expect(t.plan.tileCount == 1 && t.plan.firstDelay == 0)
    var frame = t.makeFrame()
    func coveredWidth() -> Float {
      let xs = frame.cornersOf(0).map(\.x)
      return xs.max()! - xs.min()!
    }
    t.evaluate(at: 0, into: &frame)
    #expect(abs(coveredWidth() - 100) < 1e-4)  // at rest: the whole cell
    for k in 1..<40 {
      let time = t.plan.tileDuration * Double(k) / 40
      t.evaluate(at: time, into: &frame)
      #expect(frame.pieces[0].progress > 0 && frame.pieces[0].progress < 1)
      #expect(coveredWidth() < 100 - 1e-4, "t = \(time): the card covers \(coveredWidth()) of 100 pt")
    }
    t.evaluate(at: t.endTime, into: &frame)
    #expect(abs(coveredWidth() - 100) < 1e-4)
  }

  @Test func afterTheEndEveryTileShowsItsToFaceAtItsRect() {
    let t = Self.transition
    var frame = t.makeFrame()
    t.evaluate(at: t.endTime, into: &frame)
    #expect(frame.isComplete)
    t.evaluate(at: t.endTime - 1e-6, into: &frame)
    #expect(!frame.isComplete)
    t.evaluate(at: 10, into: &frame)
    #expect(frame.isComplete)
    for i in 0..<frame.count {
      let p = frame.piece(i)
      #expect(p.face == .to && p.progress == 1 && p.depth == 0)
      #expect(maxCornerDifference(frame.cornersOf(i), cellCorners(column: p.column, row: p.row, side: 32)) < 1e-5)
    }
  }

  @Test func theCardIsEdgeOnAtHalfEasedProgressAndSwitchesFaceThere() {
    let t = Self.transition
    let orthographic = CheckerboardTransition(plan: t.plan, eyeDistance: 1e9)
    let plan = t.plan
    let (column, row) = (3, 4)
    let i = row * plan.columns + column
    // easeInEaseOut is symmetric: e(½) = ½, so θ = π/2 at local progress ½.
    let half = plan.delay(column: column, row: row) + 0.5 * plan.tileDuration
    let centreX = Float(3 * 32 + 16)
    for evaluate in [Evaluation.batched, .naive] {
      // Without perspective the card collapses onto its vertical axis.
      var flat = orthographic.makeFrame()
      evaluate.run(orthographic, half, &flat)
      for corner in flat.cornersOf(i) { #expect(abs(corner.x - centreX) < 1e-3) }
      // With perspective its edges sit at z = ±s/2: vertical, and the near
      // edge projects farther from the container's centre (x = 160) than the far.
      var frame = t.makeFrame()
      evaluate.run(t, half, &frame)
      let c = frame.cornersOf(i)
      #expect(abs(frame.pieces[i].depth - 16) < 1e-3)
      #expect(abs(c[0].x - c[3].x) < 1e-3 && abs(c[1].x - c[2].x) < 1e-3)
      let near = min(c[0].x, c[1].x)
      let far = max(c[0].x, c[1].x)
      #expect(abs((160 - near) / (160 - far) - Float(900.0 / 884.0 * 916.0 / 900.0)) < 1e-3)
      evaluate.run(t, half - 1e-4, &frame)
      #expect(frame.pieces[i].face == .from)
      evaluate.run(t, half + 1e-4, &frame)
      #expect(frame.pieces[i].face == .to)
    }
  }

  enum Evaluation {
    case batched, naive
    func run(_ t: CheckerboardTransition, _ time: Double, _ frame: inout ShatterFrame) {
      switch self {
      case .batched: t.evaluate(at: time, into: &frame)
      case .naive: t.evaluateNaively(at: time, into: &frame)
      }
    }
  }

  /// The physical card at angle θ (front content orientation), projected.
  func card(_ t: CheckerboardTransition, column: Int, row: Int, theta: Double) -> [SIMD2<Float>] {
    let s = Float(t.plan.slice)
    let m = Transform3D.makeTranslation(x: -s / 2, y: -s / 2, z: 0)
      .concatenating(.makeRotation(angle: Float(theta), x: 0, y: 1, z: 0))
      .concatenating(
        .makeTranslation(x: Float(column) * s + s / 2, y: Float(row) * s + s / 2, z: 0)
      )
      .concatenating(t.perspective)
    return [SIMD3<Float>(0, 0, 0), SIMD3(s, 0, 0), SIMD3(s, s, 0), SIMD3(0, s, 0)].map {
      let p = m.projecting($0)!
      return SIMD2(p.x, p.y)
    }
  }

  @Test func bothFacesAreOneRigidCard() {
    let t = Self.transition
    let plan = t.plan
    var frame = t.makeFrame()
    for time in stride(from: 0.1, to: plan.endTime, by: 0.37) {
      t.evaluate(at: time, into: &frame)
      for i in stride(from: 0, to: frame.count, by: 7) {
        let p = frame.piece(i)
        let progress = min(max((time - plan.delay(column: p.column, row: p.row)) / plan.tileDuration, 0), 1)
        let theta = Double.pi * t.timingFunction.value(at: progress)
        let physical = card(t, column: p.column, row: p.row, theta: theta)
        // The back face's TL is the card's TR: the to-content is seen mirrored
        // through the card, so its left edge is the front's right edge.
        let expected =
          p.face == .from ? physical : [physical[1], physical[0], physical[3], physical[2]]
        #expect(maxCornerDifference(p.cornerArray, expected) < 2e-3)
      }
    }
  }

  @Test func perspectiveMakesTheNearHalfLarger() {
    let t = Self.transition
    let far = CheckerboardTransition(plan: t.plan, eyeDistance: 1e9)
    let plan = t.plan
    let (column, row) = (2, 5)
    let i = row * plan.columns + column
    func edges(_ t: CheckerboardTransition, _ time: Double) -> (left: Float, right: Float, depth: Float) {
      var frame = t.makeFrame()
      t.evaluate(at: time, into: &frame)
      let c = frame.cornersOf(i)
      return (c[3].y - c[0].y, c[2].y - c[1].y, frame.pieces[i].depth)
    }
    let start = plan.delay(column: column, row: row)
    // Front face, θ ≈ π/4: its left edge comes toward the eye.
    let early = start + 0.3 * plan.tileDuration
    let front = edges(t, early)
    #expect(front.left > 32 && front.right < 32)
    #expect(front.depth > 0)
    let flat = edges(far, early)
    #expect(abs(flat.left - 32) < 1e-3 && abs(flat.right - 32) < 1e-3)
    // Back face, θ ≈ 3π/4: the card's near edge is now on the right.
    let back = edges(t, start + 0.7 * plan.tileDuration)
    #expect(back.right > 32 && back.left < 32)
  }

  @Test func pushAndPopAreMirrorImagesInTime() {
    for (w, h) in [(320.0, 480.0), (300.0, 300.0)] {
      let push = CheckerboardTransition(plan: CheckerboardPlan(width: w, height: h, direction: .push))
      let pop = CheckerboardTransition(plan: CheckerboardPlan(width: w, height: h, direction: .pop))
      let (nx, ny) = (push.plan.columns, push.plan.rows)
      #expect(abs(push.endTime - pop.endTime) < 1e-12)
      var a = push.makeFrame()
      var b = pop.makeFrame()
      for time in [0.4, 1.1, 1.9, 2.5] {
        push.evaluate(at: time, into: &a)
        pop.evaluate(at: time, into: &b)
        for row in 0..<ny {
          for column in 0..<nx {
            let i = row * nx + column
            let m = (ny - 1 - row) * nx + (nx - 1 - column)
            #expect(
              abs(
                push.plan.delay(column: column, row: row) - pop.plan.delay(column: nx - 1 - column, row: ny - 1 - row))
                < 1e-12)
            #expect(abs(a.pieces[i].progress - b.pieces[m].progress) < 1e-6)
            #expect(a.pieces[i].face == b.pieces[m].face)
            #expect(abs(a.pieces[i].depth - b.pieces[m].depth) < 1e-4)
          }
        }
      }
    }
  }

  @Test(arguments: ShatterStyle.allCases)
  func transformsMapTheUnitSquareOntoTheCorners(style: ShatterStyle) {
    let t = ShatterTransition(style: style, width: 390, height: 844, seed: 2)
    var frame = t.makeFrame()
    t.evaluate(at: 0.45 * t.endTime, into: &frame)
    let unit: [SIMD3<Float>] = [SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(1, 1, 0), SIMD3(0, 1, 0)]
    for i in 0..<frame.count {
      let m = frame.transforms[i]
      let projected = unit.map { p -> SIMD2<Float> in
        let q = m.projecting(p)!
        return SIMD2(q.x, q.y)
      }
      #expect(maxCornerDifference(projected, frame.cornersOf(i)) < 1e-3)
    }
  }

  @Test func drawOrderSortsByDepthThenIndex() {
    let t = Self.transition
    var frame = t.makeFrame()
    t.evaluate(at: 1.2, into: &frame)
    var order: [Int32] = []
    frame.drawOrder(into: &order)
    #expect(order.count == frame.count)
    #expect(Set(order).count == frame.count)
    for k in 1..<order.count {
      let a = frame.pieces[Int(order[k - 1])].depth
      let b = frame.pieces[Int(order[k])].depth
      #expect(a < b || (a == b && order[k - 1] < order[k]))
    }
  }
}
