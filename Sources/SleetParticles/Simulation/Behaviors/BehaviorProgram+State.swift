import Foundation
import SleetMath

/// A particle's drawn state after its behaviors: what a frame, a snapshot
/// and a sub-particle's birth read.
struct BehaviorState: Hashable, Sendable {
  var position: SIMD3<Float>
  /// The derivative of `position` with respect to age.
  var velocity: SIMD3<Float>
  /// ≥ 0.
  var scale: Float
  var rotation: Float
  /// Clamped to [0, 1].
  var color: SIMD4<Float>
}

extension BehaviorProgram {
  /// The mass of particle `r` born in timeline segment `segment`: the
  /// cell's `mass + (u − ½)·massRange` of that segment, u word 14 of the
  /// particle's attribute stream (``BirthSampler``'s words 0–13 are its
  /// other attributes, so no draw moves).
  /// - Complexity: O(1); one Philox block set when the range is not 0.
  func mass(of r: BirthRecord, segment: Int) -> Double {
    let mean = Double(massMeans[segment])
    let range = Double(massRanges[segment])
    guard range != 0 else { return mean }
    let (_, _, _, u3) = BirthSampler.attributeUniforms(
      RandomStream(seed: randomSeed, stream: ParticleID.birthKey(of: r.id)))
    return mean + (Double(u3.z) - 0.5) * range
  }

  /// The state of particle `r`, of mass `mass`, at emitter time `t` (its
  /// age t − birthTime in [0, lifetime)): the motion (``Motion``), then
  /// every curve in order on the particle's own scale, rotation and colour
  /// (the closed form's, before clamping), then the clamps.
  ///
  /// A pure function of its arguments: every path (frames, snapshots,
  /// sub-particle births, any thread, seek or step) calls it with the same
  /// record and time and gets the same bits. `cache` changes the cost of
  /// integrated motion, not its bits (``IntegratorCache``).
  /// - Complexity: O(behaviors) in closed form; O(behaviors × age / h)
  ///   integrated (h = ``FixedStepIntegrator/step``), or the steps since the
  ///   particle's cached grid point.
  func state(of r: BirthRecord, at t: Double, mass: Double, cache: IntegratorCache? = nil) -> BehaviorState {
    let (p, v) = motion(of: r, age: t - r.birthTime, mass: mass, cache: cache)
    return state(of: r, at: t, position: p, velocity: v)
  }

  /// ``state(of:at:mass:cache:)`` from the motion's position `p0` and velocity
  /// `v0` at `t` (``motion(of:age:mass:cache:)``, whose integrated case is
  /// ``integratedMotion(of:age:mass:cache:)``): the curves, then the clamps.
  func state(of r: BirthRecord, at t: Double, position p0: SIMD3<Double>, velocity v0: SIMD3<Double>)
    -> BehaviorState
  {
    let a = t - r.birthTime
    let af = Float(a)
    let lifetime = Double(r.lifetime)
    let u = min(max(a / lifetime, 0), 1)
    var p = p0
    var v = v0
    // The particle's own values, as the closed form computes them.
    var scale = r.scale + r.scaleSpeed * af
    var rotation = ClosedForm.rotation(r.spin, age: af)
    var color = r.color + r.colorSpeed * SIMD4(repeating: af)
    // Read in place: each step's fields load from the buffer.
    let steps = hot.curves.baseAddress
    for i in 0..<hot.curves.count {
      let step = UnsafePointer(steps.unsafelyUnwrapped + i)
      switch step.pointee.kind {
      case .value:
        let (property, curve, additive) = (step.pointee.property, step.pointee.keys, step.pointee.isAdditive)
        let k = curve.value(at: u)
        switch property {
        case .positionX, .positionY, .positionZ:
          // The velocity stays the position's derivative: the key's slope
          // over the life (d/da = d/du / lifetime).
          let i = property == .positionX ? 0 : property == .positionY ? 1 : 2
          let rate = curve.slope(at: u) / lifetime
          p[i] = additive ? p[i] + k : k
          v[i] = additive ? v[i] + rate : rate
        case .velocityX, .velocityY, .velocityZ:
          let i = property == .velocityX ? 0 : property == .velocityY ? 1 : 2
          let integral = lifetime * curve.integral(to: u)
          if additive {
            v[i] += k
            p[i] += integral
          } else {
            v[i] = k
            p[i] = Double(r.position[i]) + integral
          }
        case .mass:
          continue  // in the motion
        case .rotation:
          rotation = additive ? rotation + Float(k) : Float(k)
        case .spin:
          let turned = Float(lifetime * curve.integral(to: u))
          rotation = additive ? rotation + turned : turned
        case .scale:
          scale = additive ? scale + Float(k) : Float(k)
        case .scaleSpeed:
          let grown = Float(lifetime * curve.integral(to: u))
          scale = additive ? scale + grown : r.scale + grown
        case .colorRed, .colorGreen, .colorBlue, .colorAlpha:
          let c = property == .colorRed ? 0 : property == .colorGreen ? 1 : property == .colorBlue ? 2 : 3
          color[c] = additive ? color[c] + Float(k) : Float(k)
        }
      case .color:
        // The channels share the red channel's locations: one piece.
        let piece = step.pointee.keys.piece(containing: u)
        color *= SIMD4(
          Float(step.pointee.keys.value(at: u, piece: piece)), Float(step.pointee.green.value(at: u, piece: piece)),
          Float(step.pointee.blue.value(at: u, piece: piece)), Float(step.pointee.alpha.value(at: u, piece: piece)))
      case .alignToMotion:
        rotation = Float(atan2(v.y, v.x) + step.pointee.radians)
      }
    }
    return BehaviorState(
      position: SIMD3<Float>(p), velocity: SIMD3<Float>(v), scale: scale.clampedBelowAtZero(), rotation: rotation,
      color: color.clampedToUnitInterval())
  }

  /// Position and velocity at age `a` under the forces (``Motion``).
  func motion(
    of r: BirthRecord, age a: Double, mass: Double, cache: IntegratorCache? = nil
  ) -> (SIMD3<Double>, SIMD3<Double>) {
    let g = SIMD3<Double>(r.halfAcceleration) * 2
    if let (drag, spring, springForce) = closedForm {
      let waves = UnsafeBufferPointer(hot.waves)
      let (p0, v0) = (SIMD3<Double>(r.position), SIMD3<Double>(r.velocity))
      // Forces divide by the mass; most cells have mass 1 (the program's
      // waves, with their periods).
      if mass == 1 {
        return AxisMotion.state(
          position: p0, velocity: v0, acceleration: g + springForce / mass, drag: drag / mass, spring: spring / mass,
          center: .zero, waves: waves, birthTime: r.birthTime, age: a)
      }
      return AxisMotion.state(
        position: p0, velocity: v0, acceleration: g + springForce / mass, drag: drag / mass, spring: spring / mass,
        center: .zero, waves: waves.lazy.map { WaveForce(force: $0.force / mass, profile: $0.profile) },
        birthTime: r.birthTime, age: a)
    }
    if !isIntegrated {
      let af = Float(a)
      return (SIMD3<Double>(r.position(age: af)), SIMD3<Double>(r.velocity(age: af)))
    }
    return integratedMotion(of: r, age: a, mass: mass, cache: cache)
  }

  /// The forces' parts that depend on the emitter time alone, at one time
  /// T: each term resolved at T (``Hot/settled`` from its settle time on,
  /// else resolved into `scratch`), and a wave's whole force, which reads
  /// nothing but T (``ResolvedForce/force(position:velocity:time:)``).
  /// RK4's two middle evaluations share a time, and a step's last time is
  /// often the next step's first: the acceleration fills it again only
  /// when T's bits change, so the same values reach the same sums.
  ///
  /// Invariants: each buffer holds one element per term, and outlives the
  /// value; once filled, `resolved[i]` points into ``Hot/settled`` or to
  /// `scratch[i]`. ``ResolvedForce`` is trivial: its slots are overwritten
  /// and freed without deinitialising.
  struct ForcesAtTime {
    var time: Double
    var isFilled: Bool
    let resolved: UnsafeMutablePointer<UnsafePointer<ResolvedForce>>
    let scratch: UnsafeMutablePointer<ResolvedForce>
    let waveForces: UnsafeMutablePointer<SIMD3<Double>>
  }

  /// Calls `body` with an empty ``ForcesAtTime`` for this program's terms,
  /// in temporary storage (on the stack for a few terms).
  func withForcesAtTime<R>(_ body: (UnsafeMutablePointer<ForcesAtTime>) -> R) -> R {
    let n = max(hot.terms.count, 1)
    return withUnsafeTemporaryAllocation(of: UnsafePointer<ResolvedForce>.self, capacity: n) { resolved in
      withUnsafeTemporaryAllocation(of: ResolvedForce.self, capacity: n) { scratch in
        withUnsafeTemporaryAllocation(of: SIMD3<Double>.self, capacity: n) { waveForces in
          var forces = ForcesAtTime(
            time: 0, isFilled: false, resolved: resolved.baseAddress!, scratch: scratch.baseAddress!,
            waveForces: waveForces.baseAddress!)
          return withUnsafeMutablePointer(to: &forces, body)
        }
      }
    }
  }

  /// Fills `forces` for emitter time `T` (``ForcesAtTime``).
  /// - Complexity: O(behaviors).
  func fill(_ forces: UnsafeMutablePointer<ForcesAtTime>, at T: Double) {
    let f = forces.pointee
    for i in 0..<hot.terms.count {
      let resolved: UnsafePointer<ResolvedForce>
      if T >= hot.settleTimes[i] {
        resolved = UnsafePointer(hot.settled.baseAddress.unsafelyUnwrapped + i)
      } else {
        (f.scratch + i).initialize(to: hot.terms[i].resolved(at: T, from: hot.atZero[i]))
        resolved = UnsafePointer(f.scratch + i)
      }
      f.resolved[i] = resolved
      if resolved.pointee.kind == .wave {
        f.waveForces[i] = resolved.pointee.force(position: .zero, velocity: .zero, time: T)
      }
    }
    forces.pointee.time = T
    forces.pointee.isFilled = true
  }

  /// The acceleration of the integrated motion (forces / mass + gravity `g`)
  /// on a particle of mass `mass` at `p`, `v` and age `age`: each force
  /// at emitter time `T` (birth + age, clamped into its segment between
  /// breakpoints by the caller), in order, resolved once for good from
  /// its settle time on (``Hot``), the mass by the mass curves at age /
  /// lifetime. `forces` holds the parts of T alone, filled here when T
  /// differs from its time (``ForcesAtTime``); without it (no force has
  /// any) each term is read from ``Hot``: the same values either way.
  /// - Complexity: O(behaviors).
  @inline(__always)
  func acceleration(
    position p: SIMD3<Double>, velocity v: SIMD3<Double>, age: Double, time T: Double, lifetime: Double,
    mass: Double, gravity g: SIMD3<Double>, forces: UnsafeMutablePointer<ForcesAtTime>?
  ) -> SIMD3<Double> {
    var total = SIMD3<Double>()
    if let forces {
      if !forces.pointee.isFilled || forces.pointee.time.bitPattern != T.bitPattern { fill(forces, at: T) }
      let resolved = forces.pointee.resolved
      let waveForces = forces.pointee.waveForces
      for i in 0..<hot.terms.count {
        let force = resolved[i]
        if force.pointee.kind == .wave {
          total += waveForces[i]
        } else {
          total += force.pointee.force(position: p, velocity: v, time: T)
        }
      }
    } else {
      for i in 0..<hot.terms.count {
        if T >= hot.settleTimes[i] {
          total += hot.settled[i].force(position: p, velocity: v, time: T)
        } else {
          total += hot.terms[i].resolved(at: T, from: hot.atZero[i]).force(position: p, velocity: v, time: T)
        }
      }
    }
    var m = mass
    if !hot.massCurves.isEmpty {
      let u = min(max(age / lifetime, 0), 1)
      for (keys, additive) in hot.massCurves { m = additive ? m + keys.value(at: u) : keys.value(at: u) }
    }
    return g + total / m
  }
}
