import Foundation
import SleetParticles
import Testing

@testable import SleetImport

/// The snow code of the reference article (Objective-C) against the `snow`
/// preset, which was written from it.
@Suite("sleet import: the snow article")
struct SnowArticleTests {
  static func fixture(_ name: String) throws -> String {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
    return try String(contentsOf: url, encoding: .utf8)
  }

  @Test func importsToTheSnowPreset() throws {
    let result = try EffectImporter.importEffect(from: try Self.fixture("snow-article.m.txt"))
    let preset = try Effect.preset(named: "snow")
    #expect(result.effect.emitter == preset.emitter)
    #expect(result.effect.parameters == preset.parameters)
    #expect(result.effect.changes.isEmpty)
    // The article's image is not available: the cell's name chooses the sprite.
    #expect(result.untranslated.isEmpty)
    let sprite = try #require(result.notes.first)
    #expect(sprite.kind == .substitution && sprite.line == 6)
    #expect(sprite.reason.contains("'favorite_hl'") && sprite.reason.contains("'snowflake'"))
  }

  @Test func rendersTheSameParticlesAsThePreset() throws {
    let imported = try EffectImporter.importEffect(from: try Self.fixture("snow-article.m.txt")).effect
    let a = try ParticleSystem(effect: imported)
    let b = try ParticleSystem(effect: try Effect.preset(named: "snow"))
    for t in [0.5, 3, 12.25, 40] {
      a.seek(to: t)
      b.seek(to: t)
      let pa = a.particles()
      #expect(!pa.isEmpty)
      #expect(pa == b.particles())
    }
  }

  @Test func followsTheViewWidth() throws {
    let options = ImportOptions(size: ImportSize(width: 430, height: 932))
    let result = try EffectImporter.importEffect(from: try Self.fixture("snow-article.m.txt"), options: options)
    #expect(result.effect == (try Effect.preset(named: "snow", parameters: ["width": 430]).withoutSummary))
  }
}

extension Effect {
  var withoutSummary: Effect {
    var e = self
    e.summary = nil
    return e
  }
}
