extension Transform3DBatch {
  // The BLAS backend is being written on this branch; until it lands, `.blas`
  // runs the scalar reference so that the API stays usable.
  internal typealias _BLASKernels = _Scalar

  /// The `automatic` policy: see docs/benchmarks.md for the measurements.
  internal static func _automaticPolicy(_ operation: _Operation, count: Int) -> TransformBackend {
    .simd
  }
}
