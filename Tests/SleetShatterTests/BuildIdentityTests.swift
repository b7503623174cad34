import SleetMath
import Testing
import _SleetTestSupport

@testable import SleetShatter

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// Build identity: known-answer digests of shatter frames, computed in the
// portable build and checked in every build (in CI also the release build with
// `-target-cpu haswell`). The digest and how to regenerate the goldens are
// described in Tests/SleetMathTests/BuildIdentityTests.swift:
//   SLEET_PRINT_DIGESTS=1 swift test --filter BuildIdentity 2>&1 | grep "BuildIdentity golden" | sort -u
// (portable build only). The `blas` backend is not covered (OpenBLAS rounds
// differently); `scalar` and `simd` must give the same bits, so each frame has
// one golden checked on both.

// A copy of SleetMathTests' BuildDigest (test bundles share no helpers here).
@Suite("Build identity: shatter frame digests")
struct BuildIdentityShatterTests {
  /// Computed in the portable build; see the top of Tests/SleetMathTests/BuildIdentityTests.swift.
  static let goldens: [String: (words: Int, digest: UInt64)] = [
    "checkerboard 1000×700 /100 at 0.0·end": (196003, 0x7C240FCBB1267FED),
    "checkerboard 1000×700 /100 at 0.13·end": (196003, 0x559912A46606933F),
    "checkerboard 1000×700 /100 at 0.37·end": (196003, 0x5BFB330A069CBB1D),
    "checkerboard 1000×700 /100 at 0.5·end": (196003, 0x3CF76F4222F6C360),
    "checkerboard 1000×700 /100 at 0.71·end": (196003, 0x4F7C14B51E72A218),
    "checkerboard 1000×700 /100 at 0.96·end": (196003, 0x071D5B439F8A6039),
    "checkerboard 1000×700 /100 at 1.2·end": (196003, 0x4F712251F31D8FC5),
    "checkerboard 1000×700 /100 texture corners": (56000, 0xC01BC4FC41DC7511),
    "checkerboard 390×844 pop at 0.0·end": (6163, 0x428CFECD166166DD),
    "checkerboard 390×844 pop at 0.13·end": (6163, 0xC63EA4698AD55B6F),
    "checkerboard 390×844 pop at 0.37·end": (6163, 0xB7BEE62EE011983D),
    "checkerboard 390×844 pop at 0.5·end": (6163, 0x2887460E20C52A3A),
    "checkerboard 390×844 pop at 0.71·end": (6163, 0x102E3C592F5DF727),
    "checkerboard 390×844 pop at 0.96·end": (6163, 0xF8111F51DB3D4EEC),
    "checkerboard 390×844 pop at 1.2·end": (6163, 0xBEA734590C724F3A),
    "checkerboard 390×844 pop texture corners": (1760, 0x9A84C5DDA4184E85),
    "checkerboard 390×844 push at 0.0·end": (6163, 0x428CFECD166166DD),
    "checkerboard 390×844 push at 0.13·end": (6163, 0x9A80742F9AC1E5D5),
    "checkerboard 390×844 push at 0.37·end": (6163, 0x43A622C0BBB1A3DC),
    "checkerboard 390×844 push at 0.5·end": (6163, 0xCA7209122F6C8B7C),
    "checkerboard 390×844 push at 0.71·end": (6163, 0xEA4791844D5C448B),
    "checkerboard 390×844 push at 0.96·end": (6163, 0x90DA0BE41DFE707B),
    "checkerboard 390×844 push at 1.2·end": (6163, 0xA67996D980B172F7),
    "checkerboard 390×844 push texture corners": (1760, 0x9A84C5DDA4184E85),
    "explode 390×844 seed 7 at 0.0·end": (6163, 0x428CFECD166166DD),
    "explode 390×844 seed 7 at 0.13·end": (6163, 0x7C6EA0DCFA5C5000),
    "explode 390×844 seed 7 at 0.37·end": (6163, 0x2A1838AA7917BF9C),
    "explode 390×844 seed 7 at 0.5·end": (6163, 0x42FE66415E55215E),
    "explode 390×844 seed 7 at 0.71·end": (6163, 0x57749B242D097E3F),
    "explode 390×844 seed 7 at 0.96·end": (6163, 0x6CE7E7790967B70C),
    "explode 390×844 seed 7 at 1.2·end": (6163, 0x9762DD31446F908B),
    "explode 390×844 seed 7 texture corners": (1760, 0x9A84C5DDA4184E85),
    "glassBreak 390×844 seed 11 at 0.0·end": (2803, 0x0A5C09330CC1D6D0),
    "glassBreak 390×844 seed 11 at 0.13·end": (2803, 0x8C37C4C282219AAB),
    "glassBreak 390×844 seed 11 at 0.37·end": (2803, 0xE12847B5C784EAF2),
    "glassBreak 390×844 seed 11 at 0.5·end": (2803, 0x9B604C8569CEA655),
    "glassBreak 390×844 seed 11 at 0.71·end": (2803, 0x8E6A58B5D5B011A3),
    "glassBreak 390×844 seed 11 at 0.96·end": (2803, 0x573EB17695D57A76),
    "glassBreak 390×844 seed 11 at 1.2·end": (2803, 0x0C587315D8716400),
    "glassBreak 390×844 seed 11 texture corners": (800, 0x2CF72AED7B9343F1),
  ]

  /// Fixed plans: Apple's checkerboard (both directions), the two random
  /// styles with fixed seeds; large enough for several 512-piece chunks.
  static let transitions: [(String, ShatterTransition)] = [
    ("checkerboard 390×844 push", ShatterTransition(style: .checkerboard, width: 390, height: 844)),
    ("checkerboard 390×844 pop", ShatterTransition(style: .checkerboard, width: 390, height: 844, direction: .pop)),
    ("checkerboard 1000×700 /100", ShatterTransition(style: .checkerboard, width: 1000, height: 700, divisor: 100)),
    ("explode 390×844 seed 7", ShatterTransition(style: .explode, width: 390, height: 844, seed: 7)),
    ("glassBreak 390×844 seed 11", ShatterTransition(style: .glassBreak, width: 390, height: 844, seed: 11)),
  ]

  /// Fractions of each transition's end time (before, during, at and after the end).
  static let fractions: [Double] = [0, 0.13, 0.37, 0.5, 0.71, 0.96, 1.2]

  static func digest(_ frame: ShatterFrame) -> BuildDigest {
    var d = BuildDigest()
    d.add(frame.time)
    d.add(word: frame.isComplete ? 1 : 0)
    for t in frame.transforms { d.add(t) }
    for c in frame.corners {
      d.add(c.x)
      d.add(c.y)
    }
    for p in frame.pieces {
      d.add(p.progress)
      d.add(p.opacity)
      d.add(p.depth)
      d.add(word: p.faceRawValue)
    }
    return d
  }

  @Test(arguments: 0..<transitions.count)
  func frames(index: Int) {
    let (name, transition) = Self.transitions[index]
    var textures = BuildDigest()
    let first = transition.makeFrame()
    for c in first.textureCorners {
      textures.add(c.x)
      textures.add(c.y)
    }
    textures.check("\(name) texture corners", in: Self.goldens)
    for backend in [TransformBackend.scalar, .simd] {
      var frame = transition.makeFrame()
      for fraction in Self.fractions {
        let time = fraction * transition.endTime
        transition.evaluate(at: time, into: &frame, backend: backend)
        let key = "\(name) at \(fraction)·end"
        Self.digest(frame).check(key, in: Self.goldens, context: ", \(backend)")
      }
    }
  }
}
