import SleetKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--plot FILE.png`: ns per live particle against the live count (log-log),
/// one line per path of the `particles/vs-c-baseline` groups (SleetKit with
/// full and compact instances, the C baseline, the naive path), drawn with SleetPreview's `RGBAImage`,
/// `BitmapFont` (with one glyph of its own, `M`) and
/// `PNGFile`. Regenerate docs/images/particles-cost-curve.png with
/// `.build/release/sleet-bench --plot docs/images/particles-cost-curve.png`.
struct BenchmarkPlot {
  static let groupName = "vs-c-baseline"
  /// `--plot` measures only the groups whose lowercased `suite/group` name contains this.
  static let groupPrefix = "particles/vs-c-baseline"
  /// The live counts of the curve (`--plot`; `--plot --quick` keeps those ≤ 65,536).
  static let liveCounts = [1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000, 4_000_000]

  static let series: [(path: String, label: String, color: SIMD4<Float>)] = [
    ("sleetkit", "sleetkit: advance + render", SIMD4(0.12, 0.40, 0.85, 1)),
    ("sleetkit-compact", "sleetkit, 32 b instances", SIMD4(0.10, 0.62, 0.35, 1)),
    ("c-baseline", "c baseline: classic soa", SIMD4(0.90, 0.45, 0.08, 1)),
    ("naive", "naive: object per particle", SIMD4(0.45, 0.45, 0.45, 1)),
  ]

  var records: [BenchmarkRunner.Record]
  var environment: Environment

  func write(to path: String) throws(HarnessError) {
    let image = try draw()
    do {
      try PNGFile.write(image, to: path)
    } catch {
      throw .cannotWrite(path: path, reason: "\(error)")
    }
  }

  /// Points (live count, ns per live particle, the group's nominal count) of
  /// one path, by live count.
  private func points(_ path: String) -> [(x: Double, y: Double, nominal: String)] {
    records.filter { $0.group.hasPrefix(Self.groupName) && $0.path == path }
      .map { (Double($0.items), $0.nsPerItem, String($0.group.split(separator: "=").last ?? "")) }
      .sorted { $0.x < $1.x }
  }

  func draw() throws(HarnessError) -> RGBAImage {
    let lines = Self.series.map { (series: $0, points: points($0.path)) }
    let all = lines.flatMap(\.points)
    guard !all.isEmpty, all.allSatisfy({ $0.x > 0 && $0.y > 0 && $0.y.isFinite }) else {
      throw .usage("sleet-bench: --plot: no \(Self.groupPrefix) results to draw (check --filter)")
    }
    var canvas = PlotCanvas(width: 1180, height: 620)
    let frame = (left: 100, right: 700, top: 70, bottom: 530)
    let legendX = 740
    // Decades around the data on both axes (log scale).
    let xLow = (log10(all.map(\.x).min()!)).rounded(.down)
    let xHigh = max(xLow + 1, log10(all.map(\.x).max()! * 1.5).rounded(.up))
    let yLow = (log10(all.map(\.y).min()!)).rounded(.down)
    let yHigh = max(yLow + 1, log10(all.map(\.y).max()!).rounded(.up))
    func px(_ x: Double) -> Double {
      Double(frame.left) + (log10(x) - xLow) / (xHigh - xLow) * Double(frame.right - frame.left)
    }
    func py(_ y: Double) -> Double {
      Double(frame.bottom) - (log10(y) - yLow) / (yHigh - yLow) * Double(frame.bottom - frame.top)
    }
    let grid = SIMD4<Float>(0.86, 0.86, 0.86, 1)
    let fineGrid = SIMD4<Float>(0.94, 0.94, 0.94, 1)
    let ink = SIMD4<Float>(0.1, 0.1, 0.1, 1)

    // y: grid lines at 1, 2, 5 × 10^k, labelled.
    for decade in Int(yLow)..<Int(yHigh) {
      for m in [1.0, 2.0, 5.0] {
        let value = m * pow(10, Double(decade))
        let y = Int(py(value).rounded())
        canvas.horizontal(y: y, from: frame.left, to: frame.right, color: m == 1 ? grid : fineGrid)
        let label = value >= 1 ? "\(Int(value))" : format(value)
        canvas.text(label, x: frame.left - 10 - PlotCanvas.width(of: label, scale: 2), y: y - 7, scale: 2, color: ink)
      }
    }
    let topLabel = yHigh >= 0 ? "\(Int(pow(10, yHigh)))" : format(pow(10, yHigh))
    canvas.text(
      topLabel, x: frame.left - 10 - PlotCanvas.width(of: topLabel, scale: 2), y: frame.top - 7, scale: 2, color: ink)
    // x: grid lines at the decades (labelled 1k, 10k, …) and 2…9 × 10^k.
    for decade in Int(xLow)...Int(xHigh) {
      let x = Int(px(pow(10, Double(decade))).rounded())
      canvas.vertical(x: x, from: frame.top, to: frame.bottom, color: grid)
      let label = Self.countLabel(pow(10, Double(decade)))
      canvas.text(label, x: x - PlotCanvas.width(of: label, scale: 2) / 2, y: frame.bottom + 10, scale: 2, color: ink)
      guard decade < Int(xHigh) else { continue }
      for m in 2...9 {
        let xm = Int(px(Double(m) * pow(10, Double(decade))).rounded())
        canvas.vertical(x: xm, from: frame.top, to: frame.bottom, color: fineGrid)
      }
    }
    canvas.rectangle(left: frame.left, top: frame.top, right: frame.right, bottom: frame.bottom, color: ink)

    for (series, points) in lines where !points.isEmpty {
      for (a, b) in zip(points, points.dropFirst()) {
        canvas.line(from: (px(a.x), py(a.y)), to: (px(b.x), py(b.y)), color: series.color)
      }
      for p in points { canvas.marker(x: Int(px(p.x).rounded()), y: Int(py(p.y).rounded()), color: series.color) }
    }

    // Titles, axis labels, legend, the ratios and the build.
    canvas.text("particle frame cost, one thread, dt 1/60", x: frame.left, y: 20, scale: 3, color: ink)
    canvas.text("ns per live particle (log)", x: frame.left, y: frame.top - 24, scale: 2, color: ink)
    let xTitle = "live particles (log)"
    canvas.text(
      xTitle, x: (frame.left + frame.right - PlotCanvas.width(of: xTitle, scale: 2)) / 2, y: frame.bottom + 40,
      scale: 2, color: ink)
    var legendY = frame.top
    for (series, points) in lines where !points.isEmpty {
      canvas.fill(left: legendX, top: legendY + 4, right: legendX + 30, bottom: legendY + 9, color: series.color)
      canvas.text(series.label, x: legendX + 40, y: legendY, scale: 2, color: ink)
      legendY += 26
    }
    legendY += 14
    let sleet = points("sleetkit"), c = points("c-baseline")
    if !sleet.isEmpty && sleet.count == c.count {
      canvas.text("sleetkit / c baseline", x: legendX, y: legendY, scale: 2, color: ink)
      legendY += 24
      for (s, b) in zip(sleet, c) {
        let nominal = Int(s.nominal).map { Self.countLabel(Double($0)) } ?? s.nominal
        canvas.text("\(nominal): \(format(s.y / b.y))", x: legendX + 15, y: legendY, scale: 2, color: ink)
        legendY += 20
      }
    }
    let build =
      SIMDBuildTarget.hasAVX2AndFMA
      ? "build: haswell (avx2, fma)"
      : SIMDBuildTarget.runsAVX2Kernels ? "build: portable (sse2), kernels avx2" : "build: portable (sse2)"
    canvas.text(build, x: legendX, y: frame.bottom - 40, scale: 1, color: ink)
    let cpu = (environment.fields.first { $0.0 == "cpu" }?.1 ?? "unknown").lowercased()
    canvas.text("cpu: " + cpu, x: legendX, y: frame.bottom - 26, scale: 1, color: ink)
    let samples = records.first { $0.group.hasPrefix(Self.groupName) }?.samples.count ?? 0
    canvas.text(
      "median of \(samples) samples - sleet-bench --plot", x: legendX, y: frame.bottom - 12, scale: 1, color: ink)
    return canvas.image
  }

  /// 1000 → "1k", 4e6 → "4M"; other counts in full.
  static func countLabel(_ x: Double) -> String {
    let n = Int(x.rounded())
    if n >= 1_000_000 && n % 100_000 == 0 {
      return n % 1_000_000 == 0 ? "\(n / 1_000_000)M" : format(Double(n) / 1e6) + "M"
    }
    if n >= 1_000 && n % 100 == 0 { return n % 1_000 == 0 ? "\(n / 1_000)k" : format(Double(n) / 1e3) + "k" }
    return "\(n)"
  }
}

/// A white RGBAImage with opaque pixel, line and text drawing (clipped).
struct PlotCanvas {
  var image: RGBAImage

  init(width: Int, height: Int) {
    image = RGBAImage(width: width, height: height, background: .white)
  }

  mutating func set(_ x: Int, _ y: Int, _ color: SIMD4<Float>) {
    guard x >= 0, x < image.width, y >= 0, y < image.height else { return }
    image[x, y] = color
  }

  mutating func fill(left: Int, top: Int, right: Int, bottom: Int, color: SIMD4<Float>) {
    for y in top...bottom { for x in left...right { set(x, y, color) } }
  }

  mutating func horizontal(y: Int, from x0: Int, to x1: Int, color: SIMD4<Float>) {
    for x in x0...x1 { set(x, y, color) }
  }

  mutating func vertical(x: Int, from y0: Int, to y1: Int, color: SIMD4<Float>) {
    for y in y0...y1 { set(x, y, color) }
  }

  mutating func rectangle(left: Int, top: Int, right: Int, bottom: Int, color: SIMD4<Float>) {
    horizontal(y: top, from: left, to: right, color: color)
    horizontal(y: bottom, from: left, to: right, color: color)
    vertical(x: left, from: top, to: bottom, color: color)
    vertical(x: right, from: top, to: bottom, color: color)
  }

  /// A 3-pixel-wide line: a 3×3 square stamped every half pixel along it.
  mutating func line(from a: (Double, Double), to b: (Double, Double), color: SIMD4<Float>) {
    let steps = max(1, Int((max(abs(b.0 - a.0), abs(b.1 - a.1)) * 2).rounded(.up)))
    for k in 0...steps {
      let t = Double(k) / Double(steps)
      let x = Int((a.0 + (b.0 - a.0) * t).rounded()), y = Int((a.1 + (b.1 - a.1) * t).rounded())
      fill(left: x - 1, top: y - 1, right: x + 1, bottom: y + 1, color: color)
    }
  }

  /// A 9×9 square with a white centre, so the data points stand out on the line.
  mutating func marker(x: Int, y: Int, color: SIMD4<Float>) {
    fill(left: x - 4, top: y - 4, right: x + 4, bottom: y + 4, color: color)
    fill(left: x - 2, top: y - 2, right: x + 2, bottom: y + 2, color: SIMD4(1, 1, 1, 1))
  }

  static func width(of text: String, scale: Int) -> Int { BitmapFont.width(of: text, scale: scale) }

  /// `BitmapFont` for the characters it has; the glyph below for `M` (the
  /// unit prefix, which lowercasing would change); any other character is
  /// lowercased, or left blank when the font lacks it.
  mutating func text(_ text: String, x: Int, y: Int, scale: Int, color: SIMD4<Float>) {
    let straight = ColorRGBA(color)
    var penX = x
    for original in text {
      let character = PlotCanvas.glyphs[original] == nil ? Character(original.lowercased()) : original
      if BitmapFont.supportedCharacters.contains(character) {
        BitmapFont.draw(String(character), x: penX, y: y, scale: scale, color: straight, into: &image)
      } else if let rows = PlotCanvas.glyphs[character] {
        for (gy, row) in rows.enumerated() {
          for (gx, bit) in row.utf8.enumerated() where bit == UInt8(ascii: "#") {
            fill(
              left: penX + gx * scale, top: y + gy * scale, right: penX + gx * scale + scale - 1,
              bottom: y + gy * scale + scale - 1, color: color)
          }
        }
      }
      penX += BitmapFont.advance * scale
    }
  }

  private static let glyphs: [Character: [String]] = [
    "M": ["#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"]
  ]
}
