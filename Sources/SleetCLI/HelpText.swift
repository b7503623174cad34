/// Help text laid out in the columns of a command's help.
enum HelpText {
  /// Option rows: each flag indented by two spaces and its description from
  /// `column` on, continuation lines aligned under the first (commands align
  /// their descriptions at different columns, so shared rows take it).
  static func options(_ rows: [(flag: String, description: [String])], column: Int) -> String {
    var text: [String] = []
    for (flag, description) in rows {
      let head = "  " + flag
      text.append(head + String(repeating: " ", count: Swift.max(1, column - head.count)) + description[0])
      for line in description.dropFirst() { text.append(String(repeating: " ", count: column) + line) }
    }
    return text.joined(separator: "\n")
  }
}
