/// A number for a person to read: `60`, `-1`, `1.5`, `1e-09` as Swift
/// prints it, and `4.2e15` (two digits) when 10⁶ or more.
func numberText(_ value: Double) -> String {
  guard value.isFinite else { return "\(value)" }
  if abs(value) < 1e6 {
    return value == value.rounded() ? String(Int64(value)) : "\(value)"
  }
  var exponent = 0
  var mantissa = abs(value)
  while mantissa >= 10 {
    mantissa /= 10
    exponent += 1
  }
  var tenths = Int((mantissa * 10).rounded())
  if tenths == 100 {
    tenths = 10
    exponent += 1
  }
  return "\(value < 0 ? "-" : "")\(tenths / 10).\(tenths % 10)e\(exponent)"
}

/// `value` rounded to at most `places` decimals, as ``numberText(_:)``
/// prints it (`0.4523` at 3 places: `0.452`; `120.0`: `120`): for numbers a
/// person reads in a summary, not ones a program reads back.
func roundedText(_ value: Double, places: Int) -> String {
  guard value.isFinite, abs(value) < 1e6 else { return numberText(value) }
  var scale = 1.0
  for _ in 0..<places { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  // The shortest decimal that reads back as `rounded` has at most `places` decimals.
  return numberText(rounded == 0 ? 0 : rounded)
}
