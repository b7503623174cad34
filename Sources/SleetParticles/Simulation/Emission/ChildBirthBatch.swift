import CSleetKernels
import SleetMath

/// Up to eight births of one sub-cell from one parent, sampled at once: the
/// batched twin of ``BirthSampler/child(tree:seed:node:parent:k:birthTime:)``.
///
/// **Invariant:** each record is bit for bit the scalar sampler's for the
/// same (parent, birth index, birth time): the C kernel
/// `sleet_sample_children8` (`Sources/CSleetKernels/sleet_births.h`) runs
/// the same random words (Philox lanes across births, each lane its own
/// stream, the child id's birth key), the parent's closed form at each
/// lane's age, `Emission.axis`, `Emission.basis` and `Emission.cone` per
/// lane, with the same IEEE operations in the same order (contraction off,
/// as Swift never contracts). `ChildBirthBatchTests` compares the two over
/// parents at rest, moving in and out of the screen's plane and along ±z,
/// closed, open and full cones, and both copies of the kernel.
///
/// Why: sampled one record at a time, each sub-cell birth pays its own
/// parent state, axis, basis and four Philox blocks of one lane, and
/// sub-cell births dominate effects like `fireworks`, whose bursts give 300
/// sparks a rocket.
struct ChildBirthBatch {
  /// The parent's fields the kernel reads.
  let parent: sleet_parent_record
  let parentID: UInt64

  init(parent r: BirthRecord) {
    var p = sleet_parent_record()
    p.birthTime = r.birthTime
    p.position = (r.position.x, r.position.y, r.position.z)
    p.velocity = (r.velocity.x, r.velocity.y, r.velocity.z)
    p.halfAcceleration = (r.halfAcceleration.x, r.halfAcceleration.y, r.halfAcceleration.z)
    (p.scale, p.scaleSpeed) = (r.scale, r.scaleSpeed)
    p.color = (r.color.x, r.color.y, r.color.z, r.color.w)
    p.colorSpeed = (r.colorSpeed.x, r.colorSpeed.y, r.colorSpeed.z, r.colorSpeed.w)
    parent = p
    parentID = r.id
  }

  /// Samples births `first ..< first + count` (1…8) of sub-cell `node` from
  /// this parent, born at `times[0 ..< count]`, all in the segment whose
  /// parameters are `p` and kernel parameters `s`, and calls `body` with the
  /// record of each one whose lifetime is > 0 (the others never exist), in
  /// birth order.
  ///
  /// `times` has room for 8 (the kernel reads every lane; lanes past
  /// `count` are computed and ignored). Why a buffer and not a
  /// `SIMD8<Double>`: filled one lane at a time, the vector went through
  /// the stack whole at each store, and the reload after the narrow store
  /// stalled store forwarding.
  ///
  /// `avx2` picks the kernel's AVX2 copy, as ``BirthBatch``. Same bits
  /// either way.
  @inline(__always)
  func sample(
    node: Int, first: Int, count: Int, times: UnsafeMutablePointer<Double>, _ p: UnsafePointer<CellParameters>,
    sampling s: UnsafePointer<sleet_birth_params>, avx2: Bool = SIMDBuildTarget.runsAVX2Kernels,
    _ body: (BirthRecord) -> Void
  ) {
    precondition(count >= 1 && count <= 8, "a batch holds 1…8 births")
    precondition(!avx2 || SIMDBuildTarget.runsAVX2Kernels, "the AVX2 copy needs a CPU with AVX2")
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 16) { buffer in
      // The ids, then the random streams: each id's birth key (its low 56
      // bits). Lanes past `count` are zero.
      let ids = buffer.baseAddress!
      let streams = ids + 8
      for l in 0..<8 {
        let id = l < count ? ParticleID.child(cell: node, parent: parentID, birthIndex: first + l) : 0
        ids[l] = id
        streams[l] = ParticleID.birthKey(of: id)
      }
      let batch = withUnsafeTemporaryAllocation(of: sleet_birth_lanes.self, capacity: 1) { buffer in
        let lanes = buffer.baseAddress!
        withUnsafePointer(to: parent) { parent in
          if avx2 {
            sleet_sample_children8_avx2(s, parent, streams, times, lanes)
          } else {
            sleet_sample_children8(s, parent, streams, times, lanes)
          }
        }
        return BirthBatch(lanesAt: lanes, first: first)
      }
      // Through the pointer: a copy of the 288-byte parameter set per batch
      // would be a memcpy each.
      let q = p
      for l in 0..<count where batch.lifetime[l] > 0 {
        body(
          BirthRecord(
            id: ids[l], cell: UInt32(node), birthTime: times[l], lifetime: batch.lifetime[l],
            position: SIMD3(batch.x[l], batch.y[l], batch.z[l]),
            velocity: SIMD3(batch.vx[l], batch.vy[l], batch.vz[l]), halfAcceleration: q.pointee.halfAcceleration,
            scale: batch.scale[l], scaleSpeed: q.pointee.scaleSpeed, spin: batch.spin[l],
            color: SIMD4(batch.red[l], batch.green[l], batch.blue[l], batch.alpha[l]),
            colorSpeed: q.pointee.colorSpeed, contentsRect: q.pointee.contentsRect, sprite: q.pointee.sprite))
      }
    }
  }
}
