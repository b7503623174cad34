import Glibc
import SleetKit
import Testing
import _SleetTestSupport

/// Faults, run through the built `sleet` executable (docs/reliability.md, "Faults"):
/// an output folder the user may not write, a full disk or file-size limit,
/// a full standard output, and a render killed midway.
@Suite("faults: unwritable folder, disk full, killed mid-render")
struct FaultTests {
  func executable() throws -> String {
    try #require(sleetExecutable(), "the sleet executable is not beside the test bundle: build the package first")
  }

  @Test func anUnwritableOutputFolderIsRefusedBeforeAnyWork() throws {
    let (prefix, reason) = unprivilegedPrefix()
    if let reason {
      print("FaultTests: skipped the unwritable-folder test: \(reason)")
      return
    }
    let sleet = try executable()
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    // Owned by the test's user with mode 0755: others may enter, not write.
    #expect(chmod(folder, 0o755) == 0)
    let locked = folder + "/locked"
    #expect(mkdir(locked, 0o755) == 0)
    try FileOutput.atomicWrite([1, 2, 3], to: locked + "/old.png")
    let cases: [[String]] = [
      ["render", "likeBurst", "--size", "8x8", "--time", "0.3", "--out", locked + "/x.png"],
      ["render", "likeBurst", "--size", "8x8", "--duration", "0.2", "--out", locked + "/x.apng"],
      ["render", "likeBurst", "--size", "8x8", "--duration", "0.2", "--out", locked],
      ["render", "likeBurst", "--size", "8x8", "--duration", "0.2", "--out", locked + "/frames"],
      ["render", "likeBurst", "--size", "8x8", "--time", "0.3", "--out", locked + "/old.png", "--force"],
      ["presets", "export", "snow", "--out", locked + "/snow.json"],
      ["demo", "--scale", "0.1", "--fps", "2", "--only", "likeBurst", "--out", locked],
    ]
    for arguments in cases {
      let r = runChild(prefix + [sleet] + arguments, folder: folder)
      #expect(r.termination == .exited(2), "\(arguments): \(r.err)")
      #expect(r.err.contains("cannot write in \(locked): Permission denied"), "\(arguments): \(r.err)")
    }
    #expect(folderEntries(locked) == ["old.png"])
    #expect(fileBytes(locked + "/old.png") == [1, 2, 3])
  }

  @Test(
    .disabled(
      if: activeSanitizer == "ThreadSanitizer",
      "ThreadSanitizer's runtime dies with SIGBUS under a small ulimit -f (file-backed shadow memory)"))
  func aFileSizeLimitFailsTheWriteAndKeepsThePreviousFile() throws {
    let sleet = try executable()
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    for name in ["x.apng", "x.png"] {
      let path = folder + "/" + name
      let small = name == "x.apng" ? ["--duration", "0.1"] : ["--time", "9"]
      let old = runChild([sleet, "render", "likeBurst", "--size", "8x8"] + small + ["--out", path], folder: folder)
      #expect(old.termination == .exited(0), "\(old.err)")
      let previous = try #require(fileBytes(path))
      // At most 16 blocks of 512 bytes (8 KiB; 16 KiB where ulimit counts
      // KiB): far less than these renders write. Past the limit a write
      // fails with EFBIG (sleet ignores SIGXFSZ).
      let big =
        name == "x.apng"
        ? ["render", "rain", "--size", "200x200", "--start", "2", "--duration", "0.5"]  // ≈ 110 kB
        : ["render", "rain", "--time", "2.5"]  // ≈ 30 kB
      let r = runChild(
        ["/bin/sh", "-c", "ulimit -f 16 && exec \"$0\" \"$@\"", sleet] + big + ["--out", path, "--force"],
        folder: folder)
      #expect(r.termination == .exited(1), "\(name): \(r.termination): \(r.err)")
      #expect(r.err.contains("cannot write \(path): write failed: \(String(cString: strerror(EFBIG)))"), "\(r.err)")
      #expect(fileBytes(path) == previous, "\(name)")
    }
    // Nothing partial, no temporary file left.
    #expect(folderEntries(folder) == ["x.apng", "x.png"])
  }

  @Test func aFullStandardOutputIsAFailure() throws {
    let sleet = try executable()
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let cases: [[String]] = [
      ["presets", "export", "snow"],
      ["particles", "dump", "--effect", "snow", "--time", "3"],
      ["shatter", "plan", "--size", "390x844", "--json"],
      ["info"],
      ["render", "likeBurst", "--size", "8x8", "--time", "0.3", "--out", "-"],
      ["render", "likeBurst", "--size", "8x8", "--duration", "0.5", "--out", "apng:-"],
    ]
    for arguments in cases {
      let full = runChild([sleet] + arguments, folder: folder, stdoutPath: "/dev/full")
      #expect(full.termination == .exited(1), "\(arguments): \(full.err)")
      #expect(
        full.err.contains("cannot write to standard output: \(String(cString: strerror(ENOSPC)))"),
        "\(arguments): \(full.err)")
      // The same command into a file succeeds, with nothing on stderr but
      // the report of a binary output.
      let ok = runChild([sleet] + arguments, folder: folder)
      #expect(ok.termination == .exited(0) && !ok.out.isEmpty, "\(arguments): \(ok.err)")
      #expect(!ok.err.contains("cannot write"), "\(arguments): \(ok.err)")
    }
  }

  @Test func aRenderKilledMidwayLeavesThePreviousFileAndNoPartialOne() throws {
    let sleet = try executable()
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let path = folder + "/x.apng"
    let old = runChild(
      [sleet, "render", "likeBurst", "--size", "8x8", "--duration", "0.1", "--out", path], folder: folder)
    #expect(old.termination == .exited(0), "\(old.err)")
    let previous = try #require(fileBytes(path))
    // A render of minutes, killed once its temporary file holds frames (so
    // the frames are streamed to disk as they are rendered).
    let child = Child(
      [
        sleet, "render", "snow", "--size", "200x400", "--start", "45", "--duration", "120", "--fps", "30", "--out",
        path, "--force",
      ], folder: folder)
    var temporary: String?
    let deadline = ContinuousClock.now + .seconds(300)
    while temporary == nil && ContinuousClock.now < deadline {
      for name in folderEntries(folder) where FileOutput.parseTemporaryName(name)?.name == "x.apng" {
        var info = stat()
        if stat(folder + "/" + name, &info) == 0 && info.st_size > 10_000 { temporary = name }
      }
      usleep(20_000)
    }
    kill(child.pid, SIGKILL)
    let r = child.wait()
    #expect(r.termination == .signalled(SIGKILL), "\(r.termination): \(r.err)")
    let name = try #require(temporary, "no temporary file with frames appeared")
    #expect(FileOutput.parseTemporaryName(name)?.pid == child.pid)
    // The previous file is intact; the partial one is only the hidden,
    // recognisably temporary file.
    #expect(fileBytes(path) == previous)
    #expect(folderEntries(folder) == [name, "x.apng"])
    // The next render to the same file removes the killed writer's leftover.
    let next = runChild(
      [sleet, "render", "likeBurst", "--size", "8x8", "--duration", "0.2", "--out", path, "--force"], folder: folder)
    #expect(next.termination == .exited(0), "\(next.err)")
    #expect(folderEntries(folder) == ["x.apng"])
    #expect(try apngSummary(#require(fileBytes(path)))?.frames == 6)
  }
}
