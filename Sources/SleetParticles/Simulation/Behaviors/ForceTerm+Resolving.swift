import Foundation

extension ForceTerm {
  /// ``resolved(at:)`` from `base`, the term resolved at any time: only
  /// the parameters whose tracks change are evaluated again, so the result
  /// is bit for bit ``resolved(at:)`` (a constant track's value is its
  /// initial value at every time) without the orientation's trigonometry
  /// and the tracks that never change.
  /// - Complexity: O(changes of this behavior).
  func resolved(at T: Double, from base: ResolvedForce) -> ResolvedForce {
    var f = base
    if !enabled.isConstant { f.isEnabled = enabled.value(at: T).x != 0 }
    if !vector.isConstant {
      let v = vector.value(at: T)
      f.vector = SIMD3(v.x, v.y, v.z)
    }
    if !scalar.isConstant { f.scalar = scalar.value(at: T).x }
    if !shape.isConstant {
      let s = shape.value(at: T)
      f.radius = s.x
      f.falloff = s.y
      f.falloffDistance = s.z
      f.attractorType = AttractorType.allCases[Int(s.w)]
    }
    if !orientation.isConstant {
      let o = orientation.value(at: T)
      let (lat, lon) = (o.x, o.y)
      f.orientation = SIMD3(cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
    }
    return f
  }
}
