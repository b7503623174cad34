import SleetKit

/// The particle system (issue 3) against the naive path, on
/// `ParticleSystem.steadyStateEffect(liveParticles:)`: one cell, every evolving
/// property in use, N live particles after one 10 s lifetime (the setup seeks
/// there; the naive simulator starts from the same live set).
///
/// Groups `frame n=N` (items = the N live particles at t = 10 s: rate N/10 and
/// birth times (k + 1)·10/N are exact, checked in the setup):
/// - `naive`: one explicit-Euler step of 1/60 s (`NaiveParticleSimulator`, a
///   class per particle; includes its births and deaths, ≈ N/600 each);
/// - `render`, `render-2t`: `render(into:)` at the fixed setup time with
///   affines, 1 and 2 threads (the same live set, so the ratio is the 2-thread
///   speed-up);
/// - `advance+render`: a whole frame, `advance(to: t + 1/60)` (births, deaths,
///   compaction) then `render(into:)`, 1 thread;
/// - `advance`: the step alone, on a system of its own (the frame's cost
///   outside the kernel: N/600 births and deaths and a step's fixed work,
///   which dominates a small effect's frame).
/// - `seek`: `seek(to:)` on a system of its own, to 10 s and 10 s + 1/60 in
///   turn, each a rebuild of the live set from the birth schedule (what a
///   scrubbed timeline or `sleet render --time` pays for a frame before it
///   renders it).
///
/// Byte model (bytes the kernel must move per drawn particle, STREAM
/// convention): the 64 B slab row it reads (birth time 8 B, lifetime 4 B,
/// constants row index 4 B, p0 and v0 24 B, s0 and spin 8 B, c0 16 B; the
/// shared per-cell constants stay in cache, ids are read only to sort), plus
/// the 64 B instance and the 24 B affine written = 152 B. `frame-no-affines`
/// drops the affine: 128 B.
///
/// Groups `preset confetti t=5` and `preset fireworks t=4`: `render(into:)`
/// of a multi-cell preset in full swing, 1 thread, no affines (items = its
/// live particles). Confetti keeps a store per cell (five small stores);
/// the fireworks' cells and sub-cells interleave in one store, so blocks
/// mix constants rows: the path the single-cell groups never take; the
/// same frame each time, so a frame whose id order needs a sort (the
/// fireworks' sub-cells) finds every particle of the previous one.
/// `advance+render`: a system of its own stepped by 1/60 s from the
/// group's time each call, then rendered: the frame a running effect pays,
/// with its births and deaths (items: the live count at the group's time).
/// `advance`: the step alone, on a system of its own, per call (a step's
/// work follows its births and, for sub-cells, its parents).
/// `seek`:
/// `seek(to:)` on a system of its own, to the group's time and 1/60 s later
/// in turn: several cells (and the fireworks' sub-cells) collect, sort and
/// append their live records, the path the one-cell effect's seek skips.
///
/// Groups `two-cells n=N`: `render(into:)`, 1 thread, no affines, of the
/// one-cell effect (`one cell`) and of two such cells at half the rate each
/// (`two cells`), N live particles both: each cell in a store of its own
/// (ParticleSystem+CellStores.swift). `two cells, one store`: the same
/// effect in the single store, where the two cells' births alternate, so
/// every block mixes two constants rows and the frame is written by cell
/// (the path of effects that cap or change to a birth-order render mode).
/// `two cells, oldestFirst`: the two cells drawn in birth order, also one
/// store, whose frame is written in store order (each block's lanes of two
/// constants rows).
/// `… step`: a system of its own advanced by 1/60 s a call, then rendered
/// (births, deaths and the frame of a running effect); `… seek`: `seek(to:)`
/// to 10 s and 10 s + 1/60 in turn.
///
/// Groups `back-to-front n=N`: the one-cell effect with a z acceleration
/// and depth kept, once drawn in birth order (`oldestFirst`, the baseline)
/// and once back to front (`backToFront`), each stepped by 1/60 s a call
/// and rendered, 1 thread, no affines: what the sort by tracked z (then id)
/// and the gather of the rows after it cost a 3D effect's frame. Then two
/// such cells at half the rate each, drawn back to front: in a store per
/// cell, and in one store (`… one store`).
///
/// Group `births n=B` (items = births): from an empty store, one
/// `advance(to:)` over an interval holding exactly B births (rate 2²⁰/s,
/// lifetime 100 s, so none dies): schedule, sampling (Philox, cone, shape),
/// ordering and appending to the slab. `naive`: `NaiveParticleSimulator`
/// stepping over the same interval (the same births as objects). Byte model:
/// the 64 B slab row and 8 B id written per birth.
extension BenchmarkRunner {
  static var particles: BenchmarkSuite {
    BenchmarkSuite(name: "particles") { scale in
      let frameTime = 1.0 / 60
      let sizes = scale.sizes([1_000, 10_000, 100_000, 1_000_000, 4_000_000])
      var groups: [BenchmarkGroup] = []
      for n in sizes {
        let effect = ParticleSystem.steadyStateEffect(liveParticles: n)
        groups.append(
          BenchmarkGroup(
            name: "frame n=\(n)", items: n,
            byteModel: ByteModel(bytesPerItem: 152, "64 B slab row read + 64 B instance + 24 B affine written"),
            baseline: "naive", reference: nil
          ) {
            let fixed = try benchmarkSystem(effect, .init(threads: 1), suite: "particles")
            fixed.seek(to: 10)
            try expectLive(fixed, n)
            let stepping = try benchmarkSystem(effect, .init(threads: 1, computesAffines: true), suite: "particles")
            stepping.seek(to: 10)
            let stepOnly = try benchmarkSystem(effect, .init(threads: 1), suite: "particles")
            stepOnly.seek(to: 10)
            let seeking = try benchmarkSystem(effect, .init(threads: 1), suite: "particles")
            let naive = NaiveParticleSimulator(startingFrom: fixed)
            let state = FrameState()
            var t = 10.0
            var stepTime = 10.0
            return [
              BenchmarkCase("naive") {
                naive.step(frameTime)
                blackHole(naive.particles.count)
              },
              BenchmarkCase("render") {
                fixed.render(into: &state.frame, threads: 1, computesAffines: true)
                blackHole(state.frame.instances.count)
              },
              BenchmarkCase("render-2t") {
                fixed.render(into: &state.frame, threads: 2, computesAffines: true)
                blackHole(state.frame.instances.count)
              },
              BenchmarkCase("advance+render") {
                t += frameTime
                stepping.advance(to: t)
                stepping.render(into: &state.stepped)
                blackHole(state.stepped.instances.count)
              },
              BenchmarkCase(
                "advance",
                byteModel: ByteModel(bytesPerItem: 0.12, "N/600 births a frame, 64 B slab row + 8 B id each")
              ) {
                stepTime += frameTime
                stepOnly.advance(to: stepTime)
                blackHole(stepOnly.localTime)
              },
              seekCase(seeking, at: 10, then: 10 + frameTime),
            ]
          })
        groups.append(
          BenchmarkGroup(
            name: "frame-no-affines n=\(n)", items: n,
            byteModel: ByteModel(bytesPerItem: 128, "64 B slab row read + 64 B instance written"),
            baseline: nil, reference: nil
          ) {
            let fixed = try benchmarkSystem(effect, .init(threads: 1), suite: "particles")
            fixed.seek(to: 10)
            let state = FrameState()
            return [
              BenchmarkCase("render") {
                fixed.render(into: &state.frame, threads: 1, computesAffines: false)
                blackHole(state.frame.instances.count)
              },
              BenchmarkCase("render-2t") {
                fixed.render(into: &state.frame, threads: 2, computesAffines: false)
                blackHole(state.frame.instances.count)
              },
            ]
          })
      }
      // Two cells at the same rate, a store each, against the one-cell
      // effect with the same live count in the same group; and in one store,
      // where their births alternate, so every block mixes two constants
      // rows.
      for n in scale.sizes([10_000, 100_000]) {
        groups.append(
          BenchmarkGroup(
            name: "two-cells n=\(n)", items: n,
            byteModel: ByteModel(bytesPerItem: 128, "64 B slab row read + 64 B instance written"),
            baseline: "one cell", reference: nil
          ) {
            let one = try benchmarkSystem(
              ParticleSystem.steadyStateEffect(liveParticles: n), .init(threads: 1), suite: "particles")
            one.seek(to: 10)
            try expectLive(one, n)
            let emitter = twoCellEmitter(liveParticles: n)
            let two = try benchmarkSystem(try Effect(emitter: emitter), .init(threads: 1), suite: "particles")
            two.seek(to: 10)
            try expectLive(two, n)
            let oneStore = try benchmarkSystem(try Effect(emitter: emitter), .init(threads: 1), suite: "particles")
            oneStore.paths.cellStores = false
            oneStore.seek(to: 10)
            try expectLive(oneStore, n)
            // Systems of their own for the steps and seeks.
            func system(_ effect: Effect, cellStores: Bool = true, seekTo time: Double? = 10) throws
              -> ParticleSystem
            {
              let s = try benchmarkSystem(effect, .init(threads: 1), suite: "particles")
              if !cellStores { s.paths.cellStores = false }
              if let time { s.seek(to: time) }
              return s
            }
            let twoCells = try Effect(emitter: emitter)
            let stepping = (
              try system(ParticleSystem.steadyStateEffect(liveParticles: n)), try system(twoCells),
              try system(twoCells, cellStores: false)
            )
            let seeking = (try system(twoCells, seekTo: nil), try system(twoCells, cellStores: false, seekTo: nil))
            // The same two cells drawn in birth order: one store, whose
            // frame is written in store order.
            var birthOrder = emitter
            birthOrder.renderMode = .oldestFirst
            let oldestFirst = try system(try Effect(emitter: birthOrder))
            try expectLive(oldestFirst, n)
            let oldestFirstStepping = try system(try Effect(emitter: birthOrder))
            var oldestFirstTime = 10.0
            var times = (10.0, 10.0, 10.0)
            let state = FrameState()
            func step(_ s: ParticleSystem, _ t: inout Double) {
              t += frameTime
              s.advance(to: t)
              s.render(into: &state.stepped, threads: 1, computesAffines: false)
              blackHole(state.stepped.instances.count)
            }
            return [
              BenchmarkCase("one cell") {
                one.render(into: &state.frame, threads: 1, computesAffines: false)
                blackHole(state.frame.instances.count)
              },
              BenchmarkCase("two cells") {
                two.render(into: &state.frame, threads: 1, computesAffines: false)
                blackHole(state.frame.instances.count)
              },
              BenchmarkCase("two cells, one store") {
                oneStore.render(into: &state.frame, threads: 1, computesAffines: false)
                blackHole(state.frame.instances.count)
              },
              BenchmarkCase("two cells, oldestFirst") {
                oldestFirst.render(into: &state.frame, threads: 1, computesAffines: false)
                blackHole(state.frame.instances.count)
              },
              // Each step case advances its own system by 1/60 s a call.
              BenchmarkCase("one cell step") { step(stepping.0, &times.0) },
              BenchmarkCase("two cells step") { step(stepping.1, &times.1) },
              BenchmarkCase("two cells, one store step") { step(stepping.2, &times.2) },
              BenchmarkCase("two cells, oldestFirst step") { step(oldestFirstStepping, &oldestFirstTime) },
              seekCase(seeking.0, at: 10, then: 10 + frameTime, name: "two cells seek"),
              seekCase(seeking.1, at: 10, then: 10 + frameTime, name: "two cells, one store seek"),
            ]
          })
      }
      // Depth order: the one-cell effect in 3D (a z acceleration, depth
      // kept), drawn back to front against birth order, each stepped by
      // 1/60 s a call and rendered (the sort by z then id, every frame).
      for n in scale.sizes([10_000, 100_000]) {
        groups.append(
          BenchmarkGroup(
            name: "back-to-front n=\(n)", items: n,
            byteModel: ByteModel(bytesPerItem: 128, "64 B slab row read + 64 B instance written"),
            baseline: "oldestFirst", reference: nil
          ) {
            var systems: [ParticleSystem] = []
            for (mode, cells, cellStores) in [
              (RenderMode.oldestFirst, 1, true), (.backToFront, 1, true), (.backToFront, 2, true),
              (.backToFront, 2, false),
            ] {
              var emitter =
                cells == 2
                ? twoCellEmitter(liveParticles: n) : ParticleSystem.steadyStateEffect(liveParticles: n).emitter
              // Both cells toward the viewer, at different accelerations.
              for (c, z) in zip(emitter.emitterCells.indices, [4, -3] as [Float]) {
                emitter.emitterCells[c].zAcceleration = z
              }
              emitter.renderMode = mode
              emitter.preservesDepth = true
              let system = try benchmarkSystem(try Effect(emitter: emitter), .init(threads: 1), suite: "particles")
              if !cellStores { system.paths.cellStores = false }
              system.seek(to: 10)
              try expectLive(system, n)
              systems.append(system)
            }
            let state = FrameState()
            var times = [10.0, 10.0, 10.0, 10.0]
            let names = ["oldestFirst", "backToFront", "backToFront, two cells", "backToFront, two cells, one store"]
            return zip(names, systems.indices).map { name, k in
              BenchmarkCase(name) {
                times[k] += frameTime
                systems[k].advance(to: times[k])
                systems[k].render(into: &state.stepped)
                blackHole(state.stepped.instances.count)
              }
            }
          })
      }
      // Multi-cell presets, in full swing (the render suite's times):
      // confetti in a store per cell, fireworks (sub-cells) in one store
      // whose blocks mix constants rows.
      for (preset, time) in [("confetti", 5.0), ("fireworks", 4.0)] {
        groups.append(
          BenchmarkGroup(
            name: "preset \(preset) t=\(Int(time))", items: 1,
            byteModel: ByteModel(bytesPerItem: 128, "64 B slab row read + 64 B instance written"),
            baseline: nil, reference: nil
          ) {
            let effect = try Effect.preset(named: preset)
            let system = try benchmarkSystem(effect, .init(threads: 1), suite: "particles")
            system.seek(to: time)
            let live = system.liveRecords().count
            guard live > 0 else { throw BenchmarkSetupError("\(preset) has no live particle at \(time) s") }
            let state = FrameState()
            let seeking = try benchmarkSystem(effect, .init(threads: 1), suite: "particles")
            let stepping = try benchmarkSystem(effect, .init(threads: 1), suite: "particles")
            stepping.seek(to: time)
            var t = time
            // The step alone: a sub-cell effect's step is per-parent work,
            // hidden beside the frame in `advance+render`.
            let stepOnly = try benchmarkSystem(effect, .init(threads: 1), suite: "particles")
            stepOnly.seek(to: time)
            var stepTime = time
            return [
              BenchmarkCase("render", items: live) {
                system.render(into: &state.frame, threads: 1, computesAffines: false)
                blackHole(state.frame.instances.count)
              },
              BenchmarkCase("advance+render", items: live) {
                t += frameTime
                stepping.advance(to: t)
                stepping.render(into: &state.stepped)
                blackHole(state.stepped.instances.count)
              },
              // Per call (the group's one item): a step's work follows its
              // births and parents, not the live count.
              BenchmarkCase(
                "advance", byteModel: ByteModel(bytesPerItem: 0, "births and bookkeeping: nothing per live particle")
              ) {
                stepTime += frameTime
                stepOnly.advance(to: stepTime)
                blackHole(stepOnly.localTime)
              },
              seekCase(seeking, at: time, then: time + frameTime, items: live),
            ]
          })
      }
      groups += cBaselineGroups(scale)
      for births in scale.sizes([1_024, 16_384]) {
        // Rate 2²⁰/s: birth k at (k + 1)·2⁻²⁰ s, exact, so (0, births·2⁻²⁰] holds exactly `births`.
        let rate = Double(1 << 20)
        let effect = ParticleSystem.steadyStateEffect(liveParticles: 100 << 20, lifetime: 100)
        let interval = Double(births) / rate
        groups.append(
          BenchmarkGroup(
            name: "births n=\(births)", items: births,
            byteModel: ByteModel(bytesPerItem: 72, "one 64 B slab row and an 8 B id written per birth"),
            baseline: "naive", reference: nil
          ) {
            let system = try benchmarkSystem(
              effect, .init(budget: ParticleSystemConfiguration.maximumBudget), suite: "particles")
            system.seek(to: 0)
            system.advance(to: interval)
            try expectLive(system, births)
            return [
              BenchmarkCase("naive") {
                let naive = NaiveParticleSimulator(effect: effect)
                naive.step(interval)
                blackHole(naive.particles.count)
              },
              BenchmarkCase("advance") {
                system.seek(to: 0)
                system.advance(to: interval)
                blackHole(system.localTime)
              },
            ]
          })
      }
      return groups
    }
  }
}

/// A particle system for a suite's effect.
///
/// The budget is the effect's own peak when that exceeds the configured one:
/// the budget is an application's safety limit, while a benchmark wants
/// exactly the particles its effect defines. (The peak bound is ⌊R·L⌋ + 1
/// per top-level cell, so `steadyStateEffect(liveParticles: 4_000_000)` can
/// have 4,000,001 live particles, one over the default budget of 4,000,000;
/// that made the full run crash at the 4M group.) Any other error is a
/// harness bug: the group fails with the suite's name and the cause, and the
/// run goes on.
func benchmarkSystem(
  _ effect: Effect, _ configuration: ParticleSystemConfiguration = .init(), suite: String
) throws(BenchmarkSetupError) -> ParticleSystem {
  do throws(ParticleSystemError) {
    return try ParticleSystem(effect: effect, configuration: configuration)
  } catch .budgetExceeded(let peak, _) {
    var sized = configuration
    sized.budget = peak
    do {
      return try ParticleSystem(effect: effect, configuration: sized)
    } catch {
      throw BenchmarkSetupError("\(suite) suite: \(error)")
    }
  } catch {
    throw BenchmarkSetupError("\(suite) suite: \(error)")
  }
}

/// Case `seek`: `system.seek(to:)` to `first` and `second` in turn, so that
/// every call rebuilds the live set (items: the group's, or `items`).
/// The one-cell steady effect's emitter split into two cells at half the
/// rate each, `liveParticles` in all: the second (constants rows are per
/// cell and segment) named "second", its colour fading a little slower.
func twoCellEmitter(liveParticles n: Int) -> Emitter {
  var emitter = ParticleSystem.steadyStateEffect(liveParticles: n / 2).emitter
  var second = emitter.emitterCells[0]
  second.name = "second"
  second.alphaSpeed = -0.04
  emitter.emitterCells.append(second)
  return emitter
}

func seekCase(
  _ system: ParticleSystem, at first: Double, then second: Double, items: Int? = nil, name: String = "seek"
) -> BenchmarkCase {
  var time = first
  return BenchmarkCase(
    name, items: items,
    byteModel: ByteModel(bytesPerItem: 72, "64 B slab row + 8 B id written per live particle")
  ) {
    time = time == first ? second : first
    system.seek(to: time)
    blackHole(system.localTime)
  }
}

/// Fails the group unless `system` has exactly `expected` live particles (the
/// figures per particle would be wrong otherwise).
func expectLive(_ system: ParticleSystem, _ expected: Int) throws(BenchmarkSetupError) {
  let live = system.liveCount
  guard live == expected else {
    throw BenchmarkSetupError("expected \(expected) live particles at t = \(system.localTime ?? .nan), found \(live)")
  }
}

/// Frames reused across calls (steady-state frames allocate nothing).
private final class FrameState {
  var frame = ParticleFrame()
  var stepped = ParticleFrame()
}
