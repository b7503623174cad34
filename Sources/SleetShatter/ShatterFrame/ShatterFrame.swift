import SleetMath

/// Which snapshot a piece shows.
public enum ShatterFace: UInt32, Hashable, Sendable, Codable {
  /// The from-snapshot (the front of a checkerboard card; every explode and
  /// glass-break piece).
  case from = 0
  /// The to-snapshot (the back of a checkerboard card).
  case to = 1
}

/// What a renderer paints behind the pieces.
public enum ShatterBackdrop: String, Hashable, Sendable, Codable {
  /// Opaque black, the checkerboard sample's transition container. It shows
  /// for the whole of every flip, not only edge-on: a card turned by φ covers
  /// only part of its cell (its corners lie at x = cx ± (s/2)·cos φ before the
  /// perspective, which then shrinks the far edge), so black shows beside it
  /// from the moment it starts moving until it lands, and fills the cell at
  /// the edge-on instant (see `docs/shatter.md`).
  case black
  /// The whole to-snapshot: explode and glass break uncover the destination
  /// view, which the samples place behind the pieces.
  case toSnapshot
}

/// The per-frame scalars of one piece: 16 bytes, so the array is a dense
/// `n × 4` block of 32-bit words a GPU can bind as one instance stream.
@frozen
public struct ShatterPieceState: Hashable, Sendable {
  /// The piece's local progress in [0, 1] (before its timing curve).
  public var progress: Float
  /// Opacity in [0, 1].
  public var opacity: Float
  /// Sort key: the largest container-space z of the piece's corners before the
  /// perspective divide (larger is nearer the eye). Draw in ascending order;
  /// ties keep index order.
  public var depth: Float
  /// ``ShatterFace`` raw value (0 from, 1 to), stored as 32 bits to keep the
  /// record 16 bytes and branch-free to write.
  public var faceRawValue: UInt32

  /// - Complexity: O(1).
  @inlinable
  public init(progress: Float, opacity: Float, depth: Float, face: ShatterFace) {
    self.progress = progress
    self.opacity = opacity
    self.depth = depth
    self.faceRawValue = face.rawValue
  }

  /// The visible face.
  @inlinable
  public var face: ShatterFace { faceRawValue == 0 ? .from : .to }
}

/// The output of every shatter style at one instant: the same layout for the
/// checkerboard, explode and glass break, so one renderer draws all three.
///
/// ## Layout
///
/// Structure of arrays, piece `i` in row-major grid order
/// (`i = row · columns + column`):
///
/// | stream | element | per piece | changes |
/// |---|---|---|---|
/// | ``transforms`` | `Transform3D` (64 B, 64-byte aligned) | 1 | every frame |
/// | ``corners`` | `SIMD2<Float>` (8 B) | 4: TL, TR, BR, BL | every frame |
/// | ``pieces`` | ``ShatterPieceState`` (16 B) | 1 | every frame |
/// | ``textureCorners`` | `SIMD2<Float>` (8 B) | 4: TL, TR, BR, BL | never (set at creation) |
///
/// `transforms[i]` is the piece's complete model-to-screen matrix: it maps the
/// **unit square** `(u, v, 0)`, u right and v down, TL = (0, 0), onto the
/// visible face's content in container space, including the container's
/// perspective (m34 = −1/900 about its centre). `corners[4i ..< 4i+4]` are the
/// unit corners projected through it, `(x/w, y/w)` in container points; NaN
/// when a corner lies behind the eye (skip the piece). `textureCorners` are the
/// same four corners in the snapshot, normalised to [0, 1] by the container
/// size (values past 1 belong to an overhanging edge tile and are transparent).
///
/// A renderer draws each piece as the projective map from its four texture
/// corners to its four screen corners (exact for all three styles), with the
/// face's snapshot, at its opacity, in ascending ``ShatterPieceState/depth``
/// over the ``backdrop``. A GPU can instead draw one unit quad instanced by
/// `transforms` (exact for checkerboard and explode, whose pieces are rectangles).
///
/// The arrays are allocated once by `makeFrame()` and rewritten in place by
/// each evaluation. In steady state a single-threaded evaluation with the
/// `scalar`, `simd` or `automatic` backend (which resolves to `simd`, or
/// `scalar` for a one-piece chunk, never `blas`) allocates nothing; the `blas`
/// backend allocates its packing buffer per call (one per 512-piece chunk,
/// for operation 3).
public struct ShatterFrame: Sendable {
  /// The style of the transition that made the frame.
  public let style: ShatterStyle
  /// The transition time this frame shows, in seconds.
  public internal(set) var time: Double = 0
  /// Whether every piece has reached its final state (the transition is over).
  public internal(set) var isComplete: Bool = false
  /// The grid the pieces come from: piece `i` is at column `i % columns`,
  /// row `i / columns`.
  public let columns: Int
  /// Rows of the grid.
  public let rows: Int
  /// The container size W × H in points: width.
  public let containerWidth: Double
  /// The container height H, points.
  public let containerHeight: Double
  /// What to paint behind the pieces.
  public let backdrop: ShatterBackdrop

  /// Per piece: unit square → container space, perspective included.
  public internal(set) var transforms: Transform3DBatch
  /// Per piece, 4 consecutive entries: projected TL, TR, BR, BL in points.
  public internal(set) var corners: [SIMD2<Float>]
  /// Per piece: progress, opacity, depth, face.
  public internal(set) var pieces: [ShatterPieceState]
  /// Per piece, 4 consecutive entries: TL, TR, BR, BL in the snapshot, in [0, 1].
  public let textureCorners: [SIMD2<Float>]

  /// What the texture corners were cut from besides the grid and the
  /// container (see ``_Shape``).
  internal let _cells: _Cells

  /// Scratch for the batched path: one cache-resident chunk of local
  /// transforms per worker. Not part of the output.
  internal var _scratch: Transform3DBatch

  internal init(_ shape: _Shape, textureCorners: [SIMD2<Float>]) {
    let n = shape.columns * shape.rows
    precondition(textureCorners.count == 4 * n, "ShatterFrame: need 4 texture corners per piece")
    style = shape.style
    columns = shape.columns
    rows = shape.rows
    containerWidth = shape.width
    containerHeight = shape.height
    backdrop = shape.backdrop
    _cells = shape.cells
    transforms = Transform3DBatch(count: n)
    corners = [SIMD2<Float>](repeating: .zero, count: 4 * n)
    pieces = [ShatterPieceState](
      repeating: ShatterPieceState(progress: 0, opacity: 1, depth: 0, face: .from), count: n)
    self.textureCorners = textureCorners
    _scratch = Transform3DBatch(count: 0)
  }

  /// The number of pieces.
  @inlinable
  public var count: Int { pieces.count }

  /// The grid column of piece `index`.
  /// - Complexity: O(1).
  @inlinable
  public func column(of index: Int) -> Int { index % columns }

  /// The grid row of piece `index`.
  /// - Complexity: O(1).
  @inlinable
  public func row(of index: Int) -> Int { index / columns }

  /// An array-of-structures view of one piece, for tests, tools and
  /// inspection (renderers read the streams directly).
  /// - Complexity: O(1).
  public func piece(_ index: Int) -> ShatterPiece {
    precondition(index >= 0 && index < count, "ShatterFrame.piece: index \(index) out of range 0..<\(count)")
    let s = pieces[index]
    return ShatterPiece(
      column: column(of: index), row: row(of: index), face: s.face, progress: s.progress,
      opacity: s.opacity, depth: s.depth, transform: transforms[index],
      corners: (corners[4 * index], corners[4 * index + 1], corners[4 * index + 2], corners[4 * index + 3]),
      textureCorners: (
        textureCorners[4 * index], textureCorners[4 * index + 1], textureCorners[4 * index + 2],
        textureCorners[4 * index + 3]
      ))
  }

  /// Piece indices in painter's order: ascending depth, ties in index order.
  /// - Complexity: O(n log n); reuses `order`'s storage (the standard library
  ///   sort may still take temporary scratch space).
  public func drawOrder(into order: inout [Int32]) {
    order.removeAll(keepingCapacity: true)
    for i in 0..<count { order.append(Int32(i)) }
    pieces.withUnsafeBufferPointer { p in
      order.sort { a, b in
        let da = p[Int(a)].depth
        let db = p[Int(b)].depth
        return da < db || (da == db && a < b)
      }
    }
  }
}

/// One piece of a ``ShatterFrame``, gathered from its streams.
public struct ShatterPiece: Sendable {
  /// The piece's grid column (index `row · columns + column`).
  public var column: Int
  /// The piece's grid row.
  public var row: Int
  /// Which snapshot it shows: the from-view or the to-view.
  public var face: ShatterFace
  /// Its local progress in [0, 1], before its timing curve.
  public var progress: Float
  /// Opacity to draw it with, 0…1.
  public var opacity: Float
  /// Sort key: the largest container-space z of its corners before the
  /// perspective divide; draw in ascending order, ties in index order.
  public var depth: Float
  /// Unit square → container space, perspective included.
  public var transform: Transform3D
  /// Projected TL, TR, BR, BL in container points.
  public var corners: (SIMD2<Float>, SIMD2<Float>, SIMD2<Float>, SIMD2<Float>)
  /// TL, TR, BR, BL in the face's snapshot, normalised to [0, 1].
  public var textureCorners: (SIMD2<Float>, SIMD2<Float>, SIMD2<Float>, SIMD2<Float>)

  /// The four corners as an array (TL, TR, BR, BL).
  public var cornerArray: [SIMD2<Float>] { [corners.0, corners.1, corners.2, corners.3] }
  /// The four texture corners as an array (TL, TR, BR, BL).
  public var textureCornerArray: [SIMD2<Float>] {
    [textureCorners.0, textureCorners.1, textureCorners.2, textureCorners.3]
  }
}

extension ShatterFrame {
  /// Everything a frame keeps across evaluations (all but the per-frame
  /// streams, which every evaluation rewrites): a frame fits a transition
  /// exactly when the two shapes are equal. The grid alone is not enough:
  /// another style with the same grid (the checkerboard and the explode both
  /// cut 320×480 into 10 × 15 squares of 32 pt) has another backdrop, another
  /// container with the same grid has other texture corners, and so do
  /// checkerboard cells of another side (100×100 /3 and /4 are both 4 × 4) or
  /// glass-break shards of another seed.
  internal struct _Shape: Equatable, Sendable {
    var style: ShatterStyle
    var columns: Int
    var rows: Int
    /// The container W × H in points.
    var width: Double
    var height: Double
    var backdrop: ShatterBackdrop
    var cells: _Cells
  }

  /// What the texture corners are made of, given the grid and the container.
  internal enum _Cells: Equatable, Sendable {
    /// Axis-aligned cells of `width × height` points from the top-left corner
    /// (checkerboard tiles of side s, explode squares of side a).
    case grid(width: Double, height: Double)
    /// Glass-break shards: the lattice jittered by this seed's draws.
    case shards(seed: UInt64)
  }

  /// The shape this frame was made with.
  internal var _shape: _Shape {
    _Shape(
      style: style, columns: columns, rows: rows, width: containerWidth, height: containerHeight,
      backdrop: backdrop, cells: _cells)
  }

  /// Traps unless the frame was made for a transition of shape `expected`
  /// (see ``_Shape``): a frame of another grid would be read out of bounds by
  /// the pipeline, and one of another style, container, cell size or seed
  /// would be drawn with the wrong backdrop or texture corners. The message
  /// names every field that differs, the frame's value first.
  /// - Complexity: O(1).
  internal func _precondition(fits expected: _Shape, caller: StaticString) {
    let actual = _shape
    precondition(
      actual == expected,
      "\(caller): the frame does not fit this transition: \(ShatterFrame._differences(actual, expected))")
  }

  /// "field frame-value, not transition-value" for each field that differs,
  /// joined by "; ".
  internal static func _differences(_ actual: _Shape, _ expected: _Shape) -> String {
    var parts: [String] = []
    if actual.style != expected.style {
      parts.append("style \(actual.style), not \(expected.style)")
    }
    if actual.columns != expected.columns || actual.rows != expected.rows {
      parts.append("grid \(actual.columns)×\(actual.rows), not \(expected.columns)×\(expected.rows)")
    }
    if actual.width != expected.width || actual.height != expected.height {
      parts.append(
        "container \(_points(actual.width))×\(_points(actual.height)) pt, "
          + "not \(_points(expected.width))×\(_points(expected.height)) pt")
    }
    if actual.backdrop != expected.backdrop {
      parts.append("backdrop \(actual.backdrop), not \(expected.backdrop)")
    }
    if actual.cells != expected.cells {
      parts.append("\(_describe(actual.cells)), not \(_describe(expected.cells, alone: actual.cells))")
    }
    return parts.joined(separator: "; ")
  }

  /// "cells 32×32 pt" or "shards of seed 7"; `alone` drops the words a
  /// same-kind value already said ("shards of seed 1, not 2").
  private static func _describe(_ cells: _Cells, alone other: _Cells? = nil) -> String {
    switch (cells, other) {
    case (.grid(let w, let h), .grid?): "\(_points(w))×\(_points(h)) pt"
    case (.grid(let w, let h), _): "cells \(_points(w))×\(_points(h)) pt"
    case (.shards(let seed), .shards?): "\(seed)"
    case (.shards(let seed), _): "shards of seed \(seed)"
    }
  }

  /// A length in points: whole numbers without a fraction ("320", not "320.0").
  private static func _points(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 0x1p53 ? String(Int(value)) : "\(value)"
  }
}
