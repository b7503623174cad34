import SleetGPU
import SleetParticles
import Testing

/// The shader on a real OpenGL ES 3.1 driver (Mesa's llvmpipe when there is
/// no GPU) against the CPU `render`: counts, ids and order exact; each
/// float within the bound `docs/gpu.md` derives (FMA contraction, the
/// two-`Float` age), computed per particle from its birth slot.
/// Serialized: one context at a time is plenty for a software driver.
@Suite("GPU particles", .serialized)
struct GPUParticleRendererTests {
  /// Short steps, a long step, a seek, a backward step, a long step past
  /// every lifetime, then enough short steps for the ring to wrap.
  static let schedule: [(seek: Bool, time: Double)] =
    (0...30).map { (false, Double($0) / 20) } + [(false, 6.5), (true, 1.3), (false, 1.35), (false, 0.5)]
    + (0...30).map { (false, 30 + Double($0) / 10) }

  // The presets without emitter behaviors: the shader evaluates the closed
  // form, and GPUParticleRenderer refuses behaviors (GPUBehaviorRefusalTests).
  @Test(arguments: Effect.presetNames.filter { !(try! Effect.preset(named: $0)).emitter.hasBehaviors })
  func presetsMatchTheCPUWithinTheDerivedBound(name: String) throws {
    let effect = try Effect.preset(named: name)
    let report = try Self.compareGPUWithRender(effect, label: name)
    #expect(report.particles > 0)
    // A ring just larger than the most particles alive at once in the
    // schedule: it wraps (and may overflow into snapshots).
    let probe = try ParticleSystem(effect: effect)
    var most = 0
    let long = Self.schedule + (1...120).map { (false, 33 + Double($0) / 10) }
    for (_, time) in long {
      probe.seek(to: time)
      most = max(most, probe.liveCount)
    }
    let tight = try Self.compareGPUWithRender(effect, capacity: most + 8, schedule: long, label: "\(name), tight ring")
    // Every preset that still emits late in the schedule wraps it or
    // overflows into snapshots (the schedule itself makes 3: the first
    // step, the seek, the backward step); the burst presets stop emitting.
    #expect(tight.wraps > 0 || tight.snapshots > 3 || tight.appended < most + 8, "\(name): the ring never wrapped")
  }

  @Test func hiddenCellsOldestLastAndATightRingMatchTheCPU() throws {
    var emitter = try Effect.preset(named: "fireworks").emitter
    emitter.renderMode = .oldestLast
    emitter.emitterCells[0].emitterCells[0].isEnabled = false
    let effect = try Effect(emitter: emitter)
    _ = try Self.compareGPUWithRender(effect, label: "fireworks oldestLast, trail hidden")
    let rain = try Effect.preset(named: "rain")
    let probe = try ParticleSystem(effect: rain)
    probe.seek(to: 10)
    let tight = try Self.compareGPUWithRender(rain, capacity: probe.liveCount + 3, label: "rain, tight ring")
    #expect(tight.snapshots > 2, "the tight ring never overflowed into a snapshot")
  }

  struct Report {
    var particles = 0
    var wraps = 0
    var snapshots = 0
    /// Slots appended (not snapshots).
    var appended = 0
    /// The largest |GPU − CPU| / bound seen (≤ 1 when the bound holds).
    var worstRatio = 0.0
  }

  static func compareGPUWithRender(
    _ effect: Effect, capacity: Int? = nil, schedule: [(seek: Bool, time: Double)] = schedule, label: String
  ) throws -> Report {
    let reference = try ParticleSystem(effect: effect, configuration: .init(computesIDs: true))
    let stream = try BirthDeltaStream(system: try ParticleSystem(effect: effect), capacity: capacity)
    let gpu = try GPUParticleRenderer(stream: stream)
    var ring = BirthRing(capacity: stream.capacity)  // to look up each particle's slot
    let constants = stream.constantsRows
    var expected = ParticleFrame()
    var actual = ParticleFrame()
    var report = Report()
    for (seek, time) in schedule {
      let delta = seek ? try stream.seek(to: time) : try stream.advance(to: time)
      if seek { reference.seek(to: time) } else { reference.advance(to: time) }
      try gpu.upload(delta)
      ring.apply(delta)
      // The write position passes the ring's end.
      if delta.kind == .append && delta.firstSlot + delta.slots.count >= stream.capacity { report.wraps += 1 }
      if delta.kind == .snapshot { report.snapshots += 1 } else { report.appended += delta.slots.count }
      try gpu.render(into: &actual)
      reference.render(into: &expected)
      let sameIDs = actual.ids == expected.ids
      #expect(sameIDs, "\(label) at \(time): ids, count or order differ")
      #expect(actual.batches == expected.batches, "\(label) at \(time)")
      guard sameIDs else { continue }
      let p = stream.frameParameters()
      let slots = windowSlotsByID(ring, p)
      for (i, id) in expected.ids.enumerated() {
        let bound = Bound(
          slots[id]!, constants: constants, time: p.localTime, cpuAge: Float(p.localTime - slots[id]!.birthTime))
        let ratio = bound.worstRatio(actual.instances[i], expected.instances[i])
        report.worstRatio = max(report.worstRatio, ratio)
        #expect(ratio <= 1, "\(label) at \(time), particle \(id): \(actual.instances[i]) vs \(expected.instances[i])")
      }
      report.particles += expected.ids.count
    }
    return report
  }
}

/// The slots of `ring`'s valid window at `p`, by particle id.
func windowSlotsByID(_ ring: BirthRing, _ p: GPUFrameParameters) -> [UInt64: GPUBirthSlot] {
  var slots: [UInt64: GPUBirthSlot] = [:]
  for j in 0..<p.ringCount {
    let s = ring.slots[(p.ringStart + j) % p.capacity]
    slots[s.id] = s
  }
  return slots
}

/// The per-particle bound of `docs/gpu.md` (GPU vs CPU), u = 2⁻²⁴:
///
/// - age: δa = 3.1·u·|a| + 3.1·u²·(|t| + |b|)  (two-`Float` age vs `Float(t − b)`)
/// - position: 2γ₃(|p0| + |v0|â + |h|â²) + (|v0| + 2|h|â)·δa, â = |a| + δa
/// - scale, colour: 2γ₂(|x0| + |speed|·â) + |speed|·δa
/// - rotation, normalised age: 2γ₁·|k|·â + |k|·δa (k = spin, 1/lifetime)
///
/// plus 16·2⁻¹²⁶ for a GPU that flushes subnormals; every other field exact.
struct Bound {
  static let u = 0x1p-24
  static func gamma(_ n: Double) -> Double { n * u / (1 - n * u) }
  let position: SIMD3<Double>
  let scale: Double
  let color: SIMD4<Double>
  let rotation: Double
  let normalizedAge: Double

  init(_ s: GPUBirthSlot, constants: [Float], time t: Double, cpuAge: Float) {
    let u = Self.u
    let a = Double(abs(cpuAge))
    let da = 3.1 * u * a + 3.1 * u * u * (abs(t) + abs(s.birthTime))
    let ah = a + da
    let row = Int(s.constantsRow) * 16
    let tiny = 16 * 0x1p-126
    func k(_ i: Int) -> Double { Double(abs(constants[row + i])) }
    func linear(_ x0: Float, _ speed: Double) -> Double {
      2 * Self.gamma(2) * (Double(abs(x0)) + speed * ah) + speed * da + tiny
    }
    let p0 = SIMD3<Double>(Double(abs(s.positionX)), Double(abs(s.positionY)), Double(abs(s.positionZ)))
    let v0 = SIMD3<Double>(Double(abs(s.velocityX)), Double(abs(s.velocityY)), Double(abs(s.velocityZ)))
    let h = SIMD3<Double>(k(0), k(1), k(2))
    position = 2 * Self.gamma(3) * (p0 + v0 * ah + h * (ah * ah)) + (v0 + 2 * h * ah) * da + tiny
    scale = linear(s.scale, k(3))
    color = SIMD4(linear(s.red, k(4)), linear(s.green, k(5)), linear(s.blue, k(6)), linear(s.alpha, k(7)))
    let spin = Double(abs(s.spin))
    let inverse = Double(abs(s.inverseLifetime))
    rotation = 2 * Self.gamma(1) * spin * ah + spin * da + tiny
    normalizedAge = 2 * Self.gamma(1) * inverse * ah + inverse * da + tiny
  }

  /// max over fields of |x − y| / bound; infinity when an exact field differs.
  func worstRatio(_ x: ParticleInstance, _ y: ParticleInstance) -> Double {
    if x.contentsRect != y.contentsRect || x.sprite != y.sprite || x.cell != y.cell { return .infinity }
    func r(_ a: Float, _ b: Float, _ bound: Double) -> Double { abs(Double(a) - Double(b)) / bound }
    return [
      r(x.x, y.x, position.x), r(x.y, y.y, position.y), r(x.z, y.z, position.z), r(x.scale, y.scale, scale),
      r(x.color.x, y.color.x, color.x), r(x.color.y, y.color.y, color.y), r(x.color.z, y.color.z, color.z),
      r(x.color.w, y.color.w, color.w), r(x.rotation, y.rotation, rotation),
      r(x.normalizedAge, y.normalizedAge, normalizedAge),
    ].max()!
  }
}
