import SleetMath
import Testing

@testable import SleetCLI

@Suite("sleet info")
struct InfoCommandTests {
  @Test func reportsBuildAndSIMDTarget() {
    let r = runSleet(["info"])
    #expect(r.status == 0)
    #if DEBUG
      #expect(r.out.contains("build: debug"))
    #else
      #expect(r.out.contains("build: release"))
    #endif
    #expect(r.out.contains("SIMD target: \(SIMDBuildTarget.summary)"))
    #expect(r.out.contains("particle kernels: \(SIMDBuildTarget.particleKernels)"))
    #if arch(x86_64)
      #expect(SIMDBuildTarget.summary.hasPrefix("x86-64"))
      // AVX2+FMA implies AVX in the compiled feature list (the macros are consistent).
      if SIMDBuildTarget.hasAVX2AndFMA { #expect(SIMDBuildTarget.features.contains("AVX")) }
    #endif
    #expect(r.out.contains("SleetKit BLAS calls: "))
    #expect(r.out.contains("transform backends: scalar, simd, blas, automatic\n"))
  }
}
