import SleetMath

/// A store per cell: effects of several top-level cells drawn by id (or back
/// to front).
///
/// In one store, the particles of several cells interleave in birth order,
/// so every block mixes constants rows: a frame gathers eight rows and
/// transposes them per block, counts each cell's particles first and writes
/// each lane to its cell's next row, and a step collects, sorts and appends
/// records one by one, several times the cost of a one-cell effect's frame
/// and step (`sleet-bench --filter two-cells`).
///
/// When every cell is top-level, the effect rejects births over its budget
/// (no capping, which cuts the oldest across cells) and every segment draws
/// `unordered`, `additive` or `backToFront`, each cell keeps its particles
/// in a store of its own, and each store is a one-cell effect's:
/// - a step or a seek appends the cell's births straight to its slab, a
///   block of eight at a time (``appendAliveBirths(node:into:after:through:at:)``);
/// - a frame is every visible cell's store evaluated in turn, each block one
///   constants row, into consecutive output ranges: cell 0's particles, then
///   cell 1's, each in birth order. That is ascending id (the cell in the
///   top byte, the birth index below it), the order `unordered` and
///   `additive` draw, so there is no sort, gather or count per cell; a
///   hidden cell's store is skipped whole. `backToFront` then sorts by
///   tracked z alone (stably, so ties keep id order).
///
/// `oldestFirst`/`oldestLast` draw in birth order across cells, which one
/// store holds as it is; from a store per cell it would take a merge and
/// a gather every frame. Those effects keep the single store.
///
/// The same frames and records bit for bit as the single store
/// (`CellStoreTests`; ``liveRecords()`` merges the stores into the single
/// store's order). Other effects, and `paths.cellStores = false`, keep the
/// single store.
extension ParticleSystem {
  /// Whether an effect with this tree keeps a store per cell under
  /// `configuration` (see the extension's comment).
  static func keepsCellStores(_ tree: CellTree, _ configuration: ParticleSystemConfiguration) -> Bool {
    tree.nodes.count > 1 && tree.roots.count == tree.nodes.count && configuration.overflowPolicy == .reject
      && !tree.hasBehaviors
      && tree.layers.allSatisfy { [.unordered, .additive, .backToFront].contains($0.renderMode) }
  }

  /// The stores that hold the particles: the cells' or the single one.
  var storesInUse: [ParticleStore] { usesCellStores ? cellStores : [store] }

  /// ``seek(to:)`` with a store per cell: each store as a one-cell
  /// effect's (``seekCell(_:in:to:)``).
  func seekCellStores(to t: Double) {
    for (c, s) in cellStores.enumerated() { seekCell(c, in: s, to: t) }
  }

  /// ``advance(to:)`` with a store per cell, from `previous` to `t`: each
  /// store as a one-cell effect's (``advanceCell(_:in:from:to:)``).
  func advanceCellStores(from previous: Double, to t: Double) {
    for (c, s) in cellStores.enumerated() { advanceCell(c, in: s, from: previous, to: t) }
  }

  /// ``render(into:)``'s evaluation with a store per cell, at `t`
  /// (``FramePlan/cellStores``): the visible cells' stores in cell order,
  /// in chunks of `chunkSize` particles. One pass into buffers sized for
  /// every stored particle (cut afterwards) on one thread with few holes;
  /// otherwise pass 1 counts each chunk's live particles, and a prefix sum
  /// in chunk order gives each its output offset.
  func renderFromCellStores(
    into frame: inout ParticleFrame, at t: Double, threads: Int, computesAffines: Bool, computesIDs: Bool,
    layer: LayerParameters
  ) {
    let cells = cellStores.count
    let (stored, fewHoles) = cutCellStoresIntoParts()
    let parts = cellStoreParts
    let stores = cellStores
    let singlePass = (threads <= 1 || parts.count <= 1) && fewHoles
    // Per cell: its live particles written (exact for the visible cells).
    Self.resize(&cellCursors, to: cells, filler: 0)
    for c in 0..<cells { cellCursors[c] = 0 }
    if chunkCounts.count < parts.count + 1 { chunkCounts = Array(repeating: 0, count: parts.count + 1) }
    var total = 0
    if singlePass {
      total = stored
    } else {
      chunkCounts.withUnsafeMutableBufferPointer { counts in
        let countsBox = UncheckedSendable(counts.baseAddress!)
        Self.parallel(chunks: parts.count, threads: threads) { i in
          countsBox.value[i] = stores[parts[i].cell].aliveCount(blocks: parts[i].blocks, at: t, hidden: nil)
        }
      }
      for i in parts.indices {
        let n = chunkCounts[i]
        chunkCounts[i] = total
        total += n
        cellCursors[parts[i].cell] += n
      }
    }
    let compact = configuration.instanceLayout == .compact
    let byDepth = layer.renderMode == .backToFront
    resizeOutputs(&frame, to: total, compact: compact, affines: computesAffines)
    withEvaluationTarget(
      &frame, compact: compact, affines: computesAffines, hidden: nil, flattensDepth: !layer.preservesDepth,
      writesSortKeys: computesIDs || byDepth
    ) { target in
      if singlePass {
        var o = 0
        for c in 0..<cells where !hidden[c] {
          let s = stores[c]
          let n = s.evaluate(blocks: 0..<s.blockCount, at: t, into: target, start: o)
          cellCursors[c] = n
          o += n
        }
        total = o
        return
      }
      let starts = UncheckedSendable(chunkCounts)
      Self.parallel(chunks: parts.count, threads: threads) { i in
        _ = stores[parts[i].cell].evaluate(blocks: parts[i].blocks, at: t, into: target, start: starts.value[i])
      }
    }
    if singlePass { resizeOutputs(&frame, to: total, compact: compact, affines: computesAffines) }
    assert(!computesIDs && !byDepth || Self.isAscending(scratchIDs, count: total), "the cell stores' ids out of order")
    // Back to front: the id order above, then the stable sort by tracked
    // z, as from one store (applyOrder finds the ids in order and sorts by
    // depth alone).
    finishFrame(&frame, count: total, mode: layer.renderMode, computesIDs: computesIDs, inDrawOrder: !byDepth)
    for c in 0..<cells where !hidden[c] { stores[c].compactIfMostlyDead(alive: cellCursors[c], at: t) }
  }

  /// Cuts the visible cells' stores into the frame's chunks
  /// (``cellStoreParts``, cell by cell, each of whole blocks of at least
  /// `chunkSize` particles). Returns the particles they store and whether
  /// each has few holes (``ParticleStore/hasFewHoles``).
  func cutCellStoresIntoParts() -> (stored: Int, fewHoles: Bool) {
    let blocksPerChunk = Swift.max(1, (configuration.chunkSize + 7) / 8)
    cellStoreParts.removeAll(keepingCapacity: true)
    var stored = 0
    var fewHoles = true
    for c in 0..<cellStores.count where !hidden[c] {
      let s = cellStores[c]
      stored += s.count
      fewHoles = fewHoles && s.hasFewHoles
      var b = 0
      while b < s.blockCount {
        cellStoreParts.append(CellStorePart(cell: c, blocks: b..<Swift.min(s.blockCount, b + blocksPerChunk)))
        b += blocksPerChunk
      }
    }
    return (stored, fewHoles)
  }
}

/// A chunk of a frame with a store per cell: blocks `blocks` of cell
/// `cell`'s store.
struct CellStorePart {
  var cell: Int
  var blocks: Range<Int>
}
