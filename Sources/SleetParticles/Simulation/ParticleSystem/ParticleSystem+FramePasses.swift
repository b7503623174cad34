import SleetMath

extension ParticleSystem {
  // MARK: - The single store's frame plans

  /// ``FramePlan/cellOrder``: pass 1 counts each part's live particles per
  /// cell, and a prefix sum in (cell, part) order turns the counts into each
  /// part's first output index per cell; pass 2 writes each particle at its
  /// cell's next index (``ParticleStore/evaluateByCell(blocks:at:into:cursors:)``).
  /// One part for a single thread, so that each cell's range is written in
  /// one piece. Returns the particles written.
  func renderInCellOrder(into frame: inout ParticleFrame, _ pass: FramePass) -> Int {
    let t = pass.t
    let threads = pass.threads
    let grid = pass.grid
    let store = self.store
    let cells = tree.nodes.count
    let cellParts = threads <= 1 ? 1 : Swift.max(1, grid.chunks)
    @Sendable func cellPartBlocks(_ c: Int) -> Range<Int> {
      cellParts == 1 ? 0..<grid.blocks : grid.blocks(ofChunk: c)
    }
    var total = 0
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
    resizeOutputs(&frame, to: total, compact: pass.compact, affines: pass.computesAffines)
    withEvaluationTarget(&frame, pass) { target in
      cellCursors.withUnsafeMutableBufferPointer { cursors in
        let cursorsBox = UncheckedSendable(cursors.baseAddress!)
        Self.parallel(chunks: cellParts, threads: threads) { c in
          store.evaluateByCell(blocks: cellPartBlocks(c), at: t, into: target, cursors: cursorsBox.value + c * cells)
        }
      }
    }
    return total
  }

  /// ``FramePlan/onePass``: every block evaluated in one pass into buffers
  /// sized for every stored particle (an upper bound), cut to the live count
  /// afterwards. Returns the particles written.
  func renderInOnePass(into frame: inout ParticleFrame, _ pass: FramePass) -> Int {
    let blocks = pass.grid.blocks
    var total = store.count
    resizeOutputs(&frame, to: total, compact: pass.compact, affines: pass.computesAffines)
    withEvaluationTarget(&frame, pass) { target in
      total = store.evaluate(blocks: 0..<blocks, at: pass.t, into: target, start: 0)
    }
    resizeOutputs(&frame, to: total, compact: pass.compact, affines: pass.computesAffines)
    return total
  }

  /// ``FramePlan/chunked``: pass 1 counts each chunk's live particles, a
  /// prefix sum gives each chunk its output offset, and pass 2 evaluates
  /// each chunk into its own output range, the chunks in parallel. Returns
  /// the particles written.
  func renderInChunks(into frame: inout ParticleFrame, _ pass: FramePass) -> Int {
    let t = pass.t
    let grid = pass.grid
    let chunks = grid.chunks
    let store = self.store
    let hiddenBox = pass.hidden
    var total = 0
    chunkCounts.withUnsafeMutableBufferPointer { counts in
      let countsBox = UncheckedSendable(counts.baseAddress!)
      Self.parallel(chunks: chunks, threads: pass.threads) { c in
        countsBox.value[c] = store.aliveCount(blocks: grid.blocks(ofChunk: c), at: t, hidden: hiddenBox.value)
      }
    }
    for c in 0..<chunks {
      let n = chunkCounts[c]
      chunkCounts[c] = total
      total += n
    }
    resizeOutputs(&frame, to: total, compact: pass.compact, affines: pass.computesAffines)
    withEvaluationTarget(&frame, pass) { target in
      let starts = UncheckedSendable(chunkCounts)
      Self.parallel(chunks: chunks, threads: pass.threads) { c in
        _ = store.evaluate(blocks: grid.blocks(ofChunk: c), at: t, into: target, start: starts.value[c])
      }
    }
    return total
  }

  /// ``withEvaluationTarget(_:compact:affines:hidden:flattensDepth:writesSortKeys:_:)``
  /// with `pass`'s options.
  func withEvaluationTarget(_ frame: inout ParticleFrame, _ pass: FramePass, _ body: (EvaluationTarget) -> Void) {
    withEvaluationTarget(
      &frame, compact: pass.compact, affines: pass.computesAffines, hidden: pass.hidden.value,
      flattensDepth: pass.flattensDepth, writesSortKeys: pass.writesSortKeys, behaviors: pass.behaviors, body)
  }

  /// Calls `body` with the evaluation target over the frame's buffers (as
  /// sized by ``resizeOutputs(_:to:compact:affines:)``) and the sort-key
  /// scratch.
  func withEvaluationTarget(
    _ frame: inout ParticleFrame, compact: Bool, affines computesAffines: Bool, hidden: UnsafePointer<Bool>?,
    flattensDepth: Bool, writesSortKeys: Bool, behaviors: CellTree? = nil, _ body: (EvaluationTarget) -> Void
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
                  hidden: hidden, flattensDepth: flattensDepth, writesSortKeys: writesSortKeys,
                  behaviors: behaviors.map(BehaviorCells.init)))
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

/// A frame's options as its plan's functions need them
/// (``ParticleSystem/render(into:threads:computesAffines:computesIDs:)``).
struct FramePass {
  /// The local time evaluated.
  var t: Double
  var threads: Int
  var grid: ChunkGrid
  /// The compact instance layout.
  var compact: Bool
  var computesAffines: Bool
  /// Per cell, whether it is hidden; nil when none is (valid during the
  /// frame only).
  var hidden: UncheckedSendable<UnsafePointer<Bool>?>
  var flattensDepth: Bool
  /// Whether the evaluation writes ids and depths (the sort keys).
  var writesSortKeys: Bool
  /// The cells, when behaviors act on some (``EvaluationTarget/behaviors``).
  var behaviors: CellTree? = nil
}

/// The chunks of a frame: `blocks` blocks, cut into chunks of
/// `blocksPerChunk` (a whole number of blocks of at least `chunkSize`
/// particles), the last one shorter.
struct ChunkGrid {
  let blocks: Int
  let blocksPerChunk: Int
  let chunks: Int

  init(blocks: Int, chunkSize: Int) {
    self.blocks = blocks
    blocksPerChunk = Swift.max(1, (chunkSize + 7) / 8)
    chunks = (blocks + blocksPerChunk - 1) / blocksPerChunk
  }

  /// The blocks of chunk `c`.
  @inline(__always)
  func blocks(ofChunk c: Int) -> Range<Int> {
    c * blocksPerChunk..<Swift.min(blocks, (c + 1) * blocksPerChunk)
  }
}
