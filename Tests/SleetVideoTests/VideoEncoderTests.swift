import Glibc
import SleetPreview
import SleetVideo
import Testing
import _SleetTestSupport

/// Frame k of a smooth moving picture: a diagonal gradient sliding by k
/// pixels, with a disc whose alpha falls from 1 at its centre to `edge`
/// outside it (opaque everywhere when `edge` is 1).
func movingPicture(width: Int, height: Int, frame k: Int, edge: Float = 1) -> RGBAImage {
  var image = RGBAImage(width: width, height: height)
  let cx = Float(width) / 2, cy = Float(height) / 2, radius = Float(min(width, height)) / 3
  for y in 0..<height {
    for x in 0..<width {
      let u = Float((x + k) % width) / Float(width), v = Float(y) / Float(height)
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

  @Test("A 4:2:0 format refuses an odd side; ProRes 4444 takes it")
  func oddSizes() throws {
    #expect(throws: VideoError.oddSize(format: .mp4, width: 33, height: 32)) {
      try VideoEncoder(format: .mp4, width: 33, height: 32, framesPerSecond: 30)
    }
    #expect(throws: VideoError.oddSize(format: .webm, width: 32, height: 31)) {
      try VideoEncoder(format: .webm, width: 32, height: 31, framesPerSecond: 30)
    }
    _ = try VideoEncoder(format: .mov, width: 33, height: 31, framesPerSecond: 30)
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
