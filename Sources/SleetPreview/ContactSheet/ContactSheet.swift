import SleetMath

/// A grid of animation frames with their times, for reading an effect on a
/// page: frames left to right, top to bottom, each reduced to a thumbnail with
/// a `t=1.250s` label under it.
public struct ContactSheet: Sendable {
  /// Thumbnails per row (≥ 1). Default 4.
  public var columns: Int
  /// Largest thumbnail width in pixels; wider frames are reduced by the
  /// smallest integral factor f that fits (box filter over f × f premultiplied
  /// pixels). Default 160.
  public var maximumThumbnailWidth: Int
  /// Gap between and around cells, pixels. Default 6.
  public var spacing: Int
  /// Sheet colour (straight alpha). Default dark grey.
  public var background: ColorRGBA
  /// Label colour (straight alpha). Default white.
  public var labelColor: ColorRGBA
  /// Font pixel size. Default 1.
  public var labelScale: Int

  /// - Precondition: `columns`, `maximumThumbnailWidth`, `labelScale` ≥ 1; `spacing` ≥ 0.
  public init(
    columns: Int = 4, maximumThumbnailWidth: Int = 160, spacing: Int = 6,
    background: ColorRGBA = ColorRGBA(red: 0.12, green: 0.12, blue: 0.14),
    labelColor: ColorRGBA = .white, labelScale: Int = 1
  ) {
    precondition(
      columns >= 1 && maximumThumbnailWidth >= 1 && labelScale >= 1 && spacing >= 0,
      "ContactSheet: columns, maximumThumbnailWidth, labelScale must be ≥ 1 and spacing ≥ 0")
    self.columns = columns
    self.maximumThumbnailWidth = maximumThumbnailWidth
    self.spacing = spacing
    self.background = background
    self.labelColor = labelColor
    self.labelScale = labelScale
  }

  /// The label for a frame time: `t=` then seconds rounded to milliseconds,
  /// then `s` (e.g. `t=0.033s`, `t=-1.500s`).
  /// - Precondition: `time` finite with |time| < 10¹².
  public static func label(time: Double) -> String {
    precondition(time.isFinite && abs(time) < 1e12, "ContactSheet.label: time must be finite and < 1e12 s, got \(time)")
    let ms = Int((abs(time) * 1000).rounded())
    let fraction = String(ms % 1000)
    return
      "t=\(time < 0 && ms > 0 ? "-" : "")\(ms / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
  }

  /// The reduction factor for frames `width` pixels wide.
  public func reductionFactor(forWidth width: Int) -> Int {
    Swift.max(1, (width + maximumThumbnailWidth - 1) / maximumThumbnailWidth)
  }

  /// Lays out the frames. All frames must have one size.
  /// - Precondition: `frames` non-empty, all the same size; `times.count == frames.count`.
  /// - Complexity: O(total frame pixels).
  public func render(_ frames: [RGBAImage], times: [Double]) -> RGBAImage {
    precondition(!frames.isEmpty, "ContactSheet.render: no frames")
    precondition(times.count == frames.count, "ContactSheet.render: \(frames.count) frames, \(times.count) times")
    let fw = frames[0].width, fh = frames[0].height
    for f in frames {
      precondition(f.width == fw && f.height == fh, "ContactSheet.render: frames differ in size")
    }
    let factor = reductionFactor(forWidth: fw)
    let tw = (fw + factor - 1) / factor, th = (fh + factor - 1) / factor
    let labelHeight = (BitmapFont.glyphHeight + 4) * labelScale
    let rows = (frames.count + columns - 1) / columns
    let cellWidth = Swift.max(tw, BitmapFont.width(of: ContactSheet.label(time: -999.999), scale: labelScale))
    let sheetWidth = columns * cellWidth + (columns + 1) * spacing
    let sheetHeight = rows * (th + labelHeight) + (rows + 1) * spacing
    var sheet = RGBAImage(width: sheetWidth, height: sheetHeight, background: background)
    for (index, frame) in frames.enumerated() {
      let x = spacing + (index % columns) * (cellWidth + spacing)
      let y = spacing + (index / columns) * (th + labelHeight + spacing)
      let thumbnail = ContactSheet.reduce(frame, by: factor)
      ContactSheet._composite(thumbnail, at: x, y, onto: &sheet)
      BitmapFont.draw(
        ContactSheet.label(time: times[index]), x: x, y: y + th + 2 * labelScale,
        scale: labelScale, color: labelColor, into: &sheet)
    }
    return sheet
  }

  /// Box-filter reduction: output pixel (i, j) is the mean of the premultiplied
  /// input pixels in [f·i, f·i + f) × [f·j, f·j + f) that exist.
  /// - Precondition: `factor ≥ 1`.
  /// - Complexity: O(input pixels).
  public static func reduce(_ image: RGBAImage, by factor: Int) -> RGBAImage {
    precondition(factor >= 1, "ContactSheet.reduce: factor must be ≥ 1, got \(factor)")
    if factor == 1 { return image }
    let w = (image.width + factor - 1) / factor, h = (image.height + factor - 1) / factor
    var out = RGBAImage(width: w, height: h)
    image.withUnsafeBufferPointer { src in
      out.withUnsafeMutableBufferPointer { dst in
        for j in 0..<h {
          for i in 0..<w {
            var sum = SIMD4<Float>.zero
            var count = 0
            for y in (j * factor)..<Swift.min(image.height, (j + 1) * factor) {
              for x in (i * factor)..<Swift.min(image.width, (i + 1) * factor) {
                sum += src[y * image.width + x]
                count += 1
              }
            }
            dst[j * w + i] = sum / Float(count)
          }
        }
      }
    }
    return out
  }

  /// Source-over of `image` with its top-left at (x, y), clipped.
  private static func _composite(_ image: RGBAImage, at x: Int, _ y: Int, onto sheet: inout RGBAImage) {
    let sw = sheet.width, sh = sheet.height
    image.withUnsafeBufferPointer { src in
      sheet.withUnsafeMutableBufferPointer { dst in
        for j in 0..<image.height where y + j >= 0 && y + j < sh {
          for i in 0..<image.width where x + i >= 0 && x + i < sw {
            let s = src[j * image.width + i]
            let k = (y + j) * sw + x + i
            dst[k] = s + dst[k] * SIMD4(repeating: 1 - s.w)
          }
        }
      }
    }
  }
}
