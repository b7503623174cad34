import SleetMath

/// Builds layers the way Core Animation places a view: bounds, a transform
/// about the anchor point (the centre), then the position. Everything is
/// computed in Double and rounded once to Float.
enum _LayerGeometry {
  /// A layer with `frame` and no transform of its own:
  /// transform = diag(w, h, 1, 1) with row 4 = (x, y, 0, 1).
  /// - Complexity: O(1).
  static func flat(
    _ content: TransitionContent, frame: Rect, opacity: Double = 1, mask: Rect? = nil
  ) -> TransitionLayer {
    let (x, y, w, h) = (frame.x, frame.y, frame.width, frame.height)
    let transform = Transform3D(
      row1: SIMD4(Float(w), 0, 0, 0), row2: SIMD4(0, Float(h), 0, 0),
      row3: SIMD4(0, 0, 1, 0), row4: SIMD4(Float(x), Float(y), 0, 1))
    let corners = Quad2D(
      topLeft: SIMD2(Float(x), Float(y)), topRight: SIMD2(Float(x + w), Float(y)),
      bottomRight: SIMD2(Float(x + w), Float(y + h)), bottomLeft: SIMD2(Float(x), Float(y + h)))
    return TransitionLayer(
      content: content, corners: corners, transform: transform, opacity: Float(opacity), mask: mask)
  }

  /// A layer of `size` centred at `center` with `transform` applied about
  /// its centre:
  ///
  /// ```
  /// M = S(w, h, 1) · T(−w/2, −h/2, 0) · transform · T(cx, cy, 0)     (row vectors)
  /// corner (u, v) ↦ [u v 0 1] · M = (x, y, z, w) ↦ (x/w, y/w), NaN when w ≤ 0
  /// depth = max z over the four corners
  /// ```
  /// An identity `transform` gives exactly ``flat(_:frame:opacity:mask:)``.
  /// - Complexity: O(1).
  static func transformed(
    _ content: TransitionContent, size: SIMD2<Double>, center: SIMD2<Double>, transform: Transform3D,
    opacity: Double = 1
  ) -> TransitionLayer {
    let (w, h) = (size.x, size.y)
    if transform == .identity {
      return flat(
        content, frame: Rect(x: center.x - w / 2, y: center.y - h / 2, width: w, height: h), opacity: opacity)
    }
    let l = [transform.row1, transform.row2, transform.row3, transform.row4].map { SIMD4<Double>($0) }
    // A = S(w, h, 1)·T(−w/2, −h/2, 0) has rows (w,0,0,0), (0,h,0,0), (0,0,1,0), (−w/2,−h/2,0,1).
    let a: [SIMD4<Double>] = [SIMD4(w, 0, 0, 0), SIMD4(0, h, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(-w / 2, -h / 2, 0, 1)]
    var m = a.map { r in r.x * l[0] + r.y * l[1] + r.z * l[2] + r.w * l[3] }
    // · T(cx, cy, 0): each row gains (cx·w_r, cy·w_r, 0) where w_r is its 4th entry.
    for i in 0..<4 {
      m[i].x += center.x * m[i].w
      m[i].y += center.y * m[i].w
    }
    var projected: [SIMD2<Float>] = []
    var depth = -Double.infinity
    for (u, v) in [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)] {
      let p = u * m[0] + v * m[1] + m[3]
      depth = Swift.max(depth, p.z)
      projected.append(p.w > 0 ? SIMD2(Float(p.x / p.w), Float(p.y / p.w)) : SIMD2(.nan, .nan))
    }
    return TransitionLayer(
      content: content,
      corners: Quad2D(
        topLeft: projected[0], topRight: projected[1], bottomRight: projected[2], bottomLeft: projected[3]),
      transform: Transform3D(
        row1: SIMD4<Float>(m[0]), row2: SIMD4<Float>(m[1]), row3: SIMD4<Float>(m[2]), row4: SIMD4<Float>(m[3])),
      opacity: Float(opacity), depth: Float(depth))
  }
}

/// UIView's animation curve: `animateWithDuration:` without options and
/// `UIViewAnimationOptionCurveEaseInOut` both mean easeInEaseOut
/// (0.42, 0, 0.58, 1).
enum _Animation {
  /// ease(clamp((t − start)/duration, 0, 1)): the eased fraction of an
  /// animation that starts at `start` and lasts `duration` seconds.
  /// - Complexity: O(1) (one timing-curve evaluation).
  static func fraction(at time: Double, start: Double = 0, duration: Double) -> Double {
    let x = Swift.min(Swift.max((time - start) / duration, 0), 1)
    if x == 0 || x == 1 { return x }
    return TimingFunction.easeInEaseOut.value(at: x)
  }

  /// a + (b − a)·f.
  @inline(__always)
  static func mix(_ a: Double, _ b: Double, _ f: Double) -> Double { a + (b - a) * f }
}
