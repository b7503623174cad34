import SleetKit
import SleetVideo

/// The file format of an animation output, chosen by `--out`'s extension
/// (`.apng`, `.webp`, `.gif`, `.mp4`, `.webm`, `.mov`) or prefix (`apng:-`,
/// `webp:-`, `gif:-`), with its format-specific options (docs/rendering.md,
/// "Animation formats" and "Video").
enum AnimationFormat: Sendable, Equatable {
  /// Animated PNG: lossless, streamed (``APNGFileWriter``).
  case apng
  /// Animated WebP through libwebp (``WebPFileWriter``): `--quality`, `--lossless`.
  case webp(WebPAnimationOptions)
  /// GIF through giflib (``GIFFileWriter``): `--dither`.
  case gif(GIFDither)
  /// A video through FFmpeg (``VideoFileWriter``), to a file only: MP4 takes
  /// `--crf` and `--preset`.
  case video(VideoFormat, VideoOptions)

  /// The format an extension (lowercased, without the dot) names.
  init?(extension name: String) {
    switch name {
    case "apng": self = .apng
    case "webp": self = .webp(WebPAnimationOptions())
    case "gif": self = .gif(.ordered)
    default:
      guard let video = VideoFormat(extension: name) else { return nil }
      self = .video(video, VideoOptions())
    }
  }

  /// The extension and the name messages use: `apng`, `webp`, `gif`,
  /// `mp4`, `webm`, `mov`.
  var name: String {
    switch self {
    case .apng: "apng"
    case .webp: "webp"
    case .gif: "gif"
    case .video(let format, _): format.rawValue
    }
  }

  /// The format's name in messages: `APNG`, `WebP`, `GIF`, `MP4 (H.264)`, …
  var title: String {
    switch self {
    case .apng: "APNG"
    case .webp: "WebP"
    case .gif: "GIF"
    case .video(let format, _): format.title
    }
  }

  /// The flags only some formats take, and which.
  static let specificFlags: [(option: CommandOption, format: String, spelled: String)] = [
    (OptionTable.quality, "webp", "WebP output (FILE.webp or webp:-)"),
    (OptionTable.lossless, "webp", "WebP output (FILE.webp or webp:-)"),
    (OptionTable.dither, "gif", "GIF output (FILE.gif or gif:-)"),
    (OptionTable.crf, "mp4", "MP4 output (FILE.mp4)"),
    (OptionTable.preset, "mp4", "MP4 output (FILE.mp4)"),
  ]

  /// The most frames per second a GIF is written at: its delays are whole
  /// centiseconds, and browsers show a delay under 2 cs as 10 cs.
  static let maximumGIFFramesPerSecond = 50

  /// Reads the format's options from `arguments` (`--quality Q` in 0…100
  /// and `--lossless` for WebP, `--dither ordered|none` for GIF, `--crf N`
  /// in 0…51 and `--preset NAME` for MP4).
  /// - Throws: `.usage` naming the flag when it belongs to another format
  ///   (or to none: a still or a folder of PNG frames), or its value is bad.
  static func readOptions(
    _ arguments: inout Arguments, for target: RenderTarget
  ) throws(CommandError) -> RenderTarget {
    var format: AnimationFormat?
    if case .animation(_, let f) = target { format = f }
    for (option, owner, spelled) in specificFlags where arguments.contains(option) && format?.name != owner {
      let what =
        switch target {
        case .still: "a still PNG"
        case .folder: "a folder of PNG frames"
        case .animation: "\(format?.title ?? "APNG") output"
        }
      throw .usage("--\(option.name) applies to \(spelled), not to \(what)")
    }
    guard case .animation(let path, let found) = target else { return target }
    switch found {
    case .apng: return target
    case .webp:
      let lossless = try arguments.flag(OptionTable.lossless)
      let quality = try arguments.number(OptionTable.quality).map { Float($0) } ?? WebPAnimationOptions().quality
      return .animation(path, .webp(WebPAnimationOptions(quality: quality, isLossless: lossless)))
    case .gif:
      let dither = try arguments.choice(OptionTable.dither, ["ordered", "none"], spelled: "ordered or none") {
        GIFDither(rawValue: $0)
      }
      return .animation(path, .gif(dither ?? .ordered))
    case .video(let format, _):
      let crf = try arguments.integer(OptionTable.crf)
      let preset = try arguments.choice(OptionTable.preset, VideoOptions.h264Presets) {
        VideoOptions.h264Presets.contains($0) ? $0 : nil
      }
      return .animation(path, .video(format, VideoOptions(crf: crf, preset: preset)))
    }
  }

  /// The line saying that a 4:2:0 video stores a frame with an odd side
  /// one pixel larger (``VideoFormat/storedSize(width:height:)``), or nil.
  func storedSizeNote(width: Int, height: Int) -> String? {
    guard case .video(let format, _) = self else { return nil }
    let stored = format.storedSize(width: width, height: height)
    guard stored != (width, height) else { return nil }
    return
      "note: \(width)×\(height) px frames are stored at \(stored.width)×\(stored.height) px in \(format.title) (its 4:2:0 chroma needs an even width and height; the last column or row repeats)"
  }

  /// Refuses a background with alpha < 1 for a format without alpha
  /// (MP4), as a usage error naming `--background`.
  func checkBackground(_ color: ColorRGBA) throws(CommandError) {
    guard case .video(let format, _) = self, !format.hasAlpha, color.alpha < 1 else { return }
    throw .usage(
      "--background: alpha \(roundedText(Double(color.alpha), places: 3)) < 1 asks for transparency, but \(format.title) stores no alpha: write FILE.webm (VP9) or FILE.mov (ProRes 4444), which carry alpha, or give an opaque background"
    )
  }

  /// Refuses a frame rate the format cannot show (GIF over
  /// ``maximumGIFFramesPerSecond``).
  func checkFrameRate(_ fps: Int) throws(CommandError) {
    if case .gif = self, fps > Self.maximumGIFFramesPerSecond {
      throw .usage(
        "--fps: GIF delays are whole centiseconds and browsers show delays under 2 cs as 10 cs: at most \(Self.maximumGIFFramesPerSecond) fps for GIF, got \(fps) (use FILE.webp or FILE.apng)"
      )
    }
  }
}

/// An animation being written in one of the ``AnimationFormat``s, to a file
/// (through a temporary sibling renamed into place by ``finish()``) or to
/// standard output. Every format streams its frames: APNG and GIF hold one
/// batch of frames, WebP also what libwebp keeps (``WebPAnimationEncoder``).
final class AnimationWriter {
  private enum Sink {
    case apngFile(APNGFileWriter)
    case apngStream(APNGStreamEncoder)
    case webpFile(WebPFileWriter)
    case webpStream(WebPAnimationEncoder)
    case gifFile(GIFFileWriter)
    case gifStream(GIFStreamEncoder)
    case videoFile(VideoFileWriter)
  }

  private var sink: Sink
  private let output: CommandOutput
  /// The file, or `-` for standard output.
  let path: String
  let format: AnimationFormat

  /// Starts an animation of `frameCount` frames of `width × height` pixels
  /// at `path` (`-`: standard output, where an APNG needs the count first;
  /// never a video, which ``RenderTarget`` refuses there). A video needs
  /// `fps`, its frame rate; the other formats take each frame's delay as it
  /// is appended.
  /// - Throws: `.failure` when the file cannot be created or stdout written.
  init(
    _ format: AnimationFormat, path: String, width: Int, height: Int, frameCount: Int, fps: Int? = nil,
    output: CommandOutput
  ) throws(CommandError) {
    self.format = format
    self.path = path
    self.output = output
    let toStandardOutput = path == "-"
    switch format {
    case .apng where toStandardOutput:
      let stream = APNGStreamEncoder(width: width, height: height, frameCount: frameCount)
      try output.standardOutputData(stream.header())
      sink = .apngStream(stream)
    case .apng:
      sink = .apngFile(
        try RenderOutput.imageFile { () throws(ImageFileError) in
          try APNGFileWriter(path: path, width: width, height: height)
        })
    case .webp(let options) where toStandardOutput:
      sink = .webpStream(WebPAnimationEncoder(width: width, height: height, options: options))
    case .webp(let options):
      sink = .webpFile(
        try RenderOutput.imageFile { () throws(ImageFileError) in
          try WebPFileWriter(path: path, width: width, height: height, options: options)
        })
    case .gif(let dither) where toStandardOutput:
      sink = .gifStream(GIFStreamEncoder(width: width, height: height, dither: dither))
    case .gif(let dither):
      sink = .gifFile(
        try RenderOutput.imageFile { () throws(ImageFileError) in
          try GIFFileWriter(path: path, width: width, height: height, dither: dither)
        })
    case .video(let video, let options):
      precondition(!toStandardOutput, "AnimationWriter: a video goes to a seekable file, not standard output")
      guard let fps else { preconditionFailure("AnimationWriter: a video needs its frame rate") }
      sink = .videoFile(
        try RenderOutput.imageFile { () throws(ImageFileError) in
          try VideoFileWriter(
            path: path, format: video, width: width, height: height, framesPerSecond: fps, options: options)
        })
    }
  }

  /// Encodes the next frames, each shown for `delay`.
  func append(_ frames: [RGBAImage], delay: FrameDelay) throws(CommandError) {
    let delays = Array(repeating: delay, count: frames.count)
    switch sink {
    case .apngStream(var stream):
      let bytes = stream.frames(frames, delays: delays)
      sink = .apngStream(stream)
      try output.standardOutputData(bytes)
    case .apngFile(let writer):
      try RenderOutput.imageFile { () throws(ImageFileError) in try writer.append(contentsOf: frames, delays: delays) }
    case .webpStream(let encoder):
      try encoding { () throws(AnimationEncodingError) in try encoder.append(contentsOf: frames, delays: delays) }
    case .webpFile(let writer):
      try RenderOutput.imageFile { () throws(ImageFileError) in try writer.append(contentsOf: frames, delays: delays) }
    case .gifStream(let encoder):
      try output.standardOutputData(
        try encoding { () throws(AnimationEncodingError) in try encoder.append(contentsOf: frames, delays: delays) })
    case .gifFile(let writer):
      try RenderOutput.imageFile { () throws(ImageFileError) in try writer.append(contentsOf: frames, delays: delays) }
    case .videoFile(let writer):
      try RenderOutput.imageFile { () throws(ImageFileError) in try writer.append(contentsOf: frames, delays: delays) }
    }
  }

  /// Ends the animation: renames the file into place, or writes the rest
  /// to standard output.
  func finish() throws(CommandError) {
    switch sink {
    case .apngStream(let stream): try output.standardOutputData(stream.trailer())
    case .apngFile(let writer): try RenderOutput.imageFile { () throws(ImageFileError) in try writer.finish() }
    case .webpStream(let encoder):
      try output.standardOutputData(try encoding { () throws(AnimationEncodingError) in try encoder.finish() })
    case .webpFile(let writer): try RenderOutput.imageFile { () throws(ImageFileError) in try writer.finish() }
    case .gifStream(let encoder):
      try output.standardOutputData(try encoding { () throws(AnimationEncodingError) in try encoder.finish() })
    case .gifFile(let writer): try RenderOutput.imageFile { () throws(ImageFileError) in try writer.finish() }
    case .videoFile(let writer): try RenderOutput.imageFile { () throws(ImageFileError) in try writer.finish() }
    }
  }

  /// `body`'s result, an encoder's error becoming a `.failure` naming stdout.
  private func encoding<T>(_ body: () throws(AnimationEncodingError) -> T) throws(CommandError) -> T {
    do throws(AnimationEncodingError) {
      return try body()
    } catch {
      throw .failure("cannot write standard output: \(error.reason)")
    }
  }
}
