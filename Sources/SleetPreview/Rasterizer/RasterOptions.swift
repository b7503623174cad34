import Synchronization

/// How the rasterizer splits a frame into work.
///
/// The image is cut into horizontal bands of `bandHeight` rows; each band draws
/// every primitive clipped to its rows, in primitive order. A pixel's value
/// depends only on the primitives that cover it and their order — never on the
/// band it falls in or the thread that draws it — so results are bit-identical
/// for any `bandHeight` and with or without parallelism.
public struct RasterOptions: Hashable, Sendable {
  /// Rows per band (≥ 1). Default 16: small enough to balance two to sixteen
  /// cores on preview-sized images, large enough that per-band setup (one bounding
  /// box test per primitive) stays negligible.
  public var bandHeight: Int
  /// Whether bands run on `DispatchQueue.concurrentPerform`. Default true.
  public var isParallel: Bool
  /// Counts the rows drawn, band by band, for a progress display (nil, the
  /// default: none). Pixels are the same with or without it.
  public var progress: RasterProgress?

  /// - Precondition: `bandHeight ≥ 1`.
  public init(bandHeight: Int = 16, isParallel: Bool = true) {
    precondition(bandHeight >= 1, "RasterOptions: bandHeight must be ≥ 1, got \(bandHeight)")
    self.bandHeight = bandHeight
    self.isParallel = isParallel
  }

  /// One band the height of the image, on the calling thread: the reference
  /// that parallel runs are compared with.
  public static let serial = RasterOptions(bandHeight: Int.max, isParallel: false)
}

/// A counter of rasterized rows that any thread may add to: each drawing call
/// adds the height of every band once it is drawn, so a call over an image H
/// rows tall adds H in all.
public final class RasterProgress: Hashable, Sendable {
  private let count = Mutex(0)

  /// A counter at 0.
  public init() {}

  /// Rows drawn so far, over every drawing call that used this counter.
  public var rows: Int { count.withLock { $0 } }

  /// Adds `rows` drawn rows.
  public func add(_ rows: Int) { count.withLock { $0 += rows } }

  public static func == (a: RasterProgress, b: RasterProgress) -> Bool { a === b }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
