import CFFmpeg
import SleetPreview

/// A video (``VideoFormat``: H.264 in MP4, VP9 with alpha in WebM, ProRes
/// 4444 with alpha in MOV) encoded frame by frame through FFmpeg's
/// libraries, as an ``AnimationEncoder``: ``VideoFileWriter`` writes it to
/// a file.
///
/// **Stages.** ``framePreparation`` is the colour conversion
/// (premultiplied Float RGBA → straight 8-bit RGBA → the codec's planar
/// YUV(A) through libswscale, BT.709 coefficients, limited range), run
/// concurrently for the frames of a batch; ``encode(_:delay:into:)``
/// hands the frame to the codec and the packets it returns to the muxer.
///
/// **Output.** The muxer writes through a custom I/O context: bytes at the
/// end become ``AnimationOutput/bytes``, a write after a seek back becomes
/// ``AnimationOutput/overwrite(at:with:)`` (MP4 and MOV rewrite the `mdat`
/// size, WebM its duration, seek head and cues at ``finish(into:)``), so the
/// output must be seekable: a file, not a pipe. Each call hands over what
/// the muxer wrote during it. Memory: the converted frames of a batch
/// (their planes come from a pool, reused from batch to batch) plus what
/// the codec keeps (x264's lookahead and reference frames, libvpx's),
/// independent of the number of frames; MP4 and MOV keep a sample table
/// entry of a few bytes a frame until ``finish(into:)``.
///
/// **Timing.** The time base is 1/``framesPerSecond``: frame k has
/// presentation time k and lasts one tick. MP4 and MOV store the track at a
/// timescale that is a multiple of the frame rate, so every frame time and
/// the duration are exact. WebM stores times in whole milliseconds: frame k
/// starts at k/fps rounded to the nearest millisecond, and the duration
/// (the last frame's end) is written the same way, within half a
/// millisecond of exact, and the track's default frame duration is
/// 10⁹/fps ns.
///
/// Not thread-safe: one thread encodes (the codecs run their own threads).
public final class VideoEncoder {
  /// The container, codec and pixel format.
  public let format: VideoFormat
  /// Frame width in pixels.
  public let width: Int
  /// Frame height in pixels.
  public let height: Int
  /// Frames per second: the time base is its inverse.
  public let framesPerSecond: Int
  /// The options as given (`nil` fields: the format's defaults).
  public let options: VideoOptions
  /// Frames encoded so far.
  public private(set) var frameCount = 0

  private let output: _MuxerOutput
  private let conversion: _FrameConversion
  private var muxer: UnsafeMutablePointer<AVFormatContext>?
  private var codec: UnsafeMutablePointer<AVCodecContext>?
  private var stream: UnsafeMutablePointer<AVStream>?
  private var packet: UnsafeMutablePointer<AVPacket>?
  private var isFinished = false

  /// The codec's pixel format.
  var pixelFormat: AVPixelFormat { Self.pixelFormat(format) }

  /// The pixel format of `format`'s codec.
  static func pixelFormat(_ format: VideoFormat) -> AVPixelFormat {
    switch format {
    case .mp4: AV_PIX_FMT_YUV420P
    case .webm: AV_PIX_FMT_YUVA420P
    case .mov: AV_PIX_FMT_YUVA444P10LE
    }
  }

  /// Opens the codec and the muxer (nothing is written until
  /// ``start(into:)``).
  /// - Precondition: `width`, `height` ≥ 1; `framesPerSecond` in 1…65535.
  /// An odd side in a 4:2:0 format is stored one pixel larger
  /// (``VideoFormat/storedSize(width:height:)``).
  /// - Throws: ``VideoError/invalidOption(_:)`` for an option the
  ///   format does not take or a value out of range;
  ///   ``VideoError/unavailable(_:)`` when FFmpeg lacks the encoder;
  ///   ``VideoError/library(doing:message:code:)`` when FFmpeg refuses.
  public init(
    format: VideoFormat, width: Int, height: Int, framesPerSecond: Int, options: VideoOptions = VideoOptions()
  ) throws(VideoError) {
    precondition(width >= 1 && height >= 1, "VideoEncoder: size must be at least 1×1, got \(width)×\(height)")
    precondition(
      (1...65535).contains(framesPerSecond), "VideoEncoder: framesPerSecond must be in 1…65535, got \(framesPerSecond)")
    self.format = format
    self.width = width
    self.height = height
    self.framesPerSecond = framesPerSecond
    self.options = options
    output = try _MuxerOutput()
    let stored = format.storedSize(width: width, height: height)
    conversion = try _FrameConversion(
      pixelFormat: Self.pixelFormat(format), width: width, height: height, stored: stored)
    Self.quietLibraryLog
    // Every stored property is set: a throw below runs `deinit`, which
    // frees what was allocated.
    var codecOptions = try Self.codecOptions(format, options)
    defer { av_dict_free(&codecOptions) }
    guard let encoder = avcodec_find_encoder_by_name(format.encoderName) else {
      throw .unavailable("encoder \(format.encoderName)")
    }
    let created = avformat_alloc_output_context2(&muxer, nil, format.muxerName, nil)
    guard created >= 0, let muxer else { throw .library(created, doing: "creating the \(format.muxerName) muxer") }
    muxer.pointee.pb = output.context
    codec = avcodec_alloc_context3(encoder)
    packet = av_packet_alloc()
    guard let codec, packet != nil else {
      throw .library(sleet_averror_nomem(), doing: "allocating the \(format.encoderName) encoder")
    }
    let timeBase = AVRational(num: 1, den: Int32(framesPerSecond))
    codec.pointee.width = Int32(stored.width)
    codec.pointee.height = Int32(stored.height)
    codec.pointee.pix_fmt = pixelFormat
    codec.pointee.time_base = timeBase
    codec.pointee.framerate = AVRational(num: Int32(framesPerSecond), den: 1)
    codec.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
    codec.pointee.thread_count = 0  // one per core
    _tagBT709(
      &codec.pointee.color_range, &codec.pointee.colorspace, &codec.pointee.color_primaries, &codec.pointee.color_trc)
    if format == .webm { codec.pointee.bit_rate = 0 }  // constant quality, no bitrate cap
    if muxer.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
      codec.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
    }
    let opened = avcodec_open2(codec, encoder, &codecOptions)
    guard opened >= 0 else { throw .library(opened, doing: "opening the \(format.encoderName) encoder") }
    if let unused = av_dict_get(codecOptions, "", nil, AV_DICT_IGNORE_SUFFIX) {
      throw .invalidOption("\(format.encoderName) has no option \(String(cString: unused.pointee.key))")
    }
    guard let stream = avformat_new_stream(muxer, nil) else {
      throw .library(sleet_averror_nomem(), doing: "adding the video stream")
    }
    self.stream = stream
    stream.pointee.time_base = timeBase
    stream.pointee.avg_frame_rate = codec.pointee.framerate
    stream.pointee.r_frame_rate = codec.pointee.framerate
    let copied = avcodec_parameters_from_context(stream.pointee.codecpar, codec)
    guard copied >= 0 else { throw .library(copied, doing: "describing the video stream") }
  }

  deinit {
    if let muxer {
      muxer.pointee.pb = nil  // `output` owns the I/O context
      avformat_free_context(muxer)
    }
    avcodec_free_context(&codec)
    av_packet_free(&packet)
  }

  /// Turns FFmpeg's log down to errors when it stands at its default
  /// (informational: x264's statistics on every stream): this module
  /// reports failures as ``VideoError``s. Once a process, and never over a
  /// level the program chose.
  private static let quietLibraryLog: Void = {
    if av_log_get_level() == AV_LOG_INFO { av_log_set_level(AV_LOG_ERROR) }
  }()

  /// The codec's options for `format`: the given values or the defaults.
  private static func codecOptions(
    _ format: VideoFormat, _ options: VideoOptions
  ) throws(VideoError) -> OpaquePointer? {
    var settings: [(String, String)] = []
    switch format {
    case .mp4:
      let crf = options.crf ?? VideoOptions.defaultH264CRF
      let preset = options.preset ?? VideoOptions.defaultH264Preset
      guard VideoOptions.h264CRFRange.contains(crf) else {
        throw .invalidOption("H.264 crf must be in \(VideoOptions.h264CRFRange), got \(crf)")
      }
      guard VideoOptions.h264Presets.contains(preset) else {
        throw .invalidOption(
          "H.264 preset must be one of \(VideoOptions.h264Presets.joined(separator: ", ")), got \(preset)")
      }
      settings = [("crf", "\(crf)"), ("preset", preset)]
    case .webm:
      let crf = options.crf ?? VideoOptions.defaultVP9CRF
      guard VideoOptions.vp9CRFRange.contains(crf) else {
        throw .invalidOption("VP9 crf must be in \(VideoOptions.vp9CRFRange), got \(crf)")
      }
      guard options.preset == nil else { throw .invalidOption("VP9 takes no preset") }
      settings = [("crf", "\(crf)"), ("deadline", "realtime"), ("cpu-used", "8"), ("row-mt", "1")]
    case .mov:
      guard options.crf == nil, options.preset == nil else {
        throw .invalidOption("ProRes 4444 takes no crf or preset")
      }
      settings = [("profile", "4444"), ("alpha_bits", "16"), ("vendor", "apl0")]
    }
    var dictionary: OpaquePointer?
    for (key, value) in settings {
      let set = av_dict_set(&dictionary, key, value, 0)
      guard set >= 0 else {
        av_dict_free(&dictionary)
        throw .library(set, doing: "setting \(key)")
      }
    }
    return dictionary
  }

  /// Sends `frame` (`nil`: the end) to the codec and every packet it
  /// returns to the muxer, each lasting one tick.
  private func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws(VideoError) {
    let sent = avcodec_send_frame(codec, frame)
    guard sent >= 0 else { throw .library(sent, doing: "encoding frame \(frameCount)") }
    while true {
      let received = avcodec_receive_packet(codec, packet)
      if received == sleet_averror_again() || received == sleet_averror_eof() { return }
      guard received >= 0 else { throw .library(received, doing: "encoding frame \(frameCount)") }
      packet!.pointee.duration = 1
      av_packet_rescale_ts(packet, codec!.pointee.time_base, stream!.pointee.time_base)
      packet!.pointee.stream_index = stream!.pointee.index
      // Takes the packet's reference and leaves it blank.
      let written = av_interleaved_write_frame(muxer, packet)
      guard written >= 0 else { throw .library(written, doing: "writing frame \(frameCount)") }
    }
  }

  /// Moves what the muxer wrote into `output`.
  private func handOver(into output: inout AnimationOutput) {
    let written = self.output.take()
    output.bytes += written.bytes
    for overwrite in written.overwrites { output.overwrite(at: overwrite.offset, with: overwrite.bytes) }
  }
}

extension VideoEncoder: AnimationEncoder {
  /// FFmpeg's failure, with what was being done and its message.
  public typealias Failure = VideoError

  /// Converts one image to the codec's pixel format (see ``VideoEncoder``).
  public var framePreparation: @Sendable (RGBAImage) -> VideoFrame {
    { [conversion] in VideoFrame(converted: conversion.convert($0)) }
  }

  /// Writes the container's header.
  /// - Throws: ``VideoError/library(doing:message:code:)``.
  public func start(into output: inout AnimationOutput) throws(VideoError) {
    precondition(!isFinished && frameCount == 0, "VideoEncoder: start after encoding")
    var muxerOptions: OpaquePointer?
    defer { av_dict_free(&muxerOptions) }
    if format != .webm {
      // The track's and the movie's timescales: the frame rate doubled up to
      // at least 10 000 ticks a second (libavformat's rule for the track),
      // a multiple of the frame rate, so every time and both durations
      // (`mdhd`, `mvhd`, the edit list) are exact.
      var timescale = framesPerSecond
      while timescale < 10_000 { timescale *= 2 }
      _ = av_dict_set(&muxerOptions, "video_track_timescale", "\(timescale)", 0)
      _ = av_dict_set(&muxerOptions, "movie_timescale", "\(timescale)", 0)
    }
    let written = avformat_write_header(muxer, &muxerOptions)
    guard written >= 0 else { throw .library(written, doing: "writing the \(format.muxerName) header") }
    handOver(into: &output)
  }

  /// Encodes the next frame at presentation time ``frameCount`` ticks of
  /// 1/``framesPerSecond`` s, appending what the muxer writes.
  /// - Precondition: `delay` is 1/``framesPerSecond`` s; ``start(into:)``
  ///   called; not finished.
  /// - Throws: the frame's conversion error, or
  ///   ``VideoError/library(doing:message:code:)``.
  public func encode(_ frame: VideoFrame, delay: FrameDelay, into output: inout AnimationOutput)
    throws(VideoError)
  {
    precondition(!isFinished, "VideoEncoder: encode after finish")
    precondition(
      Int(delay.numerator) * framesPerSecond == Int(delay.denominator),
      "VideoEncoder: every frame lasts 1/\(framesPerSecond) s, got \(delay)")
    let buffer = try frame.converted.get()
    buffer.frame.pointee.pts = Int64(frameCount)
    try send(buffer.frame)
    frameCount += 1
    handOver(into: &output)
  }

  /// Drains the codec, writes the trailer (the sample tables, the cues)
  /// and the rewrites of earlier bytes. The encoder is then spent.
  /// - Precondition: at least one frame; not finished.
  /// - Throws: ``VideoError/library(doing:message:code:)``.
  public func finish(into output: inout AnimationOutput) throws(VideoError) {
    precondition(!isFinished, "VideoEncoder: finish called twice")
    precondition(frameCount >= 1, "VideoEncoder: a video needs at least one frame")
    isFinished = true
    try send(nil)
    let written = av_write_trailer(muxer)
    guard written >= 0 else { throw .library(written, doing: "writing the \(format.muxerName) trailer") }
    handOver(into: &output)
  }
}

/// A video written to a file: ``AnimationFileWriter`` over a
/// ``VideoEncoder``. The bytes go to a temporary file beside the
/// destination as the muxer writes them (the rewrites of earlier bytes at
/// the end included), renamed into place by
/// ``AnimationFileWriter/finish()``.
public typealias VideoFileWriter = AnimationFileWriter<VideoEncoder>

extension AnimationFileWriter where Encoder == VideoEncoder {
  /// Opens the encoder and creates the temporary file.
  /// - Precondition: as ``VideoEncoder/init(format:width:height:framesPerSecond:options:)``.
  /// - Throws: ``ImageFileError/cannotWrite(path:reason:)`` naming `path`,
  ///   with the encoder's reason when it cannot be opened.
  public convenience init(
    path: String, format: VideoFormat, width: Int, height: Int, framesPerSecond: Int,
    options: VideoOptions = VideoOptions()
  ) throws(ImageFileError) {
    let encoder: VideoEncoder
    do throws(VideoError) {
      encoder = try VideoEncoder(
        format: format, width: width, height: height, framesPerSecond: framesPerSecond, options: options)
    } catch {
      throw .cannotWrite(path: path, reason: error.description)
    }
    try self.init(path: path, encoder: encoder)
  }
}
