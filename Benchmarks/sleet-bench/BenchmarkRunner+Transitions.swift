import SleetKit

/// Every `TransitionStyle` through the one engine and the one renderer, at
/// 390×844 pt drawn at 1 px/pt (a 390×844 px framebuffer), in frames per
/// second.
///
/// One call evaluates (and, in the render cases, draws) the frame at 20, 40,
/// 60 and 80 % of the transition's `endTime` (only 50 % with `--quick`), so
/// `items` = frames and the table's items/s is frames/s (printed on its own
/// line). Cases:
///
/// - `evaluate`: `Transition.evaluate(at:into:)` only (the frame reused; for
///   the shatter styles the batched pieces on one thread, `automatic` backend);
/// - `serial`: evaluate, then `Renderer.render(_:from:to:image:into:)` with
///   `RasterOptions.serial` (one band on the calling thread; the baseline);
/// - `parallel`: the same with the default options (16-row bands on
///   `concurrentPerform`); bit-identical to `serial`.
///
/// The view styles draw 2–5 layers (slide 3, fade 2, zoom 4 on push, window
/// 3, circle reveal 2 with one oval mask, tilt3D 2 with one in perspective);
/// the shatter styles draw a backdrop plus one layer per visible piece: at the
/// default divisor (220 tiles, 220 pieces, 100 shards) and, except with
/// `--quick`, with about 4K pieces (checkerboard divisor 43: 44 × 94 = 4,136
/// tiles; explode divisor 43: 43 × 94 = 4,042 pieces; glass break 64 × 64 =
/// 4,096 shards). The `evaluate` line gives the mean layers per frame.
///
/// Snapshots: `DemoPicture` at 390×844 px for both screens (the renderer
/// stretches them over whatever rect a layer covers); zoom flies a 390×390 px
/// picture from a 170-pt cell to a 390-pt detail image; circle reveal grows
/// from a 56-pt button at the bottom right. Byte models: the 390×844 × 16 B
/// float framebuffer written once per frame (render cases); the layers
/// written per frame (evaluate). Figures are reported, never asserted.
extension BenchmarkRunner {
  static var transitions: BenchmarkSuite {
    BenchmarkSuite(name: "transitions") { scale in
      var configurations: [(style: TransitionStyle, divisor: Int?)] = TransitionStyle.allCases.map { ($0, nil) }
      if !scale.quick {
        configurations += [(.checkerboard, 43), (.explode, 43), (.glassBreak, 64)]
      }
      let fractions = scale.quick ? [0.5] : [0.2, 0.4, 0.6, 0.8]
      return configurations.map { configuration in
        TransitionBench.group(style: configuration.style, divisor: configuration.divisor, fractions: fractions)
      }
    }
  }
}

/// Transition benchmark inputs (untimed setup).
enum TransitionBench {
  static let (width, height) = (390, 844)

  /// The pieces a shatter style cuts 390×844 pt into with `divisor`, by its
  /// plan's rule (nil for the view styles).
  static func pieces(_ style: TransitionStyle, divisor: Int) -> Int? {
    let (w, h) = (Double(width), Double(height))
    switch style {
    case .checkerboard:
      let side = (w / Double(divisor)).rounded(.toNearestOrAwayFromZero)
      return Int((w / side).rounded(.up)) * Int((h / side).rounded(.up))
    case .explode: return divisor * Int((h * Double(divisor) / w).rounded(.up))
    case .glassBreak: return divisor * divisor
    default: return nil
    }
  }

  static func group(style: TransitionStyle, divisor: Int?, fractions: [Double]) -> BenchmarkGroup {
    let pieceCount = pieces(style, divisor: divisor ?? CheckerboardPlan.defaultDivisor)
    let name = "\(style.rawValue) 390x844" + (pieceCount.map { " pieces=\($0)" } ?? "")
    let frameBytes = ByteModel(
      bytesPerItem: Double(width * height * 16), "390×844 px × 16 B framebuffer written per frame")
    return BenchmarkGroup(
      name: name, items: fractions.count, byteModel: frameBytes, baseline: "serial", reference: nil,
      itemName: "frame"
    ) {
      let options: TransitionOptions
      switch style {
      case .zoom:
        options = TransitionOptions(
          imageRect: Rect(x: 16, y: 120, width: 170, height: 170),
          targetRect: Rect(x: 0, y: 100, width: 390, height: 390))
      case .circleReveal:
        options = TransitionOptions(button: Rect(x: 314, y: 760, width: 56, height: 56))
      default:
        options = TransitionOptions(divisor: divisor)
      }
      let transition = try Transition(
        style: style, width: Double(width), height: Double(height), options: options)
      if let expected = pieceCount, let actual = transition.shatter?.makeFrame().count, actual != expected {
        throw BenchmarkSetupError("\(style.rawValue) has \(actual) pieces, not the \(expected) the group name says")
      }
      let times = fractions.map { $0 * transition.endTime }
      let from = DemoPicture.first.image(width: width, height: height)
      let to = DemoPicture.second.image(width: width, height: height)
      let image = style == .zoom ? DemoPicture.second.image(width: 390, height: 390) : nil
      let box = Box(frame: transition.makeFrame(), image: RGBAImage(width: width, height: height))
      var layers = 0
      for t in times {
        transition.evaluate(at: t, into: &box.frame)
        layers += box.frame.count
      }
      let meanLayers = Double(layers) / Double(times.count)
      let layerBytes = ByteModel(
        bytesPerItem: meanLayers * Double(MemoryLayout<TransitionLayer>.stride),
        "\(format(meanLayers)) layers per frame × \(MemoryLayout<TransitionLayer>.stride) B TransitionLayer written")
      func draw(_ raster: RasterOptions) {
        let renderer = Renderer(pixelsPerPoint: 1, options: raster)
        for t in times {
          transition.evaluate(at: t, into: &box.frame)
          renderer.render(box.frame, from: from, to: to, image: image, into: &box.image)
        }
        blackHole(box.image[0, 0])
      }
      return [
        BenchmarkCase("evaluate", byteModel: layerBytes) {
          for t in times { transition.evaluate(at: t, into: &box.frame) }
          blackHole(box.frame.count)
        },
        BenchmarkCase("serial") { draw(.serial) },
        BenchmarkCase("parallel") { draw(RasterOptions()) },
      ]
    }
  }

  /// The frame and framebuffer the cases reuse (allocated in the setup).
  final class Box {
    var frame: TransitionFrame
    var image: RGBAImage
    init(frame: TransitionFrame, image: RGBAImage) {
      self.frame = frame
      self.image = image
    }
  }
}
