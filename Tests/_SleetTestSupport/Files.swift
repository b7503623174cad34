// Test support shared by the test bundles (not API: the leading underscore says so).
// Everything here is written independently of the library code under test.
import CPNG
import Glibc

/// A fresh empty folder under /tmp, named after `prefix`.
public func makeTemporaryFolder(prefix: String = "sleet-tests") -> String {
  var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
  let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
  return String(cString: path!)
}

/// The process id of a child that has run `/bin/true` and been reaped: a
/// pid no process holds (until the system reuses it), for temporary-file
/// names whose writer has died.
public func exitedProcessID() -> pid_t {
  var child: pid_t = 0
  var argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
  defer { free(argv[0]) }
  precondition(posix_spawn(&child, "/bin/true", nil, nil, &argv, environ) == 0, "posix_spawn /bin/true failed")
  var status: Int32 = 0
  waitpid(child, &status, 0)
  return child
}

/// Names in a folder, excluding `.` and `..`, sorted.
public func folderEntries(_ path: String) -> [String] {
  guard let dir = opendir(path) else { return [] }
  defer { closedir(dir) }
  var names: [String] = []
  // The name up to its NUL, not all of d_name: a record can end right
  // after its name (FileOutput.entryNames(inFolder:)).
  let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
  while let entry = readdir(dir) {
    let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
    if name != "." && name != ".." { names.append(name) }
  }
  return names.sorted()
}

/// Removes a folder and everything in it.
public func removeTree(_ path: String) {
  for name in folderEntries(path) {
    let full = path + "/" + name
    if unlink(full) != 0 { removeTree(full) }
  }
  rmdir(path)
}

/// The whole file, or nil when it cannot be opened.
public func fileBytes(_ path: String) -> [UInt8]? {
  guard let f = fopen(path, "rb") else { return nil }
  defer { fclose(f) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65536)
  while true {
    let n = fread(&buffer, 1, buffer.count, f)
    if n == 0 { return bytes }
    bytes += buffer[0..<n]
  }
}

/// CRC-32 as PNG chunks use it (ISO 3309 / ISO-HDLC, reflected polynomial
/// 0xEDB88320), written out independently of zlib.
public func referenceCRC32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
}

/// Decodes PNG bytes with libpng directly (not through SleetPreview) into 8-bit
/// straight RGBA. Returns nil when libpng rejects the bytes.
public func libpngDecode(_ bytes: [UInt8]) -> (width: Int, height: Int, rgba: [UInt8])? {
  bytes.withUnsafeBytes { input -> (width: Int, height: Int, rgba: [UInt8])? in
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    guard png_image_begin_read_from_memory(&image, input.baseAddress, input.count) != 0 else { return nil }
    image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
    let w = Int(image.width)
    let h = Int(image.height)
    var out = [UInt8](repeating: 0, count: 4 * w * h)
    let ok = out.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, Int32(4 * w), nil) }
    guard ok != 0 else {
      png_image_free(&image)
      return nil
    }
    return (w, h, out)
  }
}
