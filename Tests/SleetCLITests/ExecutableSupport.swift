import Glibc
import Testing
import _SleetTestSupport

/// The built `sleet` executable, beside the test bundle (both are products
/// of the same build), or nil when it is missing.
func sleetExecutable() -> String? {
  var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
  let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
  guard n > 0 else { return nil }
  let bundle = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  guard let slash = bundle.lastIndex(of: "/") else { return nil }
  let path = String(bundle[..<slash]) + "/sleet"
  return access(path, X_OK) == 0 ? path : nil
}

/// How a child process ended: its exit status, or the signal that ended it.
enum Termination: Equatable, CustomStringConvertible {
  case exited(Int32)
  case signalled(Int32)

  init(waitStatus status: Int32) {
    self = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
  }

  var description: String {
    switch self {
    case .exited(let code): "exit status \(code)"
    case .signalled(let signal): "signal \(signal)"
    }
  }
}

/// A started child process whose stdout and stderr go to files.
struct Child {
  let pid: pid_t
  let stdoutPath: String
  let stderrPath: String

  /// Starts `arguments` (an absolute program path first) with stdin from
  /// /dev/null, stdout to `stdoutPath` (a capture file in `folder` when nil)
  /// and stderr to a capture file in `folder`; in `workingFolder` when given
  /// (else the test process's own).
  init(_ arguments: [String], folder: String, stdoutPath: String? = nil, workingFolder: String? = nil) {
    // Through coreutils' `env -C` (glibc's posix_spawn_file_actions_addchdir_np
    // is not visible to Swift without _GNU_SOURCE).
    let arguments = workingFolder.map { ["/usr/bin/env", "-C", $0] + arguments } ?? arguments
    let id = "\(arguments.count)-\(UInt32.random(in: 0...UInt32.max))"
    self.stdoutPath = stdoutPath ?? folder + "/.stdout-\(id)"
    self.stderrPath = folder + "/.stderr-\(id)"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, self.stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    // Every signal at its default action and none blocked, as from a shell
    // (the test runner may ignore some, and ignored signals are inherited).
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var all = sigset_t(), none = sigset_t()
    sigfillset(&all)
    sigemptyset(&none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, environ)
    precondition(status == 0, "posix_spawn \(arguments[0]) failed: \(String(cString: strerror(status)))")
    self.pid = pid
  }

  /// Waits for the child and returns how it ended, its stdout (when captured
  /// to a file) and its stderr; removes the capture files.
  func wait() -> (termination: Termination, out: [UInt8], err: String) {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    // Only a capture file is read back (never a device such as /dev/full).
    let captured = stdoutPath.contains("/.stdout-")
    let out = captured ? fileBytes(stdoutPath) ?? [] : []
    let err = String(decoding: fileBytes(stderrPath) ?? [], as: UTF8.self)
    if captured { unlink(stdoutPath) }
    unlink(stderrPath)
    return (Termination(waitStatus: status), out, err)
  }
}

/// Runs `arguments` to the end (see ``Child``).
func runChild(
  _ arguments: [String], folder: String, stdoutPath: String? = nil, workingFolder: String? = nil
) -> (termination: Termination, out: [UInt8], err: String) {
  Child(arguments, folder: folder, stdoutPath: stdoutPath, workingFolder: workingFolder).wait()
}

/// The words that run a program as an unprivileged user: none when the tests
/// already run unprivileged; `setpriv` to `nobody` when they run as root
/// (root ignores file modes); nil when there is no such user or tool.
func unprivilegedPrefix() -> (words: [String], reason: String?) {
  if geteuid() != 0 { return ([], nil) }
  guard let nobody = getpwnam("nobody") else { return ([], "no user 'nobody' to drop root privileges to") }
  let uid = nobody.pointee.pw_uid, gid = nobody.pointee.pw_gid
  guard uid != 0 else { return ([], "the user 'nobody' is root") }
  for tool in ["/usr/bin/setpriv", "/bin/setpriv"] where access(tool, X_OK) == 0 {
    return ([tool, "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"], nil)
  }
  for tool in ["/usr/sbin/runuser", "/sbin/runuser"] where access(tool, X_OK) == 0 {
    return ([tool, "-u", "nobody", "--"], nil)
  }
  return ([], "neither setpriv nor runuser to drop root privileges with")
}
