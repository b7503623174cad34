import SleetMath
import SleetTransitions
import Testing

// Helpers for the tests that work their expected numbers out from
// `transitions.md` rather than from the engine: nothing here calls
// `TimingFunction`, `Rect.interpolated` or the engine's layer geometry.

/// A container size the view-style tests run in.
struct Container: Sendable, CustomTestStringConvertible {
  var width: Double
  var height: Double

  var testDescription: String { "\(Int(width))×\(Int(height))" }

  var rect: Rect { Rect(x: 0, y: 0, width: width, height: height) }

  /// A portrait phone and a landscape tablet: W < H and W > H.
  static let all = [Container(width: 390, height: 844), Container(width: 1024, height: 768)]
}

/// UIKit's easeInEaseOut, the cubic Bézier with control points (0.42, 0) and
/// (0.58, 1), computed without `TimingFunction`: x(s) = 3(1−s)²s·0.42 +
/// 3(1−s)s²·0.58 + s³ is increasing on [0, 1], so bisection finds the s with
/// x(s) = x to the last bit; the value is y(s) = 3(1−s)s² + s³ (y1 = 0, y2 = 1).
func referenceEase(_ x: Double) -> Double {
  if x <= 0 { return 0 }
  if x >= 1 { return 1 }
  var (lo, hi) = (0.0, 1.0)
  while true {
    let s = (lo + hi) / 2
    if s == lo || s == hi { break }
    let xs = 3 * (1 - s) * (1 - s) * s * 0.42 + 3 * (1 - s) * s * s * 0.58 + s * s * s
    if xs < x { lo = s } else { hi = s }
  }
  let s = (lo + hi) / 2
  return 3 * (1 - s) * s * s + s * s * s
}

/// `transitions.md`: an animation over [t0, t0 + d] is at
/// ease(clamp((t − t0)/d, 0, 1)) of the way at time t.
func referenceFraction(at time: Double, start: Double = 0, duration: Double) -> Double {
  referenceEase(min(max((time - start) / duration, 0), 1))
}

/// ease(¼) for (0.42, 0, 0.58, 1): 0.1291619310473198, the value
/// `docs/tools/tilt3d_reference.py` prints (its own bisection, in Python).
let easeAtQuarter = 0.1291619310473198

/// The key times of a style of duration D with the eased fraction at each,
/// worked out by hand: before the start and at 0 nothing has moved; at D/4
/// the curve gives ease(¼) ≈ 0.12916; at D/2 the symmetric curve gives
/// exactly ½; from D on everything is at its end.
func keyTimes(duration d: Double) -> [(time: Double, fraction: Double)] {
  [(-0.25, 0), (0, 0), (d / 4, referenceEase(0.25)), (d / 2, 0.5), (d, 1), (d + 0.2, 1)]
}

/// Points: the engine rounds its Double geometry to Float once (≤ 6e-5 at
/// 1024) and its timing curve is within 1e-6 of the exact one (≤ 1e-3 at
/// 1024).
let pointTolerance = 2e-3

func close(_ a: Float, _ b: Double, _ tolerance: Double = pointTolerance) -> Bool {
  abs(Double(a) - b) <= tolerance
}

func close(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool {
  abs(a - b) <= tolerance
}

func close(_ a: Rect?, _ b: Rect?, _ tolerance: Double = pointTolerance) -> Bool {
  switch (a, b) {
  case (nil, nil): return true
  case (let a?, let b?):
    return close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance)
      && close(a.width, b.width, tolerance) && close(a.height, b.height, tolerance)
  default: return false
  }
}

/// A rect centred in the container with bounds bw × bh.
func centred(_ bw: Double, _ bh: Double, in c: Container) -> Rect {
  Rect(x: (c.width - bw) / 2, y: (c.height - bh) / 2, width: bw, height: bh)
}

/// Expects a layer with no transform of its own: its frame (x, y, w, h) gives
/// corners (x, y), (x+w, y), (x+w, y+h), (x, y+h), the transform
/// diag(w, h, 1, 1) with row 4 (x, y, 0, 1) (`TransitionLayer`'s contract),
/// depth 0 and the whole content (unit texture corners).
func expectFlat(
  _ layer: TransitionLayer, _ content: TransitionContent, frame r: Rect, opacity: Double,
  mask: Rect? = nil, _ note: String = "", sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(layer.content == content, "\(note)", sourceLocation: sourceLocation)
  let q = layer.corners
  let corners: [(SIMD2<Float>, Double, Double)] = [
    (q.topLeft, r.x, r.y), (q.topRight, r.x + r.width, r.y),
    (q.bottomRight, r.x + r.width, r.y + r.height), (q.bottomLeft, r.x, r.y + r.height),
  ]
  for (i, (got, x, y)) in corners.enumerated() {
    #expect(
      close(got.x, x) && close(got.y, y),
      "corner \(i): \(got) expected (\(x), \(y)) \(note)",
      sourceLocation: sourceLocation)
  }
  let m = layer.transform
  let expected: [Double] = [r.width, 0, 0, 0, 0, r.height, 0, 0, 0, 0, 1, 0, r.x, r.y, 0, 1]
  #expect(
    zip(m.entries, expected).allSatisfy { close($0, $1) },
    "transform \(m.entries) expected \(expected) \(note)",
    sourceLocation: sourceLocation)
  #expect(
    close(layer.opacity, opacity, 3e-6), "opacity \(layer.opacity) expected \(opacity) \(note)",
    sourceLocation: sourceLocation)
  #expect(
    close(layer.mask, mask), "mask \(String(describing: layer.mask)) expected \(String(describing: mask)) \(note)",
    sourceLocation: sourceLocation)
  #expect(layer.depth == 0, "\(note)", sourceLocation: sourceLocation)
  #expect(layer.textureCorners == .unit, "\(note)", sourceLocation: sourceLocation)
}
