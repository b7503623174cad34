#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why an input file could not be read.
package enum InputFileError: Error, Hashable, Sendable {
  /// It could not be opened or read; `reason` is the system's message
  /// ("No such file or directory", "Is a directory", …).
  case unreadable(reason: String)
  /// It holds more than `limit` bytes (only the first `limit` + 1 were read).
  case tooLarge(limit: Int)

  /// "No such file or directory", "larger than 16 MiB (the limit for …)".
  package func reason(kind: String) -> String {
    switch self {
    case .unreadable(let reason): reason
    case .tooLarge(let limit):
      "larger than \(SleetLimits.byteText(limit)), the limit for \(kind) (SleetLimits)"
    }
  }
}

/// Whole-file reads of untrusted inputs, never more than a limit: the one
/// reader of effect files, gesture files and PNG files. A folder, a device
/// that never ends (`/dev/zero`) or a file larger than the limit is an
/// error, not an unbounded allocation.
package enum InputFile {
  /// The contents of `path`, at most `limit` bytes.
  /// - Throws: ``InputFileError/unreadable(reason:)`` with the system's
  ///   message (a folder gives "Is a directory"), or
  ///   ``InputFileError/tooLarge(limit:)`` after reading `limit` + 1 bytes.
  /// - Complexity: O(min(file size, limit)).
  package static func read(_ path: String, limit: Int) throws(InputFileError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .unreadable(reason: systemMessage()) }
    defer { close(fd) }
    var info = stat()
    if fstat(fd, &info) == 0 {
      if (info.st_mode & S_IFMT) == S_IFDIR { throw .unreadable(reason: String(cString: strerror(EISDIR))) }
      // A regular file announces its size: refuse before reading.
      if (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_size) > limit { throw .tooLarge(limit: limit) }
    }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      // One byte past the limit tells a file at the limit from a larger one.
      let wanted = Swift.min(chunk.count, limit + 1 - result.count)
      let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, wanted) }
      if n < 0 {
        if errno == EINTR { continue }
        throw .unreadable(reason: systemMessage())
      }
      if n == 0 { return result }
      result.append(contentsOf: chunk[0..<n])
      if result.count > limit { throw .tooLarge(limit: limit) }
    }
  }

  private static func systemMessage() -> String { String(cString: strerror(errno)) }
}

// File scope: inside `InputFile`, `read` names its own method.
private func systemRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(fd, bytes, count)
}
