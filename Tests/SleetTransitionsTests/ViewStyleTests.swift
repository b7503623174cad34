import SleetMath
import SleetTransitions
import Testing

// The reference articles' view transitions (seeds 000–004), checked against
// numbers worked out by hand from the formulas in `docs/transitions.md`: every
// expected frame, opacity and mask below is the spec's formula evaluated here
// (with this file's own easeInEaseOut, `referenceEase`), never the engine's
// output fed back.

extension Tag {
  /// Depends on `Transform3D.interpolated(to:fraction:)` being the CSS
  /// Transforms Level 2 decomposition (entry-wise interpolation misses these
  /// numbers by points).
  @Tag static var needsDecomposition: Self
}

@Suite("View styles: layers, corners, opacities and masks from transitions.md")
struct ViewStyleTests {
  // MARK: - Shared

  @Test func theHandEaseIsTheCurve() {
    // The helper itself, checked against numbers that need no curve solver:
    // the end points, the symmetric midpoint, and the value the independent
    // Python reference prints.
    #expect(referenceEase(0) == 0 && referenceEase(1) == 1)
    #expect(abs(referenceEase(0.5) - 0.5) < 1e-15)
    #expect(abs(referenceEase(0.25) - easeAtQuarter) < 1e-15)
    // Symmetry of (0.42, 0, 0.58, 1): ease(1 − x) = 1 − ease(x).
    #expect(abs(referenceEase(0.75) - (1 - easeAtQuarter)) < 1e-15)
  }

  @Test func durationsDirectionsAndCompletion() throws {
    let expected: [(TransitionStyle, Double, [TransitionDirection])] = [
      (.slide, 0.35, [.push, .pop]), (.fade, 0.5, [.push, .pop]), (.zoom, 0.5, [.push, .pop]),
      (.window, 0.45, [.present, .dismiss]), (.circleReveal, 0.5, [.push, .pop]),
      (.tilt3D, 0.6, [.present, .dismiss]),
    ]
    for (style, d, directions) in expected {
      #expect(style.directions == directions, "\(style)")
      for direction in directions {
        let t = try Self.make(style, direction, Container.all[0])
        #expect(t.duration == d, "\(style)")
        #expect(t.endTime == d, "\(style)")
        for (time, complete) in [
          (-0.1, false), (0, false), (d / 2, false), (d.nextDown, false), (d, true), (d + 1, true),
        ] {
          #expect(t.frame(at: time).isComplete == complete, "\(style) \(direction) t = \(time)")
          #expect(t.frame(at: time).time == time)
        }
      }
      // No direction means the first one.
      let t = try Self.make(style, nil, Container.all[0])
      #expect(t.direction == directions[0])
    }
  }

  // MARK: - 000 slide (0.35 s)

  @Test(arguments: Container.all) func slidePush(_ c: Container) throws {
    let t = try Transition(style: .slide, direction: .push, width: c.width, height: c.height)
    for (time, f) in keyTimes(duration: 0.35) {
      let layers = t.frame(at: time).layers
      let note = "t = \(time)"
      #expect(layers.map(\.content) == [.fromScreen, .color(.black), .toScreen], "\(note)")
      guard layers.count == 3 else { continue }
      expectFlat(layers[0], .fromScreen, frame: c.rect, opacity: 1, note)
      expectFlat(layers[1], .color(.black), frame: c.rect, opacity: 0.3 * f, note)
      // to.x: W → 0.
      expectFlat(
        layers[2], .toScreen, frame: Rect(x: c.width * (1 - f), y: 0, width: c.width, height: c.height), opacity: 1,
        note)
    }
    // Spot values for 390 wide, worked out on paper.
    if c.width == 390 {
      #expect(close(t.frame(at: 0.175).layers[2].corners.topLeft.x, 195))  // ease(½) = ½
      #expect(close(t.frame(at: 0.175).layers[1].opacity, 0.15, 3e-6))
      // ease(¼) = 0.129162: 390·(1 − 0.129162) = 339.6268.
      #expect(close(t.frame(at: 0.0875).layers[2].corners.topLeft.x, 339.6268, 1e-3))
      #expect(t.frame(at: 0.35).layers[2].corners.topLeft.x == 0)
      #expect(t.frame(at: -1).layers[2].corners.topLeft.x == 390)
      #expect(t.frame(at: 0.35).layers[1].opacity == Float(0.3))
    }
  }

  @Test(arguments: Container.all) func slidePop(_ c: Container) throws {
    let t = try Transition(style: .slide, direction: .pop, width: c.width, height: c.height)
    for (time, f) in keyTimes(duration: 0.35) {
      let layers = t.frame(at: time).layers
      let note = "t = \(time)"
      #expect(layers.map(\.content) == [.toScreen, .color(.black), .fromScreen], "\(note)")
      guard layers.count == 3 else { continue }
      expectFlat(layers[0], .toScreen, frame: c.rect, opacity: 1, note)
      expectFlat(layers[1], .color(.black), frame: c.rect, opacity: 0.3 * (1 - f), note)
      // from.x: 0 → W.
      expectFlat(
        layers[2], .fromScreen, frame: Rect(x: c.width * f, y: 0, width: c.width, height: c.height), opacity: 1, note)
    }
    if c.width == 390 {
      #expect(close(t.frame(at: 0.175).layers[2].corners.topLeft.x, 195))
      #expect(close(t.frame(at: 0.0875).layers[2].corners.topLeft.x, 50.3732, 1e-3))  // 390·0.129162
      #expect(t.frame(at: 0).layers[1].opacity == Float(0.3))
      #expect(t.frame(at: 1).layers[1].opacity == 0)
    }
  }

  // MARK: - 001 fade (0.5 s)

  @Test(arguments: Container.all) func fade(_ c: Container) throws {
    let push = try Transition(style: .fade, direction: .push, width: c.width, height: c.height)
    let pop = try Transition(style: .fade, direction: .pop, width: c.width, height: c.height)
    for (time, f) in keyTimes(duration: 0.5) {
      let note = "t = \(time)"
      let a = push.frame(at: time).layers
      #expect(a.map(\.content) == [.fromScreen, .toScreen], "\(note)")
      if a.count == 2 {
        expectFlat(a[0], .fromScreen, frame: c.rect, opacity: 1, note)
        expectFlat(a[1], .toScreen, frame: c.rect, opacity: f, note)  // to: 0 → 1
      }
      let b = pop.frame(at: time).layers
      #expect(b.map(\.content) == [.toScreen, .fromScreen], "\(note)")
      if b.count == 2 {
        expectFlat(b[0], .toScreen, frame: c.rect, opacity: 1, note)
        expectFlat(b[1], .fromScreen, frame: c.rect, opacity: 1 - f, note)  // from: 1 → 0
      }
    }
    #expect(push.frame(at: 0.25).layers[1].opacity == 0.5)
    #expect(close(push.frame(at: 0.125).layers[1].opacity, easeAtQuarter, 3e-6))
    #expect(close(pop.frame(at: 0.125).layers[1].opacity, 1 - easeAtQuarter, 3e-6))
  }

  // MARK: - 002a zoom (0.5 s)

  /// The feed cell and the detail screen's image, both inside either container.
  static let imageRect = Rect(x: 20, y: 100, width: 100, height: 80)
  static let targetRect = Rect(x: 0, y: 64, width: 380, height: 300)

  /// Component-wise a + (b − a)·f, written out.
  static func mix(_ a: Rect, _ b: Rect, _ f: Double) -> Rect {
    Rect(
      x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f,
      width: a.width + (b.width - a.width) * f, height: a.height + (b.height - a.height) * f)
  }

  @Test(arguments: Container.all) func zoomPush(_ c: Container) throws {
    let t = try Transition(
      style: .zoom, direction: .push, width: c.width, height: c.height,
      options: TransitionOptions(imageRect: Self.imageRect, targetRect: Self.targetRect))
    for (time, f) in keyTimes(duration: 0.5) {
      let layers = t.frame(at: time).layers
      let note = "t = \(time)"
      #expect(layers.map(\.content) == [.color(.white), .fromScreen, .toScreen, .image], "\(note)")
      guard layers.count == 4 else { continue }
      expectFlat(layers[0], .color(.white), frame: c.rect, opacity: 1, note)
      expectFlat(layers[1], .fromScreen, frame: c.rect, opacity: 1, note)
      expectFlat(layers[2], .toScreen, frame: c.rect, opacity: f, note)
      expectFlat(layers[3], .image, frame: Self.mix(Self.imageRect, Self.targetRect, f), opacity: 1, note)
    }
    // Half way: (20, 100, 100, 80) and (0, 64, 380, 300) average to (10, 82, 240, 190).
    expectFlat(t.frame(at: 0.25).layers[3], .image, frame: Rect(x: 10, y: 82, width: 240, height: 190), opacity: 1)
    expectFlat(t.frame(at: 0.5).layers[3], .image, frame: Self.targetRect, opacity: 1)
  }

  @Test(arguments: Container.all) func zoomPop(_ c: Container) throws {
    let t = try Transition(
      style: .zoom, direction: .pop, width: c.width, height: c.height,
      options: TransitionOptions(imageRect: Self.imageRect, targetRect: Self.targetRect))
    for (time, f) in keyTimes(duration: 0.5) {
      let layers = t.frame(at: time).layers
      let note = "t = \(time)"
      // The white container first; the detail screen's own image hidden
      // (white over targetRect) right above the from screen.
      #expect(
        layers.map(\.content) == [.color(.white), .fromScreen, .color(.white), .toScreen, .image], "\(note)")
      guard layers.count == 5 else { continue }
      expectFlat(layers[0], .color(.white), frame: c.rect, opacity: 1, note)
      expectFlat(layers[1], .fromScreen, frame: c.rect, opacity: 1, note)
      expectFlat(layers[2], .color(.white), frame: Self.targetRect, opacity: 1, note)
      expectFlat(layers[3], .toScreen, frame: c.rect, opacity: f, note)
      // Flies targetRect → imageRect.
      expectFlat(layers[4], .image, frame: Self.mix(Self.targetRect, Self.imageRect, f), opacity: 1, note)
    }
    expectFlat(t.frame(at: 0.25).layers[4], .image, frame: Rect(x: 10, y: 82, width: 240, height: 190), opacity: 1)
    expectFlat(t.frame(at: 0).layers[4], .image, frame: Self.targetRect, opacity: 1)
    expectFlat(t.frame(at: 0.5).layers[4], .image, frame: Self.imageRect, opacity: 1)
  }

  // MARK: - 002b window (0.45 s)

  @Test(arguments: Container.all) func windowPresent(_ c: Container) throws {
    let t = try Transition(style: .window, direction: .present, width: c.width, height: c.height)
    let (w, h) = (c.width, c.height)
    for (time, f) in keyTimes(duration: 0.45) {
      let layers = t.frame(at: time).layers
      let note = "t = \(time)"
      #expect(layers.map(\.content) == [.fromScreen, .color(.black), .toScreen], "\(note)")
      guard layers.count == 3 else { continue }
      expectFlat(layers[0], .fromScreen, frame: c.rect, opacity: 1, note)
      // dim bounds (3W/5, 3H/5) → (W, H), centred, alpha 0.3 throughout.
      let dim = centred(3 * w / 5 + (w - 3 * w / 5) * f, 3 * h / 5 + (h - 3 * h / 5) * f, in: c)
      expectFlat(layers[1], .color(.black), frame: dim, opacity: 0.3, note)
      // to bounds (1, 2H/3) → (3W/5, H/2), centred.
      let window = centred(1 + (3 * w / 5 - 1) * f, 2 * h / 3 + (h / 2 - 2 * h / 3) * f, in: c)
      expectFlat(layers[2], .toScreen, frame: window, opacity: 1, note)
    }
    if c.width == 390 {
      // t = 0: to is 1 × 562.667 at x = 194.5, y = 140.667; dim 234 × 506.4 at (78, 168.8).
      expectFlat(
        t.frame(at: 0).layers[2], .toScreen, frame: Rect(x: 194.5, y: 844.0 / 6, width: 1, height: 1688.0 / 3),
        opacity: 1)
      expectFlat(
        t.frame(at: 0).layers[1], .color(.black), frame: Rect(x: 78, y: 168.8, width: 234, height: 506.4), opacity: 0.3)
      // t = D: to is 234 × 422 at (78, 211).
      expectFlat(
        t.frame(at: 0.45).layers[2], .toScreen, frame: Rect(x: 78, y: 211, width: 234, height: 422), opacity: 1)
      // t = D/2: to is 117.5 × 492.333 at (136.25, 175.833).
      expectFlat(
        t.frame(at: 0.225).layers[2], .toScreen,
        frame: Rect(x: 136.25, y: (844 - 2954.0 / 6) / 2, width: 117.5, height: 2954.0 / 6), opacity: 1)
    }
  }

  @Test(arguments: Container.all) func windowDismiss(_ c: Container) throws {
    let t = try Transition(style: .window, direction: .dismiss, width: c.width, height: c.height)
    let (w, h) = (c.width, c.height)
    for (time, f) in keyTimes(duration: 0.45) {
      let layers = t.frame(at: time).layers
      let note = "t = \(time)"
      // The dimming layer is removed at the end (t ≥ D).
      let dimmed = time < 0.45
      #expect(
        layers.map(\.content) == (dimmed ? [.toScreen, .color(.black), .fromScreen] : [.toScreen, .fromScreen]),
        "\(note)")
      guard layers.count == (dimmed ? 3 : 2) else { continue }
      expectFlat(layers[0], .toScreen, frame: c.rect, opacity: 1, note)
      if dimmed { expectFlat(layers[1], .color(.black), frame: c.rect, opacity: 0.3, note) }
      // from bounds (3W/5, H/2) → (1, H/2), centred.
      let window = centred(3 * w / 5 + (1 - 3 * w / 5) * f, h / 2, in: c)
      expectFlat(layers[layers.count - 1], .fromScreen, frame: window, opacity: 1, note)
    }
    #expect(t.frame(at: (0.45).nextDown).layers.count == 3)
    if c.width == 390 {
      expectFlat(t.frame(at: 0).layers[2], .fromScreen, frame: Rect(x: 78, y: 211, width: 234, height: 422), opacity: 1)
      expectFlat(
        t.frame(at: 0.45).layers[1], .fromScreen, frame: Rect(x: 194.5, y: 211, width: 1, height: 422), opacity: 1)
      expectFlat(
        t.frame(at: 0.225).layers[2], .fromScreen, frame: Rect(x: 136.25, y: 211, width: 117.5, height: 422), opacity: 1
      )
    }
  }

  // MARK: - 003 circle reveal (0.5 s)

  /// A button and the vector v of the quadrant rule worked out on paper:
  /// right = B.x > W/2, top = B.y < H/2,
  /// v = (c.x − (right ? 0 : W), c.y − (top ? H − 30 : 0)).
  struct Button: Sendable, CustomTestStringConvertible {
    var container: Container
    var frame: Rect
    var v: (Double, Double)
    var quadrant: String
    var testDescription: String { "\(container.testDescription) \(quadrant)" }
    var radius: Double { (v.0 * v.0 + v.1 * v.1).squareRoot() }
  }

  static let buttons: [Button] = {
    let phone = Container.all[0], tablet = Container.all[1]
    return [
      // 390 × 844: W/2 = 195, H/2 = 422, H − 30 = 814.
      // c = (38, 72); left, top: (38 − 390, 72 − 814).
      Button(container: phone, frame: Rect(x: 16, y: 50, width: 44, height: 44), v: (-352, -742), quadrant: "top left"),
      // c = (345, 55); right, top: (345 − 0, 55 − 814).
      Button(
        container: phone, frame: Rect(x: 320, y: 40, width: 50, height: 30), v: (345, -759), quadrant: "top right"),
      // c = (50, 780); left, bottom: (50 − 390, 780 − 0).
      Button(
        container: phone, frame: Rect(x: 20, y: 760, width: 60, height: 40), v: (-340, 780), quadrant: "bottom left"),
      // c = (335, 725); right, bottom: (335, 725).
      Button(
        container: phone, frame: Rect(x: 300, y: 700, width: 70, height: 50), v: (335, 725), quadrant: "bottom right"),
      // The rule reads the origin, not the centre: B.x = 180 < 195 although
      // c.x = 200 > 195, so "left": (200 − 390, 120 − 814).
      Button(
        container: phone, frame: Rect(x: 180, y: 100, width: 40, height: 40), v: (-190, -694),
        quadrant: "origin left of centre, centre right"),
      // On the centre lines: 195 > 195 and 422 < 422 are false: left, bottom.
      // c = (205, 432): (205 − 390, 432).
      Button(
        container: phone, frame: Rect(x: 195, y: 422, width: 20, height: 20), v: (-185, 432),
        quadrant: "on both centre lines"),
      // 1024 × 768: W/2 = 512, H/2 = 384, H − 30 = 738.
      Button(
        container: tablet, frame: Rect(x: 10, y: 10, width: 40, height: 40), v: (30 - 1024, 30 - 738),
        quadrant: "top left"),
      Button(
        container: tablet, frame: Rect(x: 900, y: 20, width: 100, height: 40), v: (950, 40 - 738), quadrant: "top right"
      ),
      Button(
        container: tablet, frame: Rect(x: 40, y: 600, width: 80, height: 80), v: (80 - 1024, 640),
        quadrant: "bottom left"),
      Button(
        container: tablet, frame: Rect(x: 800, y: 700, width: 60, height: 60), v: (830, 730), quadrant: "bottom right"),
    ]
  }()

  @Test(arguments: ViewStyleTests.buttons) func circleRevealRadiusByTheQuadrantRule(_ b: Button) throws {
    for direction in [TransitionDirection.push, .pop] {
      let t = try Transition(
        style: .circleReveal, direction: direction, width: b.container.width, height: b.container.height,
        options: TransitionOptions(button: b.frame))
      let r = try #require(t.circleRevealRadius)
      #expect(abs(r - b.radius) < 1e-9, "r = \(r), expected |\(b.v)| = \(b.radius)")
    }
  }

  @Test func circleRevealRadiusSpotValues() throws {
    // |(−352, −742)|² = 123 904 + 550 564 = 674 468; √ = 821.2600…
    let t = try Transition(
      style: .circleReveal, width: 390, height: 844,
      options: TransitionOptions(button: Rect(x: 16, y: 50, width: 44, height: 44)))
    #expect(abs(t.circleRevealRadius! - 821.26000) < 1e-5)
    // |(335, 725)|² = 112 225 + 525 625 = 637 850; √ = 798.6551…
    let u = try Transition(
      style: .circleReveal, width: 390, height: 844,
      options: TransitionOptions(button: Rect(x: 300, y: 700, width: 70, height: 50)))
    #expect(abs(u.circleRevealRadius! - 798.65512) < 1e-5)
    // Other styles have no radius.
    #expect(try Transition(style: .slide, width: 390, height: 844).circleRevealRadius == nil)
  }

  @Test(arguments: ViewStyleTests.buttons) func circleRevealMask(_ b: Button) throws {
    let c = b.container
    let r = b.radius
    let (bx, by, bw, bh) = (b.frame.x, b.frame.y, b.frame.width, b.frame.height)
    // The rect grows from B to B inset by (−r, −r): at fraction f it is
    // (B.x − r·f, B.y − r·f, B.w + 2r·f, B.h + 2r·f).
    func grown(_ f: Double) -> Rect {
      Rect(x: bx - r * f, y: by - r * f, width: bw + 2 * r * f, height: bh + 2 * r * f)
    }
    let push = try Transition(
      style: .circleReveal, direction: .push, width: c.width, height: c.height,
      options: TransitionOptions(button: b.frame))
    let pop = try Transition(
      style: .circleReveal, direction: .pop, width: c.width, height: c.height,
      options: TransitionOptions(button: b.frame))
    for (time, f) in keyTimes(duration: 0.5) {
      let note = "t = \(time)"
      let a = push.frame(at: time).layers
      #expect(a.map(\.content) == [.fromScreen, .toScreen], "\(note)")
      if a.count == 2 {
        expectFlat(a[0], .fromScreen, frame: c.rect, opacity: 1, note)
        expectFlat(a[1], .toScreen, frame: c.rect, opacity: 1, mask: grown(f), note)
      }
      let p = pop.frame(at: time).layers
      #expect(p.map(\.content) == [.toScreen, .fromScreen], "\(note)")
      if p.count == 2 {
        expectFlat(p[0], .toScreen, frame: c.rect, opacity: 1, note)
        expectFlat(p[1], .fromScreen, frame: c.rect, opacity: 1, mask: grown(1 - f), note)
      }
    }
    // The three named instants: 0, D/2, D.
    #expect(close(push.frame(at: 0).layers[1].mask, b.frame))
    #expect(close(push.frame(at: 0.25).layers[1].mask, grown(0.5)))
    #expect(close(push.frame(at: 0.5).layers[1].mask, b.frame.insetBy(dx: -r, dy: -r)))
    #expect(close(pop.frame(at: 0).layers[1].mask, b.frame.insetBy(dx: -r, dy: -r)))
    #expect(close(pop.frame(at: 0.25).layers[1].mask, grown(0.5)))
    #expect(close(pop.frame(at: 0.5).layers[1].mask, b.frame))
  }

  // MARK: - 004 tilt3D (0.6 s: two phases of 0.3 s)

  /// t1 and t2 built from the spec's formulas with the Make functions
  /// (row vectors; `a.concatenating(b)` = a·b):
  /// t1 = R_x(15°)·S(0.95, 0.95, 1)·P, t2 = S(0.8, 0.8, 1)·T(0, −0.08·H, 0)·P.
  static func handTilt(height: Double) -> (t1: Transform3D, t2: Transform3D) {
    let p = Transform3D.makePerspective(eyeDistance: 900)
    let t1 = Transform3D.makeRotation(angle: 15 * Float.pi / 180, x: 1, y: 0, z: 0)
      .concatenating(.makeScale(x: 0.95, y: 0.95, z: 1)).concatenating(p)
    let t2 = Transform3D.makeScale(x: 0.8, y: 0.8, z: 1)
      .concatenating(.makeTranslation(x: 0, y: Float(-0.08 * height), z: 0)).concatenating(p)
    return (t1, t2)
  }

  static func rows(_ t: Transform3D) -> [SIMD4<Double>] {
    [t.row1, t.row2, t.row3, t.row4].map { SIMD4<Double>($0) }
  }

  /// The layer's whole transform, unit square → container:
  /// S(W, H, 1)·T(−W/2, −H/2, 0)·t·T(W/2, H/2, 0), entries row by row.
  static func handLayerTransform(_ t: Transform3D, _ c: Container) -> [Double] {
    let r = rows(t)
    let (w, h) = (c.width, c.height)
    var m = [w * r[0], h * r[1], r[2], -w / 2 * r[0] - h / 2 * r[1] + r[3]]
    for i in 0..<4 {
      m[i].x += w / 2 * m[i].w
      m[i].y += h / 2 * m[i].w
    }
    return m.flatMap { [$0.x, $0.y, $0.z, $0.w] }
  }

  /// corner (u, v) ↦ [(u−½)W, (v−½)H, 0, 1]·t, divided by w, plus the
  /// centre; TL TR BR BL. Also the largest z before the divide.
  static func handCorners(_ t: Transform3D, _ c: Container) -> (corners: [SIMD2<Double>], depth: Double) {
    let r = rows(t)
    var out: [SIMD2<Double>] = []
    var depth = -Double.infinity
    for (u, v) in [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)] {
      let p = (u - 0.5) * c.width * r[0] + (v - 0.5) * c.height * r[1] + r[3]
      depth = max(depth, p.z)
      out.append(SIMD2(p.x / p.w + c.width / 2, p.y / p.w + c.height / 2))
    }
    return (out, depth)
  }

  static func cornerArray(_ q: Quad2D) -> [SIMD2<Float>] { [q.topLeft, q.topRight, q.bottomRight, q.bottomLeft] }

  /// Expects the tilted screen's layer to show `content` under transform `t`.
  static func expectTilted(
    _ layer: TransitionLayer, _ content: TransitionContent, _ t: Transform3D, _ c: Container, opacity: Double,
    _ note: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(layer.content == content, "\(note)", sourceLocation: sourceLocation)
    let expected = handLayerTransform(t, c)
    for (i, (got, want)) in zip(layer.transform.entries, expected).enumerated() {
      #expect(
        abs(Double(got) - want) <= 1e-4 + 1e-5 * abs(want),
        "m\(i / 4 + 1)\(i % 4 + 1) = \(got), expected \(want) — \(note)",
        sourceLocation: sourceLocation)
    }
    let (corners, depth) = handCorners(t, c)
    for (i, (got, want)) in zip(cornerArray(layer.corners), corners).enumerated() {
      #expect(
        close(got.x, want.x) && close(got.y, want.y), "corner \(i) = \(got), expected \(want) — \(note)",
        sourceLocation: sourceLocation)
    }
    #expect(
      close(layer.depth, depth, 1e-3), "depth \(layer.depth), expected \(depth) — \(note)",
      sourceLocation: sourceLocation)
    #expect(
      close(layer.opacity, opacity, 3e-6), "opacity \(layer.opacity), expected \(opacity) — \(note)",
      sourceLocation: sourceLocation)
    #expect(layer.mask == nil && layer.textureCorners == .unit, "\(note)", sourceLocation: sourceLocation)
  }

  @Test(arguments: Container.all) func tiltTransformsAreTheSpecsProducts(_ c: Container) throws {
    let t = try Transition(style: .tilt3D, width: c.width, height: c.height)
    let (t1, t2) = Self.handTilt(height: c.height)
    let (e1, e2) = t.tiltTransforms
    for (got, want) in [(e1, t1), (e2, t2)] {
      #expect(zip(got.entries, want.entries).allSatisfy { abs($0 - $1) <= 1e-6 * max(1, abs($1)) }, "\(got) vs \(want)")
    }
    // And the entries of t1 and t2 on paper (c = cos 15°, s = sin 15°):
    // t1 rows (0.95, 0, 0, 0), (0, 0.95c, s, −s/900), (0, −0.95s, c, −c/900), (0, 0, 0, 1);
    // t2 rows (0.8, 0, 0, 0), (0, 0.8, 0, 0), (0, 0, 1, −1/900), (0, −0.08H, 0, 1).
    let (cs, sn) = (0.9659258262890683, 0.25881904510252074)
    let paper1: [Double] = [0.95, 0, 0, 0, 0, 0.95 * cs, sn, -sn / 900, 0, -0.95 * sn, cs, -cs / 900, 0, 0, 0, 1]
    let paper2: [Double] = [0.8, 0, 0, 0, 0, 0.8, 0, 0, 0, 0, 1, -1.0 / 900, 0, -0.08 * c.height, 0, 1]
    #expect(zip(e1.entries, paper1).allSatisfy { abs(Double($0) - $1) <= 1e-6 * max(1, abs($1)) }, "\(e1.entries)")
    #expect(zip(e2.entries, paper2).allSatisfy { abs(Double($0) - $1) <= 1e-6 * max(1, abs($1)) }, "\(e2.entries)")
  }

  /// Times across both phases and beyond; the sheet and the opacity do not
  /// depend on how transforms interpolate, so they are checked at every one.
  static let tiltTimes: [Double] = [-0.2, 0, 0.075, 0.15, 0.2, 0.3, 0.375, 0.45, 0.5, 0.6, 0.8]

  @Test(arguments: Container.all) func tiltPresentSheetAndOpacity(_ c: Container) throws {
    let t = try Transition(style: .tilt3D, direction: .present, width: c.width, height: c.height)
    for time in Self.tiltTimes {
      let f2 = referenceFraction(at: time, start: 0.3, duration: 0.3)
      let layers = t.frame(at: time).layers
      let note = "t = \(time)"
      #expect(layers.map(\.content) == [.fromScreen, .toScreen], "\(note)")
      guard layers.count == 2 else { continue }
      // Phase 2 only: from.alpha 1 → 0.5, to.y H → H − 280.
      #expect(close(layers[0].opacity, 1 - 0.5 * f2, 3e-6), "\(note): opacity \(layers[0].opacity)")
      expectFlat(
        layers[1], .toScreen, frame: Rect(x: 0, y: c.height - 280 * f2, width: c.width, height: 280), opacity: 1, note)
    }
    // On paper: the sheet's top is at H through phase 1 and at H − 280 from 0.6 s.
    for time in [-1, 0, 0.1, 0.3] { #expect(t.frame(at: time).layers[1].corners.topLeft.y == Float(c.height)) }
    for time in [0.6, 2] { #expect(t.frame(at: time).layers[1].corners.topLeft.y == Float(c.height - 280)) }
    #expect(close(t.frame(at: 0.45).layers[1].corners.topLeft.y, c.height - 140))
    #expect(close(t.frame(at: 0.45).layers[0].opacity, 0.75, 3e-6))
    #expect(close(t.frame(at: 0.375).layers[0].opacity, 1 - 0.5 * easeAtQuarter, 3e-6))
    #expect(t.frame(at: 0.3).layers[0].opacity == 1 && t.frame(at: 0.6).layers[0].opacity == 0.5)
  }

  @Test(arguments: Container.all) func tiltDismissSheetAndOpacity(_ c: Container) throws {
    let t = try Transition(style: .tilt3D, direction: .dismiss, width: c.width, height: c.height)
    for time in Self.tiltTimes {
      let f1 = referenceFraction(at: time, duration: 0.3)
      let f2 = referenceFraction(at: time, start: 0.3, duration: 0.3)
      let layers = t.frame(at: time).layers
      let note = "t = \(time)"
      #expect(layers.map(\.content) == [.toScreen, .fromScreen], "\(note)")
      guard layers.count == 2 else { continue }
      // Underneath: alpha 0.5 through phase 1, then 0.5 → 1.
      #expect(close(layers[0].opacity, 0.5 + 0.5 * f2, 3e-6), "\(note): opacity \(layers[0].opacity)")
      // The sheet slides out in phase 1: y = H − 280 → H.
      expectFlat(
        layers[1], .fromScreen, frame: Rect(x: 0, y: c.height - 280 + 280 * f1, width: c.width, height: 280),
        opacity: 1, note)
    }
    #expect(close(t.frame(at: 0.15).layers[1].corners.topLeft.y, c.height - 140))
    #expect(t.frame(at: 0.3).layers[0].opacity == 0.5 && t.frame(at: 0.6).layers[0].opacity == 1)
  }

  /// At the phase ends the transform is exactly identity, t1 or t2, so
  /// nothing here depends on how matrices interpolate.
  @Test(arguments: Container.all) func tiltTransformsAtThePhaseEnds(_ c: Container) throws {
    let present = try Transition(style: .tilt3D, direction: .present, width: c.width, height: c.height)
    let dismiss = try Transition(style: .tilt3D, direction: .dismiss, width: c.width, height: c.height)
    let (t1, t2) = Self.handTilt(height: c.height)
    let id = Transform3D.identity
    // Present: identity (≤ 0) → t1 (0.3) → t2 (≥ 0.6), opacity 1, 1, 0.5.
    for (time, m, opacity) in [(-0.5, id, 1.0), (0, id, 1), (0.3, t1, 1), (0.6, t2, 0.5), (0.9, t2, 0.5)] {
      Self.expectTilted(present.frame(at: time).layers[0], .fromScreen, m, c, opacity: opacity, "present t = \(time)")
    }
    // Dismiss: t2 (≤ 0) → t1 (0.3) → identity (≥ 0.6), opacity 0.5, 0.5, 1.
    for (time, m, opacity) in [(-0.5, t2, 0.5), (0, t2, 0.5), (0.3, t1, 0.5), (0.6, id, 1), (0.9, id, 1)] {
      Self.expectTilted(dismiss.frame(at: time).layers[0], .toScreen, m, c, opacity: opacity, "dismiss t = \(time)")
    }
    // Identity is the plain full-container frame.
    expectFlat(present.frame(at: 0).layers[0], .fromScreen, frame: c.rect, opacity: 1)
    expectFlat(dismiss.frame(at: 0.6).layers[0], .toScreen, frame: c.rect, opacity: 1)
  }

  /// The from screen at t = 0.3 under t1, projected on paper. For 390 × 844,
  /// with c = cos 15°, s = sin 15°, the top-left corner is
  /// [−195, −422, 0, 1]·t1 = (−185.25, −422·0.95c, −422s, 1 + 422s/900)
  /// = (−185.25, −387.2397, −109.2216, 1.1213574), so (−165.2016 + 195,
  /// −345.3312 + 422) = (29.7984, 76.6688); the bottom edge comes nearer
  /// (w = 1 − 422s/900 < 1) and spreads past the container. The same numbers
  /// come out of `docs/tools/tilt3d_reference.py` (an independent numpy
  /// computation).
  @Test func tiltProjectedCornersAtPhaseOneEnd() throws {
    let phone = try Transition(style: .tilt3D, direction: .present, width: 390, height: 844)
    let tablet = try Transition(style: .tilt3D, direction: .present, width: 1024, height: 768)
    let cases: [(Transition, Double, [SIMD2<Double>], Double)] = [
      (
        phone, 0.3,
        [
          SIMD2(29.798429, 76.668821), SIMD2(360.201571, 76.668821), SIMD2(405.836573, 862.724878),
          SIMD2(-15.836573, 862.724878),
        ], 422 * 0.25881904510252074
      ),
      (phone, 0.6, [SIMD2(39, 16.88), SIMD2(351, 16.88), SIMD2(351, 692.08), SIMD2(39, 692.08)], 0),
      (
        tablet, 0.3,
        [
          SIMD2(73.971275, 66.672557), SIMD2(950.028725, 66.672557), SIMD2(1058.780697, 780.112197),
          SIMD2(-34.780697, 780.112197),
        ], 384 * 0.25881904510252074
      ),
      (tablet, 0.6, [SIMD2(102.4, 15.36), SIMD2(921.6, 15.36), SIMD2(921.6, 629.76), SIMD2(102.4, 629.76)], 0),
    ]
    for (t, time, corners, depth) in cases {
      let layer = t.frame(at: time).layers[0]
      for (i, (got, want)) in zip(Self.cornerArray(layer.corners), corners).enumerated() {
        #expect(
          close(got.x, want.x) && close(got.y, want.y),
          "\(t.width)×\(t.height) t = \(time) corner \(i): \(got) vs \(want)")
      }
      // Depth: the bottom edge's z = (H/2)·s under t1, 0 under t2.
      #expect(close(layer.depth, depth, 1e-3), "depth \(layer.depth) vs \(depth)")
    }
  }

  // MARK: - tilt3D mid-phase: the decomposition

  struct MidPhase: Sendable, CustomTestStringConvertible {
    var container: Container
    var direction: TransitionDirection
    var time: Double
    var corners: [SIMD2<Double>]
    var testDescription: String { "\(container.testDescription) \(direction) t = \(time)" }
  }

  /// Printed by `python3 docs/tools/tilt3d_reference.py`: the CSS Transforms
  /// Level 2 decomposition (perspective, translation, scale, skew, quaternion),
  /// the parts interpolated (quaternion by slerp) at the eased fraction,
  /// recomposed, and the screen's corners projected; computed in numpy from
  /// the spec's t1 and t2, without SleetKit. At 0.15 and 0.45 the eased
  /// fraction is ½; at 0.075 it is ease(¼). Entry-wise interpolation misses
  /// these by 4.8 to 14.5 points.
  static let midPhases: [MidPhase] = {
    let phone = Container.all[0], tablet = Container.all[1]
    // identity → t1 at ½ (present 0.15) equals t1 → identity at ½ (dismiss 0.45), and
    // t1 → t2 at ½ (present 0.45) equals t2 → t1 at ½ (dismiss 0.15).
    let phoneA = [
      SIMD2(10.658927, 26.134425), SIMD2(379.341073, 26.134425), SIMD2(391.283639, 843.511790),
      SIMD2(-1.283639, 843.511790),
    ]
    let phoneB = [
      SIMD2(33.473406, 43.098251), SIMD2(356.526594, 43.098251), SIMD2(375.809570, 774.584623),
      SIMD2(14.190430, 774.584623),
    ]
    let phoneQ = [
      SIMD2(1.672483, 3.696636), SIMD2(388.327517, 3.696636), SIMD2(389.155595, 842.095080),
      SIMD2(0.844405, 842.095080),
    ]
    let tabletA = [
      SIMD2(26.656969, 22.791595), SIMD2(997.343031, 22.791595), SIMD2(1025.871481, 766.440225),
      SIMD2(-1.871481, 766.440225),
    ]
    let tabletB = [
      SIMD2(85.842875, 37.553840), SIMD2(938.157125, 37.553840), SIMD2(984.202976, 703.120056),
      SIMD2(39.797024, 703.120056),
    ]
    let tabletQ = [
      SIMD2(4.293847, 3.290657), SIMD2(1019.706153, 3.290657), SIMD2(1021.684603, 766.192907),
      SIMD2(2.315397, 766.192907),
    ]
    return [
      MidPhase(container: phone, direction: .present, time: 0.15, corners: phoneA),
      MidPhase(container: phone, direction: .present, time: 0.45, corners: phoneB),
      MidPhase(container: phone, direction: .dismiss, time: 0.15, corners: phoneB),
      MidPhase(container: phone, direction: .dismiss, time: 0.45, corners: phoneA),
      MidPhase(container: phone, direction: .present, time: 0.075, corners: phoneQ),
      MidPhase(container: tablet, direction: .present, time: 0.15, corners: tabletA),
      MidPhase(container: tablet, direction: .present, time: 0.45, corners: tabletB),
      MidPhase(container: tablet, direction: .dismiss, time: 0.15, corners: tabletB),
      MidPhase(container: tablet, direction: .dismiss, time: 0.45, corners: tabletA),
      MidPhase(container: tablet, direction: .present, time: 0.075, corners: tabletQ),
    ]
  }()

  /// The corners to 0.01 pt (they agree to about 4e-5 pt, Float rounding).
  @Test(.tags(.needsDecomposition), arguments: ViewStyleTests.midPhases)
  func tiltMidPhaseCornersFollowTheDecomposition(_ m: MidPhase) throws {
    let t = try Transition(style: .tilt3D, direction: m.direction, width: m.container.width, height: m.container.height)
    let layer = t.frame(at: m.time).layers[0]
    for (i, (got, want)) in zip(Self.cornerArray(layer.corners), m.corners).enumerated() {
      #expect(close(got.x, want.x, 0.01) && close(got.y, want.y, 0.01), "corner \(i): \(got), expected \(want)")
    }
  }

  // MARK: - Helpers

  static func make(_ style: TransitionStyle, _ direction: TransitionDirection?, _ c: Container) throws -> Transition {
    var options = TransitionOptions()
    switch style {
    case .zoom: options = TransitionOptions(imageRect: imageRect, targetRect: targetRect)
    case .circleReveal: options = TransitionOptions(button: Rect(x: 16, y: 50, width: 44, height: 44))
    default: break
    }
    return try Transition(style: style, direction: direction, width: c.width, height: c.height, options: options)
  }
}
