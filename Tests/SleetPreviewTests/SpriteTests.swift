import Dispatch
import SleetMath
import SleetParticles
import Synchronization
import Testing
import _SleetTestSupport

@testable import SleetPreview

@Suite("Built-in sprites and the sprite library")
struct SpriteTests {
  @Test(arguments: BuiltInSprite.allCases)
  func builtInSpritesAreWhiteCoverageMasks(sprite: BuiltInSprite) {
    let image = sprite.image(width: 24, height: 24)
    var total: Float = 0
    for y in 0..<24 {
      for x in 0..<24 {
        let p = image[x, y]
        #expect(p.w >= 0 && p.w <= 1)
        #expect(p.x == p.w && p.y == p.w && p.z == p.w, "premultiplied white at (\(x), \(y))")
        total += p.w
      }
    }
    // Every sprite covers something and (except the confetti rectangle) leaves
    // its corners clear.
    #expect(total > 24)
    if sprite != .confetti {
      #expect(image[0, 0].w == 0 && image[23, 23].w == 0)
    }
  }

  @Test func shapesHaveTheirLandmarks() {
    let disc = BuiltInSprite.disc.image(width: 32, height: 32)
    #expect(disc[15, 15].w == 1 && disc[16, 16].w == 1)
    // Round (up to the summation order of the 4 × 4 samples).
    #expect(abs(disc[15, 4].w - disc[4, 15].w) < 1e-6 && abs(disc[15, 4].w - disc[27, 16].w) < 1e-6)
    #expect(disc[15, 4].w > 0 && disc[15, 4].w < 1)
    let heart = BuiltInSprite.heart.image(width: 32, height: 32)
    #expect(heart[8, 10].w == 1 && heart[23, 10].w == 1)  // the two lobes
    #expect(heart[15, 3].w < 1)  // the notch between them
    #expect(heart[15, 26].w == 1 && heart[3, 28].w == 0)  // the point at the bottom
    let star = BuiltInSprite.star.image(width: 32, height: 32)
    #expect(star[15, 3].w > 0.5 && star[16, 16].w == 1)  // top point and centre
    #expect(star[15, 29].w == 0)  // notch at the bottom between two points
    let snowflake = BuiltInSprite.snowflake.image(width: 48, height: 48)
    #expect(snowflake[23, 4].w > 0.5 && snowflake[24, 24].w == 1)  // an arm tip and the hub
    #expect(snowflake[34, 6].w == 0)  // between two arms
    let spark = BuiltInSprite.spark.image(width: 33, height: 33)
    #expect(spark[16, 16].w == 1 && spark[16, 3].w > spark[6, 6].w)  // ray beats diagonal
  }

  @Test func spritesKeepTheirPointSizeAtAnyDensity() {
    let one = BuiltInSprite.confetti.sprite()
    let two = BuiltInSprite.confetti.sprite(pixelsPerPoint: 2)
    #expect(one.pointSize == SIMD2(16, 8) && two.pointSize == SIMD2(16, 8))
    #expect(one.image.width == 16 && one.image.height == 8)
    #expect(two.image.width == 32 && two.image.height == 16)
  }

  @Test func libraryResolvesBuiltInsFilesAndCaches() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let png = randomOpaqueImage(width: 6, height: 4, seed: 1)
    try PNGFile.write(png, to: folder + "/dot.png")
    let library = SpriteLibrary(pixelsPerPoint: 2, baseDirectory: folder, fileContentsScale: 2)
    let star = try library.sprite(for: SpriteReference("star"))
    #expect(star.image == BuiltInSprite.star.sprite(pixelsPerPoint: 2).image)
    let file = try library.sprite(for: SpriteReference("dot.png"))
    #expect(file.pointSize == SIMD2(3, 2))
    #expect(file.image.straightRGBA8() == png.straightRGBA8())
    // Cached: the file is not read again.
    removeTree(folder)
    #expect(try library.sprite(for: SpriteReference("dot.png")).image == file.image)
    #expect(throws: SpriteError.file(.cannotRead(path: folder + "/gone.png", reason: "No such file or directory"))) {
      try library.sprite(for: SpriteReference("gone.png"))
    }
  }
}

@Suite("Contact sheets")
struct ContactSheetTests {
  @Test func labelsShowMilliseconds() {
    #expect(ContactSheet.label(time: 0) == "t=0.000s")
    #expect(ContactSheet.label(time: 1.0 / 30) == "t=0.033s")
    #expect(ContactSheet.label(time: 12.3456) == "t=12.346s")
    #expect(ContactSheet.label(time: -1.5) == "t=-1.500s")
    #expect(ContactSheet.label(time: -0.0001) == "t=0.000s")
    #expect(ContactSheet.label(time: 2).allSatisfy { BitmapFont.supportedCharacters.contains($0) })
  }

  @Test func reductionAveragesPremultipliedBoxes() {
    var image = RGBAImage(width: 3, height: 2)
    image[0, 0] = SIMD4(1, 0, 0, 1)
    image[1, 0] = SIMD4(0, 0, 0, 0)
    image[2, 0] = SIMD4(0, 1, 0, 1)
    image[2, 1] = SIMD4(0, 0.5, 0, 0.5)
    let reduced = ContactSheet.reduce(image, by: 2)
    #expect(reduced.width == 2 && reduced.height == 1)
    #expect(reduced[0, 0] == SIMD4(0.25, 0, 0, 0.25))
    #expect(reduced[1, 0] == SIMD4(0, 0.75, 0, 0.75))  // the partial box averages what exists
  }

  @Test func sheetPlacesThumbnailsAndLabelsOnAGrid() {
    let sheet = ContactSheet(
      columns: 2, maximumThumbnailWidth: 10, spacing: 3,
      background: .black, labelColor: .white)
    let red = RGBAImage(width: 20, height: 8, fill: SIMD4(1, 0, 0, 1))
    let blue = RGBAImage(width: 20, height: 8, fill: SIMD4(0, 0, 1, 1))
    let image = sheet.render([red, blue, red], times: [0, 0.5, 1])
    // Thumbnails are 10 × 4; cells are as wide as the longest label.
    let cellWidth = BitmapFont.width(of: ContactSheet.label(time: -999.999))
    let labelHeight = BitmapFont.glyphHeight + 4
    #expect(image.width == 2 * cellWidth + 3 * 3)
    #expect(image.height == 2 * (4 + labelHeight) + 3 * 3)
    #expect(image[3, 3] == SIMD4(1, 0, 0, 1) && image[12, 6] == SIMD4(1, 0, 0, 1))
    #expect(image[13, 3] == SIMD4(0, 0, 0, 1))
    #expect(image[3 + cellWidth + 3, 3] == SIMD4(0, 0, 1, 1))
    #expect(image[3, 3 + 4 + labelHeight + 3] == SIMD4(1, 0, 0, 1))
    // The first label ("t=0.000s") draws white pixels under the first thumbnail:
    // the "t" glyph's stem is at font column 1, rows 0…5.
    #expect(image[3 + 1, 3 + 4 + 2] == SIMD4(1, 1, 1, 1))
    #expect(image[3, 3 + 4 + 2] == SIMD4(0, 0, 0, 1))
  }
}

@Suite("Demo pictures")
struct DemoPictureTests {
  @Test func picturesAreOpaqueDistinctAndDeterministic() throws {
    let a = DemoPicture.first.image(width: 60, height: 40)
    let b = DemoPicture.second.image(width: 60, height: 40)
    #expect(a == DemoPicture.first.image(width: 60, height: 40))
    #expect(a != b)
    var differing = 0
    for y in 0..<40 {
      for x in 0..<60 {
        #expect(a[x, y].w == 1 && b[x, y].w == 1)
        if a[x, y] != b[x, y] { differing += 1 }
      }
    }
    // Different almost everywhere, so a transition between them is visible.
    #expect(differing > 60 * 40 * 9 / 10)
    // Exact 8-bit levels: a PNG round trip changes nothing.
    #expect(try PNGFile.decode(PNGFile.encode(a)) == a)
    // Tiny sizes work too.
    #expect(DemoPicture.second.image(width: 1, height: 1).pixelCount == 1)
  }
}

@Suite("Sprite library under concurrency")
struct SpriteLibraryConcurrencyTests {
  @Test func concurrentRequestsAgree() throws {
    let library = SpriteLibrary(pixelsPerPoint: 0.75)
    let names = BuiltInSprite.allCases.map(\.rawValue)
    let results = Mutex<[Int: RGBAImage]>([:])
    DispatchQueue.concurrentPerform(iterations: 24) { i in
      let image = try! library.sprite(for: SpriteReference(names[i % names.count])).image
      results.withLock { $0[i] = image }
    }
    let all = results.withLock { $0 }
    for i in 0..<24 {
      #expect(all[i] == BuiltInSprite.allCases[i % names.count].sprite(pixelsPerPoint: 0.75).image)
    }
  }
}
