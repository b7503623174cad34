import SleetMath
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension SleetCommandLine {
  /// Runs `sleet` on the process's own stdout and stderr and returns the exit
  /// status, with every write to stdout checked, the final flush included:
  /// when one fails (a full disk, `> /dev/full`, a closed stdout) the command
  /// ends with `sleet: cannot write to standard output: REASON` on stderr and
  /// exit status 1 (or the command's own non-zero status).
  ///
  /// Binary output (`--out -`) is flushed as it is written and fails at the
  /// first write that fails, so a render stops there; text output is checked
  /// when it is written and at the final flush. Writes to stderr are best effort: there is nowhere left to
  /// report their failure.
  public static func runProcess(_ arguments: [String]) -> Int32 {
    // Ctrl-C or a kill leaves no hidden temporary output behind.
    TemporaryFiles.installSignalCleanup()
    // The first failure's reason, and whether a command already reported it.
    let failure = Mutex<(reason: String, reported: Bool)?>(nil)
    // A buffered stream of its own on file descriptor 1 (nil when fd 1 is
    // closed); stdio locks each call, so any thread may use it.
    nonisolated(unsafe) let standardOutput = fdopen(1, "w")
    let openReason = standardOutput == nil ? String(cString: strerror(errno)) : ""
    @Sendable func put(_ bytes: UnsafeRawBufferPointer) -> String? {
      guard bytes.count > 0 else { return nil }
      guard let standardOutput else { return openReason }
      errno = 0
      guard fwrite(bytes.baseAddress, 1, bytes.count, standardOutput) == bytes.count else {
        return errno == 0 ? "write failed" : String(cString: strerror(errno))
      }
      return nil
    }
    @Sendable func flush() -> String? {
      guard let standardOutput else { return openReason }
      errno = 0
      guard fflush(standardOutput) == 0 else { return errno == 0 ? "write failed" : String(cString: strerror(errno)) }
      return nil
    }
    @Sendable func record(_ reason: String, reported: Bool) {
      failure.withLock { if $0 == nil { $0 = (reason, reported) } }
    }
    var output = CommandOutput(
      standardOutput: { text in
        var text = text
        if let reason = text.withUTF8({ put(UnsafeRawBufferPointer($0)) }) { record(reason, reported: false) }
      },
      standardError: { text in
        var text = text
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
      },
      errorIsTerminal: isatty(2) != 0,
      standardOutputData: { bytes throws(CommandError) in
        // Flushed at once: a failure stops a render at its first write.
        guard let reason = bytes.withUnsafeBytes({ put($0) }) ?? flush() else { return }
        record(reason, reported: true)
        throw .failure("cannot write to standard output: \(reason)")
      })
    output.outputIsTerminal = isatty(1) != 0
    var status = run(arguments, output: output)
    if let reason = flush() { record(reason, reported: false) }
    if let (reason, reported) = failure.withLock({ $0 }) {
      if !reported { output.printError("sleet: cannot write to standard output: \(reason)") }
      if status == 0 { status = 1 }
    }
    return status
  }
}
