import Testing

@testable import SleetParticles

/// Every built-in preset runs through the simulation: stepping equals seeking,
/// the live count stays under the computed peak, frames are complete.
@Suite("Presets in the simulation")
struct PresetSimulationTests {
  @Test(arguments: Effect.presetNames)
  func presetStepsEqualSeeksAndStayUnderThePeak(name: String) throws {
    let effect = try Effect.preset(named: name)
    let stepper = try ParticleSystem(effect: effect, configuration: .init(threads: 2, chunkSize: 256))
    let seeker = try ParticleSystem(effect: effect)
    var frame = ParticleFrame()
    var maximum = 0
    for n in 0...150 {
      let t = Double(n) / 30
      stepper.advance(to: t)
      maximum = max(maximum, stepper.liveCount)
      if n % 50 == 0 {
        seeker.seek(to: t)
        #expect(bits(stepper.particles()) == bits(seeker.particles()), "\(name) at t = \(t)")
      }
    }
    #expect(maximum > 0, "\(name) never emits")
    #expect(maximum <= stepper.peakLiveParticles, "\(name): \(maximum) live over the computed peak")
    stepper.render(into: &frame)
    #expect(frame.instances.count == stepper.liveCount - hiddenCount(stepper))
    #expect(frame.instances.allSatisfy { $0.normalizedAge >= 0 && $0.normalizedAge < 1 && $0.scale >= 0 })
  }

  private func hiddenCount(_ system: ParticleSystem) -> Int {
    let disabled = Set(
      system.tree.nodes.filter { !$0.parameters[system.tree.segment(at: system.localTime!)].isEnabled }.map(\.path))
    return system.particles().filter { disabled.contains($0.cellPath) }.count
  }
}
