import SleetGPU
import SleetParticles
import Testing

/// The shader's compact pass (32-byte `CompactParticleInstance`s) on a real
/// OpenGL ES 3.1 driver against the CPU's compact `render`: ids, counts,
/// order, sprite and cell exact; x, y, z, scale, rotation and normalised age
/// within the per-particle bound of `docs/gpu.md` (the compact floats are the
/// full instance's, bit for bit, on both sides); each unorm8 colour channel
/// within the packing of that bound (``colorChannelAllowed(_:cpu:bound:)``).
@Suite("GPU compact instances", .serialized)
struct GPUCompactInstanceTests {
  // The presets without emitter behaviors: the shader evaluates the closed
  // form, and GPUParticleRenderer refuses behaviors (GPUBehaviorRefusalTests).
  @Test(arguments: Effect.presetNames.filter { !(try! Effect.preset(named: $0)).emitter.hasBehaviors })
  func presetsMatchTheCPUCompactRender(name: String) throws {
    let report = try Self.compare(try Effect.preset(named: name), label: name)
    #expect(report.particles > 0)
  }

  /// The render orders the host sorts (several cells `unordered`,
  /// `backToFront`) and the reversed one, on fireworks (several cells).
  @Test(arguments: [RenderMode.unordered, .backToFront, .oldestLast, .additive])
  func sortedAndReversedOrdersMatchTheCPU(mode: RenderMode) throws {
    var emitter = try Effect.preset(named: "fireworks").emitter
    emitter.renderMode = mode
    let report = try Self.compare(try Effect(emitter: emitter), label: "fireworks \(mode)")
    #expect(report.particles > 0)
  }

  /// The renderer's layout follows the stream's system configuration, as
  /// the CPU `render` does, unless given.
  @Test func layoutFollowsTheSystemConfiguration() throws {
    let effect = try Effect.preset(named: "snow")
    let compact = try ParticleSystem(effect: effect, configuration: .init(instanceLayout: .compact))
    let stream = try BirthDeltaStream(system: compact)
    #expect(try GPUParticleRenderer(stream: stream).instanceLayout == .compact)
    #expect(try GPUParticleRenderer(stream: stream, instanceLayout: .full).instanceLayout == .full)
    let full = try BirthDeltaStream(system: try ParticleSystem(effect: effect))
    let gpu = try GPUParticleRenderer(stream: full)
    #expect(gpu.instanceLayout == .full)
    try gpu.upload(try full.advance(to: 2))
    var frame = ParticleFrame()
    try gpu.render(into: &frame)
    #expect(!frame.instances.isEmpty && frame.compactInstances.isEmpty)
  }

  /// The packed channel a colour c gives: 255·c rounded to `Float`, then to
  /// an integer, nearest, ties to even (`CompactParticleInstance.init`).
  static func unorm8(_ c: Float) -> UInt8 { UInt8((c * 255).rounded(.toNearestOrEven)) }

  /// Whether `gpu` is a packing the bound allows: the GPU's colour c' is in
  /// [c − B, c + B] ∩ [0, 1] (c the CPU's clamped colour, B the colour bound),
  /// and c ↦ unorm8(c) is non-decreasing with the GPU applying the same
  /// function (one correctly rounded product, `roundEven`), so
  /// unorm8(c − B) ≤ unorm8(c') ≤ unorm8(c + B). That interval is the CPU's
  /// own value unless [c − B, c + B] straddles a rounding boundary
  /// (255·c within 255·B of k + ½); then, and only then, the neighbour is
  /// allowed too (B is of the order of 10⁻⁶ here, so 255·2B < 1: never two
  /// steps).
  static func colorChannelAllowed(_ gpu: UInt8, cpu c: Float, bound b: Double) -> Bool {
    let lo = Float(max(0, Double(c) - b)).nextDown
    let hi = Float(min(1, Double(c) + b)).nextUp
    return unorm8(max(0, lo)) <= gpu && gpu <= unorm8(min(1, hi))
  }

  struct Report {
    var particles = 0
    /// Channels whose packing differs from the CPU's by one (a rounding
    /// boundary inside the bound).
    var flippedChannels = 0
  }

  static func compare(
    _ effect: Effect, schedule: [(seek: Bool, time: Double)] = GPUParticleRendererTests.schedule, label: String
  ) throws -> Report {
    let compactReference = try ParticleSystem(
      effect: effect, configuration: .init(computesIDs: true, instanceLayout: .compact))
    // The full instances: the colour before packing, for the bound.
    let fullReference = try ParticleSystem(effect: effect, configuration: .init(computesIDs: true))
    let stream = try BirthDeltaStream(
      system: try ParticleSystem(effect: effect, configuration: .init(instanceLayout: .compact)))
    let gpu = try GPUParticleRenderer(stream: stream)
    #expect(gpu.instanceLayout == .compact)
    var ring = BirthRing(capacity: stream.capacity)
    let constants = stream.constantsRows
    var expected = ParticleFrame()
    var full = ParticleFrame()
    var actual = ParticleFrame()
    var report = Report()
    for (seek, time) in schedule {
      let delta = seek ? try stream.seek(to: time) : try stream.advance(to: time)
      for reference in [compactReference, fullReference] {
        if seek { reference.seek(to: time) } else { reference.advance(to: time) }
      }
      try gpu.upload(delta)
      ring.apply(delta)
      try gpu.render(into: &actual)
      compactReference.render(into: &expected)
      fullReference.render(into: &full)
      #expect(actual.instances.isEmpty, "\(label) at \(time): full instances in a compact frame")
      let sameIDs = actual.ids == expected.ids && actual.compactInstances.count == expected.compactInstances.count
      #expect(sameIDs, "\(label) at \(time): ids, count or order differ")
      #expect(actual.batches == expected.batches, "\(label) at \(time)")
      #expect(actual.sprites == expected.sprites && actual.cellPaths == expected.cellPaths, "\(label) at \(time)")
      #expect(full.ids == expected.ids, "\(label) at \(time): the CPU layouts disagree")
      guard sameIDs && full.ids == expected.ids else { continue }
      let p = stream.frameParameters()
      let slots = windowSlotsByID(ring, p)
      for (i, id) in expected.ids.enumerated() {
        let slot = slots[id]!
        let bound = Bound(slot, constants: constants, time: p.localTime, cpuAge: Float(p.localTime - slot.birthTime))
        let (x, y) = (actual.compactInstances[i], expected.compactInstances[i])
        func r(_ a: Float, _ b: Float, _ bound: Double) -> Double { abs(Double(a) - Double(b)) / bound }
        let ratio = [
          r(x.x, y.x, bound.position.x), r(x.y, y.y, bound.position.y), r(x.z, y.z, bound.position.z),
          r(x.scale, y.scale, bound.scale), r(x.rotation, y.rotation, bound.rotation),
          r(x.normalizedAge, y.normalizedAge, bound.normalizedAge),
        ].max()!
        let c = full.instances[i].color
        let channels = [
          colorChannelAllowed(x.color.x, cpu: c.x, bound: bound.color.x),
          colorChannelAllowed(x.color.y, cpu: c.y, bound: bound.color.y),
          colorChannelAllowed(x.color.z, cpu: c.z, bound: bound.color.z),
          colorChannelAllowed(x.color.w, cpu: c.w, bound: bound.color.w),
        ]
        report.flippedChannels += (0..<4).filter { x.color[$0] != y.color[$0] }.count
        #expect(
          ratio <= 1 && !channels.contains(false) && x.sprite == y.sprite && x.cell == y.cell,
          "\(label) at \(time), particle \(id): \(x) vs \(y) (full \(full.instances[i]))")
      }
      report.particles += expected.ids.count
    }
    return report
  }
}
