import SleetMath

/// A number that may depend on the view's size: `constant + w·width + h·height`,
/// where width and height are the `--size` the code is imported for. Values
/// that depend on exactly one of them become the effect's parameters
/// (docs/import.md, "View geometry").
struct SizeLinear: Hashable, Sendable {
  var constant: Double
  var perWidth: Double = 0
  var perHeight: Double = 0

  init(_ constant: Double, perWidth: Double = 0, perHeight: Double = 0) {
    self.constant = constant
    self.perWidth = perWidth
    self.perHeight = perHeight
  }

  var isConstant: Bool { perWidth == 0 && perHeight == 0 }

  /// The value for a view of `size`.
  func value(for size: ImportSize) -> Double { constant + perWidth * size.width + perHeight * size.height }

  static func + (a: SizeLinear, b: SizeLinear) -> SizeLinear {
    SizeLinear(a.constant + b.constant, perWidth: a.perWidth + b.perWidth, perHeight: a.perHeight + b.perHeight)
  }
  static func - (a: SizeLinear, b: SizeLinear) -> SizeLinear {
    SizeLinear(a.constant - b.constant, perWidth: a.perWidth - b.perWidth, perHeight: a.perHeight - b.perHeight)
  }
  func scaled(_ k: Double) -> SizeLinear {
    SizeLinear(constant * k, perWidth: perWidth * k, perHeight: perHeight * k)
  }
}

/// The view size the code is imported for (`--size WxH`).
public struct ImportSize: Hashable, Sendable {
  /// The view's width in points (`bounds.width`, the parameter `width`).
  public var width: Double
  /// The view's height in points (`bounds.height`, the parameter `height`).
  public var height: Double

  /// A size in points.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// 390 × 844 points, the size the presets are written for.
  public static let standard = ImportSize(width: 390, height: 844)
}

/// What an expression evaluates to while the importer runs the code.
enum ImportValue {
  case number(SizeLinear)
  case bool(Bool)
  case string(String)
  /// A `CGPoint` (x, y), `CGSize` (width, height), `CGRect` (x, y, width,
  /// height) or a vector such as a wave's force.
  case vector([SizeLinear], VectorKind)
  /// `.zero` before its type is known.
  case zero
  /// Straight-alpha sRGB components in [0, 1].
  case color(r: Double, g: Double, b: Double, a: Double)
  case array([ImportValue])
  case layer(ImportObject)
  case cell(ImportObject)
  case behavior(ImportObject)
  case animation(ImportObject)
  /// A `CAMediaTimingFunction`: a name or control points.
  case timing(PropertyValueText)
  /// A `UIImage` or its `CGImage`, by the name it was loaded with.
  case image(String)
  /// A named constant (`line`, `surface`, `additive`, `nearest`, `forwards`,
  /// `easeOut`), read from either spelling.
  case constant(String)
  /// A type name used as a value (`UIColor`, `CAEmitterCell`, `CGFloat`): the
  /// receiver of static members and initialisers.
  case typeName(String)
  /// The view (or its layer, or the screen) whose size is `--size`.
  case view
  case function(String)
  case closure([String], [SourceStatement])
  /// `nil`, or what a call that returns nothing returns.
  case nothing
  /// A value the importer could not compute; the reason was reported.
  case unknown

  enum VectorKind: Sendable { case point, size, rect, vector }
}

/// A text form of a value for the effect file, before it is checked:
/// numbers, strings, booleans, arrays.
indirect enum PropertyValueText: Hashable, Sendable {
  case number(Double)
  case string(String)
  case bool(Bool)
  case array([PropertyValueText])

  /// The JSON text; numbers that are 32-bit in the format go through `Float`
  /// so the reader reads exactly the value a key path would set.
  func json(float: Bool) -> String {
    switch self {
    case .number(let x):
      if float { return "\(Float(x))" }
      return "\(x)"
    case .string(let s): return JSONText.quoted(s)
    case .bool(let b): return b ? "true" : "false"
    case .array(let xs): return "[" + xs.map { $0.json(float: float) }.joined(separator: ", ") + "]"
    }
  }
}

/// A `CAEmitterLayer`, `CAEmitterCell`, `CAEmitterBehavior` or animation
/// being built: a reference, as the Objective-C and Swift objects are, so a
/// cell changed after it was put in `emitterCells` is changed there too.
final class ImportObject {
  enum Kind { case layer, cell, behavior, basicAnimation, keyframeAnimation }

  let kind: Kind
  /// The line the object was created on.
  let line: Int
  /// Properties in the order they were first set, each with the line of its
  /// last assignment.
  private(set) var keys: [String] = []
  private(set) var values: [String: ImportValue] = [:]
  private(set) var lines: [String: Int] = [:]

  init(kind: Kind, line: Int) {
    self.kind = kind
    self.line = line
  }

  func set(_ key: String, _ value: ImportValue, line: Int) {
    if values[key] == nil { keys.append(key) }
    values[key] = value
    lines[key] = line
  }

  subscript(key: String) -> ImportValue? { values[key] }
}
