// Literals make key-path calls read as Core Animation code does:
// `try emitter.setValue(0, forKeyPath: "emitterCells.snow.birthRate")`.

extension PropertyValue: ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
}

extension PropertyValue: ExpressibleByFloatLiteral {
  public init(floatLiteral value: Double) { self = .number(value) }
}

extension PropertyValue: ExpressibleByBooleanLiteral {
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PropertyValue: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) { self = .string(value) }
}

extension PropertyValue: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Double...) { self = .vector(elements) }
}
