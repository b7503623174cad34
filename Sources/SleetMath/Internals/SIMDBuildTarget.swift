import CSIMDBuildTarget

/// The x86 vector instruction sets SleetMath's SIMD kernels were compiled for.
///
/// Swift has no `#if` test for target features, but the Clang importer is given
/// Swift's `-target-cpu`, so the predefined macros `__AVX2__`, `__FMA__`, … seen
/// through `CSIMDBuildTarget/shim.h` describe exactly the code generation of this
/// module. This is a compile-time fact about the binary, not a property of the
/// machine it runs on (the tools read `/proc/cpuinfo` for that), except
/// ``runsAVX2Kernels``, which also asks the CPU.
///
/// The portable build (`swift build -c release`) reports `x86-64 (SSE2)`; the
/// fast build (`-Xswiftc -target-cpu -Xswiftc haswell`) reports `AVX2+FMA`.
public enum SIMDBuildTarget {
  /// Whether AVX2 and FMA instructions may appear in the compiled kernels.
  public static let hasAVX2AndFMA = SLEET_COMPILED_AVX2_FMA != 0
  /// Whether the particle kernels (the frame's block loop, the birth
  /// sampler; C, in `CSleetKernels`) run their AVX2 copy: in a build
  /// with AVX2 (its only copy), or in an x86-64 build without it — the
  /// portable build — on a CPU and OS that support AVX2 (CPUID and XGETBV,
  /// asked once). Same bits either way; only the speed differs.
  public static let runsAVX2Kernels = hasAVX2AndFMA || sleet_cpu_has_avx2() != 0
  /// Which copy of the particle kernels (the block loop, the birth sampler)
  /// runs, and why: `AVX2 (built for it)`, `AVX2 (this CPU, chosen at run
  /// time)` or `build target (no AVX2 on this CPU)`.
  public static var particleKernels: String {
    if hasAVX2AndFMA { return "AVX2 (built for it)" }
    if runsAVX2Kernels { return "AVX2 (this CPU, chosen at run time)" }
    return "build target (no AVX2 on this CPU)"
  }
  /// Whether AVX-512F instructions may appear in the compiled kernels.
  public static let hasAVX512F = SLEET_COMPILED_AVX512F != 0

  /// The vector extensions enabled at compile time, widest first.
  public static let features: [String] = [
    (SLEET_COMPILED_AVX512F, "AVX-512F"), (SLEET_COMPILED_AVX2_FMA, "AVX2+FMA"),
    (SLEET_COMPILED_AVX, "AVX"), (SLEET_COMPILED_SSE4_2, "SSE4.2"),
  ].filter { $0.0 != 0 }.map { $0.1 }

  /// A one-line description, e.g. `x86-64 with AVX2+FMA, AVX, SSE4.2 (-target-cpu haswell or newer)`.
  public static var summary: String {
    #if arch(x86_64)
      if features.isEmpty { return "x86-64 baseline (SSE2 only: portable build, no -target-cpu)" }
      let hint = hasAVX2AndFMA ? " (-target-cpu haswell or newer)" : ""
      return "x86-64 with " + features.joined(separator: ", ") + hint
    #elseif arch(arm64)
      return "arm64 (NEON)"
    #else
      return "generic"
    #endif
  }
}
