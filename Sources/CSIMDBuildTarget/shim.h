// The instruction-set features the *importing* Swift module is compiled for.
// Nothing is linked: this header only reads predefined macros. The Clang
// importer receives Swift's `-target-cpu`, so these macros tell SleetMath
// which SIMD instructions its own code may use (reported by `sleet info` and
// `sleet-bench` through `SIMDBuildTarget`).
#if defined(__AVX2__) && defined(__FMA__)
#define SLEET_COMPILED_AVX2_FMA 1
#else
#define SLEET_COMPILED_AVX2_FMA 0
#endif
#if defined(__AVX512F__)
#define SLEET_COMPILED_AVX512F 1
#else
#define SLEET_COMPILED_AVX512F 0
#endif
#if defined(__AVX__)
#define SLEET_COMPILED_AVX 1
#else
#define SLEET_COMPILED_AVX 0
#endif
#if defined(__SSE4_2__)
#define SLEET_COMPILED_SSE4_2 1
#else
#define SLEET_COMPILED_SSE4_2 0
#endif

// Whether this CPU, and the OS, run AVX2 code: CPUID leaf 1 (AVX, and
// OSXSAVE: the OS manages extended state), XGETBV (the OS saves the xmm and
// ymm registers) and leaf 7 (AVX2) — the check Intel's manual prescribes
// (SDM vol. 1, 14.3 and 14.7.1). Unlike the macros above, this is the
// machine the program runs on: the portable build uses it to pick the AVX2
// copy of the particle block loop (CSleetKernels). CPUID traps to the
// hypervisor in a VM, so callers ask once (SIMDBuildTarget caches it).
#if defined(__x86_64__)
#include <cpuid.h>
static inline int sleet_cpu_has_avx2(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  if ((c & (1u << 27)) == 0 || (c & (1u << 28)) == 0) return 0;
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 6u) != 6u) return 0;
  if (__get_cpuid_max(0, 0) < 7) return 0;
  __cpuid_count(7, 0, a, b, c, d);
  return (b & (1u << 5)) != 0;
}
#else
static inline int sleet_cpu_has_avx2(void) { return 0; }
#endif
