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
/// (`evaluateNaively(at:into:)`, package access) composes the same product from
/// `Transform3D` constructors one tile at a time with the exact curve.
///
/// **Postconditions:** the two paths agree to within a tolerance that grows
/// with the container, m = max(W, H) in points: 1e−3 + 2e−6·m pt per
/// projected corner and 1e−4 + 1e−6·m·max(1, m/900) per transform entry
/// (Float32 error relative to the size of the values), with equal faces.
/// `BackendAgreementTests` checks every backend on every tile up to 7 000
/// tiles, and `simd` and `blas` on a lattice of 728 tiles of a 1 000 000-tile
/// grid (m = 1000, 3e−3 pt).
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

  /// - Complexity: O(1) plus one 4098-node curve table (4098 evaluations of
  ///   the timing curve and their cosines and sines).
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

  /// A frame sized for this plan (allocate once; reuse it).
  /// - Complexity: O(tiles).
  public func makeFrame() -> ShatterFrame {
    ShatterFrame(
      _frameShape,
      textureCorners: _ShatterPipeline.gridTextureCorners(
        columns: plan.columns, rows: plan.rows, cellWidth: plan.slice, cellHeight: plan.slice,
        width: plan.width, height: plan.height))
  }

  /// The container-space perspective about the centre (shared by every tile).
  public var perspective: Transform3D { _perspective }

  /// What a frame of this transition keeps: the plan's grid, container and
  /// tile side, and the black backdrop.
  internal var _frameShape: ShatterFrame._Shape {
    ShatterFrame._Shape(
      style: .checkerboard, columns: plan.columns, rows: plan.rows, width: plan.width, height: plan.height,
      backdrop: .black, cells: .grid(width: plan.slice, height: plan.slice))
  }

  internal func _checkFrame(_ frame: ShatterFrame) {
    frame._precondition(fits: _frameShape, caller: "CheckerboardTransition.evaluate")
  }

  /// Evaluates every tile at `time` into `frame` with the batched operations.
  ///
  /// - Parameters:
  ///   - threads: workers for `DispatchQueue.concurrentPerform`; the output is
  ///     bit-identical for any value.
  /// - Complexity: O(tiles). Once `frame` has been used, no allocation with
  ///   one thread and the `scalar`, `simd` or `automatic` backend; the `blas`
  ///   backend allocates its packing buffer per call (per 512-tile chunk).
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
  /// - Complexity: O(tiles); no allocation.
  package func evaluateNaively(at time: Double, into frame: inout ShatterFrame) {
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
  package func naiveTile(column: Int, row: Int, at time: Double) -> (
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
  ///
  /// Blocks of ``_restBlock`` tiles of a row whose two ends are at rest at
  /// the same end are written without any progress (see ``_restBlock``).
  /// Runs of four tiles within one grid row are evaluated four lanes at a
  /// time: the progress in `Double` lanes, then, when all four cards are at
  /// rest at the same end (progress 0 or 1, most of a large grid at any
  /// instant), matrices that differ only in the centre, from a
  /// ``_RestCard`` computed once per call; otherwise ``_buildFourMoving``
  /// (table lookup and face per lane). Row ends, a chunk's tail and grids
  /// narrower than four go through ``_buildOne``. All of them evaluate the
  /// same expressions in the same order, lane for lane, so a tile's output
  /// does not depend on which of them built it (nor, therefore, on the
  /// chunking or the thread count).
  internal struct _Builder: _PieceBuilder {
    let plan: CheckerboardPlan
    let curve: TimingFunction
    let table: _CurveTable
    let time: Double

    /// What every card at rest at one end shares: `_buildOne`'s rows 1–3,
    /// hf·c and hf·n, and its state record, for the table node of that end.
    struct _RestCard {
      var row1: SIMD4<Float>
      var row2: SIMD4<Float>
      var row3: SIMD4<Float>
      var halfCosine: Float
      var halfSine: Float
      var record: SIMD4<UInt32>
    }

    /// The ``_RestCard`` for `progress` 0 or 1, whose lookup is the node `f`.
    func _restCard(_ f: SIMD4<Float>, progress: Double) -> _RestCard {
      let sf = Float(plan.slice)
      let hf = Float(plan.slice / 2)
      let front = abs(f.x - 0.5) > 1e-5 ? f.x <= 0.5 : curve.value(at: progress) <= 0.5
      let c = front ? f.y : -f.y
      let n = front ? f.z : -f.z
      return _RestCard(
        row1: SIMD4(sf * c, 0, -sf * n, 0), row2: SIMD4(0, sf, 0, 0), row3: SIMD4(n, 0, c, 0),
        halfCosine: hf * c, halfSine: hf * n,
        record: SIMD4(
          Float(progress).bitPattern, Float(1).bitPattern, (hf * abs(n)).bitPattern,
          front ? ShatterFace.from.rawValue : ShatterFace.to.rawValue))
    }

    func build(
      _ range: Range<Int>, locals: UnsafeMutablePointer<Transform3D>,
      states: UnsafeMutablePointer<ShatterPieceState>
    ) {
      let nx = plan.columns
      let s = plan.slice
      let h = s / 2
      let hf = Float(h)
      let coefficients = plan._dotCoefficients
      let delayScale = plan._delayScale
      let inverseDuration = plan._inverseTileDuration
      table.nodes.withUnsafeBufferPointer { nodeBuffer in
        // Safe: the table always has 4098 nodes.
        let nodes = nodeBuffer.baseAddress!
        let atStart = _restCard(nodes[0], progress: 0)
        let atEnd = _restCard(nodes[_CurveTable.segments], progress: 1)
        var column = range.lowerBound % nx
        var row = range.lowerBound / nx
        // The four lanes' columns and the row as `Double`, carried along
        // (exact: whole numbers) rather than converted at every step.
        var columns = SIMD4<Double>(repeating: Double(column)) + SIMD4(0, 1, 2, 3)
        var rowValue = Double(row)
        // The lanes' centres Float(column·s + h), carried in `Float` as well:
        // every value is k·s + s/2 with s a whole number and k·s < W + s ≤
        // 2·maximumSide, a half-integer below 2²², so the sums are exact and
        // equal `_buildOne`'s `Float(Double(column) * s + h)`.
        let sf = Float(s)
        let firstCentres = SIMD4<Float>(0, 1, 2, 3) * sf + hf
        var centres = SIMD4<Float>(columns * s + h)
        var rowTerm = coefficients.z * rowValue
        var cyMinusHalf = Float(rowValue * s + h) - hf
        let count = range.count
        var k = 0
        while k < count {
          if count &- k >= _restBlock && column &+ _restBlock <= nx {
            // A block of tiles at rest, decided from its two end tiles (see
            // `_restBlock`): then no tile of it needs its progress.
            let first = Double(column)
            let last = first + Double(_restBlock &- 1)
            let dotFirst = (coefficients.x + coefficients.y * first) + rowTerm
            let dotLast = (coefficients.x + coefficients.y * last) + rowTerm
            let pFirst = _progress(dot: dotFirst, delayScale, inverseDuration)
            let pLast = _progress(dot: dotLast, delayScale, inverseDuration)
            let sameSide = (dotFirst > 0 && dotLast > 0) || (dotFirst < 0 && dotLast < 0)
            if pFirst == pLast && (pFirst == 1 || (pFirst == 0 && sameSide)) {
              let card = pFirst == 0 ? atStart : atEnd
              for step in 0..<(_restBlock / 4) {
                _storeAtRest(
                  card, centres: centres, cyMinusHalf: cyMinusHalf, locals + (k &+ 4 &* step),
                  states + (k &+ 4 &* step))
                centres += 4 * sf
              }
              column &+= _restBlock
              columns += Double(_restBlock)
              k &+= _restBlock
              if column == nx {
                column = 0
                row &+= 1
                columns = SIMD4(0, 1, 2, 3)
                centres = firstCentres
                rowValue += 1
                rowTerm = coefficients.z * rowValue
                cyMinusHalf = Float(rowValue * s + h) - hf
              }
              continue
            }
          }
          if count &- k >= 4 && column &+ 4 <= nx {
            // plan.progress, lane for lane: ((a + b·column) + c·row), |·|·scale,
            // (t − delay)·(1/duration), clamped to [0, 1].
            let dot = (coefficients.x + coefficients.y * columns) + rowTerm
            // |dot| by clearing the sign bits, exactly as `abs`.
            let magnitude = unsafeBitCast(
              unsafeBitCast(dot, to: SIMD4<UInt64>.self) & 0x7FFF_FFFF_FFFF_FFFF, to: SIMD4<Double>.self)
            let x = (time - magnitude * delayScale) * inverseDuration
            var progress = x
            progress.replace(with: 0, where: .!(x .> 0))
            progress.replace(with: 1, where: .!(progress .< 1))
            // All four at 0, or all four at 1: and the lane masks together.
            let zeros = unsafeBitCast(progress .== 0, to: SIMD4<Int64>.self)
            let ones = unsafeBitCast(progress .== 1, to: SIMD4<Int64>.self)
            let z2 = zeros.lowHalf & zeros.highHalf
            let o2 = ones.lowHalf & ones.highHalf
            let allZero = z2[0] & z2[1]
            let allOne = o2[0] & o2[1]
            if allZero | allOne != 0 {
              _storeAtRest(
                allZero != 0 ? atStart : atEnd, centres: centres, cyMinusHalf: cyMinusHalf,
                locals + k, states + k)
            } else {
              _buildFourMoving(
                progress, centres: centres, cyMinusHalf: cyMinusHalf, nodes, locals + k, states + k)
            }
            column &+= 4
            columns += 4
            centres += 4 * sf
            k &+= 4
          } else {
            _buildOne(column: column, row: row, nodes, locals + k, states + k)
            column &+= 1
            columns += 1
            centres += sf
            k &+= 1
          }
          if column == nx {
            column = 0
            row &+= 1
            columns = SIMD4(0, 1, 2, 3)
            centres = firstCentres
            rowValue += 1
            rowTerm = coefficients.z * rowValue
            cyMinusHalf = Float(rowValue * s + h) - hf
          }
        }
      }
    }

    /// Tiles per block for the at-rest test from the block's two ends.
    ///
    /// Along a row the progress is quasi-concave in the column, in floating
    /// point too: `(a + b·column) + c·row` is monotone in the column (each
    /// rounded operation is monotone), so its magnitude falls then rises, and
    /// `(t − |·|·scale)·(1/duration)`, clamped, rises then falls. Hence if both
    /// ends of a block are at progress 1 every tile between is at 1; if both
    /// are at 0 and the dot product has the same strict sign at both ends (it
    /// cannot change sign between: the progress is monotone there) every tile
    /// is at 0. The end values are `plan.progress`'s own expressions, so a
    /// block's tiles are exactly what the per-tile paths would write.
    var _restBlock: Int { 16 }

    /// `plan.progress` from its dot product v·T (same operations, same order).
    @inline(__always)
    func _progress(dot: Double, _ delayScale: Double, _ inverseDuration: Double) -> Double {
      let x = (time - abs(dot) * delayScale) * inverseDuration
      let low = x > 0 ? x : 0
      return low < 1 ? low : 1
    }

    /// Four cards at rest at the same end: `_buildOne`'s matrix and state
    /// with the lane-invariant parts taken from `card`.
    /// - Invariant: `local` and `state` have 4 writable slots
    ///   (`ShatterPieceState` is a frozen 16-byte record of four 32-bit
    ///   words, written as one `SIMD4<UInt32>`).
    @inline(__always)
    func _storeAtRest(
      _ card: _RestCard, centres cx: SIMD4<Float>, cyMinusHalf: Float,
      _ local: UnsafeMutablePointer<Transform3D>, _ state: UnsafeMutablePointer<ShatterPieceState>
    ) {
      let d1 = cx - card.halfCosine
      let tail = SIMD4(0, cyMinusHalf, card.halfSine, 1)
      let raw = UnsafeMutableRawPointer(state)
      let matrices = UnsafeMutableRawPointer(local)
      let top = SIMD8(lowHalf: card.row1, highHalf: card.row2)
      for lane in 0..<4 {
        var row4 = tail
        row4.x = d1[lane]
        // 32-byte halves: one store each where the target has 256-bit vectors.
        matrices.storeBytes(of: top, toByteOffset: 64 &* lane, as: SIMD8<Float>.self)
        matrices.storeBytes(
          of: SIMD8(lowHalf: card.row3, highHalf: row4), toByteOffset: 64 &* lane &+ 32,
          as: SIMD8<Float>.self)
        raw.storeBytes(of: card.record, toByteOffset: 16 &* lane, as: SIMD4<UInt32>.self)
      }
    }

    /// One tile: progress, curve lookup, face, closed-form matrix, state.
    @inline(__always)
    func _buildOne(
      column: Int, row: Int, _ nodes: UnsafePointer<SIMD4<Float>>,
      _ local: UnsafeMutablePointer<Transform3D>, _ state: UnsafeMutablePointer<ShatterPieceState>
    ) {
      let s = plan.slice
      let h = s / 2
      let sf = Float(s)
      let hf = Float(h)
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
      local.pointee = Transform3D(
        row1: SIMD4(sf * c, 0, -sf * n, 0),
        row2: SIMD4(0, sf, 0, 0),
        row3: SIMD4(n, 0, c, 0),
        row4: SIMD4(cx - hf * c, cy - hf, hf * n, 1))
      state.pointee = ShatterPieceState(
        progress: Float(progress), opacity: 1, depth: hf * abs(n), face: front ? .from : .to)
    }

    /// Four consecutive tiles of a row (centres `cx`), one per lane, whose
    /// clamped `progress` is already known and not all at one rest end.
    ///
    /// Lane for lane the expressions of ``_buildOne``:
    /// ``_CurveTable/lookup(_:in:)``'s segment and interpolation (the padded
    /// last node makes x = 1 an ordinary segment with weight 0, which returns
    /// node N exactly, as the lookup does), the same face rule and products.
    /// Results are therefore bit-identical. Out of line: the flipping band is
    /// a small part of a large grid, and inlining it would crowd the registers
    /// of the loop around it.
    /// - Invariant: the four columns exist (`columns[3] < plan.columns`) and are
    ///   whole numbers, as is `row`; `local` and `state` have 4
    ///   writable slots (`ShatterPieceState` is a frozen 16-byte record of
    ///   four 32-bit words, written as one `SIMD4<UInt32>`).
    @inline(never)
    func _buildFourMoving(
      _ progress: SIMD4<Double>, centres cx: SIMD4<Float>, cyMinusHalf: Float,
      _ nodes: UnsafePointer<SIMD4<Float>>,
      _ local: UnsafeMutablePointer<Transform3D>, _ state: UnsafeMutablePointer<ShatterPieceState>
    ) {
      let s = plan.slice
      let h = s / 2
      let sf = Float(s)
      let hf = Float(h)

      // Curve lookup per lane (a gather), as `_CurveTable.lookup`. The
      // segment ⌊f⌋ (0 ≤ f ≤ N) without per-lane range checks: adding 2⁵²
      // rounds f to the nearest integer r in the low mantissa bits; r − 1
      // where r > f. Exact for 0 ≤ f < 2⁵¹, so ⌊f⌋ and f − ⌊f⌋ equal
      // `Int(f)` and `f − Double(Int(f))`.
      let scaled = progress * Double(_CurveTable.segments)
      let magic = SIMD4<Double>(repeating: 0x1p52)
      var rounded = (scaled + magic) - magic
      rounded.replace(with: rounded - 1, where: rounded .> scaled)
      let weight = SIMD4<Float>(scaled - rounded)
      let bits = unsafeBitCast(rounded + magic, to: SIMD4<UInt64>.self) & 0xF_FFFF
      let progressBits = unsafeBitCast(SIMD4<Float>(progress), to: SIMD4<UInt32>.self)
      let matrices = UnsafeMutableRawPointer(local)
      let records = UnsafeMutableRawPointer(state)
      @inline(__always) func tile(_ lane: Int) {
        let segment = Int(truncatingIfNeeded: bits[lane])
        let a = nodes[segment]
        let b = nodes[segment &+ 1]
        let f = a + (b - a) * weight[lane]
        let front = abs(f.x - 0.5) > 1e-5 ? f.x <= 0.5 : curve.value(at: progress[lane]) <= 0.5
        // (·, c, n, ·) in lanes 1 and 2: the node with its signs flipped on
        // the back face, by XOR like the scalar prefix `-` (−(+0) = −0; the
        // SIMD prefix `-` computes 0 − v, which gives +0), without a branch.
        let flip = SIMD4<UInt32>(repeating: front ? 0 : 0x8000_0000)
        let g = unsafeBitCast(unsafeBitCast(f, to: SIMD4<UInt32>.self) ^ flip, to: SIMD4<Float>.self)
        // (sf·c, 0, −sf·n, 0): the zero lanes are +0 · +0.
        let row1 = SIMD4(g.y, 0, g.z, 0) * SIMD4(sf, 0, -sf, 0)
        // (n, 0, c, 0)
        let row3 = SIMD4(g.z, 0, g.y, 0)
        // (cx − hf·c, cy − hf, hf·n, 1)
        let half = SIMD4(g.y, g.y, g.z, g.z) * hf
        let row4 = SIMD4(cx[lane] - half.x, cyMinusHalf, half.z, 1)
        matrices.storeBytes(
          of: SIMD8(lowHalf: row1, highHalf: SIMD4(0, sf, 0, 0)), toByteOffset: 64 &* lane,
          as: SIMD8<Float>.self)
        matrices.storeBytes(
          of: SIMD8(lowHalf: row3, highHalf: row4), toByteOffset: 64 &* lane &+ 32, as: SIMD8<Float>.self)
        records.storeBytes(
          of: SIMD4(
            progressBits[lane], Float(1).bitPattern, abs(half.z).bitPattern,
            front ? ShatterFace.from.rawValue : ShatterFace.to.rawValue),
          toByteOffset: 16 &* lane, as: SIMD4<UInt32>.self)
      }
      tile(0)
      tile(1)
      tile(2)
      tile(3)
    }
  }
}
