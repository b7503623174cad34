/// A hand-written GNU-style argument list (no packages can be fetched here).
///
/// Accepts `--name value`, `--name=value`, boolean `--flag`, `-h` for `--help`,
/// and `--` to end options. Parsing is driven by the command: it pulls the
/// options and flags it knows first, then the positionals; ``finish()`` reports
/// anything left over as a usage error that names it.
public struct Arguments: Sendable {
  private var words: [String]
  private var used: [Bool]
  /// Index of `--`, after which every word is positional.
  private let endOfOptions: Int

  public init(_ arguments: [String]) {
    words = arguments
    used = Array(repeating: false, count: arguments.count)
    endOfOptions = arguments.firstIndex(of: "--") ?? arguments.count
    if endOfOptions < arguments.count { used[endOfOptions] = true }
  }

  /// Whether `--help` or `-h` was given.
  public var wantsHelp: Bool {
    words[..<endOfOptions].contains { $0 == "--help" || $0 == "-h" }
  }

  private func find(_ name: String) -> (index: Int, inlineValue: String?)? {
    for i in 0..<endOfOptions where !used[i] {
      let w = words[i]
      if w == "--\(name)" { return (i, nil) }
      if w.hasPrefix("--\(name)=") { return (i, String(w.dropFirst(name.count + 3))) }
    }
    return nil
  }

  /// Removes and returns a boolean flag.
  public mutating func flag(_ name: String) throws(CommandError) -> Bool {
    guard let (i, inline) = find(name) else { return false }
    if let v = inline { throw .usage("--\(name) takes no value, got '\(v)'") }
    used[i] = true
    return true
  }

  /// Removes and returns an option's value (`--name value` or `--name=value`),
  /// or nil when the option is absent.
  public mutating func option(_ name: String) throws(CommandError) -> String? {
    guard let (i, inline) = find(name) else { return nil }
    used[i] = true
    if let v = inline { return v }
    guard i + 1 < endOfOptions, !used[i + 1] else { throw .usage("--\(name) needs a value") }
    used[i + 1] = true
    return words[i + 1]
  }

  /// An option converted by `parse`, which returns nil for a malformed value.
  public mutating func option<T>(
    _ name: String, as what: String, _ parse: (String) -> T?
  ) throws(CommandError) -> T? {
    guard let raw = try option(name) else { return nil }
    guard let value = parse(raw) else { throw .usage("--\(name): expected \(what), got '\(raw)'") }
    return value
  }

  /// A finite `Double` option.
  public mutating func double(_ name: String) throws(CommandError) -> Double? {
    try option(name, as: "a finite number") { Double($0).flatMap { $0.isFinite ? $0 : nil } }
  }

  /// An integer option.
  public mutating func int(_ name: String) throws(CommandError) -> Int? {
    try option(name, as: "an integer") { Int($0) }
  }

  /// Removes and returns the next positional argument. Call after pulling options.
  public mutating func positional() -> String? {
    for i in 0..<words.count where !used[i] {
      if i < endOfOptions && words[i].hasPrefix("-") && words[i] != "-"
        && Double(words[i]) == nil
      {
        continue
      }
      used[i] = true
      return words[i]
    }
    return nil
  }

  /// Fails with a usage error naming the first unknown option or extra word.
  public func finish() throws(CommandError) {
    for i in 0..<words.count where !used[i] {
      let w = words[i]
      if w == "--help" || w == "-h" { continue }
      if i < endOfOptions && w.hasPrefix("-") && w != "-" && Double(w) == nil {
        throw .usage("unknown option \(w.split(separator: "=", maxSplits: 1)[0])")
      }
      throw .usage("unexpected argument '\(w)'")
    }
  }
}
