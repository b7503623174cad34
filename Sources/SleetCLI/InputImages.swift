import SleetKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Messages about input images (pictures, sprites) that say what is wrong
/// with the file rather than which libpng call gave up.
enum InputImages {
  /// The PNG signature every PNG file starts with.
  static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// `error`'s description, with libpng's reason replaced when the file is
  /// empty or does not start with the PNG signature.
  static func describe(_ error: ImageFileError) -> String {
    guard case .invalidImage(let path, _) = error, let head = firstBytes(of: path, count: 8) else {
      return error.description
    }
    if head.isEmpty { return "\(path) is empty (0 bytes), not a PNG image" }
    if head != pngSignature { return "\(path) is not a PNG image (it does not start with the PNG signature)" }
    return error.description
  }

  /// The first `count` bytes of a file (fewer when it is shorter), nil when it
  /// cannot be opened.
  static func firstBytes(of path: String, count: Int) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes = [UInt8](repeating: 0, count: count)
    let n = fread(&bytes, 1, count, file)
    return Array(bytes[0..<n])
  }

  /// Reads a picture given by `flag`; an unreadable or invalid file is bad
  /// input (a usage error) naming both.
  static func readPicture(_ path: String, flag: String) throws(CommandError) -> RGBAImage {
    do throws(ImageFileError) {
      return try PNGFile.read(path: path)
    } catch {
      throw .usage("\(flag): \(describe(error))")
    }
  }
}
