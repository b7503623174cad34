// The `sleet` executable: all logic lives in SleetCLI so tests can run it in-process.
import Foundation
import SleetCLI
import SleetMath

// OpenBLAS's thread count is the program's to choose, not the library's:
// one thread unless the user set OPENBLAS_NUM_THREADS (see BLASInfo).
BLASInfo.useSingleThreadedBLAS()
let output = CommandOutput(
  standardOutput: { text in print(text, terminator: "") },
  standardError: { text in FileHandle.standardError.write(Data(text.utf8)) },
  errorIsTerminal: isatty(2) != 0)
let status = SleetCommandLine.run(Array(CommandLine.arguments.dropFirst()), output: output)
exit(status)
