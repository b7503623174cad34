import Testing

@testable import SleetParticles

/// The 32-byte compact layout holds exactly the full instance's fields,
/// converted by `CompactParticleInstance.init(_:)`, in the same order, for
/// every preset, thread count and render order.
@Suite("Compact instances")
struct CompactInstanceTests {
  @Test func layoutIsThirtyTwoBytes() {
    #expect(MemoryLayout<CompactParticleInstance>.size == 32)
    #expect(MemoryLayout<CompactParticleInstance>.stride == 32)
    #expect(MemoryLayout<CompactParticleInstance>.offset(of: \.color) == 24)
    #expect(MemoryLayout<CompactParticleInstance>.offset(of: \.sprite) == 28)
    #expect(MemoryLayout<CompactParticleInstance>.offset(of: \.cell) == 30)
  }

  @Test func colourRoundsToNearestEvenAndNoSpriteIsAllOnes() {
    let instance = ParticleInstance(
      x: 1, y: 2, z: 3, scale: 4, color: SIMD4(0, 1, 0.5, 0.25), contentsRect: SIMD4(0, 0, 1, 1), rotation: 5,
      normalizedAge: 0.5, sprite: ParticleInstance.noSprite, cell: 7)
    let compact = CompactParticleInstance(instance)
    // 255·0.5 = 127.5 → 128 (ties to even); 255·0.25 = 63.75 → 64.
    #expect(compact.color == SIMD4(0, 255, 128, 64))
    #expect(compact.sprite == 0xFFFF && compact.cell == 7)
    #expect(compact.x == 1 && compact.scale == 4 && compact.rotation == 5 && compact.normalizedAge == 0.5)
  }

  @Test(arguments: Effect.presetNames)
  func compactFramesAreTheFullFramesConverted(_ name: String) throws {
    var effect = try Effect.preset(named: name)
    for mode in [RenderMode.unordered, .oldestLast, .backToFront] {
      var emitter = effect.emitter
      emitter.renderMode = mode
      effect = try Effect(emitter: emitter)
      let full = try ParticleSystem(effect: effect)
      full.seek(to: 2.5)
      var fullFrame = ParticleFrame()
      full.render(into: &fullFrame)
      for threads in [1, 3] {
        let compact = try ParticleSystem(
          effect: effect, configuration: .init(threads: threads, chunkSize: 48, instanceLayout: .compact))
        for n in 0...6 { compact.advance(to: 2.5 * Double(n) / 6) }
        var frame = ParticleFrame()
        compact.render(into: &frame)
        #expect(frame.instances.isEmpty)
        #expect(frame.compactInstances == fullFrame.instances.map(CompactParticleInstance.init), "\(name) \(mode)")
        #expect(frame.batches == fullFrame.batches)
      }
    }
  }
}
