import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The temporary files of live ``AtomicFileWriter``s, for a signal handler
/// to remove when SIGINT or SIGTERM ends the process before they are
/// committed or discarded (``installSignalCleanup()``).
///
/// The handler may only call async-signal-safe functions, so it never
/// allocates or locks: the table is allocated once, each slot a path buffer
/// and a state word, and the handler reads the live slots and calls
/// `unlink` on each. Registering and unregistering (on ordinary threads) take
/// a lock and copy the path into a free slot before marking it live; a path
/// longer than a slot, or more live files than ``slotCount``, is left out
/// (the file is then removed only by the writer itself).
package enum TemporaryFiles {
  /// The most temporaries tracked at once (a render writes a few at a time).
  package static let slotCount = 64
  /// Bytes of one slot's path buffer, its terminating NUL included.
  package static let slotBytes = Int(PATH_MAX)

  /// Per slot: 0 free, 1 live.
  nonisolated(unsafe) private static let states: UnsafeMutablePointer<Int> = {
    let p = UnsafeMutablePointer<Int>.allocate(capacity: slotCount)
    p.initialize(repeating: 0, count: slotCount)
    return p
  }()
  /// The path buffers, ``slotBytes`` each.
  nonisolated(unsafe) private static let paths: UnsafeMutablePointer<CChar> = {
    let p = UnsafeMutablePointer<CChar>.allocate(capacity: slotCount * slotBytes)
    p.initialize(repeating: 0, count: slotCount * slotBytes)
    return p
  }()
  private static let lock = Mutex(())

  /// Tracks `path`; returns its slot for ``unregister(_:)``, or nil when it
  /// is not tracked (no free slot, or too long a path).
  package static func register(_ path: String) -> Int? {
    let bytes = Array(path.utf8)
    guard bytes.count < slotBytes else { return nil }
    // Both buffers exist before any slot is live (the handler reads them).
    let (states, paths) = (states, paths)
    return lock.withLock { _ -> Int? in
      guard let slot = (0..<slotCount).first(where: { states[$0] == 0 }) else { return nil }
      let buffer = paths + slot * slotBytes
      for (i, byte) in bytes.enumerated() { buffer[i] = CChar(bitPattern: byte) }
      buffer[bytes.count] = 0
      states[slot] = 1
      return slot
    }
  }

  /// Stops tracking the file of `slot` (committed or removed).
  package static func unregister(_ slot: Int) {
    lock.withLock { _ in states[slot] = 0 }
  }

  /// The paths tracked now (for tests).
  package static var live: [String] {
    lock.withLock { _ in
      (0..<slotCount).filter { states[$0] != 0 }.map { String(cString: paths + $0 * slotBytes) }
    }
  }

  /// Installs a handler for SIGINT and SIGTERM that removes every tracked
  /// temporary, then ends the process by the same signal (default action,
  /// re-raised), so the shell sees the usual status (130 for Ctrl-C).
  package static func installSignalCleanup() {
    _ = states
    _ = paths
    for number in [SIGINT, SIGTERM] {
      var action = sigaction()
      #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = removeAndReraise
      #else
        action.__sigaction_u.__sa_handler = removeAndReraise
      #endif
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      sigaction(number, &action, nil)
    }
  }
}

/// The signal handler: only `unlink`, `signal` and `raise` (all
/// async-signal-safe), over memory allocated before it was installed.
private func removeAndReraise(_ number: Int32) {
  TemporaryFiles.removeLive()
  _ = signal(number, SIG_DFL)
  raise(number)
}

extension TemporaryFiles {
  /// Unlinks every live slot's path, without locking or allocating.
  fileprivate static func removeLive() {
    for slot in 0..<slotCount where states[slot] != 0 {
      unlink(paths + slot * slotBytes)
    }
  }
}
