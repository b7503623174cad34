import CSleetKernels
import SleetMath

/// The cells of an effect flattened depth-first, each with its definition in
/// every *segment* of the timeline (the stretches between key-path change
/// times), ready for the birth sampler.
///
/// Cell numbers are depth-first indices (top-level cell 0, its sub-cells, then
/// top-level cell 1, …); they appear in particle ids and index
/// ``ParticleFrame/cellPaths``. The tree's shape is the shape of the effect's
/// emitter at time 0: key-path changes alter properties, not structure.
struct CellTree: Sendable {
  /// Start of every segment; the first is −∞. Segment j uses
  /// `effect.emitter(at: segmentStarts[j])` (the initial emitter for j = 0).
  /// The starts are the change times and, for animated birth rates, the
  /// boundaries of their linear pieces (``rateAnimations(of:)``).
  var segmentStarts: [Double]
  var nodes: [CellNode]
  /// Numbers of the top-level cells.
  var roots: [Int]
  /// Every (sprite, contentsScale) pair used by any cell in any segment.
  var sprites: [SpriteReference]
  /// Per ``sprites`` entry, the cells' `contentsScale` (sprite pixels per point).
  var spriteContentsScales: [Float]
  /// Per ``sprites`` entry, the cells' sampling filters.
  var spriteSampling: [SpriteSampling]
  /// Layer-level settings per segment.
  var layers: [LayerParameters]
  /// The integrated particles' last grid points (``IntegratorCache``),
  /// shared by every copy of the tree: costs, never bits.
  let integrators = IntegratorCache()
  /// Per cell, ``maximumLifetime(_:)`` and ``maximumEmissionAge(_:)``,
  /// made once here (steps and seeks ask them per cell and per parent).
  private var maximumLifetimes: [Double] = []
  private var maximumEmissionAges: [Double] = []

  init(effect: Effect) {
    let rateAnimations = Self.rateAnimations(of: effect)
    let times = Self.segmentTimes(effect.changeTimes, rateAnimations)
    segmentStarts = [-.infinity] + times
    let emitters = [effect.emitter] + times.map { effect.emitter(at: $0) }
    nodes = []
    roots = []
    sprites = []
    spriteContentsScales = []
    spriteSampling = []
    layers = emitters.map(LayerParameters.init)
    // One table entry per (sprite, contentsScale, sampling): cells that draw
    // the same image at different densities need different point sizes, and
    // with different filters different sampling.
    struct SpriteKey: Hashable {
      var reference: SpriteReference
      var contentsScale: Float
      var sampling: SpriteSampling
    }
    var spriteIndex: [SpriteKey: UInt32] = [:]
    func sprite(_ cell: EmitterCell?) -> UInt32 {
      guard let cell, let reference = cell.contents else { return ParticleInstance.noSprite }
      // The filter names were validated with the effect.
      let key = SpriteKey(reference: reference, contentsScale: cell.contentsScale, sampling: cell.sampling)
      if let i = spriteIndex[key] { return i }
      let i = UInt32(sprites.count)
      sprites.append(reference)
      spriteContentsScales.append(key.contentsScale)
      spriteSampling.append(key.sampling)
      spriteIndex[key] = i
      return i
    }
    func add(_ cell: EmitterCell, indexPath: [Int], parent: Int?, parentPath: String?) {
      let number = nodes.count
      let name = cell.name ?? "#\(indexPath.last!)"
      let path = parentPath.map { "\($0).\(name)" } ?? name
      var perSegment: [CellParameters] = []
      for (j, emitter) in emitters.enumerated() {
        let snapshot = Self.cell(at: indexPath, in: emitter)
        perSegment.append(
          CellParameters(
            cell: snapshot ?? cell, exists: snapshot != nil, layer: layers[j],
            sprite: sprite(snapshot)))
      }
      let key = CellNode.hash(path)
      // The birth kernels' parameters per segment: the top-level kernel's
      // (BirthBatch) and the sub-cells' (ChildBirthBatch, which reads
      // the emission angles and turns each lane's axis itself).
      let seed = effect.emitter.seed
      let birthSampling = perSegment.map {
        BirthBatch.sampling($0, basis: Emission.basis(axis: $0.axis), key: key, seed: seed)
      }
      let node = CellNode(
        number: number, path: path, parent: parent, children: [],
        key: key, parameters: perSegment, birthSampling: birthSampling,
        beginTime: cell.beginTime, duration: Self.activeDuration(cell), speed: Double(cell.speed),
        timeOffset: cell.timeOffset,
        schedule: Self.birthSchedule(
          segmentStarts: segmentStarts, parameters: perSegment,
          cellRates: emitters.map { Self.cell(at: indexPath, in: $0)?.birthRate ?? 0 }, speed: Double(cell.speed),
          indexPath: indexPath, animations: rateAnimations))
      nodes.append(node)
      nodes[number].behaviors = BehaviorProgram(
        behaviors: effect.emitter.emitterBehaviors.map { ($0, "emitterBehaviors.") }
          + cell.emitterBehaviors.map { ($0, Self.behaviorKeyPathPrefix(cellPath: path)) },
        changes: effect.changes,
        massMeans: perSegment.indices.map { Self.cell(at: indexPath, in: emitters[$0])?.mass ?? cell.mass },
        massRanges: perSegment.indices.map { Self.cell(at: indexPath, in: emitters[$0])?.massRange ?? cell.massRange },
        randomSeed: UInt64(seed) | UInt64(key) << 32)
      if let parent { nodes[parent].children.append(number) } else { roots.append(number) }
      for (i, sub) in cell.emitterCells.enumerated() {
        add(sub, indexPath: indexPath + [i], parent: number, parentPath: path)
      }
    }
    for (i, cell) in effect.emitter.emitterCells.enumerated() {
      add(cell, indexPath: [i], parent: nil, parentPath: nil)
    }
    // ParticleSystem rejects larger effects before building a tree.
    assert(nodes.count <= Effect.maximumCells, "an effect may have at most 255 cells in all")
    maximumLifetimes = nodes.map(\.maximumLifetime)
    maximumEmissionAges = nodes.map { n in
      guard let parent = n.parent else { return 0 }
      return n.window(origin: 0, parentLifetime: nodes[parent].maximumLifetime)?.end ?? 0
    }
  }

  /// The cell at `indexPath` (an index into the emitter's cells, then
  /// into that cell's sub-cells, …) of `emitter`; nil where a segment's
  /// emitter has no such cell.
  private static func cell(at indexPath: [Int], in emitter: Emitter) -> EmitterCell? {
    var cells = emitter.emitterCells
    var cell: EmitterCell?
    for i in indexPath {
      guard i < cells.count else { return nil }
      cell = cells[i]
      cells = cells[i].emitterCells
    }
    return cell
  }

  /// The segment whose stretch of the timeline contains `t`.
  func segment(at t: Double) -> Int {
    var lo = 0
    var hi = segmentStarts.count - 1
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if segmentStarts[mid] <= t { lo = mid } else { hi = mid - 1 }
    }
    return lo
  }

  /// A cell's active duration on its parent's timeline: CAMediaTiming's
  /// `duration` is measured on the cell's local clock, which runs `speed`
  /// times as fast, so the window lasts duration/speed (0: no end; a speed
  /// of 0 leaves the duration as is, since nothing is born then).
  static func activeDuration(_ cell: EmitterCell) -> Double {
    cell.duration > 0 && cell.speed > 0 ? cell.duration / Double(cell.speed) : cell.duration
  }

  /// The longest lifetime any particle of `node` can have, with a small
  /// relative margin so that it bounds every `Float` sample.
  func maximumLifetime(_ node: Int) -> Double { maximumLifetimes[node] }

  /// The largest parent age at which `node` (a sub-cell) can still emit: the
  /// end of its window on the longest-lived parent (0 for a top-level cell
  /// and when the window never opens).
  func maximumEmissionAge(_ node: Int) -> Double { maximumEmissionAges[node] }
}

/// One cell of the flattened tree.
struct CellNode: Sendable {
  var number: Int
  /// The key path without `emitterCells.` prefixes, e.g. `rocket.spark`.
  /// Unnamed cells are named `#i` by their index among their siblings.
  var path: String
  var parent: Int?
  var children: [Int]
  /// FNV-1a of `path`: the cell's part of the random key.
  var key: UInt32
  var parameters: [CellParameters]
  /// Per segment, the cell's ``parameters`` flattened for the birth
  /// kernels with the key and the emitter's seed
  /// (``BirthBatch/sampling(_:basis:key:seed:)``), made once here: per
  /// `advance(to:)`, zeroing, filling and copying the 880-byte struct is a
  /// large share of a small effect's step. A
  /// sub-cell's axis and basis fields are unused (its axis is per birth).
  var birthSampling: [sleet_birth_params]
  /// Activity window (on the emitter's timeline for top-level cells, on the
  /// parent's age for sub-cells), from the definition at time 0: it opens at
  /// `beginTime` and lasts `duration` (already divided by the cell's speed,
  /// see ``CellTree/activeDuration(_:)``; 0 = no end).
  var beginTime: Double
  var duration: Double
  /// The cell's own CAMediaTiming speed (definition at time 0): its birth
  /// rates in ``schedule`` are multiplied by it.
  var speed: Double
  /// The cell's CAMediaTiming `timeOffset` (definition at time 0): the phase
  /// of its emission clock when a window opens
  /// (``window(origin:parentLifetime:)``).
  var timeOffset: Double
  var schedule: BirthSchedule
  /// The behaviors acting on the cell's particles (the emitter's, then the
  /// cell's); nil when none does.
  var behaviors: BehaviorProgram? = nil

  /// ``exactMaximumLifetime`` with a relative margin of 10⁻⁵, far above the
  /// rounding of a `Float` sample (a few 10⁻⁷), so it bounds every sampled
  /// lifetime. Relative only: an absolute margin would make a cell of very
  /// short lifetimes (10⁻¹² s) enumerate a margin's worth of dead births.
  var maximumLifetime: Double { exactMaximumLifetime * (1 + 1e-5) }

  /// The largest lifetime in exact arithmetic (no margin), for peak bounds.
  var exactMaximumLifetime: Double {
    var m = 0.0
    // A segment inside a rate animation may give birth whatever the rate
    // its definition holds (the animation's end value).
    for (j, p) in parameters.enumerated() where p.birthRate > 0 || schedule.rates[j] > 0 || schedule.slopes[j] > 0 {
      let lo = Double(p.lifetime) - Double(abs(p.lifetimeRange)) / 2
      let hi = Double(p.lifetime) + Double(abs(p.lifetimeRange)) / 2
      m = Swift.max(m, lo * Double(p.lifetimeMultiplier), hi * Double(p.lifetimeMultiplier))
    }
    return m
  }

  /// 32-bit FNV-1a of the UTF-8 path.
  static func hash(_ path: String) -> UInt32 {
    var h: UInt32 = 0x811C_9DC5
    for byte in path.utf8 {
      h ^= UInt32(byte)
      h = h &* 0x0100_0193
    }
    return h
  }
}

/// Layer-level values of one segment.
struct LayerParameters: Sendable {
  var birthRate, lifetime, velocity, scale, spin: Float
  var position: SIMD3<Float>
  var size: SIMD2<Float>
  var depth: Float
  var shape: EmitterShape
  var mode: EmitterMode
  var renderMode: RenderMode
  var preservesDepth: Bool

  init(_ e: Emitter) {
    birthRate = e.birthRate
    lifetime = e.lifetime
    velocity = e.velocity
    scale = e.scale
    spin = e.spin
    position = SIMD3(e.emitterPosition.x, e.emitterPosition.y, e.emitterZPosition)
    size = e.emitterSize
    depth = e.emitterDepth
    shape = e.emitterShape
    mode = e.emitterMode
    renderMode = e.renderMode
    preservesDepth = e.preservesDepth
  }
}

/// A cell's values in one segment, with the layer's multipliers folded in
/// where Core Animation applies them at birth.
struct CellParameters: Sendable {
  var isEnabled: Bool
  /// cell.birthRate × layer.birthRate (0 when disabled or absent).
  var birthRate: Float
  var lifetime, lifetimeRange, lifetimeMultiplier: Float
  var velocity, velocityRange, velocityMultiplier: Float
  var halfAcceleration: SIMD3<Float>
  var latitude, longitude, emissionRange: Float
  var angles: EmissionAngles
  /// The cone axis for a top-level cell (from the shape's base direction).
  var axis: SIMD3<Float>
  var scale, scaleRange, scaleSpeed, scaleMultiplier: Float
  var spin, spinRange, spinMultiplier: Float
  var color, colorRange, colorSpeed: SIMD4<Float>
  var contentsRect: SIMD4<Float>
  var sprite: UInt32
  var layer: LayerParameters

  init(cell c: EmitterCell, exists: Bool, layer l: LayerParameters, sprite: UInt32) {
    isEnabled = exists && c.isEnabled
    let rate = c.birthRate * l.birthRate
    birthRate = isEnabled && rate.isFinite && rate > 0 ? rate : 0
    lifetime = c.lifetime
    lifetimeRange = c.lifetimeRange
    lifetimeMultiplier = l.lifetime
    velocity = c.velocity
    velocityRange = c.velocityRange
    velocityMultiplier = l.velocity
    halfAcceleration = SIMD3(c.xAcceleration, c.yAcceleration, c.zAcceleration) * 0.5
    latitude = c.emissionLatitude
    longitude = c.emissionLongitude
    emissionRange = c.emissionRange
    angles = EmissionAngles(longitude: c.emissionLongitude, latitude: c.emissionLatitude, range: c.emissionRange)
    axis = Emission.axis(base: Emission.baseDirection(l.shape), angles: angles)
    scale = c.scale
    scaleRange = c.scaleRange
    scaleSpeed = c.scaleSpeed
    scaleMultiplier = l.scale
    spin = c.spin
    spinRange = c.spinRange
    spinMultiplier = l.spin
    color = c.color.vector
    colorRange = SIMD4(c.redRange, c.greenRange, c.blueRange, c.alphaRange)
    colorSpeed = SIMD4(c.redSpeed, c.greenSpeed, c.blueSpeed, c.alphaSpeed)
    contentsRect = c.contentsRect
    self.sprite = sprite
    layer = l
  }
}
