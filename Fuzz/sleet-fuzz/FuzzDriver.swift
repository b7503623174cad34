import SleetCLI
import SleetKit

#if canImport(Glibc)
  import Glibc
#endif

/// The commands of a `sleet-fuzz` built without libFuzzer (Fuzz/run.sh uses
/// `seeds` and `dictionary` from such a build):
///
///     sleet-fuzz list                      the targets
///     sleet-fuzz seeds TARGET DIR          write TARGET's seed corpus into DIR
///     sleet-fuzz dictionary TARGET         print TARGET's libFuzzer dictionary
///     sleet-fuzz replay TARGET FILE...     run files through TARGET (a crash
///                                          found by libFuzzer, without libFuzzer)
enum FuzzDriver {
  static let usage = """
    usage: sleet-fuzz list | seeds TARGET DIR | dictionary TARGET | replay TARGET FILE...
    """

  static func main(_ arguments: [String]) -> Int32 {
    func target(_ name: String) -> FuzzTarget? {
      guard let t = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        printError("sleet-fuzz: no target '\(name)' (\(names))\n")
        return nil
      }
      return t
    }
    switch (arguments.first, arguments.count) {
    case ("list", 1):
      for t in FuzzTarget.allCases { print(t.rawValue) }
      return 0
    case ("seeds", 3):
      guard let t = target(arguments[1]) else { return 2 }
      for (i, seed) in FuzzSeeds.seeds(for: t).enumerated() {
        let name = arguments[2] + "/seed-" + String(i)
        guard let file = fopen(name, "wb") else {
          printError("sleet-fuzz: cannot write \(name)\n")
          return 1
        }
        _ = seed.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
      }
      return 0
    case ("dictionary", 2):
      guard let t = target(arguments[1]) else { return 2 }
      for (i, entry) in FuzzSeeds.dictionary(for: t).enumerated() {
        print("k\(i)=\"\(escaped(entry))\"")
      }
      return 0
    case ("replay", 3...):
      guard let t = target(arguments[1]) else { return 2 }
      t.prepare()
      for path in arguments.dropFirst(2) {
        guard let file = fopen(path, "rb") else {
          printError("sleet-fuzz: cannot read \(path)\n")
          return 1
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
          let n = fread(&buffer, 1, buffer.count, file)
          if n == 0 { break }
          bytes += buffer[0..<n]
        }
        fclose(file)
        t.run(bytes)
        print("ok \(path)")
      }
      return 0
    default:
      printError(usage + "\n")
      return 2
    }
  }

  /// A dictionary value in libFuzzer's syntax: `\\`, `\"` and `\xNN` escapes.
  static func escaped(_ bytes: [UInt8]) -> String {
    var out = ""
    for b in bytes {
      switch b {
      case UInt8(ascii: "\\"): out += "\\\\"
      case UInt8(ascii: "\""): out += "\\\""
      case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(b))
      default:
        let hex = String(b, radix: 16, uppercase: true)
        out += "\\x" + (hex.count == 1 ? "0" : "") + hex
      }
    }
    return out
  }
}
