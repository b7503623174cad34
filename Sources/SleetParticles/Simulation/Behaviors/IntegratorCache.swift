import Synchronization

/// The last grid point each integrated particle reached, so a frame after a
/// frame integrates only the steps between them: per particle id, the
/// segment of its life (between breakpoints) and the grid point in it, with
/// the position and velocity there.
///
/// Resuming from a stored grid point gives the bits of integrating from
/// birth (``FixedStepIntegrator/resume(from:position:velocity:age:step:acceleration:)``
/// is a pure function of the grid point's state, which is itself a pure
/// function of the birth), so the cache changes costs, never results:
/// seeking, stepping, any thread count and any frame order give the same
/// bits. A frame's lanes are evaluated on several threads: the table is
/// behind a mutex, held to read or write one entry (and, every 4,096 new
/// entries, to drop the dead).
final class IntegratorCache: Sendable {
  struct Checkpoint: Sendable {
    /// Which segment of the particle's life: 0 from birth, i after the
    /// i-th breakpoint in its life.
    var segment: Int
    /// The grid point in that segment (age from the segment's start = k·h).
    var gridPoint: Int
    var position: SIMD3<Double>
    var velocity: SIMD3<Double>
    /// The particle's birth time: a sub-particle's id is a 56-bit hash, so
    /// an entry is used only by the particle born at this time.
    var birthTime: Double
    /// The particle's birth time + lifetime: after it the entry is dropped.
    var deathTime: Double
  }

  private struct Table {
    var entries: [UInt64: Checkpoint] = [:]
    /// The count after the last sweep of the dead.
    var swept = 0
  }

  private let table = Mutex(Table())
  private let enabled = Atomic<Bool>(true)

  /// Whether checkpoints are read and stored (`PathOverrides.integratorCache`);
  /// turning it off forgets them.
  var isEnabled: Bool {
    get { enabled.load(ordering: .relaxed) }
    set {
      enabled.store(newValue, ordering: .relaxed)
      if !newValue { table.withLock { $0 = Table() } }
    }
  }

  /// The checkpoint of particle `id`, if any.
  func checkpoint(for id: UInt64) -> Checkpoint? {
    guard isEnabled else { return nil }
    return table.withLock { $0.entries[id] }
  }

  /// Records `checkpoint` for particle `id`, at emitter time `time`. When
  /// the table has grown by 4,096 since the last sweep, the entries of
  /// particles dead at `time` are dropped, so it holds about the live
  /// integrated particles.
  /// - Complexity: amortised O(1).
  func store(_ checkpoint: Checkpoint, for id: UInt64, at time: Double) {
    guard isEnabled else { return }
    table.withLock { t in
      t.entries[id] = checkpoint
      if t.entries.count >= t.swept + 4096 {
        t.entries = t.entries.filter { $0.value.deathTime > time }
        t.swept = t.entries.count
      }
    }
  }
}
