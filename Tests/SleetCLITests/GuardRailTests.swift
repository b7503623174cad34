import Foundation
import Glibc
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// The warnings of `sleet validate` and `sleet render` (docs/cli.md,
/// "Warnings"): each mistake that would end in an empty frame or a value in
/// the wrong unit is named on stderr, the exit status stays 0, and `--quiet`
/// silences them; a good effect gets none.
@Suite("guard-rails: warnings, --quiet, --yes")
struct GuardRailTests {
  /// A steady effect at the centre of the default 390×844 pt frame, with
  /// `cell` (JSON members) as its one cell.
  static func effect(cell: String, extra: String = "") -> String {
    #"{"format": 1, "emitterPosition": [195, 422], \#(extra) "emitterCells": [{"birthRate": 20, "lifetime": 2, \#(cell)}]}"#
  }

  /// Validates and renders (a small still) `json`; returns both stderrs
  /// after checking that both succeed.
  static func warnings(_ json: String, renderArguments: [String] = []) -> (validate: String, render: String) {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    writeText(json, to: folder + "/fx.json")
    let validate = runSleet(["validate", folder + "/fx.json"])
    #expect(validate.status == 0, "\(validate.err)")
    let render = runSleet(
      ["render", folder + "/fx.json", "--scale", "0.1", "--out", folder + "/s.png"] + renderArguments)
    #expect(render.status == 0, "\(render.err)")
    return (validate.err, render.err)
  }

  @Test func aGoodEffectAndAPresetHaveNoWarnings() {
    let good = Self.warnings(Self.effect(cell: #""velocity": 30, "emissionRange": 6.28, "contents": "disc""#))
    #expect(good.validate.isEmpty && good.render.isEmpty, "\(good)")
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    for preset in Effect.presetNames {
      let r = runSleet(["render", preset, "--scale", "0.1", "--out", folder + "/\(preset).png"])
      #expect(r.status == 0 && r.err.isEmpty, "\(preset): \(r.err)")
    }
  }

  @Test func aCellWithoutContentsIsNamed() {
    let r = Self.warnings(Self.effect(cell: #""name": "flake""#))
    for err in [r.validate, r.render] {
      #expect(
        err.contains(#"warning: emitterCells[0] ("flake"): no "contents": its particles are not drawn"#), "\(err)")
      #expect(err.contains("none visible"), "\(err)")
    }
    // The default animation's frames, rounded, with the most alive at one of them.
    #expect(r.validate.contains("warning: up to 4"), "\(r.validate)")
    #expect(r.validate.contains(" particles alive from 2 s to 4.967 s, none visible"), "\(r.validate)")
  }

  @Test func aParentWithoutContentsThatEmitsSubCellsIsNotNamed() {
    let json = Self.effect(
      cell: #""emitterCells": [{"birthRate": 5, "lifetime": 1, "velocity": 10, "contents": "disc"}]"#)
    let r = Self.warnings(json)
    #expect(!r.validate.contains("no \"contents\"") && !r.render.contains("no \"contents\""), "\(r)")
  }

  @Test func zeroAlphaAndZeroScaleAreNamed() {
    let alpha = Self.warnings(Self.effect(cell: #""color": [1, 1, 1, 0], "contents": "disc""#))
    #expect(alpha.render.contains("warning: emitterCells[0]: alpha 0"), "\(alpha.render)")
    let scale = Self.warnings(Self.effect(cell: #""scale": 0, "contents": "disc""#))
    #expect(scale.validate.contains("warning: emitterCells[0]: scale 0"), "\(scale.validate)")
    #expect(scale.render.contains("none visible"), "\(scale.render)")
  }

  @Test func nothingAliveAtTheChosenTimeSaysWhenTheEffectHasParticles() {
    let json = Self.effect(cell: #""contents": "disc""#, extra: #""beginTime": 5,"#)
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    writeText(json, to: folder + "/fx.json")
    let r = runSleet(["render", folder + "/fx.json", "--scale", "0.1", "--time", "1", "--out", folder + "/s.png"])
    #expect(r.status == 0)
    #expect(
      r.err.contains("warning: nothing is alive at 1 s: the frame shows only the background; the effect has "),
      "\(r.err)")
    #expect(r.err.contains("particles alive at ") && r.err.contains("(the default --time)"), "\(r.err)")
    let fine = runSleet(["render", folder + "/fx.json", "--scale", "0.1", "--out", folder + "/d.png"])
    #expect(fine.status == 0 && fine.err.isEmpty, "\(fine.err)")
  }

  @Test func everyParticleOutsideTheFrameIsNamed() {
    let r = Self.warnings(
      #"{"format": 1, "emitterPosition": [5000, 5000], "emitterCells": [{"birthRate": 20, "lifetime": 2, "contents": "disc"}]}"#
    )
    for err in [r.validate, r.render] {
      #expect(err.contains("warning: every particle is outside the 390×844 pt frame"), "\(err)")
    }
  }

  @Test func anglesOverTwoPiSuggestRadians() {
    let r = Self.warnings(Self.effect(cell: #""emissionRange": 360, "velocity": 10, "contents": "disc""#))
    #expect(
      r.validate.contains(
        "warning: emitterCells[0].emissionRange 360: over 2π; did you mean radians? 360° = 6.2832\n"),
      "\(r.validate)")
    let longitude = Self.warnings(Self.effect(cell: #""emissionLongitude": 90, "velocity": 10, "contents": "disc""#))
    #expect(
      longitude.render.contains("emissionLongitude 90: over 2π; did you mean radians? 360° = 6.2832, so 90° = 1.5708"))
  }

  @Test func implausibleValuesAreNamedWithTheirThreshold() {
    let r = Self.warnings(Self.effect(cell: #""velocity": 200000, "contents": "disc""#))
    #expect(
      r.validate.contains(
        "warning: emitterCells[0].velocity 200000: more than 100000 points per second, beyond anything plausible"),
      "\(r.validate)")
    let scale = Self.warnings(Self.effect(cell: #""scale": 500, "contents": "disc""#))
    #expect(scale.render.contains("emitterCells[0].scale 500: more than 100"), "\(scale.render)")
  }

  @Test func quietSilencesWarningsButNotErrors() {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    writeText(Self.effect(cell: #""emissionRange": 360"#), to: folder + "/fx.json")
    let loud = runSleet(["validate", folder + "/fx.json"])
    #expect(loud.status == 0 && loud.err.contains("warning: "))
    let validate = runSleet(["validate", folder + "/fx.json", "--quiet"])
    #expect(validate.status == 0 && validate.err.isEmpty && validate.out.hasPrefix("ok: 1 cell"))
    let render = runSleet(["render", folder + "/fx.json", "--quiet", "--scale", "0.1", "--out", folder + "/s.png"])
    #expect(render.status == 0 && render.err.isEmpty, "\(render.err)")
    let error = runSleet(["render", folder + "/fx.json", "--quiet", "--out", folder + "/s.txt"])
    #expect(error.status == 2 && error.err.contains("expected FILE.png"))
  }

  @Test func moreThan3600FramesNeedYes() {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    // 3,000 s meant as ms: 90,000 frames at 30 fps, refused before anything is drawn.
    let refused = runSleet(["render", "snow", "--duration", "3000", "--out", folder + "/a.apng"])
    #expect(refused.status == 2, "\(refused.err)")
    #expect(
      refused.err.hasPrefix(
        "sleet render: --duration × --fps: 90000 frames, more than 3600; check the units (--duration is in seconds) or add --yes"
      ), "\(refused.err)")
    #expect(folderEntries(folder).isEmpty)
    // 3,600 frames exactly need no --yes; one part of a long render counts its own frames.
    let piece = runSleet([
      "render", "snow", "--duration", "200", "--frames", "0-1", "--scale", "0.05", "--out", folder + "/f/",
    ])
    #expect(piece.status == 0, "\(piece.err)")
    #expect(
      (try? RenderOutput.checkConfirmed(3_600, confirmed: false, flags: "f")) != nil
        && (try? RenderOutput.checkConfirmed(3_601, confirmed: true, flags: "f")) != nil
        && (try? RenderOutput.checkConfirmed(3_601, confirmed: false, flags: "f")) == nil)
  }

  @Test func aStillSaysWhichTimeItShows() {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let chosen = runSleet(["render", "snow", "--scale", "0.1", "--out", folder + "/d.png"])
    #expect(chosen.status == 0)
    #expect(chosen.out.contains(", 1 frame) at 60 s (the default --time) in "), "\(chosen.out)")
    let given = runSleet(["render", "snow", "--scale", "0.1", "--time", "2.5", "--out", folder + "/g.png"])
    #expect(given.out.contains(", 1 frame) at 2.5 s in "), "\(given.out)")
    let animation = runSleet(["render", "snow", "--scale", "0.1", "--duration", "0.1", "--out", folder + "/a.apng"])
    #expect(animation.status == 0 && !animation.out.contains(" at "), "\(animation.out)")
  }

  @Test func exportWithoutParametersWritesPlainValuesAnEditKeeps() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let plain = runSleet(["presets", "export", "snow", "--width", "100", "--no-parameters"])
    #expect(plain.status == 0, "\(plain.err)")
    #expect(!plain.out.contains("\"parameters\"") && plain.out.contains("\"emitterSize\": [200, 100]"), "\(plain.out)")
    // Edited by hand, the plain file reads; the one with parameters says how to get out.
    writeText(plain.out.replacingOccurrences(of: "[200, 100]", with: "[300, 100]"), to: folder + "/plain.json")
    #expect(runSleet(["validate", folder + "/plain.json", "--quiet"]).status == 0)
    let bound = runSleet(["presets", "export", "snow"]).out
    writeText(bound.replacingOccurrences(of: "[780, 100]", with: "[700, 100]"), to: folder + "/bound.json")
    let refused = runSleet(["validate", folder + "/bound.json"])
    #expect(refused.status == 2)
    #expect(
      refused.err.contains(
        #"is 700 but 2 × width = 780 for width = 390; the parameter sets this value: edit parameters.width.value (350 gives 700), or drop "parameters" to keep the values as written"#
      ), "\(refused.err)")
  }
}
