import Foundation
import Glibc
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// One row of the exit-status table in docs/cli.md: the situation as the
/// table words it, the status, and command lines that produce it (run in a
/// scratch folder holding the files the row needs).
struct ExitStatusRow: CustomTestStringConvertible, Sendable {
  var situation: String
  var status: Int32
  /// Each case: arguments (`@` stands for the scratch folder) and a part of
  /// the message expected on stderr ("" for none).
  var cases: [([String], String)]
  /// Run through the `sleet` executable with standard output on /dev/full
  /// (a failing write cannot happen in-process, where output is a string).
  var standardOutputIsFull = false
  /// Run through the `sleet` executable without a display (`DISPLAY`,
  /// `WAYLAND_DISPLAY` and `SDL_VIDEODRIVER` unset).
  var withoutDisplay = false

  var testDescription: String { situation }

  static let all: [ExitStatusRow] = [
    ExitStatusRow(
      situation: "success", status: 0,
      cases: [(["render", "likeBurst", "--size", "20x20", "--out", "@/ok.png"], "")]),
    ExitStatusRow(
      situation: "unknown command", status: 2,
      cases: [(["rendr"], "unknown command 'rendr'; did you mean 'render'?"), (["frobnicate"], "unknown command")]),
    ExitStatusRow(
      situation: "unknown option, or a short option", status: 2,
      cases: [
        (["render", "snow", "-o", "@/s.png"], "unknown option -o"),
        (["render", "snow", "--outt", "@/s.png"], "unknown option --outt (did you mean --out?)"),
      ]),
    ExitStatusRow(
      situation: "option given twice", status: 2,
      cases: [(["render", "snow", "--out", "@/a.png", "--out", "@/b.png"], "--out given twice")]),
    ExitStatusRow(
      situation: "missing or malformed value, value out of range", status: 2,
      cases: [
        (["render", "snow", "--out", "@/s.png", "--time", "-1"], "--time: expected seconds ≥ 0"),
        (["render", "snow", "--out", "@/s.png", "--scale", "1e-9"], "less than 1 px on a side"),
        (["render", "snow", "--out", "@/s.apng", "--fps", "0"], "--fps: expected an integer in 1…240"),
        (["render", "snow", "--out"], "--out needs a value"),
        (["render", "snow", "--out", "@/f/", "--shard", "4/4"], "--shard 4/4: i must be less than n"),
        (["render", "snow", "--out", "@/f/", "--frames", "5-3"], "--frames 5-3: the last frame is before the first"),
        (["transition", "render", "--style", "fade"], "--from A.png, --to B.png and --out"),
      ]),
    ExitStatusRow(
      situation: "more than 3 600 frames without --yes", status: 2,
      cases: [
        (
          ["render", "snow", "--size", "10x10", "--out", "@/f/", "--duration", "130"],
          "--duration × --fps: 3900 frames, more than 3600; check the units (--duration is in seconds) or add --yes"
        )
      ]),
    ExitStatusRow(
      situation: "flag ignored by the combination", status: 2,
      cases: [
        (["render", "snow", "--out", "@/s.apng", "--time", "3"], "--time chooses a still's time"),
        (["render", "snow", "--out", "@/s.png", "--duration", "3"], "--duration applies to animations"),
        (["render", "snow", "--out", "@/s.png", "--frames", "0-3"], "--frames applies to animations"),
        (["shatter", "frame", "--size", "40x40", "--time", "0", "--seed", "3"], "--seed: seed does not apply"),
      ]),
    ExitStatusRow(
      situation: "effect file unreadable or invalid", status: 2,
      cases: [
        (["validate", "@/bad.json"], "emitterCells[0].birthRate: must be ≥ 0, got -3"),
        (["render", "@/bad.json", "--out", "@/s.png"], "emitterCells[0].birthRate: must be ≥ 0, got -3"),
        (["render", "@/none.json", "--out", "@/s.png"], "cannot read"),
      ]),
    ExitStatusRow(
      situation: "effect over the particle budget", status: 2,
      cases: [
        (["render", "@/flood.json", "--size", "10x10", "--out", "@/s.png"], "over the budget of 4000000"),
        (["validate", "@/flood.json"], "particles: the effect can have up to"),
      ]),
    ExitStatusRow(
      situation: "sprite missing, unreadable or not a PNG", status: 2,
      cases: [
        (["render", "@/nosprite.json", "--size", "10x10", "--out", "@/s.png"], "flake.png: No such file"),
        (["render", "@/emptysprite.json", "--size", "10x10", "--out", "@/s.png"], "is empty (0 bytes), not a PNG"),
        (["validate", "@/nosprite.json"], "sprites: sprite"),
      ]),
    ExitStatusRow(
      situation: "time past what the effect can simulate exactly", status: 2,
      cases: [(["render", "snow", "--out", "@/s.png", "--time", "1e300"], "--time 1.0e300: past the latest time")]),
    ExitStatusRow(
      situation: "input picture missing, empty or not a PNG", status: 2,
      cases: [
        (
          [
            "transition", "render", "--style", "fade", "--from", "@/empty.png", "--to", "@/empty.png", "--out",
            "@/t.png",
          ],
          "--from: @/empty.png is empty (0 bytes), not a PNG image"
        ),
        (
          [
            "transition", "render", "--style", "fade", "--from", "@/none.png", "--to", "@/none.png", "--out", "@/t.png",
          ],
          "--from: cannot read @/none.png"
        ),
      ]),
    ExitStatusRow(
      situation: "output folder missing (file or folder output alike)", status: 2,
      cases: [
        (["render", "likeBurst", "--out", "@/no/such/s.png"], "the folder @/no/such does not exist"),
        (["render", "likeBurst", "--out", "@/no/such/frames/"], "the folder @/no/such does not exist"),
        (["presets", "export", "snow", "--out", "@/no/such/snow.json"], "the folder @/no/such does not exist"),
      ]),
    ExitStatusRow(
      situation:
        "output refused (an input, an existing output without --force, a system folder, a folder not writable)",
      status: 2,
      cases: [
        (["render", "likeBurst", "--size", "10x10", "--out", "@/exists.png"], "the file exists; give --force"),
        (
          ["render", "likeBurst", "--size", "10x10", "--out", "/sys/sleet-exit.png"],
          "refusing to write under /sys (a system folder)"
        ),
        (
          [
            "transition", "render", "--style", "fade", "--from", "@/exists.png", "--to", "@/exists.png",
            "--out", "@/exists.png", "--force",
          ], "--from"
        ),
      ]),
    ExitStatusRow(
      situation: "output cannot be written (disk full, standard output failing)", status: 1,
      cases: [
        (["presets", "export", "snow"], "cannot write to standard output"),
        (["render", "likeBurst", "--size", "10x10", "--out", "-"], "cannot write to standard output"),
      ],
      standardOutputIsFull: true),
    ExitStatusRow(
      situation: "no display for `sleet play`", status: 1,
      cases: [(["play", "snow"], "sleet play: cannot open a window: SDL video: ")], withoutDisplay: true),
  ]

  /// Writes the files the rows read into `folder`.
  static func prepare(_ folder: String) throws {
    writeText(#"{"format": 1, "emitterCells": [{"birthRate": -3}]}"#, to: folder + "/bad.json")
    writeText(
      #"{"format": 1, "emitterCells": [{"name": "flood", "birthRate": 10000000, "lifetime": 1}]}"#,
      to: folder + "/flood.json")
    writeText(
      #"{"format": 1, "emitterCells": [{"birthRate": 1, "lifetime": 1, "contents": "flake.png"}]}"#,
      to: folder + "/nosprite.json")
    writeText(
      #"{"format": 1, "emitterCells": [{"birthRate": 1, "lifetime": 1, "contents": "empty.png"}]}"#,
      to: folder + "/emptysprite.json")
    writeText("", to: folder + "/empty.png")
    try PNGFile.write(DemoPicture.first.image(width: 10, height: 10), to: folder + "/exists.png")
  }
}

/// One exit-status table (docs/cli.md), consistent with
/// the tool, and a test per row.
@Suite("exit status")
struct ExitStatusTests {
  @Test(arguments: ExitStatusRow.all)
  func everyRowHasItsStatus(_ row: ExitStatusRow) throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try ExitStatusRow.prepare(folder)
    for (arguments, message) in row.cases {
      let words = arguments.map { $0.replacingOccurrences(of: "@", with: folder) }
      let r: (status: Int32, err: String)
      if row.standardOutputIsFull {
        let sleet = try #require(sleetExecutable(), "the sleet executable beside the test bundle")
        let child = runChild([sleet] + words, folder: folder, stdoutPath: "/dev/full")
        r = (child.termination == .exited(1) ? 1 : -1, child.err)
      } else if row.withoutDisplay {
        let sleet = try #require(sleetExecutable(), "the sleet executable beside the test bundle")
        let unset = ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"].flatMap { ["-u", $0] }
        let child = runChild(["/usr/bin/env"] + unset + [sleet] + words, folder: folder)
        r = (child.termination == .exited(1) ? 1 : -1, child.err)
      } else {
        let result = runSleet(words)
        r = (result.status, result.err)
      }
      #expect(r.status == row.status, "\(arguments): \(r.err)")
      if message.isEmpty {
        #expect(r.err.isEmpty, "\(arguments): \(r.err)")
      } else {
        #expect(r.err.contains(message.replacingOccurrences(of: "@", with: folder)), "\(arguments): \(r.err)")
      }
    }
  }

  /// The table in docs/cli.md lists exactly these rows, with these statuses.
  @Test func theDocumentedTableIsTheTestedOne() throws {
    let docs = textFile(repositoryPath("docs/cli.md"))
    let section = try #require(docs.range(of: "## Exit status"))
    let table = docs[section.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("| situation") }
      .prefix { $0.hasPrefix("|") }.dropFirst(2)
    let documented = table.map { line in
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      return "\(cells[0]) → \(cells[1])"
    }
    #expect(documented == ExitStatusRow.all.map { "\($0.situation) → \($0.status)" })
    // The overview repeats the rule.
    #expect(SleetCommandLine.overview().contains("exit status: 0 ok, 1 the work failed"))
  }
}
