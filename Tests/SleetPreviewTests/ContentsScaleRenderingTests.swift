import SleetMath
import SleetParticles
import Testing

@testable import SleetPreview

/// `CAEmitterCell.contentsScale` end to end: simulation → frame → renderer.
@Suite("Cell contentsScale")
struct ContentsScaleRenderingTests {
  /// One particle at rest at (16, 16), drawn with the 8 × 8-pixel "square"
  /// sprite by a cell of the given contentsScale; returns the opaque pixels
  /// of its row through the centre and in all.
  func drawnPixels(contentsScale: Float) throws -> (row: Int, total: Int) {
    var cell = EmitterCell(name: "dot")
    cell.birthRate = 1
    cell.lifetime = 100
    cell.contents = SpriteReference("square")
    cell.contentsScale = contentsScale
    var emitter = Emitter(emitterCells: [cell])
    emitter.emitterPosition = SIMD2(16, 16)
    let system = try ParticleSystem(effect: try Effect(emitter: emitter))
    system.seek(to: 1.5)
    var frame = ParticleFrame()
    system.render(into: &frame)
    #expect(frame.instances.count == 1)
    #expect(frame.spriteContentsScales == [contentsScale])
    var image = RGBAImage(width: 32, height: 32)
    try Renderer().render(frame, into: &image, sprites: testLibrary())
    var row = 0
    var total = 0
    for y in 0..<32 {
      for x in 0..<32 where image[x, y].w > 0.5 {
        total += 1
        if y == 16 { row += 1 }
      }
    }
    return (row, total)
  }

  @Test func contentsScaleTwoDrawsAtHalfThePixelSize() throws {
    let one = try drawnPixels(contentsScale: 1)
    let two = try drawnPixels(contentsScale: 2)
    #expect(one.row == 8 && one.total == 64)
    #expect(two.row == 4 && two.total == 16)
  }

  @Test func cellsSharingAnImageAtDifferentScalesGetDifferentEntries() throws {
    var a = EmitterCell(name: "a")
    a.contents = SpriteReference("square")
    var b = a
    b.name = "b"
    b.contentsScale = 3
    var c = a
    c.name = "c"
    let system = try ParticleSystem(effect: try Effect(emitter: Emitter(emitterCells: [a, b, c])))
    var frame = ParticleFrame()
    system.render(into: &frame)
    #expect(frame.sprites == [SpriteReference("square"), SpriteReference("square")])
    #expect(frame.spriteContentsScales == [1, 3])
  }
}
