import Glibc
import SleetKit
import SleetMath
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// The option table (``OptionTable``): every option declared once, and help,
/// parsing, range checks, suggestions and docs/cli.md made from it.
@Suite("option table")
struct OptionTableTests {
  /// docs/cli.md's option tables are the ones the declarations render: the
  /// test fails when either changes without the other.
  @Test func docsTablesMatchTheDeclarations() throws {
    let docs = textFile(repositoryPath("docs/cli.md"))
    let begin = try #require(docs.range(of: "<!-- options tables: begin -->\n"))
    let end = try #require(docs.range(of: "<!-- options tables: end -->"))
    let documented = String(docs[begin.upperBound..<end.lowerBound])
    let rendered = OptionTable.markdown(commands: SleetCommandLine.commands.map { $0.path })
    #expect(documented == rendered, "docs/cli.md, between the markers, should read:\n\(rendered)")
  }

  /// Each command's help lists each of its options with its help line, in
  /// rows no wider than the help width; every `--name` the help mentions is
  /// one the command takes.
  @Test func helpListsEveryOption() {
    for command in SleetCommandLine.commands {
      let help = command.help
      let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let options = OptionTable.options(for: command.path)
      for option in options {
        #expect(lines.contains { $0.hasPrefix("  \(option.spelling) ") }, "\(command.path): \(option.spelling)")
        let words = option.helpLine.split(separator: " ").joined(separator: " ")
        let section = lines.drop { $0 != "options:" }.joined(separator: " ").split(separator: " ").joined(
          separator: " ")
        #expect(section.contains(words), "\(command.path) \(option.spelling): \(option.helpLine)")
      }
      for line in lines.drop(while: { $0 != "options:" }) {
        #expect(line.count <= OptionTable.helpWidth, "\(command.path): \(line)")
      }
      #expect(mentionedOptions(help).isSubset(of: command.optionNames), "\(command.path)")
      #expect(command.optionNames == Set(options.map(\.name)))
    }
  }

  /// No command takes two declarations of one name, and every declaration
  /// names real commands.
  @Test func eachCommandTakesEachNameOnce() {
    let paths = SleetCommandLine.commands.map { $0.path }
    for option in OptionTable.all {
      #expect(!option.commands.isEmpty, "\(option.spelling)")
      for path in option.commands { #expect(paths.contains(path), "\(option.spelling): \(path)") }
    }
    for path in paths {
      let names = OptionTable.options(for: path).map(\.name)
      #expect(names.count == Set(names).count, "\(path): \(names)")
    }
  }

  /// Every declared option parses its example value through the reader its
  /// declaration selects, and a ranged one refuses a value just outside its
  /// range with the message the range writes.
  @Test func everyDeclaredOptionParses() throws {
    for option in OptionTable.all {
      let example = try #require(Self.examples[option.name], "no example for --\(option.name)")
      guard option.value != nil else {
        var arguments = Arguments(["--\(option.name)"])
        #expect(try arguments.flag(option), "\(option.spelling)")
        continue
      }
      var arguments = Arguments(["--\(option.name)", example])
      guard let range = option.range else {
        #expect(try arguments.value(option) == example)
        continue
      }
      switch range.bounds {
      case .integers(let bounds):
        #expect(try arguments.integer(option) == Int(example), "\(option.spelling)")
        var below = Arguments(["--\(option.name)=\(bounds.lowerBound - 1)"])
        #expect(throws: CommandError.usage(range.violation(option.name, got: "\(bounds.lowerBound - 1)"))) {
          try below.integer(option)
        }
      case .numbers(let lower, let includesLower, let upper):
        #expect(try arguments.number(option) == Double(example), "\(option.spelling)")
        let outside = upper.map { $0 + 1 } ?? (includesLower ? lower - 1 : lower)
        var refused = Arguments(["--\(option.name)=\(outside)"])
        #expect(throws: CommandError.usage(range.violation(option.name, got: numberText(outside)))) {
          try refused.number(option)
        }
      }
    }
  }

  /// Each command reads every option it declares: given on a command line
  /// that is complete but fails after its options are read (or is cheap to
  /// run), none is reported unknown or left over.
  @Test func everyCommandReadsItsOptions() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try PNGFile.write(RGBAImage(width: 4, height: 4), to: folder + "/a.png")
    let picture = folder + "/a.png"
    let bases: [[String]: [String: String?]] = [
      ["presets", "export"]: [:],
      ["validate"]: [:],
      ["shatter", "plan"]: ["size": "10x10"],
      ["shatter", "frame"]: ["size": "10x10", "time": "0"],
      ["particles", "dump"]: ["effect": "snow", "time": "0"],
      ["particles", "stats"]: ["effect": "snow", "duration": "0"],
      ["render"]: ["out": folder + "/o.png"],
      ["transition", "frame"]: ["style": "fade", "size": "10x10", "time": "0"],
      ["transition", "render"]: ["style": "fade", "from": picture, "to": picture, "out": folder + "/t.png"],
      ["shatter", "render"]: ["from": picture, "to": picture, "out": folder + "/s.png"],
      ["demo"]: ["scale": "0.0001"],
      ["import"]: [:],
      ["play"]: [:],
    ]
    let positionals: [[String]: [String]] = [
      ["presets", "export"]: ["no-such-preset"], ["validate"]: ["/nonexistent-sleet/x.json"],
      ["render"]: ["no-such-preset"], ["import"]: ["/nonexistent-sleet/x.swift"], ["play"]: ["no-such-preset"],
    ]
    for command in SleetCommandLine.commands where !command.optionNames.isEmpty {
      let base = try #require(bases[command.path], "no command line for \(command.path)")
      for option in OptionTable.options(for: command.path) {
        var given = base
        given[option.name] = option.value == nil ? .some(nil) : Self.examples[option.name]!
        // Paths that must exist, or be writable, in the test's folder.
        for name in ["from", "to", "image"] where given[name] != nil { given[name] = picture }
        for name in ["out", "gesture"] where given[name] != nil { given[name] = folder + "/" + Self.examples[name]! }
        var words = command.path + (positionals[command.path] ?? [])
        for (name, value) in given.sorted(by: { $0.key < $1.key }) {
          words += ["--\(name)"] + (value.map { [$0] } ?? [])
        }
        let r = runSleet(words)
        #expect(!r.err.contains("unknown option") && !r.err.contains("unexpected argument"), "\(words): \(r.err)")
      }
    }
  }

  /// A value for each option name, valid for every declaration of it.
  static let examples: [String: String] = [
    "out": "o.png", "force": "", "gpu": "", "seed": "1", "duration": "1", "fps": "10", "start": "0", "time": "0",
    "size": "10x10", "scale": "0.0001", "background": "#000000", "frames": "0-0", "shard": "0/1", "quality": "50",
    "lossless": "", "dither": "none", "style": "checkerboard", "direction": "push", "image-rect": "0,0,2,2",
    "target-rect": "0,0,2,2", "button": "0,0,2,2", "divisor": "2", "progress": "0.5", "json": "", "from": "a.png",
    "to": "b.png", "gesture": "g.json", "completion-speed": "1", "image": "i.png", "hold": "0", "backend": "simd",
    "effect": "snow", "step": "0.5", "threads": "1", "budget": "100", "cap": "", "format": "json", "interval": "0.5",
    "width": "100", "parameter": "width=100", "only": "snow", "crf": "20", "preset": "fast", "sprites": ".",
    "strict": "", "transition": "fade", "watch": "", "paused": "", "snapshots": "/nonexistent-sleet-folder",
    "quiet": "", "yes": "", "no-parameters": "",
  ]

  /// Every `--name` a help text mentions (names without `--`), `--help` aside.
  func mentionedOptions(_ help: String) -> Set<String> {
    var names: Set<String> = []
    let characters = Array(help)
    var i = 0
    while i + 2 < characters.count {
      let startsName = characters[i] == "-" && characters[i + 1] == "-" && characters[i + 2].isLetter
      guard startsName, i == 0 || !(characters[i - 1].isLetter || characters[i - 1] == "-") else {
        i += 1
        continue
      }
      var j = i + 2
      while j < characters.count, characters[j].isLetter || characters[j].isNumber || characters[j] == "-" { j += 1 }
      names.insert(String(characters[(i + 2)..<j]))
      i = j
    }
    names.remove("help")
    return names
  }

  // MARK: - One suggestion rule

  /// The CLI and the effect reader suggest the same for the same typo: a
  /// preset name mistyped in `sleet demo --only` (the CLI's check) and in
  /// `sleet render` (the effect reader's preset lookup).
  @Test func theCLIAndTheEffectReaderSuggestAlike() {
    for (typo, expected) in [("ra", "rain"), ("snwo", "snow"), ("sonw", "snow"), ("xq", nil)] as [(String, String?)] {
      let demo = runSleet(["demo", "--only", typo])
      let render = runSleet(["render", typo, "--out", "/tmp/sleet-unused.png"])
      #expect(demo.status == 2 && render.status == 2)
      for r in [demo, render] {
        if let expected {
          #expect(r.err.contains("did you mean '\(expected)'?"), "\(typo): \(r.err)")
        } else {
          #expect(!r.err.contains("did you mean"), "\(typo): \(r.err)")
        }
      }
      #expect(Suggestion.closest(to: typo, in: Effect.presetNames) == expected)
    }
  }

  /// The rule: at most two edits (a swap of neighbours is one), never a
  /// complete rewrite, nearest first, ties alphabetical, case ignored.
  @Test func theSuggestionRule() {
    #expect(Suggestion.distance("render", "rednre") == 2)
    #expect(Suggestion.distance("rendr", "render") == 1)
    #expect(Suggestion.distance("redner", "render") == 1)
    #expect(Suggestion.distance("", "abc") == 3)
    #expect(Suggestion.closest(to: "ra", in: ["rain", "snow"]) == "rain")
    #expect(Suggestion.closest(to: "xy", in: ["ab", "cd"]) == nil)
    #expect(Suggestion.closest(to: "abcd", in: ["abxy"]) == "abxy")
    #expect(Suggestion.closest(to: "abcd", in: ["wxyz"]) == nil)
    #expect(Suggestion.closest(to: "cat", in: ["cut", "bat"]) == "bat")
    #expect(Suggestion.closest(to: "cat", in: ["bat", "cut"]) == "bat")
    #expect(Suggestion.closest(to: "RENDR", in: ["render"]) == "render")
    #expect(Suggestion.closest(to: String(repeating: "a", count: 2000), in: ["a"]) == nil)
  }

  /// A mistyped choice is answered with the closest.
  @Test func mistypedChoicesGetASuggestion() {
    let r = runSleet(["transition", "frame", "--style", "fdae", "--size", "10x10", "--time", "0"])
    #expect(
      r.status == 2 && r.err.contains("--style: expected slide, fade,") && r.err.contains("(did you mean 'fade'?)"))
  }
}
