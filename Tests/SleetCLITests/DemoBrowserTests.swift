import Glibc
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// `sleet demo`'s page in a real browser: Debian's headless Chromium opens
/// index.html from the file system (no server), and every animation must
/// decode and show something. Fails, never skips, without Chromium (.ci/run
/// installs it).
///
/// Two runs of Chromium over the same window size (so the layout is the
/// same): `--dump-dom` of a copy of the page with a check script added
/// (every `<img>` complete with a natural size, every animation file of the
/// page — both formats — and a GIF and a lossy WebP from `sleet render`
/// decoded and drawn to a canvas, counting its colours), then
/// `--screenshot`, whose pixels in each animation's box must not be blank.
@Suite("sleet demo in headless Chromium", .serialized)
struct DemoBrowserTests {
  static let chromium = "/usr/bin/chromium"
  /// The window width; the screenshot's height is the page's.
  static let windowWidth = 1600

  /// The script added to the copy of the page. On load (every `<img>` of
  /// the document has loaded or failed by then), one line per `<img
  /// class="animation">` of the page (its file, whether it decoded, its
  /// natural size, its box on the page) and one per `<img class="file">`
  /// the test adds (every animation file: drawn to a canvas, its size and
  /// the number of colours of the frame drawn), into `<pre
  /// id="sleet-check">`. Synchronous on purpose: with
  /// `--virtual-time-budget` the running animations use up virtual time
  /// and Chromium dumps the DOM without waiting for `Image.decode()`.
  static let checkScript = """
    <script>
    window.addEventListener("load", () => {
      const lines = [`height ${document.documentElement.scrollHeight}`];
      for (const img of document.querySelectorAll("img.animation")) {
        const box = img.getBoundingClientRect();
        lines.push(`page ${img.getAttribute("src")} complete=${img.complete} natural=${img.naturalWidth}x${img.naturalHeight} box=${Math.round(box.left + scrollX)},${Math.round(box.top + scrollY)},${Math.round(box.width)},${Math.round(box.height)}`);
      }
      for (const img of document.querySelectorAll("img.file")) {
        const file = img.getAttribute("src");
        if (!img.complete || img.naturalWidth == 0) { lines.push(`file ${file} error=undecoded`); continue; }
        try {
          const canvas = document.createElement("canvas");
          canvas.width = img.naturalWidth;
          canvas.height = img.naturalHeight;
          const context = canvas.getContext("2d");
          context.drawImage(img, 0, 0);
          const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
          const colours = new Set();
          for (let i = 0; i < data.length; i += 4) colours.add(data[i] * 16777216 + data[i + 1] * 65536 + data[i + 2] * 256 + data[i + 3]);
          lines.push(`file ${file} size=${canvas.width}x${canvas.height} colours=${colours.size}`);
        } catch (e) { lines.push(`file ${file} error=${e.name}`); }
      }
      const pre = document.createElement("pre");
      pre.id = "sleet-check";
      pre.textContent = "\\n" + lines.join("\\n") + "\\nend\\n";
      document.body.appendChild(pre);
    });
    </script>
    """

  /// Chromium's arguments for a page: headless, no sandbox (the tests may
  /// run as root, where Chromium refuses its sandbox), file URLs allowed to
  /// read each other (the canvas reads file images), a profile in `folder`,
  /// and virtual time so the page's loads finish before the dump.
  static func arguments(_ folder: String, _ page: String, height: Int = 2000, _ action: [String]) -> [String] {
    [
      chromium, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
      "--no-first-run", "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1",
      "--user-data-dir=\(folder)/profile", "--virtual-time-budget=5000",
      "--window-size=\(windowWidth),\(height)",
    ] + action + ["file://\(folder)/\(page)"]
  }

  @Test func everyAnimationDecodesAndShowsInChromium() throws {
    try #require(access(Self.chromium, X_OK) == 0, "no \(Self.chromium): install Debian's chromium (.ci/run does)")
    let folder = makeTemporaryFolder(prefix: "sleet-browser")
    defer { removeTree(folder) }
    let demo = folder + "/demo"
    let r = runSleet(["demo", "--out", demo, "--scale", "0.1", "--fps", "4"])
    #expect(r.status == 0, "\(r.err)")
    // A GIF and a lossy WebP as `sleet render` writes them, for the check.
    for (out, extra) in [("extra.gif", [String]()), ("extra-lossy.webp", ["--quality", "60"])] {
      let made = runSleet(
        ["render", "fireworks", "--size", "60x100", "--duration", "1", "--fps", "8", "--out", demo + "/" + out] + extra)
      #expect(made.status == 0, "\(made.err)")
    }
    let page = String(decoding: try #require(fileBytes(demo + "/index.html")), as: UTF8.self)
    #expect(!page.contains("<script"), "the page itself needs no script")
    let names = Effect.presetNames + TransitionStyle.allCases.flatMap { [$0.rawValue, $0.rawValue + "-interactive"] }
    // Every animation file (both formats) and the extra ones, as images of
    // the checked copy of the page.
    let files = names.flatMap { [$0 + ".apng", $0 + ".webp"] } + ["extra.gif", "extra-lossy.webp"]
    let images = files.map { "<img class=\"file\" src=\"\($0)\" alt=\"\($0)\">" }.joined(separator: "\n")
    let checked = try #require(page.range(of: "</body>"))
    try FileOutput.atomicWrite(
      Array((page[..<checked.lowerBound] + images + Self.checkScript + page[checked.lowerBound...]).utf8),
      to: demo + "/check.html")

    let dump = runProgram(Self.arguments(folder, "demo/check.html", ["--dump-dom"]), folder: folder)
    #expect(dump.status == 0, "\(dump.output.suffix(2000))")
    let report = try #require(
      dump.output.range(of: "<pre id=\"sleet-check\">").map { dump.output[$0.upperBound...] },
      "no check report in Chromium's DOM: \(dump.output.suffix(2000))")
    let lines = report.prefix { $0 != "<" }.split(separator: "\n").map(String.init)
    #expect(lines.last == "end", "the check did not finish: \(lines.suffix(3))")

    var boxes: [(file: String, x: Int, y: Int, width: Int, height: Int)] = []
    for line in lines where line.hasPrefix("page ") {
      let words = line.split(separator: " ").map(String.init)
      let file = words[1]
      #expect(line.contains("complete=true natural=39x85"), "\(line)")
      let box = words.first { $0.hasPrefix("box=") }!.dropFirst(4).split(separator: ",").compactMap { Int($0) }
      if box.count == 4 { boxes.append((file, box[0], box[1], box[2], box[3])) }
    }
    #expect(Set(boxes.map { String($0.file.prefix { $0 != "." }) }) == Set(names), "\(boxes.map(\.file))")
    // The animations whose first frame (as SleetKit wrote it) is one flat
    // colour: for them one colour is right.
    var flatFirstFrames = Set<String>()
    for name in names {
      let bytes = try PNGFile.read(path: demo + "/" + name + ".apng").straightRGBA8()
      let pixels = stride(from: 0, to: bytes.count, by: 4).map {
        bytes[$0..<$0 + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      }
      if Set(pixels).count < 2 { flatFirstFrames.insert(name) }
    }
    let fileLines = lines.filter { $0.hasPrefix("file ") }
    #expect(fileLines.count == files.count, "\(fileLines.count) files checked")
    for line in fileLines {
      let words = line.split(separator: " ").map(String.init)
      let colours = words.first { $0.hasPrefix("colours=") }.flatMap { Int($0.dropFirst(8)) } ?? 0
      // Decoded, and not one flat colour unless SleetKit's first frame is
      // (likeBurst's may be: it starts at its first birth).
      let flat = flatFirstFrames.contains(String(words[1].prefix { $0 != "." }))
      #expect(!line.contains("error=") && (colours >= 2 || flat), "\(line)")
    }

    let screenshot = folder + "/screenshot.png"
    let height = try #require(lines.first { $0.hasPrefix("height ") }.flatMap { Int($0.dropFirst(7)) })
    let shot = runProgram(
      Self.arguments(folder, "demo/index.html", height: height, ["--screenshot=\(screenshot)"]), folder: folder)
    #expect(shot.status == 0, "\(shot.output.suffix(2000))")
    let image = try #require(fileBytes(screenshot).flatMap(libpngDecode), "no screenshot: \(shot.output.suffix(2000))")
    #expect(image.width == Self.windowWidth && image.height == height)
    for box in boxes {
      guard box.y + box.height <= image.height, box.x + box.width <= image.width else {
        Issue.record("\(box.file) is outside the \(image.width)×\(image.height) screenshot")
        continue
      }
      // The page background is #1e1e22: an animation that shows nothing
      // (or a broken-image icon) leaves it; a frame of the demo has its own
      // black or picture pixels and more than one colour.
      var colours = Set<UInt32>()
      var background = 0
      for y in box.y..<box.y + box.height {
        for x in box.x..<box.x + box.width {
          let i = 4 * (y * image.width + x)
          let rgb = (UInt32(image.rgba[i]) << 16) | (UInt32(image.rgba[i + 1]) << 8) | UInt32(image.rgba[i + 2])
          colours.insert(rgb)
          if rgb == 0x1E1E22 { background += 1 }
        }
      }
      let flat = flatFirstFrames.contains(String(box.file.prefix { $0 != "." }))
      #expect(
        (colours.count >= 2 || flat) && background * 2 < box.width * box.height,
        "\(box.file): \(colours.count) colours, \(background) background pixels")
    }
  }
}
