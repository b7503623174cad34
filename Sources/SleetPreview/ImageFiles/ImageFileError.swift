/// Why an image file could not be read or written. Every case names the path.
public enum ImageFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file could not be opened or read (`reason` is the system's message).
  case cannotRead(path: String, reason: String)
  /// The file (or its temporary sibling) could not be created, written or
  /// renamed into place. Nothing is left behind at `path` or beside it.
  case cannotWrite(path: String, reason: String)
  /// The bytes are not an image libpng accepts.
  case invalidImage(path: String, reason: String)

  public var description: String {
    switch self {
    case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
    case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
    case .invalidImage(let path, let reason): "invalid image \(path): \(reason)"
    }
  }
}
