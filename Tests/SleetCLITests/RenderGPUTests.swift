import Foundation
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// `sleet render --gpu` (docs/gpu.md): the GPU shader's frames through the
/// preview renderer. At preview resolution its sub-ulp differences from the
/// CPU frame do not change a pixel, so the images are compared exactly.
@Suite("render --gpu")
struct RenderGPUTests {
  @Test(arguments: ["rain", "fireworks", "confetti"])
  func gpuStillsAndAnimationsEqualTheCPUImages(name: String) throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    for (flags, file) in [([String](), "cpu"), (["--gpu"], "gpu")] {
      let still = runSleet(["render", name, "--size", "120x260", "--out", "\(folder)/\(file).png"] + flags)
      #expect(still.status == 0, "\(still.err)")
      let frames = runSleet(
        ["render", name, "--size", "80x120", "--fps", "5", "--duration", "2", "--out", "\(folder)/\(file)/"] + flags)
      #expect(frames.status == 0, "\(frames.err)")
    }
    #expect(
      try PNGFile.read(path: "\(folder)/cpu.png").straightRGBA8()
        == PNGFile.read(path: "\(folder)/gpu.png").straightRGBA8())
    for k in 0..<10 {
      let frame = String(format: "frame-%04d.png", k)
      #expect(
        try PNGFile.read(path: "\(folder)/cpu/\(frame)").straightRGBA8()
          == PNGFile.read(path: "\(folder)/gpu/\(frame)").straightRGBA8(), "\(name) \(frame)")
    }
  }
}
