import CFFmpeg
import SleetPreview

/// Where libavformat's muxer writes: a custom `AVIOContext` whose write and
/// seek callbacks turn into ``AnimationOutput`` appends and overwrites, so
/// the video goes through ``AnimationFileWriter`` like every animation
/// format.
///
/// The muxer sees a seekable file of ``length`` bytes. A write at the end
/// appends; a write after a seek back (MP4's `mdat` size, Matroska's
/// duration, seek head and cues) becomes an overwrite of bytes produced
/// before, and the part of it past the end, if any, an append. Seeking past
/// the end is refused: no muxer here writes holes.
///
/// The bytes collect in ``pending`` until ``take()``, which flushes the
/// `AVIOContext`'s buffer first, so each encoder call hands over exactly
/// what the muxer wrote during it.
final class _MuxerOutput {
  /// The bytes and overwrites since the last ``take()``.
  private var pending = AnimationOutput()
  /// The muxer's write position.
  private var position = 0
  /// Bytes produced so far (appended, in this or an earlier batch).
  private(set) var length = 0
  /// The context the muxer writes through; freed with this object.
  private(set) var context: UnsafeMutablePointer<AVIOContext>?

  /// The size of the `AVIOContext`'s buffer, in bytes.
  static let bufferSize = 1 << 16

  /// Creates the `AVIOContext`.
  /// - Throws: ``VideoError/library(doing:message:code:)`` when out of memory.
  init() throws(VideoError) {
    guard let buffer = av_malloc(Self.bufferSize)?.assumingMemoryBound(to: UInt8.self) else {
      throw .library(sleet_averror_nomem(), doing: "allocating the output buffer")
    }
    // Safe: the context keeps this object's address as `opaque` and calls
    // back only while the muxer runs, which the encoder that owns both
    // objects does before it releases this one (`deinit` frees the context).
    let opaque = Unmanaged.passUnretained(self).toOpaque()
    context = avio_alloc_context(buffer, Int32(Self.bufferSize), 1, opaque, nil, _muxerWrite, _muxerSeek)
    guard context != nil else {
      av_free(buffer)
      throw .library(sleet_averror_nomem(), doing: "allocating the output context")
    }
  }

  deinit {
    // The buffer may have been replaced by libavformat; free the current one.
    if context != nil { av_freep(&context!.pointee.buffer) }
    avio_context_free(&context)
  }

  /// Flushes the context's buffer and returns what was written since the
  /// last call.
  func take() -> AnimationOutput {
    avio_flush(context)
    defer { pending = AnimationOutput() }
    return pending
  }

  /// The write callback's work: `count` bytes at ``position``.
  fileprivate func write(_ bytes: UnsafeBufferPointer<UInt8>) {
    let inside = min(bytes.count, length - position)
    if inside > 0 {
      pending.overwrite(at: position, with: Array(bytes[..<inside]))
    }
    if inside < bytes.count {
      pending.bytes += bytes[inside...]
      length += bytes.count - inside
    }
    position += bytes.count
  }

  /// The seek callback's work: the new position, or `nil` when it lies
  /// outside 0…``length``. `AVSEEK_SIZE` asks for the length.
  fileprivate func seek(offset: Int, whence: Int32) -> Int? {
    let target: Int
    switch whence & ~Int32(AVSEEK_FORCE) {
    case Int32(AVSEEK_SIZE): return length
    case SEEK_SET: target = offset
    case SEEK_CUR: target = position + offset
    case SEEK_END: target = length + offset
    default: return nil
    }
    guard target >= 0 && target <= length else { return nil }
    position = target
    return target
  }
}

/// `avio_alloc_context`'s write callback.
private func _muxerWrite(opaque: UnsafeMutableRawPointer?, buffer: UnsafeMutablePointer<UInt8>?, count: Int32) -> Int32
{
  // Safe: `opaque` is the `_MuxerOutput` that owns the context (its `init`),
  // alive while the context is; `buffer` holds `count` bytes for this call.
  let output = Unmanaged<_MuxerOutput>.fromOpaque(opaque!).takeUnretainedValue()
  output.write(UnsafeBufferPointer(start: buffer, count: Int(count)))
  return count
}

/// `avio_alloc_context`'s seek callback.
private func _muxerSeek(opaque: UnsafeMutableRawPointer?, offset: Int64, whence: Int32) -> Int64 {
  // Safe: as in `_muxerWrite`.
  let output = Unmanaged<_MuxerOutput>.fromOpaque(opaque!).takeUnretainedValue()
  guard let position = output.seek(offset: Int(offset), whence: whence) else { return Int64(sleet_averror_invalid()) }
  return Int64(position)
}
