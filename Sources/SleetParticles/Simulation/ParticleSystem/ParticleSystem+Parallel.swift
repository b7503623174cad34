import Dispatch
import Synchronization

extension ParticleSystem {
  /// Runs `body(c)` exactly once for every chunk `c`, on up to `threads`
  /// workers. Workers claim the next unclaimed chunk from a shared atomic
  /// counter, so a worker whose core is busy (a shared machine) takes fewer
  /// chunks instead of holding the frame back; each chunk's result depends
  /// only on `c`, so which worker ran it never shows in the output.
  static func parallel(chunks: Int, threads: Int, _ body: @Sendable (Int) -> Void) {
    if threads <= 1 || chunks <= 1 {
      for c in 0..<chunks { body(c) }
      return
    }
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: Swift.min(threads, chunks)) { _ in
      while true {
        let c = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard c < chunks else { return }
        body(c)
      }
    }
  }
}

/// A value crossing into worker closures whose safety the caller guarantees
/// (disjoint writes, read-only shared data).
struct UncheckedSendable<T>: @unchecked Sendable {
  var value: T
  init(_ value: T) { self.value = value }
}
