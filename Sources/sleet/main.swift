// The `sleet` executable: all logic lives in SleetCLI so tests can run it in-process.
import SleetBLAS
import SleetCLI

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
#if canImport(Glibc)
  // Blocks of 256 KiB and more (frames, their compression buffers) are mapped
  // and unmapped one by one. glibc's default threshold grows up to 32 MiB,
  // after which freed frames stay in fragmented heaps and a long render's
  // memory grows with its frame count (600 frames of 390×844 px: 200 MB → 410
  // MB, measured; docs/rendering.md, "Outputs").
  // (`mallopt` is in <malloc.h>, which Swift's Glibc module does not import;
  // M_MMAP_THRESHOLD is -3 there.)
  if let mallopt = dlsym(nil, "mallopt") {
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    _ = unsafeBitCast(mallopt, to: Mallopt.self)(-3, 256 << 10)
  }
#endif
exit(SleetCommandLine.runProcess(Array(CommandLine.arguments.dropFirst())))
