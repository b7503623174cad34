import Dispatch

/// The drawing kernels: pure functions from primitives to pixels of an
/// ``RGBAImage``, in pixel coordinates (see ``RGBAImage`` for the pixel grid).
///
/// Implementation goals, in order:
/// 1. Determinism: bit-identical output for any ``RasterOptions`` (band height,
///    thread count), because each pixel sees the same operations in the same order.
/// 2. Exactness where it is checkable: an axis-aligned, unscaled primitive
///    reproduces its source texels at pixel centres.
/// 3. Speed: per-primitive setup is done once; inner loops run over raw pointers
///    with no allocation, ARC traffic or bounds checks.
///
/// Coverage is point-sampled at pixel centres (no edge antialiasing): a pixel is
/// drawn by a primitive when its centre lies inside it. Soft edges come from the
/// sprites' own alpha.
public enum Rasterizer {}

extension Rasterizer {
  /// Runs `body` once per band of rows of an image `height` rows tall. Each
  /// call gets a disjoint row range; together they cover `0..<height`.
  /// - Complexity: O(height / bandHeight) calls of `body`.
  internal static func _forEachBand(
    height: Int, options: RasterOptions, _ body: @Sendable (Range<Int>) -> Void
  ) {
    guard height > 0 else { return }
    let band = Swift.min(options.bandHeight, height)
    let bands = (height + band - 1) / band
    let progress = options.progress
    if options.isParallel && bands > 1 {
      DispatchQueue.concurrentPerform(iterations: bands) { index in
        let start = index * band
        body(start..<Swift.min(height, start + band))
        progress?.add(Swift.min(height, start + band) - start)
      }
    } else {
      for index in 0..<bands {
        let start = index * band
        body(start..<Swift.min(height, start + band))
        progress?.add(Swift.min(height, start + band) - start)
      }
    }
  }

  /// Bilinear sample of a premultiplied texture at texel-space point (x, y)
  /// (texel (i, j) is centred on (i + 0.5, j + 0.5)), clamp-to-edge addressing.
  ///
  /// ```
  /// x' = x − 0.5, i = ⌊x'⌋, fx = x' − i   (same for y)
  /// s = (1−fy)·((1−fx)·T[i,j] + fx·T[i+1,j]) + fy·((1−fx)·T[i,j+1] + fx·T[i+1,j+1])
  /// ```
  ///
  /// Postcondition: at a texel centre (fx = fy = 0) the result is that texel
  /// exactly. Invariant: `width ≥ 1`, `height ≥ 1`, `x` and `y` finite; `base`
  /// points at `width·height` initialised pixels.
  @inline(__always)
  internal static func _sampleBilinear(
    _ base: UnsafePointer<SIMD4<Float>>, width: Int, height: Int, x: Float, y: Float
  ) -> SIMD4<Float> {
    // Clamp before converting so that far-away points cannot overflow Int.
    let xs = Swift.min(Swift.max(x - 0.5, -1), Float(width))
    let ys = Swift.min(Swift.max(y - 0.5, -1), Float(height))
    // ⌊·⌋ without a libm call (the portable build has no SSE4.1 `roundss`):
    // truncate, then step down when truncation went up (negative non-integers).
    var i0 = Int(xs)
    if Float(i0) > xs { i0 &-= 1 }
    var j0 = Int(ys)
    if Float(j0) > ys { j0 &-= 1 }
    let fx = xs - Float(i0)
    let fy = ys - Float(j0)
    // Safe: i0, j0 ∈ [−1, max(width, height)] after the clamps above.
    var i1 = i0 &+ 1
    var j1 = j0 &+ 1
    if i0 < 0 { i0 = 0 }
    if i1 < 0 { i1 = 0 }
    if i0 >= width { i0 = width &- 1 }
    if i1 >= width { i1 = width &- 1 }
    if j0 < 0 { j0 = 0 }
    if j1 < 0 { j1 = 0 }
    if j0 >= height { j0 = height &- 1 }
    if j1 >= height { j1 = height &- 1 }
    // Safe: 0 ≤ j < height, so j·width < pixel count.
    let row0 = base + j0 &* width
    let row1 = base + j1 &* width
    let wx1 = SIMD4<Float>(repeating: fx)
    let wx0 = SIMD4<Float>(repeating: 1 - fx)
    let top = row0[i0] * wx0 + row0[i1] * wx1
    let bottom = row1[i0] * wx0 + row1[i1] * wx1
    return top * SIMD4(repeating: 1 - fy) + bottom * SIMD4(repeating: fy)
  }
}

extension Rasterizer {
  /// Nearest-texel (point) sample of a texture at texel-space point (x, y),
  /// clamp-to-edge addressing: texel (⌊x⌋, ⌊y⌋), each index clamped to the
  /// texture. A point on a texel edge takes the texel to its right (below).
  ///
  /// Postcondition: the result is one texel, unchanged. Invariant: `width ≥ 1`,
  /// `height ≥ 1`, `x` and `y` finite; `base` points at `width·height`
  /// initialised pixels.
  @inline(__always)
  internal static func _sampleNearest(
    _ base: UnsafePointer<SIMD4<Float>>, width: Int, height: Int, x: Float, y: Float
  ) -> SIMD4<Float> {
    // Clamp before converting so that far-away points cannot overflow Int;
    // after the clamp x, y ≥ 0, so truncation is ⌊·⌋.
    var i = Int(Swift.min(Swift.max(x, 0), Float(width)))
    var j = Int(Swift.min(Swift.max(y, 0), Float(height)))
    if i >= width { i = width &- 1 }
    if j >= height { j = height &- 1 }
    // Safe: 0 ≤ j < height and 0 ≤ i < width.
    return base[j &* width &+ i]
  }
}

/// A pointer (or buffer) that parallel bands share. Safe to mark Sendable
/// where used: bands only read the shared inputs, each band writes only its own
/// rows of the target, and everything outlives the parallel loop.
internal struct _SharedPointer<Pointer>: @unchecked Sendable {
  let value: Pointer
  init(_ value: Pointer) { self.value = value }
}
