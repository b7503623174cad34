import Foundation
import Testing

@testable import SleetParticles

@Suite("Built-in presets")
struct PresetTests {
  @Test func presetsAreListedByName() {
    #expect(
      Effect.presetNames == [
        "celebration", "confetti", "fireworks", "invisibleInk", "leaves", "likeBurst", "rain", "snow", "sparkle",
      ])
    #expect(
      throws: EffectFormatError(
        path: "",
        reason:
          "no preset named 'snw' (presets: celebration, confetti, fireworks, invisibleInk, leaves, likeBurst, rain, snow,"
          + " sparkle); did you mean 'snow'?")
    ) { try Effect.preset(named: "snw") }
  }

  /// The snow preset is the emitter of seeds/002 exactly: every value the
  /// article sets, and Apple's default for everything it leaves alone.
  @Test func snowMatchesTheArticle() throws {
    let snow = try Effect.preset(named: "snow")
    var cell = EmitterCell(name: "snow")
    cell.contents = SpriteReference("snowflake")
    cell.lifetime = 10
    cell.lifetimeRange = 100
    cell.birthRate = 10
    cell.velocity = 10
    cell.velocityRange = 10
    // The article's M_PI_2, rounded to the nearest Float (1.5707964; note
    // that `Float.pi` is rounded down, so `Float.pi / 2` is one ulp less).
    cell.emissionRange = Float(Double.pi / 2)
    cell.yAcceleration = 2
    cell.scale = 0.5
    cell.scaleRange = 0.02
    var layer = Emitter(emitterCells: [cell])
    layer.emitterShape = .line
    layer.emitterMode = .surface
    layer.emitterSize = SIMD2(390 * 2, 100)
    layer.renderMode = .oldestFirst
    layer.emitterPosition = SIMD2(100, -40)
    #expect(snow.emitter == layer)
    #expect(identical(snow.emitter, layer))
    #expect(snow.changes.isEmpty)
    #expect(snow.parameters.map(\.name) == ["width"] && snow.parameters[0].value == 390)

    let wide = try Effect.preset(named: "snow", parameters: ["width": 1024])
    #expect(wide.emitter.emitterSize == SIMD2(2048, 100))
    #expect(wide.emitter.emitterPosition == SIMD2(100, -40))
    var expected = layer
    expected.emitterSize.x = 2048
    #expect(wide.emitter == expected)
    #expect(throws: EffectFormatError(path: "parameters.width", reason: "must be ≥ 1, got 0")) {
      try Effect.preset(named: "snow", parameters: ["width": 0])
    }
  }

  /// The like burst is one window of births (no timers): every top-level cell
  /// has a finite duration, and `at` moves the window.
  @Test func likeBurstIsOneShot() throws {
    let burst = try Effect.preset(named: "likeBurst")
    let cells = burst.emitter.emitterCells
    #expect(cells.map(\.name) == ["heart"])
    #expect(cells.allSatisfy { $0.duration > 0 && $0.duration <= 0.2 && $0.birthRate * Float($0.duration) >= 10 })
    #expect(cells[0].contents == SpriteReference("heart"))
    #expect(cells[0].emissionRange >= 2 * Float.pi - 1e-6)
    let later = try burst.settingParameters(["at": 2.5, "x": 40, "y": 60])
    #expect(later.emitter.emitterCells[0].beginTime == 2.5)
    #expect(later.emitter.emitterPosition == SIMD2(40, 60))
  }

  /// Apple's Fireworks timings: trail while young, burst and pre-sparks late
  /// in the rocket's life (which lasts past them), sparks after the burst.
  @Test func fireworksHaveTrailBurstAndSparks() throws {
    let e = try Effect.preset(named: "fireworks").emitter
    let rocket = try #require(e.cell(named: ["rocket"]))
    #expect(rocket.emitterCells.map(\.name) == ["trail", "burst", "preSpark"])
    let trail = try #require(e.cell(named: ["rocket", "trail"]))
    let burst = try #require(e.cell(named: ["rocket", "burst"]))
    let preSpark = try #require(e.cell(named: ["rocket", "preSpark"]))
    let spark = try #require(e.cell(named: ["rocket", "preSpark", "spark"]))
    #expect(trail.beginTime == 0.01 && trail.duration == 0.7)
    #expect(burst.beginTime == 1.5 && burst.duration == 0.1)
    #expect(preSpark.beginTime == 1.3 && spark.beginTime == 0.8)
    #expect(Double(rocket.lifetime - rocket.lifetimeRange / 2) >= burst.beginTime + burst.duration)
    #expect(e.emitterShape == .line && e.renderMode == .additive)
    #expect(burst.emissionRange >= 2 * Float.pi - 1e-6 && trail.velocity == 0)
    var changed = e
    try changed.setValue(0, forKeyPath: "emitterCells.rocket.emitterCells.preSpark.emitterCells.spark.birthRate")
    #expect(changed.cell(named: ["rocket", "preSpark", "spark"])?.birthRate == 0)
  }

  @Test func confettiFallsFromTheTopInSeveralColours() throws {
    let e = try Effect.preset(named: "confetti").emitter
    #expect(e.emitterShape == .line && e.emitterPosition.y <= 0 && e.emitterSize.x == 390)
    #expect(e.emitterCells.count >= 4)
    #expect(Set(e.emitterCells.map(\.color)).count == e.emitterCells.count)
    #expect(
      e.emitterCells.allSatisfy {
        $0.emissionLongitude == Float(Double.pi) && $0.spin != 0 && $0.contents?.name == "confetti"
      })
    let wide = try Effect.preset(named: "confetti", parameters: ["width": 1000])
    #expect(wide.emitter.emitterPosition == SIMD2(500, 0) && wide.emitter.emitterSize.x == 1000)
  }

  @Test func rainAndSparkleScaleWithTheScreen() throws {
    let rain = try Effect.preset(named: "rain", parameters: ["width": 100]).emitter
    #expect(rain.emitterPosition.x == 50 && rain.emitterSize.x == 120)
    #expect(rain.emitterCells.allSatisfy { abs($0.emissionLongitude - Float(Double.pi)) < 0.2 && $0.yAcceleration > 0 })
    let sparkle = try Effect.preset(named: "sparkle", parameters: ["width": 200, "height": 300]).emitter
    #expect(sparkle.emitterPosition == SIMD2(100, 150) && sparkle.emitterSize == SIMD2(200, 300))
    #expect(sparkle.emitterShape == .rectangle && sparkle.renderMode == .additive)
  }

  /// Every preset is valid, uses built-in sprites only, and its file is the
  /// canonical export (so `sleet presets export` reproduces it byte for byte).
  @Test func presetFilesAreCanonicalAndValid() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Sources/SleetParticles/Presets").standardized
    for name in Effect.presetNames {
      let effect = try Effect.preset(named: name)
      try effect.emitter.validate()
      let text = try String(contentsOf: folder.appendingPathComponent(name + ".json"), encoding: .utf8)
      #expect(text == effect.jsonString(), "\(name).json is not in canonical form")
      #expect(effect.summary?.isEmpty == false)
      func sprites(_ cells: [EmitterCell]) -> [String] {
        cells.flatMap { ($0.contents.map { [$0.name] } ?? []) + sprites($0.emitterCells) }
      }
      #expect(sprites(effect.emitter.emitterCells).allSatisfy(SpriteReference.builtInNames.contains), "\(name)")
    }
  }
}
