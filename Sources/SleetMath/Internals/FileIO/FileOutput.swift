#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a file could not be written: the path and the system's reason.
public struct FileOutputError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file that could not be written, as given.
  public var path: String
  /// The system's reason (`strerror`), e.g. "No space left on device".
  public var reason: String

  /// An error for `path` with the system's reason.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  public var description: String { "cannot write '\(path)': \(reason)" }
}

/// Writing files so that no reader ever sees a partial one: the package's one
/// writer of files (effect files, images, animations, the CLI's outputs), as
/// ``InputFile`` is its one reader. Package access: the public API writes
/// through it (`Effect.writeJSON(toFile:)`, `PNGFile.write(_:to:)`, the
/// animation writers) and reports its ``FileOutputError``.
///
/// Every write goes to a temporary sibling named `.NAME.tmp-PID-XXXXXX` (a
/// hidden file in the destination's folder, so the final `rename(2)` stays on
/// one file system and is atomic; PID is the writing process), and is renamed
/// over `NAME` only when every byte is written and flushed. A process killed
/// mid-write leaves its temporary file behind, never a partial `NAME`;
/// ``removeStaleTemporaries(inFolder:for:)`` removes those whose process is
/// gone.
package enum FileOutput {
  /// Writes `bytes` to a new temporary file beside `path`, flushes it, and
  /// renames it over `path`. On failure the temporary file is removed and
  /// `path` is left as it was.
  /// - Complexity: O(n) bytes written.
  package static func atomicWrite(_ bytes: [UInt8], to path: String) throws(FileOutputError) {
    let file = try AtomicFileWriter(path: path)
    try file.write(bytes)
    try file.commit()
  }

  /// The folder and the name of `path` (the folder `"."` for a bare name,
  /// `"/"` for a name in the root folder).
  package static func split(_ path: String) -> (folder: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let folder = String(path[..<slash])
    return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
  }

  /// The name a temporary file for `name` has, up to its unique suffix:
  /// `.NAME.tmp-PID-`.
  static func temporaryPrefix(for name: String, pid: Int32 = getpid()) -> String {
    ".\(name).tmp-\(pid)-"
  }

  /// The destination name and writer's process id of a temporary file name,
  /// or nil when `entry` is not one (`.NAME.tmp-PID-XXXXXX`).
  package static func parseTemporaryName(_ entry: String) -> (name: String, pid: Int32)? {
    // The suffix after the last ".tmp-" is "PID-XXXXXX".
    let bytes = Array(entry.utf8)
    let marker = Array(".tmp-".utf8)
    guard bytes.first == UInt8(ascii: "."), bytes.count > marker.count + 1 else { return nil }
    guard
      let start = (1...(bytes.count - marker.count)).reversed().first(where: {
        bytes[$0..<$0 + marker.count].elementsEqual(marker)
      })
    else { return nil }
    let rest = bytes[(start + marker.count)...].split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
    guard start > 1, rest.count == 2, rest[1].count == 6,
      let pid = Int32(String(decoding: rest[0], as: UTF8.self)), pid > 0
    else { return nil }
    return (String(decoding: bytes[1..<start], as: UTF8.self), pid)
  }

  /// Removes the temporary files in `folder` left by writers that no longer
  /// run (killed mid-write), for destination names `matches` accepts. Files
  /// of live processes (another `sleet` writing there) are kept.
  /// - Returns: how many files were removed.
  /// - Complexity: O(entries in the folder).
  @discardableResult
  package static func removeStaleTemporaries(inFolder folder: String, for matches: (String) -> Bool) -> Int {
    var stale: [String] = []
    for entryName in entryNames(inFolder: folder) ?? [] {
      guard let (name, pid) = parseTemporaryName(entryName), matches(name) else { continue }
      // kill(pid, 0) fails with ESRCH only when no such process exists.
      if kill(pid, 0) != 0 && errno == ESRCH { stale.append(entryName) }
    }
    return stale.filter { unlink(folder + "/" + $0) == 0 }.count
  }

  /// The names in `folder`, without `.` and `..`, in directory order; nil
  /// when it cannot be opened (errno set).
  ///
  /// Each name is read from its `dirent` up to its NUL, never as the whole
  /// 256-byte `d_name` array: glibc packs records by `d_reclen`, so the last
  /// record of a buffer can end right after its name, and copying all of
  /// `d_name` would read past the allocation (docs/reliability.md, F6).
  package static func entryNames(inFolder folder: String) -> [String]? {
    guard let dir = opendir(folder) else { return nil }
    defer { closedir(dir) }
    let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }
}

/// A file written in pieces through a temporary sibling (see ``FileOutput``)
/// and renamed into place by ``commit()``: until then the destination is
/// untouched, and a writer released without committing removes its temporary
/// file. For a file too large to build in memory first (an animation written
/// frame by frame).
///
/// Not thread-safe: one thread writes.
package final class AtomicFileWriter {
  /// The destination.
  package let path: String
  /// The temporary file the bytes go to until ``commit()``.
  package let temporaryPath: String
  private var descriptor: Int32
  /// Its slot in ``TemporaryFiles`` (removed on SIGINT and SIGTERM), if any.
  private let cleanupSlot: Int?
  /// Bytes written so far (the offset of the next ``write(_:)``).
  package private(set) var count = 0

  /// Creates the temporary file beside `path` (readable by everyone, like a
  /// file created with the usual umask 022).
  /// - Throws: ``FileOutputError`` naming `path` when the folder is missing
  ///   or not writable.
  package init(path: String) throws(FileOutputError) {
    self.path = path
    let (folder, name) = FileOutput.split(path)
    var template = Array("\(folder)/\(FileOutput.temporaryPrefix(for: name))XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else {
      throw FileOutputError(path: path, reason: "cannot create a temporary file: \(String(cString: strerror(errno)))")
    }
    descriptor = fd
    temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    cleanupSlot = TemporaryFiles.register(temporaryPath)
    fchmod(fd, 0o644)
  }

  deinit { discard() }

  private func failure(_ what: String) -> FileOutputError {
    FileOutputError(path: path, reason: "\(what): \(String(cString: strerror(errno)))")
  }

  /// Appends `bytes`. On failure the temporary file is removed (the writer
  /// is then unusable) and the destination is untouched.
  /// - Complexity: O(bytes.count).
  package func write(_ bytes: [UInt8]) throws(FileOutputError) {
    try write(bytes, at: count)
    count += bytes.count
  }

  /// Overwrites `bytes.count` bytes at `offset` (at most ``count``), e.g. to
  /// fix up a header once the rest is known.
  /// - Precondition: `offset + bytes.count <= count` unless appending at `count`.
  package func write(_ bytes: [UInt8], at offset: Int) throws(FileOutputError) {
    precondition(descriptor >= 0, "AtomicFileWriter: already committed or discarded")
    precondition(offset >= 0 && offset <= count, "AtomicFileWriter: offset \(offset) past the end (\(count))")
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes {
        pwrite(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset + done))
      }
      if n < 0 {
        if errno == EINTR { continue }
        let error = failure("write failed")
        discard()
        throw error
      }
      done += n
    }
  }

  /// Flushes the file to disk, closes it and renames it over ``path``.
  /// - Throws: ``FileOutputError`` (the temporary file is then removed).
  package func commit() throws(FileOutputError) {
    precondition(descriptor >= 0, "AtomicFileWriter: already committed or discarded")
    let synced = fsync(descriptor)
    var error = synced != 0 ? failure("flush failed") : nil
    if close(descriptor) != 0 && error == nil { error = failure("flush failed") }
    descriptor = -1
    if error == nil && rename(temporaryPath, path) != 0 { error = failure("rename failed") }
    if error != nil { unlink(temporaryPath) }
    if let cleanupSlot { TemporaryFiles.unregister(cleanupSlot) }
    if let error { throw error }
  }

  /// Closes and removes the temporary file; the destination is untouched.
  /// Does nothing after ``commit()``.
  package func discard() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
    unlink(temporaryPath)
    if let cleanupSlot { TemporaryFiles.unregister(cleanupSlot) }
  }
}
