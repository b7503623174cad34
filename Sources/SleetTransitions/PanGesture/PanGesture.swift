import Foundation
import SleetMath

/// A recorded pan gesture: the finger's horizontal translation at increasing
/// times, as `UIPanGestureRecognizer` reports it to an edge-pan handler
/// (`translationInView:`.x).
///
/// A pan has a ``direction``: the sign of its first non-zero translation
/// (rightward when every sample is 0). Progress is measured along it: the
/// left-edge back swipe moves right (positive x toward completion); its
/// mirror in right-to-left layouts, a right-edge swipe, moves left (negative
/// x toward completion) and drives only pop and dismiss
/// (``check(drives:)``). ``forwardTranslation(at:)`` and ``forwardVelocity``
/// are the translation and velocity along the direction, what the finish
/// rule sees (`docs/transitions.md`, Interactive transitions).
///
/// Velocity at the end is taken from the last two samples,
/// `(xₙ − xₙ₋₁)/(tₙ − tₙ₋₁)` points per second (0 for a single sample): UIKit
/// derives `velocityInView:` from the most recent touches, and the last
/// interval is the most recent the recording has (`docs/semantics.md`).
/// A recorded `velocityX` is read and ignored, so the velocity is the same
/// function of the samples whatever the recorder logged.
public struct PanGesture: Hashable, Sendable {
  /// Which way a pan moves toward completion.
  public enum Direction: String, Hashable, Sendable, CaseIterable, Codable {
    /// Positive translation completes: the left-edge back swipe.
    case rightward
    /// Negative translation completes: the right-edge swipe that
    /// right-to-left layouts mirror the back swipe to.
    case leftward
  }

  /// One touch event: seconds on the gesture's clock, translation in points.
  public struct Sample: Hashable, Sendable, Codable {
    /// Seconds on the gesture's clock (samples must not go back in time).
    public var time: Double
    /// Horizontal translation since the touch began, points (positive to
    /// the right), as `translationInView:` reports it.
    public var translationX: Double

    /// A sample at `time` seconds with translation `translationX` points.
    public init(time: Double, translationX: Double) {
      self.time = time
      self.translationX = translationX
    }
  }

  /// The samples, in strictly increasing time.
  public let samples: [Sample]
  /// The sign of the first non-zero `translationX` (``Direction/rightward``
  /// when every sample is 0).
  public let direction: Direction
  /// The fields a gesture file gave that the format reads and ignores
  /// (`translationY`, `velocityX`, `velocityY`, `locationX`, `locationY`,
  /// `state`), sorted, each once; empty for a gesture made from samples.
  /// `timestamp` is not listed: it is another name for `time`. Equality
  /// compares it too (it records what the file held); the replay never
  /// reads it.
  public let ignoredFields: [String]

  /// The names a sample may carry besides its time and translation: what pan
  /// recorders log from `UIPanGestureRecognizer` (`translationInView:`.y,
  /// `velocityInView:`, `locationInView:`, `state`). Read and ignored.
  static let ignorableFields: Set<String> = [
    "translationY", "velocityX", "velocityY", "locationX", "locationY", "state",
  ]

  /// - Throws: ``GestureError`` when there is no sample, a number is not
  ///   finite, or the times do not strictly increase (naming the sample).
  /// - Complexity: O(samples).
  public init(samples: [Sample]) throws(GestureError) {
    try self.init(samples: samples, ignoredFields: [])
  }

  /// `init(samples:)` recording the ignored field names a file gave.
  private init(samples: [Sample], ignoredFields: [String]) throws(GestureError) {
    guard !samples.isEmpty else { throw .empty }
    for (i, s) in samples.enumerated() {
      guard s.time.isFinite else { throw .notFinite(field: "samples[\(i)].time", value: s.time) }
      guard s.translationX.isFinite else {
        throw .notFinite(field: "samples[\(i)].translationX", value: s.translationX)
      }
      if i > 0, !(s.time > samples[i - 1].time) {
        throw .outOfOrder(index: i, time: s.time, previous: samples[i - 1].time)
      }
    }
    self.samples = samples
    let first = samples.first { $0.translationX != 0 }?.translationX ?? 0
    self.direction = first < 0 ? .leftward : .rightward
    self.ignoredFields = ignoredFields
  }

  /// Reads a gesture file:
  ///
  /// ```json
  /// {"samples": [{"time": 0, "translationX": 0}, {"time": 0.1, "translationX": 40}, …]}
  /// ```
  ///
  /// Each sample has `translationX` and exactly one of `time` and
  /// `timestamp` (the same value under `UITouch.timestamp`'s name; messages
  /// about the value call it the sample's time). The fields recorders also
  /// log are read and ignored: `translationY`, `velocityX`, `velocityY`,
  /// `locationX`, `locationY` (numbers) and `state` (a string or a number,
  /// as `UIGestureRecognizer.State` is logged); their names are in
  /// ``ignoredFields``. The velocity is always derived from the samples
  /// (``velocity``), never taken from `velocityX`. Any other field is an
  /// error, so a misspelt name is caught.
  ///
  /// - Throws: ``GestureError`` naming the field at fault.
  /// - Complexity: O(bytes).
  public init(json: [UInt8]) throws(GestureError) {
    let root: JSONValue
    do throws(JSONSyntaxError) {
      root = try JSONParser.parse(json)
    } catch {
      throw .malformed("line \(error.line), column \(error.column): \(error.reason)")
    }
    guard case .object(let members) = root else {
      throw .malformed("the top level must be an object, got \(root.kindDescription)")
    }
    var list: [JSONValue]?
    for m in members {
      guard m.key == "samples" else { throw .unknownField(m.key) }
      guard list == nil else { throw .malformed("samples appears twice") }
      guard case .array(let items) = m.value else {
        throw .malformed("samples must be an array, got \(m.value.kindDescription)")
      }
      list = items
    }
    guard let list else { throw .malformed("missing field samples") }
    var samples: [Sample] = []
    samples.reserveCapacity(list.count)
    var ignored: Set<String> = []
    for (i, item) in list.enumerated() {
      guard case .object(let fields) = item else {
        throw .malformed("samples[\(i)] must be an object, got \(item.kindDescription)")
      }
      var values: [String: Double] = [:]
      var seen: Set<String> = []
      for f in fields {
        let path = "samples[\(i)].\(f.key)"
        let read = f.key == "time" || f.key == "timestamp" || f.key == "translationX"
        guard read || Self.ignorableFields.contains(f.key) else { throw .unknownField(path) }
        guard seen.insert(f.key).inserted else { throw .malformed("\(path) appears twice") }
        switch f.value {
        case .number(let raw) where read:
          guard let value = Double(raw) else { throw .malformed("\(path) must be a number, got \(raw)") }
          values[f.key] = value
        case .number: ignored.insert(f.key)
        case .string where f.key == "state": ignored.insert(f.key)
        default:
          let kind = f.key == "state" ? "a string or a number" : "a number"
          throw .malformed("\(path) must be \(kind), got \(f.value.kindDescription)")
        }
      }
      if values["time"] != nil && values["timestamp"] != nil {
        throw .malformed("samples[\(i)] has both time and timestamp (the same field): give one")
      }
      guard let time = values["time"] ?? values["timestamp"] else {
        throw .malformed("samples[\(i)] has no time (or timestamp)")
      }
      guard let translationX = values["translationX"] else {
        throw .malformed("samples[\(i)] has no translationX")
      }
      samples.append(Sample(time: time, translationX: translationX))
    }
    try self.init(samples: samples, ignoredFields: ignored.sorted())
  }

  /// Reads a gesture file from disk (the format of ``init(json:)``), at most
  /// ``SleetLimits/jsonFileBytes`` long.
  /// - Throws: ``GestureError/unreadable(path:)`` when the file cannot be
  ///   read, ``GestureError/tooLarge(path:limit:)`` past the limit, else as
  ///   ``init(json:)``.
  /// - Complexity: O(bytes).
  public init(contentsOfFile path: String) throws(GestureError) {
    let bytes: [UInt8]
    do throws(InputFileError) {
      bytes = try InputFile.read(path, limit: SleetLimits.jsonFileBytes)
    } catch {
      switch error {
      case .unreadable: throw .unreadable(path: path)
      case .tooLarge(let limit): throw .tooLarge(path: path, limit: limit)
      }
    }
    try self.init(json: bytes)
  }

  /// The time of the first sample (the gesture begins).
  public var startTime: Double { samples[0].time }
  /// The time of the last sample (the finger lifts).
  public var endTime: Double { samples[samples.count - 1].time }

  /// The translation the handler last saw at `clock`: the latest sample at or
  /// before it (touch events are discrete), 0 before the first.
  /// - Complexity: O(log samples).
  public func translation(at clock: Double) -> Double {
    var (lo, hi) = (0, samples.count)  // first index with time > clock
    while lo < hi {
      let mid = (lo + hi) / 2
      if samples[mid].time <= clock { lo = mid + 1 } else { hi = mid }
    }
    return lo == 0 ? 0 : samples[lo - 1].translationX
  }

  /// The x velocity when the finger lifts, in points per second, from the last
  /// two samples (0 for one sample). Derived from the samples even when the
  /// file recorded a `velocityX`.
  public var velocity: Double {
    guard samples.count >= 2 else { return 0 }
    let (a, b) = (samples[samples.count - 2], samples[samples.count - 1])
    return (b.translationX - a.translationX) / (b.time - a.time)
  }

  /// The translation along ``direction`` at `clock`: s·``translation(at:)``
  /// with s = +1 rightward, −1 leftward, so positive moves toward
  /// completion. Rightward it is ``translation(at:)`` itself; negation is
  /// exact, so a leftward pan and its mirror image read the same numbers.
  /// - Complexity: O(log samples).
  public func forwardTranslation(at clock: Double) -> Double {
    let x = translation(at: clock)
    return direction == .leftward ? -x : x
  }

  /// The velocity along ``direction`` when the finger lifts, s·``velocity``
  /// in points per second: positive toward completion, as the finish rule
  /// reads it (``FinishRule/finishes(progress:velocity:)``).
  public var forwardVelocity: Double {
    direction == .leftward ? -velocity : velocity
  }

  /// Checks that this pan can drive a transition going `transition`. A
  /// rightward pan drives every direction; a leftward one, the back swipe
  /// mirrored for right-to-left layouts, drives only the transitions that
  /// take a screen away (pop, dismiss), as UIKit mirrors only the
  /// interactive pop.
  /// - Throws: ``GestureError/leftwardPanCannotDrive(_:)`` for a leftward
  ///   pan and push or present.
  /// - Complexity: O(1).
  public func check(drives transition: TransitionDirection) throws(GestureError) {
    if direction == .leftward && transition.isForward { throw .leftwardPanCannotDrive(transition) }
  }
}

/// Why a gesture cannot be used.
public enum GestureError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The gesture has no samples.
  case empty
  /// A sample's `field` (`time` or `translationX`) is NaN or infinite.
  case notFinite(field: String, value: Double)
  /// Sample `index` is earlier than the one before it.
  case outOfOrder(index: Int, time: Double, previous: Double)
  /// The JSON names a field the format does not have (a typo, caught).
  case unknownField(String)
  /// The JSON is not a gesture document; the text says where and why.
  case malformed(String)
  /// The file could not be read.
  case unreadable(path: String)
  /// The file is longer than `limit` bytes (``SleetLimits/jsonFileBytes``).
  case tooLarge(path: String, limit: Int)
  /// A leftward pan cannot drive a transition going this way (push or
  /// present): it drives pop and dismiss only (``PanGesture/check(drives:)``).
  case leftwardPanCannotDrive(TransitionDirection)

  public var description: String {
    switch self {
    case .empty: "a gesture needs at least one sample"
    case .notFinite(let field, let value): "\(field) must be finite, got \(value)"
    case .outOfOrder(let i, let time, let previous):
      "samples[\(i)].time \(time) is not after samples[\(i - 1)].time \(previous): samples must be in increasing time"
    case .unknownField(let field): "unknown field \(field)"
    case .malformed(let reason): reason
    case .unreadable(let path): "cannot read \(path): no such file, or not a readable file"
    case .tooLarge(let path, let limit):
      "cannot read \(path): larger than \(SleetLimits.byteText(limit)), the limit for gesture files (SleetLimits)"
    case .leftwardPanCannotDrive(let transition):
      "a leftward pan (translationX < 0) drives pop or dismiss, not \(transition.rawValue); record the pan rightward or use direction \(transition == .present ? "dismiss" : "pop")"
    }
  }
}
