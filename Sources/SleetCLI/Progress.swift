import Dispatch
import SleetKit
import Synchronization

/// The progress line of a render on stderr: shown only when stderr is a
/// terminal, and only once the render has taken longer than
/// ``CommandOutput/progressDelay`` (1 s), so quick renders print nothing.
/// It is redrawn every 0.25 s in place (`\r`, then erase to the end of the
/// line) and ends with its final state and a newline:
///
/// ```
/// render: frame 64/150 (42 %), 4.8 s elapsed, about 7 s left
/// render: preparing the frame, 1.0 s elapsed                        (a still: simulating, sprites)
/// render: drawing the frame 45 %, 1.3 s elapsed, about 2 s left
/// render: writing, 3.0 s elapsed, about 1 s left                    (the last step)
/// ```
///
/// The estimate is the time so far scaled by the work left: for several
/// frames, the total the written frames foretell, `t(last write) × frames /
/// written`, minus the time elapsed (before the first batch is written,
/// drawn frames count half); for one frame, the rate at
/// which the rasterizer draws rows (``RasterProgress``, measured from the
/// first rows seen) times the rows left, plus the time to encode the PNG,
/// estimated from its pixel count (``encodingSecondsPerPixel``).
///
/// Work is reported by whoever does it: ``advance(by:)`` by the writer after
/// each batch, ``frameDrawn()`` and ``raster`` by the scenes that draw, which
/// reach the running command's progress through ``ProgressHub``. Stops
/// with ``finish()`` (the writer calls it when the output is complete).
final class Progress: Sendable {
  let output: CommandOutput
  let label: String
  let total: Int
  /// What is counted: `frame` (the default) or, for `sleet demo`, `effect`.
  let unit: String
  /// Rows drawn of the current single frame (stills).
  let raster = RasterProgress()
  /// Seconds since an arbitrary origin.
  private let clock: @Sendable () -> Double
  private let started: Double
  private let state = Mutex(State())

  /// Rough cost of encoding and writing a PNG, in seconds per pixel, for the
  /// estimate of a still's last step: 1.2–1.6 × 10⁻⁷ s measured in the release
  /// build on the 2-core development VM (3120×6752 px empty and busy stills,
  /// an 8192² px one).
  static let encodingSecondsPerPixel = 1.5e-7

  struct State {
    var drawn = 0
    var written = 0
    /// When the last frame was drawn, the last batch written.
    var drawnAt = 0.0
    var writtenAt = 0.0
    /// Pixels of one frame and rows to draw, once known.
    var pixels = 0
    var rows = 0
    var drawingDoneAt: Double?
    /// When rows were first seen drawn, and the fraction then (a still's
    /// rate is measured from there: sprites are prepared before).
    var rowsSeen: (time: Double, fraction: Double)?
    var shown = false
    var finished = false
  }

  /// A progress line for `total` frames, attached to `output`'s hub so the
  /// scenes report to it. Starts its timer when stderr is a terminal.
  init(
    output: CommandOutput, label: String, total: Int, unit: String = "frame",
    clock: @escaping @Sendable () -> Double = Progress.monotonicSeconds, ticking: Bool = true
  ) {
    self.output = output
    self.label = label
    self.total = Swift.max(1, total)
    self.unit = unit
    self.clock = clock
    started = clock()
    output.progress.attach(self)
    if ticking && output.errorIsTerminal {
      tick()  // shows at once when there is no delay (tests)
      scheduleTick()
    }
  }

  /// Ticks every ``CommandOutput/progressInterval`` (0.25 s) until ``finish()``.
  private func scheduleTick() {
    DispatchQueue.global().asyncAfter(deadline: .now() + output.progressInterval) { [weak self] in
      guard let self, !self.state.withLock({ $0.finished }) else { return }
      self.tick()
      self.scheduleTick()
    }
  }

  static func monotonicSeconds() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) * 1e-9
  }

  /// The size of the frames being drawn (for the estimate of a still's encoding).
  func setFrameSize(width: Int, height: Int) {
    state.withLock {
      $0.pixels = width * height
      $0.rows = height
    }
  }

  /// One frame is drawn (any thread).
  func frameDrawn() {
    let now = clock()
    state.withLock {
      $0.drawn += 1
      $0.drawnAt = now
      if $0.drawn >= total && $0.drawingDoneAt == nil { $0.drawingDoneAt = now }
    }
  }

  /// `frames` more frames are written (or, for `demo`, effects done).
  func advance(by frames: Int) {
    let now = clock()
    state.withLock {
      $0.written += frames
      $0.writtenAt = now
    }
  }

  /// Redraws the line when it is due (the timer calls this).
  func tick() {
    guard let text = line(at: clock()) else { return }
    // Marked shown and drawn under the lock, so finish() cannot end the
    // line between the two.
    state.withLock {
      guard !$0.finished else { return }
      $0.shown = true
      output.standardError("\r\(text)\u{1B}[K")
    }
  }

  /// Erases the line (before other text goes to the terminal); the next
  /// tick draws it again.
  func clearLine() {
    state.withLock {
      if $0.shown && !$0.finished { output.standardError("\r\u{1B}[K") }
    }
  }

  /// Stops the timer and ends the line if one was shown.
  func finish() {
    output.progress.detach(self)
    let shown = state.withLock {
      let shown = $0.shown && !$0.finished
      $0.finished = true
      return shown
    }
    guard shown else { return }
    let elapsed = clock() - started
    output.standardError("\r\(label): \(total) \(unit)\(total == 1 ? "" : "s") in \(Self.seconds(elapsed))\u{1B}[K\n")
  }

  /// Stops without a summary (the command failed): erases the line if one
  /// was shown, so the error starts on a clean line.
  func abandon() {
    output.progress.detach(self)
    state.withLock {
      if $0.shown && !$0.finished { output.standardError("\r\u{1B}[K") }
      $0.finished = true
    }
  }

  /// The line to show at time `now`: nil before the delay, after
  /// ``finish()`` or when stderr is not a terminal.
  func line(at now: Double) -> String? {
    let elapsed = now - started
    let rows = raster.rows
    let s = state.withLock {
      if total == 1, rows > 0, $0.rows > 0, $0.rowsSeen == nil {
        $0.rowsSeen = (now, Swift.min(0.99, Double(rows) / Double($0.rows)))
      }
      return $0
    }
    guard output.errorIsTerminal, !s.finished, elapsed >= output.progressDelay else { return nil }
    let clock = "\(Self.seconds(elapsed)) elapsed"
    if total == 1 {
      // One frame: prepare (simulate, sprites), draw rows, then encode.
      let encoding = Double(s.pixels) * Self.encodingSecondsPerPixel
      if let doneAt = s.drawingDoneAt {
        return "\(label): writing, \(clock), \(Self.left(encoding - (now - doneAt)))"
      }
      guard let seen = s.rowsSeen else { return "\(label): preparing the frame, \(clock)" }
      let fraction = Swift.min(0.99, Double(rows) / Double(s.rows))
      var text = "\(label): drawing the frame \(Int(fraction * 100)) %, \(clock)"
      if fraction > seen.fraction {
        text += ", " + Self.left((now - seen.time) * (1 - fraction) / (fraction - seen.fraction) + encoding)
      }
      return text
    }
    // Several: the rate up to the last written batch (encoding included);
    // before the first is written, drawn frames count half (a frame is
    // drawn, then encoded). The estimate of the total counts down between
    // updates.
    let (done, work, at) =
      s.written > 0
      ? (s.written, Double(s.written), s.writtenAt) : (s.drawn, Double(s.drawn) / 2, s.drawnAt)
    let what = s.drawn >= total && s.written < total ? "writing, " : ""
    let percent = Int(Double(done) * 100 / Double(total))
    var text = "\(label): \(what)\(unit) \(done)/\(total) (\(percent) %), \(clock)"
    if work > 0 { text += ", " + Self.left((at - started) * Double(total) / work - elapsed) }
    return text
  }

  /// `2.1 s` under 10 s, then whole seconds (`42 s`), then minutes and seconds.
  static func seconds(_ t: Double) -> String {
    if t < 10 { return "\(Int(t))." + "\(Int(t * 10) % 10) s" }
    if t < 60 { return "\(Int(t.rounded())) s" }
    let whole = Int(t.rounded())
    return "\(whole / 60) min \(whole % 60) s"
  }

  /// "about 3 s left", or "almost done" under half a second.
  static func left(_ t: Double) -> String {
    t < 0.5 ? "almost done" : "about \(t < 10 ? "\(Int(t.rounded())) s" : seconds(t)) left"
  }
}

/// Where the scenes that draw reach the progress line of the running
/// command: one per ``CommandOutput`` (so per command run, also when tests
/// run commands concurrently).
final class ProgressHub: Sendable {
  /// Weak: a progress line holds its output, and the output holds this hub,
  /// so a strong reference here made a cycle whenever a line was not
  /// finished or abandoned (LeakSanitizer in the suite under
  /// AddressSanitizer). The command that made the line keeps it alive.
  private struct Attached {
    weak var progress: Progress?
  }
  private let current = Mutex(Attached())

  init() {}

  /// The progress line being shown, if any.
  var progress: Progress? { current.withLock { $0.progress } }

  func attach(_ progress: Progress) { current.withLock { $0.progress = progress } }

  func detach(_ progress: Progress) {
    current.withLock { if $0.progress === progress { $0.progress = nil } }
  }
}
