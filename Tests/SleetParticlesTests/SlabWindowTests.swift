import Foundation
import Testing

@testable import SleetParticles

/// The store's window over its slab (``ParticleStore/reserve(_:)``): the
/// window moves forward as the oldest blocks die, and moving it back to the
/// slab's start, or to a larger slab, copies every stored block. A steady
/// effect must do that rarely, whatever its count is next to the slab's
/// capacity: each move leaves a quarter of the slab free.
@Suite("Slab window: rare moves in a steady effect")
struct SlabWindowTests {
  /// Counts just under a power of two (the slab grew to 1024 for 1000
  /// particles and was reallocated at the same size every few frames), and
  /// one far from it.
  @Test(arguments: [1_000, 2_040, 4_090, 3_000])
  func steadyEffectRarelyMovesTheSlab(liveParticles: Int) {
    let system = try! ParticleSystem(
      effect: ParticleSystem.steadyStateEffect(liveParticles: liveParticles, lifetime: 3.5))
    var t = 10.0
    system.seek(to: t)
    for _ in 0..<600 {
      t += 1.0 / 60
      system.advance(to: t)
    }
    let movesBefore = system.store.slabMoves
    let capacityBefore = system.store.capacity
    var largestCount = 0
    for _ in 0..<1_200 {
      t += 1.0 / 60
      system.advance(to: t)
      largestCount = max(largestCount, system.store.count)
    }
    // 20 s of births is about 5.7 lifetimes of particles through a window
    // that moves a quarter of the slab between moves: about 23 moves at
    // most; every frame or few would be hundreds.
    let moves = system.store.slabMoves - movesBefore
    #expect(moves <= 30, "\(liveParticles) live: \(moves) slab moves in 1200 steps")
    #expect(system.store.capacity == capacityBefore, "the slab grew in a steady state")
    #expect(system.store.capacity <= 2 * largestCount + 16, "slab of \(system.store.capacity) for \(largestCount)")
  }

  /// The store alone: when the window of a nearly full slab no longer
  /// fits, `reserve` moves it and leaves a quarter free (the slab of 1024
  /// was reallocated at 1024 for 1001 particles), keeping the stored blocks.
  @Test func reserveLeavesAQuarterFreeWhenItMoves() {
    let effect = ParticleSystem.steadyStateEffect(liveParticles: 2_000, lifetime: 2)
    let records = sampleBirths(effect, count: 1_000)
    let tree = CellTree(effect: effect)
    let store = ParticleStore(constants: tree.makeConstantsTable(), capacity: 1_024)
    for r in records { store.append(r, constantsIndex: tree.constantsIndex(cell: r.cell, birthTime: r.birthTime)) }
    #expect(store.capacity == 1_024 && store.slabMoves == 0)
    let ids = (24..<store.count).map { store.id($0) }
    let bounds = (3..<store.blockCount).map { store.surelyAliveBound(block: $0) }
    let times = (24..<store.count).map { store.birthTime($0) }
    store.removeFirstBlocks(3)
    store.reserve(1_001)  // 3 blocks in: no longer fits
    #expect(store.slabMoves == 1)
    #expect(1_001 <= store.capacity - store.capacity / 4, "capacity \(store.capacity)")
    #expect(store.capacity % 8 == 0)
    #expect((0..<store.count).map { store.id($0) } == ids)
    #expect((0..<store.blockCount).map { store.surelyAliveBound(block: $0) } == bounds)
    #expect((0..<store.count).map { store.birthTime($0) } == times)
  }
}
