import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// File-scope wrappers: inside `AtomicFile`, `write`/`read` name its own methods.
private func _systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, bytes, count)
}

private func _systemRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(fd, bytes, count)
}

/// Whole-file reads and all-or-nothing writes with POSIX calls.
///
/// A write goes to a temporary file in the destination's folder (so the final
/// `rename(2)` stays on one file system and is atomic), and is renamed over the
/// destination only when every byte is written and the file is closed. On any
/// failure the temporary file is removed and the destination is untouched:
/// readers see either the old file or the complete new one. (Durability across
/// power loss would also need `fsync`; a preview tool does not pay for it.)
internal enum AtomicFile {
  /// Writes `bytes` to `path` through a temporary sibling and a rename.
  /// - Throws: ``ImageFileError/cannotWrite(path:reason:)`` naming `path`.
  /// - Complexity: O(bytes.count).
  static func write(_ bytes: [UInt8], to path: String) throws(ImageFileError) {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    guard !name.isEmpty else { throw .cannotWrite(path: path, reason: "path names a folder") }
    let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(name).tmp-\(getpid())-\(_nextToken())"

    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw .cannotWrite(path: path, reason: _errorMessage()) }
    var failure: String?
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let n = _systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          failure = _errorMessage()
          return
        }
        offset += n
      }
    }
    if close(fd) != 0 && failure == nil { failure = _errorMessage() }
    if failure == nil && rename(temporary, path) != 0 { failure = _errorMessage() }
    if let failure {
      unlink(temporary)
      throw .cannotWrite(path: path, reason: failure)
    }
  }

  /// The whole contents of `path`.
  /// - Throws: ``ImageFileError/cannotRead(path:reason:)`` naming `path`.
  /// - Complexity: O(file size).
  static func read(path: String) throws(ImageFileError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .cannotRead(path: path, reason: _errorMessage()) }
    defer { close(fd) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { _systemRead(fd, $0.baseAddress!, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw .cannotRead(path: path, reason: _errorMessage())
      }
      if n == 0 { return result }
      result.append(contentsOf: chunk[0..<n])
    }
  }

  private static let _counter = _AtomicCounter()

  private static func _nextToken() -> Int { _counter.next() }

  private static func _errorMessage() -> String {
    String(cString: strerror(errno))
  }
}

/// A process-wide counter that makes temporary names unique between threads.
private final class _AtomicCounter: Sendable {
  private let value = Atomic<Int>(0)
  func next() -> Int { value.add(1, ordering: .relaxed).newValue }
}
