import CParticleBaseline
import SleetKit

/// Issue 9: SleetKit's whole particle frame against the classic C SoA design
/// (Benchmarks/CParticleBaseline: seven vec4 streams, one pass per updater,
/// kill by moving the last particle into the hole; fenbf/particles rewritten
/// in C11), at the same live count. Suite `particles`, groups
/// `vs-c-baseline live=N` (10k, 100k, 1M; 10k only with --quick; 1k…4M with
/// --plot, which draws the curve).
///
/// Setup: the C system gets capacity ≈ N/0.875 (births 0.25·capacity per second,
/// lifetimes uniform in [3, 4] s, so ≈ 0.875·capacity alive in the steady state;
/// see `CBaselineSystem.init` for the rounding)
/// and runs 600 frames of 1/60 s (250 with --dry-run); its alive count A sets
/// the SleetKit effect, `steadyStateEffect(liveParticles: A)` seeked to t = 10 s
/// as in the `frame` groups, which holds A ± 1 live particles (checked); each
/// case's ns per particle divides by its own system's count.
///
/// Cases (ns per live particle; `×c-baseline` > 1 and `sleetkit / c-baseline`
/// < 1 mean faster than the C design):
/// - `c-baseline`: one C frame (zero all accelerations, age and kill, colour,
///   three Euler passes, emit), steady state;
/// - `sleetkit`: SleetKit's whole frame, `advance(to: t + 1/60)` then
///   `render(into:)` into 64-byte instances (the default configuration: no
///   affines), one thread;
/// - `sleetkit-compact`: the same into 32-byte `CompactParticleInstance`s
///   (position, scale, rotation, unorm8 colour, sprite: what the C design
///   keeps and more);
/// - `naive`: one explicit-Euler step of `NaiveParticleSimulator` started from
///   SleetKit's live set.
///
/// Byte models differ by design: SleetKit 128 B (the 64 B slab row read, the
/// 64 B instance written; compact: 96 B); the C design 16 B × capacity / A zeroed plus
/// 224 B of passes (time 16 + 16, colour 48 + 16, three Euler passes 32 + 48 +
/// 48) plus per death 224 B moved and per birth 96 B written, ≈ 244 B.
extension BenchmarkRunner {
  static func cBaselineGroups(_ scale: BenchmarkScale) -> [BenchmarkGroup] {
    let liveCounts = scale.plot ? BenchmarkPlot.liveCounts : [10_000, 100_000, 1_000_000]
    return scale.sizes(liveCounts).map { live in
      cBaselineGroup(live: live, warmUpFrames: scale.dryRun ? CBaselineSystem.dryRunWarmUpFrames : 600)
    }
  }

  private static func cBaselineGroup(live: Int, warmUpFrames: Int) -> BenchmarkGroup {
    let frameTime = 1.0 / 60
    return BenchmarkGroup(
      name: "\(BenchmarkPlot.groupName) live=\(live)", items: live,
      byteModel: ByteModel(bytesPerItem: 128, "SleetKit: 64 B slab row read + 64 B instance written"),
      baseline: "naive", reference: "c-baseline",
      timeRatios: [("sleetkit", "c-baseline"), ("sleetkit-compact", "c-baseline")]
    ) {
      let c = try CBaselineSystem(steadyStateLive: live, warmUpFrames: warmUpFrames)
      let alive = c.alive
      let effect = ParticleSystem.steadyStateEffect(liveParticles: alive)
      let system = try benchmarkSystem(effect, .init(threads: 1), suite: "particles")
      system.seek(to: 10)
      // Rate A/10 in Float is exact only for some A, so the effect may hold
      // one particle fewer or more than asked; each case divides by its own count.
      let sleetLive = system.liveCount
      guard abs(sleetLive - alive) <= max(2, alive / 1000) else {
        throw BenchmarkSetupError("SleetKit has \(sleetLive) live particles, the C baseline \(alive)")
      }
      let compactSystem = try benchmarkSystem(effect, .init(threads: 1, instanceLayout: .compact), suite: "particles")
      compactSystem.seek(to: 10)
      let naive = NaiveParticleSimulator(startingFrom: system)
      let frame = FrameBox()
      let compactFrame = FrameBox()
      var t = 10.0
      var compactT = 10.0
      return [
        BenchmarkCase("c-baseline", items: alive, byteModel: c.byteModel) {
          c.frame()
          blackHole(c.alive)
        },
        BenchmarkCase("sleetkit", items: sleetLive) {
          t += frameTime
          system.advance(to: t)
          system.render(into: &frame.frame)
          blackHole(frame.frame.instances.count)
        },
        BenchmarkCase(
          "sleetkit-compact", items: sleetLive,
          byteModel: ByteModel(bytesPerItem: 96, "64 B slab row read + 32 B compact instance written")
        ) {
          compactT += frameTime
          compactSystem.advance(to: compactT)
          compactSystem.render(into: &compactFrame.frame)
          blackHole(compactFrame.frame.compactInstances.count)
        },
        BenchmarkCase("naive", items: sleetLive) {
          naive.step(frameTime)
          blackHole(naive.particles.count)
        },
      ]
    }
  }
}

/// One C baseline system, destroyed with the group's cases.
final class CBaselineSystem {
  /// 1/60 s, in Float as the C design computes.
  static let frameTime: Float = 1.0 / 60
  /// With --dry-run: past the longest lifetime (4 s = 240 frames), so kills
  /// run, at well under half the cost of the full warm-up at 1M.
  static let dryRunWarmUpFrames = 250

  private let system: OpaquePointer
  let capacity: Int

  /// A system whose steady state holds about `live` particles, run for
  /// `warmUpFrames` frames (600 = 10 s, long past the 4 s maximum lifetime).
  ///
  /// The design emits ⌊0.25·capacity·dt⌋ = B particles per frame, and each
  /// lives 60·L + 1 frame ends on average (L uniform in [3, 4] s), so about
  /// 210.5·B are alive. Capacity N/0.875 would lose up to one birth per frame
  /// to the floor (−15 % at 1k); capacity 240·B with B = round(live / 210.5)
  /// keeps the alive count within 0.5·210 of `live` and at 0.877 of capacity.
  init(steadyStateLive live: Int, warmUpFrames: Int) throws(BenchmarkSetupError) {
    capacity = 240 * max(1, Int((Double(live) / 210.5).rounded()))
    guard let made = cpb_create(capacity, 0x5EED_C0DE) else {
      throw BenchmarkSetupError("C baseline: cannot allocate \(capacity) particles")
    }
    system = made
    for _ in 0..<warmUpFrames { cpb_frame(system, Self.frameTime) }
    guard alive > 0, cpb_position_y_sum(system).isFinite else {
      throw BenchmarkSetupError("C baseline: \(alive) alive after \(warmUpFrames) frames")
    }
  }

  deinit { cpb_destroy(system) }

  var alive: Int { cpb_alive(system) }

  func frame() { cpb_frame(system, Self.frameTime) }

  /// Bytes per alive particle and frame (STREAM convention), from the actual
  /// capacity and alive count: see the suite's comment.
  var byteModel: ByteModel {
    let a = Double(max(alive, 1))
    let births = Double(Int(Float(capacity / 4) * Self.frameTime))
    let bytes = 16 * Double(capacity) / a + 224 + births * (224 + 96) / a
    return ByteModel(
      bytesPerItem: bytes,
      "C: 16 B acc zeroed per slot + 224 B over 6 passes + kill/emit moves, per alive particle")
  }

  /// How the C file was compiled (its predefined macros), for the environment.
  static var buildSummary: String { String(cString: cpb_build_summary()) }
}

/// The frame a case renders into, reused across calls.
private final class FrameBox {
  var frame = ParticleFrame()
}
