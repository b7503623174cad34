import Foundation
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

@Suite("sleet particles")
struct ParticlesCommandTests {
  static func effect() -> Effect {
    var spark = EmitterCell(name: "spark")
    spark.birthRate = 20
    spark.lifetime = 0.5
    spark.velocity = 40
    spark.emissionRange = 6
    spark.beginTime = 0.2
    spark.duration = 0.3
    var rocket = EmitterCell(name: "rocket")
    rocket.birthRate = 3
    rocket.lifetime = 1
    rocket.velocity = 100
    rocket.yAcceleration = 50
    rocket.emitterCells = [spark]
    var emitter = Emitter(emitterCells: [rocket])
    emitter.emitterShape = .line
    emitter.emitterSize = SIMD2(100, 0)
    return try! Effect(emitter: emitter)
  }

  @Test func dumpIsSortedByIDWithTheDocumentedColumns() throws {
    let csv = try ParticlesDumpCommand.dump(ParticlesOptions(effect: Self.effect()), time: 1.6, json: false)
    let lines = csv.split(separator: "\n").map(String.init)
    #expect(lines[0] == "id,cell,birth,x,y,z,vx,vy,vz,scale,rotation,r,g,b,a")
    let rows = lines.dropFirst().map { $0.split(separator: ",") }
    #expect(rows.count > 5 && rows.allSatisfy { $0.count == 15 })
    let ids = rows.map { UInt64($0[0])! }
    #expect(ids == ids.sorted())
    #expect(Set(rows.map { String($0[1]) }) == ["rocket", "rocket.spark"])
  }

  @Test func steppingPrintsExactlyWhatSeekingPrints() throws {
    let seek = try ParticlesDumpCommand.dump(ParticlesOptions(effect: Self.effect()), time: 1.6, json: false)
    var stepping = ParticlesOptions(effect: Self.effect())
    stepping.step = 1.0 / 60
    stepping.threads = 3
    #expect(try ParticlesDumpCommand.dump(stepping, time: 1.6, json: false) == seek)
  }

  @Test func jsonHasOneObjectPerParticle() throws {
    let json = try ParticlesDumpCommand.dump(ParticlesOptions(effect: Self.effect()), time: 1.6, json: true)
    let csv = try ParticlesDumpCommand.dump(ParticlesOptions(effect: Self.effect()), time: 1.6, json: false)
    #expect(json.hasPrefix("[\n  {\"id\": "))
    #expect(json.components(separatedBy: "\"cell\": ").count - 1 == csv.split(separator: "\n").count - 1)
    #expect(try ParticlesDumpCommand.dump(ParticlesOptions(effect: Self.effect()), time: 0, json: true) == "[]")
  }

  @Test func cellNamesAreEscapedInJSONAndQuotedInCSV() throws {
    var cell = EmitterCell(name: "a\"b,c")
    cell.birthRate = 10
    cell.lifetime = 5
    var child = EmitterCell(name: "x\\y")
    child.birthRate = 4
    child.lifetime = 1
    cell.emitterCells = [child]
    let options = ParticlesOptions(effect: try Effect(emitter: Emitter(emitterCells: [cell])))
    let json = try ParticlesDumpCommand.dump(options, time: 1, json: true)
    let array = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    let cells = Set(array.compactMap { $0["cell"] as? String })
    #expect(cells == ["a\"b,c", "a\"b,c.x\\y"])
    let rows = try ParticlesDumpCommand.dump(options, time: 1, json: false).split(separator: "\n").dropFirst()
    #expect(rows.count == array.count)
    for row in rows {
      // RFC 4180: the quoted field, then the 13 numeric columns.
      let id = row.prefix { $0 != "," }
      let rest = row.dropFirst(id.count + 1)
      #expect(rest.hasPrefix("\"a\"\"b,c\",") || rest.hasPrefix("\"a\"\"b,c.x\\y\","), "\(row)")
      let numbers = rest.split(separator: "\",").last!.dropFirst().split(separator: ",")
      #expect(numbers.count == 13 && numbers.allSatisfy { Double($0) != nil })
    }
    #expect(ParticlesDumpCommand.csvField("plain.name") == "plain.name")
    #expect(ParticlesDumpCommand.csvField("two\nlines") == "\"two\nlines\"")
  }

  @Test func statsCountsPerCell() throws {
    let table = try ParticlesStatsCommand.table(ParticlesOptions(effect: Self.effect()), duration: 1, interval: 0.5)
    let lines = table.split(separator: "\n").map(String.init)
    #expect(lines[0].hasPrefix("# peak (upper bound): "))
    #expect(lines[1] == "time,total,rocket,rocket.spark")
    #expect(lines[2] == "0.0,0,0,0")
    // Rockets at 1/3, 2/3, 1: at t = 0.5 one rocket, aged 1/6, before its
    // first spark (age 0.2 + 1/20).
    #expect(lines[3] == "0.5,1,1,0")
    let last = lines[4].split(separator: ",")
    #expect(last[0] == "1.0" && last[2] == "3" && Int(last[1]) == 3 + Int(last[3])!)
    #expect(Int(last[3])! >= 6)
    #expect(lines.count == 5)
  }

  @Test func badFlagsAreUsageErrorsNamingTheFlag() {
    let missing = runSleet(["particles", "dump", "--time", "1"])
    #expect(missing.status == 2 && missing.err.contains("--effect"))
    let unknown = runSleet(["particles", "stats", "--effect", "x.json", "--bogus"])
    #expect(unknown.status == 2)
    let badSeed = runSleet(["particles", "dump", "--effect", "x.json", "--seed", "-3", "--time", "1"])
    #expect(badSeed.status == 2 && badSeed.err.contains("--"))
    #expect(runSleet(["particles", "dump", "--help"]).out.contains("id,cell,birth"))
    let hugeBudget = runSleet(["particles", "dump", "--effect", "snow", "--time", "1", "--budget", "3000000000"])
    #expect(
      hugeBudget.status == 2
        && hugeBudget.err.contains("--budget: expected an integer in 1…2147483647, got 3000000000"), "\(hugeBudget.err)"
    )
  }

  @Test func timesPastTheEffectsLimitAreUsageErrorsNamingTheFlagAndLimit() {
    // These trapped in ParticleID.topLevel (1e16) or printed nothing (1e18).
    for time in ["1e16", "1e18"] {
      let dump = runSleet(["particles", "dump", "--effect", "snow", "--time", time])
      #expect(dump.status == 2 && dump.out.isEmpty, "\(dump.err)")
      #expect(dump.err.contains("--time") && dump.err.contains("simulated exactly"), "\(dump.err)")
    }
    let stats = runSleet(["particles", "stats", "--effect", "snow", "--duration", "2e16", "--interval", "1e16"])
    #expect(stats.status == 2 && stats.err.contains("--duration") && stats.out.isEmpty, "\(stats.err)")
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let still = runSleet(["render", "snow", "--size", "10x10", "--out", folder + "/c.png", "--time", "1e16"])
    #expect(still.status == 2 && still.err.contains("--time"), "\(still.err)")
    let animation = runSleet([
      "render", "snow", "--size", "10x10", "--out", folder + "/c.apng", "--start", "1e16", "--duration", "0.1",
    ])
    #expect(animation.status == 2 && animation.err.contains("--start"), "\(animation.err)")
    #expect(folderEntries(folder).isEmpty)
  }

  @Test func dumpIsTheRenderKernelsOutputForAnyThreadCount() throws {
    var options = ParticlesOptions(effect: Self.effect())
    let one = try ParticlesDumpCommand.dump(options, time: 1.6, json: false)
    for threads in [2, 3, 8] {
      options.threads = threads
      #expect(try ParticlesDumpCommand.dump(options, time: 1.6, json: false) == one)
    }
    // Cells disabled at T are not drawn, so not dumped (they are still alive).
    var effect = Self.effect()
    var emitter = effect.emitter
    emitter.emitterCells[0].emitterCells[0].isEnabled = false
    effect = try Effect(emitter: emitter)
    let hidden = try ParticlesDumpCommand.dump(ParticlesOptions(effect: effect), time: 1.6, json: false)
    #expect(!hidden.contains("rocket.spark") && hidden.contains("rocket"))
  }

  @Test func tooManyStepsAreAUsageErrorNamingStep() {
    let dump = runSleet(["particles", "dump", "--effect", "snow", "--time", "1e9", "--step", "1e-6"])
    #expect(dump.status == 2 && dump.err.contains("--step") && dump.out.isEmpty)
    let negative = runSleet(["particles", "dump", "--effect", "snow", "--time", "-2", "--step", "1e-6"])
    #expect(negative.status == 2 && negative.err.contains("--time: expected seconds ≥ 0"))
    let stats = runSleet(["particles", "stats", "--effect", "snow", "--duration", "10", "--step", "1e-6"])
    #expect(stats.status == 2 && stats.err.contains("--step"))
  }
}

@Suite("sleet particles with presets")
struct ParticlesPresetCommandTests {
  @Test func dumpOfAPresetIsTheSameSteppedOrSought() {
    let seek = runSleet(["particles", "dump", "--effect", "fireworks", "--seed", "5", "--time", "3.2"])
    let step = runSleet(
      [
        "particles", "dump", "--effect", "fireworks", "--seed", "5", "--time", "3.2", "--step", "0.02", "--threads",
        "2",
      ])
    #expect(seek.status == 0 && step.status == 0)
    #expect(seek.out == step.out)
    #expect(seek.out.split(separator: "\n").count > 10)
    let unknown = runSleet(["particles", "dump", "--effect", "snwo", "--time", "1"])
    #expect(unknown.status == 2 && unknown.err.contains("--effect snwo"))
    let refused = runSleet(["particles", "dump", "--effect", "rain", "--time", "2", "--budget", "10"])
    #expect(refused.status == 2 && refused.err.contains("--effect: ") && refused.err.contains("over the budget of 10"))
    let refusedStats = runSleet(["particles", "stats", "--effect", "rain", "--budget", "10"])
    #expect(refusedStats.status == 2 && refusedStats.err.contains("over the budget of 10"))
    let capped = runSleet(["particles", "dump", "--effect", "rain", "--time", "2", "--budget", "10", "--cap"])
    #expect(capped.status == 0 && capped.out.split(separator: "\n").count == 11)
    let stats = runSleet(["particles", "stats", "--effect", "snow", "--duration", "2", "--interval", "1"])
    #expect(stats.status == 0 && stats.out.contains("time,total,snow"))
  }
}
