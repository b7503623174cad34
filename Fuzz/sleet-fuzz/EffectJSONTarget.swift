import Foundation
import SleetKit

/// `Effect(json:)` on any bytes. For an accepted effect:
/// - `jsonString()` reads back to an equal effect and is a fixed point
///   (export → import → export gives the same bytes);
/// - `JSONDecoder` reads the same bytes to an equal effect (Effect+Codable
///   promises the same checks and values);
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
      fuzzCheck(false, "JSONDecoder refuses what Effect(json:) reads: \(error)")
    }

    simulate(effect)
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
