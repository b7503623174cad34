import SleetMath

// The reference articles' view transitions (seeds 000–004), with the binding
// numbers of `transitions.md`. Each style appends its layers back to front;
// every animated value is a + (b − a)·ease((t − t0)/d) with UIKit's
// easeInEaseOut (`_Animation.fraction`).

extension Transition {
  /// Seed 000's dimming colour: black, at most 30 % opaque.
  public static let dimmingOpacity = 0.3
  /// Seed 004's sheet height in points.
  public static let sheetHeight = 280.0
  /// Seed 004's phase length in seconds (two phases).
  public static let tiltPhase = 0.3
  /// Seed 004's perspective: m34 = −1/900.
  public static let tiltEyeDistance: Float = 900
  /// Seed 003's quadrant rule adds 30 points to the vertical reach of the
  /// circle when the button is in the top half (kept from the article).
  public static let circleRevealMargin = 30.0

  private var container: Rect { Rect(x: 0, y: 0, width: width, height: height) }

  /// Seed 000, 0.35 s. Push: [from, dim, to]: to.x W → 0, dim opacity
  /// 0 → 0.3. Pop: [to, dim, from]: from.x 0 → W, dim 0.3 → 0.
  func _slide(at time: Double, into layers: inout [TransitionLayer]) {
    let f = _Animation.fraction(at: time, duration: duration)
    let dim = ColorRGBA.black
    if direction == .push {
      layers.append(_LayerGeometry.flat(.fromScreen, frame: container))
      layers.append(
        _LayerGeometry.flat(.color(dim), frame: container, opacity: _Animation.mix(0, Transition.dimmingOpacity, f)))
      layers.append(
        _LayerGeometry.flat(.toScreen, frame: Rect(x: _Animation.mix(width, 0, f), y: 0, width: width, height: height)))
    } else {
      layers.append(_LayerGeometry.flat(.toScreen, frame: container))
      layers.append(
        _LayerGeometry.flat(.color(dim), frame: container, opacity: _Animation.mix(Transition.dimmingOpacity, 0, f)))
      layers.append(
        _LayerGeometry.flat(
          .fromScreen, frame: Rect(x: _Animation.mix(0, width, f), y: 0, width: width, height: height)))
    }
  }

  /// Seed 001, 0.5 s. Push: [from, to]: to opacity 0 → 1. Pop: [to, from]:
  /// from opacity 1 → 0.
  func _fade(at time: Double, into layers: inout [TransitionLayer]) {
    let f = _Animation.fraction(at: time, duration: duration)
    if direction == .push {
      layers.append(_LayerGeometry.flat(.fromScreen, frame: container))
      layers.append(_LayerGeometry.flat(.toScreen, frame: container, opacity: f))
    } else {
      layers.append(_LayerGeometry.flat(.toScreen, frame: container))
      layers.append(_LayerGeometry.flat(.fromScreen, frame: container, opacity: 1 - f))
    }
  }

  /// Seed 002a, 0.5 s. [white container, from, (pop: white over the from
  /// screen's hidden copy of the image), to, image]: to opacity 0 → 1; the
  /// image's frame imageRect → targetRect on push, targetRect → imageRect on
  /// pop.
  func _zoom(at time: Double, into layers: inout [TransitionLayer]) {
    let f = _Animation.fraction(at: time, duration: duration)
    let (origin, target) = (options.imageRect!, options.targetRect!)
    layers.append(_LayerGeometry.flat(.color(.white), frame: container))
    layers.append(_LayerGeometry.flat(.fromScreen, frame: container))
    if direction == .pop {
      // `self.imageView.alpha = 0`: the detail screen's own image view is
      // hidden while the copy flies; what shows in its place is taken to be
      // the container's white (a documented decision).
      layers.append(_LayerGeometry.flat(.color(.white), frame: target))
    }
    layers.append(_LayerGeometry.flat(.toScreen, frame: container, opacity: f))
    let flight =
      direction == .push ? origin.interpolated(to: target, fraction: f) : target.interpolated(to: origin, fraction: f)
    layers.append(_LayerGeometry.flat(.image, frame: flight))
  }

  /// Seed 002b, 0.45 s, both centred in the container. Present: [from, dim
  /// (opacity 0.3), to]: to bounds (1, 2H/3) → (3W/5, H/2), dim bounds
  /// (3W/5, 3H/5) → (W, H). Dismiss: [to, dim (full, 0.3, removed at the
  /// end), from]: from bounds (3W/5, H/2) → (1, H/2).
  func _window(at time: Double, into layers: inout [TransitionLayer]) {
    let f = _Animation.fraction(at: time, duration: duration)
    let (w, h) = (width, height)
    func centred(_ bw: Double, _ bh: Double) -> Rect {
      Rect(x: (w - bw) / 2, y: (h - bh) / 2, width: bw, height: bh)
    }
    if direction == .present {
      layers.append(_LayerGeometry.flat(.fromScreen, frame: container))
      let dim = centred(3 * w / 5, 3 * h / 5).interpolated(to: container, fraction: f)
      layers.append(_LayerGeometry.flat(.color(.black), frame: dim, opacity: Transition.dimmingOpacity))
      let window = centred(1, 2 * h / 3).interpolated(to: centred(3 * w / 5, h / 2), fraction: f)
      layers.append(_LayerGeometry.flat(.toScreen, frame: window))
    } else {
      layers.append(_LayerGeometry.flat(.toScreen, frame: container))
      if time < duration {
        layers.append(_LayerGeometry.flat(.color(.black), frame: container, opacity: Transition.dimmingOpacity))
      }
      let window = centred(3 * w / 5, h / 2).interpolated(to: centred(1, h / 2), fraction: f)
      layers.append(_LayerGeometry.flat(.fromScreen, frame: window))
    }
  }

  /// Seed 003's reach r of the circle from the button B (centre c), by the
  /// article's quadrant rule: with right = B.x > W/2 and top = B.y < H/2,
  /// v = (c.x − (right ? 0 : W), c.y − (top ? H − 30 : 0)), r = |v|.
  /// nil for other styles.
  public var circleRevealRadius: Double? {
    guard style == .circleReveal, let b = options.button else { return nil }
    let c = b.center
    let right = b.x > width / 2
    let top = b.y < height / 2
    let vx = c.x - (right ? 0 : width)
    let vy = c.y - (top ? height - Transition.circleRevealMargin : 0)
    return (vx * vx + vy * vy).squareRoot()
  }

  /// Seed 003, 0.5 s. Push: [from, to masked by an oval]: the oval is
  /// inscribed in a rect going from B to B inset by (−r, −r). Pop: [to,
  /// from masked], the oval shrinking back to B.
  func _circleReveal(at time: Double, into layers: inout [TransitionLayer]) {
    let f = _Animation.fraction(at: time, duration: duration)
    let b = options.button!
    let r = circleRevealRadius!
    let large = b.insetBy(dx: -r, dy: -r)
    if direction == .push {
      layers.append(_LayerGeometry.flat(.fromScreen, frame: container))
      layers.append(_LayerGeometry.flat(.toScreen, frame: container, mask: b.interpolated(to: large, fraction: f)))
    } else {
      layers.append(_LayerGeometry.flat(.toScreen, frame: container))
      layers.append(_LayerGeometry.flat(.fromScreen, frame: container, mask: large.interpolated(to: b, fraction: f)))
    }
  }

  /// Seed 004's two transforms of the screen underneath, with P = identity
  /// with m34 = −1/900 and Apple's `CATransform3DScale/Rotate/Translate(t, …)
  /// = op · t`:
  ///
  /// ```
  /// t1 = R_x(15°) · S(0.95, 0.95, 1) · P
  /// t2 = S(0.8, 0.8, 1) · T(0, −0.08·H, 0) · P
  /// ```
  public var tiltTransforms: (t1: Transform3D, t2: Transform3D) {
    let p = Transform3D.makePerspective(eyeDistance: Transition.tiltEyeDistance)
    let t1 = p.scaled(x: 0.95, y: 0.95, z: 1).rotated(angle: 15 * .pi / 180, x: 1, y: 0, z: 0)
    let t2 = p.translated(x: 0, y: Float(-0.08 * height), z: 0).scaled(x: 0.8, y: 0.8, z: 1)
    return (t1, t2)
  }

  /// Seed 004, 0.6 s in two phases of 0.3 s. Present: [from, to (the
  /// sheet, frame (0, y, W, 280))]; phase 1: from.transform identity → t1;
  /// phase 2: from.opacity 1 → 0.5, from.transform t1 → t2, to.y H → H − 280.
  /// Dismiss: [to (underneath, at t2 and 0.5), from (the sheet)]; phase 1:
  /// from.y H − 280 → H, to.transform t2 → t1; phase 2: to.opacity 0.5 → 1,
  /// to.transform t1 → identity. Transforms interpolate by decomposition
  /// (``Transform3D/interpolated(to:fraction:)``).
  func _tilt3D(at time: Double, into layers: inout [TransitionLayer]) {
    let f1 = _Animation.fraction(at: time, duration: Transition.tiltPhase)
    let f2 = _Animation.fraction(at: time, start: Transition.tiltPhase, duration: Transition.tiltPhase)
    let (t1, t2) = tiltTransforms
    let size = SIMD2(width, height)
    let center = SIMD2(width / 2, height / 2)
    let sheet = Transition.sheetHeight
    if direction == .present {
      let transform =
        time <= Transition.tiltPhase
        ? Transform3D.identity.interpolated(to: t1, fraction: f1) : t1.interpolated(to: t2, fraction: f2)
      layers.append(
        _LayerGeometry.transformed(
          .fromScreen, size: size, center: center, transform: transform, opacity: _Animation.mix(1, 0.5, f2)))
      layers.append(
        _LayerGeometry.flat(
          .toScreen, frame: Rect(x: 0, y: _Animation.mix(height, height - sheet, f2), width: width, height: sheet)))
    } else {
      let transform =
        time <= Transition.tiltPhase
        ? t2.interpolated(to: t1, fraction: f1) : t1.interpolated(to: .identity, fraction: f2)
      layers.append(
        _LayerGeometry.transformed(
          .toScreen, size: size, center: center, transform: transform, opacity: _Animation.mix(0.5, 1, f2)))
      layers.append(
        _LayerGeometry.flat(
          .fromScreen, frame: Rect(x: 0, y: _Animation.mix(height - sheet, height, f1), width: width, height: sheet)))
    }
  }
}
