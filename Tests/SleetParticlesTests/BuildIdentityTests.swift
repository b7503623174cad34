import SleetMath
import Testing
import _SleetTestSupport

@testable import SleetParticles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// Build identity: known-answer digests of rendered particle frames, computed
// in the portable build and checked in every build (in CI also the release
// build with `-target-cpu haswell`). The digest and how to regenerate the
// goldens are described in Tests/SleetMathTests/BuildIdentityTests.swift:
//   SLEET_PRINT_DIGESTS=1 swift test --filter BuildIdentity 2>&1 | grep "BuildIdentity golden" | sort -u
// (portable build only).
//
// Presets: snow, confetti, rain, sparkle. Not fireworks and likeBurst: their
// sub-cell emission windows are being redefined, which changes their output
// on purpose; add them once that has landed.

// A copy of SleetMathTests' BuildDigest (test bundles share no helpers here).
@Suite("Build identity: particle frame digests")
struct BuildIdentityParticlesTests {
  /// Computed in the portable build; see the top of Tests/SleetMathTests/BuildIdentityTests.swift.
  static let goldens: [String: (words: Int, digest: UInt64)] = [
    "confetti at 1.0 s affines": (90, 0x6E50BB3B48DB0C51),
    "confetti at 1.0 s instances": (240, 0x73ED16434C6A6B6C),
    "confetti at 3.5 s affines": (300, 0xD63C809963F0F76F),
    "confetti at 3.5 s instances": (800, 0x0539559AA3364A46),
    "rain at 1.0 s affines": (720, 0xC2181AB3CEFE220D),
    "rain at 1.0 s instances": (1920, 0xAEEE843060AD661C),
    "rain at 3.5 s affines": (1152, 0x8DCF7B54BE0BBC75),
    "rain at 3.5 s instances": (3072, 0x7F1E8498EF4198C3),
    "snow at 1.0 s affines": (42, 0x72D3B826FE8231E7),
    "snow at 1.0 s instances": (112, 0x07A9CBB4569D7523),
    "snow at 3.5 s affines": (144, 0x21BE623170F36FF0),
    "snow at 3.5 s instances": (384, 0x903D0677419A1BC8),
    "sparkle at 1.0 s affines": (270, 0x2BC167016AC566A6),
    "sparkle at 1.0 s instances": (720, 0x07AD5672F924EB40),
    "sparkle at 3.5 s affines": (342, 0x5A2D60BCA9A84B8B),
    "sparkle at 3.5 s instances": (912, 0xFA479FBE10F3E8C1),
  ]

  /// Every field of every instance, in draw order.
  static func digestInstances(_ frame: ParticleFrame) -> BuildDigest {
    var d = BuildDigest()
    for p in frame.instances {
      for x in [p.x, p.y, p.z, p.scale] { d.add(x) }
      for k in 0..<4 { d.add(p.color[k]) }
      for k in 0..<4 { d.add(p.contentsRect[k]) }
      d.add(p.rotation)
      d.add(p.normalizedAge)
      d.add(word: p.sprite)
      d.add(word: p.cell)
    }
    return d
  }

  static func digestAffines(_ frame: ParticleFrame) -> BuildDigest {
    var d = BuildDigest()
    for a in frame.affines {
      for x in [a.a, a.b, a.c, a.d, a.tx, a.ty] { d.add(x) }
    }
    return d
  }

  /// The default seed and configuration with affines, seeking to each time
  /// (stepping gives the same particles; `PresetSimulationTests` checks that).
  @Test(arguments: ["snow", "confetti", "rain", "sparkle"])
  func renderedFrames(preset: String) throws {
    let system = try ParticleSystem(
      effect: try Effect.preset(named: preset), configuration: .init(computesAffines: true))
    var frame = ParticleFrame()
    for time in [1.0, 3.5] {
      system.seek(to: time)
      system.render(into: &frame)
      #expect(!frame.instances.isEmpty, "\(preset) at \(time) s draws nothing")
      let key = "\(preset) at \(time) s"
      Self.digestInstances(frame).check("\(key) instances", in: Self.goldens)
      Self.digestAffines(frame).check("\(key) affines", in: Self.goldens)
    }
  }
}
