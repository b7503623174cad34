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
  /// sub-step's start, divided by the mass), then position; each keyed
  /// rate (velocity, spin, scale speed) is summed over the sub-steps on its
  /// own, for the curves to apply in list order when drawn. Error: first
  /// order in the sub-step.
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
      motionPosition += motionVelocity * h
      for (i, step) in program.curves.enumerated() {
        guard case .value(let property, let curve, _) = step else { continue }
        switch property {
        case .velocityX, .velocityY, .velocityZ, .spin, .scaleSpeed: keyedIntegrals[i] += curve.value(at: u) * h
        default: break
        }
      }
      rotation += spin * Float(h)
      scale += scaleSpeed * Float(h)
      color += colorSpeed * Float(h)
    }
  }

  /// The drawn state: without behaviors, the Euler state (scale clamped at
  /// 0, colour to [0, 1]); with them, the moved state, then every curve in
  /// list order at the particle's age (keyed rates from their summed
  /// integrals), then the clamps.
  var drawnState: BehaviorState {
    guard let program = behaviors else {
      return BehaviorState(
        position: position, velocity: velocity, scale: Swift.max(0, scale), rotation: rotation, color: drawnColor)
    }
    let life = Double(lifetime)
    let u = Swift.min(Swift.max(age / life, 0), 1)
    var p = motionPosition
    var v = motionVelocity
    var drawnRotation = rotation
    var drawnScale = scale
    var c = color
    for (index, step) in program.curves.enumerated() {
      switch step {
      case .value(let property, let curve, let additive):
        let k = curve.value(at: u)
        let integral = keyedIntegrals[index]
        func keyed(_ x: Float) -> Float { additive ? x + Float(k) : Float(k) }
        switch property {
        case .positionX, .positionY, .positionZ:
          let i = property == .positionX ? 0 : property == .positionY ? 1 : 2
          let rate = curve.slope(at: u) / life
          p[i] = additive ? p[i] + k : k
          v[i] = additive ? v[i] + rate : rate
        case .velocityX, .velocityY, .velocityZ:
          let i = property == .velocityX ? 0 : property == .velocityY ? 1 : 2
          v[i] = additive ? v[i] + k : k
          p[i] = additive ? p[i] + integral : Double(birthPosition[i]) + integral
        case .spin: drawnRotation = additive ? drawnRotation + Float(integral) : Float(integral)
        case .scaleSpeed: drawnScale = additive ? drawnScale + Float(integral) : birthScale + Float(integral)
        case .rotation: drawnRotation = keyed(drawnRotation)
        case .scale: drawnScale = keyed(drawnScale)
        case .colorRed: c.x = keyed(c.x)
        case .colorGreen: c.y = keyed(c.y)
        case .colorBlue: c.z = keyed(c.z)
        case .colorAlpha: c.w = keyed(c.w)
        case .mass: break
        }
      case .color(let channels):
        for i in 0..<4 { c[i] *= Float(channels[i].value(at: u)) }
      case .alignToMotion(let radians):
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
