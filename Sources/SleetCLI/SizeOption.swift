import SleetKit

/// The `--size WxH` option of the render and shatter commands: one parser, so
/// every command accepts the same spellings and words its errors the same way.
enum SizeOption {
  /// The size in points from `option` (a `--size` declaration), or nil
  /// when the option is absent.
  ///
  /// Accepts two numbers separated by `x`, `X` or `×` (`390x844`, `390×844`),
  /// each finite and in (0, ``SleetLimits/layerSide``].
  /// - Throws: `.usage` naming `--size` and quoting the value given.
  /// - Complexity: O(length of the value).
  static func parse(
    _ arguments: inout Arguments, _ option: CommandOption
  ) throws(CommandError) -> (width: Double, height: Double)? {
    guard let raw = try arguments.value(option) else { return nil }
    return try parse(raw, maximum: SleetLimits.layerSide)
  }

  /// `raw` as a `WxH` size, checked as above.
  static func parse(_ raw: String, maximum: Double) throws(CommandError) -> (width: Double, height: Double) {
    let parts = raw.split(omittingEmptySubsequences: false) { $0 == "x" || $0 == "X" || $0 == "×" }
    guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
      w.isFinite, h.isFinite, w > 0, h > 0, w <= maximum, h <= maximum
    else {
      let limit = maximum == maximum.rounded() ? "\(Int(maximum))" : "\(maximum)"
      throw .usage(
        "--size: expected WxH in points, each side a finite number in (0, \(limit)] (for example 390x844), got '\(raw)'"
      )
    }
    return (w, h)
  }
}
