import SleetMath

/// VariousViewsEffects' glass break: the from-snapshot cracks along a jittered
/// grid into irregular four-sided shards, which fall away one by one with
/// ease-in, uncovering the to-view.
///
/// Grid: `columns × rows` cells of w = W/columns by h = H/rows. Border corners
/// stay on the border; each inner corner moves by
///
/// ```
/// Δx = U[−1, 1] · U[0.3, 0.9] · w/4,   Δy = U[−1, 1] · U[0.3, 0.9] · h/4
/// ```
///
/// (the original uses w for both axes and up to 0.9·w, which lets shards
/// overlap and fold; |Δ| < w/4 keeps every quad convex, so each shard is one
/// projective image of the unit square). Piece i then draws
///
/// ```
/// start ∈ U[0.3, 1.0] s,  duration ∈ U[0.5, 1.0] s,  drift ∈ U[−1, 1]·w·0.1,
/// spin ∈ U[−1, 1]·π/4
/// x = clamp((t − start)/duration, 0, 1),   e = easeIn(x)
/// local(u, v) = Q(u, v) · rotate(e·spin, 0, 0, 1) + P + e·(drift, H + b)
/// ```
///
/// where P is the centre of the shard's bounding box, b its height, and Q the
/// homography taking the unit square's TL, TR, BR, BL to the shard's corners
/// relative to P (Heckbert's square-to-quad mapping; exact for any convex quad).
///
/// Draws: corner j (row-major over the (columns+1)×(rows+1) lattice) uses block
/// j of `RandomStream(seed:, stream: 0x474c4153)` ("GLAS") as (sign x,
/// magnitude x, sign y, magnitude y); piece i uses block i of stream
/// 0x474c4153 + 1 as (start, duration, drift, spin).
public struct GlassBreakTransition: Sendable {
  /// Columns and rows of the shard lattice: 10 × 10, as the library.
  public static let defaultGrid = 10
  /// The nominal duration D = latest start + longest shard duration =
  /// 1.0 s + 1.0 s = 2.0 s: an upper bound of ``endTime`` for every seed
  /// (starts are in [0.3, 1.0) s, durations in [0.5, 1.0) s). The source runs
  /// from a `CATransaction` and names no duration, so this is a decision; an
  /// interactive glass break maps progress p to time p·D.
  public static let nominalDuration = 2.0
  /// The random stream number of the corner draws ("GLAS"); the piece draws
  /// use the next stream.
  public static let randomStream: UInt64 = 0x474c_4153

  /// Container width W, points.
  public let width: Double
  /// Container height H, points.
  public let height: Double
  /// Shards per row of the jittered lattice.
  public let columns: Int
  /// Shard rows.
  public let rows: Int
  /// Seed of the corner jitter and the per-shard timing draws.
  public let seed: UInt64
  /// The shards' fall curve (ease-in).
  public let timingFunction: TimingFunction

  /// Per piece: the four home corners TL, TR, BR, BL in container points.
  public let quads: [SIMD2<Double>]
  /// Per piece: (start, duration, drift, spin).
  internal let _draws: [SIMD4<Double>]
  /// Per piece: bounding-box centre P and fall distance H + b.
  internal let _pivots: [SIMD4<Float>]
  /// Per piece: Q, unit square → quad − P.
  internal let _homographies: [Transform3D]
  internal let _table: _CurveTable
  internal let _perspective: Transform3D
  /// The latest start + duration.
  public let endTime: Double

  /// - Complexity: O(pieces).
  public init(
    width: Double, height: Double, columns: Int = GlassBreakTransition.defaultGrid,
    rows: Int = GlassBreakTransition.defaultGrid, seed: UInt64 = 0,
    timingFunction: TimingFunction = .easeIn
  ) {
    do {
      try GlassBreakTransition.validate(width: width, height: height, columns: columns, rows: rows)
    } catch {
      preconditionFailure("GlassBreakTransition: \(error)")
    }
    self.width = width
    self.height = height
    self.columns = columns
    self.rows = rows
    self.seed = seed
    self.timingFunction = timingFunction
    let w = width / Double(columns)
    let h = height / Double(rows)
    let cornerRandom = RandomStream(seed: seed, stream: GlassBreakTransition.randomStream)
    let pieceRandom = RandomStream(seed: seed, stream: GlassBreakTransition.randomStream + 1)
    // The lattice of (columns + 1) × (rows + 1) corners.
    var lattice: [SIMD2<Double>] = []
    lattice.reserveCapacity((columns + 1) * (rows + 1))
    for r in 0...rows {
      for c in 0...columns {
        var p = SIMD2(Double(c) * w, Double(r) * h)
        let u = SIMD4<Double>(cornerRandom.uniforms(block: UInt64(lattice.count)))
        if c != 0 && c != columns { p.x += (2 * u.x - 1) * (0.3 + 0.6 * u.y) * w / 4 }
        if r != 0 && r != rows { p.y += (2 * u.z - 1) * (0.3 + 0.6 * u.w) * h / 4 }
        lattice.append(p)
      }
    }
    var quads: [SIMD2<Double>] = []
    var draws: [SIMD4<Double>] = []
    var pivots: [SIMD4<Float>] = []
    var homographies: [Transform3D] = []
    var end = 0.0
    for r in 0..<rows {
      for c in 0..<columns {
        let i = r * (columns + 1) + c
        let q = [lattice[i], lattice[i + 1], lattice[i + columns + 2], lattice[i + columns + 1]]
        quads += q
        let lo = SIMD2(Swift.min(q[0].x, q[3].x), Swift.min(q[0].y, q[1].y))
        let hi = SIMD2(Swift.max(q[1].x, q[2].x), Swift.max(q[2].y, q[3].y))
        let pivot = (lo + hi) / 2
        let u = SIMD4<Double>(pieceRandom.uniforms(block: UInt64(draws.count)))
        let d = SIMD4(0.3 + 0.7 * u.x, 0.5 + 0.5 * u.y, (2 * u.z - 1) * w * 0.1, (2 * u.w - 1) * Double.pi / 4)
        draws.append(d)
        end = Swift.max(end, d.x + d.y)
        pivots.append(SIMD4(Float(pivot.x), Float(pivot.y), Float(height + (hi.y - lo.y)), 0))
        homographies.append(GlassBreakTransition.squareToQuad(q.map { $0 - pivot }))
      }
    }
    self.quads = quads
    _draws = draws
    _pivots = pivots
    _homographies = homographies
    endTime = end
    _table = _CurveTable(timingFunction)
    _perspective = _ShatterPipeline.perspective(
      width: width, height: height, eyeDistance: CheckerboardTransition.defaultEyeDistance)
  }

  /// Checks the inputs: the checkerboard's size limits, 1…4096 columns and rows
  /// and at most ``CheckerboardPlan/maximumTileCount`` pieces.
  /// - Complexity: O(1).
  public static func validate(
    width: Double, height: Double, columns: Int = defaultGrid, rows: Int = defaultGrid
  ) throws(ShatterPlanError) {
    for (name, value) in [("width", width), ("height", height)] {
      guard value.isFinite, value > 0, value <= CheckerboardPlan.maximumSide else {
        throw .invalidSize(field: name, value: value)
      }
    }
    for value in [columns, rows] {
      guard value >= 1 && value <= 4096 else {
        throw .invalidDivisor(value, reason: "(glass-break grid) must be in 1...4096")
      }
    }
    guard columns * rows <= CheckerboardPlan.maximumTileCount else {
      throw .tooManyTiles(count: columns * rows, limit: CheckerboardPlan.maximumTileCount)
    }
  }

  /// The projective map (row-vector 4×4 acting on (u, v, 0, 1)) that takes the
  /// unit square's (0,0), (1,0), (1,1), (0,1) to q[0…3] (Heckbert 1989,
  /// "Fundamentals of Texture Mapping", §2.2.3):
  ///
  /// ```
  /// x = (a·u + b·v + c) / (g·u + h·v + 1),   y = (d·u + e·v + f) / (g·u + h·v + 1)
  /// ```
  ///
  /// g = h = 0 exactly when the quad is a parallelogram. Computed in `Double`.
  internal static func squareToQuad(_ q: [SIMD2<Double>]) -> Transform3D {
    let sx = q[0].x - q[1].x + q[2].x - q[3].x
    let sy = q[0].y - q[1].y + q[2].y - q[3].y
    var g = 0.0
    var h = 0.0
    if sx != 0 || sy != 0 {
      let dx1 = q[1].x - q[2].x
      let dx2 = q[3].x - q[2].x
      let dy1 = q[1].y - q[2].y
      let dy2 = q[3].y - q[2].y
      let det = dx1 * dy2 - dx2 * dy1
      g = (sx * dy2 - sy * dx2) / det
      h = (dx1 * sy - dy1 * sx) / det
    }
    let a = q[1].x - q[0].x + g * q[1].x
    let b = q[3].x - q[0].x + h * q[3].x
    let d = q[1].y - q[0].y + g * q[1].y
    let e = q[3].y - q[0].y + h * q[3].y
    return Transform3D(
      m11: Float(a), m12: Float(d), m13: 0, m14: Float(g),
      m21: Float(b), m22: Float(e), m23: 0, m24: Float(h),
      m31: 0, m32: 0, m33: 1, m34: 0,
      m41: Float(q[0].x), m42: Float(q[0].y), m43: 0, m44: 1)
  }

  /// A piece's schedule and motion draws.
  /// - Complexity: O(1).
  public func draws(ofPiece index: Int) -> (start: Double, duration: Double, drift: Double, spin: Double) {
    let d = _draws[index]
    return (d.x, d.y, d.z, d.w)
  }

  /// A frame sized for this grid; texture corners are the shards' home quads.
  /// - Complexity: O(pieces).
  public func makeFrame() -> ShatterFrame {
    let size = SIMD2(width, height)
    return ShatterFrame(
      _frameShape,
      textureCorners: quads.map { SIMD2<Float>($0 / size) })
  }

  /// What a frame of this transition keeps: the grid, the container, the
  /// seed that jittered the shards (their texture corners) and the
  /// to-snapshot backdrop.
  internal var _frameShape: ShatterFrame._Shape {
    ShatterFrame._Shape(
      style: .glassBreak, columns: columns, rows: rows, width: width, height: height, backdrop: .toSnapshot,
      cells: .shards(seed: seed))
  }

  internal func _checkFrame(_ frame: ShatterFrame) {
    frame._precondition(fits: _frameShape, caller: "GlassBreakTransition.evaluate")
  }

  /// Evaluates every shard at `time` with the batched operations.
  /// - Complexity: O(pieces), one sine and cosine per shard. Once `frame` has
  ///   been used, no allocation with one thread and the `scalar`, `simd` or
  ///   `automatic` backend; the `blas` backend allocates its packing buffer
  ///   per call (per 512-piece chunk).
  public func evaluate(
    at time: Double, into frame: inout ShatterFrame, backend: TransformBackend = .automatic,
    threads: Int = 1
  ) {
    precondition(time.isFinite, "GlassBreakTransition.evaluate: time must be finite, got \(time)")
    _checkFrame(frame)
    _ShatterPipeline.run(
      &frame, perspective: _perspective, backend: backend, threads: threads,
      builder: _Builder(
        draws: _draws, pivots: _pivots, homographies: _homographies, table: _table, time: time))
    frame.time = time
    frame.isComplete = time >= endTime
  }

  /// The naive per-shard reference (see `CheckerboardTransition.evaluateNaively(at:into:)`).
  /// - Complexity: O(pieces).
  package func evaluateNaively(at time: Double, into frame: inout ShatterFrame) {
    precondition(time.isFinite, "GlassBreakTransition.evaluateNaively: time must be finite, got \(time)")
    _checkFrame(frame)
    for i in 0..<(columns * rows) {
      let d = _draws[i]
      let progress = Swift.min(Swift.max((time - d.x) / d.y, 0), 1)
      let e = timingFunction.value(at: progress)
      let p = _pivots[i]
      let local = _homographies[i]
        .concatenating(.makeRotation(angle: Float(e * d.w), x: 0, y: 0, z: 1))
        .concatenating(.makeTranslation(x: p.x + Float(e * d.z), y: p.y + Float(e) * p.z, z: 0))
      let transform = local.concatenating(_perspective)
      frame.transforms[i] = transform
      _ShatterPipeline.projectNaively(transform, into: &frame.corners, at: i)
      frame.pieces[i] = ShatterPieceState(progress: Float(progress), opacity: 1, depth: 0, face: .from)
    }
    frame.time = time
    frame.isComplete = time >= endTime
  }
}

extension GlassBreakTransition {
  /// The batched path's per-shard kernel: Q · rotate · translate in closed form.
  internal struct _Builder: _PieceBuilder {
    let draws: [SIMD4<Double>]
    let pivots: [SIMD4<Float>]
    let homographies: [Transform3D]
    let table: _CurveTable
    let time: Double

    func build(
      _ range: Range<Int>, locals: UnsafeMutablePointer<Transform3D>,
      states: UnsafeMutablePointer<ShatterPieceState>
    ) {
      draws.withUnsafeBufferPointer { draws in
        pivots.withUnsafeBufferPointer { pivots in
          homographies.withUnsafeBufferPointer { homographies in
            table.nodes.withUnsafeBufferPointer { nodes in
              for j in 0..<range.count {
                let i = range.lowerBound + j
                let d = draws[i]
                let x = (time - d.x) / d.y
                let low = x > 0 ? x : 0
                let progress = low < 1 ? low : 1
                // Safe: the table always has 4098 nodes.
                let e = _CurveTable.lookup(progress, in: nodes.baseAddress!).x
                let angle = Double(e) * d.w
                let c = Float(_cos(angle))
                let n = Float(_sin(angle))
                let p = pivots[i]
                let tx = p.x + e * Float(d.z)
                let ty = p.y + e * p.z
                let q = homographies[i]
                // row · [c n 0 0; −n c 0 0; 0 0 1 0; tx ty 0 1]
                @inline(__always) func move(_ r: SIMD4<Float>) -> SIMD4<Float> {
                  SIMD4(r.x * c - r.y * n + r.w * tx, r.x * n + r.y * c + r.w * ty, r.z, r.w)
                }
                locals[j] = Transform3D(
                  row1: move(q.row1), row2: move(q.row2), row3: move(q.row3), row4: move(q.row4))
                states[j] = ShatterPieceState(progress: Float(progress), opacity: 1, depth: 0, face: .from)
              }
            }
          }
        }
      }
    }
  }
}
