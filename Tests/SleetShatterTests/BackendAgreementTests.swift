import SleetBLAS
import SleetMath
import Testing

@testable import SleetShatter

/// The batched path (every backend, any thread count) against the naive
/// per-piece reference.
@Suite("Backends agree with the naive path")
struct BackendAgreementTests {
  static let transitions: [(String, ShatterTransition)] = [
    ("checkerboard 320×480 push", ShatterTransition(style: .checkerboard, width: 320, height: 480)),
    ("checkerboard 390×844 pop", ShatterTransition(style: .checkerboard, width: 390, height: 844, direction: .pop)),
    // 7 000 tiles: 13 full chunks of 512 and a partial one.
    ("checkerboard 1000×700 /100", ShatterTransition(style: .checkerboard, width: 1000, height: 700, divisor: 100)),
    // Tiles larger than the eye distance: corners behind the eye are NaN.
    ("checkerboard 4000×3000 /1", ShatterTransition(style: .checkerboard, width: 4000, height: 3000, divisor: 1)),
    ("explode 390×844", ShatterTransition(style: .explode, width: 390, height: 844, seed: 7)),
    ("explode 1000×700 /60", ShatterTransition(style: .explode, width: 1000, height: 700, divisor: 60, seed: 3)),
    ("glassBreak 390×844", ShatterTransition(style: .glassBreak, width: 390, height: 844, seed: 11)),
    ("glassBreak 800×600 /40", ShatterTransition(style: .glassBreak, width: 800, height: 600, divisor: 40, seed: 5)),
  ]

  @Test(arguments: 0..<transitions.count)
  func everyBackendMatchesTheNaivePath(index: Int) {
    let (name, t) = Self.transitions[index]
    var naive = t.makeFrame()
    var batched = t.makeFrame()
    let scale = Float(max(naive.containerWidth, naive.containerHeight))
    for fraction in [-0.1, 0, 0.13, 0.37, 0.5, 0.71, 0.96, 1, 1.2] {
      let time = fraction * t.endTime
      t.evaluateNaively(at: time, into: &naive)
      for backend in TransformBackend.allCases {
        t.evaluate(at: time, into: &batched, backend: backend)
        #expect(batched.isComplete == naive.isComplete, "\(name) t=\(time) \(backend)")
        let difference = maxCornerDifference(batched.corners, naive.corners)
        #expect(difference <= 1e-3 + 2e-6 * scale, "\(name) t=\(time) \(backend): corners differ by \(difference)")
        var worstState: Float = 0
        var faceMismatches = 0
        var worstTransform: Float = 0
        for i in 0..<naive.count {
          let a = naive.pieces[i]
          let b = batched.pieces[i]
          worstState = max(worstState, abs(a.progress - b.progress), abs(a.opacity - b.opacity))
          worstState = max(worstState, abs(a.depth - b.depth) / scale)
          if a.face != b.face { faceMismatches += 1 }
          let ta = naive.transforms[i].entries
          let tb = batched.transforms[i].entries
          for k in 0..<16 {
            worstTransform = max(worstTransform, abs(ta[k] - tb[k]))
          }
        }
        #expect(
          worstTransform <= 1e-4 + 1e-6 * scale * max(1, scale / 900),
          "\(name) t=\(time) \(backend): transforms differ by \(worstTransform)")
        #expect(worstState <= 2e-6, "\(name) t=\(time) \(backend)")
        #expect(faceMismatches == 0, "\(name) t=\(time) \(backend)")
      }
    }
  }

  @Test(arguments: [1, 2, 3, 8])
  func threadCountDoesNotChangeABit(threads: Int) {
    for (name, t) in Self.transitions {
      var one = t.makeFrame()
      var many = t.makeFrame()
      for fraction in [0.2, 0.55, 0.9] {
        let time = fraction * t.endTime
        t.evaluate(at: time, into: &one, threads: 1)
        t.evaluate(at: time, into: &many, threads: threads)
        #expect(bitwiseEqual(one.corners, many.corners), "\(name)")
        #expect(one.pieces == many.pieces, "\(name)")
        #expect(one.transforms == many.transforms, "\(name)")
      }
    }
  }

  /// The two arithmetics on a 1 000 000-tile plan — `simd` (what `automatic`
  /// resolves to for every chunk here, and bit-identical to `scalar`) and
  /// `blas` (FMA, its own summation order) — checked on a lattice of 728
  /// tiles spread over the whole grid (the last row and column included)
  /// against `naiveTile`. `scalar` and `automatic` are not run at this size:
  /// a million-tile evaluation with `scalar` or `simd` takes 2–4 s in a debug
  /// build on two shared cores, and every backend is compared on every tile
  /// up to 7 000 tiles above.
  @Test func aMillionTilesMatchTheNaiveTilesEverywhere() {
    let t = CheckerboardTransition(plan: CheckerboardPlan(width: 1000, height: 1000, divisor: 1000))
    #expect(t.plan.tileCount == 1_000_000)
    let time = 1.3  // mid-transition: resting and flipping tiles alike
    let rows = Array(stride(from: 0, to: 1000, by: 37))  // 0, 37, …, 999: 28 rows
    let columns = Array(stride(from: 0, to: 1000, by: 41)) + [999]  // 0, 41, …, 984, 999: 26
    #expect(rows.count * columns.count == 728 && rows.last == 999)
    let references = rows.flatMap { row in
      columns.map { column in (row * 1000 + column, t.naiveTile(column: column, row: row, at: time)) }
    }
    #expect(references.contains { $0.1.state.progress > 0 && $0.1.state.progress < 1 })
    // The corner tolerance of `everyBackendMatchesTheNaivePath` at m = 1000.
    let tolerance: Float = 1e-3 + 2e-6 * 1000
    var frame = t.makeFrame()
    for backend in [TransformBackend.simd, .blas] {
      t.evaluate(at: time, into: &frame, backend: backend, threads: 2)
      var worst: Float = 0
      var faceMismatches = 0
      for (i, reference) in references {
        let expected = [reference.corners.0, reference.corners.1, reference.corners.2, reference.corners.3]
        worst = max(worst, maxCornerDifference(frame.cornersOf(i), expected))
        if frame.pieces[i].face != reference.state.face { faceMismatches += 1 }
      }
      #expect(worst <= tolerance, "\(backend): corners differ by \(worst)")
      #expect(faceMismatches == 0, "\(backend)")
    }
  }

  @Test func behindTheEyeCornersAreNaNInBothPaths() {
    let t = ShatterTransition(style: .checkerboard, width: 4000, height: 3000, divisor: 1)
    var frame = t.makeFrame()
    // The single 4000-pt tile's near edge passes z = 900 mid-flip.
    t.evaluate(at: 0.5 * t.endTime, into: &frame)
    #expect(frame.corners.contains { $0.x.isNaN })
  }
}
