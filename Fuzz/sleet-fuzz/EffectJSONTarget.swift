import Foundation
import SleetKit

/// `Effect(json:)` on any bytes. For an accepted effect:
/// - `jsonString()` reads back to an equal effect and is a fixed point
///   (export → import → export gives the same bytes);
/// - `JSONDecoder` reads the same bytes to an equal effect (Effect+Codable
///   promises the same checks and values), except for the one number form
///   Foundation's decoder refuses (``hasBareZeroWithExponent(_:)``);
/// - a particle system with a small budget simulates it at a few times
///   without trapping (an effect over that budget is refused, which is fine).
enum EffectJSONTarget {
  static func run(_ bytes: [UInt8]) {
    let effect: Effect
    do throws(EffectFormatError) {
      effect = try Effect(json: bytes)
    } catch {
      fuzzCheck(!error.description.isEmpty, "an empty error message")
      return
    }
    let text = effect.jsonString()
    let again: Effect
    do throws(EffectFormatError) {
      again = try Effect(json: text)
    } catch {
      fuzzCheck(false, "the canonical text does not read back: \(error)\n\(text)")
      return
    }
    fuzzCheck(again == effect, "the canonical text reads back to a different effect:\n\(text)")
    fuzzCheck(again.jsonString() == text, "the canonical text is not a fixed point:\n\(text)")

    do {
      let decoded = try JSONDecoder().decode(Effect.self, from: Data(bytes))
      fuzzCheck(decoded == effect, "JSONDecoder reads a different effect:\n\(text)")
    } catch {
      fuzzCheck(
        hasBareZeroWithExponent(bytes), "JSONDecoder refuses what Effect(json:) reads: \(error)")
    }

    simulate(effect)
  }

  /// Whether the text holds a number like `0e8` or `0E5`: a zero integer
  /// part, no fraction, an exponent without a sign. Valid JSON (RFC 8259)
  /// that Effect(json:) reads as 0, but Foundation's JSONDecoder in Swift
  /// 6.3.1 refuses ("not valid JSON") while it reads `0E+8`, `0.0E8` and
  /// `1E8` — a toolchain bug the fuzzer found (docs/reliability.md), so the
  /// comparison is skipped for such files.
  static func hasBareZeroWithExponent(_ bytes: [UInt8]) -> Bool {
    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    guard bytes.count >= 3 else { return false }
    for i in 0..<(bytes.count - 2) where bytes[i] == UInt8(ascii: "0") {
      let exponent = bytes[i + 1] == UInt8(ascii: "e") || bytes[i + 1] == UInt8(ascii: "E")
      let startsNumber = i == 0 || !(isDigit(bytes[i - 1]) || bytes[i - 1] == UInt8(ascii: "."))
      if exponent && startsNumber && isDigit(bytes[i + 2]) { return true }
    }
    return false
  }

  /// Seeks and steps a small-budget system through a few times and renders.
  static func simulate(_ effect: Effect) {
    let configuration = ParticleSystemConfiguration(budget: 2_000)
    guard let system = try? ParticleSystem(effect: effect, configuration: configuration) else { return }
    var frame = ParticleFrame()
    let times: [Double] = [0, 0.25, 1, 3] + effect.changeTimes.prefix(4).flatMap { [$0, $0 + 0.01] }
    for t in times where system.supports(time: t) {
      system.advance(to: t)
      system.render(into: &frame)
    }
    if system.supports(time: 0.5) {
      system.seek(to: 0.5)
      system.render(into: &frame)
    }
  }
}
