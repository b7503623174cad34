import Glibc
import SleetMath
import Testing
import _SleetTestSupport

@testable import SleetParticles

/// The limits on effects (docs/reliability.md, "Limits"): sub-cell depth for
/// every effect, file size and JSON nesting for effect files.
@Suite("effect limits: cell depth, file size, nesting")
struct InputLimitTests {
  /// A chain of `depth` cells, each the only sub-cell of the one above.
  func chain(depth: Int) -> Effect {
    var cell = testCell("c\(depth)", birthRate: 1, lifetime: 0.5)
    for level in stride(from: depth - 1, through: 1, by: -1) {
      cell = testCell("c\(level)", birthRate: 1, lifetime: 0.5) { [cell] in $0.emitterCells = [cell] }
    }
    return testEffect([cell])
  }

  @Test func cellDepthIsCounted() {
    #expect(Emitter().cellDepth == 0)
    #expect(chain(depth: 1).emitter.cellDepth == 1)
    #expect(chain(depth: 5).emitter.cellDepth == 5)
    // The deepest branch counts, not the first.
    let wide = testEffect([testCell("a"), testCell("b") { $0.emitterCells = [testCell("c")] }])
    #expect(wide.emitter.cellDepth == 2)
  }

  @Test func sixteenLevelsAreAcceptedAndRoundTripThroughAFile() throws {
    let effect = chain(depth: SleetLimits.cellDepth)
    try effect.validate()
    #expect(try Effect(json: effect.jsonString()) == effect)
    _ = try ParticleSystem(effect: effect)
  }

  @Test func seventeenLevelsAreRefusedEverywhereWithOneMessage() {
    let effect = chain(depth: 17)
    let message = "the effect nests sub-cells 17 levels deep; at most 16 are supported"
    #expect(throws: EffectValidationError.cellsTooDeep(17)) { try effect.validate() }
    #expect(EffectValidationError.cellsTooDeep(17).description == message)
    #expect(throws: ParticleSystemError.cellsTooDeep(17)) { try ParticleSystem(effect: effect) }
    #expect(ParticleSystemError.cellsTooDeep(17).description == message)
    // Before the limit, such an effect wrote a file its own reader refused
    // past 31 levels (JSON nesting); now the file reader names the limit.
    #expect(formatError(effect.jsonString()) == "emitterCells: \(message)")
  }

  @Test func deepJSONIsRefusedBeforeItIsRead() {
    let cells = String(repeating: #"{"emitterCells": ["#, count: 40) + String(repeating: "]}", count: 40)
    let json = #"{"format": 1, "emitterCells": ["# + cells + "]}"
    #expect(formatError(json)?.hasSuffix("nesting deeper than 64 levels") == true)
  }

  @Test func effectFilesAreReadUpTo16MiB() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    // A sparse file one byte over the limit: refused from its size.
    let big = folder + "/big.json"
    let fd = open(big, O_CREAT | O_WRONLY, 0o644)
    #expect(fd >= 0 && ftruncate(fd, off_t(SleetLimits.jsonFileBytes + 1)) == 0)
    close(fd)
    let reason = "larger than 16 MiB, the limit for effect files (SleetLimits)"
    #expect(throws: EffectFormatError(path: "", reason: "cannot read '\(big)': \(reason)")) {
      try Effect(contentsOfFile: big)
    }
    // A device that never ends is refused after the limit, not read forever.
    #expect(throws: EffectFormatError(path: "", reason: "cannot read '/dev/zero': \(reason)")) {
      try Effect(contentsOfFile: "/dev/zero")
    }
    #expect(throws: EffectFormatError(path: "", reason: "cannot read '\(folder)': Is a directory")) {
      try Effect(contentsOfFile: folder)
    }
    // At the limit exactly, the file is read (and is then judged as JSON:
    // 16 MiB of spaces is not a document).
    let full = folder + "/full.json"
    let fd2 = open(full, O_CREAT | O_WRONLY, 0o644)
    let spaces = [UInt8](repeating: 0x20, count: SleetLimits.jsonFileBytes)
    #expect(spaces.withUnsafeBytes { write(fd2, $0.baseAddress, $0.count) } == SleetLimits.jsonFileBytes)
    close(fd2)
    #expect(throws: EffectFormatError.self) { try Effect(contentsOfFile: full) }
    do {
      _ = try Effect(contentsOfFile: full)
    } catch {
      #expect(error.reason.hasPrefix("invalid JSON"))
    }
  }
}
