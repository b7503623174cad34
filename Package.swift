// swift-tools-version: 6.0
//
// SleetKit: a headless, deterministic particle and shatter-effects kernel with
// Core Animation semantics. See README.md and docs/architecture.md.
//
// Fast builds are opt-in and never forced on dependents (no unconditional
// unsafeFlags): pass `-Xswiftc -target-cpu -Xswiftc haswell` on the command line.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6)
]

let package = Package(
  name: "SleetKit",
  products: [
    .library(name: "SleetKit", targets: ["SleetKit"]),
    // One product per module, for programs that need less than the umbrella
    // (README, "Products"): only SleetBLAS links OpenBLAS, only SleetPreview
    // libpng and libwebp/giflib, only SleetGPU EGL and OpenGL ES (not in the
    // umbrella: docs/gpu.md), only SleetVideo FFmpeg's libraries (not in the
    // umbrella: docs/rendering.md, "Video"); SleetMath, SleetParticles, SleetShatter,
    // SleetTransitions and SleetImport need no system library.
    .library(name: "SleetMath", targets: ["SleetMath"]),
    .library(name: "SleetBLAS", targets: ["SleetBLAS"]),
    .library(name: "SleetParticles", targets: ["SleetParticles"]),
    .library(name: "SleetShatter", targets: ["SleetShatter"]),
    .library(name: "SleetTransitions", targets: ["SleetTransitions"]),
    .library(name: "SleetPreview", targets: ["SleetPreview"]),
    .library(name: "SleetGPU", targets: ["SleetGPU"]),
    .library(name: "SleetVideo", targets: ["SleetVideo"]),
    .library(name: "SleetImport", targets: ["SleetImport"]),
    // The C API (docs/c-api.md): libSleetKitC.so and include/sleetkit.h.
    .library(name: "SleetKitC", type: .dynamic, targets: ["SleetKitC"]),
    .executable(name: "sleet", targets: ["sleet"]),
    .executable(name: "sleet-bench", targets: ["sleet-bench"]),
  ],
  targets: [
    // MARK: - Public API
    .target(
      name: "SleetMath",
      dependencies: ["CSIMDBuildTarget"],
      swiftSettings: swiftSettings),
    // The OpenBLAS backend of Transform3DBatch (`TransformBackend.blas`,
    // `BLASInfo`): the only module that links libopenblas.
    .target(
      name: "SleetBLAS",
      dependencies: ["SleetMath", "COpenBLAS"],
      swiftSettings: swiftSettings),
    .target(
      name: "SleetParticles",
      dependencies: ["SleetMath", "CSleetKernels"],
      resources: [.copy("Presets")],
      swiftSettings: swiftSettings),
    .target(
      name: "SleetShatter",
      dependencies: ["SleetMath"],
      swiftSettings: swiftSettings),
    .target(
      name: "SleetTransitions",
      dependencies: ["SleetMath", "SleetShatter"],
      swiftSettings: swiftSettings),
    .target(
      name: "SleetPreview",
      dependencies: [
        "SleetMath", "SleetParticles", "SleetShatter", "SleetTransitions", "CPNG", "CWebP", "CGIF",
      ],
      swiftSettings: swiftSettings),
    // The closed-form shader on a GPU through EGL + OpenGL ES 3.1
    // (docs/gpu.md). Its own module: nothing else depends on it.
    .target(
      name: "SleetGPU",
      dependencies: ["SleetParticles", "CEGL", "CGLES"],
      swiftSettings: swiftSettings),
    // MP4 (H.264), WebM (VP9 with alpha) and MOV (ProRes 4444 with alpha)
    // through FFmpeg's libraries (docs/rendering.md, "Video"). Its own
    // module, like SleetGPU: the umbrella's users need no FFmpeg.
    .target(
      name: "SleetVideo",
      dependencies: ["SleetPreview", "CFFmpeg", "CSleetConversion"],
      swiftSettings: swiftSettings),
    // CAEmitterLayer setup code (Swift, Objective-C) read into an effect
    // (docs/import.md); no system library.
    .target(
      name: "SleetImport",
      dependencies: ["SleetMath", "SleetParticles"],
      swiftSettings: swiftSettings),
    // The umbrella: re-exports the modules above and nothing else.
    .target(
      name: "SleetKit",
      dependencies: [
        "SleetMath", "SleetBLAS", "SleetParticles", "SleetShatter", "SleetTransitions", "SleetPreview",
        "SleetImport",
      ],
      swiftSettings: swiftSettings),

    // MARK: - C API
    // The header alone (Sources/SleetKitCHeader/include/sleetkit.h): C
    // programs include it, and SleetKitC imports it so that the compiler
    // checks every `@c @implementation` function against its declaration.
    // (No unsafeFlags: the tests compile C programs against it with -Wall
    // -Wextra -Werror -pedantic instead.)
    .target(name: "SleetKitCHeader"),
    .target(
      name: "SleetKitC",
      dependencies: ["SleetKitCHeader", "SleetParticles", "SleetShatter", "SleetTransitions"],
      swiftSettings: swiftSettings),

    // MARK: - Command-line tools
    // The `sleet` commands live in a library so tests can run them in-process.
    .target(
      name: "SleetCLI",
      dependencies: ["SleetKit", "SleetGPU", "SleetVideo", "CSDL2"],
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "sleet",
      dependencies: ["SleetCLI", "SleetBLAS"],
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "sleet-bench",
      dependencies: ["SleetKit", "CParticleBaseline", "SleetGPU", "SleetVideo", "SleetCLI"],
      path: "Benchmarks/sleet-bench",
      swiftSettings: swiftSettings),
    // The classic C SoA particle system sleet-bench compares against
    // (docs/benchmarks.md).
    // Private to sleet-bench (in no product), so its release-only -O3 cannot
    // reach dependents; CPU flags come from the command line (-Xcc -march=…).
    .target(
      name: "CParticleBaseline",
      path: "Benchmarks/CParticleBaseline",
      cSettings: [.unsafeFlags(["-O3"], .when(configuration: .release))]),

    // libFuzzer harness (Fuzz/README.md, docs/reliability.md). Fuzz/run.sh
    // builds it with `-sanitize=fuzzer,address -parse-as-library -DFUZZING`;
    // a plain build gives its replay/seed driver, so `swift build` and
    // `swift test` need no fuzzer flags. In no product.
    .executableTarget(
      name: "sleet-fuzz",
      dependencies: ["SleetCLI", "SleetKit", "CPNG", "_SleetTestSupport"],
      path: "Fuzz/sleet-fuzz",
      swiftSettings: swiftSettings),

    // MARK: - System libraries (Debian packages; see .ci/run)
    // Headers only, nothing linked: the compiler's target-feature macros as
    // SleetMath's Clang importer sees them (`SIMDBuildTarget`).
    .systemLibrary(name: "CSIMDBuildTarget"),
    // Headers only, nothing linked: the frame's eight-lane kernel for blocks
    // of one constants row (closed form, transposes, stores), inlined into
    // SleetParticles.
    .systemLibrary(name: "CSleetKernels"),
    // Headers only, nothing linked: SleetVideo's colour conversion (four
    // pixels a step), inlined into SleetVideo.
    .systemLibrary(name: "CSleetConversion"),
    .systemLibrary(
      name: "COpenBLAS",
      pkgConfig: "openblas",
      providers: [.apt(["libopenblas-dev"])]),
    .systemLibrary(
      name: "CPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev", "zlib1g-dev"])]),
    // Animated WebP: WebPAnimEncoder lives in libwebpmux (libwebp-dev).
    .systemLibrary(
      name: "CWebP",
      pkgConfig: "libwebpmux",
      providers: [.apt(["libwebp-dev"])]),
    // GIF: giflib ships no pkg-config file; module.modulemap links -lgif.
    .systemLibrary(
      name: "CGIF",
      providers: [.apt(["libgif-dev"])]),
    // libavformat, libavcodec, libswscale, libavutil (FFmpeg 5.1 in Debian):
    // one pkg-config file gives their include folder; module.modulemap links
    // all four.
    .systemLibrary(
      name: "CFFmpeg",
      pkgConfig: "libavformat",
      providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),
    .systemLibrary(
      name: "CEGL",
      pkgConfig: "egl",
      providers: [.apt(["libegl-dev", "libegl-mesa0"])]),
    .systemLibrary(
      name: "CGLES",
      pkgConfig: "glesv2",
      providers: [.apt(["libgles-dev", "libgl1-mesa-dri"])]),
    // The window of `sleet play` (docs/rendering.md, "Playing an effect
    // live"): only SleetCLI links it. No pkgConfig: sdl2.pc's only flag
    // beyond the default paths is -D_REENTRANT, which SwiftPM refuses with a
    // warning on every build (and glibc ignores); the shim includes
    // <SDL2/SDL.h> and module.modulemap links -lSDL2, as CGIF does.
    .systemLibrary(
      name: "CSDL2",
      providers: [.apt(["libsdl2-dev"])]),

    // MARK: - Unit test bundles
    // Helpers shared by the bundles (temporary folders, an independent CRC-32
    // and PNG decoder, the build-identity digest); the leading underscore
    // marks it as not API.
    .target(
      name: "_SleetTestSupport",
      dependencies: ["CPNG", "SleetMath"],
      path: "Tests/_SleetTestSupport",
      swiftSettings: swiftSettings),
    .testTarget(
      name: "SleetMathTests",
      dependencies: ["SleetMath", "_SleetTestSupport"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "SleetBLASTests",
      dependencies: ["SleetBLAS", "COpenBLAS", "_SleetTestSupport"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "SleetParticlesTests",
      dependencies: ["SleetParticles", "_SleetTestSupport"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "SleetShatterTests",
      dependencies: ["SleetShatter", "SleetBLAS", "_SleetTestSupport"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "SleetTransitionsTests",
      dependencies: ["SleetTransitions", "SleetShatter", "SleetBLAS", "_SleetTestSupport"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "SleetPreviewTests",
      dependencies: ["SleetPreview", "CPNG", "_SleetTestSupport"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "SleetKitCTests",
      dependencies: [
        "SleetKitC", "SleetKitCHeader", "SleetParticles", "SleetShatter", "SleetTransitions", "_SleetTestSupport",
      ],
      exclude: ["c", "python"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "SleetGPUTests",
      dependencies: ["SleetGPU", "SleetParticles"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "SleetVideoTests",
      dependencies: ["SleetVideo", "SleetPreview", "_SleetTestSupport"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "SleetImportTests",
      dependencies: ["SleetImport", "SleetParticles", "_SleetTestSupport"],
      resources: [.copy("Fixtures")],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "SleetCLITests",
      dependencies: ["SleetCLI", "CSDL2", "_SleetTestSupport"],
      swiftSettings: swiftSettings),
  ]
)
