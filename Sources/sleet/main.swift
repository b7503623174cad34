// The `sleet` executable: all logic lives in SleetCLI so tests can run it in-process.
import Foundation
import SleetCLI

let output = CommandOutput(
  standardOutput: { text in print(text, terminator: "") },
  standardError: { text in FileHandle.standardError.write(Data(text.utf8)) },
  errorIsTerminal: isatty(2) != 0)
let status = SleetCommandLine.run(Array(CommandLine.arguments.dropFirst()), output: output)
exit(status)
