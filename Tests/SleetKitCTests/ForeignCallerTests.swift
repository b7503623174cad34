import Foundation
import SleetMath
import Testing
import _SleetTestSupport

/// The shared library from outside Swift: C programs compiled with `cc`
/// against sleetkit.h through the pkg-config file, and a Python ctypes
/// script, load libSleetKitC.so from the build folder; their frames must be
/// the Swift API's bit for bit.
///
/// Needs libSleetKitC.so beside the test bundle: `swift build` and
/// `swift test` build it (the product is part of the package's default
/// build); `swift build --product SleetKitC` builds it alone.
@Suite(
  "C API from C and Python", .serialized,
  .disabled(
    if: activeSanitizer != nil,
    "a C program or Python cannot load a sanitizer-instrumented libSleetKitC.so; this suite runs in the normal build"))
struct ForeignCallerTests {
  static let library = buildFolder() + "/libSleetKitC.so"
  static let timeArguments = SnowCase.times.map { "\($0)" }

  /// Fails with a clear message when the library has not been built.
  static func requireLibrary() throws {
    try #require(
      FileManager.default.fileExists(atPath: library),
      "no \(library): build it with `swift build --product SleetKitC` (swift build and swift test do)")
  }

  /// Compares the files `PREFIX-full-N.bin` and `PREFIX-compact-N.bin` in
  /// `folder` with the Swift API's frames.
  static func compareSnow(_ folder: String, prefix: String) throws {
    let expected = try swiftSnowFrames()
    for n in SnowCase.times.indices {
      let full = try #require(fileBytes("\(folder)/\(prefix)-full-\(n).bin"), "\(prefix)-full-\(n).bin")
      #expect(firstDifference(full, expected.full[n], stride: 64) == nil, "\(prefix) t = \(SnowCase.times[n])")
      let compact = try #require(fileBytes("\(folder)/\(prefix)-compact-\(n).bin"))
      #expect(firstDifference(compact, expected.compact[n], stride: 32) == nil, "\(prefix) t = \(SnowCase.times[n])")
    }
    #expect(expected.full.last!.count > 100 * 64)
  }

  @Test func cProgramsBuiltWithPkgConfigMatchTheSwiftAPI() throws {
    try Self.requireLibrary()
    let folder = makeTemporaryFolder(prefix: "sleet-capi-c")
    defer { removeTree(folder) }
    // The pkg-config file for this build folder, as docs/c-api.md makes it.
    let pc = try run([repositoryPath("pkgconfig/sleetkit-pc.sh"), buildFolder()])
    #expect(pc.status == 0, "\(pc.output)")
    try pc.output.write(toFile: folder + "/sleetkit.pc", atomically: true, encoding: .utf8)
    let flags = try run(["pkg-config", "--cflags", "--libs", "sleetkit"], environment: ["PKG_CONFIG_PATH": folder])
    #expect(flags.status == 0, "\(flags.output)")
    let version = try run(["pkg-config", "--modversion", "sleetkit"], environment: ["PKG_CONFIG_PATH": folder])
    #expect(version.output == SleetVersion.string + "\n")
    let cflags = flags.output.split(whereSeparator: \.isWhitespace).map(String.init)

    // docs/c-api.md's complete example, as the page shows it.
    let page = try String(contentsOfFile: repositoryPath("docs/c-api.md"), encoding: .utf8)
    let start = try #require(page.range(of: "```c\n"))
    let end = try #require(page.range(of: "```\n", range: start.upperBound..<page.endIndex))
    try String(page[start.upperBound..<end.lowerBound]).write(
      toFile: folder + "/example.c", atomically: true, encoding: .utf8)

    for (program, source) in [
      ("snow", repositoryPath("Tests/SleetKitCTests/c/snow.c")),
      ("errors", repositoryPath("Tests/SleetKitCTests/c/errors.c")), ("example", folder + "/example.c"),
    ] {
      let compile = try run(
        [
          cCompiler, "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", source,
        ]
          + cflags + ["-lm", "-o", "\(folder)/\(program)"])
      #expect(compile.status == 0, "\(program).c: \(compile.output)")
    }
    // The header is C++ too.
    let cxx = try run(
      [
        cxxCompiler, "-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", "-x", "c++",
        repositoryPath("Sources/SleetKitCHeader/include/sleetkit.h"),
      ])
    #expect(cxx.status == 0, "\(cxx.output)")

    let snow = try run(
      ["\(folder)/snow", folder, snowFile, "\(SnowCase.seed)", "\(SnowCase.width)"] + Self.timeArguments)
    #expect(snow.status == 0, "\(snow.output)")
    #expect(snow.output.hasPrefix("SleetKit \(SleetVersion.string)\n"), "\(snow.output)")
    try Self.compareSnow(folder, prefix: "c")

    let example = try run(["\(folder)/example", snowFile])
    #expect(example.status == 0, "\(example.output)")
    #expect(example.output.contains("checkerboard at 1.2 s: 221 layers"), "\(example.output)")

    let errors = try run(["\(folder)/errors", snowFile])
    #expect(errors.status == 0 && errors.output.hasSuffix("ok\n"), "\(errors.output)")
  }

  @Test func pythonCtypesMatchesTheSwiftAPI() throws {
    try Self.requireLibrary()
    let folder = makeTemporaryFolder(prefix: "sleet-capi-py")
    defer { removeTree(folder) }
    let script = repositoryPath("Tests/SleetKitCTests/python/snow.py")
    let python = try run(
      ["python3", script, Self.library, folder, snowFile, "\(SnowCase.seed)", "\(SnowCase.width)"]
        + Self.timeArguments)
    #expect(python.status == 0 && python.output.hasSuffix("ok\n"), "\(python.output)")
    try Self.compareSnow(folder, prefix: "py")
    for c in TransitionCase.all {
      let layers = try #require(fileBytes("\(folder)/py-layers-\(c.style.rawValue).bin"), "\(c)")
      let expected = try c.swiftLayers().flatMap(packed)
      #expect(firstDifference(layers, expected, stride: 192) == nil, "\(c)")
    }
  }
}
