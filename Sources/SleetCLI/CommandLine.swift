import SleetKit
import SleetMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An error a command reports. The exit status (docs/cli.md, "Exit status"):
/// 0 success, 1 the work failed (an output could not be written), 2 usage
/// error or bad input (flags, effect files, pictures, sprites, limits).
public enum CommandError: Error, Equatable, Sendable {
  /// Bad flags or input: exit status 2.
  case usage(String)
  /// The command could not do its work: exit status 1.
  case failure(String)

  public var exitCode: Int32 {
    switch self {
    case .usage: 2
    case .failure: 1
    }
  }

  public var message: String {
    switch self {
    case .usage(let m), .failure(let m): m
    }
  }
}

/// Where a command writes. Tests capture both streams in memory; the `sleet`
/// executable writes them to the process's stdout and stderr.
public struct CommandOutput: Sendable {
  public var standardOutput: @Sendable (String) -> Void
  public var standardError: @Sendable (String) -> Void
  /// Whether stderr is a terminal (progress is only shown there).
  public var errorIsTerminal: Bool
  /// Whether stdout is a terminal: binary output (`--out -`) is then
  /// refused unless `--force`.
  var outputIsTerminal = false
  /// How long a render runs before its progress line appears, and how often
  /// it is redrawn, in seconds (tests shorten both).
  var progressDelay = 1.0
  var progressInterval = 0.25
  /// Reads standard input (`sleet import -`), at most `limit` bytes; tests
  /// replace it. A terminal is refused rather than waited on: the code is
  /// meant to be piped in.
  var readStandardInput: @Sendable (_ limit: Int) throws(InputFileError) -> [UInt8] = {
    (limit: Int) throws(InputFileError) in
    guard isatty(0) == 0 else {
      throw .unreadable(reason: "it is a terminal; pipe the code in (sleet import - < FILE.swift)")
    }
    return try InputFile.read("/dev/stdin", limit: limit)
  }
  /// The progress line of the running command, for the code that draws.
  let progress = ProgressHub()
  /// Binary data for stdout (`--out -`): throws `.failure` when the write
  /// fails. By default there is no binary stdout (a failure saying so).
  public var standardOutputData: @Sendable ([UInt8]) throws(CommandError) -> Void

  public init(
    standardOutput: @escaping @Sendable (String) -> Void,
    standardError: @escaping @Sendable (String) -> Void,
    errorIsTerminal: Bool = false,
    standardOutputData: @escaping @Sendable ([UInt8]) throws(CommandError) -> Void = { _ throws(CommandError) in
      throw .failure("this output takes no binary data (--out -)")
    }
  ) {
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.errorIsTerminal = errorIsTerminal
    self.standardOutputData = standardOutputData
  }

  /// Prints a line on stdout, first erasing a progress line from the
  /// terminal (it is drawn again on its next tick).
  public func print(_ text: String) {
    progress.progress?.clearLine()
    standardOutput(text + "\n")
  }
  public func printError(_ text: String) {
    progress.progress?.clearLine()
    standardError(text + "\n")
  }
}

/// One `sleet` command (a leaf of the command tree, like `particles dump`).
public protocol SleetCommand: Sendable {
  /// The words that select the command, e.g. `["particles", "dump"]`.
  static var path: [String] { get }
  /// One line for `sleet --help`.
  static var summary: String { get }
  /// The usage line and the description of `--help`, before its options.
  static var about: String { get }
  /// The full `--help` text: ``about``, then the options the command takes
  /// (``OptionTable``). By default made from the two.
  static var help: String { get }
  /// The long options the command accepts (names without `--`): by default
  /// those ``OptionTable`` declares for it, so what the help documents is
  /// what the unknown-option check lets through.
  static var optionNames: Set<String> { get }
  /// Runs the command. Throwing `CommandError` sets the exit status.
  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError)
}

extension SleetCommand {
  public static var help: String {
    let options = OptionTable.helpSection(for: path)
    return options.isEmpty ? about : about + "\n\n" + options
  }
  public static var optionNames: Set<String> { OptionTable.names(for: path) }
}

/// The `sleet` tool: dispatches to a command and maps errors to exit codes.
public enum SleetCommandLine {
  /// Every command, in the order `sleet --help` lists them.
  public static let commands: [any SleetCommand.Type] = [
    InfoCommand.self,
    PresetsListCommand.self,
    PresetsExportCommand.self,
    ValidateCommand.self,
    ShatterPlanCommand.self,
    ShatterFrameCommand.self,
    ParticlesDumpCommand.self,
    ParticlesStatsCommand.self,
    RenderCommand.self,
    ShatterRenderCommand.self,
    TransitionFrameCommand.self,
    TransitionRenderCommand.self,
    PlayCommand.self,
    DemoCommand.self,
    ImportCommand.self,
  ]

  /// Runs `sleet` with `arguments` (without the program name) and returns the
  /// exit status.
  public static func run(_ arguments: [String], output: CommandOutput) -> Int32 {
    if arguments == ["--version"] || arguments == ["version"] {
      output.print("sleet \(SleetVersion.string)")
      return 0
    }
    if arguments.first == "help" { return help(Array(arguments.dropFirst()), output: output) }
    guard let command = command(for: arguments) else {
      // Help asked for goes to stdout (exit 0); the overview shown because no
      // command was given is a usage error, so it goes to stderr (exit 2).
      if arguments.isEmpty {
        output.printError(overview())
        return 2
      }
      if arguments == ["--help"] || arguments == ["-h"] {
        output.print(overview())
        return 0
      }
      // A group word (`sleet particles`) with --help or nothing after it.
      let group = commands.filter { arguments.first == $0.path.first }
      if !group.isEmpty, arguments.count == 1 {
        output.printError(overview(of: group))
        return 2
      }
      if !group.isEmpty, arguments.dropFirst().allSatisfy({ $0 == "--help" || $0 == "-h" }) {
        output.print(overview(of: group))
        return 0
      }
      output.printError(MessageText.shorten(unknownCommand(arguments)))
      return 2
    }
    var args = Arguments(Array(arguments.dropFirst(command.path.count)))
    if args.wantsHelp {
      output.print(command.help)
      return 0
    }
    do {
      try args.checkKnown(command.optionNames)
      try command.run(&args, output: output)
      output.progress.progress?.finish()
      return 0
    } catch {
      output.progress.progress?.abandon()
      let name = (["sleet"] + command.path).joined(separator: " ")
      output.printError("\(name): \(MessageText.shorten(error.message))")
      if case .usage = error { output.printError("see '\(name) --help'") }
      return error.exitCode
    }
  }

  /// The command whose path is the longest prefix of `arguments`.
  static func command(for arguments: [String]) -> (any SleetCommand.Type)? {
    commands.filter { arguments.starts(with: $0.path) }.max { $0.path.count < $1.path.count }
  }

  /// `sleet help [COMMAND...]`: the overview, a group's overview or a
  /// command's help on stdout (exit 0); an unknown name is a usage error.
  static func help(_ words: [String], output: CommandOutput) -> Int32 {
    if words.isEmpty || words == ["--help"] || words == ["-h"] {
      output.print(overview())
      return 0
    }
    if let command = commands.first(where: { $0.path == words }) {
      output.print(command.help)
      return 0
    }
    let group = commands.filter { $0.path.first == words[0] }
    if words.count == 1, !group.isEmpty {
      output.print(overview(of: group))
      return 0
    }
    output.printError(unknownCommand(words, prefix: "help "))
    return 2
  }

  /// "unknown command …", with the closest command when one is near: the
  /// first word among the command words, `help` and `version`; the second
  /// among a group's commands when the first names the group.
  static func unknownCommand(_ arguments: [String], prefix: String = "") -> String {
    let spelled = arguments.joined(separator: " ")
    var message = "sleet: unknown command '\(prefix)\(spelled)'"
    let first = arguments[0]
    let group = commands.filter { $0.path.first == first && $0.path.count > 1 }
    var guess: String?
    if !group.isEmpty, arguments.count > 1 {
      guess = Suggestion.closest(to: arguments[1], in: group.map { $0.path[1] }).map { "\(first) \($0)" }
    } else if first.hasPrefix("-") {
      guess = Suggestion.closest(to: first, in: ["--help", "--version"])
    } else {
      var words = Set(commands.map { $0.path[0] })
      if prefix.isEmpty { words.formUnion(["help", "version"]) }
      guess = Suggestion.closest(to: first, in: words)
      if let word = guess, commands.contains(where: { $0.path.count > 1 && $0.path[0] == word }) {
        // A group: suggest the whole command when the rest names one of it.
        if arguments.count > 1, commands.contains(where: { $0.path == [word, arguments[1]] }) {
          guess = "\(word) \(arguments[1])"
        }
      }
    }
    if let guess { message += "; did you mean '\(prefix)\(guess)'?" }
    return message + "\nsee 'sleet --help'"
  }

  static func overview(of list: [any SleetCommand.Type] = commands) -> String {
    var lines = [
      "sleet — preview, export and inspect SleetKit particle effects and view transitions",
      "",
      "usage: sleet <command> [options]      sleet <command> --help",
      "",
      "commands:",
    ]
    let width = list.map { $0.path.joined(separator: " ").count }.max() ?? 0
    for c in list {
      let name = c.path.joined(separator: " ")
      lines.append("  " + name + String(repeating: " ", count: width - name.count + 2) + c.summary)
    }
    lines.append("")
    lines.append("sleet help COMMAND    a command's help (as 'sleet COMMAND --help')")
    lines.append("sleet --version       the version")
    lines.append("")
    lines.append("exit status: 0 ok, 1 the work failed (e.g. an output not written), 2 usage error or bad input")
    lines.append("(docs/cli.md has the full table)")
    return lines.joined(separator: "\n")
  }
}
