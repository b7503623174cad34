import SleetGPU
import SleetKit

/// The stateless GPU path (issue 13, `docs/gpu.md`) against the CPU frame, on
/// `ParticleSystem.steadyStateEffect(liveParticles:)` at t = 10 s (N live,
/// ≈ N/600 births per 1/60 s frame).
///
/// Group `gpu-delta n=N` (items = the N live particles, so per-item ratios
/// are per-frame ratios):
/// - `cpu advance+render`: `advance(to: t + 1/60)` then `render(into:)`, one
///   thread, no affines (the instances a GPU would draw);
/// - `gpu host`: the host side of a GPU frame: the stream's
///   `advance(to: t + 1/60)` (births-only: the step's births from the birth
///   schedule, no live set on the CPU) and the upload of its births
///   (`glBufferSubData`, ≈ N/600 × 96 B);
/// - `gpu host (full-system stream)`: the same with the stream's
///   `.fullSystem` source, which steps a whole `ParticleSystem` (the host
///   path before the births-only source: it grows with the live set);
/// - `llvmpipe shader (software)`: the three shader passes over the ring and
///   the 4-byte count read back, on Mesa's llvmpipe (a CPU rasteriser: this
///   is software time on the same cores, not a GPU's). Present only when the
///   ring fits the driver's shader storage limit.
///
/// Byte model: the 96 B slot uploaded per birth (N/600 a frame) over N items.
extension BenchmarkRunner {
  static var particlesGPU: BenchmarkSuite {
    BenchmarkSuite(name: "particles") { scale in
      let frameTime = 1.0 / 60
      return scale.sizes([10_000, 100_000, 1_000_000, 4_000_000]).map { n in
        BenchmarkGroup(
          name: "gpu-delta n=\(n)", items: n,
          byteModel: ByteModel(bytesPerItem: 0.16, "96 B slot uploaded per birth, N/600 births a frame"),
          baseline: "cpu advance+render", reference: nil,
          timeRatios: [
            (numerator: "gpu host", denominator: "cpu advance+render"),
            (numerator: "gpu host (full-system stream)", denominator: "cpu advance+render"),
          ], itemName: nil
        ) {
          let effect = ParticleSystem.steadyStateEffect(liveParticles: n)
          let cpu = try benchmarkSystem(effect, .init(threads: 1), suite: "particles")
          cpu.seek(to: 10)
          try expectLive(cpu, n)
          let stream = try BirthDeltaStream(
            system: try benchmarkSystem(effect, .init(threads: 1), suite: "particles"), capacity: n + n / 8 + 256)
          let gpu = try GPUParticleRenderer(stream: stream)
          try gpu.upload(try stream.seek(to: 10))
          let fullStream = try BirthDeltaStream(
            system: try benchmarkSystem(effect, .init(threads: 1), suite: "particles"), capacity: n + n / 8 + 256,
            source: .fullSystem)
          let fullGPU = try GPUParticleRenderer(stream: fullStream, context: gpu.context)
          try fullGPU.upload(try fullStream.seek(to: 10))
          let state = GPUBenchmarkState()
          var cpuTime = 10.0
          var gpuTime = 10.0
          var fullTime = 10.0
          var cases = [
            BenchmarkCase("cpu advance+render") {
              cpuTime += frameTime
              cpu.advance(to: cpuTime)
              cpu.render(into: &state.frame, threads: 1, computesAffines: false)
              blackHole(state.frame.instances.count)
            },
            BenchmarkCase("gpu host") {
              gpuTime += frameTime
              do {
                try gpu.upload(try stream.advance(to: gpuTime))
              } catch {
                fatalError("particles/gpu-delta: \(error)")
              }
            },
            BenchmarkCase("gpu host (full-system stream)") {
              fullTime += frameTime
              do {
                try fullGPU.upload(try fullStream.advance(to: fullTime))
              } catch {
                fatalError("particles/gpu-delta: \(error)")
              }
            },
          ]
          if stream.capacity * 96 <= gpu.maximumBufferBytes {
            cases.append(
              BenchmarkCase("llvmpipe shader (software)") {
                do {
                  blackHole(try gpu.dispatch(stream.frameParameters()))
                } catch {
                  fatalError("particles/gpu-delta: \(error)")
                }
              })
          }
          return cases
        }
      }
    }
  }
}

private final class GPUBenchmarkState {
  var frame = ParticleFrame()
}
