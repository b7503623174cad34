/// The births of one step of a ``BirthDeltaStream``.
public struct BirthDelta: Sendable {
  /// Whether the slots extend the ring or replace it.
  public enum Kind: Hashable, Sendable {
    /// Births since the last step, written from ``firstSlot``, wrapping.
    case append
    /// The whole live set, written from slot 0; every other slot is stale
    /// (outside the valid window).
    case snapshot
  }

  /// Whether ``slots`` append to the ring or replace it.
  public var kind: Kind
  /// Ring slot of `slots[0]`; slot of `slots[i]` is `(firstSlot + i) % capacity`.
  public var firstSlot: Int
  /// The records, in birth order.
  public var slots: [GPUBirthSlot]
  /// The first slot of the valid window after this step.
  public var ringStart: Int
  /// The number of slots in the valid window after this step, from
  /// ``ringStart``, wrapping.
  public var ringCount: Int

  /// The uploads this delta needs: (first ring slot, range of `slots`), at
  /// most two (the second when the write wraps past the ring's end).
  public func uploadRanges(capacity: Int) -> [(slot: Int, range: Range<Int>)] {
    guard !slots.isEmpty else { return [] }
    let first = Swift.min(slots.count, capacity - firstSlot)
    var out = [(slot: firstSlot, range: 0..<first)]
    if first < slots.count { out.append((slot: 0, range: first..<slots.count)) }
    return out
  }
}

/// Why a ``BirthDeltaStream`` cannot express a step.
public enum BirthDeltaError: Error, Hashable, Sendable, CustomStringConvertible {
  /// More particles are alive than the ring holds.
  case capacityExceeded(live: Int, capacity: Int)
  /// The system caps its live set (`capOldestFirst`).
  case unsupportedOverflowPolicy

  public var description: String {
    switch self {
    case .capacityExceeded(let live, let capacity):
      "\(live) particles are alive but the GPU ring holds \(capacity); make the stream with a larger capacity"
    case .unsupportedOverflowPolicy:
      "the birth-delta stream needs a system with overflowPolicy reject (capping removes live particles)"
    }
  }
}

/// The uniforms of one frame's evaluation (`docs/gpu.md`, Uniforms).
public struct GPUFrameParameters: Hashable, Sendable {
  /// Emitter-local time t.
  public var localTime: Double
  /// ``GPUBirthSlot/orderedKey(_:)`` of t.
  public var timeKey: UInt64
  /// t rounded to `Float`: `Float(t)`.
  public var timeHigh: Float
  /// The rounding error of ``timeHigh``: `Float(t − Double(timeHigh))`, so
  /// the shader's age `(timeHigh − birthHigh) + (timeLow − birthLow)` keeps
  /// the precision of the CPU's `Double` age (docs/gpu.md, Tolerance).
  public var timeLow: Float
  /// The first slot of the ring's valid window.
  public var ringStart: Int
  /// The number of valid slots from ``ringStart``, wrapping.
  public var ringCount: Int
  /// The ring's size in slots.
  public var capacity: Int
  /// Whether drawn z is 0 (`preservesDepth` false).
  public var flattensDepth: Bool
  /// The emitter's render order, which decides the output order.
  public var renderMode: RenderMode
  /// 256 bits, one per cell: set for cells whose particles are not drawn.
  public var hiddenCells: [UInt32]
  /// Whether the render order needs a sort after evaluation (unordered or
  /// additive with several cells, backToFront): done on the host.
  public var needsHostSort: Bool

  /// Whether the shader writes in reverse ring order (`oldestLast`).
  public var reversesOrder: Bool { renderMode == .oldestLast }
}

/// The live particles of a ring evaluated at one time, in ring order
/// (reversed for `oldestLast`): instances with the CPU `render` layout,
/// their ids and their tracked z (the `backToFront` sort key).
public struct GPUEvaluation: Sendable {
  /// The drawn particles, in the CPU `render` layout.
  public var instances: [ParticleInstance]
  /// `ids[i]` is the ``ParticleID`` raw value of `instances[i]`.
  public var ids: [UInt64]
  /// `depths[i]` is the tracked z of `instances[i]` (the `backToFront` key).
  public var depths: [Float]

  /// An evaluation from its three parallel arrays.
  /// - Precondition: the arrays have the same count.
  public init(instances: [ParticleInstance], ids: [UInt64], depths: [Float]) {
    self.instances = instances
    self.ids = ids
    self.depths = depths
  }
}
