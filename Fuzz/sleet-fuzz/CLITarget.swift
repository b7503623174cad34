import SleetCLI
import SleetKit
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `SleetCommandLine.run` with in-memory output. Input: words separated by 0
/// bytes; the first byte chooses a command that prints rather than renders
/// (or none: the words go to the dispatcher as they are). Kept cheap and
/// contained:
/// - a command that renders (`render`, `shatter render`, `transition
///   render`, `demo`) gets `--help` right after its words, so the fuzzer
///   never renders full frames;
/// - every word that looks like a path (contains '/', or ends in .json,
///   .png or .apng) is redirected to a file of that base name in a scratch
///   folder that holds fixtures (valid and broken effect files, a gesture,
///   a PNG, a folder, a link to /dev/zero), which is also the working
///   folder: the fuzzer reads and writes only there.
///
/// Checked: the exit status is 0, 1 or 2; a failure says why on stderr,
/// prefixed `sleet`; `presets export` to stdout prints an effect file that
/// reads back.
enum CLITarget {
  /// The commands the first byte chooses from; [] passes the words as they are.
  static let commands: [[String]] = [
    [], ["info"], ["presets", "list"], ["presets", "export"], ["validate"], ["shatter", "plan"],
    ["shatter", "frame"], ["particles", "dump"], ["particles", "stats"], ["transition", "frame"],
  ]

  /// Commands that render frames: help only.
  static let rendering: [[String]] = [["render"], ["demo"], ["shatter", "render"], ["transition", "render"]]

  nonisolated(unsafe) static var scratch = ""

  /// A `--size WxH` value with each side at most 200 points: `shatter frame
  /// --size 11x9440` is a valid request for 103,840 one-point pieces (8 MB
  /// of text, 0.5 s in a release build, past libFuzzer's 30 s timeout under
  /// ASan). Other spellings are left for the parser to refuse.
  static func smallSize(_ word: String) -> String {
    let sides = word.split(separator: "x", omittingEmptySubsequences: false)
    guard sides.count == 2, let w = Double(sides[0]), let h = Double(sides[1]), w.isFinite, h.isFinite else {
      return word
    }
    return "\(Swift.min(w, 200))x\(Swift.min(h, 200))"
  }

  /// Values that set how much a printing command simulates, kept cheap:
  /// `particles stats --effect fireworks --duration 8216` is a valid request
  /// for 16,433 rows (14 s in a release build, past libFuzzer's 30 s timeout
  /// under ASan), and the row and step limits behind them are unit-tested
  /// (`ParticlesCommandTests`). Parsing the flags is still fuzzed: only a
  /// finite number is replaced, by the nearest value in the cheap range.
  static let costBounds: [String: @Sendable (Double) -> Double] = [
    "--duration": { Swift.min($0, 5) },
    // `particles dump --time 79221 --step 0.8`: 99,027 steps, valid and bounded.
    "--time": { Swift.min($0, 5) },
    "--interval": { Swift.max($0, 0.05) },
    "--step": { Swift.max($0, 1.0 / 60) },
    "--budget": { Swift.min($0, 100_000) },
  ]

  /// The fixture files, by name.
  static func fixtures() -> [String: [UInt8]] {
    let fireworks = (try? Effect.preset(named: "fireworks").jsonString()) ?? "{}"
    return [
      "effect.json": Array(fireworks.utf8),
      "snow.json": Array(((try? Effect.preset(named: "snow").jsonString()) ?? "{}").utf8),
      // A one-letter name, which Foundation's path functions must not trap
      // on (Fuzz/regressions/cli/crash-ba50e2fe…, `validate t`).
      "t": Array(fireworks.utf8),
      "bad.json": Array(#"{"format": 1, "birthRate": -1,}"#.utf8),
      "deep.json": Array((String(repeating: "[", count: 70) + String(repeating: "]", count: 70)).utf8),
      "changes.json": Array(
        #"""
        {"format": 1, "emitterCells": [{"name": "a", "birthRate": 10, "lifetime": 2, "contents": "disc",
          "emitterCells": [{"name": "b", "birthRate": 5, "lifetime": 0.5}]}],
         "changes": [{"time": 1, "keyPath": "emitterCells.a.birthRate", "value": 0}]}
        """#.utf8),
      "sprite.json": Array(
        #"{"format": 1, "emitterCells": [{"name": "s", "birthRate": 5, "lifetime": 1, "contents": "sprite.png"}]}"#
          .utf8),
      "gesture.json": Array(#"{"samples": [{"time": 0, "translationX": 0}, {"time": 0.1, "translationX": 40}]}"#.utf8),
      "sprite.png": PNGFile.encode(RGBAImage(width: 2, height: 2, fill: SIMD4(1, 1, 1, 1))),
      "empty.json": [],
    ]
  }

  static func prepare() {
    var template = Array("/tmp/sleet-fuzz-cli-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      printError("sleet-fuzz: cannot make a scratch folder\n")
      exit(1)
    }
    scratch = String(cString: made)
    for (name, bytes) in fixtures() {
      let file = fopen(scratch + "/" + name, "wb")!
      _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
      fclose(file)
    }
    mkdir(scratch + "/folder.json", 0o755)
    symlink("/dev/zero", scratch + "/zero.json")
    // Relative paths the redirection lets through (`validate foo`) resolve
    // there too, never in the folder the fuzzer was started from.
    chdir(scratch)
  }

  /// A path-like word as a name in the scratch folder: its last component,
  /// reduced to [A-Za-z0-9._-], at most 40 characters.
  static func redirect(_ word: String, always: Bool = false) -> String {
    let lower = word.lowercased()
    guard
      always || word.contains("/") || lower.hasSuffix(".json") || lower.hasSuffix(".png") || lower.hasSuffix(".apng")
    else { return word }
    let last = word.split(separator: "/").last.map(String.init) ?? ""
    let allowed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-".unicodeScalars
    let kept = last.unicodeScalars.filter { allowed.contains($0) }
    var name = String(String.UnicodeScalarView(kept.prefix(40)))
    if name.isEmpty || name == "." || name == ".." { name = "x" }
    return scratch + "/" + name
  }

  /// `--name=value` with the value redirected, or the word redirected; the
  /// value of `--out` always (it names a file to write).
  static func contained(_ word: String, after previous: String?) -> String {
    // Checked first: an option's value may itself look like `--name=value`.
    if previous == "--out" { return redirect(word, always: true) }
    if let previous, let bound = costBounds[previous], let value = Double(word), value.isFinite {
      return String(bound(value))
    }
    if previous == "--size" { return smallSize(word) }
    if word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
      let name = word[..<eq]
      let value = String(word[word.index(after: eq)...])
      if let bound = costBounds[String(name)], let number = Double(value), number.isFinite {
        return String(word[...eq]) + String(bound(number))
      }
      if name == "--size" { return String(word[...eq]) + smallSize(value) }
      return String(word[...eq]) + redirect(value, always: name == "--out")
    }
    return redirect(word)
  }

  static func run(_ bytes: [UInt8]) {
    var input = ByteReader(bytes)
    let command = commands[Int(input.byte()) % commands.count]
    var words: [String] = []
    while !input.isEmpty, words.count < 16 {
      words.append(contained(String(decoding: input.field(), as: UTF8.self), after: words.last ?? command.last))
    }
    var arguments = command + words
    // `--help` right after the command's words: after a `--` it would be an
    // argument, and the command would render.
    if let path = rendering.first(where: { arguments.starts(with: $0) }) {
      arguments.insert("--help", at: path.count)
    }

    let out = Mutex("")
    let err = Mutex("")
    let status = SleetCommandLine.run(
      arguments,
      output: CommandOutput(
        standardOutput: { s in out.withLock { $0 += s } }, standardError: { s in err.withLock { $0 += s } }))
    let (stdout, stderr) = (out.withLock { $0 }, err.withLock { $0 })
    fuzzCheck([0, 1, 2].contains(status), "exit status \(status) for \(arguments)")
    if status != 0 {
      fuzzCheck(stderr.hasPrefix("sleet"), "failure without a message for \(arguments): \(stderr)")
    }
    if status == 0, arguments.starts(with: ["presets", "export"]),
      !arguments.contains(where: { $0.hasPrefix("--out") }),
      !arguments.contains("--help") && !arguments.contains("-h")
    {
      fuzzCheck((try? Effect(json: stdout)) != nil, "presets export printed an effect that does not read back")
    }
  }
}
