import Glibc
import SleetKit
import Synchronization
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// Runs `sleet` in-process with a binary stdout and stderr that reports
/// whether it is a terminal (`terminal`, to see progress lines).
func runSleetBinary(
  _ arguments: [String], terminal: Bool = false
) -> (status: Int32, data: [UInt8], out: String, err: String) {
  let data = Mutex<[UInt8]>([]), out = Mutex(""), err = Mutex("")
  let status = SleetCommandLine.run(
    arguments,
    output: CommandOutput(
      standardOutput: { s in out.withLock { $0 += s } }, standardError: { s in err.withLock { $0 += s } },
      errorIsTerminal: terminal,
      standardOutputData: { bytes in data.withLock { $0 += bytes } }))
  return (status, data.withLock { $0 }, out.withLock { $0 }, err.withLock { $0 })
}

/// docs/rendering.md, "Outputs": existing outputs, inputs, `-`, refused paths,
/// and the order of the checks.
@Suite("sleet outputs: --force, inputs, standard output, refused paths")
struct OutputTests {
  /// Writes two 12×9 pictures, a gesture and an effect file with a PNG sprite
  /// into `folder`.
  func writeInputs(_ folder: String) throws {
    try PNGFile.write(DemoPicture.first.image(width: 12, height: 9), to: folder + "/a.png")
    try PNGFile.write(DemoPicture.second.image(width: 12, height: 9), to: folder + "/b.png")
    try FileOutput.atomicWrite(
      Array(#"{"samples": [{"time": 0, "translationX": 0}, {"time": 0.1, "translationX": 9}]}"#.utf8),
      to: folder + "/pan.json")
    try PNGFile.write(DemoPicture.first.image(width: 4, height: 4), to: folder + "/dot.png")
    try FileOutput.atomicWrite(
      Array(
        #"{"format": 1, "emitterCells": [{"name": "dot", "birthRate": 10, "lifetime": 2, "contents": "dot.png"}]}"#
          .utf8), to: folder + "/fx.json")
  }

  @Test func anExistingFileIsReplacedOnlyWithForce() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try writeInputs(folder)
    let transition = [
      "transition", "render", "--style", "fade", "--from", folder + "/a.png", "--to", folder + "/b.png",
    ]
    let cases: [(arguments: [String], path: String)] = [
      (["render", "likeBurst", "--size", "6x6", "--time", "0.2", "--out", folder + "/s.png"], folder + "/s.png"),
      (["render", "likeBurst", "--size", "6x6", "--duration", "0.2", "--out", folder + "/s.apng"], folder + "/s.apng"),
      (transition + ["--out", folder + "/t.png"], folder + "/t.png"),
      (
        ["shatter", "render", "--from", folder + "/a.png", "--to", folder + "/b.png", "--out", folder + "/c.apng"],
        folder + "/c.apng"
      ),
      (["presets", "export", "snow", "--out", folder + "/snow.json"], folder + "/snow.json"),
    ]
    for (arguments, path) in cases {
      try FileOutput.atomicWrite([7, 7, 7], to: path)
      let refused = runSleet(arguments)
      #expect(refused.status == 2, "\(arguments)")
      #expect(refused.err.contains("--out \(path): the file exists; give --force to replace it"), "\(refused.err)")
      #expect(fileBytes(path) == [7, 7, 7])
      let forced = runSleet(arguments + ["--force"])
      #expect(forced.status == 0, "\(arguments): \(forced.err)")
      #expect(fileBytes(path) != [7, 7, 7])
    }
    // No temporary files left anywhere.
    #expect(folderEntries(folder).allSatisfy { !$0.hasPrefix(".") })
  }

  @Test func inputsAreNeverWrittenOverEvenWithForce() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try writeInputs(folder)
    // A gesture file may have any name, even one an output could have.
    #expect(link(folder + "/pan.json", folder + "/pan.apng") == 0)
    let before = folderEntries(folder).map { fileBytes(folder + "/" + $0) }
    let zoom = [
      "transition", "render", "--style", "zoom", "--from", folder + "/a.png", "--to", folder + "/b.png",
      "--image-rect", "1,1,4,4", "--target-rect", "0,0,12,9",
    ]
    let slide = ["transition", "render", "--style", "slide", "--from", folder + "/a.png", "--to", folder + "/b.png"]
    // Spelled differently from the input (./, a symbolic link) on purpose.
    #expect(symlink(folder + "/b.png", folder + "/link.png") == 0)
    let cases: [([String], String)] = [
      (
        ["shatter", "render", "--from", folder + "/a.png", "--to", folder + "/b.png", "--out", folder + "/./a.png"],
        "--out \(folder)/./a.png and --from \(folder)/a.png are the same file"
      ),
      (slide + ["--out", folder + "/link.png"], "--out \(folder)/link.png and --to \(folder)/b.png are the same file"),
      (zoom + ["--image", folder + "/dot.png", "--out", folder + "/dot.png"], "and --image \(folder)/dot.png"),
      (slide + ["--gesture", folder + "/pan.apng", "--out", folder + "/pan.apng"], "and --gesture \(folder)/pan.apng"),
      (["render", folder + "/fx.json", "--size", "6x6", "--out", folder + "/dot.png"], "and the sprite"),
    ]
    for (arguments, message) in cases {
      let r = runSleet(arguments + ["--force"])
      #expect(r.status == 2, "\(arguments)")
      #expect(r.err.contains(message), "\(arguments): \(r.err)")
    }
    #expect(folderEntries(folder).filter { $0 != "link.png" }.map { fileBytes(folder + "/" + $0) } == before)
    // A frame of a folder output that is an input: refused before removing.
    let frames = folder + "/frames"
    #expect(runSleet(["render", "likeBurst", "--size", "6x6", "--duration", "0.1", "--out", frames]).status == 0)
    let frame = frames + "/frame-0001.png"
    let into = runSleet([
      "shatter", "render", "--from", frame, "--to", frame, "--out", frames, "--force",
    ])
    #expect(into.status == 2)
    #expect(into.err.contains("--out \(frames) holds frame-0001.png, which is --from \(frame)"), "\(into.err)")
    #expect(folderEntries(frames) == ["frame-0000.png", "frame-0001.png", "frame-0002.png"])
  }

  @Test func aFolderNeverMixesOldAndNewFrames() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let frames = folder + "/frames"
    let long = [
      "render", "sparkle", "--size", "6x6", "--start", "1", "--duration", "0.5", "--fps", "10", "--out", frames,
    ]
    #expect(runSleet(long).status == 0)
    #expect(folderEntries(frames).count == 5)
    try FileOutput.atomicWrite([1], to: frames + "/notes.txt")
    let short = [
      "render", "sparkle", "--size", "6x6", "--start", "2", "--duration", "0.2", "--fps", "10", "--out", frames,
    ]
    let refused = runSleet(short)
    #expect(refused.status == 2)
    #expect(refused.err.contains("--out \(frames): holds 5 frame-*.png files of an earlier run; give --force"))
    #expect(folderEntries(frames).count == 6)
    let forced = runSleet(short + ["--force"])
    #expect(forced.status == 0, "\(forced.err)")
    // Exactly the new frames (and the file that is not a frame).
    #expect(folderEntries(frames) == ["frame-0000.png", "frame-0001.png", "notes.txt"])
    let still = runSleet(["render", "sparkle", "--size", "6x6", "--time", "2.1", "--out", folder + "/s.png"])
    #expect(still.status == 0)
    #expect(fileBytes(frames + "/frame-0001.png") == fileBytes(folder + "/s.png"))
  }

  @Test func aDemoFolderIsReplacedOnlyWithForce() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let demo = ["demo", "--scale", "0.05", "--fps", "2", "--out", folder]
    #expect(runSleet(demo + ["--only", "likeBurst,fade"]).status == 0)
    try FileOutput.atomicWrite([1], to: folder + "/notes.txt")
    let refused = runSleet(demo + ["--only", "likeBurst"])
    #expect(refused.status == 2)
    #expect(refused.err.contains("holds 13 files of a demo of an earlier run; give --force"), "\(refused.err)")
    let forced = runSleet(demo + ["--only", "likeBurst", "--force"])
    #expect(forced.status == 0, "\(forced.err)")
    // The fade entries of the first run are gone with the rest.
    #expect(
      folderEntries(folder) == [
        "index.html", "likeBurst-sheet.png", "likeBurst.apng", "likeBurst.mp4", "likeBurst.webp", "notes.txt",
      ])
  }

  @Test func dashIsStandardOutputForOneFile() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try writeInputs(folder)
    let still = ["render", "sparkle", "--size", "10x8", "--time", "1.5"]
    let animation = ["render", "sparkle", "--size", "10x8", "--start", "1", "--duration", "1.2", "--fps", "30"]
    let transition = [
      "transition", "render", "--style", "fade", "--from", folder + "/a.png", "--to", folder + "/b.png",
    ]
    let cases: [([String], String, String)] = [
      (still, "-", "s.png"), (still, "png:-", "s.png"), (animation, "apng:-", "a.apng"),
      (transition + ["--fps", "20"], "apng:-", "t.apng"), (transition, "-", "t.png"),
    ]
    for (arguments, dash, file) in cases {
      let piped = runSleetBinary(arguments + ["--out", dash])
      #expect(piped.status == 0, "\(arguments): \(piped.err)")
      #expect(piped.out.isEmpty && piped.err.hasPrefix("wrote standard output ("), "\(piped.err)")
      let written = runSleet(arguments + ["--out", folder + "/" + file, "--force"])
      #expect(written.status == 0)
      #expect(piped.data == fileBytes(folder + "/" + file), "\(arguments) \(dash)")
    }
    // 33 frames: two batches, one stream with the count announced up front.
    let apng = runSleetBinary(animation + ["--out", "apng:-"])
    #expect(apngSummary(apng.data)?.frames == 36)
    // A gesture's report goes to stderr too when the animation is on stdout.
    let gesture = runSleetBinary(
      ["transition", "render", "--style", "slide", "--from", folder + "/a.png", "--to", folder + "/b.png"]
        + ["--gesture", folder + "/pan.json", "--out", "apng:-"])
    #expect(gesture.status == 0 && gesture.out.isEmpty && gesture.err.hasPrefix("gesture: released"))
    // Export: `--out -` prints.
    #expect(runSleet(["presets", "export", "snow", "--out", "-"]).out == runSleet(["presets", "export", "snow"]).out)
  }

  @Test func foldersAndDevicesAreRefusedClearly() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    #expect(symlink("/dev/null", folder + "/null.png") == 0)
    #expect(mkdir(folder + "/dir.png", 0o755) == 0)
    try FileOutput.atomicWrite([1], to: folder + "/file")
    let render = ["render", "likeBurst", "--size", "6x6"]
    let cases: [(String, String)] = [
      ("/", "--out /: refusing to write into / (the root folder)"),
      ("/x.png", "--out /x.png: refusing to write into / (the root folder)"),
      ("/dev/stdout.png", "--out /dev/stdout.png: refusing to write under /dev (a system folder)"),
      ("/dev/shm/frames/", "--out /dev/shm/frames: refusing to write under /dev"),
      ("/proc/self/fd/1", "--out /proc/self/fd/1: refusing to write under /proc"),
      ("/sys/x.apng", "--out /sys/x.apng: refusing to write under /sys"),
      (folder + "/null.png", "--out \(folder)/null.png: is a device or other special file"),
      (folder + "/dir.png", "--out \(folder)/dir.png: is a folder, not a file"),
      (folder + "/file", "--out \(folder)/file: exists and is not a folder"),
      (folder + "/file/x.png", "--out \(folder)/file/x.png: \(folder)/file is not a folder"),
      ("-/", "--out -/: standard output takes one file (PNG, APNG, WebP or GIF), not a folder"),
      ("", "--out: the path is empty"),
    ]
    for (path, message) in cases {
      let r = runSleet(render + ["--out", path, "--force"])
      #expect(r.status == 2, "\(path)")
      #expect(r.err.contains(message), "\(path): \(r.err)")
    }
    let demo = runSleet(["demo", "--out", "-"])
    #expect(demo.status == 2 && demo.err.contains("--out -: standard output takes one file"))
    let export = runSleet(["presets", "export", "snow", "--out", "/dev/null", "--force"])
    #expect(export.status == 2 && export.err.contains("refusing to write under /dev"))
    #expect(folderEntries(folder) == ["dir.png", "file", "null.png"])
  }

  @Test func theOutputIsCheckedBeforeAnyRendering() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try writeInputs(folder)
    try FileOutput.atomicWrite([1], to: folder + "/taken.apng")
    // With a terminal, progress would show every rendered batch.
    let cases: [[String]] = [
      ["render", "snow", "--start", "45", "--duration", "20", "--out", folder + "/missing/x.apng"],
      ["render", "snow", "--start", "45", "--duration", "20", "--out", folder + "/taken.apng"],
      ["render", "snow", "--start", "45", "--duration", "20", "--out", folder + "/missing/frames/"],
      [
        "transition", "render", "--style", "fade", "--from", folder + "/a.png", "--to", folder + "/b.png", "--hold",
        "60", "--out", folder + "/a.png",
      ],
    ]
    for arguments in cases {
      let clock = ContinuousClock.now
      let r = runSleetBinary(arguments, terminal: true)
      #expect(r.status == 2, "\(arguments)")
      #expect(!r.err.contains("render: frame"), "\(arguments): \(r.err)")
      #expect(ContinuousClock.now - clock < .seconds(5), "\(arguments)")
    }
  }

  @Test func batchesAreBoundedInFramesAndBytes() {
    let times = (0..<100).map(Double.init)
    for (width, height, size) in [(20, 20, 32), (390, 844, 32), (780, 1688, 12), (8192, 8192, 1)] {
      let batches = RenderOutput.batches(times, width: width, height: height)
      #expect(batches.first?.count == size, "\(width)×\(height)")
      #expect(Array(batches.joined()) == times)
    }
  }

  @Test func oneFrameLimitAndOneImageSizeLimitForEveryCommand() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    // The frame limit does not depend on the format (every format streams to disk).
    for out in [folder + "/x.apng", folder + "/frames"] {
      let over = runSleet(["render", "snow", "--duration", "3600", "--fps", "28", "--out", out])
      #expect(over.status == 2 && over.err.contains("--duration × --fps: 100800 frames, at most 100000"), "\(over.err)")
    }
    let demo = runSleet(["demo", "--scale", "16", "--out", folder + "/demo"])
    #expect(demo.status == 2 && demo.err.contains("--scale: 6240×13504 px: at most 8192 px a side"), "\(demo.err)")
    try PNGFile.write(RGBAImage(width: 8193, height: 1), to: folder + "/wide-a.png")
    try PNGFile.write(RGBAImage(width: 8193, height: 1), to: folder + "/wide-b.png")
    let wide = runSleet([
      "transition", "render", "--style", "fade", "--from", folder + "/wide-a.png", "--to", folder + "/wide-b.png",
      "--out", folder + "/w.png",
    ])
    #expect(
      wide.status == 2
        && wide.err.contains(
          "--from: invalid image \(folder)/wide-a.png: the image is 8193×1 px: at most 8192 px a side"),
      "\(wide.err)")
    #expect(folderEntries(folder) == ["wide-a.png", "wide-b.png"])
  }
}
