/// Which implementation a batch operation runs on.
///
/// Every backend computes the same mathematical result. SleetMath has three:
/// ``scalar`` and ``simd`` are **bit-identical** (same operations in the same
/// order, no FMA, true division), and ``automatic`` chooses between those two
/// only, so it never changes a result either. Other modules add backends by
/// supplying ``Transform3DBatchKernels``: `SleetBLAS` adds `blas` (OpenBLAS),
/// which rounds differently (OpenBLAS uses FMA and its own summation order):
/// each entry is within `1e-5 · Σ|terms|` of the scalar result, and projected
/// coordinates within the propagated bound (see `Transform3DBatchBackendTests`).
/// Measured speeds are in `docs/benchmarks.md`; why `automatic` switches
/// where it does, in `docs/performance-design.md`.
///
/// A struct rather than an enum so that a backend can live in another module
/// (a program that never uses `blas` does not link OpenBLAS), which means no
/// exhaustive `switch`: compare with `==` (backends are equal when their
/// ``name``s are).
public struct TransformBackend: Sendable, Hashable, CustomStringConvertible {
  /// The backend's name: `scalar`, `simd`, `automatic`, or the name its module
  /// gave it (`blas`). It identifies the backend (``==(_:_:)`` compares names)
  /// and is what `sleet shatter --backend` takes.
  public let name: String

  internal let _kind: _Kind

  internal enum _Kind: Sendable {
    case scalar, simd, automatic
    case kernels(any Transform3DBatchKernels)
  }

  private init(name: String, kind: _Kind) {
    self.name = name
    self._kind = kind
  }

  /// A backend that runs the given kernels, for modules that supply one (as
  /// `SleetBLAS` does for `blas`). ``Transform3DBatch`` checks the counts and
  /// overlaps of every call before it reaches the kernels.
  ///
  /// - Precondition: `name` is not one of the built-in names (`scalar`,
  ///   `simd`, `automatic`): names identify backends.
  public init(name: String, kernels: some Transform3DBatchKernels) {
    precondition(
      !TransformBackend.builtIn.contains { $0.name == name },
      "TransformBackend: \"\(name)\" is a built-in backend's name")
    self.init(name: name, kind: .kernels(kernels))
  }

  /// The naive reference: plain loops over `Transform3D` values, written the way
  /// most code would. Bit-exact with `Transform3D.concatenating(_:)`.
  public static let scalar = TransformBackend(name: "scalar", kind: .scalar)
  /// Hand-written SIMD kernels over raw buffers (no ARC, no bounds checks, no
  /// allocation), bit-identical to ``scalar``.
  public static let simd = TransformBackend(name: "simd", kind: .simd)
  /// Chooses ``scalar`` or ``simd`` by operation and size, from measured
  /// crossovers; bit-identical to both. It never chooses a backend from
  /// another module (OpenBLAS's `blas` never won a measured size).
  public static let automatic = TransformBackend(name: "automatic", kind: .automatic)

  /// The backends SleetMath itself provides: ``scalar``, ``simd`` and
  /// ``automatic``. (`import SleetKit` also offers `TransformBackend.allCases`,
  /// which adds `blas`.)
  public static let builtIn: [TransformBackend] = [.scalar, .simd, .automatic]

  /// The ``name``.
  public var description: String { name }

  /// Whether the two backends have the same ``name``.
  public static func == (lhs: TransformBackend, rhs: TransformBackend) -> Bool { lhs.name == rhs.name }

  /// Hashes the ``name``.
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// Which side the shared transform goes on in
/// ``Transform3DBatch/concatenate(_:with:side:into:backend:)``.
public enum ConcatenationSide: String, Sendable, CaseIterable, Codable {
  /// `out[i] = shared · batch[i]` (apply the shared transform first).
  case left
  /// `out[i] = batch[i] · shared` (apply the shared transform last).
  case right
}

// MARK: - The four batch operations

extension Transform3DBatch {
  /// Operation 1: concatenates every transform with a shared one.
  ///
  /// ```
  /// side == .right:  out[i] = batch[i] · shared
  /// side == .left:   out[i] = shared · batch[i]
  /// ```
  ///
  /// - Precondition: `out.count == batch.count`; `out` does not overlap `batch`.
  /// - Complexity: O(n); no allocations with the SleetMath backends (`blas`
  ///   allocates a packing buffer for `side == .left`).
  public static func concatenate(
    _ batch: UnsafeBufferPointer<Transform3D>, with shared: Transform3D,
    side: ConcatenationSide, into out: UnsafeMutableBufferPointer<Transform3D>,
    backend: TransformBackend = .automatic
  ) {
    precondition(
      out.count == batch.count,
      "Transform3DBatch.concatenate: out.count \(out.count) != batch.count \(batch.count)")
    _precondition(noOverlap: UnsafeRawBufferPointer(batch), UnsafeRawBufferPointer(out))
    switch _resolve(backend, .concatenateShared, count: batch.count)._kind {
    case .scalar: _Scalar.concatenate(batch, with: shared, side: side, into: out)
    case .simd: _SIMD.concatenate(batch, with: shared, side: side, into: out)
    case .kernels(let kernels): kernels.concatenate(batch, with: shared, side: side, into: out)
    case .automatic: preconditionFailure("unreachable: _resolve never returns .automatic")
    }
  }

  /// Operation 2: element-wise concatenation of two batches,
  /// `out[i] = a[i] · b[i]`.
  ///
  /// - Precondition: the three counts are equal; `out` overlaps neither input.
  /// - Complexity: O(n); no allocations with the SleetMath backends (`blas`
  ///   allocates a band buffer).
  public static func concatenate(
    _ a: UnsafeBufferPointer<Transform3D>, _ b: UnsafeBufferPointer<Transform3D>,
    into out: UnsafeMutableBufferPointer<Transform3D>,
    backend: TransformBackend = .automatic
  ) {
    precondition(
      a.count == b.count && out.count == a.count,
      "Transform3DBatch.concatenate: counts differ (a \(a.count), b \(b.count), out \(out.count))")
    _precondition(noOverlap: UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(out))
    _precondition(noOverlap: UnsafeRawBufferPointer(b), UnsafeRawBufferPointer(out))
    switch _resolve(backend, .concatenatePairs, count: a.count)._kind {
    case .scalar: _Scalar.concatenate(a, b, into: out)
    case .simd: _SIMD.concatenate(a, b, into: out)
    case .kernels(let kernels): kernels.concatenate(a, b, into: out)
    case .automatic: preconditionFailure("unreachable: _resolve never returns .automatic")
    }
  }

  /// Operation 3: projects a shared set of points through every transform, with
  /// the homogeneous divide.
  ///
  /// ```
  /// [x y z w] = [p_j 1] · transforms[i]
  /// out[i·P + j] = (x/w, y/w)   if w > 0
  ///              = (NaN, NaN)   otherwise (behind the eye: a renderer skips it)
  /// ```
  /// with P = `points.count`. Typical use: the 4 corners of a tile through each
  /// tile's transform.
  ///
  /// Precision: `scalar`, `simd` and `automatic` divide exactly (`x/w`
  /// correctly rounded); `blas` is within the tolerance stated on
  /// ``TransformBackend``.
  ///
  /// - Precondition: `out.count == transforms.count · points.count`; `out`
  ///   overlaps neither input.
  /// - Complexity: O(n·P); no allocations except the `blas` backend's packing
  ///   buffer (and `simd`'s stack-eligible copy of the points when P ≠ 4).
  public static func project(
    _ points: UnsafeBufferPointer<SIMD3<Float>>,
    through transforms: UnsafeBufferPointer<Transform3D>,
    into out: UnsafeMutableBufferPointer<SIMD2<Float>>,
    backend: TransformBackend = .automatic
  ) {
    precondition(
      out.count == transforms.count * points.count,
      "Transform3DBatch.project: out.count \(out.count) != transforms.count \(transforms.count) × points.count \(points.count)"
    )
    _precondition(noOverlap: UnsafeRawBufferPointer(points), UnsafeRawBufferPointer(out))
    _precondition(noOverlap: UnsafeRawBufferPointer(transforms), UnsafeRawBufferPointer(out))
    switch _resolve(backend, .projectShared, count: transforms.count)._kind {
    case .scalar: _Scalar.project(points, through: transforms, into: out)
    case .simd: _SIMD.project(points, through: transforms, into: out)
    case .kernels(let kernels): kernels.project(points, through: transforms, into: out)
    case .automatic: preconditionFailure("unreachable: _resolve never returns .automatic")
    }
  }

  /// Operation 4: applies one transform to many points, with the homogeneous
  /// divide.
  ///
  /// ```
  /// [x y z w] = [p_i 1] · transform
  /// out[i] = (x/w, y/w, z/w)  if w > 0,  (NaN, NaN, NaN) otherwise
  /// ```
  ///
  /// - Precondition: `out.count == points.count`; `out` does not overlap `points`.
  /// - Complexity: O(n), no allocations.  The `blas` backend writes `out` three
  ///   times (pre-fill with the translation row, GEMM with beta = 1, divide).
  public static func project(
    _ points: UnsafeBufferPointer<SIMD3<Float>>, through transform: Transform3D,
    into out: UnsafeMutableBufferPointer<SIMD3<Float>>,
    backend: TransformBackend = .automatic
  ) {
    precondition(
      out.count == points.count,
      "Transform3DBatch.project: out.count \(out.count) != points.count \(points.count)")
    _precondition(noOverlap: UnsafeRawBufferPointer(points), UnsafeRawBufferPointer(out))
    switch _resolve(backend, .projectMany, count: points.count)._kind {
    case .scalar: _Scalar.project(points, through: transform, into: out)
    case .simd: _SIMD.project(points, through: transform, into: out)
    case .kernels(let kernels): kernels.project(points, through: transform, into: out)
    case .automatic: preconditionFailure("unreachable: _resolve never returns .automatic")
    }
  }
}

// MARK: - Conveniences on the batch type

extension Transform3DBatch {
  /// Operation 1 on a whole batch; see ``concatenate(_:with:side:into:backend:)``.
  public func concatenating(
    _ shared: Transform3D, side: ConcatenationSide, backend: TransformBackend = .automatic
  ) -> Transform3DBatch {
    var out = Transform3DBatch(count: count)
    withUnsafeBufferPointer { src in
      out.withUnsafeMutableBufferPointer { dst in
        Transform3DBatch.concatenate(src, with: shared, side: side, into: dst, backend: backend)
      }
    }
    return out
  }

  /// Operation 2 on whole batches: `out[i] = self[i] · other[i]`.
  public func concatenating(
    _ other: Transform3DBatch, backend: TransformBackend = .automatic
  ) -> Transform3DBatch {
    var out = Transform3DBatch(count: count)
    withUnsafeBufferPointer { a in
      other.withUnsafeBufferPointer { b in
        out.withUnsafeMutableBufferPointer { dst in
          Transform3DBatch.concatenate(a, b, into: dst, backend: backend)
        }
      }
    }
    return out
  }

  /// Operation 3 on a whole batch: `count · points.count` projected points,
  /// transform-major.
  public func projecting(
    _ points: [SIMD3<Float>], backend: TransformBackend = .automatic
  ) -> [SIMD2<Float>] {
    let n = count * points.count
    return [SIMD2<Float>](unsafeUninitializedCapacity: n) { dst, initialized in
      points.withUnsafeBufferPointer { p in
        withUnsafeBufferPointer { t in
          Transform3DBatch.project(p, through: t, into: dst, backend: backend)
        }
      }
      initialized = n
    }
  }
}

// MARK: - Backend resolution

extension Transform3DBatch {
  /// The operations `automatic` distinguishes (each has its own crossover).
  internal enum _Operation: Sendable {
    case concatenateShared, concatenatePairs, projectShared, projectMany
  }

  /// Maps `.automatic` to a concrete backend for an operation and size.
  /// The policy: `_crossover(_:)`; the reasons: `docs/performance-design.md`.
  internal static func _resolve(
    _ backend: TransformBackend, _ operation: _Operation, count: Int
  ) -> TransformBackend {
    guard backend == .automatic else { return backend }
    return _automaticPolicy(operation, count: count)
  }

  internal static func _precondition(
    noOverlap a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer
  ) {
    guard let pa = a.baseAddress, let pb = b.baseAddress, a.count > 0, b.count > 0 else { return }
    precondition(
      pa + a.count <= pb || pb + b.count <= pa,
      "Transform3DBatch: the output buffer overlaps an input buffer")
  }
}
