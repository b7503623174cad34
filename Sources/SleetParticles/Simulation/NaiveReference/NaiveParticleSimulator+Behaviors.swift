import Foundation

extension NaiveParticleSimulator {
  /// A particle object for record `r`, with its cell's behaviors and its
  /// mass when behaviors act on it.
  func makeParticle(_ r: BirthRecord) -> Particle {
    let node = tree.nodes[Int(r.cell)]
    guard let program = node.behaviors else { return Particle(r, subCells: node.children.count) }
    return Particle(
      r, subCells: node.children.count, behaviors: program,
      mass: program.mass(of: r, segment: tree.segment(at: r.birthTime)))
  }
}

extension NaiveParticleSimulator.Particle {
  /// The largest explicit step of the behaviors' motion, seconds.
  static let behaviorStep = 1e-3

  /// Moves the particle by `dt` under its behaviors, the way a hand-written
  /// engine does, independently of the kernel's closed forms and grid: in
  /// explicit sub-steps of at most 1 ms, velocity first (the forces at the
  /// sub-step's start, divided by the mass), then position; keyed
  /// velocities replace or add to the velocity that moves the position,
  /// keyed spins and scale speeds are rates integrated the same way.
  /// Error: first order in the sub-step.
  func stepWithBehaviors(_ dt: Double) {
    guard let program = behaviors else { return }
    let n = Swift.max(1, Int((dt / Self.behaviorStep).rounded(.up)))
    let h = dt / Double(n)
    let g = SIMD3<Double>(acceleration)
    for k in 0..<n {
      let s = age + Double(k) * h
      let u = Swift.min(Swift.max(s / Double(lifetime), 0), 1)
      let T = birthTime + s
      var force = SIMD3<Double>()
      for term in program.forces {
        force += term.resolved(at: T).force(position: motionPosition, velocity: motionVelocity, time: T)
      }
      var m = mass
      for (curve, additive) in program.massCurves {
        m = additive ? m + curve.value(at: u) : curve.value(at: u)
      }
      motionVelocity += (g + force / m) * h
      motionPosition += keyedVelocity(u: u, program) * h
      var spinNow = Double(spin)
      var scaleSpeedNow = Double(scaleSpeed)
      for case .value(let property, let curve, let additive, _) in program.curves {
        let k = curve.value(at: u)
        if property == .spin { spinNow = additive ? spinNow + k : k }
        if property == .scaleSpeed { scaleSpeedNow = additive ? scaleSpeedNow + k : k }
      }
      rotation += Float(spinNow * h)
      scale += Float(scaleSpeedNow * h)
      color += colorSpeed * Float(h)
    }
  }

  /// The forces' velocity with the keyed velocities applied at `u`.
  private func keyedVelocity(u: Double, _ program: BehaviorProgram) -> SIMD3<Double> {
    var v = motionVelocity
    for case .value(let property, let curve, let additive, _) in program.curves {
      let axis: Int? =
        switch property {
        case .velocityX: 0
        case .velocityY: 1
        case .velocityZ: 2
        default: nil
        }
      guard let axis else { continue }
      v[axis] = additive ? v[axis] + curve.value(at: u) : curve.value(at: u)
    }
    return v
  }

  /// The drawn state: without behaviors, the Euler state (scale clamped at
  /// 0, colour to [0, 1]); with them, the moved state with the keyed
  /// positions, rotations, scales and colours, the colour curves and the
  /// alignment applied in list order at the particle's age.
  var drawnState: BehaviorState {
    guard let program = behaviors else {
      return BehaviorState(
        position: position, velocity: velocity, scale: Swift.max(0, scale), rotation: rotation, color: drawnColor)
    }
    let u = Swift.min(Swift.max(age / Double(lifetime), 0), 1)
    var p = motionPosition
    var v = keyedVelocity(u: u, program)
    var drawnRotation = rotation
    var drawnScale = scale
    var c = color
    for step in program.curves {
      switch step {
      case .value(let property, let curve, let additive, _):
        let k = curve.value(at: u)
        func keyed(_ x: Float) -> Float { additive ? x + Float(k) : Float(k) }
        switch property {
        case .positionX, .positionY, .positionZ:
          let i = property == .positionX ? 0 : property == .positionY ? 1 : 2
          let rate = curve.slope(at: u) / Double(lifetime)
          p[i] = additive ? p[i] + k : k
          v[i] = additive ? v[i] + rate : rate
        case .rotation: drawnRotation = keyed(drawnRotation)
        case .scale: drawnScale = keyed(drawnScale)
        case .colorRed: c.x = keyed(c.x)
        case .colorGreen: c.y = keyed(c.y)
        case .colorBlue: c.z = keyed(c.z)
        case .colorAlpha: c.w = keyed(c.w)
        case .velocityX, .velocityY, .velocityZ, .mass, .spin, .scaleSpeed: break
        }
      case .color(let channels, _):
        for i in 0..<4 { c[i] *= Float(channels[i].value(at: u)) }
      case .alignToMotion(let radians, _):
        drawnRotation = Float(atan2(v.y, v.x) + radians)
      }
    }
    c.replace(with: 0, where: c .< 0)
    c.replace(with: 1, where: c .> 1)
    return BehaviorState(
      position: SIMD3<Float>(p), velocity: SIMD3<Float>(v), scale: Swift.max(0, drawnScale), rotation: drawnRotation,
      color: c)
  }
}
