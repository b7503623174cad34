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
  /// Byte offsets of the kernel's lane arrays in `sleet_birth_lanes`.
  struct LaneOffsets {
    let lifetime, x, y, z, vx, vy, vz, scale, spin, red, green, blue, alpha: Int
  }

  static let laneOffsets: LaneOffsets = {
    typealias L = sleet_birth_lanes
    func at(_ path: PartialKeyPath<L>) -> Int { MemoryLayout<L>.offset(of: path)! }
    return LaneOffsets(
      lifetime: at(\L.lifetime), x: at(\L.x), y: at(\L.y), z: at(\L.z), vx: at(\L.vx), vy: at(\L.vy),
      vz: at(\L.vz), scale: at(\L.scale), spin: at(\L.spin), red: at(\L.red), green: at(\L.green),
      blue: at(\L.blue), alpha: at(\L.alpha))
  }()

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
      withUnsafeTemporaryAllocation(of: sleet_birth_lanes.self, capacity: 1) { buffer in
        let lanes = buffer.baseAddress!
        withUnsafePointer(to: parent) { parent in
          if avx2 {
            sleet_sample_children8_avx2(s, parent, streams, times, lanes)
          } else {
            sleet_sample_children8(s, parent, streams, times, lanes)
          }
        }
        // Each lane's fields read straight from the kernel's lane arrays
        // (one load each): lanes picked out of `SIMD8` values by a variable
        // index go through a stack copy of the whole vector per field and
        // lane. Through the pointer too: a copy of the 288-byte parameter
        // set per batch would be a memcpy each.
        let o = Self.laneOffsets
        let raw = UnsafeRawPointer(lanes)
        @inline(__always) func f(_ field: Int, _ l: Int) -> Float {
          raw.load(fromByteOffset: field + l &* 4, as: Float.self)
        }
        let q = p
        for l in 0..<count where f(o.lifetime, l) > 0 {
          body(
            BirthRecord(
              id: ids[l], cell: UInt32(node), birthTime: times[l], lifetime: f(o.lifetime, l),
              position: SIMD3(f(o.x, l), f(o.y, l), f(o.z, l)),
              velocity: SIMD3(f(o.vx, l), f(o.vy, l), f(o.vz, l)), halfAcceleration: q.pointee.halfAcceleration,
              scale: f(o.scale, l), scaleSpeed: q.pointee.scaleSpeed, spin: f(o.spin, l),
              color: SIMD4(f(o.red, l), f(o.green, l), f(o.blue, l), f(o.alpha, l)),
              colorSpeed: q.pointee.colorSpeed, contentsRect: q.pointee.contentsRect, sprite: q.pointee.sprite))
        }
      }
    }
  }
}
