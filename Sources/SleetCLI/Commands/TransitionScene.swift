import SleetKit

/// A transition between two snapshots, to draw at chosen transition times.
struct TransitionScene: Sendable {
  var transition: Transition
  var from: RGBAImage
  var to: RGBAImage
  /// The zoom style's flying image.
  var image: RGBAImage?
  var pixelsPerPoint: Double
  /// What shows where no layer draws (straight alpha; transparent by
  /// default).
  var background: ColorRGBA
  /// Where drawn frames and rows are reported (the running command's
  /// progress line), if anywhere.
  var progress: ProgressHub?
  /// Where frames are taken from before new ones are made (the renderer
  /// clears every pixel to the background first: the same pixels).
  var recycler: ImageRecycler?

  init(
    transition: Transition, from: RGBAImage, to: RGBAImage, image: RGBAImage?, pixelsPerPoint: Double,
    background: ColorRGBA = .clear, progress: ProgressHub? = nil
  ) {
    self.transition = transition
    self.from = from
    self.to = to
    self.image = image
    self.pixelsPerPoint = pixelsPerPoint
    self.background = background
    self.progress = progress
  }

  /// The frames at `times`, rendered in parallel (one frame buffer per worker).
  func render(times: [Double]) -> [RGBAImage] {
    let results = ParallelSlots<RGBAImage>(count: times.count)
    let (transition, from, to, image, background, recycler) = (transition, from, to, image, background, recycler)
    let scale = Float(pixelsPerPoint)
    let width = from.width, height = from.height
    let progress = progress?.progress
    progress?.setFrameSize(width: width, height: height)
    FrameParallelism.forEachRun(count: times.count) { range, options in
      var options = options
      if times.count == 1 { options.progress = progress?.raster }
      let renderer = Renderer(pixelsPerPoint: scale, options: options)
      var frame = transition.makeFrame()
      for i in range {
        transition.evaluate(at: times[i], into: &frame)
        var picture = recycler?.take(width: width, height: height) ?? RGBAImage(width: width, height: height)
        renderer.render(frame, from: from, to: to, image: image, background: background, into: &picture)
        results.set(i, picture)
        progress?.frameDrawn()
      }
    }
    return results.values
  }

  /// Frame times from 0 through the end of the transition at `fps`, plus
  /// `hold` seconds showing the final state.
  func times(fps: Int, hold: Double = 0) -> [Double] {
    let end = transition.endTime + hold
    let count = Int((end * Double(fps)).rounded(.up)) + 1
    return (0..<count).map { Swift.min(end, Double($0) / Double(fps)) }
  }

  /// The pixels of `picture` under `rect` (points, at `pixelsPerPoint`),
  /// rounded outward to whole pixels: the zoom's image as the screen shows it.
  static func crop(_ picture: RGBAImage, to rect: Rect, pixelsPerPoint: Double) -> RGBAImage {
    let x0 = Swift.max(0, Int((rect.minX * pixelsPerPoint).rounded(.down)))
    let y0 = Swift.max(0, Int((rect.minY * pixelsPerPoint).rounded(.down)))
    let x1 = Swift.min(picture.width, Swift.max(x0 + 1, Int((rect.maxX * pixelsPerPoint).rounded(.up))))
    let y1 = Swift.min(picture.height, Swift.max(y0 + 1, Int((rect.maxY * pixelsPerPoint).rounded(.up))))
    var out = RGBAImage(width: x1 - x0, height: y1 - y0)
    for y in y0..<y1 {
      for x in x0..<x1 { out[x - x0, y - y0] = picture[x, y] }
    }
    return out
  }
}
