/// User text echoed in messages, cut to a readable length: a 20,000-character
/// key path or flag value must not turn one error line into 40 KB.
enum MessageText {
  /// The most characters of one piece of user text a message repeats.
  static let maximumLength = 80

  /// `text` when it is at most ``maximumLength`` characters; otherwise its
  /// first and last characters around "…", with how many were left out.
  static func clip(_ text: String, limit: Int = maximumLength) -> String {
    guard text.count > limit else { return text }
    let keep = Swift.max(2, limit - 24)
    let head = text.prefix(keep * 2 / 3)
    let tail = text.suffix(keep - head.count)
    return "\(head)…(\(text.count - head.count - tail.count) more characters)…\(tail)"
  }

  /// The most characters of one line of a message, after ``clip(_:limit:)``
  /// has shortened its long words (for text with spaces in it).
  static let maximumLineLength = 1_000

  /// `message` with every word (a run without spaces) longer than
  /// ``maximumLength`` clipped, and every line then longer than
  /// ``maximumLineLength`` clipped: what `sleet` prints of any error or
  /// warning, so an echoed key path, value or name stays readable whatever
  /// reported it (the library's effect and key-path errors included).
  static func shorten(_ message: String) -> String {
    guard message.count > maximumLength else { return message }
    let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let words = line.split(separator: " ", omittingEmptySubsequences: false).map { clip(String($0)) }
      return clip(words.joined(separator: " "), limit: maximumLineLength)
    }
    return lines.joined(separator: "\n")
  }

  /// `text` without the spaces (and tabs) before and after it.
  static func trimmingSpaces(_ text: String) -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    return String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
  }
}
