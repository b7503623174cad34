import Foundation

/// Where and in which direction particles are born: the shape × mode table and
/// the emission cone of `semantics.md`.
///
/// Implementation goals: (1) exactly the table of `semantics.md`; (2) every
/// result a pure function of its inputs (the random numbers come in as
/// arguments), so that births are reproducible on any path.
enum Emission {
  /// The point on the emitter shape for random numbers `u` (each in [0, 1)).
  ///
  /// C = `center`, W, H = `size`, D = `depth`. "Uniform" is by length, area or
  /// volume:
  ///
  /// | shape \ mode | points | outline | surface | volume |
  /// |---|---|---|---|---|
  /// | point | C | C | C | C |
  /// | line (x ∈ [−W/2, W/2]) | an endpoint | the segment | the segment | the segment |
  /// | rectangle (W×H, z = Cz) | a corner | the perimeter | the area | the area |
  /// | circle (radius W) | C | the circumference | the disc | the disc |
  /// | cuboid (W×H×D) | a corner | the 12 edges | the 6 faces | the interior |
  /// | sphere (radius W) | C | the xy great circle | the shell | the ball |
  ///
  /// Random slots: `u.x`, `u.y`, `u.z` are continuous coordinates, `u.w`
  /// chooses among discrete alternatives (endpoint, corner, edge, face side).
  ///
  /// Longer than 80 lines: one case per cell of the table above, kept in
  /// one switch so that it reads as the table does.
  static func position(
    shape: EmitterShape, mode: EmitterMode, center: SIMD3<Float>, size: SIMD2<Float>,
    depth: Float, u: SIMD4<Float>
  ) -> SIMD3<Float> {
    let w = size.x
    let h = size.y
    let d = depth
    let offset: SIMD3<Float>
    switch (shape, mode) {
    case (.point, _), (.circle, .points), (.sphere, .points):
      offset = .zero
    case (.line, .points):
      offset = SIMD3(u.w < 0.5 ? -w / 2 : w / 2, 0, 0)
    case (.line, _):
      offset = SIMD3((u.x - 0.5) * w, 0, 0)
    case (.rectangle, .points):
      let corner = Int(u.w * 4)
      offset = SIMD3(corner & 1 == 0 ? -w / 2 : w / 2, corner & 2 == 0 ? -h / 2 : h / 2, 0)
    case (.rectangle, .outline):
      // Walk the perimeter clockwise (y down) from the top-left corner.
      let s = u.x * 2 * (w + h)
      if s < w {
        offset = SIMD3(-w / 2 + s, -h / 2, 0)
      } else if s < w + h {
        offset = SIMD3(w / 2, -h / 2 + (s - w), 0)
      } else if s < 2 * w + h {
        offset = SIMD3(w / 2 - (s - w - h), h / 2, 0)
      } else {
        offset = SIMD3(-w / 2, h / 2 - (s - 2 * w - h), 0)
      }
    case (.rectangle, _):
      offset = SIMD3((u.x - 0.5) * w, (u.y - 0.5) * h, 0)
    case (.circle, .outline), (.sphere, .outline):
      let a = 2 * Float.pi * u.x
      offset = SIMD3(w * cos(a), w * sin(a), 0)
    case (.circle, _):
      let a = 2 * Float.pi * u.x
      let r = w * u.y.squareRoot()
      offset = SIMD3(r * cos(a), r * sin(a), 0)
    case (.cuboid, .points):
      let corner = Int(u.w * 8)
      offset = SIMD3(
        corner & 1 == 0 ? -w / 2 : w / 2, corner & 2 == 0 ? -h / 2 : h / 2,
        corner & 4 == 0 ? -d / 2 : d / 2)
    case (.cuboid, .outline):
      // An axis chosen by total edge length, a point along it, one of the four
      // parallel edges.
      let s = u.x * (w + h + d)
      let along = u.y - 0.5
      let edge = Int(u.w * 4)
      let first: Float = edge & 1 == 0 ? -0.5 : 0.5
      let second: Float = edge & 2 == 0 ? -0.5 : 0.5
      if s < w {
        offset = SIMD3(along * w, first * h, second * d)
      } else if s < w + h {
        offset = SIMD3(first * w, along * h, second * d)
      } else {
        offset = SIMD3(first * w, second * h, along * d)
      }
    case (.cuboid, .surface):
      // A face pair chosen by area, a side, a point on the face.
      let s = u.x * (w * h + w * d + h * d)
      let side: Float = u.w < 0.5 ? -0.5 : 0.5
      let p = u.y - 0.5
      let q = u.z - 0.5
      if s < w * h {
        offset = SIMD3(p * w, q * h, side * d)
      } else if s < w * h + w * d {
        offset = SIMD3(p * w, side * h, q * d)
      } else {
        offset = SIMD3(side * w, p * h, q * d)
      }
    case (.cuboid, .volume):
      offset = SIMD3((u.x - 0.5) * w, (u.y - 0.5) * h, (u.z - 0.5) * d)
    case (.sphere, .surface), (.sphere, .volume):
      let z = 1 - 2 * u.y
      let rho = max(0, 1 - z * z).squareRoot()
      let a = 2 * Float.pi * u.x
      let r = mode == .volume ? w * cbrt(u.z) : w
      offset = SIMD3(r * rho * cos(a), r * rho * sin(a), r * z)
    }
    return center + offset
  }

  /// The base emission direction of a shape: `line` emits toward screen-up
  /// (0, −1, 0), every other shape toward +x.
  static func baseDirection(_ shape: EmitterShape) -> SIMD3<Float> {
    shape == .line ? SIMD3(0, -1, 0) : SIMD3(1, 0, 0)
  }

  /// The cone axis: `base` rotated by `longitude` θ in the xy plane toward +y,
  /// then tilted toward +z by `latitude` φ:
  ///
  /// ```
  /// d = cos φ · rotate(base, θ) + sin φ · ẑ        (normalised if base.z ≠ 0)
  /// ```
  static func axis(base b: SIMD3<Float>, longitude theta: Float, latitude phi: Float) -> SIMD3<Float> {
    axis(base: b, angles: EmissionAngles(longitude: theta, latitude: phi, range: 0))
  }

  /// ``axis(base:longitude:latitude:)`` with the sines and cosines precomputed.
  static func axis(base b: SIMD3<Float>, angles: EmissionAngles) -> SIMD3<Float> {
    let c = angles.cosLongitude
    let s = angles.sinLongitude
    let rotated = SIMD3(b.x * c - b.y * s, b.x * s + b.y * c, b.z)
    var d = rotated * angles.cosLatitude + SIMD3(0, 0, angles.sinLatitude)
    if b.z != 0 {
      let length = (d * d).sum().squareRoot()
      if length > 0 { d /= length }
    }
    return d
  }

  /// A direction uniform over the solid angle of the spherical cap of full
  /// angle `range` (half-angle range/2) around the unit vector `axis`; a range
  /// ≥ 2π covers the whole sphere:
  ///
  /// ```
  /// cos β = 1 − u·(1 − cos(min(range, 2π)/2)),   ψ = 2π·v
  /// dir   = cos β · axis + sin β · (cos ψ · e₁ + sin ψ · e₂)
  /// ```
  ///
  /// with (e₁, e₂) a fixed orthonormal basis of the plane normal to `axis`
  /// (e₁ = normalise(ẑ × axis) unless the axis is within 2.6° of ±z);
  /// cos ψ and sin ψ to within 2·10⁻⁷ (``FastTrig``).
  /// A range of 0 returns `axis` exactly.
  static func cone(axis a: SIMD3<Float>, range: Float, u: Float, v: Float) -> SIMD3<Float> {
    cone(axis: a, angles: EmissionAngles(longitude: 0, latitude: 0, range: range), u: u, v: v)
  }

  /// ``cone(axis:range:u:v:)`` with cos(range/2) precomputed.
  @inline(__always)
  static func cone(axis a: SIMD3<Float>, angles: EmissionAngles, u: Float, v: Float) -> SIMD3<Float> {
    guard angles.range > 0 else { return a }
    let cosBeta = 1 - u * (1 - angles.cosHalfRange)
    let sinBeta = max(0, 1 - cosBeta * cosBeta).squareRoot()
    let (e1, e2) = basis(axis: a)
    // ψ ∈ [0, 2π): FastTrig's polynomial (absolute error ≤ 2·10⁻⁷) instead
    // of libm, which cost about a sixth of a birth.
    let (sinPsi, cosPsi) = FastTrig.sinCos(SIMD4(repeating: 2 * Float.pi * v))
    return a * cosBeta + (e1 * cosPsi[0] + e2 * sinPsi[0]) * sinBeta
  }

  /// The fixed orthonormal basis (e₁, e₂) of the plane normal to the unit
  /// vector `a` used by ``cone(axis:angles:u:v:)``: one function for the
  /// scalar and the batched cone, so both get the same bits.
  @inline(__always)
  static func basis(axis a: SIMD3<Float>) -> (SIMD3<Float>, SIMD3<Float>) {
    var e1: SIMD3<Float>
    if abs(a.z) < 0.999 {
      e1 = SIMD3(-a.y, a.x, 0)
    } else {
      e1 = SIMD3(0, a.z, -a.y)
    }
    e1 /= (e1 * e1).sum().squareRoot()
    let e2 = SIMD3(a.y * e1.z - a.z * e1.y, a.z * e1.x - a.x * e1.z, a.x * e1.y - a.y * e1.x)
    return (e1, e2)
  }
}

/// The trigonometry of a cell's emission angles, computed once per cell and
/// segment rather than once per birth.
struct EmissionAngles: Sendable {
  var cosLongitude, sinLongitude, cosLatitude, sinLatitude: Float
  /// The cone's full angle and cos(min(range, 2π)/2).
  var range, cosHalfRange: Float

  init(longitude: Float, latitude: Float, range: Float) {
    cosLongitude = cos(longitude)
    sinLongitude = sin(longitude)
    cosLatitude = cos(latitude)
    sinLatitude = sin(latitude)
    self.range = range
    cosHalfRange = cos(min(range, 2 * Float.pi) / 2)
  }
}
