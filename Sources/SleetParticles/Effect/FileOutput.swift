#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a file could not be written: the path and the system's reason.
public struct FileOutputError: Error, Hashable, Sendable, CustomStringConvertible {
  public var path: String
  public var reason: String

  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  public var description: String { "cannot write '\(path)': \(reason)" }
}

/// Writing files so that no reader ever sees a partial one.
public enum FileOutput {
  /// Writes `bytes` to a new temporary file beside `path` (same folder, so
  /// the rename stays on one file system), flushes it, and renames it over
  /// `path`. On failure the temporary file is removed and `path` is left as
  /// it was.
  /// - Complexity: O(n) bytes written.
  public static func atomicWrite(_ bytes: [UInt8], to path: String) throws(FileOutputError) {
    func failure(_ what: String) -> FileOutputError {
      FileOutputError(path: path, reason: "\(what): \(String(cString: strerror(errno)))")
    }
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[..<$0]) } ?? "."
    let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var template = Array("\(folder.isEmpty ? "/" : folder)/.\(base).tmp-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw failure("cannot create a temporary file") }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var written = 0
    while written < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
      if n < 0 {
        if errno == EINTR { continue }
        let error = failure("write failed")
        close(fd)
        unlink(temporary)
        throw error
      }
      written += n
    }
    // Readable by everyone, like a file created with the usual umask 022.
    fchmod(fd, 0o644)
    let synced = fsync(fd)
    let closed = close(fd)
    if synced != 0 || closed != 0 {
      let error = failure("flush failed")
      unlink(temporary)
      throw error
    }
    guard rename(temporary, path) == 0 else {
      let error = failure("rename failed")
      unlink(temporary)
      throw error
    }
  }
}
