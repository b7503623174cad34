import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// `sleet particles dump` on effects with emitter behaviors: the positions
/// are after the behaviors and vx, vy, vz the velocity at the dumped time —
/// the derivative of the dumped positions — not the birth velocity.
@Suite("particles dump with emitter behaviors")
struct DumpBehaviorsTests {
  /// Rows of a csv dump by id: x, y, vx, vy.
  func rows(_ effect: String, at time: Double) -> [String: [Double]] {
    let r = runSleet(["particles", "dump", "--effect", effect, "--time", "\(time)"])
    #expect(r.status == 0, "\(r.err)")
    var out: [String: [Double]] = [:]
    for line in r.out.split(separator: "\n").dropFirst() {
      let f = line.split(separator: ",").map(String.init)
      out[f[0]] = [f[3], f[4], f[6], f[7]].map { Double($0)! }
    }
    return out
  }

  @Test func velocityIsTheDerivativeOfThePosition() {
    let h = 1.0 / 512
    let before = rows("leaves", at: 20 - h)
    let now = rows("leaves", at: 20)
    let after = rows("leaves", at: 20 + h)
    var compared = 0
    for (id, p) in now {
      guard let a = before[id], let b = after[id] else { continue }
      let vx = (b[0] - a[0]) / (2 * h)
      let vy = (b[1] - a[1]) / (2 * h)
      #expect(abs(vx - p[2]) <= 0.05 + 1e-3 * abs(p[2]), "particle \(id): vx \(p[2]), Δx/Δt \(vx)")
      #expect(abs(vy - p[3]) <= 0.05 + 1e-3 * abs(p[3]), "particle \(id): vy \(p[3]), Δy/Δt \(vy)")
      compared += 1
    }
    #expect(compared >= 20)
  }

  @Test func gpuRefusesBehaviorsAsBadInput() {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let r = runSleet(["render", "leaves", "--gpu", "--size", "40x40", "--out", folder + "/x.png"])
    #expect(r.status == 2)
    #expect(fileBytes(folder + "/x.png") == nil, "nothing written")
    #expect(
      r.err.contains(
        "--gpu: emitter behaviors act on 'amber', 'crimson', 'ochre'; the GPU path does not evaluate behaviors"))
  }
}
