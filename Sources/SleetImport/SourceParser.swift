/// A recursive-descent parser for the Swift and Objective-C subset of
/// emitter setup code (docs/import.md). It never fails as a whole: a
/// statement it cannot read becomes ``SourceStatement/unsupported(reason:line:)``
/// and parsing resumes at the next statement.
struct SourceParser {
  private struct ParseFailure: Error {
    var reason: String
  }

  private let tokens: [SourceToken]
  private var index = 0

  /// Words before a declaration that change nothing the importer reads.
  private static let modifiers: Set<String> = [
    "private", "fileprivate", "public", "internal", "open", "override", "static", "final", "lazy", "weak",
    "unowned", "required", "convenience", "mutating", "nonisolated", "dynamic", "__block", "__weak", "__strong",
    "const", "inline", "@objc", "@IBOutlet", "@MainActor", "@IBAction",
  ]
  /// Words that start a type declaration whose body is read as more items.
  private static let typeKeywords: Set<String> = ["class", "struct", "extension", "enum", "actor", "protocol"]

  init(_ text: String) {
    tokens = SourceTokenizer.tokens(text)
  }

  /// Parses the whole source.
  static func parse(_ text: String) -> SourceProgram {
    var parser = SourceParser(text)
    var program = SourceProgram()
    parser.items(into: &program, untilBrace: false)
    return program
  }

  // MARK: - Tokens

  private var current: SourceToken? { index < tokens.count ? tokens[index] : nil }
  private func token(_ k: Int) -> SourceToken? {
    index + k >= 0 && index + k < tokens.count ? tokens[index + k] : nil
  }
  /// How deep brackets, blocks and type bodies are nested where the parser
  /// is; deeper input is refused rather than recursed into.
  private var nesting = 0
  /// The deepest nesting read.
  static let maximumNesting = 200
  private func isSymbol(_ s: String, _ k: Int = 0) -> Bool {
    guard let t = token(k) else { return false }
    return t.kind == .symbol && t.text == s
  }
  private func isWord(_ s: String, _ k: Int = 0) -> Bool {
    guard let t = token(k) else { return false }
    return t.kind == .identifier && t.text == s
  }
  private var line: Int { current?.line ?? tokens.last?.line ?? 1 }

  private mutating func expect(_ s: String) throws(ParseFailure) {
    guard isSymbol(s) else {
      throw ParseFailure(reason: "expected '\(s)'" + (current.map { ", found '\($0.text)'" } ?? " at the end"))
    }
    index += 1
  }

  private mutating func identifier() throws(ParseFailure) -> String {
    guard let t = current, t.kind == .identifier else {
      throw ParseFailure(reason: "expected a name" + (current.map { ", found '\($0.text)'" } ?? " at the end"))
    }
    index += 1
    return t.text
  }

  /// Skips a balanced group that starts at the current opening bracket.
  private mutating func skipGroup() {
    guard let open = current?.text else { return }
    let close = ["(": ")", "[": "]", "{": "}", "<": ">"][open] ?? open
    var depth = 0
    while let t = current {
      index += 1
      if t.kind == .symbol && t.text == open { depth += 1 }
      if t.kind == .symbol && t.text == close {
        depth -= 1
        if depth == 0 { return }
      }
    }
  }

  /// Skips to the end of the statement that starts at `start`: a `;`, a
  /// token starting a new line at bracket depth 0, or a `}` closing the
  /// enclosing block (not consumed).
  private mutating func skipStatement(from start: Int) {
    if index == start, current != nil, !isSymbol("}") { index += 1 }
    var depth = 0
    while let t = current {
      if depth == 0 {
        if t.kind == .symbol && t.text == ";" {
          index += 1
          return
        }
        if t.kind == .symbol && t.text == "}" { return }
        if t.startsLine && index > start { return }
      }
      if t.kind == .symbol && ["(", "[", "{"].contains(t.text) { depth += 1 }
      if t.kind == .symbol && [")", "]", "}"].contains(t.text) { depth -= 1 }
      index += 1
    }
  }

  /// Whether the statement ends here: `;` (consumed), `}`, the end, or a
  /// token on a new line.
  private mutating func endStatement() -> Bool {
    if isSymbol(";") {
      index += 1
      return true
    }
    guard let t = current else { return true }
    return (t.kind == .symbol && t.text == "}") || t.startsLine
  }

  // MARK: - Items: declarations of types, functions and statements

  private mutating func items(into program: inout SourceProgram, untilBrace: Bool) {
    while let t = current {
      if t.kind == .symbol && t.text == "}" {
        // The end of a type's body, or a stray brace (a pasted method's end).
        index += 1
        if untilBrace { return }
        continue
      }
      let start = index
      if t.kind == .identifier && t.text == "import" {
        skipStatement(from: start)
        continue
      }
      if t.kind == .symbol && t.text == "@", let next = token(1) {
        switch next.text {
        case "interface", "protocol":
          while let u = current, !(u.kind == .identifier && u.text == "end" && isSymbol("@", -1)) { index += 1 }
          index += 1
          continue
        case "implementation":
          index += 3
          // A category's name, then the instance variables' block.
          if isSymbol("(") { skipGroup() }
          if isSymbol("{") { skipGroup() }
          continue
        case "end", "synthesize", "dynamic", "import", "property", "class":
          index += 2
          if next.text != "end" { skipStatement(from: index) }
          continue
        default:
          break
        }
      }
      // `class var layerClass`, `class func make()`: `class` as a modifier.
      if t.kind == .identifier && t.text == "class", let next = token(1), ["var", "let", "func"].contains(next.text) {
        index += 1
        continue
      }
      if t.kind == .identifier && Self.modifiers.contains(t.text) && t.text != "lazy" {
        index += 1
        continue
      }
      if t.kind == .symbol && t.text == "@", let next = token(1), next.kind == .identifier {
        // An attribute such as @objc, @MainActor, @available(...).
        index += 2
        if isSymbol("(") { skipGroup() }
        continue
      }
      if t.kind == .identifier && Self.typeKeywords.contains(t.text), let next = token(1), next.kind == .identifier,
        !["var", "let", "func", "init"].contains(next.text)
      {
        // `class SnowView: UIView {`: its members are items too.
        while let u = current, !(u.kind == .symbol && u.text == "{") { index += 1 }
        index += 1
        guard nesting < Self.maximumNesting else {
          program.statements.append(.unsupported(reason: "types nested too deeply", line: t.line))
          return
        }
        nesting += 1
        items(into: &program, untilBrace: true)
        nesting -= 1
        continue
      }
      if t.kind == .identifier && (t.text == "func" || t.text == "init" || t.text == "deinit") {
        if let function = swiftFunction() {
          program.functions.append(function)
        } else {
          index = start
          skipStatement(from: start)
          skipBodyIfPresent()
        }
        continue
      }
      if t.kind == .symbol && (t.text == "-" || t.text == "+") && t.startsLine && isSymbol("(", 1) {
        if let method = objectiveCMethod() {
          program.functions.append(method)
        } else {
          index = start
          skipStatement(from: start)
        }
        continue
      }
      program.statements.append(statement())
    }
  }

  private mutating func skipBodyIfPresent() {
    if isSymbol("{") { skipGroup() }
  }

  /// `func name(label name: Type = default, …) -> Type { body }`, `init(…) { … }`.
  private mutating func swiftFunction() -> SourceFunction? {
    let line = self.line
    let keyword = current!.text
    index += 1
    var name = keyword
    if keyword == "func" {
      guard let n = try? identifier() else { return nil }
      name = n
    }
    if isSymbol("?") || isSymbol("!") { index += 1 }
    if isSymbol("<") { skipGroup() }
    var parameters: [(label: String?, name: String, defaultValue: SourceExpression?)] = []
    if isSymbol("(") {
      index += 1
      while !isSymbol(")") {
        guard let first = try? identifier() else { return nil }
        var label: String? = first == "_" ? nil : first
        var paramName = first
        if let t = current, t.kind == .identifier {
          paramName = t.text
          index += 1
        } else if first == "_" {
          return nil
        } else {
          label = first
        }
        guard (try? expect(":")) != nil else { return nil }
        var defaultValue: SourceExpression?
        var depth = 0
        while let t = current {
          if depth == 0 && t.kind == .symbol && (t.text == "," || t.text == ")") { break }
          if depth == 0 && t.kind == .symbol && t.text == "=" {
            index += 1
            defaultValue = try? expression()
            continue
          }
          if t.kind == .symbol && ["(", "[", "<"].contains(t.text) { depth += 1 }
          if t.kind == .symbol && [")", "]", ">"].contains(t.text) { depth -= 1 }
          index += 1
        }
        parameters.append((label, paramName, defaultValue))
        if isSymbol(",") { index += 1 }
      }
      index += 1
    }
    while let t = current, !(t.kind == .symbol && t.text == "{") {
      if t.startsLine && t.kind == .identifier && t.text != "where" { return nil }
      index += 1
    }
    guard current != nil else { return nil }
    let body = block()
    return SourceFunction(name: name, parameters: parameters, body: body, line: line, isObjectiveC: false)
  }

  /// `- (CAEmitterCell *)cellWithColor:(UIColor *)color rate:(CGFloat)rate { body }`.
  private mutating func objectiveCMethod() -> SourceFunction? {
    let line = self.line
    index += 1
    skipGroup()
    var selector = ""
    var parameters: [(label: String?, name: String, defaultValue: SourceExpression?)] = []
    while let t = current, t.kind == .identifier {
      index += 1
      guard isSymbol(":") else {
        selector += t.text
        break
      }
      index += 1
      selector += t.text + ":"
      if isSymbol("(") { skipGroup() }
      guard let name = try? identifier() else { return nil }
      parameters.append((nil, name, nil))
    }
    if isSymbol(";") {
      index += 1
      return nil
    }
    guard isSymbol("{") else { return nil }
    let body = block()
    return SourceFunction(name: selector, parameters: parameters, body: body, line: line, isObjectiveC: true)
  }

  /// `{ statements }`: the statements up to the matching brace.
  private mutating func block() -> [SourceStatement] {
    guard nesting < Self.maximumNesting else {
      let line = self.line
      skipGroup()
      return [.unsupported(reason: "blocks nested more than \(Self.maximumNesting) deep are not read", line: line)]
    }
    nesting += 1
    defer { nesting -= 1 }
    index += 1
    var statements: [SourceStatement] = []
    while let t = current {
      if t.kind == .symbol && t.text == "}" {
        index += 1
        break
      }
      statements.append(statement())
    }
    return statements
  }

  // MARK: - Statements

  private mutating func statement() -> SourceStatement {
    let start = index
    let line = self.line
    do throws(ParseFailure) {
      let s = try statementBody(line: line)
      if case .unsupported = s { return s }
      guard endStatement() else {
        throw ParseFailure(reason: "unexpected '\(current!.text)' after the statement")
      }
      return s
    } catch {
      index = start
      skipStatement(from: start)
      return .unsupported(reason: "cannot read this statement (\(error.reason))", line: line)
    }
  }

  private mutating func statementBody(line: Int, isLazy: Bool = false) throws(ParseFailure) -> SourceStatement {
    guard let t = current else { throw ParseFailure(reason: "unexpected end") }
    if t.kind == .symbol && t.text == ";" { return .expression(.identifier("nil"), line: line) }
    if t.kind == .identifier {
      switch t.text {
      case "let", "var":
        index += 1
        let name = try identifier()
        if isSymbol(":") {
          index += 1
          try skipType()
        }
        var value: SourceExpression?
        if isSymbol("=") {
          index += 1
          value = try expression()
        } else if isSymbol("{"), current?.startsLine == false {
          // A computed property (`var emitter: CAEmitterLayer { layer as! CAEmitterLayer }`):
          // its body runs when the property is first read.
          return .declaration(name: name, value: .call(.closure([], block()), []), isLazy: true, line: line)
        }
        return .declaration(name: name, value: value, isLazy: isLazy, line: line)
      case "for":
        return try forLoop(line: line)
      case "return":
        index += 1
        if isSymbol(";") || isSymbol("}") || current?.startsLine == true || current == nil {
          return .returnValue(nil, line: line)
        }
        return .returnValue(try expression(), line: line)
      case "if", "guard", "while", "switch", "do", "repeat", "else":
        return skipCompound(t.text, line: line)
      default:
        break
      }
      if Self.modifiers.contains(t.text) {
        index += 1
        return try statementBody(line: line, isLazy: isLazy || t.text == "lazy")
      }
      if let declaration = try objectiveCDeclaration(line: line) { return declaration }
    }
    let target = try expression()
    if let op = current, op.kind == .symbol, ["=", "+=", "-=", "*=", "/="].contains(op.text) {
      index += 1
      let value = try expression()
      return .assignment(target: target, op: op.text, value: value, line: line)
    }
    return .expression(target, line: line)
  }

  /// A control statement the importer does not run: skipped whole (its
  /// condition and every block) and reported.
  private mutating func skipCompound(_ keyword: String, line: Int) -> SourceStatement {
    index += 1
    while let t = current {
      if t.kind == .symbol && t.text == "{" {
        skipGroup()
        if isWord("else") {
          index += 1
          continue
        }
        break
      }
      if t.kind == .symbol && (t.text == "(" || t.text == "[") {
        skipGroup()
        continue
      }
      index += 1
    }
    return .unsupported(
      reason: "'\(keyword)' statements are not run (only straight-line code and for-in loops)", line: line)
  }

  /// `Type *name = value;`, `Type name;`, `NSArray<UIColor *> *colors = …;`.
  private mutating func objectiveCDeclaration(line: Int) throws(ParseFailure) -> SourceStatement? {
    var k = 1
    if isSymbol("<", k) {
      var depth = 0
      while let t = token(k) {
        k += 1
        if t.kind == .symbol && t.text == "<" { depth += 1 }
        if t.kind == .symbol && t.text == ">" {
          depth -= 1
          if depth == 0 { break }
        }
      }
    }
    while isSymbol("*", k) { k += 1 }
    while let t = token(k), t.kind == .identifier, ["const", "_Nonnull", "_Nullable", "__strong"].contains(t.text) {
      k += 1
    }
    guard let nameToken = token(k), nameToken.kind == .identifier, !nameToken.startsLine,
      isSymbol("=", k + 1) || isSymbol(";", k + 1)
    else { return nil }
    index += k + 1
    var value: SourceExpression?
    if isSymbol("=") {
      index += 1
      value = try expression()
    }
    return .declaration(name: nameToken.text, value: value, isLazy: false, line: line)
  }

  private mutating func forLoop(line: Int) throws(ParseFailure) -> SourceStatement {
    index += 1
    let parenthesized = isSymbol("(")
    if parenthesized { index += 1 }
    // Objective-C: `for (UIColor *color in colors)`; Swift: `for color in colors`.
    var names: [String] = []
    while let t = current, !(t.kind == .identifier && t.text == "in") {
      guard t.kind == .identifier || (t.kind == .symbol && (t.text == "*" || t.text == "<" || t.text == ">")) else {
        throw ParseFailure(reason: "only 'for NAME in SEQUENCE' loops are read")
      }
      if t.kind == .identifier { names.append(t.text) }
      index += 1
    }
    guard let variable = names.last else { throw ParseFailure(reason: "expected the loop variable") }
    index += 1
    let sequence = try expression(trailingClosure: false)
    if parenthesized { try expect(")") }
    guard isSymbol("{") else { throw ParseFailure(reason: "expected '{' after the loop's sequence") }
    let body = block()
    return .forIn(variable: variable, sequence: sequence, body: body, line: line)
  }

  /// Skips a Swift type annotation (`CAEmitterCell`, `[CAEmitterCell]`,
  /// `UIColor?`, `Array<CGColor>`).
  private mutating func skipType() throws(ParseFailure) {
    if isSymbol("[") || isSymbol("(") {
      skipGroup()
    } else {
      _ = try identifier()
      while isSymbol(".") && token(1)?.kind == .identifier { index += 2 }
      if isSymbol("<") { skipGroup() }
    }
    while isSymbol("?") || isSymbol("!") { index += 1 }
  }

  // MARK: - Expressions

  private mutating func expression(trailingClosure: Bool = true) throws(ParseFailure) -> SourceExpression {
    var left = try additive(trailingClosure)
    while true {
      if isWord("as") {
        index += 1
        if isSymbol("!") || isSymbol("?") { index += 1 }
        try skipType()
        continue
      }
      if let t = current, t.kind == .symbol, t.text == "..<" || t.text == "..." {
        index += 1
        let right = try additive(trailingClosure)
        left = .binary(t.text, left, right)
        continue
      }
      return left
    }
  }

  private mutating func additive(_ trailing: Bool) throws(ParseFailure) -> SourceExpression {
    var left = try multiplicative(trailing)
    while let t = current, t.kind == .symbol, t.text == "+" || t.text == "-" {
      index += 1
      left = .binary(t.text, left, try multiplicative(trailing))
    }
    return left
  }

  private mutating func multiplicative(_ trailing: Bool) throws(ParseFailure) -> SourceExpression {
    var left = try unary(trailing)
    while let t = current, t.kind == .symbol, t.text == "*" || t.text == "/" || t.text == "%" {
      index += 1
      left = .binary(t.text, left, try unary(trailing))
    }
    return left
  }

  private mutating func unary(_ trailing: Bool) throws(ParseFailure) -> SourceExpression {
    if let t = current, t.kind == .symbol, t.text == "-" || t.text == "+" || t.text == "!" || t.text == "&" {
      index += 1
      let operand = try unary(trailing)
      return t.text == "&" ? operand : .unary(t.text, operand)
    }
    return try postfix(trailing)
  }

  private mutating func postfix(_ trailing: Bool) throws(ParseFailure) -> SourceExpression {
    var e = try primary()
    while let t = current {
      if t.kind == .symbol && (t.text == "." || t.text == "?.") {
        index += 1
        // `.init(...)` and members named like keywords are names too.
        let name = try identifier()
        e = .member(e, name)
        // `colors.map { … }`: a trailing closure without parentheses.
        if trailing, ["map", "compactMap", "forEach"].contains(name), isSymbol("{"), current?.startsLine == false {
          e = .call(e, [SourceArgument(label: nil, value: try closure())])
        }
      } else if t.kind == .symbol && t.text == "(" && !t.startsLine {
        var arguments = try callArguments()
        if trailing, isSymbol("{"), current?.startsLine == false {
          arguments.append(SourceArgument(label: nil, value: try closure()))
        }
        e = .call(e, arguments)
      } else if t.kind == .symbol && t.text == "!" && !t.startsLine {
        index += 1
      } else if t.kind == .symbol && t.text == "?" && isSymbol(".", 1) {
        index += 1
      } else {
        return e
      }
    }
    return e
  }

  private mutating func callArguments() throws(ParseFailure) -> [SourceArgument] {
    try expect("(")
    var arguments: [SourceArgument] = []
    while !isSymbol(")") {
      var label: String?
      if let t = current, t.kind == .identifier, isSymbol(":", 1) {
        label = t.text
        index += 2
      }
      arguments.append(SourceArgument(label: label, value: try expression()))
      if isSymbol(",") {
        index += 1
      } else if !isSymbol(")") {
        throw ParseFailure(reason: "expected ',' or ')' in the arguments")
      }
    }
    index += 1
    return arguments
  }

  /// The Objective-C type names a C cast may name: `(id)`, `(CGFloat)`,
  /// `(__bridge id)`, `(UIColor *)`.
  private func castLength() -> Int? {
    var k = 1
    var sawType = false
    while let t = token(k) {
      if t.kind == .identifier {
        guard !sawType || ["__bridge", "const"].contains(token(k - 1)?.text ?? "") else { return nil }
        sawType = true
      } else if t.kind == .symbol && t.text == "*" {
        guard sawType else { return nil }
      } else if t.kind == .symbol && t.text == ")" {
        guard sawType, let after = token(k + 1) else { return nil }
        let starts =
          after.kind != .symbol || ["(", "[", "@", "-", "^"].contains(after.text)
        guard starts else { return nil }
        let name = token(k - 1)?.text ?? ""
        let typeLike =
          name == "id" || name.first?.isUppercase == true || name.hasSuffix("_t")
          || ["float", "double", "int", "long", "unsigned", "CGFloat"].contains(name)
          || token(k - 1)?.text == "*"
        return typeLike ? k + 1 : nil
      } else {
        return nil
      }
      k += 1
    }
    return nil
  }

  private mutating func primary() throws(ParseFailure) -> SourceExpression {
    guard nesting < Self.maximumNesting else {
      throw ParseFailure(reason: "nested more than \(Self.maximumNesting) deep")
    }
    nesting += 1
    defer { nesting -= 1 }
    guard let t = current else { throw ParseFailure(reason: "expected an expression at the end") }
    switch t.kind {
    case .number:
      index += 1
      guard let value = Self.number(t.text) else { throw ParseFailure(reason: "cannot read the number '\(t.text)'") }
      return .number(value)
    case .string:
      index += 1
      return .string(t.text)
    case .identifier:
      index += 1
      return .identifier(t.text)
    case .symbol:
      break
    }
    switch t.text {
    case ".":
      index += 1
      return .implicitMember(try identifier())
    case "(":
      if let length = castLength() {
        index += length
        return try unary(true)
      }
      index += 1
      let inner = try expression()
      try expect(")")
      return inner
    case "[":
      return try bracket()
    case "{":
      return try closure()
    case "#":
      // `#keyPath(CAEmitterLayer.birthRate)`: the key path as a string.
      guard isWord("keyPath", 1), isSymbol("(", 2) else { throw ParseFailure(reason: "unexpected '#'") }
      index += 3
      var names: [String] = []
      while let n = current, n.kind == .identifier {
        names.append(n.text)
        index += 1
        if isSymbol(".") { index += 1 }
      }
      try expect(")")
      if let first = names.first, first.first?.isUppercase == true { names.removeFirst() }
      return .string(names.joined(separator: "."))
    case "^":
      index += 1
      if isSymbol("(") { skipGroup() }
      return try closure()
    case "@":
      index += 1
      if isSymbol("[") {
        index += 1
        var elements: [SourceExpression] = []
        while !isSymbol("]") {
          elements.append(try expression())
          if isSymbol(",") { index += 1 } else if !isSymbol("]") { throw ParseFailure(reason: "expected ',' or ']'") }
        }
        index += 1
        return .array(elements)
      }
      if isSymbol("(") {
        index += 1
        let inner = try expression()
        try expect(")")
        return inner
      }
      if isSymbol("-") {
        index += 1
        return .unary("-", try primary())
      }
      if let n = current, n.kind == .number || n.kind == .identifier {
        return try primary()
      }
      throw ParseFailure(reason: "unexpected '@'")
    default:
      throw ParseFailure(reason: "unexpected '\(t.text)'")
    }
  }

  /// `[a, b]` (an array) or `[receiver selector…]` (a message).
  private mutating func bracket() throws(ParseFailure) -> SourceExpression {
    index += 1
    if isSymbol("]") {
      index += 1
      return .array([])
    }
    let first = try expression()
    if isSymbol(",") || isSymbol("]") {
      var elements = [first]
      while isSymbol(",") {
        index += 1
        if isSymbol("]") { break }
        elements.append(try expression())
      }
      try expect("]")
      return .array(elements)
    }
    var parts: [SourceArgument] = []
    while let t = current, t.kind == .identifier {
      index += 1
      if isSymbol(":") {
        index += 1
        parts.append(SourceArgument(label: t.text, value: try expression()))
        // Variadic arguments (`arrayWithObjects:a, b, nil`).
        while isSymbol(",") {
          index += 1
          parts.append(SourceArgument(label: "", value: try expression()))
        }
      } else {
        parts.append(SourceArgument(label: t.text, value: nil))
        break
      }
    }
    guard !parts.isEmpty else { throw ParseFailure(reason: "expected a selector or ',' in '[…]'") }
    try expect("]")
    return .message(first, parts)
  }

  /// `{ [weak self] a, b in statements }`.
  private mutating func closure() throws(ParseFailure) -> SourceExpression {
    // Look for `in` on the closure's first line, at depth 0.
    var k = 1
    var parameters: [String] = []
    var sawIn = false
    var depth = 0
    while let t = token(k), !(t.startsLine && k > 1) {
      if t.kind == .symbol && (t.text == "[" || t.text == "(") { depth += 1 }
      if t.kind == .symbol && (t.text == "]" || t.text == ")") { depth -= 1 }
      if t.kind == .symbol && t.text == "}" { break }
      if depth == 0 && t.kind == .identifier && t.text == "in" {
        sawIn = true
        break
      }
      if t.kind == .identifier && depth <= 1 && token(k - 1)?.text != ":" { parameters.append(t.text) }
      k += 1
    }
    if sawIn {
      index += k
    } else {
      parameters = []
    }
    let body = block()
    return .closure(parameters.filter { !["weak", "unowned", "self", "_"].contains($0) }, body)
  }

  /// A number literal's value: Swift and C spellings (`10`, `10.0f`,
  /// `1e3`, `0x1F`, `1_000`, `2.5F`, `10L`).
  static func number(_ text: String) -> Double? {
    var s = String(text.filter { $0 != "_" })
    if s.hasPrefix("0x") || s.hasPrefix("0X") {
      return UInt64(s.dropFirst(2), radix: 16).map { Double($0) }
    }
    while let last = s.last, "fFlLuU".contains(last) { s.removeLast() }
    return Double(s)
  }
}
