import Glibc
import SleetMath
import SleetParticles
import Testing

@testable import SleetPreview

/// `magnificationFilter` / `minificationFilter` reach the rasterizer through
/// `ParticleFrame.spriteSampling`. Expected pixels are worked out by hand
/// from the sampling formulas in docs/rendering.md.
@Suite("Sprite sampling filters")
struct SamplingFilterTests {
  static let red = SIMD4<Float>(1, 0, 0, 1)
  static let blue = SIMD4<Float>(0, 0, 1, 1)

  /// "pair": 2 × 1 texels, red then blue, 2 × 1 points. "strip": 4 × 2
  /// texels whose columns have red 0, 0.25, 0.5, 1 (opaque), 4 × 2 points.
  static func library() -> SpriteLibrary {
    let library = SpriteLibrary()
    var pair = RGBAImage(width: 2, height: 1)
    pair[0, 0] = red
    pair[1, 0] = blue
    library.register(Sprite(image: pair), named: "pair")
    var strip = RGBAImage(width: 4, height: 2)
    for y in 0..<2 {
      for (x, r) in [Float(0), 0.25, 0.5, 1].enumerated() { strip[x, y] = SIMD4(r, 0, 0, 1) }
    }
    library.register(Sprite(image: strip), named: "strip")
    return library
  }

  /// One particle drawing `sprite` at (x, y) and `scale`, sampled as `sampling`.
  static func render(
    _ sprite: String, x: Float, y: Float, scale: Float, sampling: SpriteSampling?, width: Int, height: Int
  ) throws -> RGBAImage {
    var frame = makeFrame([TestParticle(x: x, y: y, scale: scale)], sprites: [sprite])
    if let sampling { frame.spriteSampling = [sampling] }
    var image = RGBAImage(width: width, height: height)
    try Renderer().render(frame, into: &image, sprites: library())
    return image
  }

  static func row(_ image: RGBAImage, _ y: Int) -> [SIMD4<Float>] { (0..<image.width).map { image[$0, y] } }

  /// The 2-texel sprite magnified 2×: pixel centres 0.5 … 3.5 map to texel
  /// x = 0.25, 0.75, 1.25, 1.75. Nearest takes texel ⌊x⌋: red, red, blue,
  /// blue. Bilinear (x − 0.5 = −0.25, 0.25, 0.75, 1.25, clamp to edge) gives
  /// red, ¾ red + ¼ blue, ¼ red + ¾ blue, blue.
  @Test func magnifiedSpriteIsPointSampledWithNearestAndBilinearWithLinear() throws {
    let (r, b) = (Self.red, Self.blue)
    let nearest = try Self.render(
      "pair", x: 2, y: 1, scale: 2, sampling: SpriteSampling(magnificationFilter: .nearest), width: 4, height: 2)
    let linear = try Self.render(
      "pair", x: 2, y: 1, scale: 2, sampling: SpriteSampling(magnificationFilter: .linear), width: 4, height: 2)
    let blended = [r, SIMD4(0.75, 0, 0.25, 1), SIMD4(0.25, 0, 0.75, 1), b]
    for y in 0..<2 {
      #expect(Self.row(nearest, y) == [r, r, b, b], "row \(y)")
      #expect(Self.row(linear, y) == blended, "row \(y)")
    }
    // No sampling table: linear. The minification filter does not apply here.
    let untabled = try Self.render("pair", x: 2, y: 1, scale: 2, sampling: nil, width: 4, height: 2)
    #expect(untabled == linear)
    let minNearest = try Self.render(
      "pair", x: 2, y: 1, scale: 2, sampling: SpriteSampling(minificationFilter: .nearest), width: 4, height: 2)
    #expect(minNearest == linear)
  }

  /// The 4-texel strip minified to half size: pixel centres 0.5, 1.5 map to
  /// texel x = 1, 3 (y = 1, between two equal rows). Nearest: red 0.25, 1.
  /// Bilinear (x − 0.5 = 0.5, 2.5): red (0 + 0.25)/2 = 0.125, (0.5 + 1)/2 = 0.75.
  @Test func minifiedSpriteUsesTheMinificationFilter() throws {
    func reds(_ sampling: SpriteSampling) throws -> [Float] {
      let image = try Self.render("strip", x: 1, y: 0.5, scale: 0.5, sampling: sampling, width: 2, height: 1)
      #expect(Self.row(image, 0).allSatisfy { $0.y == 0 && $0.z == 0 && $0.w == 1 })
      return Self.row(image, 0).map(\.x)
    }
    #expect(try reds(SpriteSampling(minificationFilter: .nearest)) == [0.25, 1])
    #expect(try reds(SpriteSampling(minificationFilter: .linear)) == [0.125, 0.75])
    // The magnification filter does not apply to a minified sprite.
    #expect(try reds(SpriteSampling(magnificationFilter: .nearest)) == [0.125, 0.75])
    // Trilinear without mip levels samples as linear (docs/rendering.md), whatever the bias.
    #expect(try reds(SpriteSampling(minificationFilter: .trilinear, minificationFilterBias: 3)) == [0.125, 0.75])
  }

  /// Exactly one texel per pixel is magnification: nearest and linear agree
  /// there (pixel centres on texel centres), so the switch is not visible.
  @Test func unscaledSpritesLookTheSameWithEitherFilter() throws {
    let nearest = try Self.render(
      "strip", x: 2, y: 1, scale: 1,
      sampling: SpriteSampling(magnificationFilter: .nearest, minificationFilter: .nearest), width: 4, height: 2)
    let linear = try Self.render("strip", x: 2, y: 1, scale: 1, sampling: .linear, width: 4, height: 2)
    #expect(nearest == linear)
    #expect(Self.row(nearest, 0).map(\.x) == [0, 0.25, 0.5, 1])
  }

  /// The banded kernel and its naive twin agree with every filter.
  @Test func bandedKernelMatchesItsNaiveTwinWithEveryFilter() throws {
    var random = TestRandom(state: 11)
    let library = SpriteLibrary()
    let sprites = try BuiltInSprite.allCases.map { try library.sprite(for: SpriteReference($0.rawValue)) }
    let filters = SamplingFilter.allCases
    var draws: [SpriteDraw] = []
    for k in 0..<90 {
      let angle = Float(random.unit()) * 6.3
      let s = random.unit() * 3 + 0.05
      draws.append(
        SpriteDraw(
          transform: AffineTransform2D(
            a: s * cos(angle), b: s * sin(angle), c: -s * sin(angle), d: s * cos(angle),
            tx: random.unit() * 110 - 15, ty: random.unit() * 90 - 15),
          sprite: Int(random.next() % 6), tint: SIMD4(1, random.unit(), random.unit(), random.unit()),
          blendMode: k % 2 == 0 ? .sourceOver : .additive,
          sampling: SpriteSampling(
            magnificationFilter: filters[k % 3], minificationFilter: filters[(k / 3) % 3],
            minificationFilterBias: random.unit())))
    }
    var fast = RGBAImage(width: 97, height: 71, fill: SIMD4(0.1, 0.1, 0.1, 1))
    var naive = fast
    Rasterizer.drawSprites(draws, sprites: sprites, into: &fast, options: RasterOptions(bandHeight: 8))
    Rasterizer._drawSpritesNaive(draws, sprites: sprites, into: &naive)
    #expect(fast == naive)
    // The filters matter: all-linear sampling draws a different picture.
    var allLinear = RGBAImage(width: 97, height: 71, fill: SIMD4(0.1, 0.1, 0.1, 1))
    let linearDraws = draws.map { d -> SpriteDraw in
      var d = d
      d.sampling = .linear
      return d
    }
    Rasterizer.drawSprites(linearDraws, sprites: sprites, into: &allLinear)
    #expect(allLinear != fast)
  }
}
