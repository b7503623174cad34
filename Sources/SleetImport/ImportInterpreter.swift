/// Runs parsed setup code: declarations, assignments, calls of helpers,
/// for-in loops over literal arrays, building the layer, cells, behaviors
/// and animations as it goes (docs/import.md, "How the code runs"). What it
/// cannot run is reported as an ``ImportNote`` with its line.
final class ImportInterpreter {
  let size: ImportSize
  private let sourceLines: [Substring]
  private(set) var notes: [ImportNote] = []
  private var globals: [String: ImportValue] = [:]
  private var scopes: [[String: ImportValue]] = []
  /// Functions by name (Swift overloads share a base name).
  private var functions: [String: [SourceFunction]] = [:]
  /// `lazy var` properties: evaluated when first read, as Swift does.
  private var lazyGlobals: [String: SourceExpression] = [:]
  /// When code runs inside `DispatchQueue.main.asyncAfter(deadline: .now() + T)`
  /// (or `dispatch_after`), T: what it sets on the emitter becomes a change at T.
  private var deferredTime: Double?
  /// Properties set at a later time: the object, key, value, time and line.
  private(set) var timedSets: [(object: ImportObject, key: String, value: ImportValue, time: Double, line: Int)] = []
  /// Every `CAEmitterLayer` created, in order.
  private(set) var layers: [ImportObject] = []
  /// Every cell created, in order (for code that builds cells but no layer).
  private(set) var cells: [ImportObject] = []
  /// Animations added to a layer: the animation, the layer, the line.
  private(set) var addedAnimations: [(animation: ImportObject, layer: ImportObject, line: Int)] = []
  private var line = 0
  private var depth = 0
  /// Whether the view's own layer is a `CAEmitterLayer` (`layerClass`
  /// returns `CAEmitterLayer`): then `self.layer` is the emitter.
  private var hostsEmitterLayer = false
  private var viewLayer: ImportObject?

  /// How deep helpers may call each other (recursion is not emitter setup).
  static let maximumCallDepth = 32
  /// The most iterations all loops together may run.
  static let maximumIterations = 10_000
  private var iterations = 0
  /// The most statements the whole run executes: setup code is short, and
  /// helpers calling helpers could otherwise run for an exponential time.
  static let maximumSteps = 100_000
  private var steps = 0

  init(source: String, size: ImportSize) {
    self.size = size
    sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false)
  }

  // MARK: - Notes

  func note(_ reason: String, line: Int? = nil, kind: ImportNote.Kind = .untranslated) {
    let l = line ?? self.line
    let text = l >= 1 && l <= sourceLines.count ? sourceLines[l - 1].trimmingSpaces() : ""
    let note = ImportNote(line: l, text: text, reason: reason, kind: kind)
    if !notes.contains(note) { notes.append(note) }
  }

  // MARK: - Running

  /// Runs the program: statements outside functions first, then every
  /// function that no code in the source calls, in source order.
  func run(_ program: SourceProgram) {
    for f in program.functions { functions[f.name, default: []].append(f) }
    var called: Set<String> = []
    func collectCalls(_ statements: [SourceStatement]) {
      for s in statements {
        switch s {
        case .declaration(_, let e?, _, _), .expression(let e, _), .returnValue(let e?, _):
          collectCalls(e)
        case .assignment(let t, _, let v, _):
          collectCalls(t)
          collectCalls(v)
        case .forIn(_, let seq, let body, _):
          collectCalls(seq)
          collectCalls(body)
        default: break
        }
      }
    }
    func collectCalls(_ e: SourceExpression) {
      switch e {
      case .call(let callee, let args):
        if case .identifier(let n) = callee { called.insert(n) }
        // `super.viewDidLoad()` calls the superclass's method, not this one.
        if case .member(let base, let n) = callee {
          if case .identifier("super") = base {} else { called.insert(n) }
        }
        collectCalls(callee)
        for a in args { if let v = a.value { collectCalls(v) } }
      case .message(let r, let parts):
        let selector = parts.map { $0.value == nil ? $0.label ?? "" : ($0.label ?? "") + ":" }.joined()
        if case .identifier("super") = r {} else { called.insert(selector) }
        collectCalls(r)
        for a in parts { if let v = a.value { collectCalls(v) } }
      case .member(let b, _): collectCalls(b)
      case .array(let xs): xs.forEach(collectCalls)
      case .unary(_, let x): collectCalls(x)
      case .binary(_, let a, let b):
        collectCalls(a)
        collectCalls(b)
      case .closure(_, let body): collectCalls(body)
      default: break
      }
    }
    collectCalls(program.statements)
    for f in program.functions { collectCalls(f.body) }
    // A `return` outside any function ends nothing.
    for statement in program.statements { _ = execute(statement) }
    hostsEmitterLayer = layerClassIsEmitterLayer()
    for f in program.functions where !called.contains(f.name) {
      // An entry point: a function without parameters (viewDidLoad,
      // setupEmitter) or an initializer, whose parameters (a frame, a coder)
      // are not known. Another function with parameters is an event handler
      // or a setter the code never calls: what it would do depends on values
      // the code does not have.
      guard f.parameters.isEmpty || Self.initializers.contains(f.name) else {
        note("'\(f.name)' takes parameters and no code here calls it: not run", line: f.line)
        continue
      }
      scopes.append(Dictionary(uniqueKeysWithValues: f.parameters.map { ($0.name, ImportValue.unknown) }))
      _ = execute(f.body)
      scopes.removeLast()
    }
  }

  /// Initializers, run as entry points although they take parameters.
  static let initializers: Set<String> = ["init", "initWithFrame:", "initWithCoder:", "initWithFrame:style:"]

  /// Whether the code makes its view's layer an emitter layer:
  /// `override class var layerClass: AnyClass { CAEmitterLayer.self }` or
  /// `+ (Class)layerClass { return [CAEmitterLayer class]; }`.
  private func layerClassIsEmitterLayer() -> Bool {
    var body: [SourceStatement] = []
    if let f = functions["layerClass"]?.first {
      body = f.body
    } else if case .call(.closure(_, let b), _)? = lazyGlobals["layerClass"] {
      body = b
    }
    for statement in body {
      switch statement {
      case .returnValue(let e?, _), .expression(let e, _):
        if case .typeName("CAEmitterLayer") = evaluate(e) { return true }
      default: continue
      }
    }
    return false
  }

  /// The view's layer: the emitter layer itself when the view's
  /// `layerClass` is `CAEmitterLayer`, else the view.
  private var layerOfView: ImportValue {
    guard hostsEmitterLayer else { return .view }
    if let viewLayer { return .layer(viewLayer) }
    let o = newObject(.layer)
    viewLayer = o
    return .layer(o)
  }

  private enum Flow {
    case next
    case returned(ImportValue)
  }

  private func execute(_ statements: [SourceStatement]) -> Flow {
    for s in statements {
      if case .returned(let v) = execute(s) { return .returned(v) }
    }
    return .next
  }

  private func execute(_ statement: SourceStatement) -> Flow {
    steps += 1
    guard steps <= Self.maximumSteps else {
      if steps == Self.maximumSteps + 1 {
        note("more than \(Self.maximumSteps) statements run: the rest is not run")
      }
      return .returned(.unknown)
    }
    switch statement {
    case .declaration(let name, let value, let isLazy, let line):
      self.line = line
      if isLazy, scopes.isEmpty, let value {
        lazyGlobals[name] = value
        return .next
      }
      let v = value.map { evaluate($0) } ?? .nothing
      if scopes.isEmpty { globals[name] = v } else { scopes[scopes.count - 1][name] = v }
    case .assignment(let target, let op, let value, let line):
      self.line = line
      var v = evaluate(value)
      if op != "=" {
        let old = evaluate(target)
        v = arithmetic(String(op.dropLast()), old, v)
      }
      assign(target, v)
    case .expression(let e, let line):
      self.line = line
      _ = evaluate(e)
    case .forIn(let variable, let sequence, let body, let line):
      self.line = line
      guard case .array(let elements) = evaluate(sequence) else {
        note("for-in loops run over literal arrays and ranges only")
        return .next
      }
      for element in elements {
        iterations += 1
        guard iterations <= Self.maximumIterations else {
          note("more than \(Self.maximumIterations) loop iterations: the loop is cut short")
          return .next
        }
        scopes.append([variable: element])
        let flow = execute(body)
        scopes.removeLast()
        if case .returned = flow { return flow }
      }
    case .returnValue(let e, let line):
      self.line = line
      return .returned(e.map { evaluate($0) } ?? .nothing)
    case .unsupported(let reason, let line):
      note(reason, line: line)
    }
    return .next
  }

  // MARK: - Names

  private func lookup(_ name: String) -> ImportValue? {
    for scope in scopes.reversed() { if let v = scope[name] { return v } }
    if let v = globals[name] { return v }
    if let e = lazyGlobals.removeValue(forKey: name) {
      let v = evaluate(e)
      globals[name] = v
      return v
    }
    // An Objective-C property and its instance variable: `self.emitter`, `_emitter`.
    if name.hasPrefix("_"), let v = globals[String(name.dropFirst())] { return v }
    if let v = globals["_" + name] { return v }
    return nil
  }

  private func assignVariable(_ name: String, _ value: ImportValue) {
    for i in scopes.indices.reversed() where scopes[i][name] != nil {
      scopes[i][name] = value
      return
    }
    if globals[name] == nil, name.hasPrefix("_"), globals[String(name.dropFirst())] != nil {
      globals[String(name.dropFirst())] = value
    } else if globals[name] == nil, globals["_" + name] != nil {
      globals["_" + name] = value
    } else {
      globals[name] = value
    }
  }

  // MARK: - Assignment

  private func assign(_ target: SourceExpression, _ value: ImportValue) {
    // What could not be computed was reported; the target keeps its value.
    if case .unknown = value { return }
    switch target {
    case .identifier(let name):
      assignVariable(name, value)
    case .member(let baseExpression, let property):
      let base = evaluate(baseExpression)
      switch base {
      case .layer(let o), .cell(let o), .behavior(let o), .animation(let o):
        setProperty(o, property, value)
      case .view:
        if case .identifier(let b) = baseExpression, b == "self", lookup(property) != nil || isObjectValue(value) {
          assignVariable(property, value)
        } else if ImportVocabulary.inertViewProperties.contains(property) {
          return
        } else {
          note("'\(property)' is a property of the view, not of the emitter: not imported")
        }
      case .unknown:
        return
      default:
        note("cannot assign to '\(property)' of this value")
      }
    default:
      note("cannot assign to this expression")
    }
  }

  private func isObjectValue(_ v: ImportValue) -> Bool {
    switch v {
    case .layer, .cell, .behavior, .animation: return true
    default: return false
    }
  }

  /// Sets a property as Swift's dot syntax, `[obj setX:]` and
  /// `setValue(_:forKey:)` do. Values are checked when the effect is built.
  func setProperty(_ object: ImportObject, _ property: String, _ value: ImportValue) {
    var key = property
    if key == "isEnabled" { key = "enabled" }
    if key == "isRemovedOnCompletion" { key = "removedOnCompletion" }
    switch object.kind {
    case .layer:
      let known = ImportVocabulary.layerNumbers.union([
        "emitterPosition", "emitterSize", "emitterShape", "emitterMode", "renderMode", "preservesDepth", "seed",
        "emitterCells", "emitterBehaviors", "frame", "bounds",
      ])
      if ImportVocabulary.inertViewProperties.contains(key) { return }
      guard known.contains(key) else {
        note("'\(property)' of CAEmitterLayer is not an emitter property: not imported")
        return
      }
    case .cell:
      let known = ImportVocabulary.cellNumbers.union([
        "name", "enabled", "color", "contents", "contentsRect", "magnificationFilter", "minificationFilter",
        "emitterCells", "emitterBehaviors",
      ])
      guard known.contains(key) else {
        note("'\(property)' is not a CAEmitterCell property SleetKit has: not imported")
        return
      }
    case .behavior:
      var type = ""
      if case .string(let t)? = object["type"] { type = t }
      let keys = ImportVocabulary.behaviorKeys[type] ?? [:]
      guard key == "name" || key == "enabled" || keys[key] != nil else {
        note("'\(property)' is not a key of a \(type) behavior: not imported")
        return
      }
    case .basicAnimation, .keyframeAnimation:
      let known: Set<String> = [
        "keyPath", "fromValue", "toValue", "byValue", "values", "keyTimes", "duration", "beginTime",
        "timingFunction", "fillMode", "removedOnCompletion", "repeatCount", "autoreverses", "timingFunctions",
        "calculationMode", "delegate", "repeatDuration", "speed", "timeOffset", "additive", "cumulative",
      ]
      guard known.contains(key) else {
        note("'\(property)' of an animation is not read")
        return
      }
    }
    if let deferredTime, object.kind == .layer || object.kind == .cell || object.kind == .behavior {
      timedSets.append((object, key, value, deferredTime, line))
      return
    }
    object.set(key, value, line: line)
  }

  // MARK: - Later times

  /// `DispatchQueue.main.asyncAfter(deadline: .now() + T) { … }`: runs the
  /// closure with what it sets on the emitter recorded as changes at T.
  private func asyncAfter(_ queue: SourceExpression, _ args: [SourceArgument]) -> ImportValue? {
    guard case .member(.identifier("DispatchQueue"), "main") = queue, args.count == 2,
      args[0].label == "deadline", case .binary("+", let now, let delay)? = args[0].value,
      case .call(.implicitMember("now"), let nowArgs) = now, nowArgs.isEmpty,
      case .closure(_, let body)? = args[1].value
    else { return nil }
    return runLater(delay, body)
  }

  /// `dispatch_after(dispatch_time(DISPATCH_TIME_NOW, (int64_t)(T * NSEC_PER_SEC)), dispatch_get_main_queue(), ^{ … })`.
  private func dispatchAfter(_ args: [SourceArgument]) -> ImportValue? {
    guard args.count == 3, case .call(.identifier("dispatch_time"), let timeArgs)? = args[0].value,
      timeArgs.count == 2, case .identifier("DISPATCH_TIME_NOW")? = timeArgs[0].value,
      case .binary("*", let delay, .identifier("NSEC_PER_SEC"))? = timeArgs[1].value,
      case .closure(_, let body)? = args[2].value
    else { return nil }
    return runLater(delay, body)
  }

  private func runLater(_ delayExpression: SourceExpression, _ body: [SourceStatement]) -> ImportValue {
    guard case .number(let d) = evaluate(delayExpression), d.isConstant, d.constant.isFinite, d.constant >= 0 else {
      note("the delay must be a fixed number of seconds: the delayed code is not run")
      return .nothing
    }
    let saved = deferredTime
    deferredTime = (saved ?? 0) + d.constant
    _ = invokeClosure([], body, [])
    deferredTime = saved
    return .nothing
  }

  /// `setValue(v, forKeyPath: "emitterCells.snow.birthRate")` and
  /// `forKey:` on a layer, cell or behavior.
  private func setValue(_ value: ImportValue, forKeyPath path: String, on object: ImportObject) {
    var parts = path.split(separator: ".").map(String.init)
    var target = object
    while parts.count >= 3, parts[0] == "emitterCells" || parts[0] == "emitterBehaviors" {
      guard case .array(let items)? = target[parts[0]],
        let next = items.lazy.compactMap({ item -> ImportObject? in
          switch item {
          case .cell(let o), .behavior(let o):
            if case .string(parts[1])? = o["name"] { return o }
            return nil
          default: return nil
          }
        }).first
      else {
        note("'\(path)': no \(parts[0] == "emitterCells" ? "cell" : "behavior") named '\(parts[1])' here")
        return
      }
      target = next
      parts.removeFirst(2)
    }
    guard parts.count == 1 else {
      note("'\(path)': only whole properties can be set by key path here")
      return
    }
    setProperty(target, parts[0], value)
  }

  // MARK: - Expressions

  func evaluate(_ e: SourceExpression) -> ImportValue {
    switch e {
    case .number(let x): return .number(SizeLinear(x))
    case .string(let s): return .string(s)
    case .identifier(let name): return identifier(name)
    case .implicitMember(let name): return implicitMember(name)
    case .member(let base, let name): return member(evaluate(base), name, baseExpression: base)
    case .call(let callee, let args): return call(callee, args)
    case .message(let receiver, let parts): return message(receiver, parts)
    case .array(let xs): return .array(xs.map { evaluate($0) }.filter { if case .nothing = $0 { false } else { true } })
    case .unary(let op, let x):
      let v = evaluate(x)
      if op == "-" { return arithmetic("*", .number(SizeLinear(-1)), v) }
      if op == "!", case .bool(let b) = v { return .bool(!b) }
      return v
    case .binary(let op, let a, let b):
      let x = evaluate(a)
      let y = evaluate(b)
      if op == "..<" || op == "..." {
        guard case .number(let lo) = x, case .number(let hi) = y, lo.isConstant, hi.isConstant,
          let l = Int(exactly: lo.constant), let h = Int(exactly: hi.constant), l <= h
        else {
          note("a range needs whole-number bounds, the lower one first")
          return .unknown
        }
        guard h - l <= Self.maximumIterations else {
          note("a range of more than \(Self.maximumIterations) numbers is not run")
          return .unknown
        }
        let upper = op == "..<" ? h : h + 1
        return .array((l..<upper).map { .number(SizeLinear(Double($0))) })
      }
      return arithmetic(op, x, y)
    case .closure(let parameters, let body): return .closure(parameters, body)
    }
  }

  private func identifier(_ name: String) -> ImportValue {
    if let v = lookup(name) { return v }
    switch name {
    case "true", "YES": return .bool(true)
    case "false", "NO": return .bool(false)
    case "nil", "NULL", "Nil": return .nothing
    case "self", "super", "view", "contentView": return .view
    case "layer": return layerOfView
    case "bounds", "frame": return member(.view, name, baseExpression: nil)
    case "M_PI": return .number(SizeLinear(Double.pi))
    case "M_PI_2": return .number(SizeLinear(Double.pi / 2))
    case "M_PI_4": return .number(SizeLinear(Double.pi / 4))
    case "HUGE_VALF", "HUGE_VAL", "INFINITY", "FLT_MAX", "MAXFLOAT": return .number(SizeLinear(.infinity))
    default: break
    }
    if let c = ImportVocabulary.objectiveCConstant(name) { return .constant(c) }
    if functions[name] != nil { return .function(name) }
    if name.first?.isUppercase == true { return .typeName(name) }
    note("unknown name '\(name)'")
    return .unknown
  }

  private func implicitMember(_ name: String) -> ImportValue {
    switch name {
    case "pi": return .number(SizeLinear(Double.pi))
    case "zero": return .zero
    case "infinity", "greatestFiniteMagnitude": return .number(SizeLinear(.infinity))
    default: break
    }
    if let c = ImportVocabulary.color(named: name) { return c }
    if ImportVocabulary.isConstant(name) { return .constant(name) }
    note("unknown member '.\(name)'")
    return .unknown
  }

  private func rect(_ x: SizeLinear, _ y: SizeLinear, _ w: SizeLinear, _ h: SizeLinear) -> ImportValue {
    .vector([x, y, w, h], .rect)
  }

  private var viewBounds: ImportValue {
    rect(SizeLinear(0), SizeLinear(0), SizeLinear(0, perWidth: 1), SizeLinear(0, perHeight: 1))
  }

  private func member(_ base: ImportValue, _ name: String, baseExpression: SourceExpression?) -> ImportValue {
    switch base {
    case .typeName(let type):
      return staticMember(type, name)
    case .view:
      if case .identifier("self")? = baseExpression, let v = lookup(name) { return v }
      switch name {
      case "bounds", "frame", "nativeBounds": return viewBounds
      case "center":
        return .vector([SizeLinear(0, perWidth: 0.5), SizeLinear(0, perHeight: 0.5)], .point)
      case "layer":
        if case .identifier(let b)? = baseExpression, b == "self" { return layerOfView }
        return .view
      case "view", "superview", "window", "contentView", "main", "screen", "presentationLayer": return .view
      default:
        if let v = lookup(name) { return v }
        note("unknown property '\(name)' of the view")
        return .unknown
      }
    case .vector(let c, let kind):
      return vectorMember(c, kind, name)
    case .zero:
      return ["x", "y", "width", "height", "minX", "midX", "maxX", "minY", "midY", "maxY"].contains(name)
        ? .number(SizeLinear(0)) : .zero
    case .color:
      if ["cgColor", "CGColor", "ciColor"].contains(name) { return base }
    case .image:
      if ["cgImage", "CGImage"].contains(name) { return base }
    case .number:
      if ["floatValue", "doubleValue", "cgFloatValue", "integerValue", "intValue"].contains(name) { return base }
    case .layer(let o), .cell(let o), .behavior(let o), .animation(let o):
      if let v = o[name == "isEnabled" ? "enabled" : name] { return v }
      // A layer's bounds are its frame moved to (0, 0); its frame, its bounds.
      if o.kind == .layer, name == "bounds", case .vector(let c, .rect)? = o["frame"] {
        return rect(SizeLinear(0), SizeLinear(0), c[2], c[3])
      }
      if o.kind == .layer, name == "frame", let b = o["bounds"] { return b }
      if let v = Self.defaultValue(o.kind, name) { return v }
      note("'\(name)' is read before it is set")
      return .unknown
    case .unknown:
      return .unknown
    default:
      break
    }
    note("unknown member '\(name)'")
    return .unknown
  }

  /// Core Animation's default of a property read before the code sets it.
  static func defaultValue(_ kind: ImportObject.Kind, _ name: String) -> ImportValue? {
    let one: Set<String> =
      kind == .layer
      ? ["birthRate", "lifetime", "velocity", "scale", "spin", "speed"] : ["scale", "speed", "mass"]
    switch kind {
    case .layer:
      if ImportVocabulary.layerNumbers.contains(name) { return .number(SizeLinear(one.contains(name) ? 1 : 0)) }
      if name == "emitterPosition" { return .vector([SizeLinear(0), SizeLinear(0)], .point) }
      if name == "emitterSize" { return .vector([SizeLinear(0), SizeLinear(0)], .size) }
    case .cell:
      if ImportVocabulary.cellNumbers.contains(name) { return .number(SizeLinear(one.contains(name) ? 1 : 0)) }
      if name == "color" { return .color(r: 1, g: 1, b: 1, a: 1) }
    default:
      break
    }
    if name == "emitterCells" || name == "emitterBehaviors" { return .array([]) }
    return nil
  }

  private func vectorMember(_ c: [SizeLinear], _ kind: ImportValue.VectorKind, _ name: String) -> ImportValue {
    switch (kind, name) {
    case (.point, "x"), (.rect, "minX"), (.rect, "x"): return .number(c[0])
    case (.point, "y"), (.rect, "minY"), (.rect, "y"): return .number(c[1])
    case (.size, "width"): return .number(c[0])
    case (.size, "height"): return .number(c[1])
    case (.rect, "origin"): return .vector([c[0], c[1]], .point)
    case (.rect, "size"): return .vector([c[2], c[3]], .size)
    case (.rect, "width"): return .number(c[2])
    case (.rect, "height"): return .number(c[3])
    case (.rect, "midX"): return .number(c[0] + c[2].scaled(0.5))
    case (.rect, "midY"): return .number(c[1] + c[3].scaled(0.5))
    case (.rect, "maxX"): return .number(c[0] + c[2])
    case (.rect, "maxY"): return .number(c[1] + c[3])
    case (.vector, "dx"): return .number(c[0])
    case (.vector, "dy"): return .number(c[1])
    default:
      note("unknown member '\(name)'")
      return .unknown
    }
  }

  private func staticMember(_ type: String, _ name: String) -> ImportValue {
    switch (type, name) {
    case ("CGFloat", "pi"), ("Double", "pi"): return .number(SizeLinear(Double.pi))
    case ("Float", "pi"): return .number(SizeLinear(Double(Float.pi)))
    case (_, "infinity"), (_, "greatestFiniteMagnitude"): return .number(SizeLinear(.infinity))
    case ("CGPoint", "zero"): return .vector([SizeLinear(0), SizeLinear(0)], .point)
    case ("CGSize", "zero"): return .vector([SizeLinear(0), SizeLinear(0)], .size)
    case ("CGRect", "zero"): return .vector([SizeLinear(0), SizeLinear(0), SizeLinear(0), SizeLinear(0)], .rect)
    case ("UIScreen", "main"): return .view
    case (_, "self"): return .typeName(type)
    default: break
    }
    if ["UIColor", "NSColor", "Color"].contains(type), let c = ImportVocabulary.color(named: name) { return c }
    if ImportVocabulary.constantTypes.contains(type), ImportVocabulary.isConstant(name) { return .constant(name) }
    note("unknown member '\(type).\(name)'")
    return .unknown
  }

  // MARK: - Arithmetic

  func arithmetic(_ op: String, _ a: ImportValue, _ b: ImportValue) -> ImportValue {
    switch (a, b) {
    case (.number(let x), .number(let y)):
      switch op {
      case "+": return .number(x + y)
      case "-": return .number(x - y)
      case "*":
        if y.isConstant { return .number(x.scaled(y.constant)) }
        if x.isConstant { return .number(y.scaled(x.constant)) }
      case "/":
        if y.isConstant { return .number(x.scaled(1 / y.constant)) }
      case "%":
        if x.isConstant && y.isConstant {
          return .number(SizeLinear(x.constant.truncatingRemainder(dividingBy: y.constant)))
        }
      default:
        note("unknown operator '\(op)'")
        return .unknown
      }
      note("the view's size is used non-linearly: kept as its value for \(sizeText)")
      let v = x.value(for: size)
      let w = y.value(for: size)
      switch op {
      case "*": return .number(SizeLinear(v * w))
      case "/": return .number(SizeLinear(v / w))
      default: return .number(SizeLinear(v.truncatingRemainder(dividingBy: w)))
      }
    case (.vector(let c, let kind), .number(let k)) where k.isConstant && (op == "*" || op == "/"):
      return .vector(c.map { $0.scaled(op == "*" ? k.constant : 1 / k.constant) }, kind)
    case (.number(let k), .vector(let c, let kind)) where k.isConstant && op == "*":
      return .vector(c.map { $0.scaled(k.constant) }, kind)
    case (.array(let x), .array(let y)) where op == "+":
      return .array(x + y)
    case (.unknown, _), (_, .unknown):
      return .unknown
    default:
      note("cannot compute '\(op)' on these values")
      return .unknown
    }
  }

  var sizeText: String { "\(formatted(size.width))×\(formatted(size.height))" }

  func formatted(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
  }

  // MARK: - Calls

  private func arguments(_ args: [SourceArgument]) -> [(label: String?, value: ImportValue)] {
    args.map { ($0.label, $0.value.map { evaluate($0) } ?? .nothing) }
  }

  private func number(_ v: ImportValue?) -> SizeLinear? {
    switch v {
    case .number(let x)?: return x
    case .bool(let b)?: return SizeLinear(b ? 1 : 0)
    default: return nil
    }
  }

  private func constantNumber(_ v: ImportValue?) -> Double? {
    guard let x = number(v) else { return nil }
    if !x.isConstant {
      note("the view's size is used where a fixed number is needed: kept as its value for \(sizeText)")
    }
    return x.value(for: size)
  }

  /// The variable an expression names: `cells`, `self.cells`.
  private func variableName(_ e: SourceExpression) -> String? {
    switch e {
    case .identifier(let n): return n
    case .member(.identifier("self"), let n): return n
    default: return nil
    }
  }

  /// `cells.append(cell)`, `[cells addObject:cell]`, `append(contentsOf:)`:
  /// arrays are values here, so the variable gets the longer array.
  private func appending(to arrayExpression: SourceExpression, _ elements: [ImportValue]) -> ImportValue? {
    guard let name = variableName(arrayExpression), case .array(let old)? = lookup(name) else { return nil }
    assignVariable(name, .array(old + elements))
    return .nothing
  }

  private func call(_ callee: SourceExpression, _ args: [SourceArgument]) -> ImportValue {
    switch callee {
    case .member(let baseExpression, let name):
      if name == "init" { return call(baseExpression, args) }
      if name == "append", args.count == 1, let value = args[0].value {
        let v = evaluate(value)
        if args[0].label == "contentsOf", case .array(let xs) = v, let r = appending(to: baseExpression, xs) {
          return r
        }
        if args[0].label == nil, let r = appending(to: baseExpression, [v]) { return r }
      }
      if name == "asyncAfter", let r = asyncAfter(baseExpression, args) { return r }
      let base = evaluate(baseExpression)
      if case .unknown = base { return .unknown }
      return method(base, name, arguments(args), baseExpression: baseExpression)
    case .identifier(let name):
      if functions[name] != nil, lookup(name) == nil {
        let values = arguments(args)
        if let f = swiftFunction(name, values) { return invoke(f, values) }
      }
      if case .closure(let params, let body)? = lookup(name) {
        return invokeClosure(params, body, arguments(args).map(\.value))
      }
      if name == "dispatch_after", let r = dispatchAfter(args) { return r }
      return construct(name, arguments(args))
    case .closure(let params, let body):
      return invokeClosure(params, body, arguments(args).map(\.value))
    case .array(let elements) where args.isEmpty && elements.count == 1:
      // `[CAEmitterCell]()`: an empty array.
      if case .identifier(let t) = elements[0], t.first?.isUppercase == true { return .array([]) }
      note("cannot call this expression")
      return .unknown
    case .implicitMember(let name):
      note("'.\(name)(…)' is not understood")
      return .unknown
    default:
      note("cannot call this expression")
      return .unknown
    }
  }

  /// The Swift function `name` whose parameter labels the arguments match
  /// (parameters with defaults may be left out).
  private func swiftFunction(_ name: String, _ args: [(label: String?, value: ImportValue)]) -> SourceFunction? {
    functions[name]?.first { f in
      guard !f.isObjectiveC else { return false }
      var given = args[...]
      for p in f.parameters {
        if let a = given.first, a.label == p.label {
          given = given.dropFirst()
        } else if p.defaultValue == nil {
          return false
        }
      }
      return given.isEmpty
    }
  }

  private func invoke(_ f: SourceFunction, _ args: [(label: String?, value: ImportValue)]) -> ImportValue {
    guard depth < Self.maximumCallDepth else {
      note("helpers call each other more than \(Self.maximumCallDepth) deep: not run")
      return .unknown
    }
    var scope: [String: ImportValue] = [:]
    var given = args[...]
    for p in f.parameters {
      if let a = given.first, f.isObjectiveC || a.label == p.label {
        scope[p.name] = a.value
        given = given.dropFirst()
      } else if let d = p.defaultValue {
        scope[p.name] = evaluate(d)
      } else {
        note("the call of '\(f.name)' does not match its parameters")
        return .unknown
      }
    }
    let saved = line
    depth += 1
    scopes.append(scope)
    let flow = execute(f.body)
    scopes.removeLast()
    depth -= 1
    line = saved
    if case .returned(let v) = flow { return v }
    return .nothing
  }

  private func invokeClosure(_ params: [String], _ body: [SourceStatement], _ args: [ImportValue]) -> ImportValue {
    guard depth < Self.maximumCallDepth else { return .unknown }
    var scope: [String: ImportValue] = [:]
    for (p, v) in zip(params, args) { scope[p] = v }
    // Anonymous parameters: `{ makeCell(color: $0) }`.
    for (i, v) in args.enumerated() where params.isEmpty { scope["$\(i)"] = v }
    let saved = line
    depth += 1
    scopes.append(scope)
    var result = ImportValue.nothing
    // A single-expression closure returns its value.
    if body.count == 1, case .expression(let e, let l) = body[0] {
      line = l
      result = evaluate(e)
    } else if case .returned(let v) = execute(body) {
      result = v
    }
    scopes.removeLast()
    depth -= 1
    line = saved
    return result
  }

  private func newObject(_ kind: ImportObject.Kind) -> ImportObject {
    let o = ImportObject(kind: kind, line: line)
    if kind == .layer { layers.append(o) }
    if kind == .cell { cells.append(o) }
    return o
  }

  private func behavior(type: ImportValue) -> ImportValue {
    guard case .string(let t) = type else {
      note("a behavior's type must be a string literal")
      return .unknown
    }
    let o = newObject(.behavior)
    o.set("type", .string(t), line: line)
    if ImportVocabulary.behaviorKeys[t] == nil {
      note(
        "behavior type '\(t)' is not one SleetKit has (\(ImportVocabulary.behaviorKeys.keys.sorted().joined(separator: ", ")))"
      )
    }
    return .behavior(o)
  }

  private func animation(_ kind: ImportObject.Kind, keyPath: ImportValue?) -> ImportValue {
    let o = newObject(kind)
    if let keyPath { o.set("keyPath", keyPath, line: line) }
    return .animation(o)
  }

  private func color(_ values: [Double?], alpha: Double?) -> ImportValue {
    guard values.allSatisfy({ $0 != nil }), let a = alpha ?? Optional(1) else {
      note("a colour's components must be numbers")
      return .unknown
    }
    return .color(r: values[0]!, g: values[1]!, b: values[2]!, a: a)
  }

  private func labelled(_ args: [(label: String?, value: ImportValue)], _ label: String) -> ImportValue? {
    args.first { $0.label == label }?.value
  }

  /// `Type(args)` and C functions.
  private func construct(_ name: String, _ args: [(label: String?, value: ImportValue)]) -> ImportValue {
    let labels = args.map { $0.label ?? "_" }
    func n(_ label: String) -> Double? { constantNumber(labelled(args, label)) }
    func linear(_ i: Int) -> SizeLinear? { i < args.count ? number(args[i].value) : nil }
    switch (name, labels) {
    case ("CAEmitterLayer", []): return .layer(newObject(.layer))
    case ("CAEmitterCell", []): return .cell(newObject(.cell))
    case ("CAEmitterBehavior", ["type"]): return behavior(type: args[0].value)
    case ("CABasicAnimation", ["keyPath"]), ("CABasicAnimation", []):
      return animation(.basicAnimation, keyPath: args.first?.value)
    case ("CAKeyframeAnimation", ["keyPath"]), ("CAKeyframeAnimation", []):
      return animation(.keyframeAnimation, keyPath: args.first?.value)
    case ("CAMediaTimingFunction", ["name"]):
      if case .constant(let c) = args[0].value, ImportVocabulary.timingNames.contains(c) { return .timing(.string(c)) }
    case ("CAMediaTimingFunction", ["controlPoints", "_", "_", "_"]):
      let xs = args.map { constantNumber($0.value) }
      if xs.allSatisfy({ $0 != nil }) { return .timing(.array(xs.map { .number($0!) })) }
    case ("UIColor", ["red", "green", "blue", "alpha"]), ("NSColor", ["red", "green", "blue", "alpha"]),
      ("CGColor", ["red", "green", "blue", "alpha"]), ("NSColor", ["srgbRed", "green", "blue", "alpha"]),
      ("NSColor", ["calibratedRed", "green", "blue", "alpha"]):
      return color([n(labels[0]), n("green"), n("blue")], alpha: n("alpha"))
    case ("UIColor", ["white", "alpha"]), ("NSColor", ["white", "alpha"]), ("CGColor", ["gray", "alpha"]):
      let w = n(labels[0])
      return color([w, w, w], alpha: n("alpha"))
    case ("UIColor", ["hue", "saturation", "brightness", "alpha"]),
      ("NSColor", ["hue", "saturation", "brightness", "alpha"]):
      guard let h = n("hue"), let s = n("saturation"), let b = n("brightness") else { break }
      let (r, g, bl) = ImportVocabulary.rgb(hue: h, saturation: s, brightness: b)
      return color([r, g, bl], alpha: n("alpha"))
    case ("UIColor", ["cgColor"]), ("NSColor", ["cgColor"]), ("UIColor", ["_"]):
      if case .color = args[0].value { return args[0].value }
    case ("UIImage", ["named"]), ("NSImage", ["named"]), ("UIImage", ["systemName"]),
      ("NSImage", ["imageLiteralResourceName"]):
      if case .string(let s) = args[0].value { return .image(s) }
    case ("CGPoint", ["x", "y"]), ("CGSize", ["width", "height"]), ("CGVector", ["dx", "dy"]):
      if let a = linear(0), let b = linear(1) {
        return .vector([a, b], name == "CGPoint" ? .point : name == "CGSize" ? .size : .vector)
      }
    case ("CGRect", ["x", "y", "width", "height"]):
      if let a = linear(0), let b = linear(1), let c = linear(2), let d = linear(3) { return rect(a, b, c, d) }
    case ("CGRect", ["origin", "size"]):
      if case .vector(let o, _) = args[0].value, case .vector(let s, _) = args[1].value {
        return rect(o[0], o[1], s[0], s[1])
      }
    case ("CGPointMake", ["_", "_"]), ("CGSizeMake", ["_", "_"]), ("CGVectorMake", ["_", "_"]):
      if let a = linear(0), let b = linear(1) {
        return .vector([a, b], name == "CGPointMake" ? .point : name == "CGSizeMake" ? .size : .vector)
      }
    case ("CGRectMake", ["_", "_", "_", "_"]):
      if let a = linear(0), let b = linear(1), let c = linear(2), let d = linear(3) { return rect(a, b, c, d) }
    case ("CGFloat", ["_"]), ("Float", ["_"]), ("Double", ["_"]), ("NSNumber", ["value"]), ("Int", ["_"]),
      ("Float32", ["_"]), ("CFTimeInterval", ["_"]), ("TimeInterval", ["_"]):
      guard let x = linear(0) else { break }
      if name == "Int" { return .number(SizeLinear(constantNumber(args[0].value)!.rounded(.towardZero))) }
      if name == "Float" || name == "Float32", x.isConstant { return .number(SizeLinear(Double(Float(x.constant)))) }
      return .number(x)
    case ("NSValue", _):
      return args.first?.value ?? .unknown
    case ("CACurrentMediaTime", []):
      return .number(SizeLinear(0))
    case ("NSClassFromString", ["_"]):
      if case .string(let s) = args[0].value { return .typeName(s) }
    case ("NSSelectorFromString", ["_"]):
      return args[0].value
    case ("fatalError", _), ("print", _), ("NSLog", _):
      return .nothing
    case ("arc4random", _), ("arc4random_uniform", _), ("drand48", _), ("random", _), ("rand", _):
      note("random numbers are not imported (the effect's seed makes every run the same)")
      return .unknown
    case ("CGRectGetWidth", ["_"]), ("CGRectGetHeight", ["_"]), ("CGRectGetMidX", ["_"]), ("CGRectGetMidY", ["_"]),
      ("CGRectGetMinX", ["_"]), ("CGRectGetMinY", ["_"]), ("CGRectGetMaxX", ["_"]), ("CGRectGetMaxY", ["_"]):
      if case .vector(let c, .rect) = args[0].value {
        let member = String(name.dropFirst("CGRectGet".count))
        return vectorMember(c, .rect, member.prefix(1).lowercased() + member.dropFirst())
      }
    case ("min", ["_", "_"]), ("max", ["_", "_"]), ("fmin", ["_", "_"]), ("fmax", ["_", "_"]), ("pow", ["_", "_"]),
      ("powf", ["_", "_"]):
      guard let a = constantNumber(args[0].value), let b = constantNumber(args[1].value) else { break }
      switch name {
      case "min", "fmin": return .number(SizeLinear(Swift.min(a, b)))
      case "max", "fmax": return .number(SizeLinear(Swift.max(a, b)))
      default:
        var r = 1.0
        if b == b.rounded(), abs(b) <= 64 {
          for _ in 0..<Int(abs(b)) { r *= a }
          return .number(SizeLinear(b < 0 ? 1 / r : r))
        }
      }
    case ("abs", ["_"]), ("fabs", ["_"]), ("fabsf", ["_"]), ("floor", ["_"]), ("ceil", ["_"]), ("round", ["_"]),
      ("sqrt", ["_"]), ("sqrtf", ["_"]):
      guard let a = constantNumber(args[0].value) else { break }
      switch name {
      case "floor": return .number(SizeLinear(a.rounded(.down)))
      case "ceil": return .number(SizeLinear(a.rounded(.up)))
      case "round": return .number(SizeLinear(a.rounded()))
      case "sqrt", "sqrtf": return .number(SizeLinear(a.squareRoot()))
      default: return .number(SizeLinear(abs(a)))
      }
    default:
      break
    }
    if args.contains(where: { if case .unknown = $0.value { true } else { false } }) { return .unknown }
    let signature = labels.isEmpty ? "" : labels.map { $0 + ":" }.joined()
    note("'\(name)(\(signature))' is not understood")
    return .unknown
  }

  /// `base.name(args)`.
  private func method(
    _ base: ImportValue, _ name: String, _ args: [(label: String?, value: ImportValue)],
    baseExpression: SourceExpression
  ) -> ImportValue {
    let labels = args.map { $0.label ?? "_" }
    switch (base, name, labels) {
    case (.layer(let o), "setValue", ["_", "forKey"]), (.cell(let o), "setValue", ["_", "forKey"]),
      (.behavior(let o), "setValue", ["_", "forKey"]), (.animation(let o), "setValue", ["_", "forKey"]),
      (.layer(let o), "setValue", ["_", "forKeyPath"]), (.cell(let o), "setValue", ["_", "forKeyPath"]),
      (.behavior(let o), "setValue", ["_", "forKeyPath"]):
      guard case .string(let key) = args[1].value else {
        note("setValue's key must be a string literal")
        return .nothing
      }
      setValue(args[0].value, forKeyPath: key, on: o)
      return .nothing
    case (.layer(let layer), "add", ["_", "forKey"]):
      if case .animation(let a) = args[0].value { addedAnimations.append((a, layer, line)) }
      return .nothing
    case (.view, "addSublayer", ["_"]), (.view, "insertSublayer", _), (.view, "addSubview", ["_"]),
      (.layer, "addSublayer", ["_"]), (.layer, "insertSublayer", _),
      (.layer, "removeAllAnimations", []), (.view, "layoutIfNeeded", []):
      return .nothing
    case (.array(let elements), "map", ["_"]), (.array(let elements), "compactMap", ["_"]),
      (.array(let elements), "forEach", ["_"]):
      let results: [ImportValue]
      switch args[0].value {
      case .closure(let params, let body): results = elements.map { invokeClosure(params, body, [$0]) }
      case .function(let f):
        results = elements.map { element in
          guard let function = functions[f]?.first(where: { !$0.isObjectiveC && $0.parameters.count == 1 }) else {
            return .unknown
          }
          return invoke(function, [(function.parameters[0].label, element)])
        }
      default:
        note("'\(name)' needs a closure or a function")
        return .unknown
      }
      return name == "forEach" ? .nothing : .array(results.filter { if case .nothing = $0 { false } else { true } })
    case (.color, "withAlphaComponent", ["_"]), (.color, "copy", ["withAlphaComponent"]):
      if case .color(let r, let g, let b, _) = base, let a = constantNumber(args[0].value) {
        return .color(r: r, g: g, b: b, a: a)
      }
    case (.color, "cgColor", []), (.image, "cgImage", []), (.animation, "copy", []):
      return base
    case (.typeName(let type), "perform", ["_", "with"]):
      if type == "CAEmitterBehavior", case .string("behaviorWithType:") = args[0].value {
        return behavior(type: args[1].value)
      }
    case (.behavior, "takeUnretainedValue", []), (.behavior, "takeRetainedValue", []):
      return base
    case (.typeName(let type), _, _):
      if name == "init" { return construct(type, args) }
      return construct(type + "." + name, args)
    case (.view, _, _):
      if case .identifier(let b) = baseExpression, b == "super" { return .nothing }
      if let f = swiftFunction(name, args) { return invoke(f, args) }
    case (.unknown, _, _):
      return .unknown
    default:
      break
    }
    note("'\(name)(\(labels.map { $0 + ":" }.joined()))' is not understood here")
    return .unknown
  }

  /// `[receiver part:value part:value]`.
  private func message(_ receiverExpression: SourceExpression, _ parts: [SourceArgument]) -> ImportValue {
    let receiver = evaluate(receiverExpression)
    let selector = parts.map { $0.value == nil ? $0.label ?? "" : ($0.label ?? "") + ":" }.joined()
    let args = parts.compactMap { $0.value.map { evaluate($0) } }
    if selector == "addObject:", let r = appending(to: receiverExpression, args) { return r }
    if selector == "addObjectsFromArray:", case .array(let xs)? = args.first,
      let r = appending(to: receiverExpression, xs)
    {
      return r
    }
    func n(_ i: Int) -> Double? { i < args.count ? constantNumber(args[i]) : nil }
    if case .identifier("super") = receiverExpression { return .nothing }
    if parts.count == 1, parts[0].value == nil {
      // A unary selector: a factory, a getter or `alloc`/`init`.
      let name = parts[0].label ?? ""
      switch (receiver, name) {
      case (.typeName("CAEmitterCell"), "emitterCell"), (.typeName("CAEmitterCell"), "new"):
        return .cell(newObject(.cell))
      case (.typeName("CAEmitterLayer"), "layer"), (.typeName("CAEmitterLayer"), "new"):
        return .layer(newObject(.layer))
      case (.typeName, "alloc"), (.typeName, "class"):
        return receiver
      case (.typeName(let type), "init"), (.typeName(let type), "new"):
        return construct(type, [])
      case (.typeName("UIScreen"), "mainScreen"):
        return .view
      case (.typeName("NSMutableArray"), "array"), (.typeName("NSArray"), "array"):
        return .array([])
      case (.typeName(let type), _) where ["UIColor", "NSColor"].contains(type):
        if let c = ImportVocabulary.color(selector: name) { return c }
      case (.typeName("CAMediaTimingFunction"), _):
        break
      case (.view, "self"):
        return .view
      default:
        if case .typeName = receiver { break }
        return member(receiver, name, baseExpression: receiverExpression)
      }
      note("'[\(name)]' is not understood")
      return .unknown
    }
    switch (receiver, selector) {
    case (.typeName("CAEmitterBehavior"), "behaviorWithType:"):
      return behavior(type: args[0])
    case (.typeName("CABasicAnimation"), "animationWithKeyPath:"):
      return animation(.basicAnimation, keyPath: args[0])
    case (.typeName("CAKeyframeAnimation"), "animationWithKeyPath:"):
      return animation(.keyframeAnimation, keyPath: args[0])
    case (.typeName("CAMediaTimingFunction"), "functionWithName:"):
      if case .constant(let c) = args[0], ImportVocabulary.timingNames.contains(c) { return .timing(.string(c)) }
    case (.typeName("UIColor"), "colorWithRed:green:blue:alpha:"),
      (.typeName("NSColor"), "colorWithRed:green:blue:alpha:"),
      (.typeName("NSColor"), "colorWithSRGBRed:green:blue:alpha:"),
      (.typeName("NSColor"), "colorWithCalibratedRed:green:blue:alpha:"):
      return color([n(0), n(1), n(2)], alpha: n(3))
    case (.typeName("UIColor"), "colorWithWhite:alpha:"), (.typeName("NSColor"), "colorWithWhite:alpha:"):
      return color([n(0), n(0), n(0)], alpha: n(1))
    case (.typeName("UIColor"), "colorWithHue:saturation:brightness:alpha:"):
      guard let h = n(0), let s = n(1), let b = n(2) else { break }
      let (r, g, bl) = ImportVocabulary.rgb(hue: h, saturation: s, brightness: b)
      return color([r, g, bl], alpha: n(3))
    case (.typeName("UIImage"), "imageNamed:"), (.typeName("NSImage"), "imageNamed:"):
      if case .string(let s) = args[0] { return .image(s) }
    case (.typeName("NSNumber"), _) where selector.hasPrefix("numberWith"):
      return args[0]
    case (.typeName("NSValue"), _) where selector.hasPrefix("valueWith"):
      return args[0]
    case (.typeName("NSArray"), "arrayWithObjects:"), (.typeName("NSMutableArray"), "arrayWithObjects:"),
      (.typeName("NSMutableArray"), "arrayWithArray:"), (.typeName("NSArray"), "arrayWithArray:"):
      if case .array(let xs) = args[0], args.count == 1 { return .array(xs) }
      return .array(args.filter { if case .nothing = $0 { false } else { true } })
    case (.typeName("NSMutableArray"), "arrayWithCapacity:"):
      return .array([])
    case (.typeName("NSArray"), "arrayWithObject:"), (.typeName("NSMutableArray"), "arrayWithObject:"):
      return .array([args[0]])
    case (.color, "colorWithAlphaComponent:"):
      if case .color(let r, let g, let b, _) = receiver, let a = n(0) { return .color(r: r, g: g, b: b, a: a) }
    case (.layer(let o), "setValue:forKey:"), (.cell(let o), "setValue:forKey:"),
      (.behavior(let o), "setValue:forKey:"),
      (.layer(let o), "setValue:forKeyPath:"), (.cell(let o), "setValue:forKeyPath:"),
      (.behavior(let o), "setValue:forKeyPath:"), (.animation(let o), "setValue:forKey:"):
      guard case .string(let key) = args[1] else {
        note("setValue's key must be a string literal")
        return .nothing
      }
      setValue(args[0], forKeyPath: key, on: o)
      return .nothing
    case (.layer(let layer), "addAnimation:forKey:"):
      if case .animation(let a) = args[0] { addedAnimations.append((a, layer, line)) }
      return .nothing
    case (.view, "addSublayer:"), (.view, "insertSublayer:atIndex:"), (.view, "insertSublayer:below:"),
      (.view, "insertSublayer:above:"), (.view, "addSubview:"), (.layer, "addSublayer:"),
      (.layer, "insertSublayer:atIndex:"):
      return .nothing
    case (.layer(let o), _), (.cell(let o), _), (.behavior(let o), _), (.animation(let o), _):
      if parts.count == 1, selector.hasPrefix("set"), selector.count > 4 {
        let key = String(selector.dropFirst(3).dropLast())
        setProperty(o, key.prefix(1).lowercased() + key.dropFirst(), args[0])
        return .nothing
      }
    case (.view, _):
      if let f = functions[selector]?.first(where: \.isObjectiveC) {
        return invoke(f, args.map { (nil, $0) })
      }
      if case .identifier("super") = receiverExpression { return .nothing }
    case (.unknown, _):
      return .unknown
    default:
      break
    }
    note("'[\(selector)]' is not understood")
    return .unknown
  }
}

extension Substring {
  func trimmingSpaces() -> String {
    var s = self
    while let f = s.first, f == " " || f == "\t" || f == "\r" { s.removeFirst() }
    while let l = s.last, l == " " || l == "\t" || l == "\r" { s.removeLast() }
    return String(s)
  }
}
