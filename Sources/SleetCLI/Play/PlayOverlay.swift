import SleetKit

/// The overlay of `sleet play`: the time, the speed, the particles drawn,
/// the frame time and a load error, in ``BitmapFont`` over a dark band at
/// the top of the frame. Drawn on the window's copy only: a saved frame
/// has none.
enum PlayOverlay {
  static let textColor = ColorRGBA(red: 1, green: 1, blue: 1, alpha: 1)
  static let errorColor = ColorRGBA(red: 1, green: 0.45, blue: 0.4, alpha: 1)

  /// The overlay's lines: time and state; particles and frame time; the
  /// error, when there is one.
  static func lines(
    state: PlayerState, particles: Int?, frameSeconds: Double, error: String?
  ) -> [(text: String, color: ColorRGBA)] {
    let speed = state.speed >= 1 ? numberText(state.speed) : "1/\(numberText(1 / state.speed))"
    var first = "t \(secondsText(state.time, decimals: 3)) s"
    if let end = state.end { first += " / \(secondsText(end, decimals: 3)) s" }
    first += "  x\(speed)  \(state.isPaused ? "paused" : "playing")"
    var second = particles.map { "\($0) particles  " } ?? ""
    second += "frame \(secondsText(frameSeconds * 1000, decimals: 1)) ms"
    var lines = [(first, textColor), (second, textColor)]
    if let error { lines.append(("error: " + error, errorColor)) }
    return lines
  }

  /// `value` (≥ 0) with `decimals` decimals, rounded: `60.517`, `3.0`.
  static func secondsText(_ value: Double, decimals: Int) -> String {
    var unit = 1
    for _ in 0..<decimals { unit *= 10 }
    let scaled = Int((Swift.max(0, value) * Double(unit)).rounded())
    guard decimals > 0 else { return "\(scaled)" }
    let fraction = String(scaled % unit)
    return "\(scaled / unit)." + String(repeating: "0", count: decimals - fraction.count) + fraction
  }

  /// Draws `lines` (lower-cased: the font's letters are lower case; each
  /// wrapped to the frame's width) over a dark band at the top of `image`.
  static func draw(_ lines: [(text: String, color: ColorRGBA)], into image: inout RGBAImage) {
    let scale = image.width >= 640 ? 2 : 1
    let margin = 3 * scale
    let lineHeight = (BitmapFont.glyphHeight + 3) * scale
    let columns = Swift.max(1, (image.width - 2 * margin + scale) / (BitmapFont.advance * scale))
    var rows: [(text: String, color: ColorRGBA)] = []
    for (text, color) in lines {
      for row in OptionTable.wrap(text.lowercased(), width: columns) {
        // A word longer than the line is cut: the band shows what fits.
        rows.append((String(row.prefix(columns)), color))
      }
    }
    let bandHeight = Swift.min(image.height, rows.count * lineHeight + 2 * margin - 3 * scale)
    let bandWidth = Swift.min(
      image.width, (rows.map { BitmapFont.width(of: $0.text, scale: scale) }.max() ?? 0) + 2 * margin)
    let width = image.width
    // Black at 65 % over the frame (premultiplied source-over).
    image.withUnsafeMutableBufferPointer { pixels in
      for y in 0..<bandHeight {
        for x in 0..<bandWidth {
          pixels[y * width + x] = pixels[y * width + x] * 0.35 + SIMD4(0, 0, 0, 0.65)
        }
      }
    }
    for (i, row) in rows.enumerated() {
      BitmapFont.draw(row.text, x: margin, y: margin + i * lineHeight, scale: scale, color: row.color, into: &image)
    }
  }
}
