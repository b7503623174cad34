// Debian's `ffprobe` and `ffmpeg` command-line tools as the independent
// decoder of the video tests. A test that needs them and does not find them
// fails with the reason (.ci/run installs the `ffmpeg` package).
import Glibc

/// The path of Debian's `ffprobe`, or a failure saying how to get it.
public func ffprobePath() -> Result<String, FFmpegToolFailure> { toolPath("ffprobe") }

/// The path of Debian's `ffmpeg`, or a failure saying how to get it.
public func ffmpegPath() -> Result<String, FFmpegToolFailure> { toolPath("ffmpeg") }

private func toolPath(_ name: String) -> Result<String, FFmpegToolFailure> {
  for folder in ["/usr/bin", "/usr/local/bin"] where access(folder + "/" + name, X_OK) == 0 {
    return .success(folder + "/" + name)
  }
  return .failure(
    FFmpegToolFailure(
      message:
        "\(name) not found in /usr/bin: the video tests need Debian's ffmpeg package (scripts/setup.sh installs it)"
    ))
}

/// What went wrong running a tool, with its output.
public struct FFmpegToolFailure: Error, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}

/// A video stream as `ffprobe` reports it (its own decoder counts the frames).
public struct ProbedVideo: Sendable {
  /// Every `key=value` line ffprobe printed for the stream, its tags
  /// (`TAG:alpha_mode`) and the format (`duration`).
  public var fields: [String: String]

  public subscript(key: String) -> String? { fields[key] }
  /// `codec_name`: h264, vp9, prores.
  public var codec: String? { fields["codec_name"] }
  /// `pix_fmt` as the default decoder reports it.
  public var pixelFormat: String? { fields["pix_fmt"] }
  /// Frames the decoder read (`nb_read_frames`).
  public var frameCount: Int? { fields["nb_read_frames"].flatMap { Int($0) } }
  /// The container's duration in seconds.
  public var duration: Double? { fields["duration"].flatMap { Double($0) } }
}

/// Probes the first video stream of `path`, decoding every frame to count
/// them.
public func probeVideo(_ path: String, folder: String) -> Result<ProbedVideo, FFmpegToolFailure> {
  let tool: String
  switch ffprobePath() {
  case .success(let found): tool = found
  case .failure(let failure): return .failure(failure)
  }
  let r = runProgram(
    [
      tool, "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
      "stream=codec_name,profile,pix_fmt,width,height,r_frame_rate,avg_frame_rate,nb_read_frames,color_space,color_range,color_primaries,color_transfer,duration:stream_tags:format=duration",
      "-of", "default=noprint_wrappers=1", path,
    ], folder: folder)
  guard r.status == 0 else { return .failure(FFmpegToolFailure(message: "ffprobe failed (\(r.status)): \(r.output)")) }
  var fields: [String: String] = [:]
  for line in r.output.split(separator: "\n") {
    guard let equals = line.firstIndex(of: "=") else { continue }
    let key = String(line[..<equals])
    // The stream's duration comes first; keep the format's (the last).
    fields[key] = String(line[line.index(after: equals)...])
  }
  return .success(ProbedVideo(fields: fields))
}

/// Decodes `path` with `ffmpeg` to raw 8-bit RGBA frames (`decoder`: e.g.
/// `libvpx-vp9` to get VP9's alpha plane), converting YUV → RGB with the
/// BT.709 matrix in limited range: the frames, each `4 · width · height`
/// bytes.
public func decodeVideoRGBA(
  _ path: String, width: Int, height: Int, decoder: String? = nil, folder: String
) -> Result<[[UInt8]], FFmpegToolFailure> {
  let tool: String
  switch ffmpegPath() {
  case .success(let found): tool = found
  case .failure(let failure): return .failure(failure)
  }
  let raw = folder + "/.decoded-\(UInt32.random(in: 0...UInt32.max)).rgba"
  defer { unlink(raw) }
  let r = runProgram(
    [tool, "-v", "error", "-nostdin"] + (decoder.map { ["-c:v", $0] } ?? []) + [
      "-i", path, "-vf",
      "scale=in_color_matrix=bt709:in_range=limited:out_range=full:flags=accurate_rnd+full_chroma_int",
      "-pix_fmt", "rgba", "-f", "rawvideo", "-y", raw,
    ], folder: folder)
  guard r.status == 0 else { return .failure(FFmpegToolFailure(message: "ffmpeg failed (\(r.status)): \(r.output)")) }
  let bytes = fileBytes(raw) ?? []
  let size = 4 * width * height
  guard size > 0, bytes.count % size == 0 else {
    return .failure(FFmpegToolFailure(message: "ffmpeg wrote \(bytes.count) bytes, not a multiple of \(size)"))
  }
  return .success(stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<$0 + size]) })
}

/// The peak signal-to-noise ratio in dB of `decoded` against `reference`
/// over the R, G and B samples (alpha left out), ∞ when equal.
public func psnrRGB(_ decoded: [UInt8], _ reference: [UInt8]) -> Double {
  precondition(decoded.count == reference.count, "psnrRGB: \(decoded.count) and \(reference.count) bytes")
  var squared = 0.0
  var count = 0
  for i in 0..<decoded.count where i % 4 != 3 {
    let d = Double(decoded[i]) - Double(reference[i])
    squared += d * d
    count += 1
  }
  guard squared > 0 else { return .infinity }
  return 10 * log10(255 * 255 / (squared / Double(count)))
}
