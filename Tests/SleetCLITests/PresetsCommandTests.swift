import Foundation
import SleetKit
import Testing

@testable import SleetCLI

@Suite("sleet presets and sleet validate")
struct PresetsCommandTests {
  @Test func listShowsEveryPresetWithParameters() {
    let r = runSleet(["presets", "list"])
    #expect(r.status == 0)
    let lines = r.out.split(separator: "\n")
    #expect(lines.count == Effect.presetNames.count && lines.count == 9)
    #expect(lines.contains { $0.hasPrefix("snow ") && $0.contains("[width=390]") })
    #expect(lines.contains { $0.hasPrefix("fireworks ") && $0.contains("[height=844 width=390]") })
  }

  @Test func exportPrintsTheCanonicalFile() throws {
    let r = runSleet(["presets", "export", "snow"])
    #expect(r.status == 0)
    let effect = try Effect(json: r.out)
    #expect(effect == (try Effect.preset(named: "snow")))
    #expect(r.out == effect.jsonString())
    let wide = runSleet(["presets", "export", "snow", "--width", "500"])
    #expect(wide.status == 0)
    #expect(try Effect(json: wide.out).emitter.emitterSize == SIMD2(1000, 100))
    let moved = runSleet(["presets", "export", "likeBurst", "--parameter", "x=10", "--parameter=y=20"])
    #expect(moved.status == 0)
    #expect(try Effect(json: moved.out).emitter.emitterPosition == SIMD2(10, 20))
  }

  @Test func exportWritesFilesAtomically() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("sleet-export-\(getpid()).json").path
    defer { try? FileManager.default.removeItem(atPath: file) }
    let r = runSleet(["presets", "export", "fireworks", "--out", file])
    #expect(r.status == 0 && r.out.isEmpty && r.err == "wrote \(file)\n")
    let written = String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self)
    #expect(written == runSleet(["presets", "export", "fireworks"]).out)
    let v = runSleet(["validate", file])
    #expect(v.status == 0 && v.out.hasPrefix("ok: 5 cells, 0 changes\n"))
  }

  @Test func exportUsageErrors() {
    let zero = runSleet(["presets", "export", "snow", "--width", "0"])
    #expect(zero.status == 2)
    #expect(zero.err.hasPrefix("sleet presets export: --width: must be ≥ 1, got 0\n"))
    let unknown = runSleet(["presets", "export", "snw"])
    #expect(unknown.status == 2 && unknown.err.contains("no preset named 'snw'"))
    #expect(runSleet(["presets", "export"]).status == 2)
    #expect(runSleet(["presets", "export", "snow", "--width", "wide"]).status == 2)
    let badParameter = runSleet(["presets", "export", "snow", "--parameter", "depth"])
    #expect(badParameter.status == 2 && badParameter.err.contains("expected NAME=VALUE"))
    let noSuch = runSleet(["presets", "export", "snow", "--parameter", "depth=3"])
    #expect(noSuch.status == 2 && noSuch.err.contains("--parameter depth: no such parameter (parameters: width)"))
  }

  @Test func validateReportsOkOrThePathOfTheError() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sleet-validate-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let good = folder + "/good.json"
    let bad = folder + "/bad.json"
    try FileOutput.atomicWrite(
      Array(
        #"{"format": 1, "emitterCells": [{"name": "snow", "birthRate": 10}], "changes": [{"time": 2, "keyPath": "emitterCells.snow.birthRate", "value": 0}]}"#
          .utf8),
      to: good)
    try FileOutput.atomicWrite(
      Array(#"{"format": 1, "emitterCells": [{"emitterCells": [{}, {"birthRate": -3}]}]}"#.utf8), to: bad)
    let ok = runSleet(["validate", good])
    #expect(ok.status == 0 && ok.out.hasPrefix("ok: 1 cell, 1 change\n"))
    let error = runSleet(["validate", bad])
    #expect(error.status == 2)
    #expect(
      error.err.hasPrefix("sleet validate: \(bad): emitterCells[0].emitterCells[1].birthRate: must be ≥ 0, got -3\n"))
    let missing = runSleet(["validate", folder + "/none.json"])
    #expect(missing.status == 2 && missing.err.contains("cannot read"))
    #expect(runSleet(["validate"]).status == 2)
  }
}
