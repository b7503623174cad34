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
  /// Opaque black, the checkerboard sample's transition container: it shows
  /// through while cards are edge-on.
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
/// each evaluation: in steady state a frame costs no allocation.
public struct ShatterFrame: Sendable {
  /// The transition time this frame shows, in seconds.
  public internal(set) var time: Double = 0
  /// Whether every piece has reached its final state (the transition is over).
  public internal(set) var isComplete: Bool = false
  /// The grid the pieces come from: piece `i` is at column `i % columns`,
  /// row `i / columns`.
  public let columns: Int
  public let rows: Int
  /// The container size W × H in points.
  public let containerWidth: Double
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

  /// Scratch for the batched path: one cache-resident chunk of local
  /// transforms per worker. Not part of the output.
  internal var _scratch: Transform3DBatch

  internal init(
    columns: Int, rows: Int, width: Double, height: Double, backdrop: ShatterBackdrop,
    textureCorners: [SIMD2<Float>]
  ) {
    let n = columns * rows
    precondition(textureCorners.count == 4 * n, "ShatterFrame: need 4 texture corners per piece")
    self.columns = columns
    self.rows = rows
    containerWidth = width
    containerHeight = height
    self.backdrop = backdrop
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
  public var column: Int
  public var row: Int
  public var face: ShatterFace
  public var progress: Float
  public var opacity: Float
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
  /// Traps unless the frame was made for a `columns × rows` grid: a frame from
  /// another transition would be read out of bounds by the pipeline.
  internal func _precondition(columns: Int, rows: Int, caller: StaticString) {
    precondition(
      self.columns == columns && self.rows == rows,
      "\(caller): the frame was made for \(self.columns)×\(self.rows) pieces, not \(columns)×\(rows)")
  }
}
