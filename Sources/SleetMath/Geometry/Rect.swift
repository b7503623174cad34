/// An axis-aligned rectangle in points (`CGRect` without the CoreGraphics
/// dependency): origin at the top-left corner, y down, as UIKit frames are.
///
/// Used for the transition inputs that UIKit expresses as frames (a zoom's
/// image rects, a circle reveal's button) and for a layer's oval mask.
public struct Rect: Hashable, Sendable, Codable {
  /// The left edge, points.
  public var x: Double
  /// The top edge, points (y grows downward).
  public var y: Double
  /// The extent along x, points (a negative width is refused where a rect is
  /// read from input).
  public var width: Double
  /// The extent along y, points.
  public var height: Double

  /// A rectangle from its origin (top-left corner) and size, points.
  /// - Complexity: O(1).
  @inlinable
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The rectangle's centre, `(x + width/2, y + height/2)`.
  @inlinable
  public var center: SIMD2<Double> { SIMD2(x + width / 2, y + height / 2) }

  /// The left edge, `x`.
  @inlinable public var minX: Double { x }
  /// The top edge, `y`.
  @inlinable public var minY: Double { y }
  /// The right edge, `x + width`.
  @inlinable public var maxX: Double { x + width }
  /// The bottom edge, `y + height`.
  @inlinable public var maxY: Double { y + height }

  /// Whether all four numbers are finite.
  @inlinable
  public var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }

  /// `CGRectInset(self, dx, dy)`: each edge moved inward by dx (left, right)
  /// and dy (top, bottom); negative values grow the rectangle about its centre.
  /// - Complexity: O(1).
  @inlinable
  public func insetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
  }

  /// Whether `self` lies inside `other` (edges may touch).
  /// - Complexity: O(1).
  @inlinable
  public func isInside(_ other: Rect) -> Bool {
    minX >= other.minX && minY >= other.minY && maxX <= other.maxX && maxY <= other.maxY
  }

  /// Component-wise interpolation `a + (b − a)·f` of origin and size: how
  /// UIKit animates `frame` (the binding rule in `transitions.md`).
  /// - Complexity: O(1).
  @inlinable
  public func interpolated(to other: Rect, fraction f: Double) -> Rect {
    Rect(
      x: x + (other.x - x) * f, y: y + (other.y - y) * f,
      width: width + (other.width - width) * f, height: height + (other.height - height) * f)
  }
}
