import Foundation
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// `sleet validate` reports an invalid emitter behavior as the effect
/// reader names it (the behavior's index, kind, name and key), and accepts
/// a file with valid ones.
@Suite("sleet validate and emitter behaviors")
struct ValidateBehaviorsTests {
  @Test func invalidBehaviorIsNamedWithItsKey() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    writeText(
      #"{"format": 1, "emitterCells": [{"name": "confetti", "birthRate": 1, "lifetime": 1, "emitterBehaviors": [{"type": "drag", "drag": 1}, {"type": "wave", "name": "sway", "frequency": -1}]}]}"#,
      to: folder + "/bad.json")
    let bad = runSleet(["validate", folder + "/bad.json"])
    #expect(bad.status == 2 && bad.out.isEmpty)
    #expect(
      bad.err.contains("emitterCells[0].emitterBehaviors[1].frequency: wave 'sway': must be ≥ 0, got -1"), "\(bad.err)")

    writeText(
      #"{"format": 1, "emitterBehaviors": [{"type": "light"}], "emitterCells": [{"birthRate": 1, "lifetime": 1}]}"#,
      to: folder + "/light.json")
    let light = runSleet(["validate", folder + "/light.json"])
    #expect(light.status == 2)
    #expect(light.err.contains("emitterBehaviors[0].type: 'light' is not supported: SleetKit draws unlit sprites"))

    writeText(
      #"{"format": 1, "emitterBehaviors": [{"type": "drag", "name": "brake", "drag": 1.5}], "emitterCells": [{"birthRate": 1, "lifetime": 1}]}"#,
      to: folder + "/good.json")
    let good = runSleet(["validate", folder + "/good.json"])
    #expect(good.status == 0, "\(good.err)")
  }

  /// The behaviors section of docs/effect-format.md: its example validates
  /// (as a layer's list), and its table names every key of every type.
  @Test func theDocsExampleValidatesAndTheTableNamesEveryKey() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let docs = textFile(repositoryPath("docs/effect-format.md"))
    let start = try #require(docs.range(of: "## Emitter behaviors\n"))
    let end = try #require(docs[start.upperBound...].range(of: "\n## "))
    let section = docs[start.upperBound..<end.lowerBound]
    let open = try #require(section.range(of: "```json\n"))
    let close = try #require(section[open.upperBound...].range(of: "```"))
    let list = section[open.upperBound..<close.lowerBound]
    writeText(
      #"{"format": 1, "emitterCells": [{"birthRate": 1, "lifetime": 1}], "# + list + "}", to: folder + "/b.json")
    let r = runSleet(["validate", folder + "/b.json"])
    #expect(r.status == 0, "\(r.err)")
    let effect = try Effect(contentsOfFile: folder + "/b.json")
    #expect(
      effect.emitter.emitterBehaviors.map(\.type) == [
        "wave", "drag", "attractor", "colorOverLife", "valueOverLife", "alignToMotion",
      ])
    let keys: [String: [String]] = [
      "wave": ["force", "frequency"], "drag": ["drag"],
      "attractor": [
        "attractorType", "stiffness", "radius", "position", "zPosition", "orientationLatitude",
        "orientationLongitude", "falloff", "falloffDistance",
      ],
      "simpleAttractor": ["stiffness", "radius", "position", "falloff"],
      "valueOverLife": ["keyPath", "values", "locations", "additive"], "colorOverLife": ["colors", "locations"],
      "alignToMotion": ["rotation", "preservesDepth"],
    ]
    for (type, names) in keys {
      #expect(section.contains("| `\(type)` |"), "\(type)")
      for name in names { #expect(section.contains("`\(name)`"), "\(type).\(name)") }
    }
  }
}
