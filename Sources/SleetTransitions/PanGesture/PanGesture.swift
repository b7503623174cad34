import Foundation
import SleetMath

/// A recorded pan gesture: the finger's horizontal translation at increasing
/// times, as `UIPanGestureRecognizer` reports it to an edge-pan handler
/// (`translationInView:`.x). Positive x moves toward completion.
///
/// Velocity at the end is taken from the last two samples,
/// `(xₙ − xₙ₋₁)/(tₙ − tₙ₋₁)` points per second (0 for a single sample): UIKit
/// derives `velocityInView:` from the most recent touches, and the last
/// interval is the most recent the recording has (`docs/semantics.md`).
public struct PanGesture: Hashable, Sendable {
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

  /// - Throws: ``GestureError`` when there is no sample, a number is not
  ///   finite, or the times do not strictly increase (naming the sample).
  /// - Complexity: O(samples).
  public init(samples: [Sample]) throws(GestureError) {
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
  }

  /// Reads a gesture file:
  ///
  /// ```json
  /// {"samples": [{"time": 0, "translationX": 0}, {"time": 0.1, "translationX": 40}, …]}
  /// ```
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
    for (i, item) in list.enumerated() {
      guard case .object(let fields) = item else {
        throw .malformed("samples[\(i)] must be an object, got \(item.kindDescription)")
      }
      var values: [String: Double] = [:]
      for f in fields {
        let path = "samples[\(i)].\(f.key)"
        guard f.key == "time" || f.key == "translationX" else { throw .unknownField(path) }
        guard values[f.key] == nil else { throw .malformed("\(path) appears twice") }
        guard case .number(let raw) = f.value, let value = Double(raw) else {
          throw .malformed("\(path) must be a number, got \(f.value.kindDescription)")
        }
        values[f.key] = value
      }
      for key in ["time", "translationX"] where values[key] == nil {
        throw .malformed("samples[\(i)] has no \(key)")
      }
      samples.append(Sample(time: values["time"]!, translationX: values["translationX"]!))
    }
    try self.init(samples: samples)
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
  /// two samples (0 for one sample).
  public var velocity: Double {
    guard samples.count >= 2 else { return 0 }
    let (a, b) = (samples[samples.count - 2], samples[samples.count - 1])
    return (b.translationX - a.translationX) / (b.time - a.time)
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
    }
  }
}
