/// The behaviors acting on one cell's particles, compiled once per effect
/// (``CellTree``): the emitter's behaviors, then the cell's, each list in
/// order (`docs/semantics.md`, "Emitter behaviors").
///
/// Forces become ``ForceTerm``s, curves ``CurveStep``s, and the motion a
/// ``Motion``: unchanged (no force: the closed form of a cell without
/// behaviors, bit for bit), closed form (constant forces that
/// ``AxisMotion`` solves exactly), or integrated (``FixedStepIntegrator``).
/// A particle's state is then a pure function of its birth record, its mass
/// and the time (BehaviorProgram+State.swift), so seeking and stepping give
/// the same bits on any thread count.
struct BehaviorProgram: Sendable {
  /// How positions and velocities are computed.
  enum Motion: Hashable, Sendable {
    /// No force acts: ``ClosedForm``, as for a cell without behaviors.
    case unchanged
    /// Constant forces in closed form, per unit mass: drag, a linear spring
    /// toward the origin with a constant pull `springForce` (Σ kᵢ·cᵢ of the
    /// radial attractors, whose sum is −spring·p + springForce), and waves.
    case closedForm(drag: Double, spring: Double, springForce: SIMD3<Double>, waves: [WaveForce])
    /// Integrated on a fixed step from each particle's birth.
    case integrated
  }

  /// One curve of the particle's life, applied in list order.
  enum CurveStep: Hashable, Sendable {
    case value(ValueOverLifeProperty, KeyedCurve, isAdditive: Bool, enabled: ParameterTrack)
    /// Red, green, blue and alpha curves.
    case color([KeyedCurve], enabled: ParameterTrack)
    /// The added turn, in radians.
    case alignToMotion(radians: Double, enabled: ParameterTrack)
  }

  var forces: [ForceTerm]
  /// The emitter times where a force parameter changes, starts or ends an
  /// animation, or passes a key time, ascending: the integrated motion's
  /// grid starts again at each (``ForceTerm``'s tracks are smooth between
  /// them).
  var breakpoints: [Double] = []
  var curves: [CurveStep]
  var motion: Motion
  /// The mass curves (`valueOverLife` of `mass`), in order.
  var massCurves: [(curve: KeyedCurve, isAdditive: Bool)] {
    curves.compactMap {
      if case .value(.mass, let curve, let additive, _) = $0 { return (curve, additive) }
      return nil
    }
  }
  /// Per timeline segment, the cell's `mass` and `massRange` (a particle's
  /// take their values at its birth).
  var massMeans: [Float]
  var massRanges: [Float]
  /// The birth sampler's seed for this cell (emitter seed | path key << 32):
  /// a particle's mass draws word 14 of its attribute stream.
  var randomSeed: UInt64
}

extension BehaviorProgram {
  /// The program of a cell on which `behaviors` act (the emitter's then the
  /// cell's), each with its key-path prefix (`emitterBehaviors.` or
  /// `emitterCells.NAME….emitterBehaviors.`) for finding its changes in
  /// `changes`; nil when none can ever act (none, or all disabled and never
  /// enabled).
  ///
  /// The motion is closed form when every force is constant and enabled
  /// from time 0 (or disabled for good), every attractor is a linear radial
  /// spring (radius 0, falloff 0), no curve keys the mass, and
  /// ``AxisMotion/isClosedForm(spring:hasWaves:)`` covers the sum (a
  /// spring, even a repelling one, without waves; waves and drag without a
  /// spring); integrated otherwise.
  /// - Complexity: O(behaviors × changes).
  init?(
    behaviors: [(behavior: EmitterBehavior, prefix: String)], changes: [PropertyChange], massMeans: [Float],
    massRanges: [Float], randomSeed: UInt64
  ) {
    var forces: [ForceTerm] = []
    var curves: [CurveStep] = []
    for (behavior, prefix) in behaviors {
      let own =
        behavior.name.map { name in
          changes.compactMap { c -> (key: String, change: PropertyChange)? in
            let head = "\(prefix)\(name)."
            guard c.keyPath.hasPrefix(head) else { return nil }
            return (String(c.keyPath.dropFirst(head.count)), c)
          }
        } ?? []
      let enabled = Self.track(
        initial: SIMD4(behavior.isEnabled ? 1 : 0, 0, 0, 0), own, slot: { $0 == "enabled" ? 0b1 : nil })
      if !behavior.isEnabled && enabled.isConstant { continue }
      switch behavior {
      case .wave(let b):
        forces.append(
          Self.forceTerm(
            .wave, enabled: enabled, vector: [Double(b.force.x), Double(b.force.y), Double(b.force.z)],
            scalar: Double(b.frequency), own))
      case .drag(let b):
        forces.append(Self.forceTerm(.drag, enabled: enabled, vector: [0, 0, 0], scalar: Double(b.drag), own))
      case .attractor(let b):
        forces.append(Self.attractorTerm(b, enabled: enabled, own))
      case .simpleAttractor(let b):
        forces.append(Self.attractorTerm(b.attractor, enabled: enabled, own))
      case .valueOverLife(let b):
        curves.append(
          .value(
            b.keyPath, KeyedCurve(values: b.values, locations: b.locations), isAdditive: b.isAdditive, enabled: enabled)
        )
      case .colorOverLife(let b):
        let channels = (0..<4).map { c in KeyedCurve(values: b.colors.map { $0.vector[c] }, locations: b.locations) }
        curves.append(.color(channels, enabled: enabled))
      case .alignToMotion(let b):
        curves.append(.alignToMotion(radians: 2 * Double.pi * Double(b.rotation), enabled: enabled))
      }
    }
    if forces.isEmpty && curves.isEmpty { return nil }
    self.forces = forces
    self.curves = curves
    self.massMeans = massMeans
    self.massRanges = massRanges
    self.randomSeed = randomSeed
    self.motion = .unchanged
    self.motion = Self.motion(forces: forces, keysMass: !massCurves.isEmpty)
    if case .integrated = motion { breakpoints = Self.breakpoints(of: forces) }
  }

  private static func motion(forces: [ForceTerm], keysMass: Bool) -> Motion {
    let active = forces.filter { !($0.enabled.isConstant && $0.enabled.initial.x == 0) }
    if active.isEmpty { return .unchanged }
    guard !keysMass, active.allSatisfy(\.isConstant) else { return .integrated }
    var drag = 0.0
    var spring = 0.0
    var springForce = SIMD3<Double>()
    var waves: [WaveForce] = []
    for term in active {
      let f = term.resolved(at: 0)
      switch f.kind {
      case .drag: drag += f.scalar
      case .wave: waves.append(WaveForce(force: f.vector, profile: WaveProfile(frequency: f.scalar)))
      case .attractor:
        guard f.isLinearSpring else { return .integrated }
        spring += f.scalar
        springForce += f.scalar * f.vector
      }
    }
    guard drag >= 0, AxisMotion.isClosedForm(spring: spring, hasWaves: !waves.isEmpty) else {
      return .integrated
    }
    return .closedForm(drag: drag, spring: spring, springForce: springForce, waves: waves)
  }

  /// Every time a track of `forces` is not smooth at: each change's time,
  /// each animation's end and key times, sorted and distinct.
  private static func breakpoints(of forces: [ForceTerm]) -> [Double] {
    var times: Set<Double> = []
    for term in forces {
      for track in [term.enabled, term.vector, term.scalar, term.shape, term.orientation] {
        for c in track.changes {
          times.insert(c.time)
          guard c.duration > 0 else { continue }
          times.insert(c.time + c.duration)
          for k in c.keyTimes { times.insert(c.time + k * c.duration) }
        }
      }
    }
    return times.sorted()
  }

  private static func forceTerm(
    _ kind: ForceTerm.Kind, enabled: ParameterTrack, vector: SIMD3<Double>, scalar: Double,
    _ own: [(key: String, change: PropertyChange)]
  ) -> ForceTerm {
    let vectorKeys: [String: Int] = ["force": 0b111, "force.x": 0b001, "force.y": 0b010, "force.z": 0b100]
    let scalarKey = kind == .wave ? "frequency" : "drag"
    return ForceTerm(
      kind: kind, enabled: enabled,
      vector: track(initial: SIMD4(vector, 0), own, slot: { kind == .wave ? vectorKeys[$0] : nil }),
      scalar: track(initial: [scalar, 0, 0, 0], own, slot: { $0 == scalarKey ? 0b1 : nil }),
      shape: ParameterTrack(constant: .zero), orientation: ParameterTrack(constant: .zero))
  }

  private static func attractorTerm(
    _ b: AttractorBehavior, enabled: ParameterTrack, _ own: [(key: String, change: PropertyChange)]
  ) -> ForceTerm {
    let vectorKeys: [String: Int] = ["position": 0b011, "position.x": 0b001, "position.y": 0b010, "zPosition": 0b100]
    let shapeKeys: [String: Int] = [
      "radius": 0b0001, "falloff": 0b0010, "falloffDistance": 0b0100, "attractorType": 0b1000,
    ]
    let orientationKeys: [String: Int] = ["orientationLatitude": 0b01, "orientationLongitude": 0b10]
    let type = Double(AttractorType.allCases.firstIndex(of: b.attractorType)!)
    return ForceTerm(
      kind: .attractor, enabled: enabled,
      vector: track(
        initial: [Double(b.position.x), Double(b.position.y), Double(b.zPosition), 0], own, slot: { vectorKeys[$0] }),
      scalar: track(initial: [Double(b.stiffness), 0, 0, 0], own, slot: { $0 == "stiffness" ? 0b1 : nil }),
      shape: track(
        initial: [Double(b.radius), Double(b.falloff), Double(b.falloffDistance), type], own, slot: { shapeKeys[$0] }),
      orientation: track(
        initial: [Double(b.orientationLatitude), Double(b.orientationLongitude), 0, 0], own,
        slot: { orientationKeys[$0] }))
  }

  /// The track of the parameter whose keys `slot` maps to component masks
  /// (bit i: component i), from `initial` through the changes of `own` to
  /// those keys. A change's value fills the components of its mask in order
  /// (a number fills one; a vector its components; `true`/`false` 1/0; an
  /// attractor type its index).
  private static func track(
    initial: SIMD4<Double>, _ own: [(key: String, change: PropertyChange)], slot: (String) -> Int?
  ) -> ParameterTrack {
    var changes: [ParameterTrack.Change] = []
    for (key, c) in own {
      guard let bits = slot(key) else { continue }
      let mask = SIMD4<Int64>((0..<4).map { bits >> $0 & 1 == 1 ? -1 : 0 })
      changes.append(
        ParameterTrack.Change(
          time: c.time, duration: c.duration, timing: c.timingFunction, keyTimes: c.keyTimes,
          keyValues: c.values.map { spread($0, over: bits) }, target: spread(c.value, over: bits), mask: mask))
    }
    return changes.isEmpty ? ParameterTrack(constant: initial) : ParameterTrack(initial: initial, changes: changes)
  }

  /// `value`'s numbers placed in the components of `bits`, in order.
  private static func spread(_ value: PropertyValue, over bits: Int) -> SIMD4<Double> {
    let numbers: [Double]
    switch value {
    case .number(let x): numbers = [x]
    case .bool(let b): numbers = [b ? 1 : 0]
    case .vector(let v): numbers = v
    case .string(let name): numbers = [Double(AttractorType.allCases.firstIndex { $0.rawValue == name } ?? 0)]
    }
    var out = SIMD4<Double>()
    var next = 0
    for i in 0..<4 where bits >> i & 1 == 1 && next < numbers.count {
      out[i] = numbers[next]
      next += 1
    }
    return out
  }
}
