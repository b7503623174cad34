import SleetMath

extension ParticleSystem {
  /// Reorders the frame (evaluated in birth order) as `mode` demands.
  func applyOrder(_ mode: RenderMode, to frame: inout ParticleFrame, count n: Int) {
    let order: [Int32]
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
      if tree.nodes.count <= 1 || Self.isAscending(scratchIDs, count: n) { return }
      if paths.incrementalIDOrder {
        // From the previous frame's order: the survivors keep theirs, the
        // births are sorted and merged in (the same order as the sort below).
        scratchIDs.withUnsafeBufferPointer { ids in idOrder.sort(UnsafeBufferPointer(rebasing: ids[0..<n])) }
        order = idOrder.order
      } else {
        permutation.reset(count: n)
        scratchIDs.withUnsafeBufferPointer { ids in permutation.sort(bytes: 8) { ids[$0] } }
        order = permutation.order
      }
    case .backToFront:
      // By id (incrementally, as above, when not already in order), then
      // stably by depth.
      if paths.incrementalIDOrder && !Self.isAscending(scratchIDs, count: n) {
        scratchIDs.withUnsafeBufferPointer { ids in idOrder.sort(UnsafeBufferPointer(rebasing: ids[0..<n])) }
        permutation.reset(to: idOrder.order)
      } else {
        permutation.reset(count: n)
        scratchIDs.withUnsafeBufferPointer { ids in permutation.sort(bytes: 8) { ids[$0] } }
      }
      scratchDepths.withUnsafeBufferPointer { depths in
        permutation.sort(bytes: 4) { RadixPermutation.orderedBits(depths[$0]) }
      }
      order = permutation.order
    }
    if !frame.instances.isEmpty {
      Self.resize(&scratchInstances, to: n, filler: Self.blankInstance)
      Self.gather(frame.instances, by: order, count: n, into: &scratchInstances)
      swap(&scratchInstances, &frame.instances)
    }
    if !frame.compactInstances.isEmpty {
      Self.resize(&scratchCompactInstances, to: n, filler: Self.blankCompactInstance)
      Self.gather(frame.compactInstances, by: order, count: n, into: &scratchCompactInstances)
      swap(&scratchCompactInstances, &frame.compactInstances)
    }
    if !frame.affines.isEmpty {
      Self.resize(&scratchAffines, to: n, filler: .identity)
      Self.gather(frame.affines, by: order, count: n, into: &scratchAffines)
      swap(&scratchAffines, &frame.affines)
    }
    if !frame.ids.isEmpty {
      // scratchIDs holds the evaluation order's ids and is free again.
      Self.gather(frame.ids, by: order, count: n, into: &scratchIDs)
      swap(&scratchIDs, &frame.ids)
    }
  }

  /// Whether `ids[0..<n]` ascend strictly (ids are unique).
  static func isAscending(_ ids: [UInt64], count n: Int) -> Bool {
    precondition(ids.count >= n, "count past the array")
    return ids.withUnsafeBufferPointer { ids in
      var i = 1
      while i < n {
        if ids[i - 1] >= ids[i] { return false }
        i += 1
      }
      return true
    }
  }

  /// `destination[j] = source[order[j]]` for j < n, through buffer pointers:
  /// written as subscripts of the system's stored arrays, each element could
  /// pay an exclusivity and a uniqueness check.
  /// - Precondition: `order` is a permutation of `0..<n` and both arrays
  ///   hold at least `n` elements.
  static func gather<T>(_ source: [T], by order: [Int32], count n: Int, into destination: inout [T]) {
    precondition(source.count >= n && order.count >= n && destination.count >= n, "gather past the arrays")
    source.withUnsafeBufferPointer { source in
      order.withUnsafeBufferPointer { order in
        destination.withUnsafeMutableBufferPointer { destination in
          for j in 0..<n { destination[j] = source[Int(order[j])] }
        }
      }
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
