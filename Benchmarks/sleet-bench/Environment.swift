import Dispatch
import SleetKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the numbers were measured on and with, printed first and stored in the JSON.
struct Environment {
  var fields: [(String, String)] = []

  static var isDebugBuild: Bool {
    #if DEBUG
      true
    #else
      false
    #endif
  }

  /// `openblasDefaultThreads`: OpenBLAS's thread count before the harness
  /// called `BLASInfo.useSingleThreadedBLAS()`.
  static func current(openblasDefaultThreads: Int) -> Environment {
    var env = Environment()
    env.fields.append(("sleetkit", SleetVersion.string))
    env.fields.append(("cpu", cpuModel()))
    env.fields.append(("onlineCores", "\(sysconf(Int32(_SC_NPROCESSORS_ONLN)))"))
    env.fields.append(("swiftCompiler", compilerVersion))
    env.fields.append(("configuration", isDebugBuild ? "debug" : "release"))
    // Compile-time, from the Clang importer's view of -target-cpu (see SIMDBuildTarget).
    env.fields.append(("simdTarget", SIMDBuildTarget.summary))
    // Run time: the CPU picks the particle kernels' copy (CSleetKernels).
    env.fields.append(("particleKernels", SIMDBuildTarget.particleKernels))
    env.fields.append(("cBaselineBuild", CBaselineSystem.buildSummary))
    env.fields.append(("openblasConfig", BLASInfo.configuration))
    env.fields.append(("openblasCore", BLASInfo.coreName))
    env.fields.append(("openblasThreadsDefault", "\(openblasDefaultThreads)"))
    env.fields.append(("blasBackendThreads", BLASInfo.threadPolicy))
    return env
  }

  /// Swift has no runtime query for the compiler version; `#if compiler` gives the
  /// version this binary was built with, to the minor release.
  static var compilerVersion: String {
    #if compiler(>=7.0)
      "Swift ≥ 7.0"
    #elseif compiler(>=6.4)
      "Swift 6.4.x"
    #elseif compiler(>=6.3)
      "Swift 6.3.x"
    #elseif compiler(>=6.2)
      "Swift 6.2.x"
    #elseif compiler(>=6.1)
      "Swift 6.1.x"
    #else
      "Swift 6.0.x"
    #endif
  }

  /// The first `model name` of /proc/cpuinfo, or "unknown".
  static func cpuModel() -> String {
    guard let file = fopen("/proc/cpuinfo", "r") else { return "unknown" }
    defer { fclose(file) }
    var line: UnsafeMutablePointer<CChar>? = nil
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, file) > 0 {
      guard let line else { break }
      let text = String(cString: line)
      if text.hasPrefix("model name") || text.hasPrefix("Model") || text.hasPrefix("cpu model") {
        if let colon = text.firstIndex(of: ":") {
          let value = text[text.index(after: colon)...]
          return String(value.drop { $0 == " " || $0 == "\t" }.prefix { $0 != "\n" })
        }
      }
    }
    return "unknown"
  }

  func print() {
    for (key, value) in fields {
      Swift.print("\(pad(key + ":", 24))\(value)")
    }
  }
}

/// A STREAM-style bandwidth probe run in the same process as the benchmarks.
///
/// Copy `a[i] = b[i]` and triad `a[i] = b[i] + s·c[i]` over `Float` arrays much
/// larger than the last-level cache, single-threaded, counted as STREAM does:
/// copy moves 8 B per element, triad 12 B, write-allocate traffic not counted
/// (the same convention as every byte model in this harness).
final class BandwidthProbe {
  static let method =
    "STREAM-style, 1 thread, Float arrays, copy 8 B/elem, triad 12 B/elem, no write-allocate counted, median of samples"

  struct Result {
    var bytes: Int
    var copyGBps: Double
    var triadGBps: Double
    /// The copy with two threads, each copying its half of the arrays at the
    /// same time: what two cores sharing the memory system can move (the
    /// yardstick of the `-2t` cases).
    var copy2tGBps: Double = .nan
  }

  private let a: BenchmarkBuffer<Float>
  private let b: BenchmarkBuffer<Float>
  private let c: BenchmarkBuffer<Float>

  /// 3 × 128 MiB normally (4× a 32 MiB L3); 3 × 32 MiB with --quick. The arrays
  /// live as long as the probe, so re-measuring costs only the copies.
  init(quick: Bool) {
    let count = quick ? 8 << 20 : 32 << 20
    a = BenchmarkBuffer<Float>(count: count) { _ in 0 }
    b = BenchmarkBuffer<Float>(count: count) { Float($0 & 1023) }
    c = BenchmarkBuffer<Float>(count: count) { Float($0 & 511) }
  }

  func measure(samples: Int) -> Result {
    var copy: [Double] = []
    var triad: [Double] = []
    var copy2t: [Double] = []
    let halves = UncheckedBuffers(a: a.buffer, b: b.readOnly)
    for _ in 0..<samples {
      var start = Clock.seconds()
      BandwidthProbe.copyKernel(a.buffer, b.readOnly)
      copy.append(Clock.seconds() - start)
      start = Clock.seconds()
      BandwidthProbe.triadKernel(a.buffer, b.readOnly, c.readOnly, 3)
      triad.append(Clock.seconds() - start)
      start = Clock.seconds()
      DispatchQueue.concurrentPerform(iterations: 2) { half in
        let n = halves.a.count / 2
        BandwidthProbe.copyKernel(
          UnsafeMutableBufferPointer(rebasing: halves.a[half * n..<(half + 1) * n]),
          UnsafeBufferPointer(rebasing: halves.b[half * n..<(half + 1) * n]))
      }
      copy2t.append(Clock.seconds() - start)
    }
    blackHole(a.buffer[a.buffer.count / 2])
    let bytes = a.buffer.count * MemoryLayout<Float>.size
    return Result(
      bytes: bytes,
      copyGBps: Double(2 * bytes) / BenchmarkRunner.Summary(copy).median / 1e9,
      triadGBps: Double(3 * bytes) / BenchmarkRunner.Summary(triad).median / 1e9,
      copy2tGBps: Double(2 * bytes) / BenchmarkRunner.Summary(copy2t).median / 1e9)
  }

  /// The probe's arrays, handed to the two copying threads (disjoint halves).
  private struct UncheckedBuffers: @unchecked Sendable {
    var a: UnsafeMutableBufferPointer<Float>
    var b: UnsafeBufferPointer<Float>
  }

  /// `a[i] = b[i]`, eight lanes per step. Invariant: equal counts, a multiple of
  /// 8; `a` and `b` disjoint, 64-byte aligned (BenchmarkBuffer).
  @inline(never)
  static func copyKernel(_ a: UnsafeMutableBufferPointer<Float>, _ b: UnsafeBufferPointer<Float>) {
    let pa = UnsafeMutableRawPointer(a.baseAddress!)
    let pb = UnsafeRawPointer(b.baseAddress!)
    for i in stride(from: 0, to: a.count * 4, by: 32) {
      pa.storeBytes(
        of: pb.loadUnaligned(fromByteOffset: i, as: SIMD8<Float>.self), toByteOffset: i, as: SIMD8<Float>.self)
    }
  }

  /// `a[i] = b[i] + s·c[i]`, eight lanes per step (separate multiply and add).
  @inline(never)
  static func triadKernel(
    _ a: UnsafeMutableBufferPointer<Float>, _ b: UnsafeBufferPointer<Float>,
    _ c: UnsafeBufferPointer<Float>, _ s: Float
  ) {
    let pa = UnsafeMutableRawPointer(a.baseAddress!)
    let pb = UnsafeRawPointer(b.baseAddress!)
    let pc = UnsafeRawPointer(c.baseAddress!)
    let scale = SIMD8<Float>(repeating: s)
    for i in stride(from: 0, to: a.count * 4, by: 32) {
      let v =
        pb.loadUnaligned(fromByteOffset: i, as: SIMD8<Float>.self)
        + scale * pc.loadUnaligned(fromByteOffset: i, as: SIMD8<Float>.self)
      pa.storeBytes(of: v, toByteOffset: i, as: SIMD8<Float>.self)
    }
  }
}
