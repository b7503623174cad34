// Compiling a cell's behaviors and the changes of their parameters into a
// BehaviorProgram: force terms with parameter tracks, and the life curves.

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
        curves.append(.value(b.keyPath, KeyedCurve(values: b.values, locations: b.locations), isAdditive: b.isAdditive))
      case .colorOverLife(let b):
        let channels = (0..<4).map { c in KeyedCurve(values: b.colors.map { $0.vector[c] }, locations: b.locations) }
        curves.append(.color(channels))
      case .alignToMotion(let b):
        curves.append(.alignToMotion(radians: 2 * Double.pi * Double(b.rotation)))
      }
    }
    if forces.isEmpty && curves.isEmpty { return nil }
    self.init(forces: forces, curves: curves, massMeans: massMeans, massRanges: massRanges, randomSeed: randomSeed)
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
