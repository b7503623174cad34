// `sleet-fuzz`: SleetKit's libFuzzer harness (Fuzz/README.md, docs/reliability.md).
//
// Built two ways from this file:
//   - by Fuzz/run.sh with `-sanitize=fuzzer,address -DFUZZING`: libFuzzer
//     calls the entry points below, the target chosen by the SLEET_FUZZ_TARGET
//     environment variable. Two `main`s are linked: libFuzzer's (its archive
//     is linked whole) and this file's, which SwiftPM names `sleet_fuzz_main`
//     and aliases to `main`; whichever the linker keeps, libFuzzer's driver
//     runs (this file's calls `LLVMFuzzerRunDriver`). No `-parse-as-library`:
//     it would remove this file's entry point, which SwiftPM's link line
//     refers to;
//   - by a plain `swift build` (it is a package target, so it must build
//     without the fuzzer flags): a small driver that replays files through a
//     target, writes a target's seed corpus and dictionary, and lists the
//     targets (see FuzzDriver). The fuzzing build runs the same driver when
//     SLEET_FUZZ_DRIVER holds its arguments (Fuzz/run.sh uses it for seeds).
#if canImport(Glibc)
  import Glibc
#endif

#if FUZZING
  @_silgen_name("LLVMFuzzerRunDriver")
  func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
  ) -> Int32

  /// The target of this process, chosen once before fuzzing starts.
  nonisolated(unsafe) var selectedTarget: FuzzTarget?

  @_cdecl("LLVMFuzzerInitialize")
  func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
  ) -> Int32 {
    if let command = getenv("SLEET_FUZZ_DRIVER").map({ String(cString: $0) }) {
      exit(FuzzDriver.main(command.split(separator: " ").map(String.init)))
    }
    guard let name = getenv("SLEET_FUZZ_TARGET").map({ String(cString: $0) }),
      let target = FuzzTarget(rawValue: name)
    else {
      printError("sleet-fuzz: set SLEET_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue))\n")
      exit(2)
    }
    target.prepare()
    selectedTarget = target
    return 0
  }

  @_cdecl("LLVMFuzzerTestOneInput")
  func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selectedTarget!.run(bytes)
    return 0
  }

  // Reached when the linker resolved `main` to this file's entry point
  // rather than libFuzzer's: run libFuzzer's driver from here (it calls
  // LLVMFuzzerInitialize too).
  var argc = CommandLine.argc
  var argv = CommandLine.unsafeArgv
  exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzerTestOneInput))
#else
  exit(FuzzDriver.main(Array(CommandLine.arguments.dropFirst())))
#endif
