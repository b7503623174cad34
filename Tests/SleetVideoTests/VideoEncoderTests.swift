import Glibc
import SleetPreview
import Testing
import _SleetTestSupport

@testable import SleetVideo

/// Frame k of a smooth moving picture: a horizontal wave sliding by k
/// pixels over a vertical gradient, with a disc whose alpha falls from 1 at its centre to `edge`
/// outside it (opaque everywhere when `edge` is 1).
func movingPicture(width: Int, height: Int, frame k: Int, edge: Float = 1) -> RGBAImage {
  var image = RGBAImage(width: width, height: height)
  let cx = Float(width) / 2, cy = Float(height) / 2, radius = Float(min(width, height)) / 3
  for y in 0..<height {
    for x in 0..<width {
      let u = 0.5 + 0.5 * sin(2 * Float.pi * Float(x + k) / Float(width)), v = Float(y) / Float(height)
      let d = ((Float(x) - cx) * (Float(x) - cx) + (Float(y) - cy) * (Float(y) - cy)).squareRoot()
      let a = d < radius ? 1 : edge
      image[x, y] = SIMD4(0.2 + 0.6 * u, 0.3 + 0.5 * v, 0.8 - 0.5 * u * v, 1) * a
    }
  }
  return image
}

/// Writes `frameCount` frames of ``movingPicture`` as `format` to `path`.
func writeVideo(
  _ format: VideoFormat, path: String, width: Int, height: Int, fps: Int, frameCount: Int, edge: Float = 1
) throws {
  let writer = try VideoFileWriter(path: path, format: format, width: width, height: height, framesPerSecond: fps)
  var k = 0
  while k < frameCount {
    let batch = (k..<min(k + 4, frameCount)).map { movingPicture(width: width, height: height, frame: $0, edge: edge) }
    try writer.append(contentsOf: batch, delays: Array(repeating: FrameDelay(framesPerSecond: fps), count: batch.count))
    k += batch.count
  }
  try writer.finish()
}

@Suite("Video through FFmpeg, checked by ffprobe and ffmpeg")
struct VideoEncoderTests {
  @Test("MP4: H.264 yuv420p, BT.709 limited, every frame, exact rate and duration")
  func mp4() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-video")
    defer { removeTree(folder) }
    let path = folder + "/clip.mp4"
    try writeVideo(.mp4, path: path, width: 64, height: 48, fps: 30, frameCount: 37)
    #expect(folderEntries(folder) == ["clip.mp4"])
    let video = try probeVideo(path, folder: folder).get()
    #expect(video.codec == "h264")
    #expect(video.pixelFormat == "yuv420p")
    #expect(video["width"] == "64" && video["height"] == "48")
    #expect(video.frameCount == 37)
    #expect(video["r_frame_rate"] == "30/1")
    #expect(video["color_space"] == "bt709" && video["color_range"] == "tv")
    #expect(video["color_primaries"] == "bt709" && video["color_transfer"] == "bt709")
    let duration = try #require(video.duration)
    #expect(abs(duration - 37.0 / 30) < 1e-6, "duration \(duration) s, 37/30 s expected")
  }

  @Test("WebM: VP9 with an alpha plane (alpha_mode 1), every frame, times in whole milliseconds")
  func webm() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-video")
    defer { removeTree(folder) }
    let path = folder + "/clip.webm"
    try writeVideo(.webm, path: path, width: 64, height: 48, fps: 60, frameCount: 25, edge: 0.5)
    #expect(folderEntries(folder) == ["clip.webm"])
    let video = try probeVideo(path, folder: folder).get()
    #expect(video.codec == "vp9")
    #expect(video["TAG:alpha_mode"] == "1")
    #expect(video.frameCount == 25)
    #expect(video["r_frame_rate"] == "60/1")
    #expect(video["color_space"] == "bt709" && video["color_range"] == "tv")
    let duration = try #require(video.duration)
    #expect(abs(duration - 25.0 / 60) <= 0.0005, "duration \(duration) s, 25/60 s expected to the millisecond")
    // libvpx's decoder reads the alpha plane (FFmpeg's own VP9 decoder drops it).
    let frames = try decodeVideoRGBA(path, width: 64, height: 48, decoder: "libvpx-vp9", folder: folder).get()
    #expect(frames.count == 25)
    let last = try #require(frames.last)
    let centre = 4 * (24 * 64 + 32) + 3, corner = 3
    #expect(last[centre] >= 250, "alpha at the centre: \(last[centre])")
    #expect(abs(Int(last[corner]) - 128) <= 6, "alpha in the corner: \(last[corner])")
  }

  @Test("MOV: ProRes 4444 with alpha, exact rate and duration, ≥ 50 dB")
  func mov() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-video")
    defer { removeTree(folder) }
    let path = folder + "/clip.mov"
    try writeVideo(.mov, path: path, width: 64, height: 48, fps: 24, frameCount: 10)
    let video = try probeVideo(path, folder: folder).get()
    #expect(video.codec == "prores")
    #expect(video["profile"] == "4444")
    #expect(video.pixelFormat?.hasPrefix("yuva444p") == true, "pix_fmt \(video.pixelFormat ?? "none")")
    #expect(video.frameCount == 10)
    #expect(video["r_frame_rate"] == "24/1")
    let duration = try #require(video.duration)
    #expect(abs(duration - 10.0 / 24) < 1e-6, "duration \(duration) s, 10/24 s expected")
    let frames = try decodeVideoRGBA(path, width: 64, height: 48, folder: folder).get()
    #expect(frames.count == 10)
    for (k, frame) in frames.enumerated() {
      let psnr = psnrRGB(frame, movingPicture(width: 64, height: 48, frame: k).straightRGBA8())
      #expect(psnr >= 50, "frame \(k): \(psnr) dB")
      #expect(frame[3] == 255, "an opaque frame decodes opaque")
    }
  }

  @Test("MP4 at the default quality: ≥ 40 dB against the frames given")
  func mp4Quality() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-video")
    defer { removeTree(folder) }
    let path = folder + "/clip.mp4"
    try writeVideo(.mp4, path: path, width: 96, height: 64, fps: 30, frameCount: 12)
    let frames = try decodeVideoRGBA(path, width: 96, height: 64, folder: folder).get()
    #expect(frames.count == 12)
    for (k, frame) in frames.enumerated() {
      let psnr = psnrRGB(frame, movingPicture(width: 96, height: 64, frame: k).straightRGBA8())
      #expect(psnr >= 40, "frame \(k): \(psnr) dB")
    }
  }

  @Test("A 4:2:0 format stores an odd side one pixel larger; ProRes 4444 at the image's size")
  func oddSizes() throws {
    #expect(VideoFormat.mp4.storedSize(width: 33, height: 32) == (34, 32))
    #expect(VideoFormat.webm.storedSize(width: 32, height: 31) == (32, 32))
    #expect(VideoFormat.mov.storedSize(width: 33, height: 31) == (33, 31))
    let folder = makeTemporaryFolder(prefix: "sleet-video-odd")
    defer { removeTree(folder) }
    for (format, size) in [(VideoFormat.mp4, "34×32"), (.webm, "34×32"), (.mov, "33×31")] {
      let path = folder + "/odd." + format.rawValue
      let (w, h) = format == .mov ? (33, 31) : (33, 32)
      try writeVideo(format, path: path, width: w, height: h, fps: 10, frameCount: 3)
      let probed = try probeVideo(path, folder: folder).get()
      #expect("\(probed["width"] ?? "")×\(probed["height"] ?? "")" == size, "\(format)")
    }
  }

  @Test("Options out of range or not the format's are refused")
  func badOptions() {
    #expect(throws: VideoError.self) {
      try VideoEncoder(format: .mp4, width: 32, height: 32, framesPerSecond: 30, options: VideoOptions(crf: 52))
    }
    #expect(throws: VideoError.self) {
      try VideoEncoder(
        format: .mp4, width: 32, height: 32, framesPerSecond: 30, options: VideoOptions(preset: "slowwest"))
    }
    #expect(throws: VideoError.self) {
      try VideoEncoder(format: .webm, width: 32, height: 32, framesPerSecond: 30, options: VideoOptions(preset: "fast"))
    }
    #expect(throws: VideoError.self) {
      try VideoEncoder(format: .mov, width: 32, height: 32, framesPerSecond: 30, options: VideoOptions(crf: 10))
    }
  }
}

@Suite("The video colour conversion's 8-bit stage")
struct QuantizeTests {
}
