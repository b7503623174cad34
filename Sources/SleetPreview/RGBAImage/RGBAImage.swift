import SleetMath

/// A framebuffer of premultiplied-alpha RGBA pixels in `Float32` working
/// storage, one `SIMD4<Float>` (r, g, b, a) per pixel, rows top to bottom.
///
/// ## Colour model
/// - **Premultiplied alpha.** A stored pixel (r, g, b, a) means colour
///   (r/a, g/a, b/a) at coverage a; a fully transparent pixel is (0, 0, 0, 0).
/// - **Linear blending on stored values.** Every compositing equation of the
///   renderer (`Renderer`, `Rasterizer`) is applied directly to the stored
///   numbers, which are treated as linear light. No transfer function is applied
///   anywhere: PNG files are read and written as-is (8-bit sample `v` ↔ stored
///   `v/255`), so what is blended is the PNG's encoded values. Stored values may
///   leave [0, 1] (additive blending accumulates without clamping); they are
///   clamped only when converted to 8 bits.
///
/// ## Coordinates
/// Pixel (x, y) covers the square [x, x+1) × [y, y+1); its centre is
/// (x + 0.5, y + 0.5). x grows right, y grows down, as in layer space.
///
/// `RGBAImage` is a value type with copy-on-write storage in one 64-byte-aligned
/// allocation, so the rasterizer's hot loops run over raw pointers.
public struct RGBAImage: Sendable {
  @usableFromInline
  internal var _storage: _Storage

  /// The width in pixels.
  public let width: Int
  /// The height in pixels.
  public let height: Int

  /// Creates an image filled with one premultiplied pixel value.
  /// - Precondition: `width ≥ 0`, `height ≥ 0`.
  /// - Complexity: O(width·height); one allocation.
  public init(width: Int, height: Int, fill: SIMD4<Float> = .zero) {
    precondition(width >= 0 && height >= 0, "RGBAImage: size must be ≥ 0, got \(width)×\(height)")
    self.width = width
    self.height = height
    _storage = _Storage(count: width * height)
    _storage.base.initialize(repeating: fill, count: width * height)
  }

  /// Creates an image filled with a colour given with straight alpha.
  /// - Complexity: O(width·height); one allocation.
  public init(width: Int, height: Int, background: ColorRGBA) {
    self.init(width: width, height: height, fill: RGBAImage.premultiplied(background))
  }

  /// The number of pixels, `width·height`.
  @inlinable
  public var pixelCount: Int { _storage.count }

  /// The premultiplied pixel at (x, y) (bounds-checked).
  /// - Complexity: O(1).
  public subscript(x: Int, y: Int) -> SIMD4<Float> {
    get {
      precondition(
        x >= 0 && x < width && y >= 0 && y < height,
        "RGBAImage: pixel (\(x), \(y)) outside \(width)×\(height)")
      return _storage.base[y * width + x]
    }
    set {
      precondition(
        x >= 0 && x < width && y >= 0 && y < height,
        "RGBAImage: pixel (\(x), \(y)) outside \(width)×\(height)")
      _makeUnique()
      _storage.base[y * width + x] = newValue
    }
  }

  /// Sets every pixel to `background` (straight alpha, premultiplied here).
  /// - Complexity: O(width·height); no allocations when the storage is unique.
  public mutating func clear(to background: ColorRGBA) {
    clear(toPremultiplied: RGBAImage.premultiplied(background))
  }

  /// Sets every pixel to an already premultiplied value.
  /// - Complexity: O(width·height); no allocations when the storage is unique.
  public mutating func clear(toPremultiplied value: SIMD4<Float>) {
    withUnsafeMutableBufferPointer { $0.update(repeating: value) }
  }

  /// `(r·a, g·a, b·a, a)` of a straight-alpha colour.
  @inlinable
  public static func premultiplied(_ color: ColorRGBA) -> SIMD4<Float> {
    let v = color.vector
    return SIMD4(v.x * v.w, v.y * v.w, v.z * v.w, v.w)
  }

  /// Calls `body` with the pixels (row-major, `width·height` elements). The
  /// pointer must not escape.
  @inlinable
  public func withUnsafeBufferPointer<R, E: Error>(
    _ body: (UnsafeBufferPointer<SIMD4<Float>>) throws(E) -> R
  ) throws(E) -> R {
    defer { withExtendedLifetime(_storage) {} }
    return try body(UnsafeBufferPointer(start: _storage.base, count: _storage.count))
  }

  /// Calls `body` with the pixels as a mutable buffer, after making the storage
  /// unique. The pointer must not escape.
  @inlinable
  public mutating func withUnsafeMutableBufferPointer<R, E: Error>(
    _ body: (UnsafeMutableBufferPointer<SIMD4<Float>>) throws(E) -> R
  ) throws(E) -> R {
    _makeUnique()
    let storage = _storage
    defer { withExtendedLifetime(storage) {} }
    return try body(UnsafeMutableBufferPointer(start: storage.base, count: storage.count))
  }

  @inlinable
  internal mutating func _makeUnique() {
    if !isKnownUniquelyReferenced(&_storage) {
      _storage = _storage._copy()
    }
  }
}

extension RGBAImage: Equatable {
  /// Same size and every component `==` (so NaN ≠ NaN and −0 == +0).
  public static func == (lhs: RGBAImage, rhs: RGBAImage) -> Bool {
    lhs.width == rhs.width && lhs.height == rhs.height
      && lhs.withUnsafeBufferPointer { a in rhs.withUnsafeBufferPointer { b in a.elementsEqual(b) } }
  }
}

extension RGBAImage {
  /// The one allocation behind an image, 64-byte aligned.
  @usableFromInline
  internal final class _Storage: @unchecked Sendable {
    // Safe to mark Sendable: a `_Storage` is only mutated through
    // `RGBAImage._makeUnique()`, i.e. when uniquely referenced; the renderer's
    // parallel bands write disjoint rows of a storage nobody else references.
    @usableFromInline let base: UnsafeMutablePointer<SIMD4<Float>>
    @usableFromInline let count: Int

    @usableFromInline
    init(count: Int) {
      self.count = count
      let raw = UnsafeMutableRawPointer.allocate(
        byteCount: Swift.max(1, count) * MemoryLayout<SIMD4<Float>>.stride, alignment: 64)
      base = raw.bindMemory(to: SIMD4<Float>.self, capacity: Swift.max(1, count))
    }

    @usableFromInline
    func _copy() -> _Storage {
      let copy = _Storage(count: count)
      copy.base.initialize(from: base, count: count)
      return copy
    }

    deinit {
      // SIMD4<Float> is trivial: no deinitialisation needed before freeing.
      UnsafeMutableRawPointer(base).deallocate()
    }
  }
}
