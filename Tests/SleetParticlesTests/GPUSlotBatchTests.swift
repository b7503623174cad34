import SleetMath
import Testing

@testable import SleetParticles

/// The births-only stream's batch kernel,
/// ``BirthBatch/writeAliveSlots(times:count:at:node:constantsRow:to:)``,
/// against its scalar twin: per lane, the record (``BirthBatch/record(_:_:node:birthTime:)``),
/// its alive test and `GPUBirthSlot(record, constantsRow:)`, compared as the
/// slots' 96 bytes.
@Suite("GPU slot batch kernel equals the per-record slots")
struct GPUSlotBatchTests {
  /// The slots a batch gives the scalar way: alive lanes among the first
  /// `count`, in lane order.
  static func scalarSlots(
    _ batch: BirthBatch, _ p: CellParameters, times: SIMD8<Double>, count: Int, at t: Double, node: Int,
    row: UInt32
  ) -> [GPUBirthSlot] {
    (0..<count).compactMap { l in
      let r = batch.record(l, p, node: node, birthTime: times[l])
      return r.isAlive(at: t) ? GPUBirthSlot(r, constantsRow: row) : nil
    }
  }

  static func kernelSlots(
    _ batch: BirthBatch, times: SIMD8<Double>, count: Int, at t: Double, node: Int, row: UInt32
  ) -> [GPUBirthSlot] {
    withUnsafeTemporaryAllocation(of: GPUBirthSlot.self, capacity: 8) { buffer in
      let n = batch.writeAliveSlots(
        times: times, count: count, at: t, node: node, constantsRow: row, to: buffer.baseAddress!)
      return Array(buffer.prefix(n))
    }
  }

  /// The slots' bytes (`==` on `Float` fields would equate −0 and 0).
  static func bytes(_ slots: [GPUBirthSlot]) -> [UInt8] {
    slots.withUnsafeBytes { Array($0) }
  }

  /// Birth times over many magnitudes and signs (−0, subnormal, around the
  /// lifetimes, large), so that `b + l` is sometimes already the first dead
  /// time and sometimes not (the scalar search's two directions), and lanes
  /// are dead before birth, alive, or dead after.
  static func times(_ random: inout SplitMix64) -> SIMD8<Double> {
    var out = SIMD8<Double>()
    for l in 0..<8 {
      let magnitude = [0, 1e-300, 0.37, 1.1, 3, 17.25, 1e4, 3.7e7][Int(random.next() % 8)]
      let sign: Double = random.next() % 5 == 0 ? -1 : 1
      out[l] = magnitude == 0 ? -0.0 : sign * magnitude * (1 + Double(random.next() % 1_000_000) / 1e6)
    }
    return out
  }

  @Test func everyLaneEqualsTheScalarSlot() throws {
    var random = SplitMix64(state: 0x6B1A_5107)
    var alive = 0
    var dead = 0
    for effect in BirthBatchTests.effects().prefix(8) {
      let tree = CellTree(effect: effect)
      for node in tree.nodes.indices {
        let p = tree.nodes[node].parameters[0]
        let basis = Emission.basis(axis: p.axis)
        for first in [0, 5, 1 << 20, (1 << 32) - 3, (1 << 56) - 8] {
          let batch = BirthBatch(p, basis: basis, key: tree.nodes[node].key, seed: effect.emitter.seed, first: first)
          for round in 0..<24 {
            let times = Self.times(&random)
            // Evaluation times at, just after and around the lanes' births,
            // and between birth and death.
            let l = round % 8
            let life = Double(Swift.max(0, batch.lifetime[l]))
            for t in [times[l], times[l].nextUp, times[l] + life / 2, times[l] + life, times[l] - 1, 2.5] {
              let count = 1 + (round + first) % 8
              let row = UInt32(node * 3 + round % 3)
              let expected = Self.scalarSlots(batch, p, times: times, count: count, at: t, node: node, row: row)
              let got = Self.kernelSlots(batch, times: times, count: count, at: t, node: node, row: row)
              #expect(Self.bytes(got) == Self.bytes(expected), "node \(node), first \(first), t \(t)")
              alive += expected.count
              dead += count - expected.count
            }
          }
        }
      }
    }
    // Both outcomes, many times over.
    #expect(alive > 10_000 && dead > 10_000)
  }

  /// Death times where `b + l` rounds below and above the first dead time:
  /// the lanes whose vector guess is refused take the scalar search.
  @Test func deathTimesNeedingTheUlpSearchEqualTheScalarSlot() throws {
    let effect = BirthBatchTests.effects()[0]
    let tree = CellTree(effect: effect)
    let p = tree.nodes[0].parameters[0]
    let batch = BirthBatch(p, basis: Emission.basis(axis: p.axis), key: tree.nodes[0].key, seed: 7, first: 64)
    var searched = 0
    for scale in [0.1, 0.3, 0.7, 1.9, 1e3, 1e9] {
      var times = SIMD8<Double>()
      for l in 0..<8 { times[l] = scale * Double(l + 1) / 7 }
      for l in 0..<8 where batch.lifetime[l] > 0 {
        let b = times[l]
        let guess = b + Double(batch.lifetime[l])
        if GPUBirthSlot.firstDeadTime(birthTime: b, lifetime: batch.lifetime[l]) != guess { searched += 1 }
      }
      let got = Self.kernelSlots(batch, times: times, count: 8, at: times[0], node: 0, row: 0)
      let expected = Self.scalarSlots(batch, p, times: times, count: 8, at: times[0], node: 0, row: 0)
      #expect(Self.bytes(got) == Self.bytes(expected))
    }
    #expect(searched > 0, "no lane needed the search: the inputs do not test it")
  }

  /// Through ``ParticleSystem/appendAliveBirthSlots(after:at:into:records:)``'s
  /// one-cell path: the segmented one-cell effect of `BatchedAppendTests`
  /// (timed changes of rate, velocity, shape and lifetime range, a pause),
  /// steps of every size, against the per-record slots of the same births.
  @Test func oneCellStreamSlotsEqualThePerRecordSlots() throws {
    let effect = try #require(try BatchedAppendTests.effects().first { $0.0 == "segmented" }).1
    let system = try ParticleSystem(effect: effect)
    #expect(system.tree.nodes.count == 1 && system.tree.segmentStarts.count > 1)
    var compared = 0
    let steps: [(previous: Double?, t: Double)] = [
      (nil, 0.05), (0.0, 0.1013), (0.1, 0.26), (0.25, 0.2571), (nil, 0.4), (0.3, 1.7), (0.41, 0.42), (0.8, 1.3),
    ]
    for (previous, t) in steps {
      var slots: [GPUBirthSlot] = []
      var records: [BirthRecord] = []
      system.appendAliveBirthSlots(after: previous, at: t, into: &slots, records: &records)
      var expected: [GPUBirthSlot] = []
      let lo = Swift.max(previous ?? -.infinity, t - system.tree.maximumLifetime(0))
      system.births.forEachTopLevelBirth(node: 0, after: lo, through: t) { r in
        if r.isAlive(at: t) {
          expected.append(GPUBirthSlot(r, constantsRow: system.tree.constantsIndex(cell: 0, birthTime: r.birthTime)))
        }
      }
      #expect(Self.bytes(slots) == Self.bytes(expected), "after \(String(describing: previous)) at \(t)")
      compared += expected.count
    }
    #expect(compared > 200)
  }
}
