/// What every particle of one cell born in one segment of the timeline
/// shares: the values of its ``BirthRecord`` that come straight from the cell's
/// parameters of that segment, not from a random draw or its parent.
struct ParticleConstants: Hashable, Sendable {
  var halfAcceleration: SIMD3<Float>
  var scaleSpeed: Float
  var colorSpeed: SIMD4<Float>
  var contentsRect: SIMD4<Float>
  var sprite: UInt32
  var cell: UInt32

  /// Whether `r` was born with these values.
  func matches(_ r: BirthRecord) -> Bool {
    r.halfAcceleration == halfAcceleration && r.scaleSpeed == scaleSpeed && r.colorSpeed == colorSpeed
      && r.contentsRect == contentsRect && r.sprite == sprite && r.cell == cell
  }
}

/// The ``ParticleConstants`` of every (cell, segment), row `cell·segments +
/// segment`, as rows of 16 lanes for the evaluation kernel:
///
/// | lanes | content |
/// |---|---|
/// | 0–3 | ½·acceleration x, y, z; scale speed |
/// | 4–7 | colour speed r, g, b, a |
/// | 8–11 | contentsRect x, y, w, h |
/// | 12, 13 | sprite, cell (`UInt32` bits) |
/// | 14 | the compact instance's sprite and cell: `UInt16` sprite (0xFFFF for none) \| cell << 16 |
/// | 15 | zero |
///
/// Invariant: rows are 64 bytes and 64-byte aligned, so a kernel loads each
/// group of four with one aligned 16-byte load. Immutable after init (hence
/// Sendable); it owns its allocation.
final class ParticleConstantsTable: @unchecked Sendable {
  static let rowFloats = 16
  /// Rows, as 16 `Float` lanes each.
  let rows: UnsafeMutablePointer<Float>
  let count: Int
  /// Rows per cell (the segments of the timeline).
  let segments: Int

  init(_ constants: [ParticleConstants], segments: Int) {
    precondition(segments > 0 && constants.count % segments == 0)
    count = constants.count
    self.segments = segments
    let raw = UnsafeMutableRawPointer.allocate(
      byteCount: Swift.max(1, count) * Self.rowFloats * 4, alignment: 64)
    rows = raw.bindMemory(to: Float.self, capacity: Swift.max(1, count) * Self.rowFloats)
    rows.initialize(repeating: 0, count: Swift.max(1, count) * Self.rowFloats)
    for (i, k) in constants.enumerated() {
      let row = rows + i * Self.rowFloats
      for j in 0..<3 { row[j] = k.halfAcceleration[j] }
      row[3] = k.scaleSpeed
      for j in 0..<4 {
        row[4 + j] = k.colorSpeed[j]
        row[8 + j] = k.contentsRect[j]
      }
      row[12] = Float(bitPattern: k.sprite)
      row[13] = Float(bitPattern: k.cell)
      let sprite16 = k.sprite >= UInt32(UInt16.max) ? UInt32(UInt16.max) : k.sprite
      row[14] = Float(bitPattern: sprite16 | k.cell << 16)
    }
  }

  deinit { rows.deallocate() }

  /// Row `i` as a value.
  subscript(i: Int) -> ParticleConstants {
    precondition(i >= 0 && i < count, "constants row out of range")
    let row = rows + i * Self.rowFloats
    return ParticleConstants(
      halfAcceleration: SIMD3(row[0], row[1], row[2]), scaleSpeed: row[3],
      colorSpeed: SIMD4(row[4], row[5], row[6], row[7]), contentsRect: SIMD4(row[8], row[9], row[10], row[11]),
      sprite: row[12].bitPattern, cell: row[13].bitPattern)
  }

  /// The row of a particle of `cell` born in `segment`.
  @inline(__always)
  func index(cell: UInt32, segment: Int) -> UInt32 {
    cell &* UInt32(segments) &+ UInt32(segment)
  }
}

extension CellTree {
  /// The constants table of this tree: one row per (cell, segment), in that
  /// order, from each cell's parameters of the segment.
  func makeConstantsTable() -> ParticleConstantsTable {
    var rows: [ParticleConstants] = []
    rows.reserveCapacity(nodes.count * segmentStarts.count)
    for node in nodes {
      for p in node.parameters {
        rows.append(
          ParticleConstants(
            halfAcceleration: p.halfAcceleration, scaleSpeed: p.scaleSpeed, colorSpeed: p.colorSpeed,
            contentsRect: p.contentsRect, sprite: p.sprite, cell: UInt32(node.number)))
      }
    }
    return ParticleConstantsTable(rows, segments: segmentStarts.count)
  }

  /// The constants row of a particle of `cell` born at `birthTime`: the
  /// segment is the one the sampler read the cell's parameters from.
  @inline(__always)
  func constantsIndex(cell: UInt32, birthTime: Double) -> UInt32 {
    let s = segmentStarts.count
    return cell &* UInt32(s) &+ UInt32(s > 1 ? segment(at: birthTime) : 0)
  }
}
