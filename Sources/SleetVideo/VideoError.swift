import CFFmpeg

/// Why a ``VideoEncoder`` could not be made or could not encode.
public enum VideoError: Error, Hashable, Sendable, CustomStringConvertible {
  /// An option the format does not take, or a value out of its range.
  case invalidOption(String)
  /// FFmpeg's libraries lack the muxer or encoder the format needs.
  case unavailable(String)
  /// An FFmpeg call failed: what was being done, and FFmpeg's message
  /// (`av_strerror`) for its error code.
  case library(doing: String, message: String, code: Int32)

  public var description: String {
    switch self {
    case .invalidOption(let reason): reason
    case .unavailable(let what): "FFmpeg has no \(what)"
    case .library(let doing, let message, _): "FFmpeg: \(doing): \(message)"
    }
  }

  /// The error for FFmpeg's negative return `code` while `doing`.
  static func library(_ code: Int32, doing: String) -> VideoError {
    var buffer = [CChar](repeating: 0, count: 256)
    // av_strerror writes a NUL-terminated message of at most `count` bytes
    // (a generic one for an unknown code).
    _ = av_strerror(code, &buffer, buffer.count)
    let message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    return .library(doing: doing, message: message, code: code)
  }
}
