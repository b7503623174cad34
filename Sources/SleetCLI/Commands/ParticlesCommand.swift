import SleetKit
import SleetParticles

/// Options shared by `sleet particles dump` and `sleet particles stats`.
struct ParticlesOptions {
  var effect: Effect
  var threads: Int = 1
  var step: Double?
  var budget = ParticleSystemConfiguration().budget
  var capsOldestFirst = false

  /// Reads `--effect`, `--seed`, `--threads`, `--budget`, `--cap` and
  /// `--step`, each checked against its declared range (``OptionTable``).
  static func parse(_ arguments: inout Arguments) throws(CommandError) -> ParticlesOptions {
    guard let name = try arguments.value(OptionTable.effect) else {
      throw .usage("missing --effect NAME|FILE.json")
    }
    var effect = try loadEffect(name)
    if let seed = try arguments.integer(OptionTable.emitterSeed) { effect.seed = UInt32(seed) }
    var options = ParticlesOptions(effect: effect)
    if let threads = try arguments.integer(OptionTable.threads) { options.threads = threads }
    if let budget = try arguments.integer(OptionTable.budget) { options.budget = budget }
    options.capsOldestFirst = try arguments.flag(OptionTable.cap)
    options.step = try arguments.number(OptionTable.step)
    return options
  }

  func makeSystem(computesIDs: Bool = false) throws(CommandError) -> ParticleSystem {
    do throws(ParticleSystemError) {
      return try ParticleSystem(
        effect: effect,
        configuration: .init(
          budget: budget, overflowPolicy: capsOldestFirst ? .capOldestFirst : .reject, threads: threads,
          computesAffines: false, computesIDs: computesIDs))
    } catch ParticleSystemError.invalidDefinition(let problem) {
      // Bad input (exit 2), naming the key path.
      throw .usage("--effect: \(problem)")
    } catch {
      // Over budget or too many cells: the definition is bad input (exit 2).
      throw .usage("--effect: \(error.description)")
    }
  }

  /// Moves `system` to `time`: by seeking, or with `--step` frame by frame
  /// from 0 (the last step lands exactly on `time`).
  func move(_ system: ParticleSystem, to time: Double, from start: Double = 0) {
    guard let step else {
      system.seek(to: time)
      return
    }
    var n = 0
    var t = start
    system.advance(to: start)
    while t < time {
      n += 1
      t = Swift.min(time, start + Double(n) * step)
      system.advance(to: t)
    }
  }
}

/// Refuses `time` when `system` cannot simulate it exactly
/// (`ParticleSystem.supports(time:)`), naming the flag and the limit.
func checkSupported(_ time: Double, by system: ParticleSystem, flag: String) throws(CommandError) {
  guard !system.supports(time: time) else { return }
  throw .usage(
    "\(flag) \(time): past the latest time this effect can be simulated exactly (emitter-local time \(system.maximumLocalTime) s: beyond it particle ids or Double time resolution run out)"
  )
}

/// The effect named by `--effect` (or `label`, e.g. `render`'s positional
/// EFFECT): a built-in preset name, or an effect file (a path ending in
/// `.json` or containing `/`). Errors start with `label` (default
/// `--effect NAME`; none when empty).
func loadEffect(_ nameOrPath: String, label: String? = nil) throws(CommandError) -> Effect {
  do throws(EffectFormatError) {
    return try Effect(presetOrFile: nameOrPath)
  } catch {
    let prefix = label ?? "--effect \(nameOrPath)"
    throw .usage(prefix.isEmpty ? "\(error)" : "\(prefix): \(error)")
  }
}

/// `sleet particles dump`: every live particle at one time.
struct ParticlesDumpCommand: SleetCommand {
  static let path = ["particles", "dump"]
  static let summary = "print every particle an effect draws at a time, sorted by id"
  static let about = """
    usage: sleet particles dump --effect NAME|FILE.json --time T [--seed N] [--step DT]
                                [--threads N] [--budget N [--cap]] [--format csv|json]

    Simulates the effect to time T (seconds) on the layer's parent timeline
    (emitter-local t = (T − beginTime)·speed + timeOffset), renders the frame
    with the SIMD kernel on --threads threads, and prints every drawn particle
    (particles of cells disabled at T are alive but not drawn) sorted by id,
    one per line (csv, with a header) or as a JSON array:
      id,cell,birth,x,y,z,vx,vy,vz,scale,rotation,r,g,b,a
    id is the particle's stable 64-bit id, cell its cell's key path (e.g.
    rocket.spark; quoted as RFC 4180 requires), birth its birth time in local
    time. x, y, scale, rotation and the colour (clamped to [0, 1]) are the
    rendered instance's, after every emitter behavior; z (tracked, also when
    the layer flattens depth for drawing) is the particle's z at T, birth its
    record's, and vx, vy, vz its velocity at T: the derivative of its
    position, after drag, waves, attractors and keyed velocities (not its
    birth velocity). Times past what the effect can simulate exactly are
    refused (exit 2).

    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    let options = try ParticlesOptions.parse(&arguments)
    guard let time = try arguments.number(OptionTable.dumpTime) else { throw .usage("missing --time T") }
    // Stepping is linear in T / DT; cap it like `stats` caps its rows.
    if let step = options.step, abs(time) / step > Double(SleetLimits.particleSteps) {
      throw .usage("--step: too small for --time (at most \(SleetLimits.particleSteps) steps)")
    }
    let format =
      try arguments.choice(OptionTable.format, ["csv", "json"], spelled: "csv or json") {
        $0 == "csv" || $0 == "json" ? $0 : nil
      }
      ?? "csv"
    try arguments.finish()
    output.print(try dump(options, time: time, json: format == "json"))
  }

  /// The dump of `options.effect` at `time`.
  static func dump(_ options: ParticlesOptions, time: Double, json: Bool) throws(CommandError) -> String {
    let system = try options.makeSystem(computesIDs: true)
    try checkSupported(time, by: system, flag: "--time")
    options.move(system, to: time)
    return render(drawnParticles(system), json: json)
  }

  /// The particles `system` draws at its current time, sorted by id: the
  /// render kernel's output (position, scale, rotation, colour) joined by id
  /// with each particle's snapshot (birth; velocity and tracked z at the
  /// time, after its behaviors).
  static func drawnParticles(_ system: ParticleSystem) -> [ParticleSnapshot] {
    var frame = ParticleFrame()
    system.render(into: &frame)
    var records: [UInt64: ParticleSnapshot] = [:]
    for p in system.particles() { records[p.id] = p }
    var drawn: [ParticleSnapshot] = []
    drawn.reserveCapacity(frame.instances.count)
    for (instance, id) in zip(frame.instances, frame.ids) {
      guard var p = records[id] else { continue }
      p.position.x = instance.x
      p.position.y = instance.y
      p.scale = instance.scale
      p.rotation = instance.rotation
      p.color = instance.color
      drawn.append(p)
    }
    drawn.sort { $0.id < $1.id }
    return drawn
  }

  static let columns = "id,cell,birth,x,y,z,vx,vy,vz,scale,rotation,r,g,b,a"

  /// The particles as csv (header + rows) or a JSON array. Numbers use Swift's
  /// shortest round-trip spelling, so equal bits print equally.
  static func render(_ particles: [ParticleSnapshot], json: Bool) -> String {
    func fields(_ p: ParticleSnapshot) -> [String] {
      [
        "\(p.birthTime)", "\(p.position.x)", "\(p.position.y)", "\(p.position.z)", "\(p.velocity.x)",
        "\(p.velocity.y)", "\(p.velocity.z)", "\(p.scale)", "\(p.rotation)", "\(p.color.x)", "\(p.color.y)",
        "\(p.color.z)", "\(p.color.w)",
      ]
    }
    if json {
      let names = columns.split(separator: ",").dropFirst(2)
      let rows = particles.map { p in
        let numbers = zip(names, fields(p)).map { "\"\($0)\": \($1)" }.joined(separator: ", ")
        return "  {\"id\": \(p.id), \"cell\": \(JSONText.quoted(p.cellPath)), \(numbers)}"
      }
      return rows.isEmpty ? "[]" : "[\n" + rows.joined(separator: ",\n") + "\n]"
    }
    var lines = [columns]
    for p in particles {
      lines.append(([String(p.id), csvField(p.cellPath)] + fields(p)).joined(separator: ","))
    }
    return lines.joined(separator: "\n")
  }

  /// A CSV field as RFC 4180 writes it: in double quotes, with inner quotes
  /// doubled, when it contains a comma, a quote or a line break (cell names
  /// may contain any of them); otherwise as is.
  static func csvField(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
    var quoted = "\""
    for c in text { quoted += c == "\"" ? "\"\"" : String(c) }
    return quoted + "\""
  }
}

/// `sleet particles stats`: live counts per cell over time.
struct ParticlesStatsCommand: SleetCommand {
  static let path = ["particles", "stats"]
  /// The seconds covered without `--duration`.
  static let defaultDuration = 5.0
  /// The seconds between rows without `--interval`.
  static let defaultInterval = 0.5
  static let summary = "print live particle counts per cell over time"
  static let about = """
    usage: sleet particles stats --effect NAME|FILE.json [--duration D] [--interval I]
                                 [--seed N] [--step DT] [--threads N] [--budget N [--cap]]

    Prints a csv table: one row per sample time 0, I, 2I, … ≤ D, with the total
    live count and one column per cell (by key path, e.g. rocket.spark), plus
    the effect's computed peak (an upper bound) on the first line.

    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    let options = try ParticlesOptions.parse(&arguments)
    let duration = try arguments.number(OptionTable.statsDuration) ?? defaultDuration
    let interval = try arguments.number(OptionTable.interval) ?? defaultInterval
    guard duration / interval <= Double(SleetLimits.particleSteps) else {
      throw .usage("--interval: too small for --duration (at most \(SleetLimits.particleSteps) rows)")
    }
    if let step = options.step, duration / step > Double(SleetLimits.particleSteps) {
      throw .usage("--step: too small for --duration (at most \(SleetLimits.particleSteps) steps)")
    }
    try arguments.finish()
    output.print(try table(options, duration: duration, interval: interval))
  }

  /// The counts table of `options.effect`.
  static func table(_ options: ParticlesOptions, duration: Double, interval: Double) throws(CommandError) -> String {
    let system = try options.makeSystem()
    let paths = system.cellPaths
    var lines = [
      "# peak (upper bound): \(system.peakLiveParticles)", (["time", "total"] + paths).joined(separator: ","),
    ]
    var previous = 0.0
    var n = 0
    while Double(n) * interval <= duration {
      let t = Double(n) * interval
      try checkSupported(t, by: system, flag: "--duration")
      options.move(system, to: t, from: previous)
      previous = t
      var counts = [Int](repeating: 0, count: paths.count)
      for p in system.particles() { counts[paths.firstIndex(of: p.cellPath)!] += 1 }
      lines.append((["\(t)", "\(counts.reduce(0, +))"] + counts.map(String.init)).joined(separator: ","))
      n += 1
    }
    return lines.joined(separator: "\n")
  }
}
