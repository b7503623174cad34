import SleetParticles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// File-scope wrapper: inside `AtomicFile`, `read` names its own method.
private func _systemRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(fd, bytes, count)
}

/// Whole-file reads, and all-or-nothing writes through the package's one
/// atomic writer, ``SleetParticles/FileOutput/atomicWrite(_:to:)``.
///
/// A write goes to a temporary file in the destination's folder (so the final
/// `rename(2)` stays on one file system and is atomic), is flushed, and is
/// renamed over the destination only when every byte is written and the file
/// is closed. On any failure the temporary file is removed and the destination
/// is untouched: readers see either the old file or the complete new one.
internal enum AtomicFile {
  /// Writes `bytes` to `path` through a temporary sibling and a rename.
  /// - Throws: ``ImageFileError/cannotWrite(path:reason:)`` naming `path`,
  ///   with `FileOutput`'s reason (the failed step and the system's message).
  /// - Complexity: O(bytes.count).
  static func write(_ bytes: [UInt8], to path: String) throws(ImageFileError) {
    do throws(FileOutputError) {
      try FileOutput.atomicWrite(bytes, to: path)
    } catch {
      throw .cannotWrite(path: path, reason: error.reason)
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

  private static func _errorMessage() -> String {
    String(cString: strerror(errno))
  }
}
