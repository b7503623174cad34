/// An expression of the Swift/Objective-C subset the importer reads
/// (docs/import.md, "What is understood").
indirect enum SourceExpression: Sendable {
  /// A number literal's value.
  case number(Double)
  case string(String)
  case identifier(String)
  /// `.line`, `.pi`, `.red`: a member whose type the context gives.
  case implicitMember(String)
  /// `base.name` (also `base?.name`).
  case member(SourceExpression, String)
  /// `callee(label: value, value)`, with an optional trailing closure.
  case call(SourceExpression, [SourceArgument])
  /// `[receiver selector]` or `[receiver part:value part:value]`.
  case message(SourceExpression, [SourceArgument])
  /// `[a, b]` or `@[a, b]`.
  case array([SourceExpression])
  case unary(String, SourceExpression)
  case binary(String, SourceExpression, SourceExpression)
  /// `{ … }` or `^{ … }`: a closure or block with its parameter names.
  case closure([String], [SourceStatement])
}

/// One argument of a call (its label, nil when unlabelled) or one part of
/// an Objective-C selector (its keyword, the value nil for a unary selector).
struct SourceArgument: Sendable {
  var label: String?
  var value: SourceExpression?
}

/// A statement, with the line it starts on.
enum SourceStatement: Sendable {
  /// `let x = e`, `var x: T = e`, `CAEmitterCell *x = e;`; `lazy var`
  /// properties are evaluated when first read.
  case declaration(name: String, value: SourceExpression?, isLazy: Bool, line: Int)
  /// `target = value` (or `+=`, `-=`, `*=`, `/=`: `op` is "=" or the operator).
  case assignment(target: SourceExpression, op: String, value: SourceExpression, line: Int)
  case expression(SourceExpression, line: Int)
  /// `for x in [...]`, `for (UIColor *x in @[...])`.
  case forIn(variable: String, sequence: SourceExpression, body: [SourceStatement], line: Int)
  case returnValue(SourceExpression?, line: Int)
  /// A statement the parser does not read, reported with its reason.
  case unsupported(reason: String, line: Int)
}

/// A Swift function or Objective-C method defined in the source: helpers
/// that build cells are called with their arguments; functions no code calls
/// run as entry points (docs/import.md, "How the code runs").
struct SourceFunction: Sendable {
  /// The Swift base name (`makeCell`) or the Objective-C selector
  /// (`cellWithColor:rate:`).
  var name: String
  /// Each parameter's argument label (nil for `_` and Objective-C), name and
  /// default value.
  var parameters: [(label: String?, name: String, defaultValue: SourceExpression?)]
  var body: [SourceStatement]
  var line: Int
  /// Whether it is an Objective-C method (called by selector).
  var isObjectiveC: Bool
}

/// A parsed source file: the statements outside any function (stored
/// properties of a class included) and the functions, in source order.
struct SourceProgram: Sendable {
  var statements: [SourceStatement] = []
  var functions: [SourceFunction] = []
}
