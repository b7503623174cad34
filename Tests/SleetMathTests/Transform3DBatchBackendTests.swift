import Testing
import _SleetTestSupport

@testable import SleetMath

/// SleetMath's own backends against the `scalar` reference: `simd` evaluates
/// the same expressions in the same order and `automatic` only chooses
/// `scalar` or `simd`, so both must be **bit-identical** (the checks and their
/// seeded data are in `_SleetTestSupport/BatchBackendAgreement.swift`; the
/// `blas` backend runs the same checks, with a tolerance, in SleetBLASTests).
@Suite("Transform3DBatch backends agree")
struct Transform3DBatchBackendTests {
  static let agreement = BatchBackendAgreement(backends: [.simd, .automatic], exact: true)

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

  @Test func projectSharedPointsHasNaNsWhereWIsNotPositive() {
    // Guards the data: the agreement checks do compare NaN positions.
    let t = BatchBackendAgreement.transforms(seed: 31, count: 64)
    let pts = BatchBackendAgreement.points(seed: 32, count: 4)
    let out = Transform3DBatch(t).projecting(pts, backend: .simd)
    let nans = out.filter { $0.x.isNaN }.count
    #expect(nans > 0 && nans < out.count)
    for i in 0..<64 where t[i].m44 == 0 {
      #expect(out[4 * i].x.isNaN && out[4 * i].y.isNaN)
    }
  }
}

@Suite("Transform3DBatch automatic policy")
struct Transform3DBatchAutomaticPolicyTests {
  @Test func followsTheMeasuredCrossovers() {
    typealias B = Transform3DBatch
    #expect(B._resolve(.automatic, .concatenateShared, count: 1) == .scalar)
    #expect(B._resolve(.automatic, .concatenateShared, count: 2) == .simd)
    #expect(B._resolve(.automatic, .projectShared, count: 1) == .scalar)
    #expect(B._resolve(.automatic, .projectShared, count: 4_194_304) == .simd)
    #expect(B._resolve(.automatic, .concatenatePairs, count: 1) == .simd)
    #expect(B._resolve(.automatic, .projectMany, count: 0) == .simd)
    // Explicit choices are never overridden.
    for backend in [TransformBackend.scalar, .simd] {
      #expect(B._resolve(backend, .projectMany, count: 1_000_000) == backend)
    }
  }
}

/// Kernels that write a marker instead of computing, so a test can see which
/// calls reach a backend supplied from outside SleetMath.
private struct MarkerKernels: Transform3DBatchKernels {
  static let marker = Transform3D(
    m11: 7, m12: 7, m13: 7, m14: 7, m21: 7, m22: 7, m23: 7, m24: 7,
    m31: 7, m32: 7, m33: 7, m34: 7, m41: 7, m42: 7, m43: 7, m44: 7)

  func concatenate(
    _ batch: UnsafeBufferPointer<Transform3D>, with shared: Transform3D,
    side: ConcatenationSide, into out: UnsafeMutableBufferPointer<Transform3D>
  ) { out.update(repeating: Self.marker) }

  func concatenate(
    _ a: UnsafeBufferPointer<Transform3D>, _ b: UnsafeBufferPointer<Transform3D>,
    into out: UnsafeMutableBufferPointer<Transform3D>
  ) { out.update(repeating: Self.marker) }

  func project(
    _ points: UnsafeBufferPointer<SIMD3<Float>>, through transforms: UnsafeBufferPointer<Transform3D>,
    into out: UnsafeMutableBufferPointer<SIMD2<Float>>
  ) { out.update(repeating: SIMD2(7, 7)) }

  func project(
    _ points: UnsafeBufferPointer<SIMD3<Float>>, through transform: Transform3D,
    into out: UnsafeMutableBufferPointer<SIMD3<Float>>
  ) { out.update(repeating: SIMD3(7, 7, 7)) }
}

/// A backend from another module (as `SleetBLAS` supplies `blas`) is a value
/// of the same type as the built-in ones: every operation reaches its kernels,
/// `automatic` never does, and names identify backends.
@Suite("TransformBackend with supplied kernels")
struct TransformBackendKernelsTests {
  static let marker = TransformBackend(name: "marker", kernels: MarkerKernels())

  @Test func everyOperationReachesTheKernels() {
    let batch = Transform3DBatch(repeating: .makeScale(x: 2, y: 2, z: 2), count: 5)
    let points: [SIMD3<Float>] = [SIMD3(1, 2, 3), SIMD3(-1, 0, 4)]
    #expect(batch.concatenating(.identity, side: .left, backend: Self.marker).allSatisfy { $0 == MarkerKernels.marker })
    #expect(batch.concatenating(batch, backend: Self.marker).allSatisfy { $0 == MarkerKernels.marker })
    #expect(batch.projecting(points, backend: Self.marker) == Array(repeating: SIMD2(7, 7), count: 10))
    var out = [SIMD3<Float>](repeating: .zero, count: 2)
    points.withUnsafeBufferPointer { p in
      out.withUnsafeMutableBufferPointer {
        Transform3DBatch.project(p, through: .identity, into: $0, backend: Self.marker)
      }
    }
    #expect(out == [SIMD3(7, 7, 7), SIMD3(7, 7, 7)])
    // The built-in backends compute.
    for backend in TransformBackend.builtIn {
      #expect(batch.concatenating(batch, backend: backend)[0] == .makeScale(x: 4, y: 4, z: 4))
    }
  }

  @Test func automaticNeverChoosesSuppliedKernels() {
    for operation in [B._Operation.concatenateShared, .concatenatePairs, .projectShared, .projectMany] {
      for count in [0, 1, 2, 1_000, 4_194_304] {
        #expect(TransformBackend.builtIn.contains(B._resolve(.automatic, operation, count: count)))
        #expect(B._resolve(.automatic, operation, count: count) != .automatic)
      }
    }
  }
  typealias B = Transform3DBatch

  @Test func namesIdentifyBackends() {
    #expect(TransformBackend.builtIn.map(\.name) == ["scalar", "simd", "automatic"])
    #expect(Self.marker == TransformBackend(name: "marker", kernels: MarkerKernels()))
    #expect(Self.marker != .scalar && Self.marker.description == "marker")
    #expect(Set(TransformBackend.builtIn + [Self.marker]).count == 4)
  }

  @Test func aBuiltInNameCannotBeReused() async {
    await #expect(processExitsWith: .failure) {
      _ = TransformBackend(name: "simd", kernels: MarkerKernels())
    }
  }
}
