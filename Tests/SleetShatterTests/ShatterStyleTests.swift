import Testing

@testable import SleetShatter

@Suite("Shatter names")
struct ShatterNameTests {
  @Test func rawValuesAreTheCommandLineSpellings() {
    #expect(ShatterStyle(rawValue: "glassBreak") == .glassBreak)
    #expect(ShatterDirection.allCases.map(\.rawValue) == ["push", "pop"])
  }
}
