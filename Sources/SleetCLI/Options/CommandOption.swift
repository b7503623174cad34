import SleetKit

/// The values a numeric option accepts, checked where it is read. The same
/// value writes the range into the option's help line, its error message and
/// its row in docs/cli.md.
struct OptionRange: Sendable, Equatable {
  enum Bounds: Sendable, Equatable {
    /// Whole numbers from `lower` through `upper` (`Int.max`: no upper bound).
    case integers(ClosedRange<Int>)
    /// Finite numbers above `lower` (or at it when `includesLower`), and at
    /// most `upper` when there is one.
    case numbers(lower: Double, includesLower: Bool, upper: Double?)
  }

  var bounds: Bounds
  /// What the number counts, in messages: "seconds", "an integer", …
  var quantity: String
  /// Why the bounds are what they are, when a message should say it.
  var reason: String?

  /// Integers in `range` (`Int.max` as the upper bound: none).
  static func integers(_ range: ClosedRange<Int>, quantity: String = "an integer") -> OptionRange {
    OptionRange(bounds: .integers(range), quantity: quantity)
  }

  /// Finite numbers in (`lower`, `upper`], or in [`lower`, `upper`] when
  /// `includesLower`; without `upper`, above `lower` (at it when
  /// `includesLower`).
  static func numbers(
    above lower: Double, includesLower: Bool = false, atMost upper: Double? = nil, quantity: String = "a number",
    reason: String? = nil
  ) -> OptionRange {
    OptionRange(
      bounds: .numbers(lower: lower, includesLower: includesLower, upper: upper), quantity: quantity, reason: reason)
  }

  /// The bounds as help and messages write them: `in 1…240`, `in (0, 16]`,
  /// `in [0, 1]`, `≥ 0`, `> 0`, `≥ 1`.
  var text: String {
    switch bounds {
    case .integers(let range):
      range.upperBound == Int.max ? "≥ \(range.lowerBound)" : "in \(range.lowerBound)…\(range.upperBound)"
    case .numbers(let lower, let includesLower, let upper?):
      "in \(includesLower ? "[" : "(")\(numberText(lower)), \(numberText(upper))]"
    case .numbers(let lower, let includesLower, nil):
      "\(includesLower ? "≥" : ">") \(numberText(lower))"
    }
  }

  /// Whether `value` is within the bounds (NaN never is).
  func contains(_ value: Double) -> Bool {
    switch bounds {
    case .integers(let range): Double(range.lowerBound) <= value && value <= Double(range.upperBound)
    case .numbers(let lower, let includesLower, let upper):
      (includesLower ? value >= lower : value > lower) && value <= (upper ?? .infinity)
    }
  }

  /// "--NAME: expected QUANTITY BOUNDS (REASON), got VALUE".
  func violation(_ name: String, got value: String) -> String {
    "--\(name): expected \(quantity) \(text)\(reason.map { " (\($0))" } ?? ""), got \(value)"
  }
}

/// One `sleet` option, declared once: its name, the syntax of its value, one
/// help line, its range and the commands that take it. Each command's
/// `--help` options, the names its unknown-option check accepts and
/// suggests, the range checks and the option tables of docs/cli.md are made
/// from these declarations (``OptionTable``).
///
/// Two declarations may share a name when the option means something
/// different to different commands (`--time` of a still, of a dump, of a
/// transition); a command takes at most one declaration of each name.
struct CommandOption: Sendable {
  /// The name without `--`.
  var name: String
  /// The value's syntax (`F`, `WxH`, `PATH`), nil for a flag.
  var value: String?
  /// What it does, one line (the range and default are appended).
  var summary: String
  /// The accepted numbers, for a numeric option.
  var range: OptionRange?
  /// The value when the option is absent, as help shows it.
  var defaultValue: String?
  /// Whether the command refuses to run without it.
  var isRequired: Bool
  /// A remark after the range and default (`at most 100000 frames`).
  var note: String?
  /// Whether it may be given more than once.
  var isRepeatable = false
  /// The paths of the commands that take it (`["render"]`, `["transition", "render"]`).
  var commands: [[String]]

  init(
    _ name: String, _ value: String? = nil, _ summary: String, range: OptionRange? = nil,
    default defaultValue: String? = nil, required: Bool = false, note: String? = nil, repeatable: Bool = false,
    commands: [[String]]
  ) {
    self.name = name
    self.value = value
    self.summary = summary
    self.range = range
    self.defaultValue = defaultValue
    self.isRequired = required
    self.note = note
    self.isRepeatable = repeatable
    self.commands = commands
  }

  /// A flag: an option without a value.
  init(_ name: String, _ summary: String, commands: [[String]]) {
    self.init(name, nil, summary, commands: commands)
  }

  /// `--name VALUE`, or `--name` for a flag.
  var spelling: String { value.map { "--\(name) \($0)" } ?? "--\(name)" }

  /// The help line: the summary, the range, the default or "required",
  /// and the note.
  var helpLine: String {
    var line = summary
    if let range { line += ", \(range.text)" }
    if let defaultValue { line += " (default \(defaultValue))" }
    if isRequired { line += " (required)" }
    if let note { line += "; \(note)" }
    return line
  }
}
