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
/// buffers of ``Hot`` included (written once in `init`, freed in `deinit`;
/// the curves' ``KeyedCurve/Keys`` point into ``Hot/keys``).
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

  /// One curve of the particle's life, applied in list order. A life
  /// curve's keys, `enabled` included, are read at time 0 (the format
  /// refuses changes to them), so a disabled curve is left out.
  enum CurveStep: Hashable, Sendable {
    case value(ValueOverLifeProperty, KeyedCurve, isAdditive: Bool)
    /// Red, green, blue and alpha curves.
    case color([KeyedCurve])
    /// The added turn, in radians.
    case alignToMotion(radians: Double)
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
    /// The curves (``curves``), which every particle's state reads in turn,
    /// their keys in ``keys``.
    var curves: UnsafeMutableBufferPointer<HotCurveStep>
    /// The mass curves (``massCurves``), their keys in ``keys``.
    var massCurves: UnsafeMutableBufferPointer<(keys: KeyedCurve.Keys, isAdditive: Bool)>
    /// Every curve's locations, values and integrals, one after another.
    var keys: UnsafeMutableBufferPointer<Double>
    /// The closed form's waves (``Motion/closedForm(drag:spring:springForce:waves:)``;
    /// empty for other motions).
    var waves: UnsafeMutableBufferPointer<WaveForce>
  }
  /// A ``CurveStep`` whose curves are ``KeyedCurve/Keys`` into ``Hot/keys``,
  /// as plain fields read in place (no enum payload copied, nothing
  /// retained): a particle's state loads the fields its kind uses.
  struct HotCurveStep {
    enum Kind { case value, color, alignToMotion }
    var kind: Kind
    /// `value`: the property the curve keys, and whether it adds to it.
    var property: ValueOverLifeProperty
    var isAdditive: Bool
    /// `alignToMotion`: the added turn, in radians.
    var radians: Double
    /// `value`: the curve; `color`: the red channel.
    var keys: KeyedCurve.Keys
    /// `color`: the green, blue and alpha channels, at the red channel's
    /// locations (one colorOverLife's channels share its locations);
    /// `keys` elsewhere.
    var green: KeyedCurve.Keys
    var blue: KeyedCurve.Keys
    var alpha: KeyedCurve.Keys
  }
  let hot: Hot
  /// The scalars of ``Motion/closedForm(drag:spring:springForce:waves:)``
  /// (its waves are ``Hot/waves``); nil for other motions.
  let closedForm: (drag: Double, spring: Double, springForce: SIMD3<Double>)?
  /// Whether ``motion`` is ``Motion/integrated``.
  let isIntegrated: Bool
  /// Whether some force has a part of the time alone worth keeping
  /// between evaluations (a wave, or a parameter that changes):
  /// ``ForcesAtTime`` is used only then.
  let hasTimeParts: Bool
  /// Per timeline segment, the cell's `mass` and `massRange` (a particle's
  /// take their values at its birth).
  let massMeans: [Float]
  let massRanges: [Float]
  /// The birth sampler's seed for this cell (emitter seed | path key << 32):
  /// a particle's mass draws word 14 of its attribute stream.
  let randomSeed: UInt64

  /// The program of compiled `forces` and `curves`: the mass curves picked
  /// out, the constant forces resolved, the motion chosen.
  init(
    forces: [ForceTerm], curves: [CurveStep], massMeans: [Float], massRanges: [Float], randomSeed: UInt64
  ) {
    let massCurves = curves.compactMap { step -> (curve: KeyedCurve, isAdditive: Bool)? in
      if case .value(.mass, let curve, let additive) = step { return (curve, additive) }
      return nil
    }
    self.forces = forces
    self.curves = curves
    self.massCurves = massCurves
    let forcesAtZero = forces.map { $0.resolved(at: 0) }
    self.forcesAtZero = forcesAtZero
    let settleTimes = forces.map(Self.settleTime(of:))
    let motion = Self.motion(forces: forces, keysMass: !massCurves.isEmpty)
    var waves: [WaveForce] = []
    if case .closedForm(let drag, let spring, let springForce, let closedWaves) = motion {
      closedForm = (drag, spring, springForce)
      waves = closedWaves
    } else {
      closedForm = nil
    }
    // At least one element: the pointers of a step without a curve point
    // here too (never read).
    let keys = UnsafeMutableBufferPointer<Double>.allocate(
      capacity: curves.reduce(1) { total, step in
        switch step {
        case .value(_, let curve, _): total + 3 * curve.values.count
        case .color(let channels): total + channels.reduce(0) { $0 + 3 * $1.values.count }
        case .alignToMotion: total
        }
      })
    var filled = 0
    func store(_ curve: KeyedCurve) -> KeyedCurve.Keys {
      let n = curve.values.count
      let base = keys.baseAddress! + filled
      for (k, array) in [curve.locations, curve.values, curve.integralsAtLocations].enumerated() {
        (base + k * n).initialize(from: array, count: n)
      }
      filled += 3 * n
      return KeyedCurve.Keys(count: n, locations: base, values: base + n, integrals: base + 2 * n)
    }
    var massKeys: [(keys: KeyedCurve.Keys, isAdditive: Bool)] = []
    let hotCurves = curves.map { step -> HotCurveStep in
      switch step {
      case .value(let property, let curve, let additive):
        let keys = store(curve)
        if property == .mass { massKeys.append((keys, additive)) }
        return HotCurveStep(
          kind: .value, property: property, isAdditive: additive, radians: 0, keys: keys, green: keys, blue: keys,
          alpha: keys)
      case .color(let c):
        precondition(c.allSatisfy { $0.locations == c[0].locations }, "a colorOverLife's channels share locations")
        return HotCurveStep(
          kind: .color, property: .colorRed, isAdditive: false, radians: 0, keys: store(c[0]), green: store(c[1]),
          blue: store(c[2]), alpha: store(c[3]))
      case .alignToMotion(let radians):
        let base = UnsafePointer(keys.baseAddress!)
        let none = KeyedCurve.Keys(count: 0, locations: base, values: base, integrals: base)
        return HotCurveStep(
          kind: .alignToMotion, property: .rotation, isAdditive: false, radians: radians, keys: none, green: none,
          blue: none, alpha: none)
      }
    }
    hot = Hot(
      terms: .allocate(capacity: forces.count), settleTimes: .allocate(capacity: forces.count),
      settled: .allocate(capacity: forces.count), atZero: .allocate(capacity: forces.count),
      curves: .allocate(capacity: hotCurves.count), massCurves: .allocate(capacity: massKeys.count), keys: keys,
      waves: .allocate(capacity: waves.count))
    _ = hot.curves.initialize(from: hotCurves)
    _ = hot.massCurves.initialize(from: massKeys)
    _ = hot.waves.initialize(from: waves)
    _ = hot.terms.initialize(from: forces)
    _ = hot.settleTimes.initialize(from: settleTimes)
    _ = hot.settled.initialize(
      from: zip(forces, settleTimes).map { $0.isConstant ? $0.resolved(at: 0) : $0.resolved(at: $1) })
    _ = hot.atZero.initialize(from: forcesAtZero)
    self.massMeans = massMeans
    self.massRanges = massRanges
    self.randomSeed = randomSeed
    self.motion = motion
    isIntegrated = motion == .integrated
    hasTimeParts = forces.contains { $0.kind == .wave || !$0.isConstant }
    breakpoints = motion == .integrated ? Self.breakpoints(of: forces) : []
  }

  deinit {
    hot.terms.deinitialize().deallocate()
    hot.settleTimes.deallocate()
    hot.settled.deallocate()
    hot.atZero.deallocate()
    hot.curves.deinitialize().deallocate()
    hot.massCurves.deinitialize().deallocate()
    hot.keys.deallocate()
    hot.waves.deinitialize().deallocate()
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
  /// How `forces` move a particle (``Motion``): unchanged when none can
  /// act; closed form when every active one is constant, every attractor a
  /// linear radial spring, no curve keys the mass (`keysMass` false) and
  /// ``AxisMotion/isClosedForm(spring:hasWaves:)`` covers the sum;
  /// integrated otherwise.
  static func motion(forces: [ForceTerm], keysMass: Bool) -> Motion {
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
  static func breakpoints(of forces: [ForceTerm]) -> [Double] {
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
}
