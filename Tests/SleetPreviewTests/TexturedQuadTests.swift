import SleetMath
import Testing

@testable import SleetPreview

/// A 16 × 16 texture with four 8 × 8 quadrants: red, green / white, blue.
func quadrantTexture() -> RGBAImage {
  var texture = RGBAImage(width: 16, height: 16)
  for y in 0..<16 {
    for x in 0..<16 {
      texture[x, y] =
        switch (x < 8, y < 8) {
        case (true, true): SIMD4(1, 0, 0, 1)
        case (false, true): SIMD4(0, 1, 0, 1)
        case (false, false): SIMD4(0, 0, 1, 1)
        case (true, false): SIMD4(1, 1, 1, 1)
        }
    }
  }
  return texture
}

@Suite("Perspective-correct textured quads")
struct TexturedQuadTests {
  @Test func axisAlignedQuadReproducesTheSourceExactly() {
    let texture = randomOpaqueImage(width: 13, height: 9, seed: 7)
    var image = RGBAImage(width: 20, height: 15)
    let quad = TexturedQuad(corners: Quad2D(x: 5, y: 3, width: 13, height: 9), texture: 0)
    Rasterizer.drawQuads([quad], textures: [texture], into: &image)
    for y in 0..<15 {
      for x in 0..<20 {
        let inside = (5..<18).contains(x) && (3..<12).contains(y)
        #expect(image[x, y] == (inside ? texture[x - 5, y - 3] : .zero), "pixel (\(x), \(y))")
      }
    }
  }

  @Test func subRectangleOfTheTextureIsMappedExactly() {
    // Texture corners (0.25, 0.5)–(0.75, 1) of a 16 × 8 texture: texels 4..<12 × 4..<8.
    let texture = randomOpaqueImage(width: 16, height: 8, seed: 11)
    var image = RGBAImage(width: 8, height: 4)
    let quad = TexturedQuad(
      corners: Quad2D(x: 0, y: 0, width: 8, height: 4),
      textureCorners: Quad2D(x: 0.25, y: 0.5, width: 0.5, height: 0.5), texture: 0)
    Rasterizer.drawQuads([quad], textures: [texture], into: &image)
    for y in 0..<4 {
      for x in 0..<8 { #expect(image[x, y] == texture[x + 4, y + 4]) }
    }
  }

  @Test func homographyMapsCornersAndDiagonals() throws {
    let q = Quad2D(
      topLeft: SIMD2(10, 5), topRight: SIMD2(50, 12), bottomRight: SIMD2(44, 40), bottomLeft: SIMD2(3, 30))
    let h = try #require(_Homography.squareToQuad(q))
    let corners: [(SIMD2<Double>, SIMD2<Float>)] = [
      (SIMD2(0, 0), q.topLeft), (SIMD2(1, 0), q.topRight), (SIMD2(1, 1), q.bottomRight), (SIMD2(0, 1), q.bottomLeft),
    ]
    for (square, screen) in corners {
      let p = h.apply(square)
      #expect(abs(p.x - Double(screen.x)) < 1e-9 && abs(p.y - Double(screen.y)) < 1e-9)
    }
    // Perspective: the square's centre goes to the intersection of the quad's
    // diagonals, not to the mean of the corners.
    let a = SIMD2<Double>(10, 5), c = SIMD2<Double>(44, 40), b = SIMD2<Double>(50, 12), d = SIMD2<Double>(3, 30)
    let r = c - a, s = d - b
    let t = ((b.x - a.x) * s.y - (b.y - a.y) * s.x) / (r.x * s.y - r.y * s.x)
    let crossing = a + r * t
    let centre = h.apply(SIMD2(0.5, 0.5))
    #expect(abs(centre.x - crossing.x) < 1e-9 && abs(centre.y - crossing.y) < 1e-9)
    // The inverse takes the quad back to the square.
    let inverse = try #require(h.inverted())
    let back = inverse.apply(SIMD2(Double(q.bottomRight.x), Double(q.bottomRight.y)))
    #expect(abs(back.x - 1) < 1e-12 && abs(back.y - 1) < 1e-12)
  }

  @Test func perspectiveQuadMapsTextureCornersToScreenCorners() {
    // A trapezoid (a card tilted away at the top) showing the quadrant texture.
    let corners = Quad2D(
      topLeft: SIMD2(14, 4), topRight: SIMD2(34, 4), bottomRight: SIMD2(44, 36), bottomLeft: SIMD2(4, 36))
    var image = RGBAImage(width: 48, height: 40)
    Rasterizer.drawQuads([TexturedQuad(corners: corners, texture: 0)], textures: [quadrantTexture()], into: &image)
    // Just inside each corner: that corner's quadrant colour.
    #expect(image[15, 5] == SIMD4(1, 0, 0, 1))
    #expect(image[32, 5] == SIMD4(0, 1, 0, 1))
    #expect(image[42, 34] == SIMD4(0, 0, 1, 1))
    #expect(image[6, 34] == SIMD4(1, 1, 1, 1))
    // Outside the trapezoid: untouched.
    #expect(image[5, 5] == .zero && image[40, 6] == .zero)
    // Perspective-correct: the texture's horizontal midline (red/white
    // boundary) lies where the diagonals cross, y = 4 + 32/3 ≈ 14.7 — the far
    // (narrow) half is foreshortened — not at the affine midpoint y = 20.
    #expect(image[20, 12] == SIMD4(1, 0, 0, 1))
    #expect(image[20, 17] == SIMD4(1, 1, 1, 1))
    #expect(image[28, 17] == SIMD4(0, 0, 1, 1))
  }

  @Test func overhangingTextureIsTransparentAndOpacityScales() {
    // Texture corners extend past the texture's right edge by half.
    let texture = RGBAImage(width: 8, height: 8, fill: SIMD4(1, 1, 1, 1))
    var image = RGBAImage(width: 16, height: 8, fill: SIMD4(0, 0, 0, 1))
    let quad = TexturedQuad(
      corners: Quad2D(x: 0, y: 0, width: 16, height: 8),
      textureCorners: Quad2D(x: 0, y: 0, width: 2, height: 1), texture: 0, opacity: 0.5)
    Rasterizer.drawQuads([quad], textures: [texture], into: &image)
    #expect(image[3, 3] == SIMD4(0.5, 0.5, 0.5, 1))
    #expect(image[12, 3] == SIMD4(0, 0, 0, 1))
  }

  @Test func nanCornersAndDegenerateQuadsDrawNothing() {
    let texture = RGBAImage(width: 4, height: 4, fill: SIMD4(1, 1, 1, 1))
    var image = RGBAImage(width: 8, height: 8)
    var nan = TexturedQuad(corners: Quad2D(x: 0, y: 0, width: 8, height: 8), texture: 0)
    nan.corners.bottomRight = SIMD2(.nan, 8)
    let flat = TexturedQuad(
      corners: Quad2D(topLeft: SIMD2(0, 0), topRight: SIMD2(8, 0), bottomRight: SIMD2(8, 0), bottomLeft: SIMD2(0, 0)),
      texture: 0)
    Rasterizer.drawQuads([nan, flat], textures: [texture], into: &image)
    Renderer().render([nan, flat], textures: [texture], into: &image)
    #expect(image == RGBAImage(width: 8, height: 8))
  }

  @Test func rendererSortsFarToNearAndAppliesTheView() {
    let red = RGBAImage(width: 4, height: 4, fill: SIMD4(1, 0, 0, 1))
    let blue = RGBAImage(width: 4, height: 4, fill: SIMD4(0, 0, 1, 1))
    // The near (z = 5) blue quad comes first in the array but is drawn last.
    let quads = [
      TexturedQuad(corners: Quad2D(x: 2, y: 2, width: 4, height: 4), texture: 1, z: 5),
      TexturedQuad(corners: Quad2D(x: 0, y: 0, width: 4, height: 4), texture: 0, z: -1),
    ]
    var image = RGBAImage(width: 16, height: 16)
    Renderer(pixelsPerPoint: 2).render(quads, textures: [red, blue], into: &image)
    #expect(image[1, 1] == SIMD4(1, 0, 0, 1))
    #expect(image[5, 5] == SIMD4(0, 0, 1, 1))  // overlap: the near quad
    #expect(image[10, 10] == SIMD4(0, 0, 1, 1))
    #expect(image[12, 12] == .zero)
  }

  @Test func quadsAreBitIdenticalForAnyBanding() {
    let texture = randomOpaqueImage(width: 32, height: 32, seed: 3)
    var random = TestRandom(state: 99)
    var quads: [TexturedQuad] = []
    for _ in 0..<40 {
      let x = random.unit() * 50, y = random.unit() * 30
      quads.append(
        TexturedQuad(
          corners: Quad2D(
            topLeft: SIMD2(x, y), topRight: SIMD2(x + 20, y + random.unit() * 4),
            bottomRight: SIMD2(x + 18, y + 16), bottomLeft: SIMD2(x + random.unit() * 3, y + 14)),
          texture: 0, opacity: random.unit(), z: random.unit()))
    }
    func render(_ options: RasterOptions) -> RGBAImage {
      var image = RGBAImage(width: 64, height: 48, fill: SIMD4(0, 0, 0, 1))
      Renderer(options: options).render(quads, textures: [texture], into: &image)
      return image
    }
    let reference = render(.serial)
    for options in [RasterOptions(), RasterOptions(bandHeight: 1), RasterOptions(bandHeight: 5)] {
      #expect(render(options) == reference)
    }
    // The naive twin (every quad visits every pixel) agrees bit for bit.
    var naive = RGBAImage(width: 64, height: 48, fill: SIMD4(0, 0, 0, 1))
    let sorted = quads.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }.map(\.element)
    Rasterizer._drawQuadsNaive(sorted, textures: [texture], into: &naive)
    #expect(naive == reference)
  }
}
