#if canImport(Glibc)
  import Glibc
#endif

/// The fuzz targets. Each takes any bytes; it must return normally for every
/// input (errors are fine, they are the readers' job) and traps through
/// ``fuzzCheck(_:_:)`` when an invariant it checks fails, so libFuzzer saves
/// the input.
enum FuzzTarget: String, CaseIterable, Sendable {
  /// `Effect(json:)`: the strict JSON parser and the effect reader; an
  /// accepted effect must write canonical text that reads back equal (a fixed
  /// point), `JSONDecoder` must read the file to the same effect, and the
  /// effect must simulate (small budget) without trapping.
  case effectJSON = "effect-json"
  /// `PNGFile.decode`: libpng through SleetPreview; an accepted image must
  /// match libpng's own decoding and survive an encode/decode round trip.
  case png
  /// `APNGEncoder`: random small animations encoded and decoded with the
  /// independent chunk parser and libpng; every frame, delay and chunk checked.
  case apng
  /// `Emitter.KeyPath` and key-path get/set on the presets' emitters and a
  /// deep one; a successful set must leave a valid emitter.
  case keyPath = "keypath"
  /// `PanGesture(json:)` and the replay `sleet transition render --gesture`
  /// runs (frame count, clocks, transition times).
  case gesture
  /// `SleetCommandLine.run` with in-memory output, on the commands that print
  /// (file paths in the arguments are redirected into a scratch folder).
  case cli

  /// One-time setup before the first input (fixtures, caches).
  func prepare() {
    switch self {
    case .keyPath: _ = KeyPathTarget.emitters
    case .cli: CLITarget.prepare()
    default: break
    }
  }

  /// Runs one input.
  func run(_ bytes: [UInt8]) {
    switch self {
    case .effectJSON: EffectJSONTarget.run(bytes)
    case .png: PNGTarget.run(bytes)
    case .apng: APNGTarget.run(bytes)
    case .keyPath: KeyPathTarget.run(bytes)
    case .gesture: GestureTarget.run(bytes)
    case .cli: CLITarget.run(bytes)
    }
  }
}

/// Traps with `message` when `condition` fails: an invariant of a target is
/// broken, and libFuzzer keeps the input as a crash.
func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() {
    printError("sleet-fuzz: invariant failed: \(message())\n")
    abort()
  }
}

/// Writes `text` to standard error (unbuffered: a crash may follow).
func printError(_ text: String) {
  let bytes = Array(text.utf8)
  _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// Reads the input from the front: a byte, a number, the rest.
struct ByteReader {
  var bytes: ArraySlice<UInt8>

  init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

  var isEmpty: Bool { bytes.isEmpty }

  /// The next byte, or 0 when none is left.
  mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

  /// A value in `range` from the next byte.
  mutating func int(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(byte()) % (range.count)
  }

  /// The next 16 bits, big-endian.
  mutating func uint16() -> UInt16 { UInt16(byte()) << 8 | UInt16(byte()) }

  /// Up to the next 0 byte (dropped), or the rest.
  mutating func field() -> [UInt8] {
    if let end = bytes.firstIndex(of: 0) {
      defer { bytes = bytes[(end + 1)...] }
      return Array(bytes[..<end])
    }
    defer { bytes = [] }
    return Array(bytes)
  }

  /// Everything left.
  mutating func rest() -> [UInt8] {
    defer { bytes = [] }
    return Array(bytes)
  }
}
