extension Transform3DBatch {
  /// The `automatic` policy: see docs/benchmarks.md for the measurements.
  internal static func _automaticPolicy(_ operation: _Operation, count: Int) -> TransformBackend {
    .simd
  }
}
