import CSleetKernels

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
/// segment`, as rows of 4-byte lanes for the evaluation kernel, each row one
/// `sleet_constants_row` (`Sources/CSleetKernels/sleet_layout.h`, the one
/// definition of the layout): ½·acceleration, scale speed, colour speed,
/// contentsRect, sprite and cell (`UInt32` bits), and the compact
/// instance's sprite and cell (`UInt16` sprite, 0xFFFF for none, | cell <<
/// 16), each at the lane its `SLEET_ROW_*` constant gives; unused lanes 0.
///
/// Invariant: rows are 64 bytes and 64-byte aligned, so a kernel loads each
/// group of four lanes with one aligned 16-byte load. Immutable after init
/// (hence Sendable); it owns its allocation.
final class ParticleConstantsTable: @unchecked Sendable {
  /// Lanes a row (`sleet_constants_row`).
  @inline(__always) static var rowFloats: Int { SLEET_ROW_FLOATS }
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
      for j in 0..<3 { row[SLEET_ROW_HALF_ACCELERATION + j] = k.halfAcceleration[j] }
      row[SLEET_ROW_SCALE_SPEED] = k.scaleSpeed
      for j in 0..<4 {
        row[SLEET_ROW_COLOR_SPEED + j] = k.colorSpeed[j]
        row[SLEET_ROW_CONTENTS_RECT + j] = k.contentsRect[j]
      }
      row[SLEET_ROW_SPRITE] = Float(bitPattern: k.sprite)
      row[SLEET_ROW_CELL] = Float(bitPattern: k.cell)
      let sprite16 = k.sprite >= UInt32(UInt16.max) ? UInt32(UInt16.max) : k.sprite
      row[SLEET_ROW_COMPACT_SPRITE_CELL] = Float(bitPattern: sprite16 | k.cell << 16)
    }
  }

  deinit { rows.deallocate() }

  /// Row `i` as a value.
  subscript(i: Int) -> ParticleConstants {
    precondition(i >= 0 && i < count, "constants row out of range")
    let row = rows + i * Self.rowFloats
    let (h, c, r) = (row + SLEET_ROW_HALF_ACCELERATION, row + SLEET_ROW_COLOR_SPEED, row + SLEET_ROW_CONTENTS_RECT)
    return ParticleConstants(
      halfAcceleration: SIMD3(h[0], h[1], h[2]), scaleSpeed: row[SLEET_ROW_SCALE_SPEED],
      colorSpeed: SIMD4(c[0], c[1], c[2], c[3]), contentsRect: SIMD4(r[0], r[1], r[2], r[3]),
      sprite: row[SLEET_ROW_SPRITE].bitPattern, cell: row[SLEET_ROW_CELL].bitPattern)
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
