/// A JSON document as the strict effect-file reader sees it: objects keep
/// their key order and duplicates (the reader rejects duplicates with a path),
/// and numbers keep their literal text so a `Float` property can be parsed
/// straight from it (decimal → `Float` in one correctly rounded step; going
/// through `Double` first could round twice).
package enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([JSONMember])

  /// "a number", "an object", … for "expected …, got …" messages.
  package var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool(let b): b ? "true" : "false"
    case .number(let raw): raw
    case .string(let s): "the string '\(s)'"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

package struct JSONMember: Hashable, Sendable {
  package var key: String
  package var value: JSONValue
}

/// A syntax error: where (1-based line and column) and what.
package struct JSONSyntaxError: Error, Hashable, Sendable {
  package var line: Int
  package var column: Int
  package var reason: String
}

/// A strict RFC 8259 parser: no comments, no trailing commas, no NaN or
/// Infinity, no leading zeros or '+', UTF-8 input, nesting limited to
/// `maximumDepth` (``SleetLimits/jsonNesting``) so that hostile files cannot
/// exhaust the stack.
package struct JSONParser {
  static let maximumDepth = SleetLimits.jsonNesting

  private let bytes: [UInt8]
  private var index = 0

  private init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Parses one JSON document (surrounding whitespace allowed).
  /// - Complexity: O(n) in the input length.
  package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    var p = JSONParser(bytes)
    // A UTF-8 byte order mark is tolerated, as RFC 8259 allows parsers to.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { p.index = 3 }
    p.skipWhitespace()
    let value = try p.parseValue(depth: 0)
    p.skipWhitespace()
    guard p.index == bytes.count else { throw p.error("unexpected text after the JSON document") }
    return value
  }

  private func error(_ reason: String) -> JSONSyntaxError {
    var line = 1
    var column = 1
    for b in bytes[..<min(index, bytes.count)] {
      if b == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if b & 0xC0 != 0x80 {
        column += 1
      }
    }
    return JSONSyntaxError(line: line, column: column, reason: reason)
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func skipWhitespace() {
    while let b = current, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { index += 1 }
  }

  private mutating func expect(_ literal: String, value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
    let u = Array(literal.utf8)
    guard bytes.count - index >= u.count, Array(bytes[index..<index + u.count]) == u else {
      throw error("invalid literal (expected \(literal))")
    }
    index += u.count
    return value
  }

  /// A byte for a message: `character 'x'` when it is printable ASCII,
  /// otherwise `byte 0x89`: quoting a control or non-ASCII byte as a
  /// character would print something invisible, or not text at all.
  static func describe(_ byte: UInt8) -> String {
    if (0x21...0x7E).contains(byte) { return "character '\(Character(Unicode.Scalar(byte)))'" }
    let hex = String(byte, radix: 16, uppercase: true)
    return "byte 0x\(hex.count == 1 ? "0" : "")\(hex)"
  }

  private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    guard let b = current else { throw error("unexpected end of input, expected a value") }
    switch b {
    case UInt8(ascii: "{"): return try parseObject(depth: depth)
    case UInt8(ascii: "["): return try parseArray(depth: depth)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try expect("true", value: .bool(true))
    case UInt8(ascii: "f"): return try expect("false", value: .bool(false))
    case UInt8(ascii: "n"): return try expect("null", value: .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default:
      if b == UInt8(ascii: "N") || b == UInt8(ascii: "I") {
        throw error("NaN and Infinity are not JSON numbers (values must be finite)")
      }
      throw error("unexpected \(Self.describe(b)), expected a value")
    }
  }

  private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    index += 1
    var members: [JSONMember] = []
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard current == UInt8(ascii: "\"") else { throw error("expected a string key") }
      let key = try parseString()
      skipWhitespace()
      guard current == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
      index += 1
      skipWhitespace()
      let value = try parseValue(depth: depth + 1)
      members.append(JSONMember(key: key, value: value))
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return .object(members)
      default: throw error("expected ',' or '}' in an object")
      }
    }
  }

  private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue(depth: depth + 1))
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return .array(elements)
      default: throw error("expected ',' or ']' in an array")
      }
    }
  }

  private mutating func digits() -> Int {
    let start = index
    while let b = current, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { index += 1 }
    return index - start
  }

  private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
    let start = index
    if current == UInt8(ascii: "-") { index += 1 }
    if current == UInt8(ascii: "0") {
      index += 1
      if let b = current, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") {
        throw error("numbers must not have leading zeros")
      }
    } else if digits() == 0 {
      throw error("expected a digit")
    }
    if current == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { throw error("expected a digit after '.'") }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      guard digits() > 0 else { throw error("expected a digit in the exponent") }
    }
    return .number(String(decoding: bytes[start..<index], as: UTF8.self))
  }

  private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    guard bytes.count - index >= 4 else { throw error("incomplete \\u escape") }
    var v: UInt32 = 0
    for _ in 0..<4 {
      let b = bytes[index]
      let d: UInt8
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
      default: throw error("invalid hex digit in \\u escape")
      }
      v = v << 4 | UInt32(d)
      index += 1
    }
    return v
  }

  private mutating func parseString() throws(JSONSyntaxError) -> String {
    index += 1
    var out: [UInt8] = []
    while true {
      guard let b = current else { throw error("unterminated string") }
      switch b {
      case UInt8(ascii: "\""):
        index += 1
        // Validate UTF-8: a malformed sequence is an error, not U+FFFD.
        guard let s = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
        return s
      case UInt8(ascii: "\\"):
        index += 1
        guard let e = current else { throw error("unterminated escape") }
        index += 1
        switch e {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "/"): out.append(0x2F)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = try hex4()
          if (0xD800...0xDBFF).contains(scalar) {
            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"),
              bytes[index + 1] == UInt8(ascii: "u")
            else { throw error("unpaired surrogate in \\u escape") }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let u = Unicode.Scalar(scalar) else { throw error("unpaired surrogate in \\u escape") }
          out.append(contentsOf: Array(String(Character(u)).utf8))
        default:
          throw error(
            (0x21...0x7E).contains(e)
              ? "invalid escape '\\\(Character(Unicode.Scalar(e)))'"
              : "invalid escape: '\\' followed by \(Self.describe(e))")
        }
      case 0..<0x20:
        throw error("control character in a string (escape it)")
      default:
        out.append(b)
        index += 1
      }
    }
  }
}

/// Writes JSON text: strings escaped as RFC 8259 requires, nothing else.
/// `package` so the `sleet` tool quotes strings the same way.
package enum JSONText {
  package static func quoted(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where u.value < 0x20:
        let hex = String(u.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(u)
      }
    }
    return out + "\""
  }
}
