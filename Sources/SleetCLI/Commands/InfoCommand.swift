import SleetGPU
import SleetKit

/// `sleet info`: version, build configuration and the OpenBLAS in use.
struct InfoCommand: SleetCommand {
  static let path = ["info"]
  static let summary = "print the version, build configuration and OpenBLAS details"
  static let about = """
    usage: sleet info

    Prints SleetKit's version, whether this is a debug or release build, the CPU
    the SIMD code was compiled for, the Transform3DBatch backends, and the
    OpenBLAS version, core and threads (the blas backend's library; the
    SleetBLAS module is the only part of SleetKit that links OpenBLAS).

    The SIMD target is a compile-time fact read from the Clang importer's
    predefined macros (__AVX2__, __FMA__, ...), which follow -target-cpu: the
    portable build reports the x86-64 baseline, the fast build
    (swift build -c release -Xswiftc -target-cpu -Xswiftc haswell) AVX2+FMA.

    OpenBLAS threads: the sleet executable pins OpenBLAS to one thread at
    startup unless OPENBLAS_NUM_THREADS (or GOTO_NUM_THREADS, OMP_NUM_THREADS)
    is set; the SleetKit library itself never changes the count.

    GPU: the OpenGL ES 3.1 device a GPU render of 'sleet render' would use
    (GL_RENDERER and GL_VERSION of an EGL surfaceless context; "llvmpipe" is
    Mesa's software renderer), or why there is none; never an error.
    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    try arguments.finish()
    output.print("SleetKit \(SleetVersion.string)")
    #if DEBUG
      output.print("build: debug")
    #else
      output.print("build: release")
    #endif
    output.print("SIMD target: \(SIMDBuildTarget.summary)")
    output.print("particle kernels: \(SIMDBuildTarget.particleKernels)")
    output.print("transform backends: \(TransformBackend.allCases.map(\.name).joined(separator: ", "))")
    output.print("OpenBLAS (SleetBLAS, the blas backend): \(BLASInfo.configuration)")
    output.print("OpenBLAS core: \(BLASInfo.coreName), threads: \(BLASInfo.threadCount)")
    output.print("SleetKit BLAS calls: \(BLASInfo.threadPolicy)")
    output.print("GPU (--gpu): \(gpuDevice())")
  }

  /// The renderer and version of the context `--gpu` would open, or why
  /// there is none (this command reports it; it does not fail on it).
  static func gpuDevice() -> String {
    do throws(GPUError) {
      let context = try GPUContext()
      return "\(context.renderer), \(context.version)"
    } catch {
      return "none (\(error.description))"
    }
  }
}
