// sleet_version and the sleet_effect functions of sleetkit.h.
import SleetKitCHeader
import SleetMath
import SleetParticles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The object behind a `sleet_effect *`.
final class EffectHandle: CHandle {
  override class var typeName: String { "sleet_effect" }
  var effect: Effect

  init(_ effect: Effect) {
    self.effect = effect
  }
}

/// The version as a C string, made once and never freed (a static string
/// for the caller). Immutable after its one-time initialisation, which Swift
/// makes thread-safe; hence `nonisolated(unsafe)` is sound here.
nonisolated(unsafe) private let versionCString: UnsafePointer<CChar> = UnsafePointer(strdup(SleetVersion.string)!)

@c @implementation
public func sleet_version() -> UnsafePointer<CChar>? {
  versionCString
}

@c @implementation
public func sleet_effect_create_from_json(
  _ json: UnsafePointer<CChar>?, _ length: Int, _ outEffect: UnsafeMutablePointer<OpaquePointer?>?,
  _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    guard let json else { throw .null("json") }
    let out = try required(outEffect, "out_effect")
    guard length >= 0 else { throw .invalid("length \(UInt(bitPattern: length)) is too large") }
    let bytes = json.withMemoryRebound(to: UInt8.self, capacity: length) {
      Array(UnsafeBufferPointer(start: $0, count: length))
    }
    let effect: Effect
    do throws(EffectFormatError) {
      effect = try Effect(json: bytes)
    } catch {
      throw CFailure(SLEET_ERROR_INVALID_EFFECT, error.description)
    }
    out.pointee = EffectHandle(effect).retainedPointer()
  }
}

@c @implementation
public func sleet_effect_create_from_file(
  _ path: UnsafePointer<CChar>?, _ outEffect: UnsafeMutablePointer<OpaquePointer?>?,
  _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let path = try string(path, "path")
    let out = try required(outEffect, "out_effect")
    // Open it first for the system's reason (Effect(contentsOfFile:) says
    // only "cannot read").
    guard let file = fopen(path, "rb") else {
      throw CFailure(SLEET_ERROR_FILE, "cannot read '\(path)': \(String(cString: strerror(errno)))")
    }
    fclose(file)
    let effect: Effect
    do throws(EffectFormatError) {
      effect = try Effect(contentsOfFile: path)
    } catch {
      // An empty path is the document as a whole; from this initialiser
      // that is the file that could not be read (a folder, say).
      let unreadable = error.path.isEmpty && error.reason.hasPrefix("cannot read")
      throw CFailure(unreadable ? SLEET_ERROR_FILE : SLEET_ERROR_INVALID_EFFECT, error.description)
    }
    out.pointee = EffectHandle(effect).retainedPointer()
  }
}

@c @implementation
public func sleet_effect_destroy(_ effect: OpaquePointer?) {
  destroy(effect, EffectHandle.self)
}

@c @implementation
public func sleet_effect_set_parameter(
  _ effect: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ value: Double,
  _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let box = try handle(effect, EffectHandle.self, "effect")
    let name = try string(name, "name")
    do throws(EffectFormatError) {
      // settingParameters checks finiteness and range, naming the parameter.
      box.effect = try box.effect.settingParameters([name: value])
    } catch {
      throw .invalid(error.description)
    }
  }
}
