import Foundation
import Testing

@testable import SleetImport

/// Any text imports or fails with an `ImportError`: truncated code, stray
/// braces, deep nesting, runaway helpers (docs/import.md, "How the code runs").
@Suite("sleet import: any input ends in an effect or an error")
struct RobustnessTests {
  func importOrError(_ source: String) -> Bool {
    do {
      _ = try EffectImporter.importEffect(from: source)
      return true
    } catch {
      return !error.reason.isEmpty
    }
  }

  @Test(arguments: SnippetTests.cases.map(\.name) + ["../snow-article.m"])
  func everyPrefixOfASnippet(_ name: String) throws {
    let source = Array(try SnowArticleTests.fixture("snippets/\(name).txt").unicodeScalars)
    // Every cut at a line boundary and at a step of 7 scalars.
    var cuts = source.indices.filter { source[$0] == "\n" || $0 % 7 == 0 }
    cuts.append(source.count)
    for cut in cuts {
      var text = ""
      text.unicodeScalars.append(contentsOf: source[..<cut])
      #expect(importOrError(text))
    }
  }

  @Test func strayBracesAndDeepNesting() {
    #expect(importOrError("}}}\nlet l = CAEmitterLayer()\n}"))
    #expect(importOrError(String(repeating: "(", count: 5000) + "1"))
    #expect(importOrError(String(repeating: "[", count: 5000)))
    #expect(importOrError(String(repeating: "for x in [1] {", count: 5000)))
    #expect(importOrError(String(repeating: "class A {", count: 5000)))
    #expect(importOrError("let l = CAEmitterLayer()\nl.birthRate = " + String(repeating: "{", count: 5000)))
  }

  @Test func runawayHelpersAreCutShort() throws {
    let source = """
      let l = CAEmitterLayer()
      func f(_ n: Int) { f(n); f(n) }
      func g() { f(1) }
      for i in 0..<100000 { l.birthRate = 1 }
      """
    let result = try EffectImporter.importEffect(from: source)
    #expect(result.untranslated.contains { $0.reason.contains("more than 100000 statements run") })
    #expect(result.untranslated.contains { $0.reason.contains("a range of more than 10000 numbers") })
  }

  @Test func garbage() {
    // A fixed linear congruential sequence: the same texts every run.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    let alphabet = Array(
      "CAEmitterCell()[]{}.,;:@\"^#*/+-=0123456789 \nletvarfor in.pi M_PI_2 kCAEmitterLayerLine setValue")
    for _ in 0..<200 {
      let text = String((0..<200).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
      #expect(importOrError(text))
    }
  }
}
