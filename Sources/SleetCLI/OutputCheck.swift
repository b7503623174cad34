import SleetKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file a command reads, and what names it in messages (`--from`, `the
/// effect file`, …): what an output must never be written over.
struct CommandInput: Sendable {
  var flag: String
  var path: String
}

/// The checks every command that writes files runs on its output path
/// before any work (docs/rendering.md, "Outputs"):
///
/// - the folder written into exists, is a folder, is writable, and is not
///   the root folder or under `/dev`, `/proc` or `/sys`;
/// - nothing written or removed is an input (same device and inode);
/// - an existing output is replaced only with `--force`: a file, or for a
///   folder the files the command owns there (`frame-*.png`), which `--force`
///   removes first, so old and new files never mix;
/// - an existing output that is a folder where a file is expected, or a
///   device or other special file, is refused even with `--force`.
///
/// Every refusal is a usage error (exit 2) naming the flag. The commands
/// run ``checkParentFolder(_:flag:)`` as soon as they read `--out`, so a
/// missing folder is reported before any other problem, and the full check
/// once the inputs are known.
enum OutputCheck {
  /// Folders no output may go into or under (pseudo file systems).
  static let systemFolders = ["/dev", "/proc", "/sys"]

  /// The name pattern of the frames a folder render writes.
  static func isFrameName(_ name: String) -> Bool {
    name.hasPrefix("frame-") && name.hasSuffix(".png") && name.count > 10
  }

  /// Checks `target` (see the type's summary); for a folder, the files it
  /// owns are `frame-*.png`, or only those of `frames` when it is part of
  /// an animation (``FrameSelection/owns(_:)``).
  static func check(
    _ target: RenderTarget, inputs: [CommandInput], force: Bool, flag: String = "--out", frames: FrameSelection? = nil
  ) throws(CommandError) {
    switch target {
    case .still(let path), .animation(let path, _):
      if target.isStandardOutput {
        try checkStandardOutput(inputs: inputs, flag: flag)
      } else {
        try checkFile(path, inputs: inputs, force: force, flag: flag)
      }
    case .folder(let path):
      try checkFolder(
        path, owns: frames?.owns ?? isFrameName, what: frames?.ownedDescription ?? "frame-*.png files", inputs: inputs,
        force: force, flag: flag)
    }
  }

  /// Standard output must not be one of the inputs (`> a.png` after reading
  /// `a.png`).
  static func checkStandardOutput(inputs: [CommandInput], flag: String) throws(CommandError) {
    var info = stat()
    guard fstat(1, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
    if let input = inputs.first(where: { sameFile(info, $0.path) }) {
      throw .usage(
        "\(flag) -: standard output is \(input.flag) \(input.path): refusing to write over an input")
    }
  }

  /// Checks a file output: its folder (``checkFolderWritable(_:for:flag:)``),
  /// that it is not an input, and that it exists only with `force`.
  static func checkFile(_ path: String, inputs: [CommandInput], force: Bool, flag: String) throws(CommandError) {
    guard !path.isEmpty else { throw .usage("\(flag): the path is empty") }
    let (folder, name) = FileOutput.split(path)
    guard name != "." && name != ".." && !name.isEmpty else { throw .usage("\(flag) \(path): not a file name") }
    try checkFolderWritable(folder, for: path, flag: flag)
    var link = stat()
    guard lstat(path, &link) == 0 else { return }  // nothing there yet
    var info = stat()
    if stat(path, &info) == 0 {
      let type = info.st_mode & S_IFMT
      if type == S_IFDIR { throw .usage("\(flag) \(path): is a folder, not a file") }
      if type != S_IFREG {
        throw .usage("\(flag) \(path): is a device or other special file, not a regular file: refusing to write there")
      }
      if let input = inputs.first(where: { sameFile(info, $0.path) }) {
        throw .usage(
          "\(flag) \(path) and \(input.flag) \(input.path) are the same file: refusing to write over an input")
      }
    }
    if !force { throw .usage("\(flag) \(path): the file exists; give --force to replace it") }
  }

  /// Checks a folder output: the folder (or, when it does not exist yet, its
  /// parent), that none of the files in it that `owns` accepts is an input,
  /// and that there are none unless `force` (which removes them before
  /// writing: ``removeOwnedFiles(in:owns:)``). `what` names those files in
  /// the message.
  static func checkFolder(
    _ path: String, owns: (String) -> Bool, what: String, inputs: [CommandInput], force: Bool, flag: String
  ) throws(CommandError) {
    guard !path.isEmpty else { throw .usage("\(flag): the path is empty") }
    guard path != "-" else {
      throw .usage(
        "\(flag) -: standard output takes one file (PNG, APNG, WebP or GIF), not a folder (for a folder named '-', write ./-)"
      )
    }
    let (parent, name) = FileOutput.split(path)
    // The folder and its parent, links resolved: not the root folder, not
    // in a system folder.
    let resolvedParent = realPath(parent)
    let resolved = realPath(path) ?? resolvedParent.map { $0 + "/" + name }
    if resolved == "/" { throw .usage("\(flag) \(path): refusing to write into / (the root folder)") }
    if let system = [resolvedParent, resolved].compactMap({ $0 }).lazy.compactMap(systemFolder).first {
      throw .usage("\(flag) \(path): refusing to write under \(system) (a system folder)")
    }
    var info = stat()
    guard stat(path, &info) == 0 else {
      var link = stat()
      if lstat(path, &link) == 0 { throw .usage("\(flag) \(path): a broken symbolic link, not a folder") }
      try checkFolderWritable(parent, for: path, flag: flag)
      return
    }
    guard (info.st_mode & S_IFMT) == S_IFDIR else {
      throw .usage("\(flag) \(path): exists and is not a folder")
    }
    try checkFolderWritable(path, for: path, flag: flag)
    let owned = folderEntries(path).filter(owns)
    guard !owned.isEmpty else { return }
    for name in owned {
      var file = stat()
      guard stat(path + "/" + name, &file) == 0 else { continue }
      if let input = inputs.first(where: { sameFile(file, $0.path) }) {
        throw .usage(
          "\(flag) \(path) holds \(name), which is \(input.flag) \(input.path): refusing to remove or replace an input"
        )
      }
    }
    if !force {
      throw .usage(
        "\(flag) \(path): holds \(owned.count) \(what) of an earlier run; give --force to remove them first (old and new files are never mixed)"
      )
    }
  }

  /// Refuses `path` when the folder it goes in does not exist (or is not a
  /// folder), the same for a file (`a/b/x.png`) and a folder (`a/b/frames/`),
  /// so a missing nested folder is reported alike however the output is
  /// spelt.
  static func checkParentFolder(_ path: String, flag: String) throws(CommandError) {
    try checkFolderExists(parentFolder(of: path), for: path, flag: flag)
  }

  /// `folder` (where `output` goes) must exist and be a folder.
  static func checkFolderExists(_ folder: String, for output: String, flag: String) throws(CommandError) {
    var info = stat()
    guard stat(folder, &info) == 0 else {
      let reason = String(cString: strerror(errno))
      throw .usage("\(flag) \(output): the folder \(folder) does not exist (\(reason)); create it first")
    }
    guard (info.st_mode & S_IFMT) == S_IFDIR else {
      throw .usage("\(flag) \(output): \(folder) is not a folder")
    }
  }

  /// The folder `path` is in: `.` for a bare name, `/` for a name at the
  /// root; trailing slashes of a folder output are not a level.
  static func parentFolder(of path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    let parent = trimmed[..<slash]
    return parent.isEmpty ? "/" : String(parent)
  }

  /// `folder` (where `output` goes) must exist, be a folder and be writable,
  /// and must not be the root folder or a system folder.
  static func checkFolderWritable(_ folder: String, for output: String, flag: String) throws(CommandError) {
    try checkFolderExists(folder, for: output, flag: flag)
    guard let resolved = realPath(folder) else {
      throw .usage("\(flag) \(output): no folder \(folder) (\(String(cString: strerror(errno))))")
    }
    if resolved == "/" { throw .usage("\(flag) \(output): refusing to write into / (the root folder)") }
    if let system = systemFolder(containing: resolved) {
      throw .usage("\(flag) \(output): refusing to write under \(system) (a system folder)")
    }
    var info = stat()
    guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
      throw .usage("\(flag) \(output): \(folder) is not a folder")
    }
    guard access(resolved, W_OK | X_OK) == 0 else {
      throw .usage("\(flag) \(output): cannot write in \(folder): \(String(cString: strerror(errno)))")
    }
  }

  /// The system folder `resolved` (an absolute path without links) is or
  /// lies under, if any.
  static func systemFolder(containing resolved: String) -> String? {
    systemFolders.first { resolved == $0 || resolved.hasPrefix($0 + "/") }
  }

  /// Removes the files in `folder` that `owns` accepts, and the temporary
  /// files of killed writers for such names. Call after ``checkFolder`` with
  /// `force`, right before writing.
  /// - Throws: `.failure` naming the first file that cannot be removed.
  static func removeOwnedFiles(in folder: String, owns: (String) -> Bool) throws(CommandError) {
    for name in folderEntries(folder) where owns(name) {
      guard unlink(folder + "/" + name) == 0 else {
        throw .failure("cannot remove \(folder)/\(name): \(String(cString: strerror(errno)))")
      }
    }
    FileOutput.removeStaleTemporaries(inFolder: folder, for: owns)
  }

  /// Whether `path` is the file `info` describes (same device and inode,
  /// links followed).
  static func sameFile(_ info: stat, _ path: String) -> Bool {
    var other = stat()
    return stat(path, &other) == 0 && other.st_dev == info.st_dev && other.st_ino == info.st_ino
  }

  /// `path` with every link and `.`/`..` resolved, or nil (errno set).
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The names in `folder`, without `.` and `..`.
  static func folderEntries(_ folder: String) -> [String] {
    FileOutput.entryNames(inFolder: folder) ?? []
  }
}
