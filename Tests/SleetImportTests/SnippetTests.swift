import Foundation
import SleetParticles
import Testing

@testable import SleetImport

/// Snippets in the styles of public iOS emitter code, each with the effect
/// file it must import to (`Fixtures/snippets/NAME.json`, canonical text) and
/// the lines it must report as not translated.
@Suite("sleet import: snippets of Swift and Objective-C emitter code")
struct SnippetTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    /// The lines reported as not translated.
    var untranslated: [Int]
    /// The lines where a built-in sprite stands in for an image.
    var substituted: [Int]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "01-confetti-view.swift", untranslated: [], substituted: [29]),
    Case(name: "02-fireworks.m", untranslated: [13], substituted: [23, 48]),
    Case(name: "03-behaviors-perform.swift", untranslated: [], substituted: [44]),
    Case(name: "04-animations.swift", untranslated: [], substituted: [13]),
    Case(name: "05-keyframes.m", untranslated: [], substituted: [13]),
    Case(name: "06-system-colors.swift", untranslated: [], substituted: [18]),
    Case(name: "07-helper-method-loop.m", untranslated: [], substituted: [18]),
    Case(name: "08-lazy-closure.swift", untranslated: [], substituted: [23]),
    Case(name: "09-geometry.swift", untranslated: [], substituted: [14]),
    Case(name: "10-private-keys.m", untranslated: [11, 12], substituted: [10]),
    Case(name: "11-life-curves.swift", untranslated: [], substituted: [15]),
    Case(name: "12-not-understood.swift", untranslated: [3, 8, 9, 12, 14], substituted: []),
    Case(name: "13-numbers.m", untranslated: [], substituted: [19]),
    Case(name: "14-map-and-layer-bounds.swift", untranslated: [], substituted: [29]),
    Case(name: "15-layer-class.m", untranslated: [41, 47], substituted: [23]),
    Case(name: "16-layer-class-computed.swift", untranslated: [], substituted: [25]),
  ]

  @Test(arguments: cases)
  func importsToTheExpectedEffect(_ c: Case) throws {
    let source = try SnowArticleTests.fixture("snippets/\(c.name).txt")
    let expected = try SnowArticleTests.fixture("snippets/\(c.name).json")
    let result = try EffectImporter.importEffect(from: source)
    #expect(result.effect.jsonString() == expected)
    #expect(result.effect == (try Effect(json: expected)))
    #expect(result.untranslated.map(\.line) == c.untranslated)
    #expect(result.notes.filter { $0.kind == .substitution }.map(\.line) == c.substituted)
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    for note in result.notes {
      #expect(note.text == lines[note.line - 1].trimmingCharacters(in: .whitespaces))
    }
  }

  @Test func reportsWhatWasNotTranslated() throws {
    let source = try SnowArticleTests.fixture("snippets/12-not-understood.swift.txt")
    let notes = try EffectImporter.importEffect(from: source).untranslated
    #expect(
      notes.map(\.reason) == [
        "'opacity' of CAEmitterLayer is not an emitter property: not imported",
        "'style' is not a CAEmitterCell property SleetKit has: not imported",
        "'if' statements are not run (only straight-line code and for-in loops)",
        "unknown name 'renderedImage'",
        "'Timer.scheduledTimer(withTimeInterval:repeats:_:)' is not understood",
      ])
    #expect(notes[2].description == "line 9: if isReduceMotionEnabled {: " + notes[2].reason)
  }
}
