import SleetGPU
import SleetKit
import Synchronization

/// Where one worker of `sleet render` gets its particle frames: the CPU
/// simulation's `render(into:)`, or with `--gpu` the birth-delta stream and
/// the closed-form compute shader (docs/gpu.md), which give the same frames
/// within the bound docs/gpu.md derives.
final class ParticleFrameSource {
  private let system: ParticleSystem?
  private let gpu: GPUParticleRenderer?

  /// The frames the GPU shader has evaluated in this process: a test hook
  /// (`RenderGPUTests` checks that `--gpu` ran the shader, one frame per
  /// image, and that a run without it ran none).
  static let gpuFramesRendered = Atomic<Int>(0)

  /// - Throws: `.usage` when the effect is over budget or has too many
  ///   cells, or has emitter behaviors with `--gpu` (bad input); `.failure` when `--gpu` finds no OpenGL ES 3.1
  ///   (exit 1: the machine, not the input).
  init(effect: Effect, usesGPU: Bool) throws(CommandError) {
    let system: ParticleSystem
    do throws(ParticleSystemError) {
      system = try ParticleSystem(effect: effect)
    } catch {
      throw .usage(error.description)
    }
    guard usesGPU else {
      self.system = system
      gpu = nil
      return
    }
    // Behaviors are the input's, not the machine's: a usage error.
    let behaviorCells = system.behaviorCellPaths
    guard behaviorCells.isEmpty else {
      throw .usage("--gpu: \(GPUError.behaviorsNotSupported(cells: behaviorCells).description)")
    }
    do {
      let stream = try BirthDeltaStream(system: system)
      gpu = try GPUParticleRenderer(stream: stream)
      self.system = nil
    } catch let error as GPUError {
      throw .failure("--gpu: \(error.description)")
    } catch {
      throw .failure("--gpu: \(error)")
    }
  }

  /// Moves to `time` and fills `frame`.
  func frame(at time: Double, into frame: inout ParticleFrame) throws(CommandError) {
    if let system {
      system.advance(to: time)
      system.render(into: &frame)
      return
    }
    guard let gpu else { return }
    do {
      try gpu.upload(try gpu.stream.advance(to: time))
      try gpu.render(into: &frame)
      Self.gpuFramesRendered.add(1, ordering: .relaxed)
    } catch let error as GPUError {
      throw .failure("--gpu: \(error.description)")
    } catch {
      throw .failure("--gpu: \(error)")
    }
  }
}
