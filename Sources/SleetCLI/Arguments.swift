import SleetMath

/// A hand-written GNU-style argument list (no packages can be fetched here).
///
/// Accepts `--name value`, `--name=value`, boolean `--flag`, `-h` for `--help`,
/// and `--` to end options. Parsing is driven by the command: it pulls the
/// options and flags it knows first, then the positionals; ``finish()`` reports
/// anything left over as a usage error that names it. An option or flag given
/// twice is an error (``options(_:)`` takes a repeatable one), and
/// ``checkKnown(_:)`` refuses unknown options before the command asks for
/// anything, so a misspelt option is never reported as a missing one.
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

  /// Whether the option or flag `name` is given (and not yet taken).
  public func contains(_ name: String) -> Bool { find(name) != nil }

  /// Removes and returns a boolean flag.
  /// - Throws: `.usage` when it has a value or is given twice.
  public mutating func flag(_ name: String) throws(CommandError) -> Bool {
    guard let (i, inline) = find(name) else { return false }
    if let v = inline { throw .usage("--\(name) takes no value, got '\(v)'") }
    used[i] = true
    if find(name) != nil { throw .usage("--\(name) given twice; give it once") }
    return true
  }

  /// Removes and returns an option's value (`--name value` or `--name=value`),
  /// or nil when the option is absent.
  /// - Throws: `.usage` when the value is missing or the option is given twice.
  public mutating func option(_ name: String) throws(CommandError) -> String? {
    guard let first = try take(name) else { return nil }
    if let second = try take(name) {
      throw .usage("--\(name) given twice ('\(first)' and '\(second)'); give it once")
    }
    return first
  }

  /// Removes and returns every value of a repeatable option, in order.
  public mutating func options(_ name: String) throws(CommandError) -> [String] {
    var values: [String] = []
    while let value = try take(name) { values.append(value) }
    return values
  }

  /// Removes and returns the first occurrence's value.
  private mutating func take(_ name: String) throws(CommandError) -> String? {
    guard let (i, inline) = find(name) else { return nil }
    used[i] = true
    if let v = inline { return v }
    guard i + 1 < endOfOptions, !used[i + 1] else { throw .usage("--\(name) needs a value") }
    used[i + 1] = true
    return words[i + 1]
  }

  /// An option converted by `parse`, which returns nil for a malformed value.
  /// - Throws: `.usage` "--NAME: expected WHAT, got 'VALUE'", with the
  ///   closest of `candidates` as a suggestion (``Suggestion``) when one is
  ///   close.
  public mutating func option<T>(
    _ name: String, as what: String, suggesting candidates: [String] = [], _ parse: (String) -> T?
  ) throws(CommandError) -> T? {
    guard let raw = try option(name) else { return nil }
    guard let value = parse(raw) else {
      var message = "--\(name): expected \(what), got '\(MessageText.clip(raw))'"
      if let near = Suggestion.closest(to: MessageText.trimmingSpaces(raw), in: candidates) {
        message += " (did you mean '\(near)'?)"
      }
      throw .usage(message)
    }
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
      if i < endOfOptions && Self.looksLikeOption(w) { throw .usage(Self.unknown(w, known: [])) }
      throw .usage("unexpected argument '\(w)'")
    }
  }

  /// Fails with a usage error naming the first word before `--` that looks
  /// like an option (`--name`, `--name=value`, `-x`; not `-`, `-h` or a
  /// negative number) and is not one of `known` (names without `--`), with
  /// the closest known name as a suggestion. A word right after a known
  /// `--name` is skipped: it may be that option's value.
  public func checkKnown(_ known: Set<String>) throws(CommandError) {
    var previousWasOption = false
    for w in words[..<endOfOptions] {
      defer { previousWasOption = w.hasPrefix("--") && !w.contains("=") }
      guard Self.looksLikeOption(w), w != "-h", w != "--help" else { continue }
      if w.hasPrefix("--"), known.contains(Self.name(of: w)) { continue }
      if previousWasOption { continue }
      throw .usage(Self.unknown(w, known: known))
    }
  }

  /// Whether a word is spelt like an option rather than a value.
  static func looksLikeOption(_ word: String) -> Bool {
    word.hasPrefix("-") && word != "-" && word != "--" && Double(word) == nil
  }

  /// The option name of `--name` or `--name=value`.
  static func name(of word: String) -> String {
    String(word.drop { $0 == "-" }.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0])
  }

  /// "unknown option X", with a suggestion from `known` when one is close:
  /// a misspelt long option, or a short one (`-o`) whose letter starts one.
  static func unknown(_ word: String, known: Set<String>) -> String {
    let spelled = String(word.split(separator: "=", maxSplits: 1)[0])
    let name = Self.name(of: word)
    var message = "unknown option \(spelled)"
    if word.hasPrefix("--") {
      if let close = Suggestion.closest(to: name, in: known) { message += " (did you mean --\(close)?)" }
    } else {
      let starting = known.filter { $0.hasPrefix(name) }.sorted()
      message += "; sleet's options are long (--name)"
      if starting.count == 1 { message += ": did you mean --\(starting[0])?" }
    }
    return message
  }
}
