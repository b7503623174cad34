import SleetMath
import SleetParticles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// All-or-nothing writes through the package's one atomic writer,
/// SleetMath's `FileOutput.atomicWrite(_:to:)`, with its error as an
/// ``ImageFileError``. (Reads go through SleetMath's `InputFile`, which
/// bounds them: ``PNGFile/read(path:)``.)
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
}
