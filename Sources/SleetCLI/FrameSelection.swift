/// `--frames A-B` or `--shard i/n` as given, before the animation's frame
/// count is known (docs/rendering.md, "Splitting a render across processes
/// or machines").
///
/// Frames are numbered by their index in the full animation, from 0: frame k
/// is the k-th time of the unsplit render (`--start + k/F` for `sleet
/// render`, `k/F` or the gesture replay's k-th clock for `transition
/// render`), so the pieces of a split render are exactly the frames of the
/// whole one and a folder output names them as the whole render would
/// (`frame-0042.png` is frame 42 whichever run wrote it).
enum FrameRequest: Sendable, Equatable {
  /// `--frames A-B` (`last` given), `A-` (to the last frame: `last` nil) or
  /// `A` (one frame: `last == first`); inclusive, counted from 0.
  case frames(first: Int, last: Int?)
  /// `--shard i/n`: the i-th of n contiguous blocks, 0 ≤ i < n.
  case shard(index: Int, count: Int)

  /// Reads `--frames` and `--shard` (at most one of them) and checks their
  /// form; nil when neither is given.
  /// - Throws: `.usage` naming the flag for a malformed value (`A-B` with
  ///   B < A, `i/n` with n = 0 or i ≥ n) and when both are given.
  static func parse(_ arguments: inout Arguments) throws(CommandError) -> FrameRequest? {
    let frames = try arguments.value(OptionTable.frames)
    let shard = try arguments.value(OptionTable.shard)
    if frames != nil && shard != nil {
      throw .usage("--frames and --shard: give one, not both (a shard is a range of frames)")
    }
    if let frames { return try parseFrames(frames) }
    if let shard { return try parseShard(shard) }
    return nil
  }

  /// A frame number: decimal digits only (no sign, no spaces), fitting `Int`.
  private static func number(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(text)
  }

  private static func parseFrames(_ raw: String) throws(CommandError) -> FrameRequest {
    let parts = raw.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    guard let first = number(parts[0]) else {
      throw .usage(
        "--frames: expected A-B (the first and last frame, counted from 0, inclusive), A- or A, got '\(raw)'")
    }
    guard parts.count == 2 else { return .frames(first: first, last: first) }
    if parts[1].isEmpty { return .frames(first: first, last: nil) }
    guard let last = number(parts[1]) else {
      throw .usage(
        "--frames: expected A-B (the first and last frame, counted from 0, inclusive), A- or A, got '\(raw)'")
    }
    guard last >= first else {
      throw .usage("--frames \(raw): the last frame is before the first, so the range is empty")
    }
    return .frames(first: first, last: last)
  }

  private static func parseShard(_ raw: String) throws(CommandError) -> FrameRequest {
    let parts = raw.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = number(parts[0]), let count = number(parts[1]) else {
      throw .usage("--shard: expected i/n (shard i of n, counted from 0: 0/4 … 3/4), got '\(raw)'")
    }
    guard count > 0 else { throw .usage("--shard \(raw): n must be at least 1") }
    guard index < count else {
      throw .usage(
        "--shard \(raw): i must be less than n (shards are counted from 0: 0/\(count) … \(count - 1)/\(count))")
    }
    return .shard(index: index, count: count)
  }

  /// Refuses a still output: a still is one picture, not frames of an
  /// animation.
  func check(for target: RenderTarget) throws(CommandError) {
    guard target.isStill else { return }
    throw .usage("\(flag) applies to animations (FILE.apng or a folder), not to a still FILE.png")
  }

  /// The flag this came from.
  var flag: String {
    switch self {
    case .frames: "--frames"
    case .shard: "--shard"
    }
  }

  /// The frames selected from an animation of `total` frames. Shard i of n
  /// is frames ⌊i·total/n⌋ ..< ⌊(i+1)·total/n⌋: contiguous blocks whose
  /// sizes differ by at most one, in order, covering every frame once.
  /// - Throws: `.usage` naming the flag when the range reaches past the last
  ///   frame (`total − 1`) or there are more shards than frames (a shard
  ///   would be empty).
  func select(total: Int) throws(CommandError) -> FrameSelection {
    precondition(total > 0, "an animation has at least one frame")
    switch self {
    case .frames(let first, let last):
      let lastText = last.map(String.init) ?? ""
      guard first < total, (last ?? first) < total else {
        throw .usage(
          "--frames \(first)-\(lastText): out of range: the animation has \(total) frame\(total == 1 ? "" : "s"), 0-\(total - 1)"
        )
      }
      return FrameSelection(range: first..<((last ?? (total - 1)) + 1), total: total)
    case .shard(let index, let count):
      guard count <= total else {
        throw .usage(
          "--shard \(index)/\(count): the animation has \(total) frame\(total == 1 ? "" : "s"), fewer than \(count) shards (a shard would be empty)"
        )
      }
      // count ≤ total ≤ SleetLimits.frames, so the products cannot overflow.
      return FrameSelection(range: (index * total / count)..<((index + 1) * total / count), total: total)
    }
  }
}

/// The frames of a full animation that one run renders: all of them, or a
/// `--frames`/`--shard` selection (``FrameRequest``).
struct FrameSelection: Sendable, Equatable {
  /// The frames rendered, by index in the full animation; non-empty, within
  /// `0..<total`.
  var range: Range<Int>
  /// The frames of the full animation.
  var total: Int

  /// Every frame of an animation of `total` frames.
  static func all(_ total: Int) -> FrameSelection { FrameSelection(range: 0..<total, total: total) }

  /// Whether every frame is selected.
  var isAll: Bool { range == 0..<total }

  /// `times` (one per frame of the full animation) for the selected frames,
  /// the same values bit for bit.
  func times(_ times: [Double]) -> [Double] {
    precondition(times.count == total, "one time per frame of the full animation")
    return Array(times[range])
  }

  /// Digits in a folder's frame numbers: 4, or more when the full
  /// animation's last index needs them (the same for every piece of a split
  /// render).
  var digits: Int { Swift.max(4, String(total - 1).count) }

  /// The file name of frame `index` in a folder output: `frame-0042.png`.
  func fileName(_ index: Int) -> String {
    let number = String(index)
    return "frame-" + String(repeating: "0", count: Swift.max(0, digits - number.count)) + number + ".png"
  }

  /// Whether a folder render of this selection owns the file `name` (may
  /// refuse it without `--force` and remove it with): the whole animation
  /// owns every `frame-*.png`; a selection only the names it writes, so
  /// pieces of a split render writing into one folder at once never touch
  /// each other's frames or temporary files.
  func owns(_ name: String) -> Bool {
    guard !isAll else { return OutputCheck.isFrameName(name) }
    guard name.hasPrefix("frame-"), name.hasSuffix(".png") else { return false }
    let digits = name.dropFirst(6).dropLast(4)
    guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let index = Int(digits) else { return false }
    return range.contains(index) && fileName(index) == name
  }

  /// What a folder render of this selection owns, for messages.
  var ownedDescription: String {
    isAll
      ? "frame-*.png files"
      : "files of frames \(range.lowerBound)-\(range.upperBound - 1) (\(fileName(range.lowerBound)) … \(fileName(range.upperBound - 1)))"
  }

  /// "15 frames", or "5 frames: 10-14 of 15" for a part.
  var countText: String {
    let count = "\(range.count) frame\(range.count == 1 ? "" : "s")"
    return isAll ? count : "\(count): \(range.lowerBound)-\(range.upperBound - 1) of \(total)"
  }
}
