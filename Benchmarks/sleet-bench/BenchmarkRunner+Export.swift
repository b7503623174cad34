import Foundation
import SleetCLI
import SleetKit
import SleetVideo

/// Exports as `sleet render` writes them: 5 s of an effect at 60 fps and
/// 1080×1920 px (360×640 pt at 3 px/pt), so items/s is frames per second
/// of the whole export (to beat real time: ≥ 60).
///
/// Each group is one effect; its cases are whole exports, two samples of
/// one call each (``BenchmarkGroup/fixedSamples``):
/// - `h264`, `prores`, `vp9`, `webp`, `png`: `sleet render` in-process
///   with the format's defaults, to a scratch folder: the pipeline users
///   get (frames rendered on one thread while the previous batch is
///   converted and encoded, both cores busy);
/// - `h264-1t`: the naive twin, every stage of every frame in turn on the
///   calling thread (rasterizer serial; the codec's own threads as in
///   `h264`): its stage clock splits a frame's time into simulate,
///   rasterize, convert and encode, printed under the table.
///
/// `--dry-run` exports 6 frames instead of 300, `--quick` 12.
extension BenchmarkRunner {
  static var export: BenchmarkSuite {
    BenchmarkSuite(name: "export") { scale in
      let frames = scale.dryRun ? 6 : scale.quick ? 12 : 300
      let scenes: [(effect: String, start: Double)] = [("snow", 60), ("fireworks", 4)]
      return scenes.map { scene in exportGroup(effect: scene.effect, start: scene.start, frames: frames) }
        + [conversionGroup]
    }
  }

  /// The colour conversion alone (``AnimationEncoder/framePreparation``
  /// of each video format, one frame a call, on one thread) of a snow
  /// frame at 1080×1920; byte model: the Float frame read once.
  private static var conversionGroup: BenchmarkGroup {
    let (width, height) = (1080, 1920)
    return BenchmarkGroup(
      name: "convert \(width)x\(height)", items: 1,
      byteModel: ByteModel(bytesPerItem: Double(width * height * 16), "\(width)×\(height) px × 16 B read"),
      baseline: nil, reference: nil, itemName: "frame"
    ) {
      let system = try benchmarkSystem(try Effect.preset(named: "snow"), suite: "export")
      system.seek(to: 60)
      var frame = ParticleFrame()
      system.render(into: &frame)
      var image = RGBAImage(width: width, height: height, background: .black)
      try Renderer(pixelsPerPoint: 3).render(frame, into: &image, sprites: SpriteLibrary(pixelsPerPoint: 3))
      return try VideoFormat.allCases.map { format in
        let prepare = try VideoEncoder(format: format, width: width, height: height, framesPerSecond: 60)
          .framePreparation
        return BenchmarkCase(format.rawValue) { blackHole(prepare(image)) }
      }
    }
  }

  private static func exportGroup(effect name: String, start: Double, frames: Int) -> BenchmarkGroup {
    let (points, pixelsPerPoint, fps) = ((width: 360, height: 640), 3.0, 60)
    let (width, height) = (points.width * 3, points.height * 3)
    let clock = StageClock()
    let frameBytes = ByteModel(
      bytesPerItem: Double(width * height * 16), "\(width)×\(height) px × 16 B framebuffer written once a frame")
    return BenchmarkGroup(
      name: "\(name) \(width)x\(height) \(fps)fps \(frames) frames", items: frames, byteModel: frameBytes,
      baseline: "h264-1t", reference: nil, itemName: "frame", fixedSamples: 2,
      notes: { clock.lines(frames: frames) }
    ) {
      let folder = try ScratchFolder(prefix: "sleet-bench-export")
      let common = [
        "render", name, "--size", "\(points.width)x\(points.height)", "--scale", "\(pixelsPerPoint)",
        "--fps", "\(fps)", "--start", "\(start)", "--duration", "\(Double(frames) / Double(fps))", "--force",
      ]
      func cli(_ out: String) -> BenchmarkCase {
        let path = folder.path + "/" + out
        return BenchmarkCase(caseName(out)) {
          let status = SleetCommandLine.run(common + ["--out", path], output: .discarding)
          if status != 0 { fatalError("export suite: sleet render \(name) --out \(out) exited \(status)") }
          blackHole(folder)
        }
      }
      let effect = try Effect.preset(named: name)
      let times = (0..<frames).map { start + Double($0) / Double(fps) }
      let staged = BenchmarkCase("h264-1t") {
        do {
          try stagedExport(
            effect: effect, times: times, width: width, height: height, pixelsPerPoint: Float(pixelsPerPoint),
            encoder: try VideoEncoder(format: .mp4, width: width, height: height, framesPerSecond: fps),
            clock: clock)
        } catch {
          fatalError("export suite: \(name) staged: \(error)")
        }
      }
      return [staged, cli("out.mp4"), cli("out.mov"), cli("out.webm"), cli("out.webp"), cli("frames")]
    }
  }

  /// `h264`, `prores`, `vp9`, `webp` or `png` for an output name.
  private static func caseName(_ out: String) -> String {
    switch out {
    case "out.mp4": "h264"
    case "out.mov": "prores"
    case "out.webm": "vp9"
    case "out.webp": "webp"
    default: "png"
    }
  }
}

/// Each frame through every stage in turn on the calling thread: the
/// simulation's `advance(to:)` + `render(into:)`, the serial rasterizer, the
/// encoder's ``AnimationEncoder/framePreparation`` and
/// ``AnimationEncoder/encode(_:delay:into:)``; the bytes are dropped.
/// Adds each stage's seconds to `clock` (the last call's only).
private func stagedExport<E: AnimationEncoder>(
  effect: Effect, times: [Double], width: Int, height: Int, pixelsPerPoint: Float, encoder: E,
  clock: StageClock
) throws {
  var encoder = encoder
  let system = try benchmarkSystem(effect, suite: "export")
  let sprites = SpriteLibrary(pixelsPerPoint: pixelsPerPoint)
  let renderer = Renderer(pixelsPerPoint: pixelsPerPoint, options: .serial)
  let delay = FrameDelay(framesPerSecond: Int((1 / (times[1] - times[0])).rounded()))
  var frame = ParticleFrame()
  var output = AnimationOutput()
  var split = StageClock.Split()
  try encoder.start(into: &output)
  for time in times {
    var t = Clock.seconds()
    func lap(_ stage: inout Double) {
      let now = Clock.seconds()
      stage += now - t
      t = now
    }
    system.advance(to: time)
    system.render(into: &frame)
    lap(&split.simulate)
    var image = RGBAImage(width: width, height: height, background: .black)
    try renderer.render(frame, into: &image, sprites: sprites)
    lap(&split.rasterize)
    let prepared = encoder.framePreparation(image)
    lap(&split.convert)
    output = AnimationOutput()
    try encoder.encode(prepared, delay: delay, into: &output)
    lap(&split.encode)
  }
  let t = Clock.seconds()
  try encoder.finish(into: &output)
  split.encode += Clock.seconds() - t
  blackHole(output.bytes.count)
  clock.last = split
}

/// The stage times of the last staged export.
private final class StageClock {
  struct Split {
    var simulate = 0.0
    var rasterize = 0.0
    var convert = 0.0
    var encode = 0.0
  }
  var last: Split?

  /// `h264-1t, last call, per frame: simulate … ms, rasterize …, …`.
  func lines(frames: Int) -> [String] {
    guard let s = last else { return [] }
    let total = s.simulate + s.rasterize + s.convert + s.encode
    func part(_ name: String, _ seconds: Double) -> String {
      let ms = seconds * 1e3 / Double(frames)
      return "\(name) \(String(format: "%.2f", ms)) ms (\(Int((seconds / total * 100).rounded())) %)"
    }
    return [
      "h264-1t, last call, per frame: " + part("simulate", s.simulate) + ", " + part("rasterize", s.rasterize)
        + ", " + part("convert", s.convert) + ", " + part("encode", s.encode)
    ]
  }
}

/// A folder under the system's temporary directory, removed with the last
/// case that captures it.
private final class ScratchFolder {
  let path: String

  init(prefix: String) throws {
    path = NSTemporaryDirectory() + "/\(prefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

extension CommandOutput {
  /// Discards both streams (the export cases print their own table).
  fileprivate static var discarding: CommandOutput {
    CommandOutput(standardOutput: { _ in }, standardError: { _ in })
  }
}
