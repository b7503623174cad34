/// One token of Swift or Objective-C source: what the importer's parser reads.
struct SourceToken: Hashable, Sendable {
  enum Kind: Hashable, Sendable {
    /// A name: `cell`, `CAEmitterCell`, `self`, `kCAEmitterLayerLine`, `M_PI`.
    case identifier
    /// A number literal as written, suffix included (`10.0f`, `1e3`, `0x10`).
    case number
    /// A string literal's contents, escapes resolved (`"snow"`, `@"snow"`).
    case string
    /// An operator or punctuation: `(`, `)`, `[`, `]`, `{`, `}`, `,`, `:`,
    /// `;`, `.`, `@`, `=`, `+`, `-`, `*`, `/`, `->`, `+=`, ….
    case symbol
  }

  var kind: Kind
  var text: String
  /// The 1-based line the token starts on.
  var line: Int
  /// Whether a line break separates the token from the one before it (Swift
  /// ends a statement there).
  var startsLine: Bool
}

/// Splits source text into ``SourceToken``s: comments and preprocessor
/// lines (`#import`, `#pragma mark`, `#define`) are dropped, string literals
/// of both languages are read with their escapes, and anything else that is
/// not a name, a number or a known operator becomes a one-character symbol,
/// so that the parser can report it rather than the tokenizer failing.
enum SourceTokenizer {
  /// The operators read as one token, longest first.
  private static let operators = [
    "...", "..<", "->", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "??", "?.",
  ]

  /// The tokens of `text`.
  /// - Complexity: O(length of `text`).
  static func tokens(_ text: String) -> [SourceToken] {
    let chars = Array(text.unicodeScalars)
    var tokens: [SourceToken] = []
    var i = 0
    var line = 1
    var atLineStart = true
    var sawBreak = true
    func peek(_ k: Int) -> Unicode.Scalar? { i + k < chars.count ? chars[i + k] : nil }
    while i < chars.count {
      let c = chars[i]
      if c == "\n" {
        line += 1
        i += 1
        atLineStart = true
        sawBreak = true
        continue
      }
      if c == " " || c == "\t" || c == "\r" {
        i += 1
        continue
      }
      if c == "/" && peek(1) == "/" {
        while i < chars.count && chars[i] != "\n" { i += 1 }
        continue
      }
      if c == "/" && peek(1) == "*" {
        i += 2
        while i < chars.count && !(chars[i] == "*" && peek(1) == "/") {
          if chars[i] == "\n" {
            line += 1
            sawBreak = true
          }
          i += 1
        }
        i = min(i + 2, chars.count)
        continue
      }
      if c == "#" && atLineStart {
        // A preprocessor line (with its continuation lines) or a Swift
        // compiler directive (`#if`, `#endif`): neither sets anything.
        while i < chars.count && chars[i] != "\n" {
          if chars[i] == "\\" && peek(1) == "\n" {
            line += 1
            i += 1
          }
          i += 1
        }
        continue
      }
      atLineStart = false
      let start = line
      let breakBefore = sawBreak
      sawBreak = false
      func append(_ kind: SourceToken.Kind, _ text: String) {
        tokens.append(SourceToken(kind: kind, text: text, line: start, startsLine: breakBefore))
      }
      if c == "\"" || (c == "@" && peek(1) == "\"") {
        i += c == "@" ? 2 : 1
        var value = ""
        while i < chars.count && chars[i] != "\"" && chars[i] != "\n" {
          if chars[i] == "\\", let next = peek(1) {
            switch next {
            case "n": value += "\n"
            case "t": value += "\t"
            default: value.unicodeScalars.append(next)
            }
            i += 2
            continue
          }
          value.unicodeScalars.append(chars[i])
          i += 1
        }
        i += 1
        append(.string, value)
        continue
      }
      if isIdentifierStart(c) {
        var name = ""
        while i < chars.count && (isIdentifierStart(chars[i]) || ("0"..."9").contains(chars[i])) {
          name.unicodeScalars.append(chars[i])
          i += 1
        }
        append(.identifier, name)
        continue
      }
      if ("0"..."9").contains(c) || (c == "." && peek(1).map { ("0"..."9").contains($0) } == true) {
        var number = ""
        while i < chars.count {
          let d = chars[i]
          let isExponentSign =
            (d == "+" || d == "-") && (number.last == "e" || number.last == "E") && !number.hasPrefix("0x")
          guard ("0"..."9").contains(d) || isIdentifierStart(d) || d == "." || isExponentSign else { break }
          // `1.max` or `0..<3`: a dot not followed by a digit ends the number.
          if d == ".", !(peek(1).map { ("0"..."9").contains($0) } ?? false) { break }
          number.unicodeScalars.append(d)
          i += 1
        }
        append(.number, number)
        continue
      }
      if let op = operators.first(where: { matches($0, chars, at: i) }) {
        i += op.unicodeScalars.count
        append(.symbol, op)
        continue
      }
      i += 1
      append(.symbol, String(c))
    }
    return tokens
  }

  private static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_" || c == "$"
  }

  private static func matches(_ op: String, _ chars: [Unicode.Scalar], at i: Int) -> Bool {
    var k = i
    for s in op.unicodeScalars {
      guard k < chars.count, chars[k] == s else { return false }
      k += 1
    }
    return true
  }
}
