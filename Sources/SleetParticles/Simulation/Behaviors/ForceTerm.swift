import Foundation

/// One force behavior of a cell (`wave`, `drag`, `attractor`,
/// `simpleAttractor`), each parameter a ``ParameterTrack`` over the
/// emitter's time. ``resolved(at:)`` gives the parameters at one time and
/// ``ResolvedForce/force(position:velocity:time:)`` the force, per unit
/// mass; the laws are ``WaveBehavior``'s, ``DragBehavior``'s and
/// ``AttractorBehavior``'s.
struct ForceTerm: Hashable, Sendable {
  enum Kind: Hashable, Sendable { case wave, drag, attractor }

  var kind: Kind
  /// x: 1 while enabled, 0 while disabled.
  var enabled: ParameterTrack
  /// The wave's force (x, y, z), or the attractor's centre (x, y, zPosition).
  var vector: ParameterTrack
  /// x: the wave's frequency, the drag coefficient, or the stiffness.
  var scalar: ParameterTrack
  /// The attractor's radius, falloff, falloffDistance, and type (its index
  /// in `AttractorType.allCases`).
  var shape: ParameterTrack
  /// The attractor's orientation latitude and longitude.
  var orientation: ParameterTrack

  /// Whether every parameter is the same at every time.
  var isConstant: Bool {
    enabled.isConstant && vector.isConstant && scalar.isConstant && shape.isConstant && orientation.isConstant
  }

  /// The parameters at emitter time `T`.
  /// - Complexity: O(changes of this behavior).
  func resolved(at T: Double) -> ResolvedForce {
    let v = vector.value(at: T)
    let s = shape.value(at: T)
    let o = orientation.value(at: T)
    let (lat, lon) = (o.x, o.y)
    let typeIndex = Int(s.w)
    return ResolvedForce(
      kind: kind, isEnabled: enabled.value(at: T).x != 0, vector: SIMD3(v.x, v.y, v.z), scalar: scalar.value(at: T).x,
      radius: s.x, falloff: s.y, falloffDistance: s.z,
      attractorType: AttractorType.allCases[typeIndex],
      orientation: SIMD3(cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat)))
  }
}

/// A force behavior's parameters at one time.
struct ResolvedForce: Hashable, Sendable {
  var kind: ForceTerm.Kind
  var isEnabled: Bool
  var vector: SIMD3<Double>
  var scalar: Double
  var radius: Double
  var falloff: Double
  var falloffDistance: Double
  var attractorType: AttractorType
  /// Unit axis (axial) or normal (planar).
  var orientation: SIMD3<Double>

  /// Whether the attractor is the linear spring stiffness·(c − p): radial
  /// with radius 0 and falloff 0.
  var isLinearSpring: Bool { kind == .attractor && attractorType == .radial && radius == 0 && falloff == 0 }

  /// The force per unit mass on a particle at `p` moving at `v`, at emitter
  /// time `T`:
  ///
  /// ```
  /// wave        force · w(T)
  /// drag        −drag · v
  /// attractor   r = the vector from p to the nearest point of the shape, d = |r|,
  ///             x = d − radius;  0 where x ≤ 0, else
  ///             m(x)·r/d,  m(x) = stiffness·x + falloff·max(0, x − falloffDistance)
  ///             (stiffness·r exactly when radius and falloff are 0)
  /// ```
  /// - Complexity: O(1).
  @inline(__always)
  func force(position p: SIMD3<Double>, velocity v: SIMD3<Double>, time T: Double) -> SIMD3<Double> {
    guard isEnabled else { return .zero }
    switch kind {
    case .wave:
      return vector * WaveProfile(frequency: scalar).value(at: T)
    case .drag:
      // A pace that overshoots (control points outside [0, 1]) can carry an
      // animated drag, radius or falloffDistance below 0: each acts as 0.
      return -max(0, scalar) * v
    case .attractor:
      let w = vector - p
      let r: SIMD3<Double>
      switch attractorType {
      case .radial: r = w
      case .axial: r = w - (w * orientation).sum() * orientation
      case .planar: r = (w * orientation).sum() * orientation
      }
      let radius = max(0, self.radius)
      if radius == 0 && falloff == 0 { return scalar * r }
      let d = (r * r).sum().squareRoot()
      let x = d - radius
      guard x > 0 else { return .zero }
      let m = scalar * x + falloff * max(0, x - max(0, falloffDistance))
      return (m / d) * r
    }
  }
}
