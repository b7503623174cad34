import SleetMath

/// A tiny 5 × 7 pixel font for contact-sheet labels: digits, space and
/// `. - : = / s t x f p`. Any other character draws as a hollow box, so a
/// missing glyph is visible rather than silently dropped.
public enum BitmapFont {
  /// Glyph cell size in font pixels (5 wide, 7 tall) plus 1 column of spacing.
  public static let glyphWidth = 5
  /// Glyph height in font pixels.
  public static let glyphHeight = 7
  /// Horizontal distance from one glyph to the next: width + 1 of spacing.
  public static let advance = 6

  /// The characters with glyphs.
  public static var supportedCharacters: Set<Character> { Set(_glyphs.keys) }

  /// Width in pixels of `text` at `scale` (no trailing spacing).
  /// - Complexity: O(text.count).
  public static func width(of text: String, scale: Int = 1) -> Int {
    text.isEmpty ? 0 : (text.count * advance - 1) * scale
  }

  /// Draws `text` with its top-left corner at pixel (x, y), each font pixel a
  /// `scale × scale` block of `color` (straight alpha) composited source-over.
  /// Pixels outside the image are clipped.
  /// - Precondition: `scale ≥ 1`.
  /// - Complexity: O(text.count · 35 · scale²).
  public static func draw(
    _ text: String, x: Int, y: Int, scale: Int = 1, color: ColorRGBA, into image: inout RGBAImage
  ) {
    precondition(scale >= 1, "BitmapFont.draw: scale must be ≥ 1, got \(scale)")
    let src = RGBAImage.premultiplied(color)
    let width = image.width, height = image.height
    image.withUnsafeMutableBufferPointer { pixels in
      var penX = x
      for character in text {
        let rows = _glyphs[character] ?? _missing
        for (gy, row) in rows.enumerated() {
          for (gx, bit) in row.utf8.enumerated() where bit == UInt8(ascii: "#") {
            for dy in 0..<scale {
              for dx in 0..<scale {
                let px = penX + gx * scale + dx, py = y + gy * scale + dy
                guard px >= 0, px < width, py >= 0, py < height else { continue }
                let d = pixels[py * width + px]
                pixels[py * width + px] = src + d * SIMD4(repeating: 1 - src.w)
              }
            }
          }
        }
        penX += advance * scale
      }
    }
  }

  private static let _missing = ["#####", "#...#", "#...#", "#...#", "#...#", "#...#", "#####"]

  private static let _glyphs: [Character: [String]] = [
    "0": [".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."],
    "1": ["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."],
    "2": [".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"],
    "3": ["#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."],
    "4": ["...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."],
    "5": ["#####", "#....", "####.", "....#", "....#", "#...#", ".###."],
    "6": ["..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."],
    "7": ["#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."],
    "8": [".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."],
    "9": [".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."],
    " ": [".....", ".....", ".....", ".....", ".....", ".....", "....."],
    ".": [".....", ".....", ".....", ".....", ".....", ".##..", ".##.."],
    "-": [".....", ".....", ".....", "#####", ".....", ".....", "....."],
    ":": [".....", ".##..", ".##..", ".....", ".##..", ".##..", "....."],
    "=": [".....", ".....", "#####", ".....", "#####", ".....", "....."],
    "/": [".....", "....#", "...#.", "..#..", ".#...", "#....", "....."],
    "s": [".....", ".....", ".####", "#....", ".###.", "....#", "####."],
    "t": [".#...", ".#...", "####.", ".#...", ".#...", ".#..#", "..##."],
    "x": [".....", ".....", "#...#", ".#.#.", "..#..", ".#.#.", "#...#"],
    "f": ["..##.", ".#..#", ".#...", "###..", ".#...", ".#...", ".#..."],
    "p": [".....", ".....", "####.", "#...#", "####.", "#....", "#...."],
  ]
}
