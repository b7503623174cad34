import Dispatch
import SleetMath

/// The batched evaluation shared by every style.
///
/// Implementation goals, in order: identical output for any thread count;
/// every transform and corner produced by the `Transform3DBatch` operations
/// (so a faster backend speeds every style up); cache residency; no allocation
/// in steady state.
///
/// The pieces are processed in fixed chunks of ``chunkSize``. For each chunk:
///
/// 1. the style's `build` writes each piece's local transform (unit square →
///    container space, before perspective) into a per-worker scratch block that
///    stays in L1/L2, and its ``ShatterPieceState``;
/// 2. operation 1, `out[i] = local[i] · perspectiveAboutCentre`, writes the
///    chunk's `transforms`;
/// 3. operation 3 projects the shared unit-square corners through them into
///    `corners`.
///
/// Workers take chunks round-robin (worker w: chunks w, w + W, …); a chunk's
/// output depends only on its pieces, so the result is bit-identical for any
/// worker count.
internal enum _ShatterPipeline {
  /// Pieces per chunk: 256 local transforms are 16 KiB of scratch (half of L1d).
  static let chunkSize = 256

  /// TL, TR, BR, BL of the unit square, v pointing down as on screen.
  static let unitCorners: [SIMD3<Float>] = [
    SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(1, 1, 0), SIMD3(0, 1, 0),
  ]

  /// The container's `sublayerTransform` perspective applied about its centre c:
  /// `translate(−c) · (m34 = −1/eyeDistance) · translate(c)`.
  static func perspective(width: Double, height: Double, eyeDistance: Float) -> Transform3D {
    let cx = Float(width / 2)
    let cy = Float(height / 2)
    return Transform3D.makeTranslation(x: -cx, y: -cy, z: 0)
      .concatenating(.makePerspective(eyeDistance: eyeDistance))
      .concatenating(.makeTranslation(x: cx, y: cy, z: 0))
  }

  /// Runs the three stages over every piece of `frame`.
  ///
  /// `build(range, locals, states)` must fill `locals[k]` and `states[k]` for
  /// piece `range.lowerBound + k`; it is called concurrently for disjoint
  /// ranges when `threads > 1`.
  static func run(
    _ frame: inout ShatterFrame, perspective: Transform3D, backend: TransformBackend,
    threads: Int,
    build: @Sendable (Range<Int>, UnsafeMutablePointer<Transform3D>, UnsafeMutablePointer<ShatterPieceState>) -> Void
  ) {
    precondition(threads >= 1, "ShatterTransition.evaluate: threads must be ≥ 1, got \(threads)")
    let n = frame.count
    let chunks = (n + chunkSize - 1) / chunkSize
    let workers = Swift.max(1, Swift.min(threads, chunks))
    if frame._scratch.count < workers * chunkSize {
      frame._scratch = Transform3DBatch(count: workers * chunkSize)
    }
    // The closure never outlives this call: concurrentPerform returns only
    // after every iteration has finished.
    withoutActuallyEscaping(build) { build in
    unitCorners.withUnsafeBufferPointer { unit in
      frame._scratch.withUnsafeMutableBufferPointer { scratch in
        frame.transforms.withUnsafeMutableBufferPointer { transforms in
          frame.corners.withUnsafeMutableBufferPointer { corners in
            frame.pieces.withUnsafeMutableBufferPointer { states in
              // Safe: the pointers stay valid for the whole call, workers write
              // disjoint chunks of the outputs and their own scratch block, and
              // every base address is non-nil when chunks > 0.
              let buffers = _Buffers(
                unit: unit, scratch: scratch, transforms: transforms, corners: corners,
                states: states)
              let work: @Sendable (Int) -> Void = { worker in
                var chunk = worker
                while chunk < chunks {
                  let lo = chunk * chunkSize
                  let hi = Swift.min(n, lo + chunkSize)
                  let local = buffers.scratch.baseAddress! + worker * chunkSize
                  build(lo..<hi, local, buffers.states.baseAddress! + lo)
                  let out = UnsafeMutableBufferPointer(rebasing: buffers.transforms[lo..<hi])
                  Transform3DBatch.concatenate(
                    UnsafeBufferPointer(start: local, count: hi - lo), with: perspective,
                    side: .right, into: out, backend: backend)
                  Transform3DBatch.project(
                    buffers.unit, through: UnsafeBufferPointer(out),
                    into: UnsafeMutableBufferPointer(rebasing: buffers.corners[(4 * lo)..<(4 * hi)]),
                    backend: backend)
                  chunk += workers
                }
              }
              if workers == 1 {
                work(0)
              } else {
                DispatchQueue.concurrentPerform(iterations: workers, execute: work)
              }
            }
          }
        }
      }
    }
    }
  }

  /// The frame's buffers, shared by the workers of one evaluation.
  private struct _Buffers: @unchecked Sendable {
    // Safe to mark Sendable: only used inside `run`, where each worker writes
    // disjoint ranges (see the comment there).
    let unit: UnsafeBufferPointer<SIMD3<Float>>
    let scratch: UnsafeMutableBufferPointer<Transform3D>
    let transforms: UnsafeMutableBufferPointer<Transform3D>
    let corners: UnsafeMutableBufferPointer<SIMD2<Float>>
    let states: UnsafeMutableBufferPointer<ShatterPieceState>
  }

  /// The naive reference's final step for one piece: project the unit corners
  /// through `transform` one at a time with `Transform3D.projecting`.
  @inline(__always)
  static func projectNaively(
    _ transform: Transform3D, into corners: inout [SIMD2<Float>], at index: Int
  ) {
    let unit = (SIMD3<Float>(0, 0, 0), SIMD3<Float>(1, 0, 0), SIMD3<Float>(1, 1, 0), SIMD3<Float>(0, 1, 0))
    func project(_ corner: SIMD3<Float>) -> SIMD2<Float> {
      guard let p = transform.projecting(corner) else { return SIMD2(.nan, .nan) }
      return SIMD2(p.x, p.y)
    }
    corners[4 * index] = project(unit.0)
    corners[4 * index + 1] = project(unit.1)
    corners[4 * index + 2] = project(unit.2)
    corners[4 * index + 3] = project(unit.3)
  }

  /// Texture corners of axis-aligned grid cells of side `cellWidth × cellHeight`,
  /// normalised by the container size.
  static func gridTextureCorners(
    columns: Int, rows: Int, cellWidth: Double, cellHeight: Double, width: Double, height: Double
  ) -> [SIMD2<Float>] {
    var out: [SIMD2<Float>] = []
    out.reserveCapacity(4 * columns * rows)
    for row in 0..<rows {
      for column in 0..<columns {
        let x0 = Double(column) * cellWidth
        let y0 = Double(row) * cellHeight
        let x1 = x0 + cellWidth
        let y1 = y0 + cellHeight
        out.append(SIMD2(Float(x0 / width), Float(y0 / height)))
        out.append(SIMD2(Float(x1 / width), Float(y0 / height)))
        out.append(SIMD2(Float(x1 / width), Float(y1 / height)))
        out.append(SIMD2(Float(x0 / width), Float(y1 / height)))
      }
    }
    return out
  }
}
