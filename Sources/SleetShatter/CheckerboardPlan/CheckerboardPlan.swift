/// The tiling and timing of Apple's checkerboard transition for one container
/// (`AAPLCheckerboardTransitionAnimator`, CustomTransitions sample).
///
/// ```
/// s  = round(W / divisor)            C round: half away from zero
/// nx = ⌈W / s⌉,  ny = ⌈H / s⌉         edge tiles overhang, never clipped
/// L  = √(W² + H²)
/// push: T = ( W,  H),  v = (x·s, y·s)                      tile's top-left corner
/// pop:  T = (−W, −H),  v = ((x+1)·s − W, (y+1)·s − H)      tile's bottom-right corner
/// p  = |v·T| / L
/// delay    = D · p / (L + S)
/// duration = D · (p + S)/(L + S) − delay  =  D · S / (L + S)   (every tile)
/// ```
///
/// with D = ``duration`` (3.0 s) and S = ``spacing`` (160 pt) by default. Tiles
/// are numbered row-major, `index = row · columns + column`, as the sample adds
/// them to its container.
///
/// **Precision:** all times are `Double`, evaluated in the order written above,
/// so they match the sample's `CGFloat` arithmetic to the last few ulps.
public struct CheckerboardPlan: Hashable, Sendable {
  /// The sample's `/ 10.f`.
  public static let defaultDivisor = 10
  /// The sample's `transitionDuration`, 3.0 s.
  public static let defaultDuration = 3.0
  /// The sample's `transitionSpacing`, 160 pt.
  public static let defaultSpacing = 160.0
  /// The largest container side accepted, in points. Larger values are almost
  /// certainly unit mistakes (pixels × scale), and keep every coordinate exact
  /// enough in `Float`.
  public static let maximumSide = 100_000.0
  /// The most tiles a plan may have (2²², about 4.2 million; the frame for
  /// that many tiles is about 470 MB).
  public static let maximumTileCount = 1 << 22

  /// Container width W and height H, in points.
  public let width: Double
  /// Container height H, points.
  public let height: Double
  /// Push (wave from top-left) or pop (from bottom-right).
  public let direction: ShatterDirection
  /// The divisor of the width that gives the tile side (10 in the sample).
  public let divisor: Int
  /// D: the transition's nominal duration in seconds.
  public let duration: Double
  /// S: the spacing in points; larger values give longer, more overlapping flips.
  public let spacing: Double

  /// s: the side of every tile in points.
  public let slice: Double
  /// nx = ⌈W/s⌉.
  public let columns: Int
  /// ny = ⌈H/s⌉.
  public let rows: Int
  /// L = √(W² + H²).
  public let diagonal: Double
  /// D·S/(L + S): the flip duration of every tile.
  public let tileDuration: Double

  /// Creates a plan, checking its inputs with preconditions (see ``validate(width:height:divisor:duration:spacing:)``
  /// for the throwing form that command lines and files use).
  /// - Complexity: O(1).
  public init(
    width: Double, height: Double, direction: ShatterDirection = .push,
    divisor: Int = CheckerboardPlan.defaultDivisor,
    duration: Double = CheckerboardPlan.defaultDuration,
    spacing: Double = CheckerboardPlan.defaultSpacing
  ) {
    do {
      try CheckerboardPlan.validate(
        width: width, height: height, divisor: divisor, duration: duration, spacing: spacing)
    } catch {
      preconditionFailure("CheckerboardPlan: \(error)")
    }
    self.width = width
    self.height = height
    self.direction = direction
    self.divisor = divisor
    self.duration = duration
    self.spacing = spacing
    slice = CheckerboardPlan.slice(width: width, divisor: divisor)
    columns = Int((width / slice).rounded(.up))
    rows = Int((height / slice).rounded(.up))
    diagonal = (width * width + height * height).squareRoot()
    tileDuration = duration * spacing / (diagonal + spacing)
    // v·T = a + b·column + c·row (see the type's formula); the delay is
    // |v·T| · D / (L·(L + S)), one multiply per tile in the hot loops.
    let s = slice
    switch direction {
    case .push:
      _dotCoefficients = SIMD3(0, s * width, s * height)
    case .pop:
      _dotCoefficients = SIMD3(
        width * (width - s) + height * (height - s), -s * width, -s * height)
    }
    _delayScale = duration / (diagonal * (diagonal + spacing))
    _inverseTileDuration = 1 / tileDuration
  }

  /// 1 / ``tileDuration``: local progress is `(t − delay) · this` in every path
  /// (a multiply, not a divide, in the hot loop; the same expression
  /// everywhere so that every path sees the same progress).
  @usableFromInline internal let _inverseTileDuration: Double

  /// A tile's local progress at `time`, clamped to [0, 1].
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  public func progress(column: Int, row: Int, at time: Double) -> Double {
    let x = (time - _delay(column: column, row: row)) * _inverseTileDuration
    // Written as max then min so that it compiles to two branch-free instructions.
    let low = x > 0 ? x : 0
    return low < 1 ? low : 1
  }

  /// (a, b, c) with v·T = a + b·column + c·row.
  @usableFromInline internal let _dotCoefficients: SIMD3<Double>
  /// D / (L·(L + S)).
  @usableFromInline internal let _delayScale: Double

  /// v·T for a tile (signed).
  @inlinable @inline(__always)
  internal func _dot(column: Int, row: Int) -> Double {
    _dotCoefficients.x + _dotCoefficients.y * Double(column) + _dotCoefficients.z * Double(row)
  }

  /// The tile's start time; the one formula every path uses.
  @inlinable @inline(__always)
  internal func _delay(column: Int, row: Int) -> Double {
    abs(_dot(column: column, row: row)) * _delayScale
  }

  /// A plan with exactly `columns × rows` tiles of side `tileSide`: a container
  /// of (columns·s) × (rows·s) points cut with divisor `columns`. Handy for
  /// benchmarks and tests at a given tile count (e.g. 1000 × 1000 for a
  /// million tiles).
  /// - Precondition: `tileSide` is a whole number ≥ 1 and the container and
  ///   tile count are within the limits of ``validate(width:height:divisor:duration:spacing:)``.
  /// - Complexity: O(1).
  public static func grid(
    columns: Int, rows: Int, tileSide: Double = 4, direction: ShatterDirection = .push
  ) -> CheckerboardPlan {
    precondition(
      tileSide >= 1 && tileSide == tileSide.rounded() && columns >= 1 && rows >= 1,
      "CheckerboardPlan.grid: need columns, rows ≥ 1 and a whole tileSide ≥ 1")
    let plan = CheckerboardPlan(
      width: Double(columns) * tileSide, height: Double(rows) * tileSide, direction: direction,
      divisor: columns)
    assert(plan.columns == columns && plan.rows == rows)
    return plan
  }

  /// round(W / divisor), C `round` (half away from zero).
  @inline(__always)
  internal static func slice(width: Double, divisor: Int) -> Double {
    (width / Double(divisor)).rounded(.toNearestOrAwayFromZero)
  }

  /// Checks the inputs of a plan and throws an error naming the first bad one.
  ///
  /// W and H must be finite and in (0, ``maximumSide``]; `divisor` ≥ 1 with
  /// round(W/divisor) ≥ 1; at most ``maximumTileCount`` tiles; D > 0 and S ≥ 0,
  /// both finite.
  /// - Complexity: O(1).
  public static func validate(
    width: Double, height: Double, divisor: Int = defaultDivisor,
    duration: Double = defaultDuration, spacing: Double = defaultSpacing
  ) throws(ShatterPlanError) {
    for (name, value) in [("width", width), ("height", height)] {
      guard value.isFinite, value > 0, value <= maximumSide else {
        throw .invalidSize(field: name, value: value)
      }
    }
    guard divisor >= 1 else { throw .invalidDivisor(divisor, reason: "must be at least 1") }
    let s = slice(width: width, divisor: divisor)
    guard s >= 1 else {
      throw .invalidDivisor(divisor, reason: "gives a tile side round(\(width)/\(divisor)) below 1 pt")
    }
    let count = (width / s).rounded(.up) * (height / s).rounded(.up)
    guard count <= Double(maximumTileCount) else {
      throw .tooManyTiles(count: Int(count), limit: maximumTileCount)
    }
    guard duration.isFinite, duration > 0 else { throw .invalidTiming(field: "duration", value: duration) }
    guard spacing.isFinite, spacing >= 0 else { throw .invalidTiming(field: "spacing", value: spacing) }
  }

  /// nx · ny.
  @inlinable
  public var tileCount: Int { columns * rows }

  /// The tile's rectangle (x·s, y·s, s, s) in container points; edge tiles may
  /// extend past the container.
  /// - Complexity: O(1).
  public func tileRect(column: Int, row: Int) -> (x: Double, y: Double, width: Double, height: Double) {
    (Double(column) * slice, Double(row) * slice, slice, slice)
  }

  /// The projection length p = |v·T| / L of a tile on the transition vector,
  /// in points.
  /// - Complexity: O(1).
  public func projection(column: Int, row: Int) -> Double {
    abs(_dot(column: column, row: row)) / diagonal
  }

  /// The tile's start time D·p/(L + S), in seconds (evaluated as
  /// |v·T| · D/(L·(L + S)), within a few ulps of the sample's order).
  /// - Complexity: O(1).
  @inlinable
  public func delay(column: Int, row: Int) -> Double {
    _delay(column: column, row: row)
  }

  /// The tile's duration exactly as the sample computes it,
  /// D·(p + S)/(L + S) − delay (equal to ``tileDuration`` up to rounding).
  /// - Complexity: O(1).
  public func duration(column: Int, row: Int) -> Double {
    let p = projection(column: column, row: row)
    return duration * (p + spacing) / (diagonal + spacing) - duration * p / (diagonal + spacing)
  }

  /// The latest start of any tile. |v·T| is convex in (column, row), so its
  /// maximum over the grid is at one of the four corner tiles.
  /// - Complexity: O(1).
  public var lastDelay: Double {
    let c = columns - 1
    let r = rows - 1
    return Swift.max(
      Swift.max(delay(column: 0, row: 0), delay(column: c, row: 0)),
      Swift.max(delay(column: 0, row: r), delay(column: c, row: r)))
  }

  /// The earliest start of any tile (0 for a push; for a pop slightly above 0
  /// when the bottom-right tile overhangs).
  /// - Complexity: O(columns + rows).
  public var firstDelay: Double {
    // Along a row v·T is affine in the column with slope b, so |v·T| is
    // smallest at an end of the row or beside its zero crossing.
    let b = _dotCoefficients.y
    var best = Double.infinity
    for row in 0..<rows {
      best = Swift.min(best, delay(column: 0, row: row), delay(column: columns - 1, row: row))
      guard b != 0 else { continue }
      let crossing = -_dot(column: 0, row: row) / b
      guard crossing > 0, crossing < Double(columns - 1) else { continue }
      let c = Int(crossing.rounded(.down))
      best = Swift.min(best, delay(column: c, row: row), delay(column: c + 1, row: row))
    }
    return best
  }

  /// When the last tile finishes: ``lastDelay`` + ``tileDuration``. The
  /// transition is complete from this time on (slightly before D, as in the
  /// sample).
  /// - Complexity: O(1).
  public var endTime: Double { lastDelay + tileDuration }

  /// Every tile's schedule, row-major.
  /// - Complexity: O(``tileCount``); one allocation.
  public var tiles: [CheckerboardTile] {
    var out: [CheckerboardTile] = []
    out.reserveCapacity(tileCount)
    for row in 0..<rows {
      for column in 0..<columns {
        out.append(
          CheckerboardTile(
            column: column, row: row, delay: delay(column: column, row: row),
            duration: duration(column: column, row: row)))
      }
    }
    return out
  }
}

/// One tile's schedule in a ``CheckerboardPlan``.
public struct CheckerboardTile: Hashable, Sendable {
  /// Column, 0 at the left edge.
  public var column: Int
  /// Row, 0 at the top edge.
  public var row: Int
  /// Start time in seconds after the transition begins.
  public var delay: Double
  /// Flip duration in seconds.
  public var duration: Double

  /// - Complexity: O(1).
  /// A tile at (`column`, `row`) that starts flipping `delay` seconds in and
  /// flips for `duration` seconds.
  public init(column: Int, row: Int, delay: Double, duration: Double) {
    self.column = column
    self.row = row
    self.delay = delay
    self.duration = duration
  }
}

/// Why a shatter plan's inputs were rejected. Each case names the field.
public enum ShatterPlanError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `width` or `height` (the field) is not finite, not positive, or above
  /// ``CheckerboardPlan/maximumSide``.
  case invalidSize(field: String, value: Double)
  /// The divisor (or glass-break grid) is out of range: below 1, a tile side
  /// below 1 pt, or a grid outside 1…4096; `reason` says which.
  case invalidDivisor(Int, reason: String)
  /// The grid would have `count` tiles, more than `limit`
  /// (``CheckerboardPlan/maximumTileCount``).
  case tooManyTiles(count: Int, limit: Int)
  /// `duration` is not finite and positive, or `spacing` not finite and ≥ 0.
  case invalidTiming(field: String, value: Double)

  public var description: String {
    switch self {
    case .invalidSize(let field, let value):
      "\(field) must be a finite number in (0, \(Int(CheckerboardPlan.maximumSide))] points, got \(value)"
    case .invalidDivisor(let d, let reason): "divisor \(d) \(reason)"
    case .tooManyTiles(let count, let limit): "\(count) tiles exceed the limit of \(limit)"
    case .invalidTiming(let field, let value):
      // A zero spacing (every tile at once) is valid; a zero duration is not.
      "\(field) must be finite and \(field == "spacing" ? "≥ 0" : "positive"), got \(value)"
    }
  }
}
