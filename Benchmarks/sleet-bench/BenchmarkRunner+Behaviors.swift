import SleetKit
import SleetParticles

/// Emitter behaviors (docs/benchmarks.md, "Behaviors").
///
/// Groups `frame n=N`: the particles suite's one-cell steady effect (N live
/// particles at t = 10 s), each case a whole frame on a system of its own:
/// `advance(to: t + 1/60)` then `render(into:)` with affines, 1 thread, as
/// the particles suite's `advance+render`. `without behaviors`: the effect
/// as it is; `with behaviors`: the same cell with drag, a wave, a
/// colorOverLife and a valueOverLife of the scale (closed-form motion, the
/// lane-by-lane path after the kernel). The ratio line is the cost of the
/// behaviors per frame.
///
/// Groups `integrated attractor n=N`: the same effect with a 1 s lifetime
/// (so a frame integrates about 120 steps per particle, not 1,200) and a
/// radial attractor with a radius and a falloff, which has no closed form:
/// each particle is integrated from its birth on the fixed 1/240 s grid.
/// `render`: `render(into:)` at the setup's time, 1 thread, with affines.
/// Items: the RK4 steps the frame integrates
/// (`ParticleSystem.integratedStepCount`), so ns per item is ns per
/// particle per step (the integrator's cache off: from birth, as a seek).
/// `advance+render, cached`: a playing frame (1/60 s later each call), each
/// particle resuming from its cached grid point; items: the live particles.
///
/// Group `celebration busiest`: an iMessage-style confetti burst (five
/// cells at 90 births/s each for 1 s, 7.5 s lives; two waves, drag, and a
/// radial attractor with a radius and falloff whose stiffness
/// goes 80 → 5 over 1.2 s, easeOut), at the time of the most integration
/// steps (every particle alive and oldest), T. `seek+render t=T`:
/// `seek(to:)` to T and T + 1/60 in turn, then `render(into:)`, 1 thread:
/// a scrubbed timeline's frame, the integrator's cache off (every seek
/// integrates from birth). Items: one call.
extension BenchmarkRunner {
  static var behaviors: BenchmarkSuite {
    BenchmarkSuite(name: "behaviors") { scale in
      let frameTime = 1.0 / 60
      var groups: [BenchmarkGroup] = []
      for n in scale.sizes([10_000, 100_000]) {
        groups.append(
          BenchmarkGroup(
            name: "frame n=\(n)", items: n,
            byteModel: ByteModel(bytesPerItem: 152, "64 B slab row read + 64 B instance + 24 B affine written"),
            baseline: "without behaviors", reference: nil,
            timeRatios: [("with behaviors", "without behaviors")]
          ) {
            let plain = ParticleSystem.steadyStateEffect(liveParticles: n)
            var emitter = plain.emitter
            emitter.emitterCells[0].emitterBehaviors = closedFormBehaviors
            let withBehaviors = try Effect(emitter: emitter)
            var systems: [ParticleSystem] = []
            for effect in [plain, withBehaviors] {
              let s = try benchmarkSystem(effect, .init(threads: 1, computesAffines: true), suite: "behaviors")
              s.seek(to: 10)
              try expectLive(s, n)
              systems.append(s)
            }
            let frames = BehaviorFrames()
            var times = [10.0, 10.0]
            return zip(["without behaviors", "with behaviors"], systems.indices).map { name, k in
              BenchmarkCase(name) {
                times[k] += frameTime
                systems[k].advance(to: times[k])
                systems[k].render(into: &frames.frames[k])
                blackHole(frames.frames[k].instances.count)
              }
            }
          })
      }
      for n in scale.sizes([10_000, 100_000]) {
        groups.append(
          BenchmarkGroup(
            name: "integrated attractor n=\(n)", items: n,
            byteModel: ByteModel(bytesPerItem: 0, "compute-bound: the state stays in registers"),
            baseline: nil, reference: nil
          ) {
            var emitter = ParticleSystem.steadyStateEffect(liveParticles: n, lifetime: 1).emitter
            emitter.emitterCells[0].emitterBehaviors = [
              .attractor(
                AttractorBehavior(
                  stiffness: 20, radius: 40, position: SIMD2(150, 150), falloff: -4, falloffDistance: 30)),
              .drag(DragBehavior(drag: 1)),
            ]
            let effect = try Effect(emitter: emitter)
            let system = try benchmarkSystem(effect, .init(threads: 1, computesAffines: true), suite: "behaviors")
            // Every render integrates from birth, as a seek to a new time
            // does: the cost per step.
            system.paths.integratorCache = false
            system.seek(to: 10)
            try expectLive(system, n)
            let steps = system.integratedStepCount
            guard steps > 0 else { throw BenchmarkSetupError("the attractor effect integrates nothing") }
            // Playing: each frame resumes from the particles' cached grid
            // points (about 4 steps each at 60 Hz).
            let playing = try benchmarkSystem(effect, .init(threads: 1, computesAffines: true), suite: "behaviors")
            playing.seek(to: 10)
            var time = 10.0
            let frames = BehaviorFrames()
            return [
              BenchmarkCase(
                "render from birth", items: steps,
                byteModel: ByteModel(bytesPerItem: 0, "per RK4 step of one particle: compute-bound")
              ) {
                system.render(into: &frames.frames[0], threads: 1, computesAffines: true)
                blackHole(frames.frames[0].instances.count)
              },
              BenchmarkCase("advance+render, cached") {
                time += frameTime
                playing.advance(to: time)
                playing.render(into: &frames.frames[1], threads: 1, computesAffines: true)
                blackHole(frames.frames[1].instances.count)
              },
            ]
          })
      }
      groups.append(
        BenchmarkGroup(
          name: "celebration busiest", items: 1,
          byteModel: ByteModel(bytesPerItem: 0, "compute-bound: per call"), baseline: nil, reference: nil
        ) {
          let celebration = celebrationEffect
          let busiest = busiestTime(of: celebration)
          let system = try benchmarkSystem(celebration, .init(threads: 1), suite: "behaviors")
          // A scrub to a new time: no cached grid points.
          system.paths.integratorCache = false
          let frames = BehaviorFrames()
          var time = busiest
          return [
            BenchmarkCase("seek+render t=\(format(busiest))") {
              time = time == busiest ? busiest + frameTime : busiest
              system.seek(to: time)
              system.render(into: &frames.frames[0], threads: 1, computesAffines: false)
              blackHole(frames.frames[0].instances.count)
            }
          ]
        })
      return groups
    }
  }

  /// Drag, a wave, a colorOverLife and a valueOverLife of the scale: forces
  /// the closed form covers, and two life curves.
  static var closedFormBehaviors: [EmitterBehavior] {
    [
      .drag(DragBehavior(drag: 2)),
      .wave(WaveBehavior(force: SIMD3(100, 0, 0), frequency: 0.5)),
      .colorOverLife(
        ColorOverLifeBehavior(
          colors: [ColorRGBA(red: 1, green: 1, blue: 1, alpha: 0), .white, ColorRGBA(red: 1, green: 0.5, blue: 0.2)],
          locations: [0, 0.1, 1])),
      .valueOverLife(ValueOverLifeBehavior(keyPath: .scale, values: [0.2, 1, 0.5], locations: [0, 0.3, 1])),
    ]
  }

  /// The built-in `celebration` preset when the package has it, else an
  /// effect of the same description (the group's doc comment), embedded.
  static var celebrationEffect: Effect {
    if Effect.presetNames.contains("celebration"), let preset = try? Effect.preset(named: "celebration") {
      return preset
    }
    let cells = [
      ("red", "[0.95, 0.4, 0.27, 1]"), ("orange", "[1, 0.78, 0.36, 1]"), ("green", "[0.48, 0.78, 0.64, 1]"),
      ("blue", "[0.3, 0.76, 0.85, 1]"), ("purple", "[0.58, 0.39, 0.55, 1]"),
    ].map { name, color in
      """
      {"name": "\(name)", "birthRate": 90, "lifetime": 7.5, "velocity": 350, "velocityRange": 80,
       "emissionLongitude": -1.5707964, "emissionRange": 0.7853982, "scaleRange": 0.5, "spin": 1.75,
       "spinRange": 2, "color": \(color), "contents": "confetti"}
      """
    }
    let json = """
      {"format": 1, "emitterPosition": [195, 844], "emitterSize": [390, 1], "emitterShape": "line",
       "emitterBehaviors": [
         {"type": "wave", "name": "sway", "force": [100, 0, 0], "frequency": 0.5},
         {"type": "wave", "name": "flutter", "force": [0, 500, 0], "frequency": 3},
         {"type": "drag", "name": "air", "drag": 2},
         {"type": "attractor", "name": "pull", "attractorType": "radial", "stiffness": 80, "radius": 200,
          "falloff": -5, "falloffDistance": 8, "position": [195, -20]}
       ],
       "emitterCells": [\(cells.joined(separator: ",\n"))],
       "changes": [
         {"time": 0, "keyPath": "emitterBehaviors.pull.stiffness", "value": 5, "duration": 1.2,
          "timingFunction": "easeOut"},
         {"time": 1, "keyPath": "birthRate", "value": 0}
       ]}
      """
    // Safe: a fixed, valid effect (a typo fails every run at once).
    return try! Effect(json: json)
  }

  /// The time, on a 0.05 s grid over the effect's first 10 s, at which a
  /// frame integrates the most RK4 steps.
  static func busiestTime(of effect: Effect) -> Double {
    guard let system = try? benchmarkSystem(effect, .init(threads: 1), suite: "behaviors") else { return 0 }
    var best = (time: 0.0, steps: -1)
    for k in 0...200 {
      let t = Double(k) * 0.05
      system.seek(to: t)
      let steps = system.integratedStepCount
      if steps > best.steps { best = (t, steps) }
    }
    return best.time
  }
}

/// Frames reused across calls (steady-state frames allocate nothing).
private final class BehaviorFrames {
  var frames = [ParticleFrame(), ParticleFrame()]
}
