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
}
