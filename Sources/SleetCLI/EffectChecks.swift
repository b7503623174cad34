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

/// The mistakes that leave a frame empty or a value out of any plausible
/// range, which `sleet validate` and `sleet render` report as warnings on
/// stderr (`--quiet` silences them; they never change the exit status).
/// docs/cli.md, "Warnings", lists them with their thresholds.
enum EffectWarnings {
  /// Angle fields, in radians: a value over 2π was almost surely meant in
  /// degrees.
  static var angleFields: [(name: String, value: (EmitterCell) -> Float)] {
    [
      ("emissionLongitude", \.emissionLongitude), ("emissionLatitude", \.emissionLatitude),
      ("emissionRange", \.emissionRange),
    ]
  }

  /// The largest plausible value of each field: beyond it the value was
  /// almost surely typed in the wrong unit (ms for s, px for a scale).
  static var plausible: [(name: String, unit: String, limit: Float, value: (EmitterCell) -> Float)] {
    [
      ("birthRate", "particles per second", 10_000, \.birthRate),
      ("lifetime", "seconds", 3_600, \.lifetime),
      ("velocity", "points per second", 100_000, \.velocity),
      ("scale", "(1 is the sprite's size)", 100, \.scale),
    ]
  }

  /// How far beyond the frame, in points at scale 1, a particle's centre may
  /// be and still count as possibly visible: half the side of a 128-pt
  /// sprite (built-in sprites are 32 pt at most).
  static let frameMargin: Float = 64

  /// The static warnings: fields of every cell (sub-cells included) as the
  /// effect starts.
  /// - Complexity: O(cells × changes).
  static func fieldWarnings(_ effect: Effect) -> [String] {
    var warnings: [String] = []
    // A cell with no contents in every state the changes give it draws
    // nothing; a parent without contents that emits sub-cells is the usual
    // way to make fireworks, so only a leaf is reported.
    var everHasContents: Set<String> = []
    func collect(_ cells: [EmitterCell], _ prefix: String) {
      for (i, cell) in cells.enumerated() {
        let path = "\(prefix)emitterCells[\(i)]"
        if cell.contents != nil { everHasContents.insert(path) }
        collect(cell.emitterCells, path + ".")
      }
    }
    collect(effect.emitter.emitterCells, "")
    for time in effect.changeTimes { collect(effect.emitter(at: time).emitterCells, "") }
    func visit(_ cells: [EmitterCell], _ prefix: String) {
      for (i, cell) in cells.enumerated() {
        let path = "\(prefix)emitterCells[\(i)]"
        let label = path + (cell.name.map { " (\"\(MessageText.clip($0))\")" } ?? "")
        let emits = cell.birthRate > 0 && cell.isEnabled
        // A behavior (valueOverLife on color.alpha or scale) can make a
        // zero start visible: the drawn-frame check still sees the result.
        let keyed = !cell.emitterBehaviors.isEmpty || !effect.emitter.emitterBehaviors.isEmpty
        if emits && cell.emitterCells.isEmpty && !everHasContents.contains(path) {
          warnings.append(
            "\(label): no \"contents\": its particles are not drawn (name a sprite, e.g. \"contents\": \"\(BuiltInSprite.allCases[0].rawValue)\")"
          )
        }
        if emits && !keyed && cell.color.alpha <= 0 && cell.alphaRange <= 0 && cell.alphaSpeed <= 0 {
          warnings.append("\(label): alpha 0 (no alphaRange, no rising alphaSpeed): its particles are invisible")
        }
        if emits && !keyed && cell.scale <= 0 && cell.scaleRange <= 0 && cell.scaleSpeed <= 0 {
          warnings.append("\(label): scale 0 (no scaleRange, no growing scaleSpeed): its particles are invisible")
        }
        for field in angleFields {
          // Compared as stored: Float(2π), rounded up, is a full circle.
          guard abs(field.value(cell)) > Float(2 * Double.pi) else { continue }
          let value = Double(field.value(cell))
          let converted =
            value == 360 ? "" : ", so \(numberText(value))° = \(roundedText(value * .pi / 180, places: 4))"
          warnings.append(
            "\(label).\(field.name) \(numberText(value)): over 2π; did you mean radians? 360° = 6.2832\(converted)")
        }
        for field in plausible {
          let value = field.value(cell)
          guard abs(value) > field.limit else { continue }
          warnings.append(
            "\(label).\(field.name) \(numberText(Double(value))): more than \(numberText(Double(field.limit))) \(field.unit), beyond anything plausible; check its unit"
          )
        }
        visit(cell.emitterCells, path + ".")
      }
    }
    visit(effect.emitter.emitterCells, "")
    return warnings
  }

  /// The warnings about what `system` draws at `times` (a still's time, or
  /// some frames of an animation): nothing alive, nothing visible, or every
  /// particle outside the `width` × `height` pt frame. `when` names the
  /// times ("at 2 s", "from 0 s to 3 s"); `reference` is a time at which
  /// the effect is known to have particles, named when nothing is alive.
  static func drawWarnings(
    _ system: ParticleSystem, times: [Double], when: String, width: Double, height: Double,
    reference: (time: Double, label: String)
  ) -> [String] {
    var frame = ParticleFrame()
    var alive = 0
    var visible = 0
    var inside = 0
    for time in times where system.supports(time: time) {
      system.seek(to: time)
      system.render(into: &frame)
      alive = Swift.max(alive, frame.instances.count)
      for p in frame.instances where p.sprite != UInt32.max && p.color.w > 0 && p.scale > 0 {
        visible += 1
        let margin = frameMargin * p.scale
        if p.x >= -margin && p.x <= Float(width) + margin && p.y >= -margin && p.y <= Float(height) + margin {
          inside += 1
        }
      }
      if inside > 0 { return [] }
    }
    if alive == 0 {
      var message = "nothing is alive \(when): the frame shows only the background"
      if !times.contains(reference.time) && system.supports(time: reference.time) {
        system.seek(to: reference.time)
        let count = system.liveCount
        message +=
          count > 0
          ? "; the effect has \(count) particles alive at \(numberText(reference.time)) s (\(reference.label))"
          : "; nor at \(numberText(reference.time)) s (\(reference.label))"
      }
      return [message]
    }
    if visible == 0 {
      let count = times.count == 1 ? "\(alive)" : "up to \(alive)"
      return ["\(count) particles alive \(when), none visible (no contents, alpha 0 or scale 0): the frame is empty"]
    }
    return [
      "every particle is outside the \(numberText(width))×\(numberText(height)) pt frame \(when) (centres more than \(numberText(Double(frameMargin))) pt × scale beyond its edges): check emitterPosition and --size"
    ]
  }

  /// Prints `warnings` on stderr as `warning: …` (callers skip it, and
  /// the work of finding them, with `--quiet`).
  static func print(_ warnings: [String], output: CommandOutput) {
    for warning in warnings { output.printError("warning: \(MessageText.shorten(warning))") }
  }
}
