extension Transform3DBatch {
  /// The naive reference backend: loops over `Transform3D` values using the
  /// value type's own methods, as most hand-written code would. It is the
  /// baseline every other backend is benchmarked against and compared with.
  internal enum _Scalar {
    static func concatenate(
      _ batch: UnsafeBufferPointer<Transform3D>, with shared: Transform3D,
      side: ConcatenationSide, into out: UnsafeMutableBufferPointer<Transform3D>
    ) {
      for i in 0..<batch.count {
        switch side {
        case .right: out[i] = batch[i].concatenating(shared)
        case .left: out[i] = shared.concatenating(batch[i])
        }
      }
    }

    static func concatenate(
      _ a: UnsafeBufferPointer<Transform3D>, _ b: UnsafeBufferPointer<Transform3D>,
      into out: UnsafeMutableBufferPointer<Transform3D>
    ) {
      for i in 0..<a.count {
        out[i] = a[i].concatenating(b[i])
      }
    }

    static func project(
      _ points: UnsafeBufferPointer<SIMD3<Float>>,
      through transforms: UnsafeBufferPointer<Transform3D>,
      into out: UnsafeMutableBufferPointer<SIMD2<Float>>
    ) {
      let p = points.count
      for i in 0..<transforms.count {
        for j in 0..<p {
          let h = transforms[i].applying(to: points[j])
          out[i * p + j] = h.w > 0 ? SIMD2(h.x / h.w, h.y / h.w) : SIMD2(.nan, .nan)
        }
      }
    }

    static func project(
      _ points: UnsafeBufferPointer<SIMD3<Float>>, through transform: Transform3D,
      into out: UnsafeMutableBufferPointer<SIMD3<Float>>
    ) {
      for i in 0..<points.count {
        let h = transform.applying(to: points[i])
        out[i] = h.w > 0 ? SIMD3(h.x / h.w, h.y / h.w, h.z / h.w) : SIMD3(repeating: .nan)
      }
    }
  }
}
