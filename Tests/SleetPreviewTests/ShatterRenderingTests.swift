import SleetMath
import SleetShatter
import Testing

@testable import SleetPreview

@Suite("Rendering shatter frames")
struct ShatterRenderingTests {
  // A 40 × 30 pt container at 1 px/pt: 10 × 8 checkerboard tiles of 4 pt,
  // the last row overhanging by 2 pt.
  let width = 40, height = 30
  var from: RGBAImage { DemoPicture.first.image(width: width, height: height) }
  var to: RGBAImage { DemoPicture.second.image(width: width, height: height) }

  func render(_ transition: ShatterTransition, at time: Double, options: RasterOptions = RasterOptions()) -> RGBAImage {
    var image = RGBAImage(width: width, height: height)
    Renderer(pixelsPerPoint: 1, options: options).render(
      transition.frame(at: time), from: from, to: to, into: &image)
    return image
  }

  func checkerboard(_ direction: ShatterDirection = .push) -> ShatterTransition {
    ShatterTransition(style: .checkerboard, width: Double(width), height: Double(height), direction: direction)
  }

  @Test(arguments: ShatterDirection.allCases)
  func checkerboardStartsAsTheFromPictureAndEndsAsTheToPicture(direction: ShatterDirection) {
    let transition = checkerboard(direction)
    #expect(render(transition, at: 0).straightRGBA8() == from.straightRGBA8())
    #expect(render(transition, at: transition.endTime + 0.1).straightRGBA8() == to.straightRGBA8())
  }

  @Test func midTransitionShowsBothPicturesAndBlackGaps() {
    let transition = checkerboard()
    let bytes = render(transition, at: transition.endTime / 2).straightRGBA8()
    let a = from.straightRGBA8(), b = to.straightRGBA8()
    var fromPixels = 0, toPixels = 0, black = 0
    for i in 0..<(width * height) {
      let p = bytes[4 * i..<4 * i + 4]
      if p.elementsEqual(a[4 * i..<4 * i + 4]) { fromPixels += 1 }
      if p.elementsEqual(b[4 * i..<4 * i + 4]) { toPixels += 1 }
      if p.elementsEqual([0, 0, 0, 255]) { black += 1 }
    }
    // The demo pictures contain no pure black, so black pixels are the
    // container showing between cards that are turned edge-on.
    #expect(fromPixels > 0)
    #expect(toPixels > 0)
    #expect(black > 0)
  }

  @Test func unitQuadsCarryEveryPieceStream() {
    let frame = checkerboard().frame(at: 1)
    let quads = Renderer.quads(for: frame)
    #expect(quads.count == frame.count)
    for i in [0, 7, frame.count - 1] {
      let p = frame.piece(i)
      #expect(quads[i].corners.topLeft == p.corners.0 || (quads[i].corners.topLeft.x.isNaN && p.corners.0.x.isNaN))
      #expect(
        quads[i].corners.bottomLeft == p.corners.3 || (quads[i].corners.bottomLeft.x.isNaN && p.corners.3.x.isNaN))
      #expect(quads[i].textureCorners.bottomRight == p.textureCorners.2)
      #expect(quads[i].texture == Int(p.face.rawValue))
      #expect(quads[i].opacity == p.opacity && quads[i].z == p.depth)
    }
  }

  @Test(arguments: [ShatterStyle.explode, .glassBreak])
  func randomStylesAreDeterministicPerSeed(style: ShatterStyle) {
    func transition(seed: UInt64) -> ShatterTransition {
      ShatterTransition(style: style, width: Double(width), height: Double(height), divisor: 5, seed: seed)
    }
    let t = transition(seed: 7)
    let time = t.endTime / 3
    let first = render(t, at: time).straightRGBA8()
    #expect(render(transition(seed: 7), at: time).straightRGBA8() == first)
    #expect(render(transition(seed: 7), at: time, options: .serial).straightRGBA8() == first)
    #expect(render(transition(seed: 8), at: time).straightRGBA8() != first)
  }

  @Test(arguments: [ShatterStyle.explode, .glassBreak])
  func randomStylesUncoverTheToPicture(style: ShatterStyle) {
    let t = ShatterTransition(style: style, width: Double(width), height: Double(height), divisor: 5, seed: 3)
    // The backdrop is the to-snapshot: once every piece has faded or left,
    // the frame is the to picture exactly.
    #expect(render(t, at: t.endTime + 1).straightRGBA8() == to.straightRGBA8())
    #expect(render(t, at: 0).straightRGBA8() == from.straightRGBA8())
  }

  @Test func snapshotsAtTwicePixelDensityAreReproducedAtTheEnds() {
    // A 40 × 30 pt container drawn at 2 px/pt with 80 × 60 px snapshots:
    // texture corners are normalised, so each pixel maps back onto its texel.
    let transition = checkerboard()
    let from2 = DemoPicture.first.image(width: 80, height: 60)
    let to2 = DemoPicture.second.image(width: 80, height: 60)
    var image = RGBAImage(width: 80, height: 60)
    let renderer = Renderer(pixelsPerPoint: 2)
    renderer.render(transition.frame(at: 0), from: from2, to: to2, into: &image)
    let startsAsFrom = image.straightRGBA8() == from2.straightRGBA8()
    #expect(startsAsFrom)
    renderer.render(transition.frame(at: transition.endTime), from: from2, to: to2, into: &image)
    let endsAsTo = image.straightRGBA8() == to2.straightRGBA8()
    #expect(endsAsTo)
  }
}
