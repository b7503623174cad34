/// The four batch operations of a ``TransformBackend`` supplied by another
/// module (`SleetBLAS` supplies OpenBLAS's as `TransformBackend.blas`).
///
/// ``Transform3DBatch`` validates every call before it reaches a kernel: the
/// counts match as each operation documents and `out` overlaps no input, so a
/// kernel may write `out` freely and must write every element of it. A kernel
/// must not keep the pointers after it returns. Results should agree with the
/// ``TransformBackend/scalar`` reference to within a tolerance the backend
/// documents.
public protocol Transform3DBatchKernels: Sendable {
  /// Operation 1: `out[i] = batch[i] · shared` (`side == .right`) or
  /// `shared · batch[i]` (`.left`). `out.count == batch.count`.
  func concatenate(
    _ batch: UnsafeBufferPointer<Transform3D>, with shared: Transform3D,
    side: ConcatenationSide, into out: UnsafeMutableBufferPointer<Transform3D>)

  /// Operation 2: `out[i] = a[i] · b[i]`; the three counts are equal.
  func concatenate(
    _ a: UnsafeBufferPointer<Transform3D>, _ b: UnsafeBufferPointer<Transform3D>,
    into out: UnsafeMutableBufferPointer<Transform3D>)

  /// Operation 3: `out[i·P + j]` = point `j` through transform `i`, divided
  /// by w (NaN, NaN where w ≤ 0); `out.count == transforms.count · points.count`.
  func project(
    _ points: UnsafeBufferPointer<SIMD3<Float>>, through transforms: UnsafeBufferPointer<Transform3D>,
    into out: UnsafeMutableBufferPointer<SIMD2<Float>>)

  /// Operation 4: `out[i]` = point `i` through `transform`, divided by w
  /// (three NaNs where w ≤ 0); `out.count == points.count`.
  func project(
    _ points: UnsafeBufferPointer<SIMD3<Float>>, through transform: Transform3D,
    into out: UnsafeMutableBufferPointer<SIMD3<Float>>)
}

extension Transform3DBatch {
  /// Where `automatic` switches from `scalar` to `simd`, per operation: the
  /// measured crossovers (`docs/benchmarks.md`, the transform suite).
  ///
  /// Below `scalarBelow` the scalar loop is as fast or faster (the SIMD kernels
  /// have a few nanoseconds of set-up: broadcast shared rows, the
  /// structure-of-arrays copy of the points). Scalar and SIMD are bit-identical,
  /// so this switch never changes a result.
  ///
  /// `automatic` never chooses OpenBLAS: it never won on the measured machines
  /// (K = 4 GEMMs are packing-bound; the SIMD kernels reach the memory bandwidth
  /// at large N), and choosing it would make SleetMath link OpenBLAS and
  /// `automatic` results depend on OpenBLAS's kernels.
  internal struct _Crossover: Sendable {
    var scalarBelow: Int
  }

  internal static func _crossover(_ operation: _Operation) -> _Crossover {
    switch operation {
    case .concatenateShared: _Crossover(scalarBelow: 2)
    case .concatenatePairs: _Crossover(scalarBelow: 0)
    case .projectShared: _Crossover(scalarBelow: 2)
    case .projectMany: _Crossover(scalarBelow: 0)
    }
  }

  /// The `automatic` policy: scalar below the operation's `scalarBelow`, SIMD
  /// otherwise.
  internal static func _automaticPolicy(_ operation: _Operation, count: Int) -> TransformBackend {
    count < _crossover(operation).scalarBelow ? .scalar : .simd
  }
}
