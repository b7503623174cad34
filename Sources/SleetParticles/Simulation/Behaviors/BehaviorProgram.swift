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
