import Foundation
import Glibc
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// `sleet render --gpu` (docs/gpu.md): the GPU shader's frames through the
/// preview renderer. At preview resolution its sub-ulp differences from the
/// CPU frame do not change a pixel, so the images are compared exactly; the
/// shader's frame counter proves `--gpu` ran it (serialized: the counter is
/// per process). Without OpenGL ES (no EGL vendor), exit 1 and the message.
@Suite("render --gpu", .serialized)
struct RenderGPUTests {
  @Test(arguments: ["rain", "fireworks", "confetti"])
  func gpuStillsAndAnimationsEqualTheCPUImages(name: String) throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    for (flags, file) in [([String](), "cpu"), (["--gpu"], "gpu")] {
      let before = ParticleFrameSource.gpuFramesRendered.load(ordering: .relaxed)
      let still = runSleet(["render", name, "--size", "120x260", "--out", "\(folder)/\(file).png"] + flags)
      #expect(still.status == 0, "\(still.err)")
      let frames = runSleet(
        ["render", name, "--size", "80x120", "--fps", "5", "--duration", "2", "--out", "\(folder)/\(file)/"] + flags)
      #expect(frames.status == 0, "\(frames.err)")
      // One shader frame per image with --gpu (1 still + 10 frames), none without.
      let shaderFrames = ParticleFrameSource.gpuFramesRendered.load(ordering: .relaxed) - before
      #expect(shaderFrames == (flags.isEmpty ? 0 : 11), "\(name) \(file): \(shaderFrames) shader frames")
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

  /// With no EGL vendor library (glvnd finds none), `--gpu` finds no OpenGL
  /// ES: exit 1 (the machine, not the input) with "--gpu: no GPU: …" and no
  /// output file. A child process: EGL reads the variable once per process.
  @Test func withoutAGPUTheRenderFailsWithExitStatusOne() throws {
    let sleet = try #require(sleetExecutable(), "the sleet executable beside the test bundle")
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let out = folder + "/rain.png"
    let command = ["/usr/bin/env", "__EGL_VENDOR_LIBRARY_DIRS=/nonexistent", sleet, "render", "rain"]
    let child = runChild(command + ["--size", "40x40", "--out", out, "--gpu"], folder: folder)
    #expect(child.termination == .exited(1), "\(child.err)")
    #expect(child.err.contains("sleet render: --gpu: no GPU: "), "\(child.err)")
    #expect(access(out, F_OK) != 0)
    // The same command without --gpu succeeds in the same environment.
    let cpu = runChild(command + ["--size", "40x40", "--out", folder + "/cpu.png"], folder: folder)
    #expect(cpu.termination == .exited(0), "\(cpu.err)")
  }
}
