import SleetParticles
import Synchronization

/// The standard ``SpriteProvider``: built-in procedural sprites by name
/// (``BuiltInSprite``), PNG files by path, and sprites registered in code.
/// Results are cached, so each sprite is generated or read once.
///
/// Resolution order for a name: a registered sprite; a built-in name; a path
/// ending in `.png` (case-insensitive), relative paths resolved against
/// ``baseDirectory``. PNG sprites get `contentsScale` ``fileContentsScale``.
///
/// Thread-safe: the cache is behind a mutex; concurrent first requests for the
/// same name may both generate it, with identical results.
public final class SpriteLibrary: SpriteProvider {
  /// Pixel density of generated built-in sprites; match the renderer's
  /// pixels per point so sprites stay sharp.
  public let pixelsPerPoint: Float
  /// Folder that relative PNG paths resolve against (an effect file's folder);
  /// nil means the current directory.
  public let baseDirectory: String?
  /// `contentsScale` given to PNG sprites (point size = pixel size / scale).
  public let fileContentsScale: Float

  private let cache = Mutex<[String: Sprite]>([:])

  /// - Precondition: `pixelsPerPoint` and `fileContentsScale` finite and > 0.
  public init(pixelsPerPoint: Float = 1, baseDirectory: String? = nil, fileContentsScale: Float = 1) {
    precondition(
      pixelsPerPoint > 0 && pixelsPerPoint.isFinite,
      "SpriteLibrary: pixelsPerPoint must be finite and > 0, got \(pixelsPerPoint)")
    precondition(
      fileContentsScale > 0 && fileContentsScale.isFinite,
      "SpriteLibrary: fileContentsScale must be finite and > 0, got \(fileContentsScale)")
    self.pixelsPerPoint = pixelsPerPoint
    self.baseDirectory = baseDirectory
    self.fileContentsScale = fileContentsScale
  }

  /// Makes `name` resolve to `sprite` (replacing any cached entry).
  /// - Complexity: O(1) amortised.
  public func register(_ sprite: Sprite, named name: String) {
    cache.withLock { $0[name] = sprite }
  }

  /// - Complexity: O(1) when cached; otherwise generation (O(pixels)) or a PNG read.
  public func sprite(for reference: SpriteReference) throws(SpriteError) -> Sprite {
    let name = reference.name
    if let cached = cache.withLock({ $0[name] }) { return cached }
    let sprite: Sprite
    if let builtIn = BuiltInSprite(rawValue: name) {
      sprite = builtIn.sprite(pixelsPerPoint: pixelsPerPoint)
    } else if name.lowercased().hasSuffix(".png") {
      let path = name.hasPrefix("/") || baseDirectory == nil ? name : baseDirectory! + "/" + name
      do {
        sprite = Sprite(image: try PNGFile.read(path: path), contentsScale: fileContentsScale)
      } catch {
        throw .file(error)
      }
    } else {
      throw .unknownSprite(name: name)
    }
    cache.withLock { $0[name] = sprite }
    return sprite
  }
}
