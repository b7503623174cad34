/// An error a command reports. The exit status follows the issue's contract:
/// 0 success, 1 failure, 2 usage error (bad flags, bad input files).
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

  public func print(_ text: String) { standardOutput(text + "\n") }
  public func printError(_ text: String) { standardError(text + "\n") }
}

/// One `sleet` command (a leaf of the command tree, like `particles dump`).
public protocol SleetCommand: Sendable {
  /// The words that select the command, e.g. `["particles", "dump"]`.
  static var path: [String] { get }
  /// One line for `sleet --help`.
  static var summary: String { get }
  /// The full `--help` text: usage line, description, options.
  static var help: String { get }
  /// Runs the command. Throwing `CommandError` sets the exit status.
  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError)
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
    DemoCommand.self,
  ]

  /// Runs `sleet` with `arguments` (without the program name) and returns the
  /// exit status.
  public static func run(_ arguments: [String], output: CommandOutput) -> Int32 {
    // The longest command path that prefixes the arguments wins.
    let match =
      commands
      .filter { arguments.starts(with: $0.path) }
      .max { $0.path.count < $1.path.count }
    guard let command = match else {
      // Help asked for goes to stdout (exit 0); the overview shown because no
      // command was given is a usage error, so it goes to stderr (exit 2).
      if arguments.isEmpty {
        output.printError(overview())
        return 2
      }
      if arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"] {
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
      output.printError("sleet: unknown command '\(arguments.joined(separator: " "))'; see 'sleet --help'")
      return 2
    }
    var args = Arguments(Array(arguments.dropFirst(command.path.count)))
    if args.wantsHelp {
      output.print(command.help)
      return 0
    }
    do {
      try command.run(&args, output: output)
      return 0
    } catch {
      let name = (["sleet"] + command.path).joined(separator: " ")
      output.printError("\(name): \(error.message)")
      if case .usage = error { output.printError("see '\(name) --help'") }
      return error.exitCode
    }
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
    lines.append("exit status: 0 ok, 1 failure, 2 usage error")
    return lines.joined(separator: "\n")
  }
}
