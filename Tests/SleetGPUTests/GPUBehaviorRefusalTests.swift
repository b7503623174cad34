import SleetGPU
import SleetParticles
import Testing

/// The shader evaluates the closed form of cells without behaviors; an
/// effect with emitter behaviors is refused before any GL work, naming the
/// cells they act on (docs/gpu.md).
@Suite("GPU refuses emitter behaviors")
struct GPUBehaviorRefusalTests {
  @Test func behaviorPresetsAreRefusedByName() throws {
    let leaves = try Effect.preset(named: "leaves")
    #expect(leaves.emitter.hasBehaviors)
    let stream = try BirthDeltaStream(system: try ParticleSystem(effect: leaves))
    #expect(throws: GPUError.behaviorsNotSupported(cells: ["amber", "crimson", "ochre"])) {
      _ = try GPUParticleRenderer(stream: stream)
    }
    #expect(
      GPUError.behaviorsNotSupported(cells: ["amber"]).description
        == "emitter behaviors act on 'amber'; the GPU path does not evaluate behaviors: render on the CPU (without --gpu)"
    )
  }

  @Test func aDisabledBehaviorStillCounts() throws {
    var cell = EmitterCell(name: "c")
    cell.birthRate = 1
    cell.lifetime = 1
    cell.emitterBehaviors = [.drag(DragBehavior(isEnabled: false, drag: 1))]
    let effect = try Effect(emitter: Emitter(emitterCells: [cell]))
    // Disabled for good, it acts on nothing: the GPU may draw it.
    #expect(effect.emitter.hasBehaviors)
    #expect(try ParticleSystem(effect: effect).behaviorCellPaths.isEmpty)
  }
}
