import SleetMath

/// Two generated, opaque pictures for demonstrating transitions without image
/// files: each a vertical gradient with diagonal stripes, a disc and a large
/// numeral ("1" on ``first``, "2" on ``second``), so that every tile of a
/// shatter transition shows recognisable, distinct content.
public enum DemoPicture: String, CaseIterable, Hashable, Sendable {
  /// Warm: orange to deep red, numeral 1. The natural from-picture.
  case first
  /// Cool: teal to navy, numeral 2. The natural to-picture.
  case second

  /// The picture at the given size (any size ≥ 1 × 1). Deterministic: the same
  /// size always gives the same pixels. Every component is an exact 8-bit
  /// level v/255, so the picture survives a PNG round trip unchanged.
  /// - Precondition: `width ≥ 1`, `height ≥ 1`.
  /// - Complexity: O(width · height).
  public func image(width: Int, height: Int) -> RGBAImage {
    precondition(width >= 1 && height >= 1, "DemoPicture: size must be ≥ 1×1, got \(width)×\(height)")
    let (top, bottom, stripe, disc): (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) =
      switch self {
      case .first: (SIMD4(1, 0.62, 0.25, 1), SIMD4(0.62, 0.1, 0.16, 1), SIMD4(1, 0.85, 0.55, 1), SIMD4(1, 0.95, 0.8, 1))
      case .second:
        (SIMD4(0.2, 0.75, 0.72, 1), SIMD4(0.06, 0.12, 0.35, 1), SIMD4(0.55, 0.9, 0.95, 1), SIMD4(0.85, 0.97, 1, 1))
      }
    var image = RGBAImage(width: width, height: height)
    let w = Float(width), h = Float(height)
    let period = Swift.max(8, Float(Swift.min(width, height)) / 6)
    let radius = Float(Swift.min(width, height)) * 0.22
    let centre = SIMD2<Float>(w * (self == .first ? 0.7 : 0.3), h * 0.4)
    image.withUnsafeMutableBufferPointer { pixels in
      for y in 0..<height {
        let t = height > 1 ? Float(y) / Float(height - 1) : 0
        let base = top * SIMD4(repeating: 1 - t) + bottom * SIMD4(repeating: t)
        for x in 0..<width {
          let p = SIMD2<Float>(Float(x) + 0.5, Float(y) + 0.5)
          var c = base
          // Diagonal stripes at 30 % strength.
          let phase = (p.x + p.y) / period
          if phase - phase.rounded(.down) < 0.5 {
            c = c * SIMD4(repeating: 0.7) + stripe * SIMD4(repeating: 0.3)
          }
          let d = p - centre
          if (d * d).sum() < radius * radius { c = disc }
          pixels[y * width + x] = c
        }
      }
    }
    // The numeral, as large as fits a third of the height.
    let numeral = self == .first ? "1" : "2"
    let scale = Swift.max(1, height / 3 / BitmapFont.glyphHeight)
    // On the side away from the disc.
    BitmapFont.draw(
      numeral, x: self == .first ? width / 5 : width * 3 / 5,
      y: height - height / 10 - BitmapFont.glyphHeight * scale,
      scale: scale, color: .white, into: &image)
    // Quantized to 8-bit levels (v/255), as a screenshot's pixels are: a
    // transition that maps pixels almost exactly (within 1e−4) then writes
    // them back unchanged.
    return RGBAImage(straightRGBA8: image.straightRGBA8(), width: width, height: height)
  }
}
