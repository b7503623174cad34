/// `wave`: a force `force · w(T)` on every particle, T the emitter's local
/// time (one field for all particles, like wind), with
///
/// ```
/// w(T)   = 2·q(tri(f·T)) − 1            f = frequency, Hz
/// tri(x) = 1 − |2·frac(x) − 1|          a triangle wave, 0 → 1 → 0 per period
/// q(y)   = 2y²          for y < ½       the quadratic smoothstep
///          1 − 2(1−y)²  otherwise
/// ```
///
/// so w swings between −1 (at whole periods) and +1 (at half periods) and
/// averages 0 over a period. Divided by the particle's mass.
public struct WaveBehavior: Hashable, Sendable {
  /// The name key paths use; nil for none.
  public var name: String?
  /// Whether the force acts. Default true.
  public var isEnabled: Bool = true
  /// The force at the wave's crest, points per second² per unit mass
  /// (x, y, z; y down). Default (0, 0, 0).
  public var force: SIMD3<Float> = .zero
  /// Periods per second of the emitter's time, ≥ 0; 0 holds the force at
  /// `−force` (w(0) = −1). Default 0.
  public var frequency: Float = 0

  /// A wave behavior.
  public init(name: String? = nil, isEnabled: Bool = true, force: SIMD3<Float> = .zero, frequency: Float = 0) {
    self.name = name
    self.isEnabled = isEnabled
    self.force = force
    self.frequency = frequency
  }
}

/// `drag`: the force `−drag · v` on each particle, v its current velocity
/// (Apple's header: "Force = V · −drag"); divided by the particle's mass, so
/// a particle's speed decays as e^(−drag·a/mass) where no other force acts.
public struct DragBehavior: Hashable, Sendable {
  /// The name key paths use; nil for none.
  public var name: String?
  /// Whether the force acts. Default true.
  public var isEnabled: Bool = true
  /// The drag coefficient, per second, ≥ 0. Default 0.
  public var drag: Float = 0

  /// A drag behavior.
  public init(name: String? = nil, isEnabled: Bool = true, drag: Float = 0) {
    self.name = name
    self.isEnabled = isEnabled
    self.drag = drag
  }
}

/// The shape an ``AttractorBehavior`` pulls toward (`attractorType`).
public enum AttractorType: String, Hashable, Sendable, CaseIterable {
  /// Toward the point c = (position, zPosition).
  case radial
  /// Toward the line through c along the orientation.
  case axial
  /// Toward the plane through c whose normal is the orientation.
  case planar
}

/// `attractor`: a spring toward a point (radial), a line (axial) or a plane
/// (planar) through c = (position.x, position.y, zPosition).
///
/// With r the vector from the particle to the nearest point of that shape,
/// d = |r| and x = max(0, d − radius) (no force within `radius`):
///
/// ```
/// F = m(x) · r / d
/// m(x) = stiffness · x + falloff · max(0, x − falloffDistance)
/// ```
///
/// a force that grows by `stiffness` per point beyond the radius, and by
/// `stiffness + falloff` per point beyond a further `falloffDistance` (a
/// negative falloff weakens the pull far away and can turn it into a push).
/// F is continuous in the particle's position; with `radius` 0 and
/// `falloff` 0 it is the linear spring `stiffness · r` (for radial,
/// stiffness·(c − p)). Divided by the particle's mass. The orientation is
/// the unit vector (cos lat·cos lon, cos lat·sin lon, sin lat) of
/// `orientationLatitude` and `orientationLongitude` (radians; the default
/// is +x).
public struct AttractorBehavior: Hashable, Sendable {
  /// The name key paths use; nil for none.
  public var name: String?
  /// Whether the force acts. Default true.
  public var isEnabled: Bool = true
  /// Point, line or plane. Default `radial`.
  public var attractorType: AttractorType = .radial
  /// Force per point of distance beyond the radius, per second² per unit
  /// mass. Default 0.
  public var stiffness: Float = 0
  /// Distance within which the attractor has no effect, points, ≥ 0.
  /// Default 0.
  public var radius: Float = 0
  /// The centre's x and y, layer space, points. Default (0, 0).
  public var position: SIMD2<Float> = .zero
  /// The centre's z, points. Default 0.
  public var zPosition: Float = 0
  /// Tilt of the axis (axial) or normal (planar) toward +z, radians.
  /// Default 0.
  public var orientationLatitude: Float = 0
  /// Angle of the axis or normal in the xy plane from +x toward +y, radians.
  /// Default 0.
  public var orientationLongitude: Float = 0
  /// Change of the stiffness beyond `falloffDistance`, per point, per
  /// second². Default 0.
  public var falloff: Float = 0
  /// Distance beyond the radius where `falloff` starts, points, ≥ 0.
  /// Default 0.
  public var falloffDistance: Float = 0

  /// An attractor behavior.
  public init(
    name: String? = nil, isEnabled: Bool = true, attractorType: AttractorType = .radial, stiffness: Float = 0,
    radius: Float = 0, position: SIMD2<Float> = .zero, zPosition: Float = 0, orientationLatitude: Float = 0,
    orientationLongitude: Float = 0, falloff: Float = 0, falloffDistance: Float = 0
  ) {
    self.name = name
    self.isEnabled = isEnabled
    self.attractorType = attractorType
    self.stiffness = stiffness
    self.radius = radius
    self.position = position
    self.zPosition = zPosition
    self.orientationLatitude = orientationLatitude
    self.orientationLongitude = orientationLongitude
    self.falloff = falloff
    self.falloffDistance = falloffDistance
  }
}

/// `simpleAttractor`: a radial ``AttractorBehavior`` with its centre at z 0
/// and `falloffDistance` 0 — the same law with fewer keys.
public struct SimpleAttractorBehavior: Hashable, Sendable {
  /// The name key paths use; nil for none.
  public var name: String?
  /// Whether the force acts. Default true.
  public var isEnabled: Bool = true
  /// Force per point of distance beyond the radius, per second² per unit
  /// mass. Default 0.
  public var stiffness: Float = 0
  /// Distance within which the attractor has no effect, points, ≥ 0.
  /// Default 0.
  public var radius: Float = 0
  /// The centre, layer space, points. Default (0, 0).
  public var position: SIMD2<Float> = .zero
  /// Change of the stiffness per point beyond the radius, per second².
  /// Default 0.
  public var falloff: Float = 0

  /// A simple attractor behavior.
  public init(
    name: String? = nil, isEnabled: Bool = true, stiffness: Float = 0, radius: Float = 0,
    position: SIMD2<Float> = .zero, falloff: Float = 0
  ) {
    self.name = name
    self.isEnabled = isEnabled
    self.stiffness = stiffness
    self.radius = radius
    self.position = position
    self.falloff = falloff
  }

  /// The same force as an ``AttractorBehavior``.
  public var attractor: AttractorBehavior {
    AttractorBehavior(
      name: name, isEnabled: isEnabled, attractorType: .radial, stiffness: stiffness, radius: radius,
      position: position, falloff: falloff)
  }
}
