import Testing

@testable import SleetParticles

@Suite("Definitions carry Apple's defaults")
struct DefinitionDefaultsTests {
  @Test func cellDefaults() {
    let c = EmitterCell()
    #expect(c.isEnabled && c.birthRate == 0 && c.lifetime == 0 && c.velocity == 0)
    #expect(c.scale == 1 && c.scaleRange == 0 && c.spin == 0)
    #expect(c.color == .white && c.contentsRect == SIMD4(0, 0, 1, 1))
    #expect(c.speed == 1 && c.duration == 0 && c.emitterCells.isEmpty)
  }

  @Test func emitterDefaults() {
    let e = Emitter()
    #expect(e.birthRate == 1 && e.lifetime == 1 && e.velocity == 1 && e.scale == 1 && e.spin == 1)
    #expect(e.emitterShape == .point && e.emitterMode == .volume && e.renderMode == .unordered)
    #expect(!e.preservesDepth && e.seed == 0)
  }

  @Test func instanceLayoutIsSixtyFourBytes() {
    #expect(MemoryLayout<ParticleInstance>.size == 64)
    #expect(MemoryLayout<ParticleInstance>.stride == 64)
    #expect(MemoryLayout<ParticleInstance>.offset(of: \.color) == 16)
    #expect(MemoryLayout<ParticleInstance>.offset(of: \.contentsRect) == 32)
    #expect(MemoryLayout<ParticleInstance>.offset(of: \.rotation) == 48)
    #expect(MemoryLayout<ParticleInstance>.offset(of: \.sprite) == 56)
  }
}
