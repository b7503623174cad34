// Helpers of the C API tests: the Swift API's reference outputs as bytes, an
// independent packing of transition layers into the header's layout, the
// error record's message, and running the C and Python callers.
import Foundation
import SleetKitCHeader
import SleetMath
import SleetParticles
import SleetTransitions

/// A file of this repository, from this source file's location.
func repositoryPath(_ relative: String, file: String = #filePath) -> String {
  URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(relative).path
}

/// The snow preset's effect file.
let snowFile = repositoryPath("Sources/SleetParticles/Presets/snow.json")

/// The inputs every caller renders snow with (the C program and the Python
/// script get them on the command line).
enum SnowCase {
  static let seed: UInt32 = 7
  static let width = 430.0
  static let times = [0, 0.5, 3, 12.25, 45.5, 61]
}

/// The message of an error record.
func message(_ error: sleet_error) -> String {
  withUnsafeBytes(of: error.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}

/// The NUL-terminated string in a caller buffer.
func string(_ buffer: [CChar]) -> String {
  String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The bytes of an array's elements.
func bytes<T>(_ elements: [T]) -> [UInt8] {
  elements.withUnsafeBytes { Array($0) }
}

/// The Swift API's snow frames at `SnowCase.times`: the 64-byte instances by
/// seeking, and the 32-byte compact instances by stepping, as bytes.
func swiftSnowFrames() throws -> (full: [[UInt8]], compact: [[UInt8]]) {
  var effect = try Effect(contentsOfFile: snowFile).settingParameters(["width": SnowCase.width])
  effect.seed = SnowCase.seed
  let full = try ParticleSystem(effect: effect)
  let compact = try ParticleSystem(effect: effect, configuration: .init(instanceLayout: .compact))
  var frame = ParticleFrame()
  var result: (full: [[UInt8]], compact: [[UInt8]]) = ([], [])
  for time in SnowCase.times {
    full.seek(to: time)
    full.render(into: &frame)
    result.full.append(bytes(frame.instances))
    compact.advance(to: time)
    compact.render(into: &frame)
    result.compact.append(bytes(frame.compactInstances))
  }
  return result
}

/// Where two byte strings of `stride`-byte records first differ, for
/// failure messages ("record 3, byte 17"), or nil when they are equal.
func firstDifference(_ a: [UInt8], _ b: [UInt8], stride: Int) -> String? {
  guard a != b else { return nil }
  guard a.count == b.count else { return "\(a.count / stride) records against \(b.count / stride)" }
  let i = a.indices.first { a[$0] != b[$0] }!
  return "record \(i / stride), byte \(i % stride)"
}

// MARK: - Transition layers in the header's layout

/// `layer` packed into the 192 bytes sleetkit.h documents, field by field at
/// the header's offsets, written independently of SleetKitC's conversion.
func packed(_ layer: TransitionLayer) -> [UInt8] {
  var out = [UInt8](repeating: 0, count: 192)
  func put<T: FixedWidthInteger>(_ value: T, _ offset: Int) {
    withUnsafeBytes(of: value.littleEndian) { out.replaceSubrange(offset..<offset + $0.count, with: $0) }
  }
  func put(_ values: [Float], _ offset: Int) {
    for (i, v) in values.enumerated() { put(v.bitPattern, offset + 4 * i) }
  }
  let m = layer.transform
  put([m.row1, m.row2, m.row3, m.row4].flatMap { [$0.x, $0.y, $0.z, $0.w] }, 0)
  func corners(_ q: Quad2D) -> [Float] {
    [q.topLeft, q.topRight, q.bottomRight, q.bottomLeft].flatMap { [$0.x, $0.y] }
  }
  put(corners(layer.corners), 64)
  put(corners(layer.textureCorners), 96)
  let content: Int32
  switch layer.content {
  case .fromScreen: content = 0
  case .toScreen: content = 1
  case .color(let c):
    content = 2
    put([c.red, c.green, c.blue, c.alpha], 128)
  case .image: content = 3
  }
  if let r = layer.mask {
    for (i, v) in [r.x, r.y, r.width, r.height].enumerated() { put(v.bitPattern, 144 + 8 * i) }
  }
  put([layer.opacity, layer.depth], 176)
  put(content, 184)
  put(Int32(layer.mask == nil ? 0 : 1), 188)
  return out
}

/// One transition the callers evaluate: the same list as `TRANSITIONS` in
/// python/snow.py.
struct TransitionCase: Sendable, CustomStringConvertible {
  var style: TransitionStyle
  var direction: TransitionDirection?
  var width: Double
  var height: Double
  var options: TransitionOptions
  var time: Double

  var description: String { "\(style.rawValue) \(direction?.rawValue ?? "(default direction)") at \(time)" }

  func swiftLayers() throws -> [TransitionLayer] {
    try Transition(style: style, direction: direction, width: width, height: height, options: options)
      .frame(at: time).layers
  }

  static let all: [TransitionCase] = [
    TransitionCase(style: .slide, direction: .push, width: 390, height: 844, options: .init(), time: 0.2),
    TransitionCase(
      style: .circleReveal, direction: .pop, width: 390, height: 844,
      options: .init(button: Rect(x: 326, y: 56, width: 44, height: 44)), time: 0.3),
    TransitionCase(
      style: .zoom, direction: .push, width: 390, height: 844,
      options: .init(
        imageRect: Rect(x: 24, y: 160, width: 160, height: 160), targetRect: Rect(x: 0, y: 88, width: 390, height: 390)),
      time: 0.25),
    TransitionCase(style: .tilt3D, direction: .present, width: 390, height: 844, options: .init(), time: 0.45),
    TransitionCase(
      style: .checkerboard, direction: .pop, width: 390, height: 844, options: .init(divisor: 8), time: 1.2),
    TransitionCase(style: .glassBreak, direction: nil, width: 200, height: 300, options: .init(seed: 3), time: 0.7),
  ]
}

// MARK: - Foreign callers

/// The folder of the test bundle, where `swift build` puts libSleetKitC.so.
func buildFolder() -> String {
  URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
}

/// The first of `names` found on PATH, or the last one (whose failure to
/// run then names it).
func firstOnPath(_ names: [String]) -> String {
  let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
  for name in names where folders.contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }) {
    return name
  }
  return names.last!
}

/// The C and C++ compilers: the system's, else the Swift toolchain's clang.
let cCompiler = firstOnPath(["cc", "clang"])
let cxxCompiler = firstOnPath(["c++", "clang++"])

/// What a finished process printed (standard output and error, merged)
/// and its exit status.
struct ProcessResult {
  var status: Int32
  var output: String
}

/// Runs `arguments[0]` (looked up on PATH) with the rest as its arguments.
func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = arguments
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  // One pipe for both streams, read to the end before waiting: a full pipe
  // cannot block the child.
  let output = Pipe()
  process.standardOutput = output
  process.standardError = output
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return ProcessResult(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
}
