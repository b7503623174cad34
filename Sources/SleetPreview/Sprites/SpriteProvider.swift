import SleetParticles

/// Resolves the sprite table of a frame (``SpriteReference`` names) to images.
/// ``Renderer`` asks once per table entry per frame, so implementations should
/// cache (``SpriteLibrary`` does).
public protocol SpriteProvider: Sendable {
  /// The sprite a reference names.
  func sprite(for reference: SpriteReference) throws(SpriteError) -> Sprite
}

/// Why a sprite could not be resolved.
public enum SpriteError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Not a built-in sprite name and not a `.png` path.
  case unknownSprite(name: String)
  /// A PNG sprite file could not be read.
  case file(ImageFileError)

  public var description: String {
    switch self {
    case .unknownSprite(let name):
      let known = BuiltInSprite.allCases.map(\.rawValue).joined(separator: ", ")
      return "sprite \"\(name)\": not a built-in sprite (\(known)) or a .png file"
    case .file(let error):
      return error.description
    }
  }
}
