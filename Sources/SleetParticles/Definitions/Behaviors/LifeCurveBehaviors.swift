import SleetMath

/// The particle properties a ``ValueOverLifeBehavior`` can key (its
/// `keyPath`, as Core Animation spells it).
public enum ValueOverLifeProperty: String, Hashable, Sendable, CaseIterable {
  /// An offset added to the position (additive) or the position itself,
  /// points.
  case positionX = "position.x", positionY = "position.y", positionZ = "position.z"
  /// The velocity, points per second; the position follows its integral.
  case velocityX = "velocity.x", velocityY = "velocity.y", velocityZ = "velocity.z"
  /// The particle's mass (forces are divided by it); > 0.
  case mass
  /// The rotation, radians.
  case rotation
  /// The spin, radians per second; the rotation follows its integral.
  case spin
  /// The drawn scale.
  case scale
  /// The change of scale per second; the scale follows its integral.
  case scaleSpeed
  /// A colour component, before clamping to [0, 1].
  case colorRed = "color.red", colorGreen = "color.green", colorBlue = "color.blue", colorAlpha = "color.alpha"
}

/// `valueOverLife`: a property keyed over each particle's life.
///
/// The value at u = age / lifetime is piecewise linear between `values` at
/// `locations` (evenly spaced from 0 to 1 when nil), held at the end values
/// outside them. It replaces the property, or adds to the particle's own
/// value when `isAdditive` (`additive`). For `velocity.*`, `spin` and
/// `scaleSpeed` the position, rotation or scale follows the keyed rate: its
/// integral over the particle's age (piecewise quadratic, exact).
public struct ValueOverLifeBehavior: Hashable, Sendable {
  /// The name key paths use; nil for none.
  public var name: String?
  /// Whether the curve applies. Default true.
  public var isEnabled: Bool = true
  /// The property keyed.
  public var keyPath: ValueOverLifeProperty
  /// The keyed values, at least one.
  public var values: [Float]
  /// Where each value is keyed, in [0, 1], increasing, one per value; nil
  /// spaces them evenly. Default nil.
  public var locations: [Float]?
  /// Whether the value adds to the particle's own (`additive`). Default
  /// false.
  public var isAdditive: Bool = false

  /// A value-over-life behavior.
  public init(
    name: String? = nil, isEnabled: Bool = true, keyPath: ValueOverLifeProperty, values: [Float],
    locations: [Float]? = nil, isAdditive: Bool = false
  ) {
    self.name = name
    self.isEnabled = isEnabled
    self.keyPath = keyPath
    self.values = values
    self.locations = locations
    self.isAdditive = isAdditive
  }
}

/// `colorOverLife`: a colour keyed over each particle's life (at u = age /
/// lifetime, piecewise linear between `colors` at `locations`, evenly
/// spaced when nil, held at the ends) that **multiplies** the particle's
/// own colour (its cell colour, ranges and speeds); the product is clamped
/// to [0, 1].
public struct ColorOverLifeBehavior: Hashable, Sendable {
  /// The name key paths use; nil for none.
  public var name: String?
  /// Whether the curve applies. Default true.
  public var isEnabled: Bool = true
  /// The keyed colours, at least one.
  public var colors: [ColorRGBA]
  /// Where each colour is keyed, in [0, 1], increasing, one per colour; nil
  /// spaces them evenly. Default nil.
  public var locations: [Float]?

  /// A colour-over-life behavior.
  public init(name: String? = nil, isEnabled: Bool = true, colors: [ColorRGBA], locations: [Float]? = nil) {
    self.name = name
    self.isEnabled = isEnabled
    self.colors = colors
    self.locations = locations
  }
}

/// `alignToMotion`: the particle's rotation is the direction of its current
/// velocity, atan2(v.y, v.x) + 2π·`rotation` (in the output's x/y, y down),
/// replacing the rotation spin gives; 2π·`rotation` alone for a particle at
/// rest in x/y.
public struct AlignToMotionBehavior: Hashable, Sendable {
  /// The name key paths use; nil for none.
  public var name: String?
  /// Whether the rotation follows the motion. Default true.
  public var isEnabled: Bool = true
  /// A turn added to the direction, in whole turns (0.25 = a quarter turn).
  /// Default 0.
  public var rotation: Float = 0
  /// Core Animation's flag for 3-D orientation. SleetKit draws sprites in
  /// the x/y plane, so it is kept (files round-trip it) and has no effect.
  /// Default false.
  public var preservesDepth: Bool = false

  /// An align-to-motion behavior.
  public init(name: String? = nil, isEnabled: Bool = true, rotation: Float = 0, preservesDepth: Bool = false) {
    self.name = name
    self.isEnabled = isEnabled
    self.rotation = rotation
    self.preservesDepth = preservesDepth
  }
}
