import SleetMath
import SleetTransitions
import Testing

@testable import SleetPreview

#if canImport(Glibc)
  import Glibc
#endif

/// The largest component difference.
private func maxDifference(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Float {
  let d = a - b
  return Swift.max(Swift.max(abs(d.x), abs(d.y)), Swift.max(abs(d.z), abs(d.w)))
}

/// Every style with every direction it takes (push/present first).
private let everyStyleAndDirection: [(TransitionStyle, TransitionDirection)] =
  TransitionStyle.allCases.flatMap { style in style.directions.map { (style, $0) } }

/// A transition of one style in a 60 × 300 pt container (tall enough for
/// tilt3D's 280-point sheet), drawn at `scale` px/pt, with snapshots of the
/// size UIKit would take them: the container for full screens, the window
/// (36 × 150 pt) for the window style's small screen, the sheet (60 × 280 pt)
/// for tilt3D's.
private struct Scene {
  static let width = 60.0, height = 300.0
  /// zoom: the image's cell on the from screen and its place on the to screen.
  static let imageRect = Rect(x: 8, y: 40, width: 16, height: 16)
  static let targetRect = Rect(x: 0, y: 100, width: 60, height: 60)
  /// circleReveal: a square button in the bottom-right quadrant.
  static let button = Rect(x: 36, y: 240, width: 16, height: 16)
  /// The zoom image: one opaque colour on 8-bit levels (51, 102, 153).
  static let imageColour = SIMD4<Float>(0.2, 0.4, 0.6, 1)

  let transition: Transition
  let scale: Int
  let from: RGBAImage, to: RGBAImage
  let image: RGBAImage?

  init(_ style: TransitionStyle, _ direction: TransitionDirection, scale: Int = 1) throws {
    let options: TransitionOptions =
      switch style {
      case .zoom: TransitionOptions(imageRect: Scene.imageRect, targetRect: Scene.targetRect)
      case .circleReveal: TransitionOptions(button: Scene.button)
      default: TransitionOptions()
      }
    transition = try Transition(
      style: style, direction: direction, width: Scene.width, height: Scene.height, options: options)
    self.scale = scale
    let (w, h) = (Int(Scene.width) * scale, Int(Scene.height) * scale)
    // The snapshot of the screen that is small: the window, or the sheet.
    let small: (width: Int, height: Int)? =
      switch style {
      case .window: (36 * scale, 150 * scale)
      case .tilt3D: (w, 280 * scale)
      default: nil
      }
    let full = (width: w, height: h)
    let fromSize = direction.isForward ? full : small ?? full
    let toSize = direction.isForward ? small ?? full : full
    from = DemoPicture.first.image(width: fromSize.width, height: fromSize.height)
    to = DemoPicture.second.image(width: toSize.width, height: toSize.height)
    image = style == .zoom ? RGBAImage(width: 8, height: 8, fill: Scene.imageColour) : nil
  }

  var pixelWidth: Int { Int(Scene.width) * scale }
  var pixelHeight: Int { Int(Scene.height) * scale }

  func frame(at time: Double) -> TransitionFrame { transition.frame(at: time) }

  func render(at time: Double, options: RasterOptions = RasterOptions()) -> RGBAImage {
    var target = RGBAImage(width: pixelWidth, height: pixelHeight, fill: SIMD4(repeating: 0.25))
    Renderer(pixelsPerPoint: Float(scale), options: options).render(
      frame(at: time), from: from, to: to, image: image, into: &target)
    return target
  }

  func renderNaively(at time: Double) -> RGBAImage {
    var target = RGBAImage(width: pixelWidth, height: pixelHeight)
    Renderer(pixelsPerPoint: Float(scale))._renderNaively(
      layers: frame(at: time).layers, from: from, to: to, image: image, into: &target)
    return target
  }
}

/// A picture built by hand, pixel by pixel, and the pixels a comparison
/// checks (the others: antialiased or resampled edges, documented per use).
private struct Expected {
  var image: RGBAImage
  var checked: [Bool]

  init(width: Int, height: Int) {
    image = RGBAImage(width: width, height: height)
    checked = Array(repeating: true, count: width * height)
  }

  /// Copies `picture` with its top-left pixel at (x, y).
  mutating func paste(_ picture: RGBAImage, x: Int = 0, y: Int = 0) {
    for j in 0..<picture.height {
      for i in 0..<picture.width { image[x + i, y + j] = picture[i, j] }
    }
  }

  /// Fills the pixels whose centres lie in `rect` (pixels).
  mutating func fill(_ rect: Rect, with value: SIMD4<Float>) {
    forEachPixel(in: rect) { image[$0, $1] = value }
  }

  /// Black at 0.3 over the pixels whose centres lie in `rect` (pixels):
  /// (0, 0, 0, 0.3) + p·(1 − 0.3).
  mutating func dim(_ rect: Rect) {
    let d = Float(Transition.dimmingOpacity)
    forEachPixel(in: rect) { image[$0, $1] = SIMD4(0, 0, 0, d) + image[$0, $1] * (1 - d) }
  }

  mutating func ignore(_ rect: Rect) {
    forEachPixel(in: rect) { checked[$1 * image.width + $0] = false }
  }

  /// Ignores the pixels whose centres are within one pixel of the circle.
  mutating func ignoreEdge(centre: SIMD2<Double>, radius: Double) {
    for y in 0..<image.height {
      for x in 0..<image.width {
        let d = SIMD2(Double(x) + 0.5, Double(y) + 0.5) - centre
        if abs((d * d).sum().squareRoot() - radius) <= 1 { checked[y * image.width + x] = false }
      }
    }
  }

  /// Copies `picture` (the same size as the image) into the disc.
  mutating func paste(_ picture: RGBAImage, inside centre: SIMD2<Double>, radius: Double) {
    for y in 0..<image.height {
      for x in 0..<image.width {
        let d = SIMD2(Double(x) + 0.5, Double(y) + 0.5) - centre
        if (d * d).sum() < radius * radius { image[x, y] = picture[x, y] }
      }
    }
  }

  func forEachPixel(in rect: Rect, _ body: (Int, Int) -> Void) {
    for y in 0..<image.height where rect.minY <= Double(y) + 0.5 && Double(y) + 0.5 < rect.maxY {
      for x in 0..<image.width where rect.minX <= Double(x) + 0.5 && Double(x) + 0.5 < rect.maxX {
        body(x, y)
      }
    }
  }

  /// The checked pixels whose 8-bit straight RGBA differs from `rendered`'s.
  func mismatches(_ rendered: RGBAImage) -> [(x: Int, y: Int)] {
    let a = image.straightRGBA8(), b = rendered.straightRGBA8()
    var result: [(x: Int, y: Int)] = []
    for i in 0..<checked.count where checked[i] && a[4 * i..<4 * i + 4] != b[4 * i..<4 * i + 4] {
      result.append((i % image.width, i / image.width))
    }
    return result
  }
}

@Suite("Rendering transition frames")
struct TransitionRenderingTests {
  // MARK: Hand-derived frames

  @Test(arguments: [TransitionDirection.push, .pop])
  func fadeAtHalfTimeIsAnEvenBlend(direction: TransitionDirection) throws {
    // ease(0.5) = 0.5 exactly (easeInEaseOut is symmetric), so the top layer
    // has opacity 0.5 and every pixel is 0.5·top + (1 − 0.5)·bottom =
    // (from + to)·0.5 (halving is exact, so both round the same sum).
    let scene = try Scene(.fade, direction)
    let frame = scene.frame(at: 0.25)
    #expect(frame.layers.map(\.opacity) == [1, 0.5])
    let image = scene.render(at: 0.25)
    for y in 0..<scene.pixelHeight {
      for x in 0..<scene.pixelWidth {
        #expect(image[x, y] == (scene.from[x, y] + scene.to[x, y]) * 0.5, "pixel (\(x), \(y))")
      }
    }
  }

  @Test func slidePushAtHalfTimeShowsDimmedFromLeftAndToRight() throws {
    // t = 0.175 s, half of 0.35: the to screen's left edge at W/2 = 30 and the
    // dimming layer at 0.3·ease(0.5) = 0.15. At 1 px/pt the columns split
    // exactly: x < 30 is from under black at 0.15, x ≥ 30 is to shifted by 30.
    let scene = try Scene(.slide, .push)
    let frame = scene.frame(at: 0.175)
    let d = Float(0.3 * 0.5)
    #expect(frame.layers[1].opacity == d)
    #expect(frame.layers[2].corners.topLeft == SIMD2(30, 0))
    let image = scene.render(at: 0.175)
    for y in 0..<scene.pixelHeight {
      for x in 0..<scene.pixelWidth {
        let expected = x < 30 ? SIMD4(0, 0, 0, d) + scene.from[x, y] * (1 - d) : scene.to[x - 30, y]
        #expect(image[x, y] == expected, "pixel (\(x), \(y))")
      }
    }
  }

  @Test(arguments: [1, 2])
  func circleRevealShowsToInsideTheCircleAndFromOutside(scale: Int) throws {
    // The button B = (36, 240, 16, 16), centre c = (44, 248), is in the
    // bottom-right quadrant: the article's reach is r = |(44 − 0, 248 − 0)|.
    // At half time the oval is inscribed in B grown by r/2 on every side: a
    // circle of radius R = 8 + r/2 about c. At `scale` px/pt it has centre
    // scale·c and radius scale·R in pixels, and the coverage of a pixel whose
    // centre is at distance δ from it is clamp(0.5 − (δ − scale·R), 0, 1).
    let scene = try Scene(.circleReveal, .push, scale: scale)
    let r = (44.0 * 44 + 248 * 248).squareRoot()
    let radius = 8 + r / 2
    let mask = try #require(scene.frame(at: 0.25).layers[1].mask)
    #expect(abs(mask.width - 2 * radius) < 1e-9 && abs(mask.height - 2 * radius) < 1e-9)
    #expect(abs(mask.center.x - 44) < 1e-9 && abs(mask.center.y - 248) < 1e-9)
    let image = scene.render(at: 0.25)
    let k = Double(scale)
    var inside = 0, outside = 0, edge = 0
    for y in 0..<scene.pixelHeight {
      for x in 0..<scene.pixelWidth {
        let dx = Double(x) + 0.5 - 44 * k, dy = Double(y) + 0.5 - 248 * k
        let distance = (dx * dx + dy * dy).squareRoot() - radius * k
        if distance < -1 {
          #expect(image[x, y] == scene.to[x, y], "inside (\(x), \(y))")
          inside += 1
        } else if distance > 1 {
          #expect(image[x, y] == scene.from[x, y], "outside (\(x), \(y))")
          outside += 1
        } else {
          let coverage = Float(Swift.min(Swift.max(0.5 - distance, 0), 1))
          let expected = scene.to[x, y] * coverage + scene.from[x, y] * (1 - coverage)
          #expect(maxDifference(image[x, y], expected) < 1e-5, "edge (\(x), \(y)) coverage \(coverage)")
          if coverage > 0 && coverage < 1 { edge += 1 }
        }
      }
    }
    #expect(inside > 1000 * scale * scale && outside > 1000 * scale * scale && edge > 50 * scale)
  }

  @Test func colourLayersArePremultipliedColourTimesOpacityAtEveryCoveredPixel() {
    // A general (projective) quad, under two views: at every pixel the colour
    // layer covers the result is exactly (r·a, g·a, b·a, a)·opacity, and it
    // covers the same pixels as an opaque textured layer with the same corners.
    let colour = ColorRGBA(red: 0.2, green: 0.6, blue: 1, alpha: 0.5)
    let corners = Quad2D(
      topLeft: SIMD2(14.3, 4.7), topRight: SIMD2(40.2, 6.1), bottomRight: SIMD2(52.6, 35.9),
      bottomLeft: SIMD2(3.4, 33.2))
    let expected = RGBAImage.premultiplied(colour) * 0.7
    let white = RGBAImage(width: 5, height: 7, fill: SIMD4(1, 1, 1, 1))
    for view in [AffineTransform2D.identity, AffineTransform2D(a: 1.5, b: 0.4, c: -0.3, d: 1.2, tx: 9, ty: 2)] {
      let renderer = Renderer(viewTransform: view)
      var coloured = RGBAImage(width: 96, height: 64)
      renderer._render(
        layers: [TransitionLayer(content: .color(colour), corners: corners, transform: .identity, opacity: 0.7)],
        from: white, to: white, into: &coloured)
      var textured = RGBAImage(width: 96, height: 64)
      renderer._render(
        layers: [TransitionLayer(content: .fromScreen, corners: corners, transform: .identity)],
        from: white, to: white, into: &textured)
      var covered = 0
      for y in 0..<64 {
        for x in 0..<96 {
          let isCovered = textured[x, y].w > 0
          #expect(coloured[x, y] == (isCovered ? expected : .zero), "pixel (\(x), \(y))")
          if isCovered { covered += 1 }
        }
      }
      #expect(covered > 500)
    }
  }

  // MARK: Every style at its start and end

  /// The picture UIKit shows at the start (t = 0) or the end (t = endTime),
  /// with the pixels left unchecked:
  ///
  /// - slide, fade, checkerboard, explode, glassBreak: from at the start, to
  ///   at the end (the to screen or the pieces cover everything; the
  ///   dimming layer is at opacity 0).
  /// - zoom: the from screen with the image at its rect on the from screen
  ///   (push: imageRect, pop: targetRect) at the start; the to screen with
  ///   the image at its rect there at the end.
  /// - window, present: from with the 3W/5 × 3H/5 dimming rect at the start
  ///   (the 1-pt sliver the window grows from is not checked); at the end
  ///   from dimmed everywhere and the window, 3W/5 × H/2 centred, showing the
  ///   to snapshot. Dismiss: the reverse at the start; at the end to,
  ///   undimmed (the dimming layer is removed), except the 1-pt sliver the
  ///   window has shrunk to (removed by completeTransition after the frame).
  /// - circleReveal, push: from with to inside the button's oval at the start
  ///   (the mask starts at the button), to at the end; pop: from at the
  ///   start (the oval covers the container), to with from inside the
  ///   button's oval at the end. Pixels within 1 px of an oval are not
  ///   checked.
  /// - tilt3D, present: from at the start (the sheet below the container);
  ///   at the end the sheet showing to on the bottom 280 pt, nothing
  ///   (transparent) where no layer is, and the from screen shrunk to 0.8 at
  ///   half opacity in the 48 × 14 pt strip it shows above the sheet: only
  ///   its alpha (0.5) is checked there, away from its edges. Dismiss: the
  ///   same picture with to and from swapped at the start, to at the end.
  private func expectation(_ scene: Scene, atEnd: Bool) -> Expected {
    let style = scene.transition.style, forward = scene.transition.direction.isForward
    var e = Expected(width: scene.pixelWidth, height: scene.pixelHeight)
    let (w, h) = (Scene.width, Scene.height)
    let container = Rect(x: 0, y: 0, width: w, height: h)
    switch style {
    case .slide, .fade, .checkerboard, .explode, .glassBreak:
      e.paste(atEnd ? scene.to : scene.from)
    case .zoom:
      e.paste(atEnd ? scene.to : scene.from)
      e.fill(forward != atEnd ? Scene.imageRect : Scene.targetRect, with: Scene.imageColour)
    case .window:
      let window = Rect(x: 12, y: 75, width: 36, height: 150)
      switch (forward, atEnd) {
      case (true, false):
        e.paste(scene.from)
        e.dim(Rect(x: 12, y: 60, width: 36, height: 180))
        e.ignore(Rect(x: 29, y: 50, width: 2, height: 200))
      case (true, true):
        e.paste(scene.from)
        e.dim(container)
        e.paste(scene.to, x: 12, y: 75)
      case (false, false):
        e.paste(scene.to)
        e.dim(container)
        e.paste(scene.from, x: 12, y: 75)
      case (false, true):
        e.paste(scene.to)
        e.ignore(Rect(x: 29, y: window.y, width: 2, height: window.height))
      }
    case .circleReveal:
      let centre = Scene.button.center, radius = Scene.button.width / 2
      if forward {
        e.paste(atEnd ? scene.to : scene.from)
        if !atEnd { e.paste(scene.to, inside: centre, radius: radius) }
      } else {
        e.paste(atEnd ? scene.to : scene.from)
        if atEnd { e.paste(scene.from, inside: centre, radius: radius) }
      }
      if forward != atEnd { e.ignoreEdge(centre: centre, radius: radius) }
    case .tilt3D:
      if forward == atEnd {
        // Nothing behind, the sheet, the shrunk screen's strip.
        e.paste(forward ? scene.to : scene.from, x: 0, y: 20)
        e.ignore(Rect(x: 5, y: 5, width: 50, height: 16))
      } else {
        e.paste(atEnd ? scene.to : scene.from)
      }
    }
    return e
  }

  @Test(arguments: everyStyleAndDirection)
  func everyStyleStartsAndEndsOnThePictureUIKitShows(style: TransitionStyle, direction: TransitionDirection) throws {
    let scene = try Scene(style, direction)
    for atEnd in [false, true] {
      let time = atEnd ? scene.transition.endTime : 0
      let image = scene.render(at: time)
      let wrong = expectation(scene, atEnd: atEnd).mismatches(image)
      #expect(wrong.count == 0, "\(style) \(direction) at t = \(time): pixels differ, first \(wrong.prefix(5))")
      if style == .tilt3D && direction.isForward == atEnd {
        // The shrunk screen at half opacity above the sheet: x 6..<54, y 6..<20.
        var alphas: Set<Float> = []
        for y in 7..<19 {
          for x in 7..<53 { alphas.insert(image[x, y].w) }
        }
        #expect(alphas.allSatisfy { abs($0 - 0.5) < 1e-6 }, "\(alphas)")
      }
    }
  }

  @Test(arguments: everyStyleAndDirection)
  func everyStyleIsBitIdenticalForAnyBandingAndMatchesTheNaiveTwin(
    style: TransitionStyle, direction: TransitionDirection
  ) throws {
    let scene = try Scene(style, direction)
    let end = scene.transition.endTime
    for time in [0, end / 3, end / 2, end] {
      let serial = scene.render(at: time, options: .serial)
      // One band on the calling thread, three bands of 100 rows in parallel,
      // 7-row bands.
      #expect(scene.render(at: time, options: RasterOptions(bandHeight: 100)) == serial, "\(style) at \(time)")
      #expect(scene.render(at: time, options: RasterOptions(bandHeight: 7)) == serial, "\(style) at \(time)")
    }
    // The naive twins (every primitive visits every pixel), mid-transition.
    #expect(scene.renderNaively(at: end / 2) == scene.render(at: end / 2), "\(style) \(direction): naive twin")
  }

  // MARK: The oval mask

  @Test func maskedQuadKernelMatchesItsNaiveTwin() {
    // Random quads (some in perspective) through random ovals: round and
    // thin, partly outside the image, larger than it, degenerate; under
    // views with rotation and unequal scales; over a random background.
    var random = TestRandom(state: 2024)
    let texture = randomOpaqueImage(width: 11, height: 9, seed: 5)
    var translucent = texture
    for y in 0..<9 { for x in 0..<11 { translucent[x, y] *= Float(x + y) / 18 } }
    let (width, height) = (70, 50)
    var drawn = 0
    for k in 0..<64 {
      // Convex quads, as projected layers are: a rectangle whose corners move
      // by at most an eighth of its shorter side.
      let x = random.unit() * 60 - 5, y = random.unit() * 40 - 5
      let w = 10 + random.unit() * 40, h = 8 + random.unit() * 30
      func jitter() -> SIMD2<Float> { SIMD2(random.unit() - 0.5, random.unit() - 0.5) * (Swift.min(w, h) / 4) }
      var quad = TexturedQuad(
        corners: Quad2D(
          topLeft: SIMD2(x, y) + jitter(), topRight: SIMD2(x + w, y) + jitter(),
          bottomRight: SIMD2(x + w, y + h) + jitter(), bottomLeft: SIMD2(x, y + h) + jitter()),
        texture: k % 2, opacity: 0.3 + 0.7 * random.unit())
      let aspect = [1, 0.05, 20, 0.5][k % 4]
      let side = 2 + Double(random.unit()) * (k % 10 == 9 ? 200 : 30)
      let centre = SIMD2(20 + Double(random.unit() - 0.5) * 30, 15 + Double(random.unit() - 0.5) * 20)
      var mask = Rect(
        x: centre.x - side / 2, y: centre.y - side * aspect / 2, width: side, height: side * aspect)
      if k % 15 == 14 { mask.width = 0 }
      let angle = random.unit() * 6.3
      let (sx, sy) = (0.5 + random.unit() * 1.5, k % 3 == 0 ? 1 : 0.5 + random.unit() * 1.5)
      // About the image's centre: (20, 15) pt lands near (35, 25) px.
      var view = AffineTransform2D(
        a: sx * cos(angle), b: sx * sin(angle), c: -sy * sin(angle), d: sy * cos(angle), tx: 0, ty: 0)
      view.tx = 30 + random.unit() * 10 - (20 * view.a + 15 * view.c)
      view.ty = 20 + random.unit() * 10 - (20 * view.b + 15 * view.d)
      if k >= 60 {
        // Thin ovals under a quad covering the image: their ramps reach the
        // box grown by one pixel, where the coverage is cut.
        quad.corners = Quad2D(x: -1, y: -1, width: 80, height: 60)
        mask = Rect(x: 10.3, y: 20.2 + Double(k - 60) * 5, width: 40, height: 0.8 + Double(k - 60) * 0.3)
        view = k % 2 == 0 ? .identity : AffineTransform2D(a: 0.96, b: 0.28, c: -0.28, d: 0.96, tx: 3, ty: -4)
      }
      let background = randomOpaqueImage(width: width, height: height, seed: UInt64(k))
      var naive = background
      Rasterizer._drawMaskedQuadNaive(
        quad, textures: [texture, translucent], mask: mask, view: view, into: &naive)
      if naive != background { drawn += 1 }
      for options in [
        RasterOptions.serial, RasterOptions(bandHeight: 1), RasterOptions(bandHeight: 17), RasterOptions(),
      ] {
        var banded = background
        Rasterizer._drawMaskedQuad(
          quad, textures: [texture, translucent], mask: mask, view: view, into: &banded, options: options)
        #expect(banded == naive, "case \(k), band height \(options.bandHeight)")
      }
    }
    #expect(drawn > 30)
  }

  @Test func maskCoverageIsTheExactDistanceRampForACircleAndOneHalfOnAnEllipse() throws {
    // A square mask under a rotation and a uniform scale of 2: a circle of
    // radius 2·12 = 24 px, centre view((30, 20)).
    let angle: Float = 0.6
    let view = AffineTransform2D(
      a: 2 * cos(angle), b: 2 * sin(angle), c: -2 * sin(angle), d: 2 * cos(angle), tx: 40, ty: 5)
    let circle = try #require(
      _PreparedOval(Rect(x: 18, y: 8, width: 24, height: 24), view: view, width: 200, height: 200))
    let centre = SIMD2<Double>(Double(view.applying(to: SIMD2(30, 20)).x), Double(view.applying(to: SIMD2(30, 20)).y))
    var random = TestRandom(state: 77)
    for _ in 0..<2000 {
      let p = SIMD2<Float>(random.unit() * 120, random.unit() * 120)
      let d = SIMD2<Double>(p) - centre
      let exact = Swift.min(Swift.max(0.5 - ((d * d).sum().squareRoot() - 24), 0), 1)
      #expect(abs(Double(circle.coverage(px: p.x, py: p.y)) - exact) < 1e-5, "at \(p)")
      #expect(circle.coverage(px: p.x, py: p.y) == circle.coverageByDefinition(px: p.x, py: p.y))
    }
    // An ellipse 40 × 10 pt under the same view: points on it have coverage
    // 0.5, its centre 1, points well outside 0.
    let rect = Rect(x: 10, y: 15, width: 40, height: 10)
    let ellipse = try #require(_PreparedOval(rect, view: view, width: 200, height: 200))
    for k in 0..<64 {
      let theta = Double(k) / 64 * 2 * .pi
      let point = SIMD2<Float>(Float(30 + 20 * cos(theta)), Float(20 + 5 * sin(theta)))
      let p = view.applying(to: point)
      #expect(abs(ellipse.coverage(px: p.x, py: p.y) - 0.5) < 1e-3, "θ = \(theta)")
      let outside = view.applying(to: SIMD2(Float(30 + 22 * cos(theta)), Float(20 + 7 * sin(theta))))
      #expect(ellipse.coverage(px: outside.x, py: outside.y) == 0)
    }
    let c = view.applying(to: SIMD2(30, 20))
    #expect(ellipse.coverage(px: c.x, py: c.y) == 1)
  }

  @Test func aMaskCoveringTheLayerChangesNothingAndADegenerateMaskDrawsEverythingAway() {
    let from = randomOpaqueImage(width: 40, height: 30, seed: 3)
    let corners = Quad2D(x: 2, y: 3, width: 30, height: 20)
    func render(_ mask: Rect?) -> RGBAImage {
      var image = RGBAImage(width: 40, height: 30)
      Renderer()._render(
        layers: [
          TransitionLayer(content: .fromScreen, corners: corners, transform: .identity, opacity: 0.8, mask: mask)
        ],
        from: from, to: from, into: &image)
      return image
    }
    // Coverage 1 over the whole layer: the same bits as no mask.
    #expect(render(Rect(x: -100, y: -100, width: 300, height: 300)) == render(nil))
    // Zero width or height, or not finite: nothing is drawn.
    let empty = RGBAImage(width: 40, height: 30)
    for mask in [
      Rect(x: 10, y: 10, width: 0, height: 20), Rect(x: 10, y: 10, width: 20, height: 0),
      Rect(x: .nan, y: 10, width: 20, height: 20),
    ] {
      #expect(render(mask) == empty, "\(mask)")
    }
  }

  @Test func theZoomImageIsRequiredWhenALayerShowsIt() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let zoom = try! Transition(
        style: .zoom, width: 60, height: 300,
        options: TransitionOptions(imageRect: Scene.imageRect, targetRect: Scene.targetRect))
      let picture = DemoPicture.first.image(width: 60, height: 300)
      var image = RGBAImage(width: 60, height: 300)
      Renderer().render(zoom.frame(at: 0.1), from: picture, to: picture, into: &image)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("layer 3 shows the zoom image (.image); pass a non-empty image as `image:`"), "\(message)")
  }

  // MARK: The background

  /// Drawn over a background, a frame is the transparent frame composited
  /// over it (source-over is associative, so to Float rounding): exactly the
  /// background where no layer draws.
  @Test(arguments: everyStyleAndDirection)
  func theBackgroundShowsWhereNoLayerDraws(style: TransitionStyle, direction: TransitionDirection) throws {
    let scene = try Scene(style, direction)
    let background = ColorRGBA(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.8)
    let under = RGBAImage.premultiplied(background)
    let renderer = Renderer()
    for time in [0, scene.transition.endTime / 2] {
      let frame = scene.frame(at: time)
      var clear = RGBAImage(width: scene.pixelWidth, height: scene.pixelHeight)
      renderer.render(frame, from: scene.from, to: scene.to, image: scene.image, into: &clear)
      var filled = RGBAImage(width: scene.pixelWidth, height: scene.pixelHeight)
      renderer.render(frame, from: scene.from, to: scene.to, image: scene.image, background: background, into: &filled)
      var (empty, drawn) = (0, 0)
      for y in 0..<clear.height {
        for x in 0..<clear.width {
          let (c, f) = (clear[x, y], filled[x, y])
          if c.w == 0 {
            empty += 1
            #expect(f == under, "\(style) \(direction) t = \(time) (\(x), \(y))")
          } else {
            drawn += 1
            #expect(maxDifference(f, c + under * (1 - c.w)) < 1e-5, "\(style) \(direction) t = \(time) (\(x), \(y))")
          }
        }
      }
      #expect(drawn > 0)
      if style == .tilt3D && time > 0 { #expect(empty > 0, "tilt3D leaves its surroundings to the background") }
    }
  }
}
