import SleetMath
import SleetShatter

/// Why a transition cannot be made from its inputs. Every case names the
/// input at fault by its ``TransitionOptions`` property name (`imageRect`,
/// `button`, …) or `width`/`height`/`direction`.
public enum TransitionError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The container size is not a finite number in (0, limit].
  case invalidSize(field: String, value: Double, limit: Double)
  /// The container is smaller than the style needs (tilt3D: its 280-point
  /// sheet must fit the height).
  case containerTooSmall(style: TransitionStyle, field: String, value: Double, minimum: Double)
  /// The style does not take this direction.
  case unsupportedDirection(style: TransitionStyle, direction: TransitionDirection)
  /// The style needs this option (zoom: `imageRect`, `targetRect`;
  /// circleReveal: `button`).
  case missingOption(style: TransitionStyle, field: String)
  /// The option was given to a style that does not use it.
  case inapplicableOption(style: TransitionStyle, field: String)
  /// A rect is not finite, empty, or not inside the container.
  case invalidRect(field: String, rect: Rect, reason: String)
  /// The shatter styles' own checks (divisor, tile count).
  case invalidShatter(ShatterPlanError)

  /// The input at fault.
  public var field: String {
    switch self {
    case .invalidSize(let field, _, _): field
    case .containerTooSmall(_, let field, _, _): field
    case .unsupportedDirection: "direction"
    case .missingOption(_, let field), .inapplicableOption(_, let field): field
    case .invalidRect(let field, _, _): field
    case .invalidShatter(let error):
      switch error {
      case .invalidSize(let field, _): field
      default: "divisor"
      }
    }
  }

  public var description: String {
    switch self {
    case .invalidSize(let field, let value, let limit):
      return "\(field) must be a finite number in (0, \(_text(limit))] points, got \(_text(value))"
    case .containerTooSmall(let style, let field, let value, let minimum):
      return "\(field) must be at least \(_text(minimum)) points for \(style.rawValue), got \(_text(value))"
    case .unsupportedDirection(let style, let direction):
      let accepted = style.directions.map(\.rawValue).joined(separator: " or ")
      return "\(style.rawValue) does not take the direction \(direction.rawValue); it takes \(accepted)"
    case .missingOption(let style, let field):
      return "\(style.rawValue) needs \(field)"
    case .inapplicableOption(let style, let field):
      return "\(field) does not apply to \(style.rawValue)"
    case .invalidRect(let field, let r, let reason):
      return "\(field) (\(_text(r.x)), \(_text(r.y)), \(_text(r.width)), \(_text(r.height))) \(reason)"
    case .invalidShatter(let error):
      return error.description
    }
  }
}

/// A number as a person writes it: `390` rather than `390.0`, otherwise the
/// shortest round-tripping decimal (`nan`, `inf` as Swift prints them).
func _text(_ value: Double) -> String {
  if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
  return "\(value)"
}
