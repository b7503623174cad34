import Glibc
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// `--out FILE.mp4`, `FILE.webm` and `FILE.mov` in every render command,
/// checked with Debian's `ffprobe` and `ffmpeg` as the independent decoder
/// against the same command's PNG frames (a folder output, decoded by
/// libpng). Fails, never skips, without the tools.
@Suite("sleet render, transition render, shatter render: MP4, WebM, MOV", .serialized)
struct VideoOutputTests {
  func executable() throws -> String {
    try #require(sleetExecutable(), "the sleet executable is not beside the test bundle: build the package first")
  }

  /// The PNG frames a folder render wrote, in order, as straight RGBA.
  func folderFrames(_ folder: String) throws -> [[UInt8]] {
    var frames: [[UInt8]] = []
    for name in folderEntries(folder) where name.hasPrefix("frame-") {
      let bytes = try #require(fileBytes(folder + "/" + name), "\(name)")
      frames.append(try #require(libpngDecode(bytes), "\(name)").rgba)
    }
    return frames
  }

  /// The PSNR over all frames (their summed squared error) and the lowest
  /// frame's, RGB only.
  func psnr(_ decoded: [[UInt8]], _ reference: [[UInt8]]) -> (overall: Double, lowest: Double) {
    var squared = 0.0, samples = 0.0, lowest = Double.infinity
    for (d, r) in zip(decoded, reference) {
      let frame = psnrRGB(d, r)
      lowest = min(lowest, frame)
      // Back from the frame's PSNR to its squared error.
      if frame.isFinite { squared += 255 * 255 / pow(10, frame / 10) * Double(d.count / 4 * 3) }
      samples += Double(d.count / 4 * 3)
    }
    return (squared == 0 ? .infinity : 10 * log10(255 * 255 / (squared / samples)), lowest)
  }

  @Test func renderWritesEachContainerWithTheRenderersFrames() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-video")
    defer { removeTree(folder) }
    // Fireworks (the harder of the presets for H.264: small saturated
    // sparks) at 3 px/pt, the scale of a 1080×1920 export of a 360×640 pt
    // layer.
    let (width, height, fps, count) = (192, 288, 30, 18)
    let base = ["render", "fireworks", "--size", "64x96", "--scale", "3", "--duration", "0.6", "--fps", "\(fps)"]
    for out in ["frames/", "a.mp4", "a.webm", "a.mov"] {
      let r = runSleet(base + ["--out", folder + "/" + out])
      #expect(r.status == 0, "\(out): \(r.err)")
    }
    #expect(folderEntries(folder) == ["a.mov", "a.mp4", "a.webm", "frames"])
    let png = try folderFrames(folder + "/frames")
    #expect(png.count == count)
    let expected: [(file: String, codec: String, pixelFormat: String, minimum: Double)] = [
      ("a.mp4", "h264", "yuv420p", 40), ("a.webm", "vp9", "yuv420p", 35), ("a.mov", "prores", "yuva444p", 50),
    ]
    for (file, codec, pixelFormat, minimum) in expected {
      let path = folder + "/" + file
      let video = try probeVideo(path, folder: folder).get()
      #expect(video.codec == codec, "\(file)")
      #expect(video.pixelFormat?.hasPrefix(pixelFormat) == true, "\(file): \(video.pixelFormat ?? "none")")
      #expect(video["width"] == "\(width)" && video["height"] == "\(height)", "\(file)")
      #expect(video.frameCount == count, "\(file)")
      #expect(video["r_frame_rate"] == "\(fps)/1", "\(file)")
      #expect(video["color_space"] == "bt709" && video["color_range"] == "tv", "\(file)")
      let duration = try #require(video.duration, "\(file)")
      // MP4 and MOV: exact; WebM: whole milliseconds.
      let tolerance = file == "a.webm" ? 0.0005 : 1e-6
      #expect(abs(duration - Double(count) / Double(fps)) <= tolerance, "\(file): \(duration) s")
      let frames = try decodeVideoRGBA(path, width: width, height: height, folder: folder).get()
      #expect(frames.count == count, "\(file)")
      let quality = psnr(frames, png)
      #expect(quality.overall >= minimum, "\(file): \(quality.overall) dB overall, \(quality.lowest) dB lowest")
      print("VideoOutputTests: \(file): \(quality.overall) dB overall, \(quality.lowest) dB lowest")
    }
    #expect(try probeVideo(folder + "/a.mov", folder: folder).get()["profile"] == "4444")
  }

  @Test func aTransparentBackgroundIsStoredInWebMAndMOV() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-video")
    defer { removeTree(folder) }
    let base = [
      "render", "fireworks", "--size", "64x96", "--scale", "2", "--duration", "0.2", "--fps", "30", "--background",
      "#00000000",
    ]
    for out in ["frames/", "t.webm", "t.mov"] {
      let r = runSleet(base + ["--out", folder + "/" + out])
      #expect(r.status == 0, "\(out): \(r.err)")
    }
    let png = try folderFrames(folder + "/frames")
    #expect(try probeVideo(folder + "/t.webm", folder: folder).get()["TAG:alpha_mode"] == "1")
    for (file, decoder, minimum) in [("t.webm", "libvpx-vp9", 30.0), ("t.mov", nil, 50.0)]
      as [(String, String?, Double)]
    {
      let frames = try decodeVideoRGBA(folder + "/" + file, width: 128, height: 192, decoder: decoder, folder: folder)
        .get()
      #expect(frames.count == png.count, "\(file)")
      // Alpha follows the PNG frames' alpha within the codec's error (its
      // PSNR over every frame).
      var transparent = 0, squared = 0.0, samples = 0.0
      for (decoded, reference) in zip(frames, png) {
        for i in stride(from: 3, to: reference.count, by: 4) {
          let d = Double(decoded[i]) - Double(reference[i])
          squared += d * d
          samples += 1
          if reference[i] == 0 { transparent += 1 }
        }
      }
      #expect(transparent > 0, "\(file): the frames have transparent pixels")
      let alphaPSNR = squared == 0 ? .infinity : 10 * log10(255 * 255 / (squared / samples))
      #expect(alphaPSNR >= minimum, "\(file): alpha \(alphaPSNR) dB against the PNG frames'")
    }
  }

  @Test func transitionAndShatterRenderWriteEveryContainer() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-video")
    defer { removeTree(folder) }
    try PNGFile.write(DemoPicture.first.image(width: 48, height: 32), to: folder + "/a.png")
    try PNGFile.write(DemoPicture.second.image(width: 48, height: 32), to: folder + "/b.png")
    let pictures = ["--from", folder + "/a.png", "--to", folder + "/b.png", "--fps", "20"]
    let runs: [(command: [String], file: String, codec: String)] = [
      (["transition", "render", "--style", "fade"], "fade.mp4", "h264"),
      (["transition", "render", "--style", "slide"], "slide.webm", "vp9"),
      (["transition", "render", "--style", "window"], "window.mov", "prores"),
      (["shatter", "render"], "checkerboard.mp4", "h264"),
      (["shatter", "render", "--style", "explode"], "explode.webm", "vp9"),
      (["shatter", "render", "--style", "glassBreak"], "glass.mov", "prores"),
    ]
    for (command, file, codec) in runs {
      let frames = folder + "/frames-" + file.prefix { $0 != "." }
      let r = runSleet(command + pictures + ["--out", folder + "/" + file])
      #expect(r.status == 0, "\(file): \(r.err)")
      let p = runSleet(command + pictures + ["--out", frames])
      #expect(p.status == 0, "\(file): \(p.err)")
      let video = try probeVideo(folder + "/" + file, folder: folder).get()
      #expect(video.codec == codec, "\(file)")
      #expect(video.frameCount == folderEntries(frames).count, "\(file)")
      #expect(video["r_frame_rate"] == "20/1", "\(file)")
    }
  }

  @Test func aShardIsAVideoOfJustItsFrames() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-video")
    defer { removeTree(folder) }
    let base = ["render", "snow", "--size", "64x64", "--fps", "30", "--duration", "1"]
    for (shard, name) in [("0/2", "p0.mp4"), ("1/2", "p1.mp4")] {
      let r = runSleet(base + ["--shard", shard, "--out", folder + "/" + name])
      #expect(r.status == 0, "\(shard): \(r.err)")
      let video = try probeVideo(folder + "/" + name, folder: folder).get()
      #expect(video.frameCount == 15, "\(shard)")
      let duration = try #require(video.duration)
      #expect(abs(duration - 0.5) < 1e-6, "\(shard): \(duration) s")
    }
  }

  @Test func badInputsExitAsDocumentedAndLeaveNothing() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-video")
    defer { removeTree(folder) }
    let render = ["render", "snow", "--size", "40x40", "--duration", "0.2"]
    let cases: [(arguments: [String], status: Int32, message: String)] = [
      (render + ["--out", folder + "/a.mkv"], 2, "expected FILE.png, FILE.apng, FILE.webp, FILE.gif, FILE.mp4"),
      (render + ["--background", "#00000000", "--out", folder + "/a.mp4"], 2, "--background: alpha 0 < 1"),
      (render + ["--background", "#00000000", "--out", folder + "/a.mp4"], 2, "FILE.webm (VP9) or FILE.mov"),
      (render + ["--crf", "60", "--out", folder + "/a.mp4"], 2, "--crf: expected an integer in 0…51, got 60"),
      (render + ["--preset", "slowwest", "--out", folder + "/a.mp4"], 2, "--preset: expected ultrafast, superfast"),
      (render + ["--preset", "mediun", "--out", folder + "/a.mp4"], 2, "did you mean 'medium'?"),
      (render + ["--crf", "20", "--out", folder + "/a.webp"], 2, "--crf applies to MP4 output (FILE.mp4)"),
      (render + ["--preset", "fast", "--out", folder + "/a.webm"], 2, "--preset applies to MP4 output (FILE.mp4)"),
      (render + ["--out", "mp4:-"], 2, "a video cannot go to standard output"),
      (render + ["--out", "webm:-"], 2, "a video cannot go to standard output"),
      (render + ["--out", folder + "/missing/a.mp4"], 2, "does not exist"),
      (
        ["render", "snow", "--size", "40x40", "--scale", "1.5", "--duration", "0.2", "--out", folder + "/a.webm"],
        0, "wrote"
      ),
    ]
    for (arguments, status, message) in cases {
      let r = runSleet(arguments)
      #expect(r.status == status, "\(arguments): \(r.err)")
      #expect((status == 0 ? r.out : r.err).contains(message), "\(arguments): \(r.err)")
      if status != 0 { #expect(folderEntries(folder).isEmpty, "\(arguments): \(folderEntries(folder))") }
    }
    #expect(folderEntries(folder) == ["a.webm"])
  }

  @Test func anOddTransitionPictureIsPaddedForMP4() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-video")
    defer { removeTree(folder) }
    try PNGFile.write(DemoPicture.first.image(width: 33, height: 32), to: folder + "/a.png")
    try PNGFile.write(DemoPicture.second.image(width: 33, height: 32), to: folder + "/b.png")
    let pictures = ["--from", folder + "/a.png", "--to", folder + "/b.png"]
    let odd = runSleet(["transition", "render", "--style", "fade"] + pictures + ["--out", folder + "/t.mp4"])
    #expect(odd.status == 0, "\(odd.err)")
    #expect(odd.out.contains("33×32 px frames are stored at 34×32 px"), "\(odd.out)")
    #expect(try probeVideo(folder + "/t.mp4", folder: folder).get()["width"] == "34")
    let mov = runSleet(["transition", "render", "--style", "fade"] + pictures + ["--out", folder + "/t.mov"])
    #expect(mov.status == 0, "\(mov.err)")
    #expect(try probeVideo(folder + "/t.mov", folder: folder).get()["width"] == "33")
    #expect(folderEntries(folder) == ["a.png", "b.png", "t.mov", "t.mp4"])
  }

  @Test func anUnwritableFolderOrAFullDiskLeavesNoFile() throws {
    let sleet = try executable()
    let folder = makeTemporaryFolder(prefix: "sleet-video")
    defer { removeTree(folder) }
    // A file-size limit (16 blocks) far below the video's size: the write
    // fails (exit 1) and neither the file nor its temporary remains.
    for name in ["x.mp4", "x.webm", "x.mov"] {
      let r = runChild(
        [
          "/bin/sh", "-c", "ulimit -f 16 && exec \"$0\" \"$@\"", sleet, "render", "rain", "--size", "200x200", "--out",
          folder + "/" + name,
        ],
        folder: folder)
      #expect(r.termination == .exited(1), "\(name): \(r.termination): \(r.err)")
      #expect(r.err.contains("cannot write \(folder)/\(name)"), "\(name): \(r.err)")
      #expect(folderEntries(folder).isEmpty, "\(name): \(folderEntries(folder))")
    }
    let (prefix, reason) = unprivilegedPrefix()
    if let reason {
      print("VideoOutputTests: skipped the unwritable-folder case: \(reason)")
      return
    }
    #expect(chmod(folder, 0o755) == 0)
    let locked = folder + "/locked"
    #expect(mkdir(locked, 0o755) == 0)
    for name in ["x.mp4", "x.webm", "x.mov"] {
      let r = runChild(
        prefix + [sleet, "render", "likeBurst", "--size", "8x8", "--duration", "0.2", "--out", locked + "/" + name],
        folder: folder)
      #expect(r.termination == .exited(2), "\(name): \(r.err)")
      #expect(r.err.contains("cannot write in \(locked): Permission denied"), "\(name): \(r.err)")
    }
    #expect(folderEntries(locked).isEmpty)
  }

  /// The peak resident memory of a child `sleet` in kB and its exit status.
  /// The peak is the child's own `VmHWM` (/proc/PID/status), read every
  /// 5 ms until it exits: `wait4`'s `ru_maxrss` would count this test
  /// process's memory too (a spawned child records its parent's peak when
  /// it calls exec). The peak only grows, so the last reading is within
  /// 5 ms of the end.
  func peakMemory(_ arguments: [String], folder: String) -> (status: Int32, kilobytes: Int) {
    let child = Child(arguments, folder: folder)
    var peak = 0
    var status: Int32 = 0
    while true {
      let text = String(decoding: fileBytes("/proc/\(child.pid)/status") ?? [], as: UTF8.self)
      for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        peak = max(peak, kilobytes)
      }
      let reaped = waitpid(child.pid, &status, WNOHANG)
      if reaped == child.pid { break }
      usleep(5000)
    }
    unlink(child.stdoutPath)
    unlink(child.stderrPath)
    return (Termination(waitStatus: status) == .exited(0) ? 0 : 1, peak)
  }

  @Test(
    .disabled(
      if: activeSanitizer != nil,
      "a sanitizer's allocator holds freed memory back (AddressSanitizer's quarantine), so the peak grows with the frames; this test runs in the normal build"
    ))
  func memoryDoesNotGrowWithTheNumberOfFrames() throws {
    let sleet = try executable()
    let folder = makeTemporaryFolder(prefix: "sleet-video")
    defer { removeTree(folder) }
    // 192×192 px: a rendered frame is 576 KiB (16 bytes a pixel) and a
    // converted one at least 54 KiB (yuv420p), so keeping anything of each
    // frame would add at least 28 MiB over the 540 more frames. The margin
    // allows the one-off rise of a longer run (the allocator's per-thread
    // arenas as more threads take part: under 10 MiB, the same at 600, 1200
    // or 2400 frames).
    for name in ["a.mp4", "a.webm", "a.mov"] {
      var peaks: [Int] = []
      for seconds in ["1", "10"] {
        let r = peakMemory(
          [
            sleet, "render", "snow", "--size", "192x192", "--fps", "60", "--duration", seconds, "--out",
            folder + "/" + name, "--force",
          ], folder: folder)
        #expect(r.status == 0, "\(name) \(seconds) s")
        peaks.append(r.kilobytes)
      }
      #expect(try probeVideo(folder + "/" + name, folder: folder).get().frameCount == 600, "\(name)")
      #expect(peaks[1] <= peaks[0] + 16 * 1024, "\(name): peak \(peaks[0]) kB at 60 frames, \(peaks[1]) kB at 600")
      print("VideoOutputTests: \(name): peak \(peaks[0]) kB at 60 frames, \(peaks[1]) kB at 600")
    }
  }
}
