import SleetMath

/// VCTransitionsLibrary's explode (`CEExplodeAnimationController`): the
/// from-snapshot is cut into squares of side a = W/divisor that all fly apart
/// at once, spin, shrink to nothing and fade out, uncovering the to-view.
///
/// With grid columns = divisor, rows = ⌈H/a⌉ (the last row may overhang), and
/// per piece i the seeded draws
///
/// ```
/// (dx, dy) ∈ U[−100, 100]² pt,   α ∈ U[−10, 10] rad
/// e = easeInEaseOut(clamp(t / D, 0, 1)),  D = 1 s
/// local(u, v) = (a·(u − ½), a·(v − ½), 0) · scale(1 − e) · rotate(e·α, 0, 0, 1)
///               + (cx + e·dx, cy + e·dy, 0)
/// opacity = 1 − e
/// ```
///
/// (UIKit interpolates the sample's frame, alpha and transform this way under
/// its default curve.) All pieces share one schedule, so the curve is evaluated
/// exactly once per frame. The direction of the navigation does not change the
/// effect. The draws come from `RandomStream(seed:, stream: 0x45584c44)`
/// ("EXLD"): block i gives (dx, dy, α, unused) for piece i.
public struct ExplodeTransition: Sendable {
  /// D, seconds: the library's 1 s.
  public static let defaultDuration = 1.0
  /// The largest drift of a piece along x and along y, points (draws are
  /// uniform in ±100).
  public static let defaultMaximumOffset: Float = 100
  /// The largest total rotation of a piece, radians (draws are uniform in
  /// ±10, as the library's).
  public static let defaultMaximumAngle: Float = 10
  /// The random stream number of the explode draws.
  public static let randomStream: UInt64 = 0x4558_4c44

  /// Container width W, points.
  public let width: Double
  /// Container height H, points.
  public let height: Double
  /// Pieces per row: the piece side is W / divisor.
  public let divisor: Int
  /// D, seconds.
  public let duration: Double
  /// Seed of the per-piece draws.
  public let seed: UInt64
  /// The curve e(t/D) (the library's ease-in-ease-out).
  public let timingFunction: TimingFunction
  /// a = W / divisor.
  public let pieceSide: Double
  /// Grid columns (= `divisor`).
  public let columns: Int
  /// Grid rows, ⌈H / pieceSide⌉ (the last row may overhang the container).
  public let rows: Int

  /// Per piece: (dx, dy, α, 0).
  internal let _draws: [SIMD4<Float>]
  internal let _perspective: Transform3D

  /// - Complexity: O(pieces): one Philox block per piece.
  public init(
    width: Double, height: Double, divisor: Int = CheckerboardPlan.defaultDivisor,
    duration: Double = ExplodeTransition.defaultDuration, seed: UInt64 = 0,
    timingFunction: TimingFunction = .easeInEaseOut,
    maximumOffset: Float = ExplodeTransition.defaultMaximumOffset,
    maximumAngle: Float = ExplodeTransition.defaultMaximumAngle
  ) {
    do {
      try ExplodeTransition.validate(width: width, height: height, divisor: divisor, duration: duration)
    } catch {
      preconditionFailure("ExplodeTransition: \(error)")
    }
    self.width = width
    self.height = height
    self.divisor = divisor
    self.duration = duration
    self.seed = seed
    self.timingFunction = timingFunction
    pieceSide = width / Double(divisor)
    columns = divisor
    rows = ExplodeTransition.rows(width: width, height: height, divisor: divisor)
    let random = RandomStream(seed: seed, stream: ExplodeTransition.randomStream)
    let n = columns * rows
    _draws = (0..<n).map { i in
      let u = random.uniforms(block: UInt64(i))
      return SIMD4(
        (2 * u.x - 1) * maximumOffset, (2 * u.y - 1) * maximumOffset, (2 * u.z - 1) * maximumAngle, 0)
    }
    _perspective = _ShatterPipeline.perspective(
      width: width, height: height, eyeDistance: CheckerboardTransition.defaultEyeDistance)
  }

  /// ⌈H/a⌉ with a = W/divisor, computed as ⌈H·divisor/W⌉ less a relative
  /// 1e−12 so that an exact fit does not gain a row to rounding.
  internal static func rows(width: Double, height: Double, divisor: Int) -> Int {
    Swift.max(1, Int((height * Double(divisor) / width * (1 - 1e-12)).rounded(.up)))
  }

  /// Checks the inputs; the limits are the checkerboard's (a ≥ 1 pt, at most
  /// ``CheckerboardPlan/maximumTileCount`` pieces).
  /// - Complexity: O(1).
  public static func validate(
    width: Double, height: Double, divisor: Int = CheckerboardPlan.defaultDivisor,
    duration: Double = defaultDuration
  ) throws(ShatterPlanError) {
    for (name, value) in [("width", width), ("height", height)] {
      guard value.isFinite, value > 0, value <= CheckerboardPlan.maximumSide else {
        throw .invalidSize(field: name, value: value)
      }
    }
    guard divisor >= 1 else { throw .invalidDivisor(divisor, reason: "must be at least 1") }
    guard width / Double(divisor) >= 1 else {
      throw .invalidDivisor(divisor, reason: "gives a piece side \(width)/\(divisor) below 1 pt")
    }
    let count = Double(divisor) * Double(rows(width: width, height: height, divisor: divisor))
    guard count <= Double(CheckerboardPlan.maximumTileCount) else {
      throw .tooManyTiles(count: Int(count), limit: CheckerboardPlan.maximumTileCount)
    }
    guard duration.isFinite, duration > 0 else { throw .invalidTiming(field: "duration", value: duration) }
  }

  /// The piece's random draws: offset (dx, dy) in points and angle in radians.
  /// - Complexity: O(1).
  public func draws(ofPiece index: Int) -> (offset: SIMD2<Float>, angle: Float) {
    let d = _draws[index]
    return (SIMD2(d.x, d.y), d.z)
  }

  /// D: every piece is gone from this time on.
  public var endTime: Double { duration }

  /// A frame sized for this grid.
  /// - Complexity: O(pieces).
  public func makeFrame() -> ShatterFrame {
    ShatterFrame(
      _frameShape,
      textureCorners: _ShatterPipeline.gridTextureCorners(
        columns: columns, rows: rows, cellWidth: pieceSide, cellHeight: pieceSide,
        width: width, height: height))
  }

  /// What a frame of this transition keeps: the grid, the container, the
  /// piece side and the to-snapshot backdrop.
  internal var _frameShape: ShatterFrame._Shape {
    ShatterFrame._Shape(
      style: .explode, columns: columns, rows: rows, width: width, height: height, backdrop: .toSnapshot,
      cells: .grid(width: pieceSide, height: pieceSide))
  }

  internal func _checkFrame(_ frame: ShatterFrame) {
    frame._precondition(fits: _frameShape, caller: "ExplodeTransition.evaluate")
  }

  /// Evaluates every piece at `time` with the batched operations.
  /// - Complexity: O(pieces), one sine and cosine per piece. Once `frame` has
  ///   been used, no allocation with one thread and the `scalar`, `simd` or
  ///   `automatic` backend; the `blas` backend allocates its packing buffer
  ///   per call (per 512-piece chunk).
  public func evaluate(
    at time: Double, into frame: inout ShatterFrame, backend: TransformBackend = .automatic,
    threads: Int = 1
  ) {
    precondition(time.isFinite, "ExplodeTransition.evaluate: time must be finite, got \(time)")
    _checkFrame(frame)
    let progress = Swift.min(Swift.max(time / duration, 0), 1)
    let e = timingFunction.value(at: progress)
    _ShatterPipeline.run(
      &frame, perspective: _perspective, backend: backend, threads: threads,
      builder: _Builder(
        draws: _draws, columns: columns, pieceSide: pieceSide, progress: progress, eased: e))
    frame.time = time
    frame.isComplete = time >= duration
  }

  /// The naive per-piece reference (see `CheckerboardTransition.evaluateNaively(at:into:)`).
  /// - Complexity: O(pieces).
  package func evaluateNaively(at time: Double, into frame: inout ShatterFrame) {
    precondition(time.isFinite, "ExplodeTransition.evaluateNaively: time must be finite, got \(time)")
    _checkFrame(frame)
    let progress = Swift.min(Swift.max(time / duration, 0), 1)
    let e = timingFunction.value(at: progress)
    let a = Float(pieceSide)
    for row in 0..<rows {
      for column in 0..<columns {
        let i = row * columns + column
        let d = _draws[i]
        let centre = SIMD2(
          Float(Double(column) * pieceSide + pieceSide / 2) + Float(e) * d.x,
          Float(Double(row) * pieceSide + pieceSide / 2) + Float(e) * d.y)
        let local = Transform3D.makeScale(x: a, y: a, z: 1)
          .concatenating(.makeTranslation(x: -a / 2, y: -a / 2, z: 0))
          .concatenating(.makeScale(x: Float(1 - e), y: Float(1 - e), z: 1))
          .concatenating(.makeRotation(angle: Float(e * Double(d.z)), x: 0, y: 0, z: 1))
          .concatenating(.makeTranslation(x: centre.x, y: centre.y, z: 0))
        let transform = local.concatenating(_perspective)
        frame.transforms[i] = transform
        _ShatterPipeline.projectNaively(transform, into: &frame.corners, at: i)
        frame.pieces[i] = ShatterPieceState(
          progress: Float(progress), opacity: Float(1 - e), depth: 0, face: .from)
      }
    }
    frame.time = time
    frame.isComplete = time >= duration
  }
}

extension ExplodeTransition {
  /// The batched path's per-piece kernel: the closed-form local matrix.
  internal struct _Builder: _PieceBuilder {
    let draws: [SIMD4<Float>]
    let columns: Int
    let pieceSide: Double
    let progress: Double
    let eased: Double

    func build(
      _ range: Range<Int>, locals: UnsafeMutablePointer<Transform3D>,
      states: UnsafeMutablePointer<ShatterPieceState>
    ) {
      let e = eased
      let ef = Float(e)
      let k = Float(1 - e)
      let a = pieceSide
      let h = a / 2
      let akf = Float(a) * k
      let hkf = Float(h) * k
      let nx = columns
      draws.withUnsafeBufferPointer { draws in
        var column = range.lowerBound % nx
        var row = range.lowerBound / nx
        for j in 0..<range.count {
          let d = draws[range.lowerBound + j]
          let angle = e * Double(d.z)
          let c = Float(_cos(angle))
          let n = Float(_sin(angle))
          let cx = Float(Double(column) * a + h) + ef * d.x
          let cy = Float(Double(row) * a + h) + ef * d.y
          locals[j] = Transform3D(
            row1: SIMD4(akf * c, akf * n, 0, 0),
            row2: SIMD4(-akf * n, akf * c, 0, 0),
            row3: SIMD4(0, 0, 1, 0),
            row4: SIMD4(cx - hkf * (c - n), cy - hkf * (n + c), 0, 1))
          states[j] = ShatterPieceState(progress: Float(progress), opacity: k, depth: 0, face: .from)
          column += 1
          if column == nx {
            column = 0
            row += 1
          }
        }
      }
    }
  }
}
