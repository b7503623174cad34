import SleetKit

/// The outcome of one check of ``EffectChecks``.
struct EffectCheck: Equatable, Sendable {
  /// `cells`, `sprites`, `particles` or `times`.
  var name: String
  /// What was found, shown when the check passes.
  var summary: String
  /// Why it failed; nil when it passed.
  var problem: String?
}

/// The checks `sleet render` runs on an effect before it draws anything, and
/// that `sleet validate` runs and reports one by one: one list, so a file
/// `validate` accepts is one `render` accepts (reading the file strictly comes
/// first, in ``loadEffect(_:label:)``).
enum EffectChecks {
  /// Runs every check, in order:
  /// - `cells`: at most `Effect.maximumCells` cells, sub-cells included;
  /// - `sprites`: every sprite the effect names (in any segment of its
  ///   changes) resolves in `sprites`: built-in, or a PNG file that exists
  ///   and decodes (relative paths against the effect file's folder; the
  ///   decoded file stays in `sprites`' cache for drawing);
  /// - `particles`: the computed peak of live particles is within `budget`
  ///   (`ParticleSystem.peakLiveParticles`, an upper bound);
  /// - `times`: each of `times` can be simulated exactly
  ///   (`ParticleSystem.supports(time:)`); the message names the first that
  ///   cannot by its flag (`--time`, `--start`, or the default it is).
  /// - Complexity: O(cells × segments + sprite files + times).
  static func run(
    _ effect: Effect, sprites: SpriteLibrary, times: [(time: Double, flag: String)],
    budget: Int = ParticleSystemConfiguration().budget
  ) -> [EffectCheck] {
    var checks: [EffectCheck] = []
    let cells = effect.emitter.cellCount
    checks.append(
      EffectCheck(
        name: "cells", summary: "\(cells) (at most \(Effect.maximumCells))",
        problem: cells > Effect.maximumCells ? ParticleSystemError.tooManyCells(cells).description : nil))
    checks.append(spriteCheck(effect, sprites: sprites))

    let system: ParticleSystem?
    var problem: String?
    do throws(ParticleSystemError) {
      // Capping instead of refusing, so the peak is known even over budget.
      system = try ParticleSystem(effect: effect, configuration: .init(budget: budget, overflowPolicy: .capOldestFirst))
    } catch {
      system = nil
      problem = error.description
    }
    guard let system else {
      checks.append(EffectCheck(name: "particles", summary: "", problem: problem))
      checks.append(EffectCheck(name: "times", summary: "", problem: "not checked: the effect cannot be simulated"))
      return checks
    }
    let peak = system.peakLiveParticles
    checks.append(
      EffectCheck(
        name: "particles", summary: "at most \(peak) alive at once (budget \(budget))",
        problem: peak > budget ? ParticleSystemError.budgetExceeded(peak: peak, budget: budget).description : nil))
    let late = times.filter { !system.supports(time: $0.time) }
    checks.append(
      EffectCheck(
        name: "times", summary: "simulated exactly up to local time \(numberText(system.maximumLocalTime)) s",
        problem: late.first.map {
          "\($0.flag) \(numberText($0.time)): past the latest time this effect can be simulated exactly (emitter-local time \(numberText(system.maximumLocalTime)) s: beyond it particle ids or Double time resolution run out)"
        }))
    return checks
  }

  /// Runs the checks and throws the first failure as a usage error (bad
  /// input: exit status 2).
  static func require(
    _ effect: Effect, sprites: SpriteLibrary, times: [Double], timeFlag: String
  ) throws(CommandError) {
    let checks = run(effect, sprites: sprites, times: times.map { ($0, timeFlag) })
    if let failed = checks.first(where: { $0.problem != nil }) { throw .usage(failed.problem!) }
  }

  /// Every sprite the effect names, in the order of first use, in any
  /// segment of its timed changes.
  static func spriteReferences(_ effect: Effect) -> [SpriteReference] {
    var seen: Set<SpriteReference> = []
    var references: [SpriteReference] = []
    func visit(_ cells: [EmitterCell]) {
      for cell in cells {
        if let reference = cell.contents, seen.insert(reference).inserted { references.append(reference) }
        visit(cell.emitterCells)
      }
    }
    visit(effect.emitter.emitterCells)
    for time in effect.changeTimes { visit(effect.emitter(at: time).emitterCells) }
    return references
  }

  /// The `sprites` check: every reference resolves.
  static func spriteCheck(_ effect: Effect, sprites: SpriteLibrary) -> EffectCheck {
    var found: [String] = []
    var problems: [String] = []
    for reference in spriteReferences(effect) {
      // Built-in sprites always exist; generating one here would only move
      // its cost before the progress line.
      if BuiltInSprite(rawValue: reference.name) != nil {
        found.append("\(reference.name) (built in)")
        continue
      }
      do throws(SpriteError) {
        let sprite = try sprites.sprite(for: reference)
        found.append("\(reference.name) (\(sprite.image.width)×\(sprite.image.height) px)")
      } catch {
        switch error {
        case .file(let file): problems.append("sprite \"\(reference.name)\": \(InputImages.describe(file))")
        case .unknownSprite: problems.append(error.description)
        }
      }
    }
    return EffectCheck(
      name: "sprites", summary: found.isEmpty ? "none" : found.joined(separator: ", "),
      problem: problems.isEmpty ? nil : problems.joined(separator: "; "))
  }
}
