import Glibc
import SleetMath
import SleetParticles
import Testing

@testable import SleetPreview

/// The instance-buffer affine of the ParticleFrame contract:
/// scale(s) · rotate(θ) · translate(x, y), row vectors.
func particleAffine(x: Float, y: Float, scale s: Float, rotation: Float) -> AffineTransform2D {
  let c = cos(rotation), n = sin(rotation)
  return AffineTransform2D(a: s * c, b: s * n, c: -s * n, d: s * c, tx: x, ty: y)
}

struct TestParticle {
  var x: Float
  var y: Float
  var scale: Float = 1
  var rotation: Float = 0
  var color = SIMD4<Float>(1, 1, 1, 1)
  var contentsRect = SIMD4<Float>(0, 0, 1, 1)
  var sprite: UInt32 = 0
}

/// A hand-built frame: one batch per (blend mode, count) entry, in order.
func makeFrame(
  _ particles: [TestParticle], sprites: [String], batches: [(BlendMode, Int)]? = nil
) -> ParticleFrame {
  var frame = ParticleFrame()
  for p in particles {
    frame.instances.append(
      ParticleInstance(
        x: p.x, y: p.y, z: 0, scale: p.scale, color: p.color, contentsRect: p.contentsRect,
        rotation: p.rotation, normalizedAge: 0, sprite: p.sprite, cell: 0))
    frame.affines.append(particleAffine(x: p.x, y: p.y, scale: p.scale, rotation: p.rotation))
  }
  var start = 0
  for (mode, count) in batches ?? [(.sourceOver, particles.count)] {
    frame.batches.append(DrawBatch(range: start..<start + count, blendMode: mode))
    start += count
  }
  frame.sprites = sprites.map(SpriteReference.init)
  frame.cellPaths = ["cell"]
  return frame
}

/// A library with an 8 × 8-point opaque white square sprite named "square"
/// and a 16 × 8 sprite "halves" (left half red, right half blue), both at 1
/// pixel per point, so unscaled draws put pixel centres on texel centres.
func testLibrary() -> SpriteLibrary {
  let library = SpriteLibrary()
  library.register(Sprite(image: RGBAImage(width: 8, height: 8, fill: SIMD4(1, 1, 1, 1))), named: "square")
  var halves = RGBAImage(width: 16, height: 8)
  for y in 0..<8 {
    for x in 0..<16 { halves[x, y] = x < 8 ? SIMD4(1, 0, 0, 1) : SIMD4(0, 0, 1, 1) }
  }
  library.register(Sprite(image: halves), named: "halves")
  return library
}

@Suite("Rendering particle frames")
struct ParticleRenderingTests {
  let black = ColorRGBA.black

  @Test func singleWhiteSpriteLandsWhereTheInstanceSays() throws {
    var image = RGBAImage(width: 32, height: 24, background: black)
    let frame = makeFrame([TestParticle(x: 10, y: 9)], sprites: ["square"])
    try Renderer().render(frame, into: &image, sprites: testLibrary())
    let decoded = roundTrip(image)
    // An 8 × 8-point square centred on (10, 9) covers pixels 6..<14 × 5..<13.
    for y in 0..<24 {
      for x in 0..<32 {
        let inside = (6..<14).contains(x) && (5..<13).contains(y)
        #expect(pixel(decoded, x, y) == (inside ? [255, 255, 255, 255] : [0, 0, 0, 255]), "pixel (\(x), \(y))")
      }
    }
  }

  @Test func scaleRotationAndViewTransformMoveTheSprite() throws {
    // The 16 × 8 "halves" sprite rotated 90° (clockwise on screen, y down) and
    // scaled by 0.5 becomes 4 wide × 8 tall; the view doubles it to 8 × 16 pixels.
    var image = RGBAImage(width: 40, height: 40, background: black)
    let frame = makeFrame([TestParticle(x: 10, y: 10, scale: 0.5, rotation: .pi / 2)], sprites: ["halves"])
    try Renderer(pixelsPerPoint: 2).render(frame, into: &image, sprites: testLibrary())
    let decoded = roundTrip(image)
    // Centre (20, 20); the box is x 16..<24, y 12..<28. Rotating +90° maps local
    // +x (the blue half) to screen +y: blue below, red above.
    #expect(pixel(decoded, 20, 14) == [255, 0, 0, 255])
    #expect(pixel(decoded, 20, 26) == [0, 0, 255, 255])
    #expect(pixel(decoded, 16, 20)[3] == 255 && pixel(decoded, 23, 20)[3] == 255)
    #expect(pixel(decoded, 15, 20) == [0, 0, 0, 255])
    #expect(pixel(decoded, 24, 20) == [0, 0, 0, 255])
    #expect(pixel(decoded, 20, 11) == [0, 0, 0, 255])
    #expect(pixel(decoded, 20, 28) == [0, 0, 0, 255])
  }

  @Test func contentsRectSelectsPartOfTheSprite() throws {
    // Right half of "halves": 8 × 8 points of blue.
    var image = RGBAImage(width: 20, height: 20, background: black)
    let frame = makeFrame(
      [TestParticle(x: 10, y: 10, contentsRect: SIMD4(0.5, 0, 0.5, 1))], sprites: ["halves"])
    try Renderer().render(frame, into: &image, sprites: testLibrary())
    let decoded = roundTrip(image)
    for y in 0..<20 {
      for x in 0..<20 {
        let inside = (6..<14).contains(x) && (6..<14).contains(y)
        #expect(pixel(decoded, x, y) == (inside ? [0, 0, 255, 255] : [0, 0, 0, 255]), "pixel (\(x), \(y))")
      }
    }
  }

  @Test func tintIsStraightAlphaAndPremultipliedWhenDrawn() throws {
    var image = RGBAImage(width: 16, height: 16, background: black)
    let frame = makeFrame([TestParticle(x: 8, y: 8, color: SIMD4(1, 0.5, 0, 0.5))], sprites: ["square"])
    try Renderer().render(frame, into: &image, sprites: testLibrary())
    #expect(image[8, 8] == SIMD4(0.5, 0.25, 0, 1))
    #expect(pixel(roundTrip(image), 8, 8) == [128, 64, 0, 255])
  }

  @Test func sourceOverAndAdditiveComposite() throws {
    // Half-transparent red, then half-transparent green over it, on opaque black.
    let particles = [
      TestParticle(x: 8, y: 8, color: SIMD4(1, 0, 0, 0.5)),
      TestParticle(x: 8, y: 8, color: SIMD4(0, 1, 0, 0.5)),
    ]
    var over = RGBAImage(width: 16, height: 16, background: black)
    try Renderer().render(makeFrame(particles, sprites: ["square"]), into: &over, sprites: testLibrary())
    // d = g·0.5 + (r·0.5 + black·0.5)·0.5
    #expect(over[8, 8] == SIMD4(0.25, 0.5, 0, 1))
    #expect(pixel(roundTrip(over), 8, 8) == [64, 128, 0, 255])

    var added = RGBAImage(width: 16, height: 16, background: black)
    try Renderer().render(
      makeFrame(particles, sprites: ["square"], batches: [(.additive, 2)]), into: &added, sprites: testLibrary())
    // d = black + r·0.5 + g·0.5; alpha accumulates past 1 and is clamped on output.
    #expect(added[8, 8] == SIMD4(0.5, 0.5, 0, 2))
    #expect(pixel(roundTrip(added), 8, 8) == [128, 128, 0, 255])
  }

  @Test func batchesDrawInOrderWithTheirOwnBlendModes() throws {
    // Opaque red (source-over), then additive blue: the overlap is magenta.
    let particles = [
      TestParticle(x: 8, y: 8, color: SIMD4(1, 0, 0, 1)),
      TestParticle(x: 12, y: 8, color: SIMD4(0, 0, 1, 1)),
    ]
    var image = RGBAImage(width: 24, height: 16, background: black)
    try Renderer().render(
      makeFrame(particles, sprites: ["square"], batches: [(.sourceOver, 1), (.additive, 1)]),
      into: &image, sprites: testLibrary())
    let decoded = roundTrip(image)
    #expect(pixel(decoded, 6, 8) == [255, 0, 0, 255])
    #expect(pixel(decoded, 10, 8) == [255, 0, 255, 255])
    #expect(pixel(decoded, 14, 8) == [0, 0, 255, 255])
  }

  @Test func instancesWithoutContentsAlphaOrScaleDrawNothing() throws {
    let particles = [
      TestParticle(x: 8, y: 8, sprite: ParticleInstance.noSprite),
      TestParticle(x: 8, y: 8, color: SIMD4(1, 1, 1, 0)),
      TestParticle(x: 8, y: 8, scale: 0),
    ]
    var image = RGBAImage(width: 16, height: 16, background: black)
    // "missing" is never resolved because no drawn instance uses it.
    try Renderer().render(makeFrame(particles, sprites: ["missing"]), into: &image, sprites: testLibrary())
    #expect(image == RGBAImage(width: 16, height: 16, background: black))
  }

  @Test func unknownSpriteNamesThrow() {
    var image = RGBAImage(width: 4, height: 4)
    let frame = makeFrame([TestParticle(x: 2, y: 2)], sprites: ["no-such-sprite"])
    #expect(throws: SpriteError.unknownSprite(name: "no-such-sprite")) {
      try Renderer().render(frame, into: &image, sprites: SpriteLibrary())
    }
  }

  @Test func outputIsBitIdenticalForAnyBandingAndThreading() throws {
    // 300 random particles of every built-in sprite, both blend modes.
    var random = TestRandom(state: 42)
    var particles: [TestParticle] = []
    for _ in 0..<300 {
      particles.append(
        TestParticle(
          x: random.unit() * 90 - 5, y: random.unit() * 70 - 5, scale: random.unit() * 1.5 + 0.1,
          rotation: random.unit() * 6.3,
          color: SIMD4(random.unit(), random.unit(), random.unit(), random.unit()),
          contentsRect: random.unit() < 0.5 ? SIMD4(0, 0, 1, 1) : SIMD4(0.25, 0.25, 0.5, 0.5),
          sprite: UInt32(random.next() % 6)))
    }
    let frame = makeFrame(
      particles, sprites: BuiltInSprite.allCases.map(\.rawValue), batches: [(.sourceOver, 150), (.additive, 150)])
    let library = SpriteLibrary(pixelsPerPoint: 1.5)
    func render(_ options: RasterOptions) throws -> RGBAImage {
      var image = RGBAImage(width: 120, height: 90, background: ColorRGBA(red: 0.1, green: 0.2, blue: 0.3))
      try Renderer(pixelsPerPoint: 1.5, options: options).render(frame, into: &image, sprites: library)
      return image
    }
    let reference = try render(.serial)
    #expect(reference != RGBAImage(width: 120, height: 90, background: ColorRGBA(red: 0.1, green: 0.2, blue: 0.3)))
    for options in [
      RasterOptions(), RasterOptions(bandHeight: 1), RasterOptions(bandHeight: 7),
      RasterOptions(bandHeight: 64, isParallel: false),
    ] {
      let image = try render(options)
      let same = image.withUnsafeBufferPointer { a in
        reference.withUnsafeBufferPointer { b in
          a.elementsEqual(b) {
            $0.x.bitPattern == $1.x.bitPattern && $0.y.bitPattern == $1.y.bitPattern
              && $0.z.bitPattern == $1.z.bitPattern && $0.w.bitPattern == $1.w.bitPattern
          }
        }
      }
      #expect(same, "options \(options)")
    }
  }

  @Test func bandedKernelMatchesItsNaiveTwinBitForBit() throws {
    // Rotated, scaled, sheared and off-image sprites exercise the bounding box
    // and per-row span narrowing, which the naive twin does not have.
    var random = TestRandom(state: 7)
    let library = SpriteLibrary()
    let sprites = try BuiltInSprite.allCases.map { try library.sprite(for: SpriteReference($0.rawValue)) }
    var draws: [SpriteDraw] = []
    for k in 0..<120 {
      let angle = Double(random.unit()) * 6.3
      let s = random.unit() * 2 + 0.05
      let shear = k % 5 == 0 ? random.unit() : 0
      draws.append(
        SpriteDraw(
          transform: AffineTransform2D(
            a: s * Float(cos(angle)), b: s * Float(sin(angle)), c: -s * Float(sin(angle)) + shear,
            d: s * Float(cos(angle)), tx: random.unit() * 110 - 15, ty: random.unit() * 90 - 15),
          sprite: Int(random.next() % 6),
          contentsRect: k % 3 == 0 ? SIMD4(0.1, 0.2, 0.6, 0.5) : SIMD4(0, 0, 1, 1),
          tint: SIMD4(random.unit(), random.unit(), random.unit(), random.unit()),
          blendMode: k % 2 == 0 ? .sourceOver : .additive))
    }
    var fast = RGBAImage(width: 97, height: 71, fill: SIMD4(0.1, 0.1, 0.1, 1))
    var naive = fast
    Rasterizer.drawSprites(draws, sprites: sprites, into: &fast, options: RasterOptions(bandHeight: 8))
    Rasterizer._drawSpritesNaive(draws, sprites: sprites, into: &naive)
    #expect(fast == naive)
    #expect(fast != RGBAImage(width: 97, height: 71, fill: SIMD4(0.1, 0.1, 0.1, 1)))
  }

  @Test func framesWithoutAffinesUseTheInstanceFields() throws {
    var random = TestRandom(state: 3)
    var particles: [TestParticle] = []
    for _ in 0..<40 {
      particles.append(
        TestParticle(
          x: random.unit() * 60, y: random.unit() * 40, scale: random.unit() + 0.2, rotation: random.unit() * 6,
          color: SIMD4(1, random.unit(), random.unit(), 1), sprite: UInt32(random.next() % 2)))
    }
    let withAffines = makeFrame(particles, sprites: ["square", "halves"])
    var withoutAffines = withAffines
    withoutAffines.affines = []
    var a = RGBAImage(width: 60, height: 40, background: black)
    var b = a
    try Renderer().render(withAffines, into: &a, sprites: testLibrary())
    try Renderer().render(withoutAffines, into: &b, sprites: testLibrary())
    // Same formula, same libm: identical.
    #expect(a == b)
    #expect(Renderer.instanceAffine(withAffines.instances[7]) == withAffines.affines[7])
  }
}
