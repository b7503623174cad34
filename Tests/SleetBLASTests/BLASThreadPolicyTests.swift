import COpenBLAS
import SleetBLAS
import SleetMath
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// OpenBLAS's thread count is process state; the library must leave it alone
/// (only the executables set it, through ``BLASInfo/useSingleThreadedBLAS()``).
///
/// The check has two halves, so that it fails whichever test of this process
/// happens to make the first BLAS call:
/// 1. nothing that ran before this test changed the count: with no thread
///    variable in the environment OpenBLAS starts with one thread per
///    processor it detects (`openblas_get_num_procs()`), capped at its
///    compile-time MAX_THREADS (blas_server.c). No test in this process calls
///    `openblas_set_num_threads` except this one, which restores the value.
/// 2. after every BLAS-backed operation and the `threadPolicy` getter, the
///    count is what it was (a value other than 1, so a pin to one thread shows).
@Suite("OpenBLAS thread count is left to the executables")
struct BLASThreadPolicyTests {
  static let threadVariables = ["OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"]

  /// OpenBLAS's compile-time thread cap, from `openblas_get_config()`
  /// ("… MAX_THREADS=64"), if it says.
  static var maximumThreads: Int32? {
    guard let config = openblas_get_config().map({ String(cString: $0) }) else { return nil }
    guard let field = config.split(separator: " ").first(where: { $0.hasPrefix("MAX_THREADS=") }) else { return nil }
    return Int32(field.dropFirst("MAX_THREADS=".count))
  }

  @Test(
    .enabled(if: openblas_get_parallel() != 0, "a sequential OpenBLAS always reports one thread")
  )
  func usingTheLibraryDoesNotChangeTheThreadCount() {
    let userChose = Self.threadVariables.contains { getenv($0) != nil }
    let before = openblas_get_num_threads()
    if !userChose {
      let initial = min(openblas_get_num_procs(), Self.maximumThreads ?? .max)
      #expect(before == initial, "OpenBLAS threads \(before) ≠ its initial count \(initial) before this test")
    }
    // If the count is 1 (one processor, or the user's choice) raise it for the
    // duration of the test, so that a pin to one thread would be visible.
    let probe: Int32 = before >= 2 ? before : 2
    if probe != before { openblas_set_num_threads(probe) }
    defer { if probe != before { openblas_set_num_threads(before) } }

    // Every operation on the BLAS backend, then the report.
    let batch = Transform3DBatch(
      (0..<9).map { Transform3D.makeRotation(angle: Float($0) * 0.3, x: 1, y: 2, z: 3) })
    let shared = Transform3D.makePerspective(eyeDistance: 500)
    let points = (0..<5).map { SIMD3<Float>(Float($0), 1, 2) }
    for side in ConcatenationSide.allCases {
      _ = batch.concatenating(shared, side: side, backend: .blas)
    }
    _ = batch.concatenating(batch, backend: .blas)
    _ = batch.projecting(points, backend: .blas)
    var projected = [SIMD3<Float>](repeating: .zero, count: points.count)
    points.withUnsafeBufferPointer { p in
      projected.withUnsafeMutableBufferPointer { out in
        Transform3DBatch.project(p, through: shared, into: out, backend: .blas)
      }
    }
    let policy = BLASInfo.threadPolicy
    #expect(!policy.isEmpty)
    #expect(openblas_get_num_threads() == probe, "SleetBLAS changed OpenBLAS's thread count")
  }
}
