import Synchronization
import Testing

@testable import SleetCLI

/// Runs `sleet` in-process and captures its exit status, stdout and stderr.
/// With `terminal`, stderr counts as a terminal, and a progress line appears
/// after `progressDelay` seconds, redrawn every millisecond.
func runSleet(
  _ arguments: [String], terminal: Bool = false, progressDelay: Double = 1
) -> (status: Int32, out: String, err: String) {
  let out = Mutex("")
  let err = Mutex("")
  var output = CommandOutput(
    standardOutput: { s in out.withLock { $0 += s } },
    standardError: { s in err.withLock { $0 += s } }, errorIsTerminal: terminal)
  output.progressDelay = progressDelay
  output.progressInterval = 0.001
  let status = SleetCommandLine.run(arguments, output: output)
  return (status, out.withLock { $0 }, err.withLock { $0 })
}

@Suite("sleet command line")
struct CommandLineTests {
  @Test func helpListsCommandsAndExitsZero() {
    let r = runSleet(["--help"])
    #expect(r.status == 0)
    #expect(r.out.contains("info"))
  }

  @Test func overviewWithoutACommandIsAUsageErrorOnStderr() {
    let bare = runSleet([])
    #expect(bare.status == 2 && bare.out.isEmpty)
    #expect(bare.err.contains("commands:") && bare.err.contains("particles dump"))
    let group = runSleet(["particles"])
    #expect(group.status == 2 && group.out.isEmpty)
    #expect(
      group.err.contains("particles dump") && group.err.contains("particles stats") && !group.err.contains("info"))
    for help in [["--help"], ["-h"], ["help"], ["particles", "--help"]] {
      let r = runSleet(help)
      #expect(r.status == 0 && r.err.isEmpty && r.out.contains("particles dump"), "\(help)")
    }
  }

  @Test func unknownCommandIsAUsageError() {
    let r = runSleet(["frobnicate"])
    #expect(r.status == 2)
    #expect(r.err.contains("unknown command 'frobnicate'"))
  }

  @Test func unknownOptionIsNamed() {
    let r = runSleet(["info", "--bogus=3"])
    #expect(r.status == 2)
    #expect(r.err.contains("unknown option --bogus"))
  }

  @Test func infoReportsOpenBLAS() {
    let r = runSleet(["info"])
    #expect(r.status == 0)
    #expect(r.out.contains("SleetKit 0.1.0"))
    #expect(r.out.contains("OpenBLAS core:"))
  }

  @Test func argumentsParseGNUStyle() throws {
    var a = Arguments(["--size", "320x480", "--time=1.5", "--json", "file", "--", "--literal"])
    #expect(try a.option("size") == "320x480")
    #expect(try a.double("time") == 1.5)
    #expect(try a.flag("json"))
    #expect(a.positional() == "file")
    #expect(a.positional() == "--literal")
    try a.finish()
    var b = Arguments(["--time", "abc"])
    #expect(throws: CommandError.usage("--time: expected a finite number, got 'abc'")) {
      try b.double("time")
    }
    var c = Arguments(["--seed"])
    #expect(throws: CommandError.usage("--seed needs a value")) { try c.int("seed") }
  }
}
