import SleetMath

/// Apple's checkerboard transition evaluated at any time: every tile is one
/// rigid card that flips about its own vertical axis, from-snapshot in front,
/// to-snapshot behind.
///
/// For a tile with local progress x = clamp((t − delay)/duration, 0, 1):
///
/// ```
/// e = easeInEaseOut(x),   θ = π·e
/// front (from) visible while θ ≤ π/2:   φ = θ
/// back  (to)   visible after:           φ = θ − π
/// local(u, v) = (s·(u − ½), s·(v − ½), 0) · rotate(φ, 0, 1, 0) + (cx, cy, 0)
/// transform   = local · translate(−C) · (m34 = −1/900) · translate(C)
/// ```
///
/// where (cx, cy) is the tile's centre and C the container's. Written out, the
/// local matrix is (c = cos φ, n = sin φ, h = s/2)
///
/// ```
/// ⎡ s·c        0       −s·n   0⎤
/// ⎢ 0          s        0     0⎥
/// ⎢ n          0        c     0⎥
/// ⎣ cx − h·c   cy − h   h·n   1⎦
/// ```
///
/// The batched path builds this closed form per tile (with the curve and its
/// cosine and sine read from a 4096-segment table, see `_CurveTable`), then
/// runs the shared `Transform3DBatch` operations 1 and 3. The naive path
/// (``evaluateNaively(at:into:)``) composes the same product from
/// `Transform3D` constructors one tile at a time with the exact curve.
///
/// **Postconditions:** the two paths agree to within 1e−3 pt per corner for
/// any container up to ``CheckerboardPlan/maximumSide`` and any backend.
public struct CheckerboardTransition: Sendable {
  /// The sample's eye distance: `sublayerTransform.m34 = −1/900`.
  public static let defaultEyeDistance: Float = 900

  /// The tiling and schedule.
  public let plan: CheckerboardPlan
  /// Each flip's curve (UIKit's default for `animateWithDuration:…options:0`).
  public let timingFunction: TimingFunction
  /// The perspective eye distance in points.
  public let eyeDistance: Float

  internal let _table: _CurveTable
  internal let _perspective: Transform3D

  /// - Complexity: O(1) plus one 4097-node curve table (about 0.5 ms).
  public init(
    plan: CheckerboardPlan, timingFunction: TimingFunction = .easeInEaseOut,
    eyeDistance: Float = CheckerboardTransition.defaultEyeDistance
  ) {
    precondition(
      eyeDistance > 0 && eyeDistance.isFinite,
      "CheckerboardTransition: eyeDistance must be positive and finite, got \(eyeDistance)")
    self.plan = plan
    self.timingFunction = timingFunction
    self.eyeDistance = eyeDistance
    _table = _CurveTable(timingFunction)
    _perspective = _ShatterPipeline.perspective(
      width: plan.width, height: plan.height, eyeDistance: eyeDistance)
  }

  /// The time from which every tile shows its to-face at rest.
  public var endTime: Double { plan.endTime }

  /// A frame sized for this plan (the only allocation; reuse it).
  /// - Complexity: O(tiles).
  public func makeFrame() -> ShatterFrame {
    ShatterFrame(
      columns: plan.columns, rows: plan.rows, width: plan.width, height: plan.height,
      backdrop: .black,
      textureCorners: _ShatterPipeline.gridTextureCorners(
        columns: plan.columns, rows: plan.rows, cellWidth: plan.slice, cellHeight: plan.slice,
        width: plan.width, height: plan.height))
  }

  /// The container-space perspective about the centre (shared by every tile).
  public var perspective: Transform3D { _perspective }

  internal func _checkFrame(_ frame: ShatterFrame) {
    precondition(
      frame.columns == plan.columns && frame.rows == plan.rows,
      "CheckerboardTransition.evaluate: the frame was made for \(frame.columns)×\(frame.rows) pieces, the plan has \(plan.columns)×\(plan.rows)"
    )
  }

  /// Evaluates every tile at `time` into `frame` with the batched operations.
  ///
  /// - Parameters:
  ///   - threads: workers for `DispatchQueue.concurrentPerform`; the output is
  ///     bit-identical for any value.
  /// - Complexity: O(tiles); no allocation once `frame` has been used.
  public func evaluate(
    at time: Double, into frame: inout ShatterFrame, backend: TransformBackend = .automatic,
    threads: Int = 1
  ) {
    precondition(time.isFinite, "CheckerboardTransition.evaluate: time must be finite, got \(time)")
    _checkFrame(frame)
    _ShatterPipeline.run(
      &frame, perspective: _perspective, backend: backend, threads: threads,
      builder: _Builder(plan: plan, curve: timingFunction, table: _table, time: time))
    frame.time = time
    frame.isComplete = time >= plan.endTime
  }

  /// The naive per-tile reference: each tile's matrices built one at a time
  /// from `Transform3D` constructors, the exact timing curve, and each corner
  /// projected with `Transform3D.projecting`. The benchmark baseline and the
  /// test oracle of ``evaluate(at:into:backend:threads:)``.
  /// - Complexity: O(tiles); no allocation once `frame` has been used.
  public func evaluateNaively(at time: Double, into frame: inout ShatterFrame) {
    precondition(time.isFinite, "CheckerboardTransition.evaluateNaively: time must be finite, got \(time)")
    _checkFrame(frame)
    for row in 0..<plan.rows {
      for column in 0..<plan.columns {
        let i = row * plan.columns + column
        let tile = naiveTile(column: column, row: row, at: time)
        frame.transforms[i] = tile.transform
        frame.corners[4 * i] = tile.corners.0
        frame.corners[4 * i + 1] = tile.corners.1
        frame.corners[4 * i + 2] = tile.corners.2
        frame.corners[4 * i + 3] = tile.corners.3
        frame.pieces[i] = tile.state
      }
    }
    frame.time = time
    frame.isComplete = time >= plan.endTime
  }

  /// One tile of the naive reference: its transform (unit square → container
  /// space), projected corners TL, TR, BR, BL (NaN behind the eye) and state.
  /// - Complexity: O(1), no allocation.
  public func naiveTile(column: Int, row: Int, at time: Double) -> (
    transform: Transform3D,
    corners: (SIMD2<Float>, SIMD2<Float>, SIMD2<Float>, SIMD2<Float>),
    state: ShatterPieceState
  ) {
    let s = Float(plan.slice)
    let h = s / 2
    let progress = plan.progress(column: column, row: row, at: time)
    let e = timingFunction.value(at: progress)
    let theta = Double.pi * e
    let front = e <= 0.5
    let phi = front ? theta : theta - Double.pi
    let rect = plan.tileRect(column: column, row: row)
    let local = Transform3D.makeScale(x: s, y: s, z: 1)
      .concatenating(.makeTranslation(x: -h, y: -h, z: 0))
      .concatenating(.makeRotation(angle: Float(phi), x: 0, y: 1, z: 0))
      .concatenating(
        .makeTranslation(x: Float(rect.x + rect.width / 2), y: Float(rect.y + rect.height / 2), z: 0))
    let unit = (SIMD3<Float>(0, 0, 0), SIMD3<Float>(1, 0, 0), SIMD3<Float>(1, 1, 0), SIMD3<Float>(0, 1, 0))
    let depth = Swift.max(
      Swift.max(local.applying(to: unit.0).z, local.applying(to: unit.1).z),
      Swift.max(local.applying(to: unit.2).z, local.applying(to: unit.3).z))
    let transform = local.concatenating(_perspective)
    func project(_ corner: SIMD3<Float>) -> SIMD2<Float> {
      guard let p = transform.projecting(corner) else { return SIMD2(.nan, .nan) }
      return SIMD2(p.x, p.y)
    }
    return (
      transform, (project(unit.0), project(unit.1), project(unit.2), project(unit.3)),
      ShatterPieceState(progress: Float(progress), opacity: 1, depth: depth, face: front ? .from : .to)
    )
  }
}

extension CheckerboardTransition {
  /// The batched path's per-tile kernel: the closed-form local matrix.
  internal struct _Builder: _PieceBuilder {
    let plan: CheckerboardPlan
    let curve: TimingFunction
    let table: _CurveTable
    let time: Double

    func build(
      _ range: Range<Int>, locals: UnsafeMutablePointer<Transform3D>,
      states: UnsafeMutablePointer<ShatterPieceState>
    ) {
      let nx = plan.columns
      let s = plan.slice
      let h = s / 2
      let sf = Float(s)
      let hf = Float(h)
      table.nodes.withUnsafeBufferPointer { nodeBuffer in
        // Safe: the table always has 4097 nodes.
        let nodes = nodeBuffer.baseAddress!
        var column = range.lowerBound % nx
        var row = range.lowerBound / nx
        for k in 0..<range.count {
          // The same function as the naive path, so both see the same progress.
          let progress = plan.progress(column: column, row: row, at: time)
          let f = _CurveTable.lookup(progress, in: nodes)
          // e ≤ ½: front face at φ = θ; else the back face at φ = θ − π,
          // whose cosine and sine are the negatives. Within 1e−5 of the
          // edge-on instant the table's rounding could pick the other face
          // than the exact curve, so the exact curve decides there (rare).
          let front = abs(f.x - 0.5) > 1e-5 ? f.x <= 0.5 : curve.value(at: progress) <= 0.5
          let c = front ? f.y : -f.y
          let n = front ? f.z : -f.z
          let cx = Float(Double(column) * s + h)
          let cy = Float(Double(row) * s + h)
          locals[k] = Transform3D(
            row1: SIMD4(sf * c, 0, -sf * n, 0),
            row2: SIMD4(0, sf, 0, 0),
            row3: SIMD4(n, 0, c, 0),
            row4: SIMD4(cx - hf * c, cy - hf, hf * n, 1))
          states[k] = ShatterPieceState(
            progress: Float(progress), opacity: 1, depth: hf * abs(n), face: front ? .from : .to)
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
