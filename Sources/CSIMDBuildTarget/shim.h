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
