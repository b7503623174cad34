// An independent decoder for the animated WebP and GIF files: Pillow
// (Debian's python3-pil, installed by .ci/run), run as a child process.
import Glibc

/// An animation as Pillow decodes it: every frame composited onto the canvas
/// (Pillow follows the formats' disposal and blending), as 8-bit straight
/// RGBA, with its duration in milliseconds.
public struct DecodedAnimation: Sendable {
  /// `WEBP` or `GIF`, as Pillow names the format.
  public var format: String
  public var width: Int
  public var height: Int
  /// Each frame's duration in ms (GIF: centiseconds × 10).
  public var durations: [Int]
  /// Each frame, `4 · width · height` bytes.
  public var frames: [[UInt8]]
  /// The loop count Pillow read (0: forever), or nil.
  public var loop: Int?

  /// The frame shown at `milliseconds` after the start (the last frame at or
  /// after the end).
  public func frame(atMilliseconds milliseconds: Int) -> Int {
    var start = 0
    for (i, d) in durations.enumerated() {
      if milliseconds < start + d { return i }
      start += d
    }
    return durations.count - 1
  }
}

/// The interpreter that has Debian's python3-pil: /usr/bin/python3 (a
/// `python3` first on PATH, e.g. pyenv's, need not have it).
public let pillowPython = "/usr/bin/python3"

/// The script: prints the format, size, loop and durations, and writes the
/// frames' RGBA bytes one after another into the output file.
let pillowScript = """
  import sys
  from PIL import Image
  path, out = sys.argv[1], sys.argv[2]
  im = Image.open(path)
  print("format", im.format)
  print("size", im.size[0], im.size[1])
  print("loop", im.info.get("loop", -1))
  durations = []
  with open(out, "wb") as f:
      for i in range(getattr(im, "n_frames", 1)):
          im.seek(i)
          im.load()  # WebP: the frame's duration is read when it is loaded
          durations.append(int(im.info.get("duration", 0)))
          f.write(im.convert("RGBA").tobytes())
  print("durations", " ".join(str(d) for d in durations))
  """

/// Why Pillow cannot run here, or nil when it can: the tests that need it
/// fail with this message (they never skip: .ci/run installs python3-pil).
public func pillowProblem() -> String? {
  guard access(pillowPython, X_OK) == 0 else {
    return "no \(pillowPython): install Debian's python3 and python3-pil (.ci/run does)"
  }
  let folder = makeTemporaryFolder(prefix: "sleet-pillow-check")
  defer { removeTree(folder) }
  let r = runProgram(
    [pillowPython, "-c", "import PIL.Image, PIL.features; print(PIL.features.check('webp_anim'))"], folder: folder)
  guard r.status == 0 else { return "\(pillowPython) has no PIL: install python3-pil (.ci/run does): \(r.output)" }
  guard r.output.hasPrefix("True") else { return "Pillow here cannot read animated WebP: \(r.output)" }
  return nil
}

/// Decodes an animated WebP or GIF with Pillow.
/// - Returns: the animation, or the script's output as the failure.
public func pillowDecode(_ path: String) -> Result<DecodedAnimation, PillowFailure> {
  let folder = makeTemporaryFolder(prefix: "sleet-pillow")
  defer { removeTree(folder) }
  let script = folder + "/decode.py"
  guard let f = fopen(script, "w") else { return .failure(PillowFailure(message: "cannot write \(script)")) }
  fputs(pillowScript, f)
  fclose(f)
  let r = runProgram([pillowPython, script, path, folder + "/frames.bin"], folder: folder)
  guard r.status == 0 else { return .failure(PillowFailure(message: "Pillow failed on \(path): \(r.output)")) }
  var decoded = DecodedAnimation(format: "", width: 0, height: 0, durations: [], frames: [], loop: nil)
  for line in r.output.split(separator: "\n") {
    let words = line.split(separator: " ").map(String.init)
    switch words.first {
    case "format": decoded.format = words.count > 1 ? words[1] : ""
    case "size":
      decoded.width = Int(words[1]) ?? 0
      decoded.height = Int(words[2]) ?? 0
    case "loop": decoded.loop = Int(words[1]).flatMap { $0 < 0 ? nil : $0 }
    case "durations": decoded.durations = words.dropFirst().compactMap { Int($0) }
    default: break
    }
  }
  let bytes = fileBytes(folder + "/frames.bin") ?? []
  let size = 4 * decoded.width * decoded.height
  guard size > 0, bytes.count == size * decoded.durations.count else {
    return .failure(PillowFailure(message: "Pillow's output does not add up: \(r.output), \(bytes.count) bytes"))
  }
  decoded.frames = stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<$0 + size]) }
  return .success(decoded)
}

/// Pillow's complaint.
public struct PillowFailure: Error, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}

/// Runs a program (absolute path first) with stdin from /dev/null and both
/// output streams into one capture file in `folder`; waits for it.
public func runProgram(_ arguments: [String], folder: String) -> (status: Int32, output: String) {
  let capture = folder + "/.output-\(UInt32.random(in: 0...UInt32.max))"
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, capture, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  posix_spawn_file_actions_adddup2(&actions, 1, 2)
  var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
  defer { for p in argv { free(p) } }
  var pid: pid_t = 0
  let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
  guard spawned == 0 else { return (-1, "cannot run \(arguments[0]): \(String(cString: strerror(spawned)))") }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  let output = String(decoding: fileBytes(capture) ?? [], as: UTF8.self)
  unlink(capture)
  let exited = status & 0x7F == 0
  return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output)
}
