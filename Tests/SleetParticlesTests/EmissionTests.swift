import Foundation
import SleetMath
import Testing

@testable import SleetParticles

@Suite("Emission: ranges, cone, shapes")
struct EmissionTests {
  /// Each mean/range pair stays in [M − R/2, M + R/2] and fills it.
  @Test func rangedPropertiesStayWithinAndFillTheirBounds() {
    let cell = testCell("c", birthRate: 1, lifetime: 4, velocity: 50) {
      $0.lifetimeRange = 2
      $0.velocityRange = 20
      $0.scale = 1
      $0.scaleRange = 0.4
      $0.spin = 2
      $0.spinRange = 3
      $0.color = ColorRGBA(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.5)
      $0.redRange = 0.2
      $0.greenRange = 0.4
      $0.blueRange = 0.6
      $0.alphaRange = 0.8
    }
    let records = sampleBirths(testEffect([cell]), count: 3000)
    #expect(records.count == 3000)
    func check(_ name: String, _ values: [Float], mean: Float, range: Float) {
      let lo = values.min()!
      let hi = values.max()!
      #expect(lo >= mean - range / 2 - 1e-5, "\(name) below its range: \(lo)")
      #expect(hi <= mean + range / 2 + 1e-5, "\(name) above its range: \(hi)")
      #expect(lo < mean - range / 2 + 0.01 * range, "\(name) does not reach its lower bound: \(lo)")
      #expect(hi > mean + range / 2 - 0.01 * range, "\(name) does not reach its upper bound: \(hi)")
    }
    check("lifetime", records.map(\.lifetime), mean: 4, range: 2)
    check("speed", records.map { ($0.velocity * $0.velocity).sum().squareRoot() }, mean: 50, range: 20)
    check("scale", records.map(\.scale), mean: 1, range: 0.4)
    check("spin", records.map(\.spin), mean: 2, range: 3)
    check("red", records.map(\.color.x), mean: 0.5, range: 0.2)
    check("green", records.map(\.color.y), mean: 0.5, range: 0.4)
    check("blue", records.map(\.color.z), mean: 0.5, range: 0.6)
    check("alpha", records.map(\.color.w), mean: 0.5, range: 0.8)
  }

  /// Directions stay inside the cone of full angle R, reach its rim, and are
  /// uniform over solid angle: E[cos β] = (1 + cos(R/2))/2.
  @Test(arguments: [Float(0.3), 1.2, Float.pi, 5.0])
  func coneBoundsAndSolidAngleUniformity(range: Float) {
    let cell = testCell("c", birthRate: 1, lifetime: 1, velocity: 1) {
      $0.emissionRange = range
      $0.emissionLongitude = 0.7
      $0.emissionLatitude = 0.2
    }
    let axis = Emission.axis(base: SIMD3(1, 0, 0), longitude: 0.7, latitude: 0.2)
    let records = sampleBirths(testEffect([cell]), count: 4000)
    let cosines = records.map { r -> Float in
      let v = r.velocity / (r.velocity * r.velocity).sum().squareRoot()
      return (v * axis).sum()
    }
    let half = range / 2
    #expect(cosines.min()! >= cos(half) - 1e-4)
    #expect(cosines.min()! <= cos(half * 0.97))
    let mean = cosines.reduce(0, +) / Float(cosines.count)
    #expect(abs(mean - (1 + cos(half)) / 2) < 0.03)
  }

  @Test func zeroRangeEmitsExactlyAlongTheAxis() {
    let line = testEffect([testCell("c", velocity: 2) { $0.emissionLongitude = .pi }]) { $0.emitterShape = .line }
    let r = sampleBirths(line, count: 1)[0]
    // Line base direction is screen-up (0, −1, 0); longitude π turns it down.
    #expect(abs(r.velocity.x) < 1e-5 && abs(r.velocity.y - 2) < 1e-5 && r.velocity.z == 0)
    let point = testEffect([testCell("c", velocity: 2) { $0.emissionLongitude = -.pi / 2 }])
    let p = sampleBirths(point, count: 1)[0]
    #expect(abs(p.velocity.x) < 1e-5 && abs(p.velocity.y + 2) < 1e-5)
    let tilted = testEffect([testCell("c", velocity: 1) { $0.emissionLatitude = .pi / 2 }])
    #expect(abs(sampleBirths(tilted, count: 1)[0].velocity.z - 1) < 1e-6)
  }

  /// Every shape × mode places births where the table of semantics.md says.
  @Test(arguments: EmitterShape.allCases)
  func shapeAndModePlacement(shape: EmitterShape) {
    let c = SIMD3<Float>(10, 20, 5)
    let (w, h, d): (Float, Float, Float) = (8, 6, 4)
    let eps: Float = 1e-3
    for mode in EmitterMode.allCases {
      let effect = testEffect([testCell("c", birthRate: 1, lifetime: 1)]) {
        $0.emitterShape = shape
        $0.emitterMode = mode
        $0.emitterPosition = SIMD2(c.x, c.y)
        $0.emitterZPosition = c.z
        $0.emitterSize = SIMD2(w, h)
        $0.emitterDepth = d
      }
      let points = sampleBirths(effect, count: 600).map { $0.position - c }
      func near(_ a: Float, _ b: Float) -> Bool { abs(a - b) < eps }
      func onEdge(_ v: Float, _ half: Float) -> Bool { near(abs(v), half) }
      func inside(_ v: Float, _ half: Float) -> Bool { abs(v) <= half + eps }
      let rXY: (SIMD3<Float>) -> Float = { ($0.x * $0.x + $0.y * $0.y).squareRoot() }
      let r3: (SIMD3<Float>) -> Float = { ($0 * $0).sum().squareRoot() }
      var distinct = Set<SIMD3<Float>>()
      for p in points {
        let ok: Bool
        switch (shape, mode) {
        case (.point, _), (.circle, .points), (.sphere, .points):
          ok = p == .zero
        case (.line, .points):
          ok = onEdge(p.x, w / 2) && p.y == 0 && p.z == 0
        case (.line, _):
          ok = inside(p.x, w / 2) && p.y == 0 && p.z == 0
        case (.rectangle, .points):
          ok = onEdge(p.x, w / 2) && onEdge(p.y, h / 2) && p.z == 0
        case (.rectangle, .outline):
          ok = (onEdge(p.x, w / 2) && inside(p.y, h / 2)) || (onEdge(p.y, h / 2) && inside(p.x, w / 2))
        case (.rectangle, _):
          ok = inside(p.x, w / 2) && inside(p.y, h / 2) && p.z == 0
        case (.circle, .outline), (.sphere, .outline):
          ok = near(rXY(p), w) && p.z == 0
        case (.circle, _):
          ok = rXY(p) <= w + eps && p.z == 0
        case (.cuboid, .points):
          ok = onEdge(p.x, w / 2) && onEdge(p.y, h / 2) && onEdge(p.z, d / 2)
        case (.cuboid, .outline):
          let onFaces = [onEdge(p.x, w / 2), onEdge(p.y, h / 2), onEdge(p.z, d / 2)].filter { $0 }.count
          ok = onFaces >= 2 && inside(p.x, w / 2) && inside(p.y, h / 2) && inside(p.z, d / 2)
        case (.cuboid, .surface):
          let onFaces = [onEdge(p.x, w / 2), onEdge(p.y, h / 2), onEdge(p.z, d / 2)].filter { $0 }.count
          ok = onFaces >= 1 && inside(p.x, w / 2) && inside(p.y, h / 2) && inside(p.z, d / 2)
        case (.cuboid, .volume):
          ok = inside(p.x, w / 2) && inside(p.y, h / 2) && inside(p.z, d / 2)
        case (.sphere, .surface):
          ok = near(r3(p), w)
        case (.sphere, .volume):
          ok = r3(p) <= w + eps
        }
        #expect(ok, "\(shape) \(mode): \(p) is not where the table says")
        distinct.insert(p)
      }
      // Discrete placements use every alternative; continuous ones spread.
      let expectedDistinct: Int? =
        switch (shape, mode) {
        case (.point, _), (.circle, .points), (.sphere, .points): 1
        case (.line, .points): 2
        case (.rectangle, .points): 4
        case (.cuboid, .points): 8
        default: nil
        }
      if let expectedDistinct {
        #expect(distinct.count == expectedDistinct, "\(shape) \(mode)")
      } else {
        #expect(distinct.count > 590, "\(shape) \(mode)")
      }
    }
  }

  /// Length- and area-weighted choices: a rectangle's outline puts
  /// 2W/(2W + 2H) of its births on the horizontal edges; a cuboid's surface
  /// puts WH/(WH + WD + HD) on the two z faces, and its outline W/(W + H + D)
  /// on the x edges.
  @Test func perimeterEdgesAndFacesAreWeightedByLengthAndArea() {
    func fraction(_ shape: EmitterShape, _ mode: EmitterMode, where test: (SIMD3<Float>) -> Bool) -> Double {
      let effect = testEffect([testCell("c")]) {
        $0.emitterShape = shape
        $0.emitterMode = mode
        $0.emitterSize = SIMD2(8, 2)
        $0.emitterDepth = 4
      }
      let points = sampleBirths(effect, count: 4000).map(\.position)
      return Double(points.filter(test).count) / Double(points.count)
    }
    let horizontal = fraction(.rectangle, .outline) { abs(abs($0.y) - 1) < 1e-4 && abs($0.x) < 4 - 1e-3 }
    #expect(abs(horizontal - 0.8) < 0.03)
    let zFaces = fraction(.cuboid, .surface) { abs(abs($0.z) - 2) < 1e-4 }
    #expect(abs(zFaces - 16.0 / 56) < 0.03)
    let xEdges = fraction(.cuboid, .outline) { abs($0.x) < 4 - 1e-3 }
    #expect(abs(xEdges - 8.0 / 14) < 0.03)
  }

  /// Area-uniform placements: half the disc's births fall inside radius W/√2,
  /// half the ball's inside W/∛2.
  @Test func discAndBallAreUniformByAreaAndVolume() {
    for (shape, threshold) in [(EmitterShape.circle, Float(1 / 2.0.squareRoot())), (.sphere, Float(pow(0.5, 1.0 / 3)))]
    {
      let effect = testEffect([testCell("c")]) {
        $0.emitterShape = shape
        $0.emitterSize = SIMD2(10, 0)
      }
      let inner = sampleBirths(effect, count: 4000).filter {
        ($0.position * $0.position).sum().squareRoot() < 10 * threshold
      }.count
      #expect(abs(Double(inner) / 4000 - 0.5) < 0.04, "\(shape)")
    }
  }
}

@Suite("Birth sampler random words")
struct BirthSamplerRandomTests {
  @Test func laneParallelWordsEqualTheScalarStream() {
    for (seed, stream) in [(UInt64(0), UInt64(0)), (0xDEAD_BEEF_0000_0007, 12345), (42, 0xFFFF_FFFF_FFFF_FFFF)] {
      let random = RandomStream(seed: seed, stream: stream)
      let (a, b, c, d) = BirthSampler.attributeUniforms(random)
      #expect(a == random.uniforms(block: 0) && b == random.uniforms(block: 1))
      #expect(c == random.uniforms(block: 2) && d == random.uniforms(block: 3))
    }
  }
}
