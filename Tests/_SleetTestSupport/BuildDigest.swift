// Build identity digests, shared by the BuildIdentity suites of the test
// bundles (see Tests/SleetMathTests/BuildIdentityTests.swift for the scheme).
import SleetMath
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// 64-bit FNV-1a over 32-bit words (little-endian bytes).
public struct BuildDigest: CustomStringConvertible {
  public init() {}

  public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
  public private(set) var words = 0

  public mutating func add(word: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) {
      value = (value ^ UInt64((word >> UInt32(shift)) & 0xff)) &* 0x0000_0100_0000_01b3
    }
    words += 1
  }

  public mutating func add(_ x: Float) { add(word: x.isNaN ? 0x7fc0_0000 : x.bitPattern) }

  public mutating func add(_ x: Double) {
    let bits = x.isNaN ? 0x7ff8_0000_0000_0000 : x.bitPattern
    add(word: UInt32(truncatingIfNeeded: bits))
    add(word: UInt32(truncatingIfNeeded: bits >> 32))
  }

  public var description: String {
    "(\(words), 0x" + String(value, radix: 16, uppercase: true).leftPadded(to: 16) + ")"
  }

  /// Compares with the golden stored under `key`; `context` (e.g. the
  /// backend) only goes into the failure message. Prints `"key": (words,
  /// digest),` when `SLEET_PRINT_DIGESTS` is set.
  public func check(
    _ key: String, in goldens: [String: (words: Int, digest: UInt64)], context: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    if getenv("SLEET_PRINT_DIGESTS") != nil { print("BuildIdentity golden \"\(key)\": \(self),") }
    let golden = goldens[key]
    #expect(
      golden.map { words == $0.words && value == $0.digest } ?? false,
      "\(key)\(context): got \(self), golden \(golden.map { "(\($0.words), 0x\(String($0.digest, radix: 16, uppercase: true)))" } ?? "missing")",
      sourceLocation: sourceLocation)
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: Swift.max(0, width - count)) + self
  }
}

extension BuildDigest {
  /// The sixteen entries of `t`, row by row.
  public mutating func add(_ t: Transform3D) {
    for row in [t.row1, t.row2, t.row3, t.row4] {
      for k in 0..<4 { add(row[k]) }
    }
  }
}
