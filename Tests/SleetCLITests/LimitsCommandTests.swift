import Glibc
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// One image size limit for every command (SleetLimits), with a usage error
/// before anything is written (docs/reliability.md, "Limits").
@Suite("sleet size and frame limits")
struct LimitsCommandTests {
  static let message = "px: at most 8192 px a side and 33554432 px in all"

  @Test func renderRefusesImagesOverTheSideOrPixelLimit() {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    for (size, scale, pixels) in [
      ("390x844", "16", "6240×13504"), ("8193x1", "1", "8193×1"), ("8192x4097", "1", "8192×4097"),
    ] {
      let r = runSleet(["render", "snow", "--out", folder + "/x.png", "--size", size, "--scale", scale])
      #expect(r.status == 2, "\(size) at \(scale)")
      #expect(r.err.contains("--size × --scale: \(pixels) \(Self.message)"), "\(r.err)")
    }
    #expect(folderEntries(folder).isEmpty)
  }

  @Test func demoRefusesAScaleOverTheLimitBeforeMakingItsFolder() {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let r = runSleet(["demo", "--out", folder + "/demo", "--scale", "16"])
    #expect(r.status == 2)
    #expect(r.err.contains("sleet demo: --scale: 6240×13504 \(Self.message)"), "\(r.err)")
    #expect(folderEntries(folder).isEmpty)
  }

  @Test func framesOverTheLimitsAreRefused() {
    #expect(RenderOutput.maximumFrames == SleetLimits.frames)
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    for out in ["/x.apng", "/frames/"] {
      let r = runSleet(["render", "snow", "--out", folder + out, "--duration", "3600", "--fps", "30"])
      #expect(r.status == 2 && r.err.contains("108000 frames, at most 100000"), "\(r.err)")
    }
    #expect(folderEntries(folder).isEmpty)
  }
}
