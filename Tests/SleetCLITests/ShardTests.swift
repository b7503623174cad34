import Glibc
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// `--frames A-B` and `--shard i/n` (docs/rendering.md, "Splitting a render
/// across processes or machines"): the pieces of a split render are the
/// whole render's frames, byte for byte, under the same names.
@Suite("--frames and --shard")
struct ShardTests {
  /// The files of `folder` and their bytes, by name.
  func files(_ folder: String) -> [String: [UInt8]] {
    var out: [String: [UInt8]] = [:]
    for name in folderEntries(folder) { out[name] = fileBytes(folder + "/" + name) }
    return out
  }

  /// Runs `command + [--out folder/name] + extra` for each `extra` into one
  /// folder and expects every run to succeed; returns the folder's files.
  func renderPieces(_ command: [String], into folder: String, pieces: [[String]]) -> [String: [UInt8]] {
    for piece in pieces {
      let r = runSleet(command + ["--out", folder] + piece)
      #expect(r.status == 0, "\(piece): \(r.err)")
    }
    return files(folder)
  }

  /// Checks that the pieces equal the whole render frame for frame, and that
  /// the whole render's frame at each piece's start differs from its
  /// neighbours (so a piece shifted by one frame could not pass).
  func expectSameFrames(
    _ whole: [String: [UInt8]], _ pieces: [String: [UInt8]], count: Int, starts: [Int], _ what: String
  ) {
    #expect(whole.keys.sorted() == (0..<count).map { String(format4($0)) }, "\(what)")
    for k in starts where k > 0 {
      let (before, frame, after) = (whole[format4(k - 1)], whole[format4(k)], whole[format4(k + 1)])
      #expect(before != frame && frame != after, "\(what): frame \(k) differs from frames \(k - 1) and \(k + 1)")
    }
    #expect(pieces.keys.sorted() == whole.keys.sorted(), "\(what)")
    for (name, bytes) in whole.sorted(by: { $0.key < $1.key }) {
      let same = pieces[name] == bytes
      #expect(same, "\(what): \(name) is the whole render's")
    }
  }

  func format4(_ k: Int) -> String {
    let n = String(k)
    return "frame-" + String(repeating: "0", count: Swift.max(0, 4 - n.count)) + n + ".png"
  }

  @Test func particleShardsAndRangesEqualTheWholeRender() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    // Snow at 30 s: every frame is a seek into a full sky. Ten frames; the
    // pieces start at frames the whole render's workers do not (3, 6, 7).
    let render = [
      "render", "snow", "--size", "40x30", "--duration", "1", "--fps", "10", "--start", "30", "--seed", "4",
    ]
    let whole = renderPieces(render, into: folder + "/whole/", pieces: [[]])
    let shards = renderPieces(
      render, into: folder + "/shards/", pieces: [["--shard", "2/3"], ["--shard", "0/3"], ["--shard", "1/3"]])
    #expect(Set(whole.values).count == 10, "every frame differs")
    expectSameFrames(whole, shards, count: 10, starts: [3, 6], "--shard i/3")
    let ranges = renderPieces(
      render, into: folder + "/ranges/",
      pieces: [["--frames", "7-"], ["--frames", "0-2"], ["--frames", "3-6"]])
    expectSameFrames(whole, ranges, count: 10, starts: [3, 7], "--frames")
    // One frame alone, with its global name.
    let one = renderPieces(render, into: folder + "/one/", pieces: [["--frames", "5"]])
    let alone = one == ["frame-0005.png": whole["frame-0005.png"]!]
    #expect(alone, "frame 5 alone is frame-0005.png, the whole render's")
  }

  @Test func shardsAreContiguousBlocksInOrder() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let render = ["render", "likeBurst", "--size", "20x20", "--duration", "1", "--fps", "10", "--seed", "1"]
    var seen: [[String]] = []
    for i in 0..<4 {
      let out = folder + "/s\(i)/"
      let r = runSleet(render + ["--shard", "\(i)/4", "--out", out])
      #expect(r.status == 0, "\(r.err)")
      seen.append(folderEntries(out))
    }
    // 10 frames in 4 blocks: ⌊i·10/4⌋ ..< ⌊(i+1)·10/4⌋.
    #expect(seen == [[0, 1], [2, 3, 4], [5, 6], [7, 8, 9]].map { $0.map(format4) })
  }

  @Test func transitionShardsEqualTheWholeRender() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try PNGFile.write(DemoPicture.first.image(width: 30, height: 24), to: folder + "/a.png")
    try PNGFile.write(DemoPicture.second.image(width: 30, height: 24), to: folder + "/b.png")
    let pictures = ["--from", folder + "/a.png", "--to", folder + "/b.png"]
    // The checkerboard at 10 fps.
    let transition = ["transition", "render", "--style", "checkerboard", "--fps", "10"] + pictures
    let whole = renderPieces(transition, into: folder + "/whole/", pieces: [[]])
    let count = whole.count
    #expect(count > 8)
    let shards = renderPieces(
      transition, into: folder + "/shards/", pieces: [["--shard", "1/3"], ["--shard", "0/3"], ["--shard", "2/3"]])
    expectSameFrames(whole, shards, count: count, starts: [count / 3, 2 * count / 3], "transition render --shard")
    // The alias, in ranges.
    let shatter = ["shatter", "render", "--style", "checkerboard", "--fps", "10"] + pictures
    let ranges = renderPieces(
      shatter, into: folder + "/ranges/", pieces: [["--frames", "0-\(count / 2 - 1)"], ["--frames", "\(count / 2)-"]])
    expectSameFrames(whole, ranges, count: count, starts: [count / 2], "shatter render --frames")
  }

  @Test func gestureReplayShardsEqualTheWholeReplay() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try PNGFile.write(DemoPicture.first.image(width: 40, height: 30), to: folder + "/a.png")
    try PNGFile.write(DemoPicture.second.image(width: 40, height: 30), to: folder + "/b.png")
    // Dragged to 70 % over 0.2 s and released: finishes at speed 1.
    try Array(
      #"{"samples": [{"time": 0, "translationX": 0}, {"time": 0.1, "translationX": 14}, {"time": 0.2, "translationX": 28}]}"#
        .utf8
    ).write(to: folder + "/pan.json")
    let replay = [
      "transition", "render", "--style", "slide", "--from", folder + "/a.png", "--to", folder + "/b.png",
      "--gesture", folder + "/pan.json", "--fps", "30",
    ]
    let whole = renderPieces(replay, into: folder + "/whole/", pieces: [[]])
    // 11 frames; the progress holds between samples (frames 0-2 and 3-5
    // are alike), so the pieces split where neighbours differ.
    #expect(whole.count == 11)
    let pieces = renderPieces(replay, into: folder + "/pieces/", pieces: [["--frames", "7-"], ["--frames", "0-6"]])
    expectSameFrames(whole, pieces, count: whole.count, starts: [7], "--gesture --frames")
    let shards = renderPieces(replay, into: folder + "/shards/", pieces: [["--shard", "1/2"], ["--shard", "0/2"]])
    expectSameFrames(whole, shards, count: whole.count, starts: [], "--gesture --shard")
  }

  @Test func animatedPieceIsAnAnimationOfJustThoseFrames() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let render = [
      "render", "snow", "--size", "40x30", "--duration", "1", "--fps", "10", "--start", "30", "--seed", "4",
    ]
    let whole = renderPieces(render, into: folder + "/whole/", pieces: [[]])
    let r = runSleet(render + ["--frames", "3-6", "--out", folder + "/piece.apng"])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out.contains("4 frames: 3-6 of 10"))
    let bytes = try #require(fileBytes(folder + "/piece.apng"))
    let summary = try #require(apngSummary(bytes))
    #expect(summary.frames == 4)
    #expect(summary.delays.allSatisfy { $0 == (1, 10) })
    // Its first frame (the default image) is frame 3 of the whole render.
    let first = try PNGFile.read(path: folder + "/piece.apng").straightRGBA8()
    let frame3 = try PNGFile.decode(whole["frame-0003.png"]!).straightRGBA8()
    let frame2 = try PNGFile.decode(whole["frame-0002.png"]!).straightRGBA8()
    let (isFrame3, isFrame2) = (first == frame3, first == frame2)
    #expect(isFrame3 && !isFrame2, "the piece starts at frame 3")
  }

  @Test func aPieceOwnsOnlyItsFramesInTheFolder() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let out = folder + "/frames"
    let render = ["render", "likeBurst", "--size", "20x20", "--duration", "1", "--fps", "10", "--out", out]
    #expect(runSleet(render + ["--shard", "0/2"]).status == 0)
    // A second piece writes beside the first without --force.
    #expect(runSleet(render + ["--shard", "1/2"]).status == 0)
    #expect(folderEntries(out).count == 10)
    // Again without --force: its own frames are there, refused.
    let again = runSleet(render + ["--shard", "0/2"])
    #expect(again.status == 2)
    #expect(again.err.contains("--out \(out): holds 5 files of frames 0-4 (frame-0000.png … frame-0004.png)"))
    // The whole render is refused too: the folder holds frames.
    #expect(runSleet(render).status == 2)
    // With --force a piece replaces its own frames only; the other piece's
    // files and the live temporary file of a writer on another machine
    // (its pid unknown here) stay, a dead writer's temporary for its own
    // frame goes.
    let child = exitedProcessID()
    let otherPiece = ".frame-0007.png.tmp-\(child)-abcdef"
    let ownPiece = ".frame-0002.png.tmp-\(child)-abcdef"
    for name in [otherPiece, ownPiece] { try FileOutput.atomicWrite([0], to: out + "/" + name) }
    let seven = fileBytes(out + "/frame-0007.png")
    try FileOutput.atomicWrite([1, 2, 3], to: out + "/frame-0003.png")
    #expect(runSleet(render + ["--shard", "0/2", "--force"]).status == 0)
    let names = folderEntries(out)
    #expect(names.contains(otherPiece))
    #expect(!names.contains(ownPiece))
    #expect(fileBytes(out + "/frame-0007.png") == seven)
    #expect(fileBytes(out + "/frame-0003.png") != [1, 2, 3])
    #expect(names.filter(OutputCheck.isFrameName).count == 10)
  }

  @Test func badSelectionsAreUsageErrorsNamingTheFlag() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try PNGFile.write(DemoPicture.first.image(width: 20, height: 20), to: folder + "/a.png")
    try PNGFile.write(DemoPicture.second.image(width: 20, height: 20), to: folder + "/b.png")
    // 10 frames.
    let render = ["render", "likeBurst", "--size", "20x20", "--duration", "1", "--fps", "10"]
    let frames = render + ["--out", folder + "/out/"]
    let transition = [
      "transition", "render", "--style", "fade", "--from", folder + "/a.png", "--to", folder + "/b.png",
    ]
    let cases: [([String], String)] = [
      (frames + ["--frames", "5-3"], "--frames 5-3: the last frame is before the first, so the range is empty"),
      (frames + ["--frames", "x"], "--frames: expected A-B (the first and last frame, counted from 0, inclusive)"),
      (frames + ["--frames", "-1"], "--frames: expected A-B"),
      (frames + ["--frames", "1-2-3"], "--frames: expected A-B"),
      (frames + ["--frames", "+1-2"], "--frames: expected A-B"),
      (frames + ["--frames", "3-10"], "--frames 3-10: out of range: the animation has 10 frames, 0-9"),
      (frames + ["--frames", "10-"], "--frames 10-: out of range: the animation has 10 frames, 0-9"),
      (frames + ["--frames", "99999999999999999999"], "--frames: expected A-B"),
      (frames + ["--shard", "4/4"], "--shard 4/4: i must be less than n (shards are counted from 0: 0/4 … 3/4)"),
      (frames + ["--shard", "0/0"], "--shard 0/0: n must be at least 1"),
      (frames + ["--shard", "1"], "--shard: expected i/n"),
      (frames + ["--shard", "1/2/3"], "--shard: expected i/n"),
      (frames + ["--shard", "-1/2"], "--shard: expected i/n"),
      (frames + ["--shard", "0/11"], "--shard 0/11: the animation has 10 frames, fewer than 11 shards"),
      (frames + ["--shard", "0/2", "--frames", "0-1"], "--frames and --shard: give one, not both"),
      (frames + ["--shard", "0/2", "--shard", "1/2"], "--shard given twice"),
      (
        render + ["--out", folder + "/s.png", "--frames", "0"],
        "--frames applies to animations (FILE.apng or a folder), not to a still FILE.png"
      ),
      (render + ["--out", "-", "--shard", "0/2"], "--shard applies to animations"),
      (transition + ["--out", folder + "/t.png", "--shard", "0/2"], "--shard applies to animations"),
      (transition + ["--out", folder + "/t/", "--frames", "200-"], "--frames 200-: out of range"),
      (transition + ["--out", folder + "/t.apng", "--shard", "1/1000"], "fewer than 1000 shards"),
      (
        ["shatter", "render", "--from", folder + "/a.png", "--to", folder + "/b.png", "--out", folder + "/t/"]
          + ["--frames", "2-1"], "--frames 2-1: the last frame is before the first"
      ),
    ]
    for (arguments, message) in cases {
      let r = runSleet(arguments)
      #expect(r.status == 2, "\(arguments)")
      #expect(r.err.contains(message), "\(arguments): \(r.err)")
    }
    // Nothing was written.
    #expect(folderEntries(folder) == ["a.png", "b.png"])
  }

  @Test func selectionArithmetic() throws {
    // Every shard count splits every length into contiguous blocks, in
    // order, covering each frame once, sizes within one of each other.
    for total in [1, 2, 7, 10, 31, 100] {
      for n in 1...total where n <= 12 {
        var next = 0
        var sizes: [Int] = []
        for i in 0..<n {
          let s = try FrameRequest.shard(index: i, count: n).select(total: total)
          #expect(s.range.lowerBound == next && !s.range.isEmpty, "\(i)/\(n) of \(total)")
          #expect(s.total == total && s.isAll == (n == 1))
          next = s.range.upperBound
          sizes.append(s.range.count)
        }
        #expect(next == total)
        #expect(sizes.max()! - sizes.min()! <= 1)
      }
    }
    // Folder names keep the whole animation's width in every piece.
    let wide = try FrameRequest.frames(first: 3, last: 4).select(total: 10_001)
    #expect(wide.fileName(3) == "frame-00003.png")
    #expect(wide.owns("frame-00004.png") && !wide.owns("frame-0004.png") && !wide.owns("frame-00005.png"))
    #expect(!wide.owns("frame-0000x.png") && !wide.owns(".frame-00003.png"))
    #expect(FrameSelection.all(10).owns("frame-9999999.png"))
    let times = (0..<10).map { 30 + Double($0) / 7 }
    #expect(try FrameRequest.frames(first: 4, last: nil).select(total: 10).times(times) == Array(times[4...]))
  }
}
