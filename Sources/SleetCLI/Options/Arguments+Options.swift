/// Reading options through their declarations (``OptionTable``): the name,
/// the range and the wording of a range error come from the declaration.
extension Arguments {
  /// Whether `option` is given (and not yet taken).
  func contains(_ option: CommandOption) -> Bool { contains(option.name) }

  /// A flag's presence (``flag(_:)-(String)``).
  mutating func flag(_ option: CommandOption) throws(CommandError) -> Bool {
    try flag(option.name)
  }

  /// An option's raw value, nil when absent (``option(_:)-(String)``).
  mutating func value(_ option: CommandOption) throws(CommandError) -> String? {
    try self.option(option.name)
  }

  /// Every value of a repeatable option, in order.
  mutating func values(_ option: CommandOption) throws(CommandError) -> [String] {
    try options(option.name)
  }

  /// An integer option within its declared range, nil when absent.
  /// - Throws: `.usage` naming the option for a value that is not an
  ///   integer, or outside the range (as ``OptionRange/violation(_:got:)``
  ///   words it).
  mutating func integer(_ option: CommandOption) throws(CommandError) -> Int? {
    let what = option.range.map { "\($0.quantity) \($0.text)" } ?? "an integer"
    guard let value = try self.option(option.name, as: what, { Int($0) }) else { return nil }
    if let range = option.range, !range.contains(Double(value)) {
      throw .usage(range.violation(option.name, got: "\(value)"))
    }
    return value
  }

  /// A finite number option within its declared range, nil when absent.
  /// - Throws: `.usage` naming the option for a value that is not a finite
  ///   number, or outside the range.
  mutating func number(_ option: CommandOption) throws(CommandError) -> Double? {
    guard let value = try double(option.name) else { return nil }
    if let range = option.range, !range.contains(value) {
      throw .usage(range.violation(option.name, got: numberText(value)))
    }
    return value
  }

  /// An option whose value is one of `choices` (converted by `parse`), nil
  /// when absent.
  /// - Throws: `.usage` listing the choices (as `spelled`, default: joined
  ///   by commas) and suggesting the closest one.
  mutating func choice<T>(
    _ option: CommandOption, _ choices: [String], spelled: String? = nil, _ parse: (String) -> T?
  ) throws(CommandError) -> T? {
    // Spaces around the word are not part of it (`--style " slide"`).
    try self.option(option.name, as: spelled ?? choices.joined(separator: ", "), suggesting: choices) {
      parse(MessageText.trimmingSpaces($0))
    }
  }
}
