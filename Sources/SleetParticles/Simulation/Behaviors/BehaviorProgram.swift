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
///
/// A final class: a frame reads a cell's program once per particle, and a
/// reference is copied with one retain, where a struct of arrays takes one
/// per array (`docs/performance-design.md`, "Behaviors"). Unchecked
/// `Sendable`: every stored property is immutable after `init`, the
/// buffers of ``Hot`` included (written once in `init`, freed in `deinit`).
final class BehaviorProgram: @unchecked Sendable {
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

  let forces: [ForceTerm]
  /// The emitter times where a force parameter changes, starts or ends an
  /// animation, or passes a key time, ascending, for integrated motion
  /// (empty otherwise): its grid starts again at each
  /// (``integratedMotion(of:age:mass:cache:)``; the tracks are smooth
  /// between them).
  let breakpoints: [Double]
  let curves: [CurveStep]
  let motion: Motion
  /// The mass curves (`valueOverLife` of `mass`), in order.
  let massCurves: [(curve: KeyedCurve, isAdditive: Bool)]
  /// Per force, its parameters at time 0, from which
  /// ``ForceTerm/resolved(at:from:)`` resolves the others.
  let forcesAtZero: [ResolvedForce]
  /// What the integrated motion's acceleration reads, per force, and the
  /// curves, as buffers (no array retained, no optional, term or curve
  /// copied).
  struct Hot {
    /// The terms (``forces``).
    var terms: UnsafeMutableBufferPointer<ForceTerm>
    /// The time from which the term's parameters no longer change: every
    /// change of it has happened and ended (−∞ for a constant term).
    var settleTimes: UnsafeMutableBufferPointer<Double>
    /// The term resolved at its settle time (at 0 for a constant term):
    /// ``ForceTerm/resolved(at:)`` at any time from then on, bit for bit.
    var settled: UnsafeMutableBufferPointer<ResolvedForce>
    /// ``forcesAtZero``.
    var atZero: UnsafeMutableBufferPointer<ResolvedForce>
    /// The curves (``curves``), which every particle's state reads in turn.
    var curves: UnsafeMutableBufferPointer<CurveStep>
  }
  let hot: Hot
  /// Per timeline segment, the cell's `mass` and `massRange` (a particle's
  /// take their values at its birth).
  let massMeans: [Float]
  let massRanges: [Float]
  /// The birth sampler's seed for this cell (emitter seed | path key << 32):
  /// a particle's mass draws word 14 of its attribute stream.
  let randomSeed: UInt64

  /// The program of compiled `forces` and `curves`: the mass curves picked
  /// out, the constant forces resolved, the motion chosen.
  fileprivate init(
    forces: [ForceTerm], curves: [CurveStep], massMeans: [Float], massRanges: [Float], randomSeed: UInt64
  ) {
    let massCurves = curves.compactMap { step -> (curve: KeyedCurve, isAdditive: Bool)? in
      if case .value(.mass, let curve, let additive, _) = step { return (curve, additive) }
      return nil
    }
    self.forces = forces
    self.curves = curves
    self.massCurves = massCurves
    let forcesAtZero = forces.map { $0.resolved(at: 0) }
    self.forcesAtZero = forcesAtZero
    let settleTimes = forces.map(Self.settleTime(of:))
    hot = Hot(
      terms: .allocate(capacity: forces.count), settleTimes: .allocate(capacity: forces.count),
      settled: .allocate(capacity: forces.count), atZero: .allocate(capacity: forces.count),
      curves: .allocate(capacity: curves.count))
    _ = hot.curves.initialize(from: curves)
    _ = hot.terms.initialize(from: forces)
    _ = hot.settleTimes.initialize(from: settleTimes)
    _ = hot.settled.initialize(
      from: zip(forces, settleTimes).map { $0.isConstant ? $0.resolved(at: 0) : $0.resolved(at: $1) })
    _ = hot.atZero.initialize(from: forcesAtZero)
    self.massMeans = massMeans
    self.massRanges = massRanges
    self.randomSeed = randomSeed
    let motion = Self.motion(forces: forces, keysMass: !massCurves.isEmpty)
    self.motion = motion
    breakpoints = motion == .integrated ? Self.breakpoints(of: forces) : []
  }

  deinit {
    hot.terms.deinitialize().deallocate()
    hot.settleTimes.deallocate()
    hot.settled.deallocate()
    hot.atZero.deallocate()
    hot.curves.deinitialize().deallocate()
  }

  /// The time from which every parameter track of `term` holds its last
  /// value: the largest end (time + duration, or the time of a step) of its
  /// changes; −∞ when it has none. From then on every change folds to its
  /// target (``ParameterTrack/value(at:)``).
  private static func settleTime(of term: ForceTerm) -> Double {
    var end = -Double.infinity
    for track in [term.enabled, term.vector, term.scalar, term.shape, term.orientation] {
      for c in track.changes { end = max(end, c.duration <= 0 ? c.time : c.time + c.duration) }
    }
    return end
  }
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
  convenience init?(
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
    self.init(forces: forces, curves: curves, massMeans: massMeans, massRanges: massRanges, randomSeed: randomSeed)
  }

  fileprivate static func motion(forces: [ForceTerm], keysMass: Bool) -> Motion {
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
    // A particle of mass 1 decays at `drag` (others drop the periods).
    for i in waves.indices { waves[i].periods = WaveProfile.Periods(waves[i].profile, decay: drag) }
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
      // A vector given with fewer numbers than the key has components keeps
      // the others, as `Emitter.setValue` does.
      let (target, filled) = spread(c.value, over: bits)
      let mask = SIMD4<Int64>((0..<4).map { filled >> $0 & 1 == 1 ? -1 : 0 })
      changes.append(
        ParameterTrack.Change(
          time: c.time, duration: c.duration, timing: c.timingFunction, keyTimes: c.keyTimes,
          keyValues: c.values.map { spread($0, over: bits).value }, target: target, mask: mask))
    }
    return changes.isEmpty ? ParameterTrack(constant: initial) : ParameterTrack(initial: initial, changes: changes)
  }

  /// `value`'s numbers placed in the components of `bits`, in order, each
  /// rounded to `Float` as the property stores it (the value
  /// `Effect.emitter(at:)` and `Effect.value(forKeyPath:at:)` report), and
  /// the components filled.
  private static func spread(_ value: PropertyValue, over bits: Int) -> (value: SIMD4<Double>, filled: Int) {
    let numbers: [Double]
    switch value {
    case .number(let x): numbers = [Double(Float(x))]
    case .bool(let b): numbers = [b ? 1 : 0]
    case .vector(let v): numbers = v.map { Double(Float($0)) }
    case .string(let name): numbers = [Double(AttractorType.allCases.firstIndex { $0.rawValue == name } ?? 0)]
    }
    var out = SIMD4<Double>()
    var filled = 0
    var next = 0
    for i in 0..<4 where bits >> i & 1 == 1 && next < numbers.count {
      out[i] = numbers[next]
      filled |= 1 << i
      next += 1
    }
    return (out, filled)
  }
}
