import SleetMath

extension ParticleSystem {
  // MARK: - Rendering

  /// Fills `frame` with the live particles at the current time, in the order
  /// `renderMode` demands, reusing its storage.
  ///
  /// Order: `oldestFirst` birth order (oldest first), `oldestLast` the
  /// reverse, `unordered` and `additive` ascending id, `backToFront` ascending
  /// tracked z then id. Particles of disabled cells are not drawn.
  /// - Complexity: O(n) for the evaluation, split into fixed chunks of
  ///   `chunkSize` over `threads` threads; plus an O(n) radix sort when the
  ///   order needs one (never for `oldestFirst`/`oldestLast`, nor for
  ///   `unordered` when birth order is already id order, e.g. one cell).
  ///   Several top-level cells (no sub-cells) in `unordered` or
  ///   `additive` order keep a store per cell, evaluated in turn in id
  ///   order (ParticleSystem+CellStores.swift; `backToFront` too, then
  ///   sorted by depth alone); in one store (an effect that caps, or
  ///   changes to a birth-order mode) they are written straight in id order
  ///   (a count per cell, then each particle at its cell's next row).
  ///   Neither sorts by id.
  ///   No allocations once the buffers have grown.
  public func render(into frame: inout ParticleFrame) {
    render(
      into: &frame, threads: configuration.threads, computesAffines: configuration.computesAffines,
      computesIDs: configuration.computesIDs)
  }

  /// ``render(into:)`` with the configuration's thread count and affine
  /// switch overridden, so benchmarks can compare them on one live set.
  ///
  /// The frame's plan (``FramePlan``) is chosen once, from the stores and
  /// the frame's options, and executed by one function; every plan writes
  /// the particles in evaluation order, then ``finishFrame(_:count:mode:computesIDs:inDrawOrder:)``
  /// puts them in draw order.
  package func render(
    into frame: inout ParticleFrame, threads: Int, computesAffines: Bool, computesIDs: Bool = false
  ) {
    precondition(threads > 0, "threads must be at least 1")
    let t = localTime ?? 0
    let segment = tree.segment(at: t)
    let layer = tree.layers[segment]
    let anyHidden = beginFrame(&frame, at: t, segment: segment)
    let grid = ChunkGrid(blocks: store.blockCount, chunkSize: configuration.chunkSize)
    let plan = framePlan(layer: layer, threads: threads, anyHidden: anyHidden, chunks: grid.chunks)
    if plan == .cellStores {
      renderFromCellStores(
        into: &frame, at: t, threads: threads, computesAffines: computesAffines, computesIDs: computesIDs,
        layer: layer)
      return
    }
    if chunkCounts.count < grid.chunks + 1 { chunkCounts = Array(repeating: 0, count: grid.chunks + 1) }
    hidden.withUnsafeBufferPointer { hiddenBuffer in
      let pass = FramePass(
        t: t, threads: threads, grid: grid, compact: configuration.instanceLayout == .compact,
        computesAffines: computesAffines, hidden: UncheckedSendable(anyHidden ? hiddenBuffer.baseAddress : nil),
        flattensDepth: !layer.preservesDepth, writesSortKeys: sortsByID(layer.renderMode) || computesIDs,
        behaviors: hasBehaviors ? tree : nil)
      let total: Int
      switch plan {
      case .cellOrder: total = renderInCellOrder(into: &frame, pass)
      case .onePass: total = renderInOnePass(into: &frame, pass)
      case .chunked, .cellStores: total = renderInChunks(into: &frame, pass)
      }
      if plan == .cellOrder {
        assert(Self.isAscending(scratchIDs, count: total), "the cell-order write left ids out of order")
      }
      finishFrame(
        &frame, count: total, mode: layer.renderMode, computesIDs: computesIDs, inDrawOrder: plan == .cellOrder)
      if !anyHidden && localTime != nil { store.compactIfMostlyDead(alive: total, at: t) }
    }
  }

  /// How ``render(into:)`` evaluates a frame: chosen once a frame by
  /// ``framePlan(layer:threads:anyHidden:chunks:)``, executed by one
  /// function each.
  enum FramePlan: Equatable {
    /// A store per cell, evaluated in turn in cell order
    /// (``renderFromCellStores(into:at:threads:computesAffines:computesIDs:layer:)``).
    case cellStores
    /// Several top-level cells drawn by id from one store: each particle
    /// written straight at its cell's next output row, so the frame comes
    /// out in id order (``renderInCellOrder(into:_:)``).
    case cellOrder
    /// One worker and few holes: one pass into buffers sized for every
    /// stored particle, cut to the live count after (``renderInOnePass(into:_:)``).
    case onePass
    /// Pass 1 counts each chunk's live particles, a prefix sum gives each
    /// chunk its output offset, pass 2 evaluates the chunks
    /// (``renderInChunks(into:_:)``).
    case chunked
  }

  /// The plan of a frame of `layer` on `threads` threads over `chunks`
  /// chunks of the single store (``FramePlan``).
  ///
  /// The cell-order write serves several top-level cells drawn by id: a
  /// top-level cell's ids count its births, and the store holds them in
  /// birth order, so writing each cell's particles straight to its range of
  /// the output (counted first) gives id order, with no sort and no gather
  /// after. Not with sub-cells, whose ids are hashes and need the sort
  /// anyway (the store-order write is cheaper then), nor while a cell is
  /// hidden or behaviors act (the lane-by-lane path).
  ///
  /// One pass skips re-reading the birth-time and lifetime lines of every
  /// block, but its sizing writes a filler per hole, so with many holes
  /// (dead particles awaiting compaction) two passes are cheaper; several
  /// workers need pass 1's counts for their output offsets.
  func framePlan(layer: LayerParameters, threads: Int, anyHidden: Bool, chunks: Int) -> FramePlan {
    if usesCellStores { return .cellStores }
    let drawsByCell =
      paths.cellOrderWrite && sortsByID(layer.renderMode) && !anyHidden && !hasBehaviors && localTime != nil
      && (layer.renderMode == .unordered || layer.renderMode == .additive)
      && tree.roots.count == tree.nodes.count
    if drawsByCell { return .cellOrder }
    return (threads <= 1 || chunks <= 1) && store.hasFewHoles ? .onePass : .chunked
  }

  /// Whether a frame drawn in `mode` needs the particles' ids as sort keys:
  /// birth order is the order of `oldestFirst`/`oldestLast`, and id order
  /// too when there is a single cell (ids k ascend with birth time).
  func sortsByID(_ mode: RenderMode) -> Bool {
    switch mode {
    case .oldestFirst, .oldestLast: false
    case .unordered, .additive: tree.nodes.count > 1
    case .backToFront: true
    }
  }

  /// The frame's fields that do not depend on the particles, and the hidden
  /// cells of `segment` in ``hidden``; empties the stores before the first
  /// seek or step. Returns whether any cell is hidden.
  func beginFrame(_ frame: inout ParticleFrame, at t: Double, segment: Int) -> Bool {
    frame.time = t
    frame.sprites = tree.sprites
    frame.spriteContentsScales = tree.spriteContentsScales
    frame.spriteSampling = tree.spriteSampling
    if frame.cellPaths.count != tree.nodes.count { frame.cellPaths = tree.nodes.map(\.path) }
    var anyHidden = false
    for (i, node) in tree.nodes.enumerated() {
      hidden[i] = !node.parameters[segment].isEnabled
      anyHidden = anyHidden || hidden[i]
    }
    if localTime == nil {
      store.removeAll()
      if usesCellStores { for s in cellStores { s.removeAll() } }
    }
    return anyHidden
  }

  /// The frame's last steps once its `n` particles are written in
  /// evaluation order: the ids copied out when asked, the frame put in
  /// `mode`'s order (unless already `inDrawOrder`), one draw batch.
  func finishFrame(_ frame: inout ParticleFrame, count n: Int, mode: RenderMode, computesIDs: Bool, inDrawOrder: Bool) {
    if computesIDs {
      Self.resize(&frame.ids, to: n, filler: 0)
      for i in 0..<n { frame.ids[i] = scratchIDs[i] }
    } else {
      frame.ids.removeAll(keepingCapacity: true)
    }
    if !inDrawOrder { applyOrder(mode, to: &frame, count: n) }
    frame.batches.removeAll(keepingCapacity: true)
    if n > 0 {
      frame.batches.append(DrawBatch(range: 0..<n, blendMode: mode == .additive ? .additive : .sourceOver))
    }
  }
}
