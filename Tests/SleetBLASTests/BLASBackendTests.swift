import Testing
import _SleetTestSupport

@testable import SleetBLAS
@testable import SleetMath

/// The `blas` backend against the `scalar` reference, on the seeded data and
/// with the checks SleetMathTests runs for `simd` and `automatic`
/// (`_SleetTestSupport/BatchBackendAgreement.swift`), within the tolerance
/// stated there and on `TransformBackend.blas`: each entry within
/// `1e-5 · Σ|terms|`, projected coordinates within the propagated bound, NaN
/// positions identical.
@Suite("Transform3DBatch blas backend agrees with scalar")
struct BLASBackendAgreementTests {
  static let agreement = BatchBackendAgreement(backends: [.blas], exact: false)

  @Test(arguments: BatchBackendAgreement.sizes)
  func concatenateShared(count: Int) { Self.agreement.concatenateShared(count: count) }

  @Test(arguments: BatchBackendAgreement.sizes)
  func concatenatePairs(count: Int) { Self.agreement.concatenatePairs(count: count) }

  @Test(arguments: BatchBackendAgreement.sizes)
  func projectSharedPoints(count: Int) { Self.agreement.projectSharedPoints(count: count) }

  @Test(arguments: BatchBackendAgreement.sizes)
  func projectManyPoints(count: Int) { Self.agreement.projectManyPoints(count: count) }

  @Test(arguments: [(1, 1023), (3, 1023), (1, 9), (3, 7), (5, 4)])
  func misalignedSubRanges(start: Int, count: Int) {
    Self.agreement.misalignedSubRanges(start: start, count: count)
  }

  @Test func isAnExplicitChoiceOnly() {
    #expect(TransformBackend.blas.name == "blas")
    #expect(TransformBackend.allCases.map(\.name) == ["scalar", "simd", "blas", "automatic"])
    #expect(Transform3DBatch._resolve(.blas, .projectMany, count: 1_000_000) == .blas)
    #expect(!TransformBackend.builtIn.contains(.blas))
  }
}

/// The BLAS backend makes a fixed number of OpenBLAS calls per operation,
/// whatever the batch size: never one per matrix.
@Suite("Transform3DBatch BLAS call counts")
struct Transform3DBatchBLASCallTests {
  static func calls(_ body: () -> Void) -> [_BLAS.Call] {
    let trace = _BLAS.Trace()
    _BLAS.$trace.withValue(trace) { body() }
    return trace.calls
  }

  @Test(arguments: [1, 9, 1023])
  func oneCallPerOperation(count: Int) {
    let a = Transform3DBatch(BatchBackendAgreement.transforms(seed: 61, count: count))
    let b = Transform3DBatch(BatchBackendAgreement.transforms(seed: 62, count: count))
    let shared = BatchBackendAgreement.transform(seed: 63, 0)
    let corners = BatchBackendAgreement.points(seed: 64, count: 4)
    let pts = BatchBackendAgreement.points(seed: 65, count: count)

    #expect(
      Self.calls { _ = a.concatenating(shared, side: .right, backend: .blas) }
        == [_BLAS.Call(routine: "sgemm", m: 4 * count, n: 4, k: 4)])
    #expect(
      Self.calls { _ = a.concatenating(shared, side: .left, backend: .blas) }
        == [_BLAS.Call(routine: "sgemm", m: 4, n: 4 * count, k: 4)])
    #expect(
      Self.calls { _ = a.projecting(corners, backend: .blas) }
        == [_BLAS.Call(routine: "sgemm", m: 4, n: 4 * count, k: 4)])
    var out = [SIMD3<Float>](repeating: .zero, count: count)
    #expect(
      Self.calls {
        pts.withUnsafeBufferPointer { p in
          out.withUnsafeMutableBufferPointer {
            Transform3DBatch.project(p, through: shared, into: $0, backend: .blas)
          }
        }
      } == [_BLAS.Call(routine: "sgemm", m: count, n: 4, k: 3)])
    // Operation 2 has no GEMM form: one banded sgbmv per output column.
    #expect(
      Self.calls { _ = a.concatenating(b, backend: .blas) }
        == Array(repeating: _BLAS.Call(routine: "sgbmv", m: 4 * count, n: 4 * count, k: 7), count: 4))
  }

  @Test func noCallsForEmptyBatchesOrOtherBackends() {
    let empty = Transform3DBatch(count: 0)
    let some = Transform3DBatch(BatchBackendAgreement.transforms(seed: 66, count: 5))
    #expect(Self.calls { _ = empty.concatenating(.identity, side: .left, backend: .blas) }.isEmpty)
    #expect(Self.calls { _ = empty.concatenating(empty, backend: .blas) }.isEmpty)
    #expect(Self.calls { _ = some.projecting([], backend: .blas) }.isEmpty)
    for backend in [TransformBackend.scalar, .simd] {
      #expect(Self.calls { _ = some.concatenating(some, backend: backend) }.isEmpty)
    }
  }
}
