import Dispatch
import SleetMath
import Synchronization

/// The batched evaluation shared by every style.
///
/// Implementation goals, in order: identical output for any thread count;
/// every transform and corner produced by the `Transform3DBatch` operations
/// (so a faster backend speeds every style up); cache residency; no allocation
/// in steady state with one thread and the `scalar`, `simd` or `automatic`
/// backend (the `blas` backend's operation 3 allocates a packing buffer on
/// every call, i.e. per chunk; SleetMath documents it).
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
/// Workers take the next unclaimed chunk from a shared counter until none
/// is left, so a worker whose core is busy with another process simply takes
/// fewer chunks (a fixed round-robin split would make the frame wait for it). A
/// chunk's output depends only on its pieces — the worker's scratch block is
/// fully rewritten before it is read — so the result is bit-identical for any
/// worker count and any assignment of chunks to workers.
internal protocol _PieceBuilder: Sendable {
  /// Writes the local transform (unit square → container space, before the
  /// perspective) and the state of pieces `range` to `locals[0..<range.count]`
  /// and `states[0..<range.count]`.
  func build(
    _ range: Range<Int>, locals: UnsafeMutablePointer<Transform3D>,
    states: UnsafeMutablePointer<ShatterPieceState>)
}

internal enum _ShatterPipeline {
  /// Pieces per chunk: 512 local transforms are 32 KiB of scratch, which the
  /// two operations read back from L1/L2. Of 128, 256, 512 and 1024, 512 is
  /// the smallest past which the two backend calls' per-chunk cost stops
  /// mattering (`docs/performance-design.md`).
  static let chunkSize = 512

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
  /// `builder.build(range, locals, states)` must fill `locals[k]` and
  /// `states[k]` for piece `range.lowerBound + k`; it is called concurrently
  /// for disjoint ranges when `threads > 1`. The builder is a generic value
  /// rather than a closure so that a single-threaded evaluation allocates
  /// nothing (a stored closure's context would be boxed on the heap).
  static func run<Builder: _PieceBuilder>(
    _ frame: inout ShatterFrame, perspective: Transform3D, backend: TransformBackend,
    threads: Int, builder: Builder
  ) {
    precondition(threads >= 1, "ShatterTransition.evaluate: threads must be ≥ 1, got \(threads)")
    let n = frame.count
    let chunks = (n + chunkSize - 1) / chunkSize
    let workers = Swift.max(1, Swift.min(threads, chunks))
    if frame._scratch.count < workers * chunkSize {
      frame._scratch = Transform3DBatch(count: workers * chunkSize)
    }
    unitCorners.withUnsafeBufferPointer { unit in
      frame._scratch.withUnsafeMutableBufferPointer { scratch in
        frame.transforms.withUnsafeMutableBufferPointer { transforms in
          frame.corners.withUnsafeMutableBufferPointer { corners in
            frame.pieces.withUnsafeMutableBufferPointer { states in
              let buffers = _Buffers(
                unit: unit, scratch: scratch, transforms: transforms, corners: corners,
                states: states, count: n, perspective: perspective, backend: backend)
              if workers == 1 {
                for chunk in 0..<chunks { _chunk(chunk, worker: 0, buffers, builder) }
              } else {
                let next = Atomic<Int>(0)
                DispatchQueue.concurrentPerform(iterations: workers) { worker in
                  while true {
                    // Relaxed: the counter only hands out indices; the
                    // outputs are disjoint and concurrentPerform's return
                    // orders every write before the caller reads.
                    let chunk = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    if chunk >= chunks { break }
                    _chunk(chunk, worker: worker, buffers, builder)
                  }
                }
              }
            }
          }
        }
      }
    }
  }

  /// The three stages for one chunk, in `worker`'s scratch block.
  @inline(__always)
  private static func _chunk<Builder: _PieceBuilder>(
    _ chunk: Int, worker: Int, _ b: _Buffers, _ builder: Builder
  ) {
    let lo = chunk * chunkSize
    let hi = Swift.min(b.count, lo + chunkSize)
    // Safe: chunks > 0 implies every buffer is non-empty, so the base
    // addresses are non-nil; the scratch holds workers × chunkSize transforms.
    let local = b.scratch.baseAddress! + worker * chunkSize
    builder.build(lo..<hi, locals: local, states: b.states.baseAddress! + lo)
    let out = UnsafeMutableBufferPointer(rebasing: b.transforms[lo..<hi])
    Transform3DBatch.concatenate(
      UnsafeBufferPointer(start: local, count: hi - lo), with: b.perspective,
      side: .right, into: out, backend: b.backend)
    Transform3DBatch.project(
      b.unit, through: UnsafeBufferPointer(out),
      into: UnsafeMutableBufferPointer(rebasing: b.corners[(4 * lo)..<(4 * hi)]),
      backend: b.backend)
  }

  /// The frame's buffers and the evaluation's constants, shared by the
  /// workers of one evaluation.
  private struct _Buffers: @unchecked Sendable {
    // Safe to mark Sendable: only used inside `run` while the buffers are
    // pinned; each worker writes disjoint chunks of the outputs and its own
    // block of the scratch.
    let unit: UnsafeBufferPointer<SIMD3<Float>>
    let scratch: UnsafeMutableBufferPointer<Transform3D>
    let transforms: UnsafeMutableBufferPointer<Transform3D>
    let corners: UnsafeMutableBufferPointer<SIMD2<Float>>
    let states: UnsafeMutableBufferPointer<ShatterPieceState>
    let count: Int
    let perspective: Transform3D
    let backend: TransformBackend
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
