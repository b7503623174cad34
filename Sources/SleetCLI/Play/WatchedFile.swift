#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file's identity and modification stamp: what `sleet play --watch`
/// compares to see an edit (polling `stat`, which every file system and
/// every way of saving a file updates: in place, or a new file renamed over
/// the old one).
struct FileStamp: Equatable, Sendable {
  var device: UInt64
  var inode: UInt64
  var size: Int64
  var modifiedSeconds: Int
  var modifiedNanoseconds: Int

  /// The stamp of `path` now, nil when it cannot be read (a file being
  /// replaced can be missing for a moment).
  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    modifiedSeconds = Int(info.st_mtim.tv_sec)
    modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
  }
}

/// The scene of `sleet play`, reloaded when its file changes (`--watch`):
/// a reload that fails keeps the last good scene and records the error;
/// the next change that loads clears it.
final class WatchedScene {
  /// The scene shown: the last one that loaded.
  private(set) var scene: any PlayScene
  /// Why the file's current contents do not load, nil when they do.
  private(set) var error: String?
  let path: String
  private var stamp: FileStamp?
  private let load: (_ time: Double) throws(CommandError) -> any PlayScene

  /// What a poll found.
  enum Outcome: Equatable {
    /// The file changed and loaded: ``scene`` is the new one.
    case reloaded
    /// The file changed and does not load: ``scene`` is still the last good
    /// one, ``error`` says why.
    case failed(String)
  }

  /// Watches `path`, whose contents `scene` was loaded from; `load` loads
  /// it again (checked for the time shown).
  init(
    path: String, scene: any PlayScene, load: @escaping (_ time: Double) throws(CommandError) -> any PlayScene
  ) {
    self.path = path
    self.scene = scene
    self.load = load
    stamp = FileStamp(path: path)
  }

  /// Reloads the file when its stamp changed since the last poll; nil when
  /// it did not (or the file is missing for now: an editor that replaces it
  /// leaves it missing for a moment, and the next poll sees the new one).
  func poll(time: Double) -> Outcome? {
    guard let now = FileStamp(path: path), now != stamp else { return nil }
    stamp = now
    do throws(CommandError) {
      scene = try load(time)
      error = nil
      return .reloaded
    } catch {
      self.error = error.message
      return .failed(error.message)
    }
  }
}
