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
  package func render(
    into frame: inout ParticleFrame, threads: Int, computesAffines: Bool, computesIDs: Bool = false
  ) {
    precondition(threads > 0, "threads must be at least 1")
    let t = localTime ?? 0
    let segment = tree.segment(at: t)
    let layer = tree.layers[segment]
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
    if localTime == nil { store.removeAll() }
    if usesCellStores {
      if localTime == nil { for s in cellStores { s.removeAll() } }
      renderFromCellStores(
        into: &frame, at: t, threads: threads, computesAffines: computesAffines, computesIDs: computesIDs,
        layer: layer)
      return
    }

    let blocks = store.blockCount
    let blocksPerChunk = Swift.max(1, (configuration.chunkSize + 7) / 8)
    let chunks = (blocks + blocksPerChunk - 1) / blocksPerChunk
    if chunkCounts.count < chunks + 1 { chunkCounts = Array(repeating: 0, count: chunks + 1) }
    let store = self.store
    // Birth order is the order of oldestFirst/oldestLast, and id order too
    // when there is a single cell (ids k ascend with birth time).
    let needsSortKeys: Bool
    switch layer.renderMode {
    case .oldestFirst, .oldestLast: needsSortKeys = false
    case .unordered, .additive: needsSortKeys = tree.nodes.count > 1
    case .backToFront: needsSortKeys = true
    }
    let writesIDs = needsSortKeys || computesIDs
    // Several top-level cells drawn by id: write each cell's particles
    // straight to its range of the output (counted first). A top-level
    // cell's ids count its births, and the store holds them in birth order,
    // so the frame comes out in id order, with no sort and no gather after.
    // Not with sub-cells, whose ids are hashes and need the sort anyway (the
    // store-order write is cheaper then), nor while a cell is hidden (the
    // lane-by-lane path).
    let drawsByCell =
      paths.cellOrderWrite && needsSortKeys && !anyHidden && localTime != nil
      && (layer.renderMode == .unordered || layer.renderMode == .additive)
      && tree.roots.count == tree.nodes.count
    // Chunks of the cell-order write: one for a single thread, so that
    // each cell's range is written in one piece.
    let cellParts = threads <= 1 ? 1 : Swift.max(1, chunks)
    @Sendable func cellPartBlocks(_ c: Int) -> Range<Int> {
      cellParts == 1 ? 0..<blocks : c * blocksPerChunk..<Swift.min(blocks, (c + 1) * blocksPerChunk)
    }
    hidden.withUnsafeBufferPointer { hiddenBuffer in
      let hiddenPointer = anyHidden ? hiddenBuffer.baseAddress : nil
      let hiddenBox = UncheckedSendable(hiddenPointer)
      // One worker and few holes: a single pass into buffers sized for
      // every stored particle (an upper bound), cut to the live count
      // afterwards; this skips re-reading the birth-time and lifetime lines
      // of every block. The sizing writes a filler per hole, so with many
      // holes (dead particles awaiting compaction; store.count − the last
      // live count bounds them) two passes are cheaper. Several workers:
      // pass 1 counts each chunk's live particles so that a prefix sum gives
      // each chunk its output offset.
      let singlePass =
        !drawsByCell && (threads <= 1 || chunks <= 1) && store.hasFewHoles
      var total = 0
      if drawsByCell {
        // Pass 1 counts each part's live particles per cell; a prefix sum
        // in (cell, part) order turns the counts into each part's first
        // output index per cell.
        let cells = tree.nodes.count
        Self.resize(&cellCursors, to: cellParts * cells, filler: 0)
        cellCursors.withUnsafeMutableBufferPointer { cursors in
          cursors.update(repeating: 0)
          let cursorsBox = UncheckedSendable(cursors.baseAddress!)
          Self.parallel(chunks: cellParts, threads: threads) { c in
            store.countByCell(blocks: cellPartBlocks(c), at: t, into: cursorsBox.value + c * cells)
          }
          for cell in 0..<cells {
            for c in 0..<cellParts {
              let n = cursors[c * cells + cell]
              cursors[c * cells + cell] = total
              total += n
            }
          }
        }
      } else if singlePass {
        total = store.count
      } else {
        chunkCounts.withUnsafeMutableBufferPointer { counts in
          let countsBox = UncheckedSendable(counts.baseAddress!)
          Self.parallel(chunks: chunks, threads: threads) { c in
            let range = c * blocksPerChunk..<Swift.min(blocks, (c + 1) * blocksPerChunk)
            countsBox.value[c] = store.aliveCount(blocks: range, at: t, hidden: hiddenBox.value)
          }
        }
        for c in 0..<chunks {
          let n = chunkCounts[c]
          chunkCounts[c] = total
          total += n
        }
      }
      let compact = configuration.instanceLayout == .compact
      resizeOutputs(&frame, to: total, compact: compact, affines: computesAffines)
      // Evaluate each chunk into its own output range.
      withEvaluationTarget(
        &frame, compact: compact, affines: computesAffines, hidden: hiddenBox.value,
        flattensDepth: !layer.preservesDepth, writesSortKeys: writesIDs
      ) { target in
        if drawsByCell {
          let cells = tree.nodes.count
          cellCursors.withUnsafeMutableBufferPointer { cursors in
            let cursorsBox = UncheckedSendable(cursors.baseAddress!)
            Self.parallel(chunks: cellParts, threads: threads) { c in
              store.evaluateByCell(
                blocks: cellPartBlocks(c), at: t, into: target, cursors: cursorsBox.value + c * cells)
            }
          }
          return
        }
        if singlePass {
          total = store.evaluate(blocks: 0..<blocks, at: t, into: target, start: 0)
          return
        }
        let starts = UncheckedSendable(chunkCounts)
        Self.parallel(chunks: chunks, threads: threads) { c in
          let range = c * blocksPerChunk..<Swift.min(blocks, (c + 1) * blocksPerChunk)
          _ = store.evaluate(blocks: range, at: t, into: target, start: starts.value[c])
        }
      }
      if singlePass { resizeOutputs(&frame, to: total, compact: compact, affines: computesAffines) }
      if computesIDs {
        Self.resize(&frame.ids, to: total, filler: 0)
        for i in 0..<total { frame.ids[i] = scratchIDs[i] }
      } else {
        frame.ids.removeAll(keepingCapacity: true)
      }
      if drawsByCell {
        assert(Self.isAscending(scratchIDs, count: total), "the cell-order write left ids out of order")
      } else {
        applyOrder(layer.renderMode, to: &frame, count: total)
      }
      if !anyHidden && localTime != nil { store.compactIfMostlyDead(alive: total, at: t) }
      frame.batches.removeAll(keepingCapacity: true)
      if total > 0 {
        frame.batches.append(
          DrawBatch(range: 0..<total, blendMode: layer.renderMode == .additive ? .additive : .sourceOver))
      }
    }
  }

  /// Calls `body` with the evaluation target over the frame's buffers (as
  /// sized by ``resizeOutputs(_:to:compact:affines:)``) and the sort-key
  /// scratch.
  func withEvaluationTarget(
    _ frame: inout ParticleFrame, compact: Bool, affines computesAffines: Bool, hidden: UnsafePointer<Bool>?,
    flattensDepth: Bool, writesSortKeys: Bool, _ body: (EvaluationTarget) -> Void
  ) {
    frame.instances.withUnsafeMutableBufferPointer { instances in
      frame.compactInstances.withUnsafeMutableBufferPointer { compactInstances in
        frame.affines.withUnsafeMutableBufferPointer { affines in
          scratchIDs.withUnsafeMutableBufferPointer { ids in
            scratchDepths.withUnsafeMutableBufferPointer { depths in
              // An empty frame has no buffers; a dummy non-nil pointer is
              // never written through because every chunk writes 0 particles.
              body(
                EvaluationTarget(
                  instances: instances.baseAddress ?? UnsafeMutablePointer(bitPattern: 64)!,
                  compact: compact ? (compactInstances.baseAddress ?? UnsafeMutablePointer(bitPattern: 64)!) : nil,
                  affines: computesAffines ? affines.baseAddress : nil,
                  ids: ids.baseAddress ?? UnsafeMutablePointer(bitPattern: 64)!,
                  depths: depths.baseAddress ?? UnsafeMutablePointer(bitPattern: 64)!,
                  hidden: hidden, flattensDepth: flattensDepth, writesSortKeys: writesSortKeys))
            }
          }
        }
      }
    }
  }

  /// Sizes the frame's buffers (the layout's instance buffer, the affines
  /// when asked; the other instance buffer emptied) and the sort-key scratch
  /// for `n` particles, keeping capacity.
  func resizeOutputs(_ frame: inout ParticleFrame, to n: Int, compact: Bool, affines: Bool) {
    Self.resize(&frame.instances, to: compact ? 0 : n, filler: Self.blankInstance)
    Self.resize(&frame.compactInstances, to: compact ? n : 0, filler: Self.blankCompactInstance)
    Self.resize(&frame.affines, to: affines ? n : 0, filler: .identity)
    Self.resize(&scratchIDs, to: n, filler: 0)
    Self.resize(&scratchDepths, to: n, filler: 0)
  }
}
