// PLACEHOLDER (replaced by the SIMD/BLAS work of issue 2 before anything lands):
// until then the simd and blas backends and the automatic policy route to the
// scalar reference so that dependent modules can be written against the API.
extension Transform3DBatch {
  internal typealias _SIMD = _Scalar
  internal typealias _BLASKernels = _Scalar

  internal static func _automaticPolicy(_ operation: _Operation, count: Int) -> TransformBackend {
    .scalar
  }
}
