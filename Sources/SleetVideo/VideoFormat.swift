/// A video container with the codec and pixel format SleetKit writes in it
/// (docs/rendering.md, "Video").
///
/// | Format | Container | Codec | Pixel format | Alpha |
/// |---|---|---|---|---|
/// | ``mp4`` | MPEG-4 | H.264 (libx264) | `yuv420p` | no |
/// | ``webm`` | WebM (Matroska) | VP9 (libvpx-vp9) | `yuva420p` | yes |
/// | ``mov`` | QuickTime | ProRes 4444 (prores_ks) | `yuva444p10le` | yes, 16-bit |
///
/// Every format is tagged BT.709 (primaries, transfer and matrix) in
/// limited range.
public enum VideoFormat: String, Hashable, Sendable, CaseIterable {
  /// H.264 in MP4: what every player and site takes. No alpha.
  case mp4
  /// VP9 with alpha in WebM: the web's transparent video.
  case webm
  /// ProRes 4444 with alpha in QuickTime: what video editors take.
  case mov

  /// The format a file extension names (`mp4`, `webm`, `mov`; any case).
  public init?(extension name: String) {
    self.init(rawValue: name.lowercased())
  }

  /// Whether the video stores an alpha channel (WebM and MOV).
  public var hasAlpha: Bool { self != .mp4 }

  /// Whether the chroma planes have half the width and height (4:2:0),
  /// which needs an even width and height: an image with an odd side is
  /// stored one pixel larger, its last column or row repeated
  /// (``storedSize(width:height:)``).
  public var needsEvenSize: Bool { self != .mov }

  /// The size a `width × height` image is stored at: each odd side plus
  /// one in a 4:2:0 format (``needsEvenSize``), else the image's.
  public func storedSize(width: Int, height: Int) -> (width: Int, height: Int) {
    needsEvenSize ? (width + width % 2, height + height % 2) : (width, height)
  }

  /// The format's name in messages: `MP4 (H.264)`, `WebM (VP9)`, `MOV (ProRes 4444)`.
  public var title: String {
    switch self {
    case .mp4: "MP4 (H.264)"
    case .webm: "WebM (VP9)"
    case .mov: "MOV (ProRes 4444)"
    }
  }

  /// libavformat's name of the container.
  var muxerName: String {
    switch self {
    case .mp4: "mp4"
    case .webm: "webm"
    case .mov: "mov"
    }
  }

  /// libavcodec's name of the encoder.
  var encoderName: String {
    switch self {
    case .mp4: "libx264"
    case .webm: "libvpx-vp9"
    case .mov: "prores_ks"
    }
  }
}

/// How a ``VideoEncoder`` trades size for quality and speed. `nil` fields
/// take the format's default (docs/rendering.md, "Video", for how the
/// defaults were chosen).
///
/// - ``VideoFormat/mp4``: ``crf`` is x264's constant rate factor, 0
///   (lossless) … 51 (worst), default ``defaultH264CRF``; ``preset`` is
///   one of ``h264Presets``, default ``defaultH264Preset``.
/// - ``VideoFormat/webm``: ``crf`` is libvpx's constant quality, 0 … 63,
///   default ``defaultVP9CRF``, with no bitrate cap; libvpx runs at
///   `deadline=realtime`, `cpu-used=8`, `row-mt=1`. ``preset`` is not
///   used.
/// - ``VideoFormat/mov``: ProRes 4444 has no quality knob here (prores_ks
///   picks its bits per macroblock for the profile); ``crf`` and
///   ``preset`` are not used.
public struct VideoOptions: Hashable, Sendable {
  /// The constant rate factor (H.264: 0…51; VP9: 0…63), or `nil` for the default.
  public var crf: Int?
  /// x264's preset (one of ``h264Presets``), or `nil` for the default.
  public var preset: String?

  /// x264's presets, fastest first.
  public static let h264Presets = [
    "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo",
  ]
  /// The H.264 constant rate factors x264 takes (8-bit).
  public static let h264CRFRange = 0...51
  /// The VP9 constant quality levels libvpx takes.
  public static let vp9CRFRange = 0...63
  /// H.264's default constant rate factor.
  public static let defaultH264CRF = 20
  /// H.264's default preset.
  public static let defaultH264Preset = "ultrafast"
  /// VP9's default constant quality level.
  public static let defaultVP9CRF = 30

  /// Options with the given fields, `nil` for the format's default.
  public init(crf: Int? = nil, preset: String? = nil) {
    self.crf = crf
    self.preset = preset
  }
}
