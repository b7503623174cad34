import SleetMath
import Testing

@testable import SleetShatter

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Explode and glass break")
struct VariantTests {
  @Test func explodeGridIsSquaresOfATenthOfTheWidth() {
    let e = ExplodeTransition(width: 390, height: 844)
    #expect(e.pieceSide == 39 && e.columns == 10 && e.rows == 22)
    #expect(ExplodeTransition(width: 100, height: 100).rows == 10)  // exact fit: no extra row
    #expect(ExplodeTransition(width: 100, height: 101).rows == 11)
    var frame = e.makeFrame()
    #expect(frame.backdrop == .toSnapshot)
    e.evaluate(at: 0, into: &frame)
    for i in 0..<frame.count {
      let p = frame.piece(i)
      #expect(p.face == .from && p.opacity == 1)
      #expect(maxCornerDifference(p.cornerArray, cellCorners(column: p.column, row: p.row, side: 39)) < 1e-4)
    }
  }

  @Test func explodeDrawsAreInRangeAndMoveScaleSpinAndFade() {
    let e = ExplodeTransition(width: 320, height: 480, seed: 42)
    var frame = e.makeFrame()
    let t = 0.4
    e.evaluate(at: t, into: &frame)
    let eased = Float(TimingFunction.easeInEaseOut.value(at: t / e.duration))
    for i in 0..<frame.count {
      let (offset, angle) = e.draws(ofPiece: i)
      #expect(abs(offset.x) <= 100 && abs(offset.y) <= 100 && abs(angle) <= 10)
      let p = frame.piece(i)
      #expect(abs(p.opacity - (1 - eased)) < 1e-6)
      // The centre moves by e·offset; the side shrinks to (1 − e)·a.
      let c = p.cornerArray
      let centre = (c[0] + c[1] + c[2] + c[3]) / 4
      let home = SIMD2(Float(p.column) * 32 + 16, Float(p.row) * 32 + 16)
      let moved = centre - (home + eased * offset)
      #expect(Swift.max(abs(moved.x), abs(moved.y)) < 1e-3)
      let side = ((c[1] - c[0]) * (c[1] - c[0])).sum().squareRoot()
      #expect(abs(side - 32 * (1 - eased)) < 1e-3)
      // The top edge turns by e·angle (clockwise on a y-down screen).
      let turned = atan2f(c[1].y - c[0].y, c[1].x - c[0].x)
      let want = remainderf(eased * angle, 2 * .pi)
      #expect(abs(remainderf(turned - want, 2 * .pi)) < 1e-3)
    }
    e.evaluate(at: e.duration, into: &frame)
    #expect(frame.isComplete)
    let allGone = frame.pieces.allSatisfy { $0.opacity == 0 }
    #expect(allGone)
  }

  @Test func variantsAreReproducibleFromTheirSeedAndDifferAcrossSeeds() {
    for style in [ShatterStyle.explode, .glassBreak] {
      let a = ShatterTransition(style: style, width: 390, height: 844, seed: 1)
      let b = ShatterTransition(style: style, width: 390, height: 844, seed: 1)
      let c = ShatterTransition(style: style, width: 390, height: 844, seed: 2)
      #expect(a.endTime == b.endTime)
      let time = 0.6
      let fa = a.frame(at: time)
      let fb = b.frame(at: time)
      let fc = c.frame(at: time)
      #expect(bitwiseEqual(fa.corners, fb.corners))
      #expect(fa.textureCorners == fb.textureCorners)
      #expect(!bitwiseEqual(fa.corners, fc.corners))
    }
    let g1 = GlassBreakTransition(width: 390, height: 844, seed: 1)
    let g2 = GlassBreakTransition(width: 390, height: 844, seed: 2)
    #expect(g1.quads != g2.quads)
  }

  @Test func glassShardsAreConvexJitteredQuadsThatTileTheContainer() {
    let g = GlassBreakTransition(width: 390, height: 844, seed: 9)
    let (w, h) = (39.0, 84.4)
    var area = 0.0
    for i in 0..<(g.columns * g.rows) {
      let q = Array(g.quads[(4 * i)..<(4 * i + 4)])
      // Convex, clockwise on a y-down screen: every turn has positive cross product.
      for k in 0..<4 {
        let a = q[(k + 1) % 4] - q[k]
        let b = q[(k + 2) % 4] - q[(k + 1) % 4]
        #expect(a.x * b.y - a.y * b.x > 0)
      }
      // Shoelace area.
      for k in 0..<4 {
        let p = q[k]
        let n = q[(k + 1) % 4]
        area += (p.x * n.y - n.x * p.y) / 2
      }
      // Every corner within w/4, h/4 of its lattice point.
      let column = i % g.columns
      let row = i / g.columns
      let lattice = [
        SIMD2(Double(column) * w, Double(row) * h), SIMD2(Double(column + 1) * w, Double(row) * h),
        SIMD2(Double(column + 1) * w, Double(row + 1) * h), SIMD2(Double(column) * w, Double(row + 1) * h),
      ]
      for k in 0..<4 {
        #expect(abs(q[k].x - lattice[k].x) <= w / 4 * 0.9 + 1e-9)
        #expect(abs(q[k].y - lattice[k].y) <= h / 4 * 0.9 + 1e-9)
      }
    }
    #expect(abs(area - 390 * 844) < 1e-6)
    // Border corners stay on the border.
    #expect(g.quads[0] == SIMD2(0, 0))
    #expect(g.quads[4 * 99 + 2] == SIMD2(390, 844))
  }

  @Test func glassShardsStartAtHomeThenFallOffScreen() {
    let g = GlassBreakTransition(width: 390, height: 844, seed: 4)
    var frame = g.makeFrame()
    #expect(g.endTime <= 2 && g.endTime > 0.8)
    for i in 0..<frame.count {
      let d = g.draws(ofPiece: i)
      #expect(d.start >= 0.3 && d.start <= 1 && d.duration >= 0.5 && d.duration <= 1)
      #expect(abs(d.drift) <= 3.9 && abs(d.spin) <= .pi / 4)
    }
    // Before the first start (0.3 s) every shard is at home: the homography
    // reproduces each irregular quad exactly.
    for evaluate in [false, true] {
      if evaluate { g.evaluateNaively(at: 0.29, into: &frame) } else { g.evaluate(at: 0.29, into: &frame) }
      let home = g.quads.map { SIMD2<Float>($0) }
      #expect(maxCornerDifference(frame.corners, home) < 1e-3)
      #expect(maxCornerDifference(frame.textureCorners, home.map { $0 / SIMD2(390, 844) }) < 1e-6)
    }
    g.evaluate(at: g.endTime, into: &frame)
    #expect(frame.isComplete)
    for i in 0..<frame.count {
      let c = frame.cornersOf(i)
      let meanY = (c[0].y + c[1].y + c[2].y + c[3].y) / 4
      #expect(meanY > 844)
      #expect(frame.pieces[i].progress == 1)
    }
  }

  @Test func squareToQuadHitsTheFourCorners() {
    let q: [SIMD2<Double>] = [SIMD2(-3, -2), SIMD2(5, -4), SIMD2(6, 7), SIMD2(-4, 3)]
    let m = GlassBreakTransition.squareToQuad(q)
    let unit: [SIMD3<Float>] = [SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(1, 1, 0), SIMD3(0, 1, 0)]
    for k in 0..<4 {
      let p = m.projecting(unit[k])!
      #expect(abs(Double(p.x) - q[k].x) < 1e-5 && abs(Double(p.y) - q[k].y) < 1e-5)
    }
    // A parallelogram gives an affine map.
    let affine = GlassBreakTransition.squareToQuad([SIMD2(0, 0), SIMD2(2, 1), SIMD2(3, 4), SIMD2(1, 3)])
    #expect(affine.m14 == 0 && affine.m24 == 0)
  }
}
