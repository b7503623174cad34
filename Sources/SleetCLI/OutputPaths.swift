#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Checks on output paths made while parsing, before any work.
enum OutputPaths {
  /// Refuses `path` when the folder it goes in does not exist (or is not a
  /// folder): a usage error (exit status 2) naming `flag`, the same for a file
  /// (`a/b/x.png`) and a folder (`a/b/frames/`), so a missing nested folder
  /// is reported alike however the output is spelt.
  static func checkParentFolder(_ path: String, flag: String) throws(CommandError) {
    let parent = parentFolder(of: path)
    var info = stat()
    guard stat(parent, &info) == 0 else {
      let reason = String(cString: strerror(errno))
      throw .usage("\(flag) \(path): the folder \(parent) does not exist (\(reason)); create it first")
    }
    guard (info.st_mode & S_IFMT) == S_IFDIR else {
      throw .usage("\(flag) \(path): \(parent) is not a folder")
    }
  }

  /// The folder `path` is in: `.` for a bare name, `/` for a name at the root.
  static func parentFolder(of path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    let parent = trimmed[..<slash]
    return parent.isEmpty ? "/" : String(parent)
  }
}
