import CSleetKernels
import SleetMath
import Testing

@testable import SleetParticles

/// The eight-lane kernel of blocks that share one constants row
/// (`sleet_evaluate_uniform_block8`, the `CSleetKernels` header) against its
/// naive twin, ``ClosedForm`` on one `Float` at a time, bit for bit: full
/// instances, compact instances, affines and tracked depths, on lanes chosen
/// to reach every clamp and the values whose bits a careless kernel changes
/// (−0, NaN, subnormals, overflow). The preset suites (`RenderPathAgreementTests`,
/// `BuildIdentityTests`) check the kernel on real frames; this one on the
/// edges real frames rarely reach.
@Suite("Uniform-block kernel = ClosedForm")
struct UniformBlockKernelTests {
  struct Lane {
    var birth: Double
    var lifetime: Float
    var p0: SIMD3<Float>
    var v0: SIMD3<Float>
    var s0: Float
    var spin: Float
    var c0: SIMD4<Float>
  }

  static let t = 10.0
  /// A subnormal `Float` (2⁻¹²⁹).
  static let tiny = Float.leastNormalMagnitude / 8
  /// Lane 7's age, `Float(t − 9.3)`, inexact.
  static let age7 = Float(t - 9.3)

  static let lanes: [Lane] = [
    // An ordinary particle.
    Lane(birth: 9.5, lifetime: 2, p0: [1, 2, 3], v0: [-4, 5, 0.5], s0: 1, spin: 0.7, c0: [0.2, 0.4, 0.6, 0.8]),
    // Colours below 0 and above 1, a scale that clamps to 0.
    Lane(birth: 9, lifetime: 3, p0: [0, 0, 0], v0: [1, 1, 1], s0: -3, spin: -2, c0: [-0.5, 1.5, 0, 1]),
    // Negative zeros everywhere (age 0: born now; green keeps −0 because its
    // speed is negative: −0 + (−0.2)·0 = −0).
    Lane(
      birth: 10, lifetime: 1, p0: [-0.0, -0.0, -0.0], v0: [-0.0, 0, -0.0], s0: -0.0, spin: -0.0,
      c0: [-0.0, -0.0, -0.0, 1]),
    // Normalised age 1 exactly: capped below 1.
    Lane(birth: 8, lifetime: 2, p0: [5, -5, 5], v0: [0, 0, 0], s0: 0.5, spin: 100, c0: [1, 1, 1, 1]),
    // NaN passes through the clamps.
    Lane(
      birth: 9.25, lifetime: 4, p0: [.nan, 1, 1], v0: [1, .nan, 1], s0: .nan, spin: .nan,
      c0: [.nan, 0.5, .nan, 0.5]),
    // Overflow to infinity; a rotation far from zero.
    Lane(
      birth: 0, lifetime: 1e30, p0: [3e38, -3e38, 1], v0: [3e38, -3e38, 1e38], s0: 3e38, spin: 1e4,
      c0: [0.5, 0.5, 0.5, 0.5]),
    // Subnormals.
    Lane(
      birth: 9.9, lifetime: 0.5, p0: [tiny, -tiny, .leastNonzeroMagnitude], v0: [tiny * 4, 0, -tiny * 4],
      s0: tiny / 64, spin: tiny, c0: [tiny, .leastNonzeroMagnitude, 0.999_999_9, 0.000_001]),
    // Cancellation: p0 = −fl(v0·a) with an inexact product, so x is exactly
    // 0 without a fused multiply-add and the product's rounding error with
    // one (a contracted kernel fails here); the age is not a whole number of
    // Float steps of the birth time.
    Lane(
      birth: 9.3, lifetime: 0.9, p0: [-(1.1 * age7), -(-2.3 * age7), 0.3], v0: [1.1, -2.3, 0.1], s0: 2,
      spin: 3, c0: [0.9, 0.1, 0.5, 0.3]),
  ]

  /// ½·acceleration (x −0, so lane 2 keeps its −0), scale speed, colour speed,
  /// contentsRect, sprite 3, cell 1.
  static let constants = ParticleConstants(
    halfAcceleration: SIMD3(-0.0, -7.5, 0.25), scaleSpeed: -0.3, colorSpeed: SIMD4(0.1, -0.2, 0.05, -0.4),
    contentsRect: SIMD4(0.25, 0.5, 0.25, 0.5), sprite: 3, cell: 1)

  /// ``constants`` as a row of ``ParticleConstantsTable`` (with the compact
  /// sprite·cell word).
  static let row: [Float] = BlockRunKernelTests.constantsRows([constants])

  /// One block in ``ParticleStore``'s layout (`sleet_slab_block`), 64-byte
  /// aligned.
  static func withBlock<R>(_ body: (UnsafeRawPointer) -> R) -> R {
    let p = UnsafeMutableRawPointer.allocate(byteCount: ParticleStore.blockBytes, alignment: 64)
    defer { p.deallocate() }
    p.initializeMemory(as: UInt8.self, repeating: 0, count: ParticleStore.blockBytes)
    func put(_ offset: Int, _ lane: Int, _ v: Float) {
      p.storeBytes(of: v, toByteOffset: offset + lane * 4, as: Float.self)
    }
    let slot = SLEET_SLAB_SLOT_BYTES
    for (l, lane) in lanes.enumerated() {
      p.storeBytes(of: lane.birth, toByteOffset: SLEET_SLAB_BIRTH_TIME + l * 8, as: Double.self)
      put(SLEET_SLAB_LIFETIME, l, lane.lifetime)
      for k in 0..<3 {
        put(SLEET_SLAB_POSITION + k * slot, l, lane.p0[k])
        put(SLEET_SLAB_VELOCITY + k * slot, l, lane.v0[k])
      }
      put(SLEET_SLAB_SCALE, l, lane.s0)
      put(SLEET_SLAB_SPIN, l, lane.spin)
      for k in 0..<4 { put(SLEET_SLAB_COLOR + k * slot, l, lane.c0[k]) }
    }
    return body(UnsafeRawPointer(p))
  }

  /// What ``ClosedForm`` gives for lane `l`, one `Float` at a time.
  static func expected(_ l: Int, flattensDepth: Bool) -> (instance: ParticleInstance, depth: Float) {
    let lane = lanes[l]
    let a = Float(t - lane.birth)
    let aa = a * a
    let h = constants.halfAcceleration
    var p = SIMD3<Float>()
    for k in 0..<3 { p[k] = ClosedForm.position(lane.p0[k], lane.v0[k], h[k], age: a, ageSquared: aa) }
    var color = SIMD4<Float>()
    for k in 0..<4 { color[k] = ClosedForm.color(lane.c0[k], constants.colorSpeed[k], age: a) }
    let instance = ParticleInstance(
      x: p.x, y: p.y, z: flattensDepth ? 0 : p.z, scale: ClosedForm.scale(lane.s0, constants.scaleSpeed, age: a),
      color: color, contentsRect: constants.contentsRect, rotation: ClosedForm.rotation(lane.spin, age: a),
      normalizedAge: ClosedForm.normalizedAge(age: a, inverseLifetime: 1 / lane.lifetime), sprite: 3, cell: 1)
    return (instance, p.z)
  }

  static func bits(_ i: ParticleInstance) -> [UInt32] {
    let floats: [Float] = [
      i.x, i.y, i.z, i.scale, i.color.x, i.color.y, i.color.z, i.color.w, i.contentsRect.x, i.contentsRect.y,
      i.contentsRect.z, i.contentsRect.w, i.rotation, i.normalizedAge,
    ]
    return floats.map(\.bitPattern) + [i.sprite, i.cell]
  }

  /// Runs the kernel on the test block with affines and sort keys, into
  /// full or compact rows.
  static func run(compact: Bool, flattensDepth: Bool) -> (
    instances: [ParticleInstance], compact: [CompactParticleInstance], affines: [AffineTransform2D],
    depths: [Float], sinCos: (sin: SIMD8<Float>, cos: SIMD8<Float>)
  ) {
    var instances = [ParticleInstance](repeating: ParticleSystem.blankInstance, count: 8)
    var compactRows = [CompactParticleInstance](repeating: ParticleSystem.blankCompactInstance, count: 8)
    var affines = [AffineTransform2D](repeating: .identity, count: 8)
    var depths = [Float](repeating: 0, count: 8)
    var ids = [UInt64](repeating: 0, count: 8)
    var sinCos = [SIMD8<Float>](repeating: .zero, count: 2)
    withBlock { block in
      ParticleStore.rotationSinCos(block, at: t, into: &sinCos)
      instances.withUnsafeMutableBufferPointer { instances in
        compactRows.withUnsafeMutableBufferPointer { compactRows in
          affines.withUnsafeMutableBufferPointer { affines in
            depths.withUnsafeMutableBufferPointer { depths in
              ids.withUnsafeMutableBufferPointer { ids in
                row.withUnsafeBufferPointer { row in
                  let target = EvaluationTarget(
                    instances: instances.baseAddress!, compact: compact ? compactRows.baseAddress! : nil,
                    affines: affines.baseAddress!, ids: ids.baseAddress!, depths: depths.baseAddress!, hidden: nil,
                    flattensDepth: flattensDepth, writesSortKeys: true)
                  ParticleStore.evaluateUniformBlock(
                    block, at: t, row: row.baseAddress!, sinCos: sinCos, into: target, at: 0)
                }
              }
            }
          }
        }
      }
    }
    return (instances, compactRows, affines, depths, (sinCos[0], sinCos[1]))
  }

  @Test(arguments: [false, true])
  func instancesAffinesAndDepthsEqualTheClosedForm(flattensDepth: Bool) {
    let out = Self.run(compact: false, flattensDepth: flattensDepth)
    for l in 0..<8 {
      let (want, depth) = Self.expected(l, flattensDepth: flattensDepth)
      #expect(Self.bits(out.instances[l]) == Self.bits(want), "lane \(l)")
      #expect(out.depths[l].bitPattern == depth.bitPattern, "lane \(l)")
      // The affine: (s·cos, s·sin, −(s·sin), s·cos, x, y), the sine and
      // cosine of the lane's rotation as FastTrig computes them.
      let (sinR, cosR) = (out.sinCos.sin[l], out.sinCos.cos[l])
      let trig = FastTrig.sinCos(SIMD4(repeating: want.rotation))
      #expect(sinR.bitPattern == trig.sin[0].bitPattern && cosR.bitPattern == trig.cos[0].bitPattern, "lane \(l)")
      let s = want.scale
      let a = out.affines[l]
      #expect(
        [a.a, a.b, a.c, a.d, a.tx, a.ty].map(\.bitPattern)
          == [s * cosR, s * sinR, -(s * sinR), s * cosR, want.x, want.y].map(\.bitPattern), "lane \(l)")
    }
  }

  @Test(arguments: [false, true])
  func compactRowsAreTheFullRowsConverted(flattensDepth: Bool) {
    let out = Self.run(compact: true, flattensDepth: flattensDepth)
    for l in 0..<8 {
      var instance = Self.expected(l, flattensDepth: flattensDepth).instance
      // The conversion is defined for colours in [0, 1] only (it traps on
      // NaN); lane 4's NaN channels are checked as full instances above.
      let hasNaN = any(instance.color .!= instance.color)
      if hasNaN { instance.color = .zero }
      let want = CompactParticleInstance(instance)
      let got = out.compact[l]
      #expect(
        [got.x, got.y, got.z, got.scale, got.rotation, got.normalizedAge].map(\.bitPattern)
          == [want.x, want.y, want.z, want.scale, want.rotation, want.normalizedAge].map(\.bitPattern), "lane \(l)")
      if !hasNaN { #expect(got.color == want.color, "lane \(l)") }
      #expect(got.sprite == want.sprite && got.cell == want.cell, "lane \(l)")
    }
  }

  /// The lanes really reach the edges they are there for (a test of the test).
  @Test func lanesReachTheirEdges() {
    let e = (0..<8).map { Self.expected($0, flattensDepth: false).instance }
    #expect(e[1].color.x == 0 && e[1].color.y == 1 && e[1].scale == 0)
    #expect(e[2].x.sign == .minus && e[2].rotation.sign == .minus && e[2].color.y.sign == .minus)
    #expect(e[3].normalizedAge == 0x1.fffffep-1)
    #expect(e[4].x.isNaN && e[4].color.x.isNaN && e[4].scale.isNaN)
    #expect(e[5].x.isInfinite)
    #expect(e[6].x.isSubnormal || e[6].color.x.isSubnormal)
    // Exactly 0 unfused; a fused p0 + v0·a would keep the product's error.
    #expect(e[7].x == 0 && Self.lanes[7].p0.x.addingProduct(1.1, Self.age7) != 0)
  }
}
