import Dispatch
import SleetKit
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `sleet render`: an effect as a still, an animation or numbered frames.
struct RenderCommand: SleetCommand {
  static let path = ["render"]
  static let summary = "render an effect to a PNG still, an animated PNG or numbered PNG frames"
  static let help = """
    usage: sleet render EFFECT|FILE.json --out FILE.png|FILE.apng|DIR
                        [--seed N] [--duration S] [--fps F] [--start T] [--time T]
                        [--size WxH] [--scale PX_PER_PT] [--background RGBA]

    Simulates a built-in preset (see 'sleet presets list') or an effect file
    and draws it with the preview renderer over the background colour.
      FILE.png    one still at --time
      FILE.apng   an animation from --start to --start + --duration at --fps
                  (loops forever, exact frame delays of 1/F s)
      DIR         the same frames as DIR/frame-0000.png, frame-0001.png, …
                  (a path ending in '/' or without a .png/.apng extension;
                  the folder is created if its parent exists)
    An effect's "width"/"height" parameters are set to the --size, and "x"/"y"
    to its centre, so presets fill the frame (see docs/effect-format.md).

    options:
      --out PATH           where to write (required)
      --seed N             emitter seed, 0…4294967295 (default: the effect's)
      --duration S         animation length in seconds (default 3); at most
                           10000 frames in an .apng, 100000 in a folder
      --fps F              frames per second, 1…240 (default 30)
      --start T            time of the first frame in seconds (default 0);
                           a later start pre-rolls the effect (seeking is
                           proportional to the live particles, not to T)
      --time T             time of the still for FILE.png (default 2)
      --size WxH           layer size in points (default 390x844)
      --scale PX_PER_PT    pixels per point (default 1); the image is
                           ⌈W·scale⌉ × ⌈H·scale⌉ pixels, at most 8192 a side
                           and 33554432 in all
      --background RGBA    #RRGGBB, #RRGGBBAA, or r,g,b[,a] with components in
                           [0, 1] (straight alpha); default #000000ff (opaque black)
    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    guard let outPath = try arguments.option("out") else { throw .usage("--out FILE.png|FILE.apng|DIR is required") }
    let target = try RenderTarget(outPath)
    let seed = try arguments.option("seed", as: "an integer in 0…4294967295") { UInt32($0) }
    let duration = try arguments.double("duration") ?? 3
    guard duration > 0 && duration <= 3600 else {
      throw .usage("--duration: expected seconds in (0, 3600], got \(duration)")
    }
    let fps = try RenderOptions.fps(&arguments)
    let start = try arguments.double("start") ?? 0
    let time = try arguments.double("time") ?? 2
    let canvas = try RenderOptions.canvas(&arguments)
    let background = try RenderOptions.background(&arguments)
    guard let name = arguments.positional() else { throw .usage("missing the effect: a preset name or FILE.json") }
    try arguments.finish()

    var effect = try RenderOptions.effect(name, width: canvas.width, height: canvas.height)
    if let seed { effect.seed = seed }
    let times: [Double]
    switch target {
    case .still: times = [time]
    case .animation, .folder:
      let count = Swift.max(1, Int((duration * Double(fps)).rounded()))
      try RenderOutput.checkFrameCount(count, for: target, flags: "--duration × --fps")
      times = (0..<count).map { start + Double($0) / Double(fps) }
    }
    let clock = Stopwatch()
    let scene = ParticleScene(effect: effect, canvas: canvas, background: background, baseDirectory: effectFolder(name))
    try scene.checkSupported(times, flag: target.isStill ? "--time" : "--start")
    try RenderOutput.write(
      target, times: times, fps: fps, output: output, label: "render"
    ) { (batch: [Double]) throws(CommandError) in try scene.render(times: batch) }
    output.print(
      "wrote \(target.path) (\(canvas.pixelWidth)×\(canvas.pixelHeight) px, \(times.count) frame\(times.count == 1 ? "" : "s")) in \(clock.elapsedText)"
    )
  }

  /// The folder of an effect file (its PNG sprites resolve against it).
  static func effectFolder(_ argument: String) -> String? {
    guard argument.hasSuffix(".json") || argument.contains("/") else { return nil }
    guard let slash = argument.lastIndex(of: "/") else { return "." }
    return String(argument[..<slash])
  }
}

/// The layer size in points and its pixel size at a scale.
struct Canvas: Sendable {
  var width: Double
  var height: Double
  var pixelsPerPoint: Double
  /// The largest layer side accepted by `--size`, in points.
  static let maximumSide = 100_000.0

  var pixelWidth: Int { Swift.max(1, Int((width * pixelsPerPoint).rounded(.up))) }
  var pixelHeight: Int { Swift.max(1, Int((height * pixelsPerPoint).rounded(.up))) }

  /// Refuses a canvas over the image size limits (``SleetLimits/imageSide``,
  /// ``SleetLimits/imagePixels``: one limit for every command), as a usage
  /// error naming `flags`.
  func checkSize(flags: String) throws(CommandError) {
    if let problem = SleetLimits.imageSizeProblem(width: pixelWidth, height: pixelHeight) {
      throw .usage("\(flags): \(problem)")
    }
  }
}

/// What `--out` names.
enum RenderTarget: Sendable {
  case still(String)
  case animation(String)
  case folder(String)

  /// `.png` → still, `.apng` → animation, a trailing `/` or no extension → folder.
  init(_ path: String) throws(CommandError) {
    let lower = path.lowercased()
    let name = path.split(separator: "/").last.map(String.init) ?? ""
    if lower.hasSuffix(".apng") {
      self = .animation(path)
    } else if lower.hasSuffix(".png") {
      self = .still(path)
    } else if path.hasSuffix("/") || !name.contains(".") {
      self = .folder(path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path)
    } else {
      throw .usage("--out \(path): expected FILE.png, FILE.apng or a folder")
    }
  }

  var path: String {
    switch self {
    case .still(let p), .animation(let p), .folder(let p): p
    }
  }

  var isStill: Bool {
    if case .still = self { return true }
    return false
  }
}

/// Option parsing shared by `sleet render`, `sleet shatter render` and `sleet demo`.
enum RenderOptions {
  /// `--fps F` (default 30), an integer in 1…240.
  static func fps(_ arguments: inout Arguments, default value: Int = 30) throws(CommandError) -> Int {
    let fps = try arguments.int("fps") ?? value
    guard (1...240).contains(fps) else { throw .usage("--fps: expected an integer in 1…240, got \(fps)") }
    return fps
  }

  /// `--scale PX_PER_PT` (finite, > 0).
  static func scale(_ arguments: inout Arguments, default value: Double) throws(CommandError) -> Double {
    let scale = try arguments.double("scale") ?? value
    guard scale > 0 && scale <= 16 else { throw .usage("--scale: expected pixels per point in (0, 16], got \(scale)") }
    return scale
  }

  /// `--size WxH` (default 390x844, `x` or `×` between the sides, each in
  /// (0, 100000] points) and `--scale` (default 1), checked so the image is
  /// within the size limits (``Canvas/checkSize(flags:)``).
  static func canvas(_ arguments: inout Arguments, defaultScale: Double = 1) throws(CommandError) -> Canvas {
    let (width, height) = try SizeOption.parse(&arguments, maximum: Canvas.maximumSide) ?? (390, 844)
    let canvas = Canvas(width: width, height: height, pixelsPerPoint: try scale(&arguments, default: defaultScale))
    try canvas.checkSize(flags: "--size × --scale")
    return canvas
  }

  /// `--background RGBA` (default opaque black).
  static func background(_ arguments: inout Arguments) throws(CommandError) -> ColorRGBA {
    guard let raw = try arguments.option("background") else { return .black }
    guard let color = parseColor(raw) else {
      throw .usage(
        "--background: expected #RRGGBB, #RRGGBBAA or r,g,b[,a] with components in [0, 1], got '\(raw)'")
    }
    return color
  }

  /// `#RRGGBB`, `#RRGGBBAA`, or 3–4 comma-separated numbers in [0, 1].
  static func parseColor(_ text: String) -> ColorRGBA? {
    var components: [Float] = []
    if text.hasPrefix("#") {
      let hex = Array(text.dropFirst())
      guard hex.count == 6 || hex.count == 8 else { return nil }
      for i in stride(from: 0, to: hex.count, by: 2) {
        guard let byte = UInt8(String(hex[i..<i + 2]), radix: 16) else { return nil }
        components.append(Float(byte) / 255)
      }
    } else {
      let parts = text.split(separator: ",", omittingEmptySubsequences: false)
      guard parts.count == 3 || parts.count == 4 else { return nil }
      for part in parts {
        guard let v = Float(String(part.filter { $0 != " " })), v >= 0, v <= 1 else { return nil }
        components.append(v)
      }
    }
    if components.count == 3 { components.append(1) }
    return ColorRGBA(red: components[0], green: components[1], blue: components[2], alpha: components[3])
  }

  /// A preset or effect file with its container parameters set: `width` and
  /// `height` to the layer size, `x` and `y` to its centre (those it has).
  static func effect(_ name: String, width: Double, height: Double) throws(CommandError) -> Effect {
    let base = try loadEffect(name)
    let known = Set(base.parameters.map(\.name))
    var values: [String: Double] = [:]
    for (key, value) in [("width", width), ("height", height), ("x", width / 2), ("y", height / 2)]
    where known.contains(key) {
      values[key] = value
    }
    do throws(EffectFormatError) {
      return values.isEmpty ? base : try base.settingParameters(values)
    } catch {
      throw .usage("--size: \(name): \(error)")
    }
  }
}

/// Renders batches of frames and writes them where a ``RenderTarget`` says.
enum RenderOutput {
  /// Frames rendered (and compressed) per batch: enough to keep every core
  /// busy, few enough that a long animation never holds all its raw frames.
  /// (An `.apng` still keeps every compressed frame until it is written: see
  /// ``maximumAnimationFrames``.)
  static let batchSize = 32

  /// The most frames in one `.apng`. `APNGEncoder` holds every compressed
  /// frame until the file is written; 10 000 frames of a busy 390×844 effect
  /// (≈ 100–200 kB each) is already 1–2 GB.
  static let maximumAnimationFrames = SleetLimits.animationFrames
  /// The most frames written to a folder (they go to disk batch by batch).
  static let maximumFolderFrames = SleetLimits.folderFrames

  /// Refuses more frames than `target` can take, as a usage error naming
  /// `flags` (the options that set the count).
  static func checkFrameCount(_ count: Int, for target: RenderTarget, flags: String) throws(CommandError) {
    switch target {
    case .still: return
    case .animation:
      guard count <= maximumAnimationFrames else {
        throw .usage(
          "\(flags): \(count) frames, at most \(maximumAnimationFrames) in an .apng (write a folder for more)")
      }
    case .folder:
      guard count <= maximumFolderFrames else {
        throw .usage("\(flags): \(count) frames, at most \(maximumFolderFrames)")
      }
    }
  }

  /// Renders `times` through `render` (called with consecutive batches, in
  /// order) and writes a still (the first time), an animation with delays of
  /// exactly 1/`fps` s, or numbered PNG frames. Progress goes to stderr when
  /// it is a terminal.
  /// - Throws: `.usage` for an output folder whose parent is missing,
  ///   `.failure` when a file cannot be written.
  static func write(
    _ target: RenderTarget, times: [Double], fps: Int, output: CommandOutput, label: String,
    render: ([Double]) throws(CommandError) -> [RGBAImage]
  ) throws(CommandError) {
    let progress = Progress(output: output, label: label, total: times.count)
    do {
      switch target {
      case .still(let path):
        let image = try render(times).first!
        try PNGFile.write(image, to: path)
      case .animation(let path):
        var encoder: APNGEncoder?
        for start in stride(from: 0, to: times.count, by: batchSize) {
          let frames = try render(Array(times[start..<Swift.min(times.count, start + batchSize)]))
          if encoder == nil { encoder = APNGEncoder(width: frames[0].width, height: frames[0].height) }
          encoder!.append(
            contentsOf: frames, delays: Array(repeating: FrameDelay(framesPerSecond: fps), count: frames.count))
          progress.advance(by: frames.count)
        }
        try encoder!.write(to: path)
      case .folder(let path):
        try makeFolder(path, flag: "--out")
        let digits = Swift.max(4, String(times.count - 1).count)
        for start in stride(from: 0, to: times.count, by: batchSize) {
          let frames = try render(Array(times[start..<Swift.min(times.count, start + batchSize)]))
          let encoded = ParallelSlots<[UInt8]>(count: frames.count)
          DispatchQueue.concurrentPerform(iterations: frames.count) { i in encoded.set(i, PNGFile.encode(frames[i])) }
          for (i, bytes) in encoded.values.enumerated() {
            let number = String(start + i)
            let name = "frame-" + String(repeating: "0", count: Swift.max(0, digits - number.count)) + number + ".png"
            do throws(FileOutputError) {
              try FileOutput.atomicWrite(bytes, to: path + "/" + name)
            } catch {
              throw ImageFileError.cannotWrite(path: error.path, reason: error.reason)
            }
          }
          progress.advance(by: frames.count)
        }
      }
    } catch let error as CommandError {
      throw error
    } catch {
      throw .failure("\(error)")
    }
    progress.finish()
  }

  /// Creates `path` as a folder unless it already is one.
  /// - Throws: `.usage` naming `flag` when the parent is missing or the path
  ///   is a file.
  static func makeFolder(_ path: String, flag: String) throws(CommandError) {
    if mkdir(path, 0o755) == 0 { return }
    let reason = String(cString: strerror(errno))
    var info = stat()
    if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { return }
    throw .usage("\(flag) \(path): cannot create the folder: \(reason)")
  }
}

/// Frame progress on stderr, only when stderr is a terminal.
final class Progress: Sendable {
  let output: CommandOutput
  let label: String
  let total: Int
  private let done = Mutex(0)

  init(output: CommandOutput, label: String, total: Int) {
    self.output = output
    self.label = label
    self.total = total
  }

  func advance(by frames: Int) {
    guard output.errorIsTerminal else { return }
    let n = done.withLock {
      $0 += frames; return $0
    }
    output.standardError("\r\(label): frame \(n)/\(total)")
  }

  func finish() {
    guard output.errorIsTerminal, done.withLock({ $0 }) > 0 else { return }
    output.standardError("\n")
  }
}

/// Slots that parallel iterations fill, one each (each slot is written by one
/// iteration; `values` is read after the parallel loop).
final class ParallelSlots<Value: Sendable>: Sendable {
  private let slots: Mutex<[Value?]>

  init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

  func set(_ index: Int, _ value: Value) { slots.withLock { $0[index] = value } }

  /// Every slot's value. Precondition: all slots were set.
  var values: [Value] { slots.withLock { $0.map { $0! } } }
}

/// How many frames to render at once: one per core.
enum FrameParallelism {
  static var workers: Int { Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

  /// Splits `count` frames into contiguous runs, one per worker, and runs
  /// `body(range, rasterOptions)` for each in parallel. With several workers each
  /// frame is rasterised on its worker's thread (the frames are the parallel
  /// unit); with one, the rasterizer's bands run in parallel instead. Output is
  /// identical either way (the rasterizer is bit-identical for any options).
  static func forEachRun(
    count: Int, _ body: @Sendable (Range<Int>, RasterOptions) -> Void
  ) {
    let workers = Swift.min(count, self.workers)
    guard workers > 1 else {
      if count > 0 { body(0..<count, RasterOptions()) }
      return
    }
    let serial = RasterOptions(bandHeight: 16, isParallel: false)
    DispatchQueue.concurrentPerform(iterations: workers) { w in
      body((w * count / workers)..<((w + 1) * count / workers), serial)
    }
  }
}

/// A particle effect to draw at chosen times.
struct ParticleScene: Sendable {
  var effect: Effect
  var canvas: Canvas
  var background: ColorRGBA
  var sprites: SpriteLibrary

  init(effect: Effect, canvas: Canvas, background: ColorRGBA, baseDirectory: String? = nil) {
    self.effect = effect
    self.canvas = canvas
    self.background = background
    sprites = SpriteLibrary(pixelsPerPoint: Float(canvas.pixelsPerPoint), baseDirectory: baseDirectory)
  }

  /// Refuses, before any rendering, an effect over the particle budget and a
  /// frame time the simulation cannot reach exactly, naming `flag`.
  func checkSupported(_ times: [Double], flag: String) throws(CommandError) {
    let system: ParticleSystem
    do throws(ParticleSystemError) {
      system = try ParticleSystem(effect: effect)
    } catch {
      throw .usage(error.description)
    }
    for time in times { try SleetCLI.checkSupported(time, by: system, flag: flag) }
  }

  /// The frames at `times` (any order), rendered in parallel: each worker runs
  /// its own simulation over a contiguous run of times, seeking to the first
  /// and advancing through the rest (which gives the same particles as seeking).
  /// - Throws: `.usage` when the effect exceeds the particle budget, `.failure`
  ///   when a sprite cannot be loaded.
  func render(times: [Double]) throws(CommandError) -> [RGBAImage] {
    let results = ParallelSlots<RGBAImage>(count: times.count)
    let failure = Mutex<CommandError?>(nil)
    let (effect, canvas, background, sprites) = (effect, canvas, background, sprites)
    FrameParallelism.forEachRun(count: times.count) { range, options in
      let system: ParticleSystem
      do throws(ParticleSystemError) {
        system = try ParticleSystem(effect: effect)
      } catch {
        // Over budget or too many cells: the definition is bad input (exit 2).
        failure.withLock { $0 = .usage(error.description) }
        return
      }
      let renderer = Renderer(pixelsPerPoint: Float(canvas.pixelsPerPoint), options: options)
      var frame = ParticleFrame()
      for i in range {
        system.advance(to: times[i])
        system.render(into: &frame)
        var image = RGBAImage(width: canvas.pixelWidth, height: canvas.pixelHeight, background: background)
        do throws(SpriteError) {
          try renderer.render(frame, into: &image, sprites: sprites)
        } catch {
          failure.withLock { $0 = .failure(error.description) }
          return
        }
        results.set(i, image)
      }
    }
    if let error = failure.withLock({ $0 }) { throw error }
    return results.values
  }
}

/// Wall-clock time since creation.
struct Stopwatch {
  let start = ContinuousClock.now

  var seconds: Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
  }

  /// Seconds with two decimals, e.g. `12.34 s`.
  var elapsedText: String {
    let centiseconds = Int((seconds * 100).rounded())
    let fraction = String(centiseconds % 100)
    return "\(centiseconds / 100).\(fraction.count == 1 ? "0" : "")\(fraction) s"
  }
}
