import Foundation
import Testing

@testable import SleetCLI

@Suite("sleet shatter")
struct ShatterCommandTests {
  func json(_ text: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(object as? [String: Any])
  }

  @Test func planPrintsApplesTilingAsJSON() throws {
    let r = runSleet(["shatter", "plan", "--size", "320x480", "--direction", "push", "--json"])
    #expect(r.status == 0)
    let plan = try json(r.out)
    #expect(plan["slice"] as? Double == 32)
    #expect(plan["columns"] as? Int == 10)
    #expect(plan["rows"] as? Int == 15)
    #expect(abs((plan["duration"] as? Double ?? 0) - 2.8193) < 5e-5)
    let tiles = try #require(plan["tiles"] as? [[String: Any]])
    #expect(tiles.count == 150)
    let last = tiles[149]
    #expect(last["column"] as? Int == 9 && last["row"] as? Int == 14)
    #expect(abs((last["delay"] as? Double ?? 0) - 2.1679) < 5e-5)
    #expect(abs((last["duration"] as? Double ?? 0) - 0.65139) < 5e-6)
  }

  @Test func planHonoursDivisorAndPop() throws {
    let r = runSleet(["shatter", "plan", "--size=390x844", "--direction=pop", "--divisor", "10", "--json"])
    #expect(r.status == 0)
    let plan = try json(r.out)
    #expect(plan["rows"] as? Int == 22)
    let tiles = try #require(plan["tiles"] as? [[String: Any]])
    let first = tiles.compactMap { $0["delay"] as? Double }.min() ?? -1
    #expect(abs(first - 0.0100) < 5e-5)
    let text = runSleet(["shatter", "plan", "--size", "390x844"])
    #expect(text.status == 0 && text.out.contains("10×22 = 220 tiles"))
  }

  @Test func frameAtTimeZeroIsEveryFromFaceAtItsRect() throws {
    let r = runSleet(["shatter", "frame", "--size", "320x480", "--direction", "push", "--time", "0", "--json"])
    #expect(r.status == 0)
    let frame = try json(r.out)
    #expect(frame["time"] as? Double == 0)
    let tiles = try #require(frame["tiles"] as? [[String: Any]])
    #expect(tiles.count == 150)
    let t = tiles[13]  // column 3, row 1
    #expect(t["column"] as? Int == 3 && t["row"] as? Int == 1)
    #expect(t["face"] as? String == "from")
    #expect(t["progress"] as? Double == 0)
    let corners = try #require(t["corners"] as? [[Double]])
    #expect(corners == [[96, 32], [128, 32], [128, 64], [96, 64]])
  }

  @Test func frameAfterTheEndIsEveryToFace() throws {
    for backend in ["scalar", "simd", "blas", "automatic"] {
      let r = runSleet(["shatter", "frame", "--size", "390x844", "--time", "3", "--backend", backend, "--json"])
      #expect(r.status == 0)
      let tiles = try #require(try json(r.out)["tiles"] as? [[String: Any]])
      #expect(tiles.allSatisfy { $0["face"] as? String == "to" })
    }
  }

  @Test func variantsAreSeededAndReproducible() throws {
    for style in ["explode", "glassBreak"] {
      let a = runSleet([
        "shatter", "frame", "--size", "320x480", "--time", "0.7", "--style", style, "--seed", "5", "--json",
      ])
      let b = runSleet([
        "shatter", "frame", "--size", "320x480", "--time", "0.7", "--style", style, "--seed", "5", "--json",
      ])
      let c = runSleet([
        "shatter", "frame", "--size", "320x480", "--time", "0.7", "--style", style, "--seed", "6", "--json",
      ])
      #expect(a.status == 0 && a.out == b.out && a.out != c.out)
      #expect(try json(a.out)["style"] as? String == style)
    }
  }

  @Test(arguments: [
    (["--size", "0x480"], "--size"),
    (["--size", "-320x480"], "--size"),
    (["--size", "nanx480"], "--size"),
    (["--size", "320x1e9"], "--size"),
    (["--size", "320"], "--size"),
    (["--size", "320x480", "--divisor", "0"], "--divisor"),
    (["--size", "320x480", "--divisor", "1000"], "divisor 1000"),
    (["--size", "320x480", "--direction", "sideways"], "--direction"),
    (["--size", "320x480", "--bogus"], "unknown option --bogus"),
    ([String](), "--size WxH is required"),
  ])
  func planRejectsBadInput(arguments: [String], message: String) {
    let r = runSleet(["shatter", "plan"] + arguments)
    #expect(r.status == 2)
    #expect(r.err.contains(message))
  }

  @Test(arguments: [
    (["--size", "320x480"], "--time is required"),
    (["--size", "320x480", "--time", "nan"], "--time"),
    (["--size", "320x480", "--time", "1", "--style", "shards"], "--style"),
    (["--size", "320x480", "--time", "1", "--backend", "gpu"], "--backend"),
    (["--size", "320x480", "--time", "1", "--seed", "-4"], "--seed"),
    (["--size", "inf x480", "--time", "1"], "--size"),
  ])
  func frameRejectsBadInput(arguments: [String], message: String) {
    let r = runSleet(["shatter", "frame"] + arguments)
    #expect(r.status == 2)
    #expect(r.err.contains(message))
  }

  @Test func helpAndGroupListing() {
    let help = runSleet(["shatter", "frame", "--help"])
    #expect(help.status == 0 && help.out.contains("--style"))
    let group = runSleet(["shatter", "--help"])
    #expect(group.status == 0 && group.out.contains("shatter plan") && group.out.contains("shatter frame"))
  }
}
