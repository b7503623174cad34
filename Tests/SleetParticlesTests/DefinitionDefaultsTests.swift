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

  /// The sampling filters: Core Animation's names, `linear`/`linear`/0 by
  /// default, typed as `SpriteSampling`; a frame without a table means linear.
  @Test func samplingFiltersByTheirCoreAnimationNames() throws {
    var c = EmitterCell()
    #expect(c.magnificationFilter == "linear" && c.minificationFilter == "linear" && c.minificationFilterBias == 0)
    #expect(c.sampling == .linear && SpriteSampling() == .linear)
    #expect(EmitterCell.filterNames == ["linear", "nearest", "trilinear"])
    c.sampling = SpriteSampling(
      magnificationFilter: .nearest, minificationFilter: .trilinear, minificationFilterBias: -1)
    #expect(c.magnificationFilter == "nearest" && c.minificationFilter == "trilinear" && c.minificationFilterBias == -1)
    c.minificationFilter = "nearest"
    #expect(c.sampling.minificationFilter == .nearest)
    #expect(ParticleFrame().spriteSampling.isEmpty)
    // Unknown names are rejected naming the field, in files and in code.
    #expect(
      formatError(#"{"format": 1, "emitterCells": [{"minificationFilter": "cubic"}]}"#)
        == "emitterCells[0].minificationFilter: expected one of linear, nearest, trilinear, got 'cubic'")
    c.magnificationFilter = "Nearest"
    #expect(throws: KeyPathError.self) { try Emitter(emitterCells: [c]).validate() }
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
