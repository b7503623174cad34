import SleetMath
import Testing
import _SleetTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// Build identity: known-answer digests of SleetMath's outputs.
//
// The goldens were computed in the portable build (no -target-cpu) and are
// checked in every build CI makes, in particular the release build with
// `-target-cpu haswell` (AVX2+FMA), so "the fast build is bit-identical to the
// portable one" is tested rather than claimed. The `blas` backend is not
// covered: OpenBLAS picks its kernels at run time and rounds differently.
//
// Digest: 64-bit FNV-1a over the little-endian bytes of each output's bit
// pattern (Float: 32 bits, Double: 64), in the order the test lists them, NaN
// canonicalised (the contract is "NaN here", not a payload). A golden is
// (number of words, digest), so a failure says whether the shape or the bits
// changed.
//
// When an output changes on purpose, print the new values (portable build) with
//   SLEET_PRINT_DIGESTS=1 swift test --filter BuildIdentity 2>&1 | grep "BuildIdentity golden" | sort -u
// and paste them over the goldens below. Never regenerate them from a
// -target-cpu build.

@Suite("Build identity: SleetMath known-answer digests")
struct BuildIdentityMathTests {
  /// Computed in the portable build; see the top of Tests/SleetMathTests/BuildIdentityTests.swift.
  static let goldens: [String: (words: Int, digest: UInt64)] = [
    "Philox4x32 block, blocks, blocks4": (3328, 0x180F51B9E01BCB61),
    "RandomStream fill and uniforms": (3337, 0x5760E958B63981FC),
    "TimingFunction value(at: Double)": (3654, 0xEDEFD0AF84F5C774),
    "TimingFunction values(at: [Float])": (1827, 0x18FC80430A8A9E85),
    "Transform3D rotations and inverses": (2048, 0x2B87665A174D943F),
    "op1 concatenate shared left": (16432, 0xBC27A53F81AD7BAB),
    "op1 concatenate shared right": (16432, 0x21D3F2C374B5163F),
    "op2 concatenate pairs": (16432, 0x2879C6E549E94C79),
    "op3 project 4 shared points": (8216, 0xAF1072450A04EA6C),
    "op3 project 5 shared points": (10270, 0x8D0AC8D022FD0B8F),
    "op4 project many points, perspective": (3081, 0x38FE35A5D2289A4B),
    "op4 project many points, seeded": (3081, 0x2DB9EBEA5B3776CF),
  ]

  // MARK: Seeded inputs (defined here, independent of the other suites)

  /// 1027 transforms (SIMD tails of every width): entries in [−1, 1), the last
  /// column chosen so w = [p 1]·col4 is ≥ 0.5, ≤ −0.5 or exactly 0 for points
  /// in [−10, 10)³ (so op 3 and op 4 produce NaNs too).
  static let count = 1027

  static func transform(seed: UInt64, _ i: Int) -> Transform3D {
    let r = RandomStream(seed: seed, stream: UInt64(i))
    var f = (0..<16).map { 2 * r.uniform(UInt64($0)) - 1 }
    let kind = Int(r.word(16) % 3)
    for k in [3, 7, 11] { f[k] = kind == 2 ? 0 : f[k] * 1e-2 }
    f[15] = kind == 0 ? 1 + f[15] * 0.4 : kind == 1 ? -1 - f[15] * 0.4 : 0
    return Transform3D(
      row1: SIMD4(f[0], f[1], f[2], f[3]), row2: SIMD4(f[4], f[5], f[6], f[7]),
      row3: SIMD4(f[8], f[9], f[10], f[11]), row4: SIMD4(f[12], f[13], f[14], f[15]))
  }

  static func points(seed: UInt64, count: Int) -> [SIMD3<Float>] {
    let r = RandomStream(seed: seed, stream: 1_000_000)
    return (0..<count).map { i in
      let u = r.uniforms(block: UInt64(i))
      return SIMD3(u.x, u.y, u.z) * 20 - 10
    }
  }

  static let a = Transform3DBatch((0..<count).map { transform(seed: 0x5EED_0001, $0) })
  static let b = Transform3DBatch((0..<count).map { transform(seed: 0x5EED_0002, $0) })
  static let shared = transform(seed: 0x5EED_0003, 0)
  /// A perspective about a centre, as the shatter styles use it (w > 0 for the points).
  static let sharedPerspective = Transform3D.makeRotation(angle: 0.6, x: 1, y: -2, z: 0.5)
    .concatenating(.makeTranslation(x: -3, y: 4, z: 1))
    .concatenating(.makePerspective(eyeDistance: 500))

  // MARK: The four batch operations, scalar and simd (bit-identical by contract: one golden each)

  @Test(arguments: [TransformBackend.scalar, .simd])
  func batchOperations(backend: TransformBackend) {
    for side in ConcatenationSide.allCases {
      var d = BuildDigest()
      for t in Self.a.concatenating(Self.shared, side: side, backend: backend) { d.add(t) }
      d.check("op1 concatenate shared \(side)", in: Self.goldens, context: ", \(backend)")
    }
    var d2 = BuildDigest()
    for t in Self.a.concatenating(Self.b, backend: backend) { d2.add(t) }
    d2.check("op2 concatenate pairs", in: Self.goldens, context: ", \(backend)")

    for pointCount in [4, 5] {
      var d3 = BuildDigest()
      for p in Self.a.projecting(Self.points(seed: 7, count: pointCount), backend: backend) {
        d3.add(p.x)
        d3.add(p.y)
      }
      d3.check("op3 project \(pointCount) shared points", in: Self.goldens, context: ", \(backend)")
    }

    for (name, transform) in [("seeded", Self.shared), ("perspective", Self.sharedPerspective)] {
      let points = Self.points(seed: 11, count: Self.count)
      var out = [SIMD3<Float>](repeating: .zero, count: points.count)
      points.withUnsafeBufferPointer { p in
        out.withUnsafeMutableBufferPointer { o in
          Transform3DBatch.project(p, through: transform, into: o, backend: backend)
        }
      }
      var d4 = BuildDigest()
      for p in out {
        d4.add(p.x)
        d4.add(p.y)
        d4.add(p.z)
      }
      d4.check("op4 project many points, \(name)", in: Self.goldens, context: ", \(backend)")
    }
  }

  // MARK: Transform3D constructors and inverse (Double math rounded once)

  @Test func transformConstructors() {
    var d = BuildDigest()
    for k in 0..<64 {
      let angle = Float(k) * 0.173 - 5
      d.add(Transform3D.makeRotation(angle: angle, x: Float(k % 5) - 2, y: 1.5, z: Float(k % 3)))
    }
    for k in 0..<64 {
      if let inverse = Self.a[k].concatenating(Self.sharedPerspective).inverse { d.add(inverse) }
    }
    d.check("Transform3D rotations and inverses", in: Self.goldens)
  }

  // MARK: Philox4x32-10 and RandomStream

  @Test func randomStreams() {
    var words = BuildDigest()
    let key = SIMD2<UInt32>(0x1234_5678, 0x9abc_def0)
    for i: UInt32 in 0..<64 {
      let block = Philox4x32.block(counter: SIMD4(i, i &* 7, 0xffff_ffff &- i, 3), key: key)
      for k in 0..<4 { words.add(word: block[k]) }
      let c = SIMD8<UInt32>(0, 1, 2, 3, 4, 5, 6, 7) &+ SIMD8(repeating: i &* 8)
      let (w0, w1, w2, w3) = Philox4x32.blocks(c, c &* 3, SIMD8(repeating: i), c ^ 0xdead_beef, key: key)
      for w in [w0, w1, w2, w3] {
        for l in 0..<8 { words.add(word: w[l]) }
      }
      let c4 = SIMD4<UInt32>(0, 1, 2, 3) &+ SIMD4(repeating: i &* 4)
      let (v0, v1, v2, v3) = Philox4x32.blocks4(c4, c4 &* 5, SIMD4(repeating: ~i), c4, key: key)
      for v in [v0, v1, v2, v3] {
        for l in 0..<4 { words.add(word: v[l]) }
      }
    }
    words.check("Philox4x32 block, blocks, blocks4", in: Self.goldens)

    var floats = BuildDigest()
    let stream = RandomStream(seed: 0xDEAD_BEEF_0000_0001, stream: 7)
    for start: UInt64 in [0, 3, 1_000_003] {
      var out = [Float](repeating: -1, count: Self.count)
      out.withUnsafeMutableBufferPointer { stream.fill($0, startingAt: start) }
      for x in out { floats.add(x) }
    }
    for block: UInt64 in 0..<64 {
      let u = stream.uniforms(block: block)
      for k in 0..<4 { floats.add(u[k]) }
    }
    floats.check("RandomStream fill and uniforms", in: Self.goldens)
  }

  // MARK: TimingFunction

  @Test func timingFunctionSamples() {
    let curves: [TimingFunction] = [
      .linear, .easeIn, .easeOut, .easeInEaseOut, .default,
      TimingFunction(controlPoints: 0.1, 0.9, 0.2, 1), TimingFunction(controlPoints: 0.7, -0.4, 0.3, 1.4),
    ]
    var doubles = BuildDigest()
    var floats = BuildDigest()
    let inputs = (0...256).map { Float($0) / 256 } + [-0.5, 1.5, 0x1p-20, 1 - 0x1p-20]
    for curve in curves {
      for x in inputs { doubles.add(curve.value(at: Double(x))) }
      for y in curve.values(at: inputs) { floats.add(y) }
    }
    doubles.check("TimingFunction value(at: Double)", in: Self.goldens)
    floats.check("TimingFunction values(at: [Float])", in: Self.goldens)
  }
}
