// What every C entry point shares: handles, error reporting, argument checks
// and the copies into caller buffers. The entry points themselves are
// `@c @implementation` functions in the other files of this module: the
// compiler checks each against its declaration in sleetkit.h
// (SleetKitCHeader), so the Swift signatures cannot drift from the header.
//
// Unsafe code: the conversions between handles and opaque pointers
// (`Unmanaged`), the reads of caller pointers checked for NULL first, and
// the copies into caller buffers, each bounded by the capacity the caller
// gave (see the comments at each).
import SleetKitCHeader

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failure a C entry point reports: a status code and a message naming
/// the problem.
struct CFailure: Error {
  var status: sleet_status
  var message: String

  init(_ status: Int32, _ message: String) {
    self.status = status
    self.message = message
  }

  static func null(_ argument: String) -> CFailure {
    CFailure(SLEET_ERROR_NULL_ARGUMENT, "\(argument) is NULL")
  }

  static func invalid(_ message: String) -> CFailure {
    CFailure(SLEET_ERROR_INVALID_ARGUMENT, message)
  }
}

/// Runs `body` and reports its outcome: `SLEET_OK` and an empty message, or
/// the failure's status and message. Every fallible entry point is one call
/// of this, so none can return without setting `error`.
func reporting(_ record: UnsafeMutablePointer<sleet_error>?, _ body: () throws(CFailure) -> Void) -> sleet_status {
  do throws(CFailure) {
    try body()
    write(SLEET_OK, "", to: record)
    return SLEET_OK
  } catch {
    write(error.status, error.message, to: record)
    return error.status
  }
}

/// Stores `status` and `message` in the caller's error record (if any): the
/// message as NUL-terminated UTF-8, cut at a character boundary to fit.
private func write(_ status: sleet_status, _ message: String, to error: UnsafeMutablePointer<sleet_error>?) {
  guard let error else { return }
  error.pointee.status = status
  withUnsafeMutableBytes(of: &error.pointee.message) { raw in
    let bytes = Array(message.utf8)
    var n = min(bytes.count, raw.count - 1)
    // A continuation byte (10xxxxxx) just past the cut means the cut splits a
    // character: move back to the character's first byte.
    if n < bytes.count {
      while n > 0 && bytes[n] & 0xC0 == 0x80 { n -= 1 }
    }
    // Safe: n ≤ raw.count − 1, so the n bytes and the NUL fit.
    raw.copyBytes(from: bytes[0..<n])
    raw[n] = 0
  }
}

// MARK: - Handles

/// The object behind every opaque handle. Handles are retained references
/// (`Unmanaged.passRetained`) released by the matching destroy function; the
/// dynamic type tells the kinds apart, so a live handle of the wrong kind is
/// reported rather than misused.
class CHandle {
  /// The C type's name, for messages.
  class var typeName: String { "handle" }

  /// A new +1 reference as an opaque pointer: the caller owns it.
  final func retainedPointer() -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(self).toOpaque())
  }
}

/// The object behind `pointer`, which must be a live handle of this library
/// (the header states that anything else is undefined behaviour).
/// - Throws: NULL_ARGUMENT for NULL, INVALID_ARGUMENT for a handle of
///   another kind.
func handle<T: CHandle>(_ pointer: OpaquePointer?, _ type: T.Type, _ argument: String) throws(CFailure) -> T {
  guard let pointer else { throw .null(argument) }
  let object = Unmanaged<CHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
  guard let typed = object as? T else {
    throw .invalid("\(argument) is a \(Swift.type(of: object).typeName), not a \(T.typeName)")
  }
  return typed
}

/// Releases the caller's reference: NULL and handles of another kind are
/// ignored (the destroy functions cannot report errors).
func destroy<T: CHandle>(_ pointer: OpaquePointer?, _ type: T.Type) {
  guard let pointer else { return }
  let unmanaged = Unmanaged<CHandle>.fromOpaque(UnsafeRawPointer(pointer))
  guard unmanaged.takeUnretainedValue() is T else { return }
  unmanaged.release()
}

// MARK: - Arguments

/// A required pointer.
func required<T>(_ pointer: UnsafeMutablePointer<T>?, _ argument: String) throws(CFailure) -> UnsafeMutablePointer<T> {
  guard let pointer else { throw .null(argument) }
  return pointer
}

/// A required NUL-terminated UTF-8 string.
func string(_ pointer: UnsafePointer<CChar>?, _ argument: String) throws(CFailure) -> String {
  guard let pointer else { throw .null(argument) }
  guard let text = String(validatingCString: pointer) else { throw .invalid("\(argument) is not valid UTF-8") }
  return text
}

/// A finite number.
func finite(_ value: Double, _ argument: String) throws(CFailure) -> Double {
  guard value.isFinite else { throw .invalid("\(argument) must be finite, got \(value)") }
  return value
}

/// A `size_t` as Swift sees it (`Int`): values above `Int.max` arrive
/// negative and mean "more than any count".
func count(_ size: Int) -> Int { size < 0 ? Int.max : size }

/// A value for `sleet_status`-style messages: `390` rather than `390.0`.
func text(_ value: Double) -> String {
  if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
  return "\(value)"
}

// MARK: - Copies into caller buffers

/// Copies `min(elements, capacity)` elements of `stride` bytes from `source`
/// into `buffer` and sets `*written`.
/// - Throws: NULL_ARGUMENT for a NULL `written`, or a NULL `buffer` with a
///   non-zero capacity; CAPACITY (after the copy) when not all fit.
func copyOut(
  _ source: UnsafeRawBufferPointer, stride: Int, to buffer: UnsafeMutableRawPointer?, capacity: Int,
  written: UnsafeMutablePointer<Int>?, what: String
) throws(CFailure) {
  let written = try required(written, "out_written")
  let capacity = count(capacity)
  if capacity > 0 && buffer == nil { throw .null("buffer (with capacity \(capacity))") }
  let total = source.count / stride
  let n = min(total, capacity)
  if n > 0, let buffer, let base = source.baseAddress {
    // Safe: the caller's buffer holds `capacity` ≥ n elements of `stride`
    // bytes (the header's contract), and the source holds `total` ≥ n.
    buffer.copyMemory(from: base, byteCount: n * stride)
  }
  written.pointee = n
  if n < total {
    throw CFailure(SLEET_ERROR_CAPACITY, "capacity \(capacity) is less than the \(total) \(what) to copy")
  }
}

/// ``copyOut(_:stride:to:capacity:written:what:)`` for the elements of an
/// array whose layout is the C element type's.
func copyOut<Element>(
  _ elements: [Element], to buffer: UnsafeMutableRawPointer?, capacity: Int, written: UnsafeMutablePointer<Int>?,
  what: String
) throws(CFailure) {
  let outcome = elements.withUnsafeBytes { bytes in
    Result { () throws(CFailure) in
      try copyOut(
        bytes, stride: MemoryLayout<Element>.stride, to: buffer, capacity: capacity, written: written, what: what)
    }
  }
  try outcome.get()
}

/// Writes `value` and a NUL into a caller buffer of `size` bytes when it
/// fits, and its length (without the NUL) into `*length`.
/// - Throws: NULL_ARGUMENT for a NULL buffer with a non-zero size;
///   CAPACITY (after writing "" when size ≥ 1) when it does not fit.
func copyOut(_ value: String, to buffer: UnsafeMutablePointer<CChar>?, size: Int, length: UnsafeMutablePointer<Int>?)
  throws(CFailure)
{
  let size = count(size)
  if size > 0 && buffer == nil { throw .null("buffer (with size \(size))") }
  let bytes = Array(value.utf8)
  length?.pointee = bytes.count
  // Asking for the length only (size 0) is not an error.
  guard size > 0, let buffer else { return }
  guard bytes.count < size else {
    buffer[0] = 0
    throw CFailure(SLEET_ERROR_CAPACITY, "size \(size) is too small for \(bytes.count) bytes and the NUL")
  }
  // Safe: bytes.count + 1 ≤ size bytes, the buffer's length.
  UnsafeMutableRawPointer(buffer).copyMemory(from: bytes, byteCount: bytes.count)
  buffer[bytes.count] = 0
}
