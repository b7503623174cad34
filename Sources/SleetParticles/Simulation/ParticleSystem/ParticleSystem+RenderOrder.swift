import SleetMath

extension ParticleSystem {
  /// Reorders the frame (evaluated in birth order) as `mode` demands.
  func applyOrder(_ mode: RenderMode, to frame: inout ParticleFrame, count n: Int) {
    switch mode {
    case .oldestFirst:
      return
    case .oldestLast:
      frame.instances.reverse()
      frame.compactInstances.reverse()
      frame.affines.reverse()
      frame.ids.reverse()
      return
    case .unordered, .additive:
      if tree.nodes.count <= 1 { return }
      var sorted = true
      var i = 1
      while i < n && sorted {
        sorted = scratchIDs[i - 1] < scratchIDs[i]
        i += 1
      }
      if sorted { return }
      permutation.reset(count: n)
      scratchIDs.withUnsafeBufferPointer { ids in permutation.sort(bytes: 8) { ids[$0] } }
    case .backToFront:
      permutation.reset(count: n)
      scratchIDs.withUnsafeBufferPointer { ids in permutation.sort(bytes: 8) { ids[$0] } }
      scratchDepths.withUnsafeBufferPointer { depths in
        permutation.sort(bytes: 4) { RadixPermutation.orderedBits(depths[$0]) }
      }
    }
    let order = permutation.order
    if !frame.instances.isEmpty {
      Self.resize(&scratchInstances, to: n, filler: Self.blankInstance)
      for j in 0..<n { scratchInstances[j] = frame.instances[Int(order[j])] }
      swap(&scratchInstances, &frame.instances)
    }
    if !frame.compactInstances.isEmpty {
      Self.resize(&scratchCompactInstances, to: n, filler: Self.blankCompactInstance)
      for j in 0..<n { scratchCompactInstances[j] = frame.compactInstances[Int(order[j])] }
      swap(&scratchCompactInstances, &frame.compactInstances)
    }
    if !frame.affines.isEmpty {
      Self.resize(&scratchAffines, to: n, filler: .identity)
      for j in 0..<n { scratchAffines[j] = frame.affines[Int(order[j])] }
      swap(&scratchAffines, &frame.affines)
    }
    if !frame.ids.isEmpty {
      // scratchIDs holds the evaluation order's ids and is free again.
      for j in 0..<n { scratchIDs[j] = frame.ids[Int(order[j])] }
      swap(&scratchIDs, &frame.ids)
    }
  }

  /// Sets `array.count` to `n`, keeping its capacity (allocates only to grow).
  /// Growth is geometric (⅛ headroom past `n`): an effect whose live set
  /// creeps up by a few births per frame would otherwise reallocate and copy
  /// the whole buffer every frame.
  static func resize<T>(_ array: inout [T], to n: Int, filler: T) {
    if array.count > n {
      array.removeLast(array.count - n)
    } else if array.count < n {
      if n > array.capacity { array.reserveCapacity(n + n / 8) }
      array.append(contentsOf: repeatElement(filler, count: n - array.count))
    }
  }

  static let blankCompactInstance = CompactParticleInstance(blankInstance)

  static let blankInstance = ParticleInstance(
    x: 0, y: 0, z: 0, scale: 0, color: .zero, contentsRect: .zero, rotation: 0, normalizedAge: 0,
    sprite: 0, cell: 0)
}
