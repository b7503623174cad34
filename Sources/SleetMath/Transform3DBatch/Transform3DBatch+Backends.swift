extension Transform3DBatch {
  /// Where `automatic` switches backends, per operation, from the measurements in
  /// `docs/benchmarks.md` ("Crossovers behind automatic").
  ///
  /// - `scalarBelow`: below this count the scalar loop is as fast or faster (the
  ///   SIMD kernels have a few nanoseconds of set-up: broadcast shared rows, the
  ///   structure-of-arrays copy of the points). Scalar and SIMD are bit-identical,
  ///   so this switch never changes a result.
  /// - `blasFrom`: from this count on, OpenBLAS wins. It never did on the measured
  ///   machines (K = 4 GEMMs are packing-bound; the SIMD kernels reach the memory
  ///   bandwidth at large N), so it is `nil` for every operation.
  internal struct _Crossover: Sendable {
    var scalarBelow: Int
    var blasFrom: Int?
  }

  internal static func _crossover(_ operation: _Operation) -> _Crossover {
    switch operation {
    case .concatenateShared: _Crossover(scalarBelow: 2, blasFrom: nil)
    case .concatenatePairs: _Crossover(scalarBelow: 0, blasFrom: nil)
    case .projectShared: _Crossover(scalarBelow: 2, blasFrom: nil)
    case .projectMany: _Crossover(scalarBelow: 0, blasFrom: nil)
    }
  }

  /// The `automatic` policy: scalar below the operation's `scalarBelow`, BLAS
  /// from its `blasFrom` (never, as measured), SIMD otherwise.
  internal static func _automaticPolicy(_ operation: _Operation, count: Int) -> TransformBackend {
    let c = _crossover(operation)
    if count < c.scalarBelow { return .scalar }
    if let blas = c.blasFrom, count >= blas { return .blas }
    return .simd
  }
}
