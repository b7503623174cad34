import CSleetKernels
import SleetMath

/// Eight consecutive top-level births of one cell, sampled at once: lane l is
/// birth `first + l`, attribute by attribute (structure of arrays).
///
/// **Invariant:** lane l holds bit for bit what the scalar
/// ``BirthSampler/topLevel(_:node:key:seed:k:birthTime:)`` computes for birth
/// `first + l` (tested over all shapes × modes, cone ranges, multipliers, in
/// both copies of the kernel): the same random words (Philox lanes across
/// births instead of across blocks), the same IEEE operations in the same
/// order per lane (the C kernel `sleet_sample_births8` compiles with
/// contraction off, as Swift never contracts into FMA). Lanes never read
/// each other, so a final partial batch simply computes the unused lanes
/// and ``record(_:)`` is never asked for them; a lane whose lifetime is ≤ 0 is a birth that never exists (the
/// caller skips it; its index is still consumed).
struct BirthBatch {
  typealias V = SIMD8<Float>
  /// Birth index of lane 0.
  var first: Int
  var lifetime, speed, scale, spin: V
  var red, green, blue, alpha: V
  var x, y, z: V
  var vx, vy, vz: V

  /// Samples births `first ..< first + 8` of the top-level cell with
  /// parameters `p` (one segment for all eight) and path key `key`;
  /// `basis` is ``Emission/basis(axis:)`` of `p.axis`, hoisted per cell.
  /// (``sampling(_:basis:key:seed:)`` then
  /// ``init(_:sampling:first:avx2:)``, whose caller hoists the flattening
  /// too.)
  @inline(__always)
  init(
    _ p: borrowing CellParameters, basis: (SIMD3<Float>, SIMD3<Float>), key: UInt32, seed: UInt32,
    first: Int, avx2: Bool = SIMDBuildTarget.runsAVX2Kernels
  ) {
    let s = Self.sampling(p, basis: basis, key: key, seed: seed)
    self.init(p, sampling: s, first: first, avx2: avx2)
  }

  /// Samples births `first ..< first + 8` with `s`, the flattening of `p`
  /// (``sampling(_:basis:key:seed:)``): the C kernel `sleet_sample_births8`
  /// (`Sources/CSleetKernels/sleet_births.h`), then, for the shapes whose
  /// point needs a branch per lane, ``Emission/position(shape:mode:center:size:depth:u:)``
  /// per lane from the kernel's shape words.
  ///
  /// Only the Philox blocks an attribute reads are computed: blocks 0 and 1
  /// always (lifetime, speed, scale, spin; colour), block 2 when the cone
  /// is open or the shape reads a continuous coordinate, block 3 when the
  /// shape reads z or a discrete choice. Unread words cannot change a record.
  ///
  /// `avx2` picks the kernel's AVX2 copy, which the portable build runs
  /// where the CPU has it (``SIMDBuildTarget/runsAVX2Kernels``; the tests run
  /// both copies). Same bits either way.
  @inline(__always)
  init(
    _ p: borrowing CellParameters, sampling s: borrowing sleet_birth_params, first: Int,
    avx2: Bool = SIMDBuildTarget.runsAVX2Kernels
  ) {
    let p = copy p
    self = withUnsafePointer(to: s) { BirthBatch(p, samplingAt: $0, first: first, avx2: avx2) }
  }

  /// ``init(_:sampling:first:avx2:)`` with the flattened parameters read in
  /// place (they are 880 bytes; a copy per batch showed in the births
  /// profile).
  @inline(__always)
  init(
    _ p: borrowing CellParameters, samplingAt s: UnsafePointer<sleet_birth_params>, first: Int,
    avx2: Bool = SIMDBuildTarget.runsAVX2Kernels
  ) {
    precondition(!avx2 || SIMDBuildTarget.runsAVX2Kernels, "the AVX2 copy needs a CPU with AVX2")
    @inline(__always) func v<T>(_ t: T) -> V { unsafeBitCast(t, to: V.self) }
    let perLane = Int(s.pointee.shape) == SLEET_BIRTH_SHAPE_PER_LANE
    var words = (V(), V(), V(), V())
    // Uninitialised stack memory, not `sleet_birth_lanes()`: the kernel
    // writes every lane array of the struct before anything reads it, and
    // zeroing its 576 bytes per batch is a measurable share of a small
    // effect's step.
    self = withUnsafeTemporaryAllocation(of: sleet_birth_lanes.self, capacity: 1) { buffer in
      let lanes = buffer.baseAddress!
      if avx2 {
        sleet_sample_births8_avx2(s, UInt64(first), lanes)
      } else {
        sleet_sample_births8(s, UInt64(first), lanes)
      }
      if perLane {
        let w = lanes.pointee.shapeWords
        words = (v(w.0), v(w.1), v(w.2), v(w.3))
      }
      return BirthBatch(lanesAt: lanes, first: first)
    }
    guard perLane else { return }
    let layer = p.layer
    for l in 0..<8 {
      let q = Emission.position(
        shape: layer.shape, mode: layer.mode, center: layer.position, size: layer.size, depth: layer.depth,
        u: SIMD4(words.0[l], words.1[l], words.2[l], words.3[l]))
      (x[l], y[l], z[l]) = (q.x, q.y, q.z)
    }
  }

  /// The batch the kernel wrote into `lanes` for births `first ..< first + 8`
  /// (positions as written: the caller places per-lane shapes).
  @inline(__always)
  init(lanesAt lanes: UnsafePointer<sleet_birth_lanes>, first: Int) {
    self.first = first
    // The C struct's `float[8]` fields import as tuples of eight `Float`,
    // read field by field through the pointer (no copy of the struct).
    @inline(__always) func v<T>(_ t: T) -> V { unsafeBitCast(t, to: V.self) }
    let l = lanes
    (lifetime, speed, scale, spin) = (v(l.pointee.lifetime), v(l.pointee.speed), v(l.pointee.scale), v(l.pointee.spin))
    (red, green, blue, alpha) = (v(l.pointee.red), v(l.pointee.green), v(l.pointee.blue), v(l.pointee.alpha))
    (x, y, z) = (v(l.pointee.x), v(l.pointee.y), v(l.pointee.z))
    (vx, vy, vz) = (v(l.pointee.vx), v(l.pointee.vy), v(l.pointee.vz))
  }

  /// The kernel's parameters for cell parameters `p` (one segment), with
  /// the cone axis's basis, the cell's path key and the emitter's seed.
  static func sampling(
    _ p: borrowing CellParameters, basis: (SIMD3<Float>, SIMD3<Float>), key: UInt32, seed: UInt32
  ) -> sleet_birth_params {
    let layer = p.layer
    let (e1, e2) = basis
    var s = sleet_birth_params()
    (s.lifetime, s.lifetimeRange, s.lifetimeMultiplier) = (p.lifetime, p.lifetimeRange, p.lifetimeMultiplier)
    (s.velocity, s.velocityRange, s.velocityMultiplier) = (p.velocity, p.velocityRange, p.velocityMultiplier)
    (s.scale, s.scaleRange, s.scaleMultiplier) = (p.scale, p.scaleRange, p.scaleMultiplier)
    (s.spin, s.spinRange, s.spinMultiplier) = (p.spin, p.spinRange, p.spinMultiplier)
    s.color = (p.color.x, p.color.y, p.color.z, p.color.w)
    s.colorRange = (p.colorRange.x, p.colorRange.y, p.colorRange.z, p.colorRange.w)
    s.axis = (p.axis.x, p.axis.y, p.axis.z)
    s.e1 = (e1.x, e1.y, e1.z)
    s.e2 = (e2.x, e2.y, e2.z)
    (s.coneRange, s.cosHalfRange) = (p.angles.range, p.angles.cosHalfRange)
    (s.cosLongitude, s.sinLongitude) = (p.angles.cosLongitude, p.angles.sinLongitude)
    (s.cosLatitude, s.sinLatitude) = (p.angles.cosLatitude, p.angles.sinLatitude)
    s.center = (layer.position.x, layer.position.y, layer.position.z)
    (s.width, s.height, s.depth) = (layer.size.x, layer.size.y, layer.depth)
    (s.seed, s.key) = (seed, key)
    sleet_birth_params_set_round_keys(&s)
    let shape = Self.shapeCase(layer.shape, layer.mode)
    s.shape = Int32(shape)
    // Block 2 (words 8…11): the cone's two words, then the shape's first two.
    s.needsBlock2 = p.angles.range > 0 || shape != SLEET_BIRTH_SHAPE_CENTER ? 1 : 0
    s.needsBlock3 = Self.readsBlock3(layer.shape, layer.mode) ? 1 : 0
    return s
  }

  /// How the kernel places a lane for this shape and mode (`SLEET_BIRTH_SHAPE_*`):
  /// the cases ``Emission/position(shape:mode:center:size:depth:u:)`` computes
  /// without a branch per lane, or per lane by the caller.
  static func shapeCase(_ shape: EmitterShape, _ mode: EmitterMode) -> Int {
    switch (shape, mode) {
    case (.point, _), (.circle, .points), (.sphere, .points): SLEET_BIRTH_SHAPE_CENTER
    case (.line, .points): SLEET_BIRTH_SHAPE_LINE_ENDS
    case (.line, _): SLEET_BIRTH_SHAPE_LINE
    case (.rectangle, .surface), (.rectangle, .volume): SLEET_BIRTH_SHAPE_RECTANGLE
    case (.cuboid, .volume): SLEET_BIRTH_SHAPE_CUBOID
    default: SLEET_BIRTH_SHAPE_PER_LANE
    }
  }

  /// Whether ``Emission/position(shape:mode:center:size:depth:u:)`` reads
  /// `u.z` or `u.w` (words 12 and 13, block 3) for this shape and mode.
  @inline(__always)
  static func readsBlock3(_ shape: EmitterShape, _ mode: EmitterMode) -> Bool {
    switch (shape, mode) {
    case (.line, .points), (.rectangle, .points), (.cuboid, _), (.sphere, .volume): true
    default: false
    }
  }

  /// Whether every lane is a birth that exists and is alive at `t`, born at
  /// `times`: ``BirthRecord/isAlive(at:)`` of every lane's record (age =
  /// t − birth time ∈ [0, lifetime), with the lifetime widened to `Double`
  /// as there). A lifetime ≤ 0 or NaN fails the second comparison, so
  /// "exists" needs no test of its own.
  @inline(__always)
  func allAlive(times: SIMD8<Double>, at t: Double) -> Bool {
    let life = SIMD8<Double>(
      lowHalf: SIMD4<Double>(lifetime.lowHalf), highHalf: SIMD4<Double>(lifetime.highHalf))
    let age = SIMD8<Double>(repeating: t) - times
    return all((age .>= 0) .& (age .< life))
  }

  /// The record of lane `l` of top-level cell `node`, born at `birthTime`
  /// (only for a lane whose lifetime is > 0).
  @inline(__always)
  func record(_ l: Int, _ p: borrowing CellParameters, node: Int, birthTime: Double) -> BirthRecord {
    BirthRecord(
      id: ParticleID.topLevel(cell: node, birthIndex: first + l), cell: UInt32(node), birthTime: birthTime,
      lifetime: lifetime[l], position: SIMD3(x[l], y[l], z[l]), velocity: SIMD3(vx[l], vy[l], vz[l]),
      halfAcceleration: p.halfAcceleration, scale: scale[l], scaleSpeed: p.scaleSpeed, spin: spin[l],
      color: SIMD4(red[l], green[l], blue[l], alpha[l]), colorSpeed: p.colorSpeed,
      contentsRect: p.contentsRect, sprite: p.sprite)
  }
}

extension BirthBatch {
  /// A batch of births not sampled yet: its parameters, the kernel's
  /// flattening of them and its first birth index. ``sample()`` gives the
  /// ``BirthBatch``; the one-cell append samples straight into the slab
  /// instead (``ParticleStore/appendSampledBlock(_:times:at:constantsIndex:cell:lanes:avx2:)``).
  struct Source {
    let parameters: UnsafePointer<CellParameters>
    let sampling: UnsafePointer<sleet_birth_params>
    let first: Int

    @inline(__always)
    func sample() -> BirthBatch { BirthBatch(parameters.pointee, samplingAt: sampling, first: first) }

    /// Whether the kernel's positions are final (no per-lane shape).
    var hasFinalPositions: Bool { Int(sampling.pointee.shape) != SLEET_BIRTH_SHAPE_PER_LANE }
  }
}
