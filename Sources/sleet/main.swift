// The `sleet` executable: all logic lives in SleetCLI so tests can run it in-process.
import SleetCLI
import SleetMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// OpenBLAS's thread count is the program's to choose, not the library's:
// one thread unless the user set OPENBLAS_NUM_THREADS (see BLASInfo).
BLASInfo.useSingleThreadedBLAS()
// Past a file-size limit (`ulimit -f`) a write fails with EFBIG and is
// reported like any other failed write, instead of SIGXFSZ killing the process.
signal(SIGXFSZ, SIG_IGN)
exit(SleetCommandLine.runProcess(Array(CommandLine.arguments.dropFirst())))
