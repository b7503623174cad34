/// A batch of `count` transforms stored contiguously in one 64-byte-aligned
/// allocation: a dense, row-major `count × 16` matrix of `Float`.
///
/// `Transform3DBatch` is a value type with copy-on-write storage. Mutation through
/// ``withUnsafeMutableBufferPointer(_:)`` copies the storage first if it is shared,
/// so the closure may write freely.
///
/// The batch operations (``concatenate(_:with:side:into:backend:)`` and friends,
/// in `Transform3DBatch+Operations.swift`) work on buffer pointers so that they
/// apply to any contiguous range, aligned or not; the methods on the batch type
/// are conveniences over them.
public struct Transform3DBatch: Sendable {
  @usableFromInline
  internal var _storage: _Storage

  /// Creates a batch of `count` copies of `transform`.
  /// - Complexity: O(`count`); one allocation.
  public init(repeating transform: Transform3D = .identity, count: Int) {
    precondition(count >= 0, "Transform3DBatch: count must be ≥ 0, got \(count)")
    _storage = _Storage(capacity: count)
    _storage.base.initialize(repeating: transform, count: count)
    _storage.count = count
  }

  /// Creates a batch holding the given transforms in order.
  /// - Complexity: O(n); one allocation.
  public init<S: Collection>(_ transforms: S) where S.Element == Transform3D {
    _storage = _Storage(capacity: transforms.count)
    var p = _storage.base
    for t in transforms {
      p.initialize(to: t)
      p += 1
    }
    _storage.count = transforms.count
  }

  /// The number of transforms.
  @inlinable
  public var count: Int { _storage.count }

  /// Whether the batch holds no transforms.
  @inlinable
  public var isEmpty: Bool { _storage.count == 0 }

  /// The transform at `index` (bounds-checked).
  public subscript(index: Int) -> Transform3D {
    get {
      precondition(index >= 0 && index < count, "Transform3DBatch: index \(index) out of range 0..<\(count)")
      return _storage.base[index]
    }
    set {
      precondition(index >= 0 && index < count, "Transform3DBatch: index \(index) out of range 0..<\(count)")
      _makeUnique()
      _storage.base[index] = newValue
    }
  }

  /// Calls `body` with the transforms as a buffer. The pointer must not escape.
  @inlinable
  public func withUnsafeBufferPointer<R>(
    _ body: (UnsafeBufferPointer<Transform3D>) throws -> R
  ) rethrows -> R {
    try withExtendedLifetime(_storage) {
      try body(UnsafeBufferPointer(start: _storage.base, count: _storage.count))
    }
  }

  /// Calls `body` with the transforms as a mutable buffer, after making the
  /// storage unique. The pointer must not escape.
  @inlinable
  public mutating func withUnsafeMutableBufferPointer<R>(
    _ body: (UnsafeMutableBufferPointer<Transform3D>) throws -> R
  ) rethrows -> R {
    _makeUnique()
    return try withExtendedLifetime(_storage) {
      try body(UnsafeMutableBufferPointer(start: _storage.base, count: _storage.count))
    }
  }

  @inlinable
  internal mutating func _makeUnique() {
    if !isKnownUniquelyReferenced(&_storage) {
      _storage = _storage._copy()
    }
  }
}

extension Transform3DBatch: Equatable {
  public static func == (lhs: Transform3DBatch, rhs: Transform3DBatch) -> Bool {
    lhs.count == rhs.count
      && lhs.withUnsafeBufferPointer { a in
        rhs.withUnsafeBufferPointer { b in a.elementsEqual(b) }
      }
  }
}

extension Transform3DBatch: RandomAccessCollection {
  public var startIndex: Int { 0 }
  public var endIndex: Int { count }
}

extension Transform3DBatch {
  /// The one allocation behind a batch. Alignment is 64 bytes (a cache line,
  /// and enough for any AVX-512 load), so element `i` sits at byte `64·i`.
  @usableFromInline
  internal final class _Storage: @unchecked Sendable {
    // Safe to mark Sendable: a `_Storage` is only mutated through
    // `Transform3DBatch._makeUnique()`, i.e. when uniquely referenced.
    @usableFromInline let base: UnsafeMutablePointer<Transform3D>
    @usableFromInline var count: Int
    @usableFromInline let capacity: Int

    @usableFromInline static let alignment = 64

    @usableFromInline
    init(capacity: Int) {
      self.capacity = capacity
      self.count = 0
      let raw = UnsafeMutableRawPointer.allocate(
        byteCount: Swift.max(1, capacity) * MemoryLayout<Transform3D>.stride,
        alignment: _Storage.alignment)
      base = raw.bindMemory(to: Transform3D.self, capacity: Swift.max(1, capacity))
    }

    @usableFromInline
    func _copy() -> _Storage {
      let copy = _Storage(capacity: count)
      copy.base.initialize(from: base, count: count)
      copy.count = count
      return copy
    }

    deinit {
      // Transform3D is trivial: no deinitialisation needed before freeing.
      UnsafeMutableRawPointer(base).deallocate()
    }
  }
}
