import CGIF
import SleetParticles

/// How ``GIFStreamEncoder`` maps colours onto its palette.
public enum GIFDither: String, Hashable, Sendable, CaseIterable {
  /// An 8×8 Bayer ordered dither: each channel is offset by a threshold
  /// that depends only on the pixel's position before it is rounded down to a
  /// level, so an area keeps its average colour (within a level step a
  /// pixel) and a pixel that does not change between frames keeps its index
  /// (which keeps the frame differences, and the file, small; error
  /// diffusion would make static areas shimmer).
  case ordered
  /// Each channel to its nearest level: exact on flat colours at the levels,
  /// banding on gradients.
  case none
}

/// A GIF89a animation produced piece by piece through giflib, looping
/// forever (`NETSCAPE2.0` loop count 0), in memory independent of the number
/// of frames: ``append(contentsOf:delays:)`` returns the bytes of the frames
/// it completed, ``finish()`` the rest and the trailer.
///
/// **Palette.** One global palette, the same for every frame: a 6×7×6 colour
/// cube (red and blue at the 6 levels ⌊255·l/5 + ½⌋, green at the 7 levels
/// ⌊255·l/6 + ½⌋; index `42·r + 6·g + b`, 252 colours), and index 252,
/// ``transparentIndex``. A fixed palette needs no pass over the frames (it
/// streams), never flickers between frames, and lets unchanged pixels keep
/// their index. Each channel v is mapped to level ⌊v·(n−1)/255 + t⌋ clamped
/// to 0…n−1, with t = ½ for ``GIFDither/none`` and t = (2m + 1)/128 for
/// ``GIFDither/ordered`` (m the 8×8 Bayer matrix entry at the pixel, 0…63):
/// without dither a channel is within half a level step of its value (25.5
/// for red and blue, 21.25 for green), with it within one step.
///
/// **Transparency.** GIF has one transparent index and no partial alpha: a
/// pixel of straight alpha < 128 (of ``RGBAImage/straightRGBA8()``) is
/// transparent, any other is opaque with its straight colour (not composited
/// over anything).
///
/// **Frames.** Each frame is written as the smallest rectangle holding the
/// pixels that differ from the canvas it is drawn over; inside it, pixels
/// that do not change are the transparent index (they leave the canvas as
/// is, and long runs of one index compress well). A pixel that becomes
/// transparent must first be cleared: the frame before it then uses
/// disposal "restore to background" over a rectangle that covers every such
/// pixel (so each frame is written once the next one is known: one frame of
/// lag, three canvases of `width × height` bytes held). A frame identical to
/// the one before is merged into it (the delay grows; at most 65535 cs).
///
/// **Timing.** Delays are whole centiseconds; frame k starts at the exact
/// sum of the earlier delays rounded to the nearest centisecond
/// (`_AnimationTicks`): 30 fps gives 3, 3, 4, 3, 3, 4, … cs and the total
/// is exact. Browsers show a delay of 0 or 1 cs as 10 cs, so above 50 fps
/// (which needs 1 cs delays) a GIF plays too slowly there; `sleet` refuses
/// `--fps` over 50 for GIF.
///
/// Not thread-safe: one thread appends (the frames of a batch are quantized
/// in parallel; giflib's LZW runs on the appending thread).
public final class GIFStreamEncoder {
  /// Canvas width in pixels (GIF's 16-bit sizes: at most 65535).
  public let width: Int
  /// Canvas height in pixels (at most 65535).
  public let height: Int
  /// How colours between the palette's levels are approximated.
  public let dither: GIFDither
  /// Frames appended so far (before merging identical ones).
  public private(set) var frameCount = 0
  /// Frames written to the file so far (after merging).
  public private(set) var writtenFrameCount = 0

  /// The palette index that means "transparent" (and "unchanged").
  public static let transparentIndex: UInt8 = 252
  /// Levels of red, green and blue in the colour cube.
  public static let levels = (red: 6, green: 7, blue: 6)

  private var gif: UnsafeMutablePointer<GifFileType>?
  private let sink = _GIFSink()
  private var ticks = _AnimationTicks(ticksPerSecond: 100)
  /// The canvas the pending frame is drawn over (after the disposal of the
  /// frame before it).
  private var base: [UInt8]
  /// The frame waiting for its successor, and its start and end ticks.
  private var pending: (indices: [UInt8], start: Int, end: Int)?
  /// The first frame, which the last one is followed by when the animation loops.
  private var first: [UInt8]?

  /// Writes the header (screen descriptor with the palette, loop extension).
  /// - Precondition: `width`, `height` in 1…65535.
  public init(width: Int, height: Int, dither: GIFDither = .ordered) {
    precondition(
      width >= 1 && height >= 1 && width <= 65535 && height <= 65535,
      "GIFStreamEncoder: size must be in 1…65535 a side, got \(width)×\(height)")
    self.width = width
    self.height = height
    self.dither = dither
    base = [UInt8](repeating: Self.transparentIndex, count: width * height)
    var error: Int32 = 0
    gif = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), _gifWrite, &error)
    precondition(gif != nil, "GIFStreamEncoder: EGifOpen failed (giflib error \(error))")
    EGifSetGifVersion(gif, true)
    var colors = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: 256)
    for r in 0..<6 {
      for g in 0..<7 {
        for b in 0..<6 {
          colors[42 * r + 6 * g + b] = GifColorType(
            Red: Self.levelValue(r, of: 6), Green: Self.levelValue(g, of: 7), Blue: Self.levelValue(b, of: 6))
        }
      }
    }
    let map = GifMakeMapObject(256, &colors)
    defer { GifFreeMapObject(map) }
    // Writing into memory fails only when giflib runs out of memory.
    precondition(
      EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, Int32(Self.transparentIndex), map) == GIF_OK,
      "GIFStreamEncoder: giflib could not write the screen descriptor")
    var loop: [UInt8] = [1, 0, 0]  // sub-block 1: loop count 0 = forever
    let name = Array("NETSCAPE2.0".utf8)
    precondition(
      EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK
        && EGifPutExtensionBlock(gif, 11, name) == GIF_OK && EGifPutExtensionBlock(gif, 3, &loop) == GIF_OK
        && EGifPutExtensionTrailer(gif) == GIF_OK,
      "GIFStreamEncoder: giflib could not write the loop extension")
  }

  deinit {
    if gif != nil {
      var error: Int32 = 0
      _ = EGifCloseFile(gif, &error)
    }
  }

  /// The byte value of level `l` of `n`: ⌊255·l/(n−1) + ½⌋.
  public static func levelValue(_ l: Int, of n: Int) -> UInt8 { UInt8((510 * l + (n - 1)) / (2 * (n - 1))) }

  /// Quantizes frames (in parallel) and encodes those it can complete.
  /// Returns the bytes produced since the last call (the header first).
  /// - Precondition: every image is `width × height`; `delays.count ==
  ///   images.count`; ``finish()`` not called yet.
  /// - Throws: ``AnimationEncodingError`` when giflib fails (out of memory).
  /// - Complexity: O(total pixels).
  public func append(contentsOf images: [RGBAImage], delays: [FrameDelay]) throws(AnimationEncodingError) -> [UInt8] {
    precondition(gif != nil, "GIFStreamEncoder: append after finish")
    var output = AnimationOutput()
    var encoder = self  // a class: the same encoder, as a `var` for the mutating requirement
    try encoder.encodeBatch(images, delays: delays, into: &output)
    output.bytes += sink.take()
    return output.bytes
  }

  /// Writes the last frame and the trailer; returns the remaining bytes. The
  /// encoder is then spent.
  /// - Precondition: at least one frame; not finished yet.
  /// - Throws: ``AnimationEncodingError`` when giflib fails.
  public func finish() throws(AnimationEncodingError) -> [UInt8] {
    var output = AnimationOutput()
    try finish(into: &output)
    return output.bytes
  }

  /// Writes frame `p`, drawn over ``base`` and followed by `next`, and
  /// updates ``base`` to the canvas `next` is drawn over.
  private func write(_ p: (indices: [UInt8], start: Int, end: Int), next: [UInt8]) throws(AnimationEncodingError) {
    let t = Self.transparentIndex
    let q = p.indices
    // The bounding boxes of the pixels that change and of those `next`
    // needs cleared (transparent there, opaque after this frame).
    var changed = _Box(), cleared = _Box()
    for y in 0..<height {
      let row = y * width
      for x in 0..<width {
        let i = row + x
        if q[i] != base[i] { changed.add(x, y) }
        if next[i] == t && q[i] != t { cleared.add(x, y) }
      }
    }
    var rect = changed
    rect.add(cleared)
    if rect.isEmpty { rect.add(0, 0) }  // an unchanged frame: one transparent pixel
    var pixels = [UInt8](repeating: t, count: rect.width * rect.height)
    for y in rect.minY...rect.maxY {
      for x in rect.minX...rect.maxX {
        let i = y * width + x
        // A pixel turning transparent was cleared by the frame before.
        assert(q[i] != t || base[i] == t, "GIFStreamEncoder: a pixel to clear was not cleared")
        if q[i] != base[i] { pixels[(y - rect.minY) * rect.width + (x - rect.minX)] = q[i] }
      }
    }
    var control = GraphicsControlBlock()
    control.DisposalMode = cleared.isEmpty ? DISPOSE_DO_NOT : DISPOSE_BACKGROUND
    control.UserInputFlag = false
    control.DelayTime = Int32(p.end - p.start)
    control.TransparentColor = Int32(t)
    var extensionBytes = [GifByteType](repeating: 0, count: 4)
    let length = EGifGCBToExtension(&control, &extensionBytes)
    guard
      EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes) == GIF_OK,
      EGifPutImageDesc(
        gif, Int32(rect.minX), Int32(rect.minY), Int32(rect.width), Int32(rect.height), false, nil) == GIF_OK,
      EGifPutLine(gif, &pixels, Int32(pixels.count)) == GIF_OK
    else {
      throw AnimationEncodingError(reason: "GIF: giflib error \(gif?.pointee.Error ?? 0)")
    }
    writtenFrameCount += 1
    base = q
    if !cleared.isEmpty {
      for y in rect.minY...rect.maxY {
        for x in rect.minX...rect.maxX { base[y * width + x] = t }
      }
    }
  }

  /// The palette indices of 8-bit straight RGBA pixels (see the type's
  /// summary for the mapping).
  static func quantize(_ rgba: [UInt8], width: Int, height: Int, dither: GIFDither) -> [UInt8] {
    // The 8×8 Bayer matrix, m(x, y) in 0…63.
    let bayer: [Int] = [
      0, 32, 8, 40, 2, 34, 10, 42, 48, 16, 56, 24, 50, 18, 58, 26,
      12, 44, 4, 36, 14, 46, 6, 38, 60, 28, 52, 20, 62, 30, 54, 22,
      3, 35, 11, 43, 1, 33, 9, 41, 51, 19, 59, 27, 49, 17, 57, 25,
      15, 47, 7, 39, 13, 45, 5, 37, 63, 31, 55, 23, 61, 29, 53, 21,
    ]
    return [UInt8](unsafeUninitializedCapacity: width * height) { out, initialized in
      for y in 0..<height {
        for x in 0..<width {
          let i = y * width + x
          if rgba[4 * i + 3] < 128 {
            out[i] = transparentIndex
            continue
          }
          // ⌊v·(n−1)/255 + t⌋ = ⌊(128·v·(n−1) + 32640·t) / 32640⌋,
          // 32640·t = 16320 (no dither) or 255·(2m + 1).
          let offset = dither == .none ? 16320 : 255 * (2 * bayer[(y & 7) * 8 + (x & 7)] + 1)
          func level(_ v: UInt8, _ n: Int) -> Int { Swift.min(n - 1, (128 * Int(v) * (n - 1) + offset) / 32640) }
          out[i] = UInt8(42 * level(rgba[4 * i], 6) + 6 * level(rgba[4 * i + 1], 7) + level(rgba[4 * i + 2], 6))
        }
      }
      initialized = width * height
    }
  }
}

extension GIFStreamEncoder: AnimationEncoder {
  /// giflib's failure, with its message.
  public typealias Failure = AnimationEncodingError

  /// Quantizes one image to palette indices (see the type's summary).
  public var framePreparation: @Sendable (RGBAImage) -> [UInt8] {
    { [width, height, dither] image in
      Self.quantize(image.straightRGBA8(), width: width, height: height, dither: dither)
    }
  }

  /// Appends the header (screen descriptor with the palette, loop
  /// extension), written when the encoder was made.
  public func start(into output: inout AnimationOutput) {
    precondition(gif != nil, "GIFStreamEncoder: start after finish")
    output.bytes += sink.take()
  }

  /// Takes the next frame's palette indices: merges it into the frame before
  /// when identical, else writes the frame before (now that its successor is
  /// known) and appends its bytes.
  /// - Throws: ``AnimationEncodingError`` when giflib fails (out of memory).
  public func encode(_ indices: [UInt8], delay: FrameDelay, into output: inout AnimationOutput)
    throws(AnimationEncodingError)
  {
    precondition(gif != nil, "GIFStreamEncoder: append after finish")
    let (start, end) = ticks.advance(by: delay)
    frameCount += 1
    if first == nil { first = indices }
    if let p = pending {
      if p.indices == indices && end - p.start <= 65535 {
        pending!.end = end
        return
      }
      try write(p, next: indices)
      output.bytes += sink.take()
    }
    pending = (indices, start, end)
  }

  /// Writes the last frame (followed by the first, as the animation loops)
  /// and the trailer, and appends the remaining bytes. The encoder is then
  /// spent.
  /// - Precondition: at least one frame; not finished yet.
  /// - Throws: ``AnimationEncodingError`` when giflib fails.
  public func finish(into output: inout AnimationOutput) throws(AnimationEncodingError) {
    precondition(gif != nil, "GIFStreamEncoder: finish called twice")
    guard let p = pending, let first else {
      preconditionFailure("GIFStreamEncoder: an animation needs at least one frame")
    }
    try write(p, next: first)
    var error: Int32 = 0
    let closed = EGifCloseFile(gif, &error)
    gif = nil
    guard closed == GIF_OK else { throw AnimationEncodingError(reason: "GIF: giflib error \(error)") }
    output.bytes += sink.take()
  }
}

/// An inclusive pixel bounding box, empty at first.
private struct _Box {
  var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
  var isEmpty: Bool { minX > maxX }
  var width: Int { maxX - minX + 1 }
  var height: Int { maxY - minY + 1 }

  mutating func add(_ x: Int, _ y: Int) {
    minX = Swift.min(minX, x)
    maxX = Swift.max(maxX, x)
    minY = Swift.min(minY, y)
    maxY = Swift.max(maxY, y)
  }

  mutating func add(_ other: _Box) {
    guard !other.isEmpty else { return }
    add(other.minX, other.minY)
    add(other.maxX, other.maxY)
  }
}

/// Where giflib's output function puts the bytes until they are taken.
private final class _GIFSink {
  var bytes: [UInt8] = []

  func take() -> [UInt8] {
    defer { bytes = [] }
    return bytes
  }
}

/// giflib's output function: appends to the encoder's ``_GIFSink``.
private func _gifWrite(
  _ gif: UnsafeMutablePointer<GifFileType>?, _ data: UnsafePointer<GifByteType>?, _ count: Int32
) -> Int32 {
  guard let gif, let data, count > 0 else { return 0 }
  let sink = Unmanaged<_GIFSink>.fromOpaque(gif.pointee.UserData).takeUnretainedValue()
  sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(count)))
  return count
}

/// A GIF animation written to a file frame by frame, in memory independent of
/// the number of frames: ``AnimationFileWriter`` over a
/// ``GIFStreamEncoder``, whose bytes go to a temporary file beside the
/// destination as frames are appended and which ``AnimationFileWriter/finish()``
/// renames into place.
public typealias GIFFileWriter = AnimationFileWriter<GIFStreamEncoder>

extension AnimationFileWriter where Encoder == GIFStreamEncoder {
  /// Creates the temporary file and writes the header.
  /// - Precondition: as ``GIFStreamEncoder/init(width:height:dither:)``.
  /// - Throws: ``ImageFileError/cannotWrite(path:reason:)`` naming `path`.
  public convenience init(path: String, width: Int, height: Int, dither: GIFDither = .ordered)
    throws(ImageFileError)
  {
    try self.init(path: path, encoder: GIFStreamEncoder(width: width, height: height, dither: dither))
  }
}
