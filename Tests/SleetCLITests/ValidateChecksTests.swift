import Foundation
import Glibc
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// `validate` runs every check `render` runs (cells,
/// sprites, the budget with the computed peak, times) and says which failed.
@Suite("sleet validate runs render's checks")
struct ValidateChecksTests {
  @Test func aValidFileListsEveryCheck() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    // A sprite file next to the effect, named relative to it.
    try FileManager.default.createDirectory(atPath: folder + "/fx", withIntermediateDirectories: false)
    try PNGFile.write(RGBAImage(width: 6, height: 4, background: .white), to: folder + "/fx/flake.png")
    writeText(
      #"{"format": 1, "emitterCells": [{"birthRate": 10, "lifetime": 2, "contents": "flake.png"}, {"birthRate": 1, "lifetime": 1, "contents": "disc"}]}"#,
      to: folder + "/fx/fx.json")
    let r = runSleet(["validate", folder + "/fx/fx.json"])
    #expect(r.status == 0, "\(r.err)")
    #expect(
      r.out == """
        ok: 2 cells, 0 changes
          cells: 2 (at most 255)
          sprites: \(folder)/fx/flake.png (6×4 px), disc (built in)
          particles: at most 23 alive at once (budget 4000000)
          times: simulated exactly up to local time 7.0e13 s
          default times (steady): still at 2 s, animation from 2 s for 3 s

        """)
    // render finds the same sprite from another working directory (the
    // reader resolves it against the file's folder, once).
    let render = runSleet(["render", folder + "/fx/fx.json", "--size", "20x20", "--out", folder + "/s.png"])
    #expect(render.status == 0, "\(render.err)")
  }

  @Test func everyFailedCheckIsNamedAndRenderFailsTheSameWay() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    writeText(
      #"{"format": 1, "emitterCells": [{"birthRate": 10000000, "lifetime": 1, "contents": "gone.png"}]}"#,
      to: folder + "/two.json")
    let r = runSleet(["validate", folder + "/two.json"])
    #expect(r.status == 2 && r.out.isEmpty)
    #expect(
      r.err.hasPrefix(
        """
        sleet validate: \(folder)/two.json: 2 of 4 checks failed (sprites, particles)
          sprites: sprite "\(folder)/gone.png": cannot read \(folder)/gone.png: No such file or directory
          particles: the effect can have up to 10000001 live particles, over the budget of 4000000

        """), "\(r.err)")
    // render refuses the same file with the first of the same messages, before drawing.
    let render = runSleet(["render", folder + "/two.json", "--size", "10x10", "--out", folder + "/s.png"])
    #expect(render.status == 2)
    #expect(render.err.hasPrefix("sleet render: sprite \"\(folder)/gone.png\": cannot read"))
    #expect(folderEntries(folder) == ["two.json"])
  }

  @Test func timesAreCheckedAsRenderChecksThem() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let snow = folder + "/snow.json"
    #expect(runSleet(["presets", "export", "snow", "--out", snow]).status == 0)
    let late = runSleet(["validate", snow, "--time", "1e300"])
    #expect(late.status == 2)
    #expect(late.err.contains("1 of 4 checks failed (times)\n  times: --time 1.0e300: past the latest time"))
    let render = runSleet(["render", snow, "--time", "1e300", "--out", folder + "/s.png"])
    #expect(render.status == 2 && render.err.contains("--time 1.0e300: past the latest time"))
    #expect(runSleet(["validate", snow, "--time", "100"]).status == 0)
    #expect(runSleet(["validate", snow, "--time", "-1"]).err.contains("--time: expected seconds ≥ 0"))
  }

  @Test func theCellLimitIsACheck() throws {
    // Effects from files are refused at reading; the check covers effects
    // built in code, as render would be given them.
    var cells: [EmitterCell] = []
    for i in 0..<256 {
      var cell = EmitterCell(name: "c\(i)")
      cell.birthRate = 1
      cell.lifetime = 1
      cells.append(cell)
    }
    let effect = try Effect(emitter: Emitter(emitterCells: cells))
    let checks = EffectChecks.run(effect, sprites: SpriteLibrary(), times: [(1, "--time")])
    #expect(checks.map(\.name) == ["cells", "sprites", "particles", "times"])
    #expect(checks[0].problem == "the effect has 256 cells; at most 255 are supported")
    #expect(checks[1].problem == nil)
    let fine = EffectChecks.run(try Effect.preset(named: "fireworks"), sprites: SpriteLibrary(), times: [(4, "--time")])
    #expect(fine.allSatisfy { $0.problem == nil })
    #expect(fine[1].summary == "disc (built in), spark (built in), star (built in)")
  }

  @Test func spritesNamedOnlyByChangesAreChecked() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    writeText(
      #"{"format": 1, "emitterCells": [{"name": "a", "birthRate": 1, "lifetime": 1, "contents": "disc"}], "changes": [{"time": 1, "keyPath": "emitterCells.a.contents", "value": "later.png"}]}"#,
      to: folder + "/later.json")
    let r = runSleet(["validate", folder + "/later.json"])
    #expect(r.status == 2)
    #expect(r.err.contains("sprites: sprite \"\(folder)/later.png\": cannot read"), "\(r.err)")
  }
}
