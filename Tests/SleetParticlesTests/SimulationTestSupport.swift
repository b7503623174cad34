import SleetMath

@testable import SleetParticles

/// A cell with the given name and rate, lifetime and velocity; everything else default.
func testCell(
  _ name: String, birthRate: Float = 10, lifetime: Float = 5, velocity: Float = 0,
  configure: (inout EmitterCell) -> Void = { _ in }
) -> EmitterCell {
  var c = EmitterCell(name: name)
  c.birthRate = birthRate
  c.lifetime = lifetime
  c.velocity = velocity
  configure(&c)
  return c
}

func testEffect(_ cells: [EmitterCell], configure: (inout Emitter) -> Void = { _ in }) -> Effect {
  var e = Emitter(emitterCells: cells)
  configure(&e)
  // Safe: no changes, so nothing to validate.
  return try! Effect(emitter: e)
}

/// A fireworks-like effect: rockets with a trail (continuous) and a burst
/// (a short window late in life) that has sparks with their own sub-window.
func fireworksLikeEffect(seed: UInt32 = 7) -> Effect {
  let spark = testCell("spark", birthRate: 60, lifetime: 0.8, velocity: 60) {
    $0.lifetimeRange = 0.4
    $0.emissionRange = 2 * .pi
    $0.yAcceleration = 50
    $0.alphaSpeed = -1
    $0.beginTime = 0.05
    $0.duration = 0.1
  }
  let burst = testCell("burst", birthRate: 100, lifetime: 0.4, velocity: 80) {
    $0.emissionRange = 2 * .pi
    $0.beginTime = 0.9
    $0.duration = 0.1
    $0.scale = 1.5
    $0.color = ColorRGBA(red: 1, green: 0.6, blue: 0.3)
    $0.emitterCells = [spark]
  }
  let trail = testCell("trail", birthRate: 60, lifetime: 0.3, velocity: 0) {
    $0.yAcceleration = 10
    $0.scaleSpeed = -0.5
  }
  let rocket = testCell("rocket", birthRate: 2.3, lifetime: 1.05, velocity: 200) {
    $0.velocityRange = 40
    $0.emissionRange = 0.5
    $0.yAcceleration = 75
    $0.scale = 0.5
    $0.color = ColorRGBA(red: 0.9, green: 0.8, blue: 0.7, alpha: 1)
    $0.redRange = 0.2
    $0.spin = 1
    $0.emitterCells = [trail, burst]
  }
  return testEffect([rocket]) {
    $0.emitterShape = .line
    $0.emitterMode = .outline
    $0.emitterPosition = SIMD2(200, 600)
    $0.emitterSize = SIMD2(300, 0)
    $0.seed = seed
  }
}

/// Moves every system to `t`: `seek(to:)` when `seeks`, else `advance(to:)`
/// (tests that compare two paths over the same times).
func move(_ systems: ParticleSystem..., to t: Double, seeks: Bool) {
  for system in systems {
    if seeks { system.seek(to: t) } else { system.advance(to: t) }
  }
}

/// Bit patterns of a frame's instances, for exact comparison.
func bits(_ frame: ParticleFrame) -> [UInt32] {
  var out: [UInt32] = []
  for i in frame.instances {
    out += [
      i.x, i.y, i.z, i.scale, i.color.x, i.color.y, i.color.z, i.color.w, i.contentsRect.x,
      i.rotation, i.normalizedAge,
    ].map(\.bitPattern)
    out += [i.sprite, i.cell]
  }
  for a in frame.affines { out += [a.a, a.b, a.c, a.d, a.tx, a.ty].map(\.bitPattern) }
  return out
}

func bits(_ snapshots: [ParticleSnapshot]) -> [UInt64] {
  snapshots.flatMap { s -> [UInt64] in
    [s.id, s.birthTime.bitPattern, UInt64(s.lifetime.bitPattern)]
      + [
        s.position.x, s.position.y, s.position.z, s.velocity.x, s.velocity.y, s.velocity.z, s.scale,
        s.rotation, s.color.x, s.color.y, s.color.z, s.color.w,
      ].map { UInt64($0.bitPattern) }
  }
}

/// Samples `count` top-level births of cell 0 of `effect` directly.
func sampleBirths(_ effect: Effect, count: Int) -> [BirthRecord] {
  let tree = CellTree(effect: effect)
  return (0..<count).compactMap {
    BirthSampler.topLevel(tree: tree, seed: effect.emitter.seed, node: 0, k: $0, birthTime: 0)
  }
}

/// Whether two frames hold the same bytes in each output a render path
/// writes (instances, compact rows, affines) and the same ids, as a tuple so
/// that a failure says which differ.
func sameOutputs(_ a: ParticleFrame, _ b: ParticleFrame) -> (
  instances: Bool, compact: Bool, affines: Bool, ids: Bool
) {
  func bytes<T>(_ array: [T]) -> [UInt8] { array.withUnsafeBytes { Array($0) } }
  return (
    bytes(a.instances) == bytes(b.instances), bytes(a.compactInstances) == bytes(b.compactInstances),
    bytes(a.affines) == bytes(b.affines), a.ids == b.ids
  )
}
