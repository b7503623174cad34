import CSleetKernels
import Testing

@testable import SleetParticles

/// The three shared layouts of `Sources/CSleetKernels/sleet_layout.h` — the
/// slab block, the constants row and the GPU birth slot — against the Swift
/// code that reads and writes them: values written through Swift are found at
/// the header's offsets, values written at the header's offsets are read back
/// through Swift, the C kernel reads a block that Swift wrote, and the sizes
/// agree. The offsets are taken from the imported C structs
/// (`MemoryLayout.offset(of:)`), and the header's enum constants are checked
/// against them. The generated shader is checked in SleetGPUTests.
@Suite("Memory layouts agree with sleet_layout.h")
struct MemoryLayoutAgreementTests {
  typealias Block = sleet_slab_block
  typealias Row = sleet_constants_row
  typealias Slot = sleet_gpu_birth_slot

  /// The byte offset of `field` in `T`, as the C compiler laid it out.
  static func offset<T>(_ field: PartialKeyPath<T>) -> Int { MemoryLayout<T>.offset(of: field)! }

  /// A record whose fields all differ, so a field read at another's offset
  /// shows.
  static func record(id: UInt64, birthTime: Double) -> BirthRecord {
    BirthRecord(
      id: id, cell: 3, birthTime: birthTime, lifetime: 2.5, position: SIMD3(11, 12, 13),
      velocity: SIMD3(21, 22, 23), halfAcceleration: SIMD3(31, 32, 33), scale: 41, scaleSpeed: 42, spin: 43,
      color: SIMD4(0.51, 0.52, 0.53, 0.54), colorSpeed: SIMD4(61, 62, 63, 64), contentsRect: SIMD4(71, 72, 73, 74),
      sprite: 5)
  }

  static func constants(of r: BirthRecord) -> ParticleConstants {
    ParticleConstants(
      halfAcceleration: r.halfAcceleration, scaleSpeed: r.scaleSpeed, colorSpeed: r.colorSpeed,
      contentsRect: r.contentsRect, sprite: r.sprite, cell: r.cell)
  }

  /// The header's slab constants are the struct's offsets and size.
  @Test func slabConstantsAreTheStructsOffsets() {
    #expect(SLEET_SLAB_BLOCK_BYTES == MemoryLayout<Block>.size)
    #expect(ParticleStore.blockBytes == MemoryLayout<Block>.size)
    #expect(ParticleStore.lanes == SLEET_SLAB_LANES && SLEET_SLAB_LANES == 8)
    #expect(ParticleStore.slotBytes == 8 * MemoryLayout<Float>.size)
    let fields: [(Int, PartialKeyPath<Block>)] = [
      (SLEET_SLAB_BIRTH_TIME, \.birthTime), (SLEET_SLAB_LIFETIME, \.lifetime),
      (SLEET_SLAB_CONSTANTS_ROW, \.constantsRow), (SLEET_SLAB_POSITION, \.position),
      (SLEET_SLAB_VELOCITY, \.velocity), (SLEET_SLAB_SCALE, \.scale), (SLEET_SLAB_SPIN, \.spin),
      (SLEET_SLAB_COLOR, \.color),
    ]
    for (constant, field) in fields { #expect(constant == Self.offset(field), "\(field)") }
  }

  /// Lane `lane` of the `T` field at byte `offset` (component `component`
  /// of a vector field) of the block at `block`.
  static func lane<T>(_ block: UnsafeMutableRawPointer, _ offset: Int, _ lane: Int, component: Int = 0, as: T.Type)
    -> UnsafeMutablePointer<T>
  {
    let componentBytes = Self.offset(\Block.position.1) - Self.offset(\Block.position.0)
    return (block + offset + component * componentBytes + lane * MemoryLayout<T>.size).assumingMemoryBound(to: T.self)
  }

  /// Records appended through Swift are at the struct's offsets in every
  /// lane, and bytes written at those offsets come back through
  /// `record(at:)`.
  @Test func slabRowsWrittenThroughSwiftAreAtTheHeadersOffsets() {
    let records = (0..<11).map { Self.record(id: 100 + UInt64($0), birthTime: 0.25 * Double($0)) }
    let table = ParticleConstantsTable([Self.constants(of: records[0])], segments: 1)
    let store = ParticleStore(constants: table, capacity: 16)
    for var r in records {
      r.lifetime += Float(r.id)
      r.position.y += Float(r.id)
      r.color.w = Float(r.id) / 1000
      store.append(r, constantsIndex: 0)
    }
    for (i, r) in zip(records.indices, records) {
      let block = store.blocks + (i / 8) * MemoryLayout<Block>.size
      let l = i % 8
      #expect(Self.lane(block, Self.offset(\Block.birthTime), l, as: Double.self).pointee == r.birthTime)
      #expect(Self.lane(block, Self.offset(\Block.lifetime), l, as: Float.self).pointee == r.lifetime + Float(r.id))
      #expect(Self.lane(block, Self.offset(\Block.constantsRow), l, as: UInt32.self).pointee == 0)
      for c in 0..<3 {
        let y: Float = c == 1 ? Float(r.id) : 0
        #expect(
          Self.lane(block, Self.offset(\Block.position), l, component: c, as: Float.self).pointee
            == r.position[c] + y)
        #expect(
          Self.lane(block, Self.offset(\Block.velocity), l, component: c, as: Float.self).pointee == r.velocity[c])
      }
      #expect(Self.lane(block, Self.offset(\Block.scale), l, as: Float.self).pointee == r.scale)
      #expect(Self.lane(block, Self.offset(\Block.spin), l, as: Float.self).pointee == r.spin)
      for c in 0..<4 {
        let expected = c == 3 ? Float(r.id) / 1000 : r.color[c]
        #expect(Self.lane(block, Self.offset(\Block.color), l, component: c, as: Float.self).pointee == expected)
      }
    }
    // The other way: particle 9 (block 1, lane 1) rewritten at the header's
    // offsets.
    let block = store.blocks + MemoryLayout<Block>.size
    Self.lane(block, Self.offset(\Block.birthTime), 1, as: Double.self).pointee = 7.5
    Self.lane(block, Self.offset(\Block.lifetime), 1, as: Float.self).pointee = 9.5
    for c in 0..<3 {
      Self.lane(block, Self.offset(\Block.position), 1, component: c, as: Float.self).pointee = 200 + Float(c)
      Self.lane(block, Self.offset(\Block.velocity), 1, component: c, as: Float.self).pointee = 300 + Float(c)
    }
    Self.lane(block, Self.offset(\Block.scale), 1, as: Float.self).pointee = 400
    Self.lane(block, Self.offset(\Block.spin), 1, as: Float.self).pointee = 500
    for c in 0..<4 {
      Self.lane(block, Self.offset(\Block.color), 1, component: c, as: Float.self).pointee = 0.1 * Float(c + 1)
    }
    let r = store.record(at: 9)
    #expect(r.birthTime == 7.5 && r.lifetime == 9.5 && r.scale == 400 && r.spin == 500)
    #expect(r.position == SIMD3(200, 201, 202) && r.velocity == SIMD3(300, 301, 302))
    #expect(r.color == SIMD4(0.1, 0.2, 0.3, 0.4))
  }

  /// A block appended through Swift, evaluated by the C kernel, gives the
  /// naive closed form of each record: the kernel reads every field where
  /// Swift wrote it.
  @Test func theCKernelReadsTheBlockSwiftWrote() {
    let records = (0..<8).map { l in
      var r = Self.record(id: UInt64(l), birthTime: 0.125 * Double(l))
      r.position += SIMD3(repeating: Float(l))
      r.velocity.x -= Float(l)
      r.scale += Float(l)
      r.spin += Float(l)
      r.color.y -= 0.01 * Float(l)
      return r
    }
    let table = ParticleConstantsTable([Self.constants(of: records[0])], segments: 1)
    let store = ParticleStore(constants: table, capacity: 8)
    for r in records { store.append(r, constantsIndex: 0) }
    let t = 1.5
    let zero = ParticleInstance(
      x: 0, y: 0, z: 0, scale: 0, color: .zero, contentsRect: .zero, rotation: 0, normalizedAge: 0, sprite: 0, cell: 0)
    var instances = [ParticleInstance](repeating: zero, count: 8)
    let sinCos = [Float](repeating: 0, count: 16)
    instances.withUnsafeMutableBytes { out in
      let target = sleet_block_target(
        instances: out.baseAddress, compact: nil, affines: nil, depths: nil, flattensDepth: 0)
      sleet_evaluate_uniform_block8(store.blocks, t, table.rows, sinCos, target)
    }
    for (r, instance) in zip(records, instances) {
      let expected = ParticleStore.evaluateNaive(r, at: t, flattensDepth: false)
      #expect(instance.bitsEqual(expected), "particle \(r.id)")
    }
  }

  /// The header's row constants are the struct's lanes; the table writes
  /// each field at its lane, reads each lane back as that field, and the
  /// four-lane path (`LaneConstants`) takes each field from its lane.
  @Test func constantsRowsAreAtTheHeadersLanes() {
    #expect(ParticleConstantsTable.rowFloats * 4 == MemoryLayout<Row>.size && SLEET_ROW_FLOATS == 16)
    func lane(_ field: PartialKeyPath<Row>) -> Int { Self.offset(field) / 4 }
    #expect(SLEET_ROW_HALF_ACCELERATION == lane(\.halfAcceleration))
    #expect(SLEET_ROW_SCALE_SPEED == lane(\.scaleSpeed))
    #expect(SLEET_ROW_COLOR_SPEED == lane(\.colorSpeed))
    #expect(SLEET_ROW_CONTENTS_RECT == lane(\.contentsRect))
    #expect(SLEET_ROW_SPRITE == lane(\.sprite))
    #expect(SLEET_ROW_CELL == lane(\.cell))
    #expect(SLEET_ROW_COMPACT_SPRITE_CELL == lane(\.compactSpriteCell))

    let values = (0..<4).map { (i: Int) -> ParticleConstants in
      let base = Float(10 * i)
      let h = SIMD3<Float>(1, 2, 3) + base
      let colorSpeed = SIMD4<Float>(5, 6, 7, 8) + base
      let rect = SIMD4<Float>(0.1, 0.2, 0.3, 0.4) * Float(i + 1)
      return ParticleConstants(
        halfAcceleration: h, scaleSpeed: 4 + base, colorSpeed: colorSpeed, contentsRect: rect,
        sprite: UInt32(90 + i), cell: UInt32(i))
    }
    let table = ParticleConstantsTable(values, segments: 1)
    for (i, k) in values.enumerated() {
      let row = table.rows + i * ParticleConstantsTable.rowFloats
      for c in 0..<3 { #expect(row[lane(\.halfAcceleration) + c] == k.halfAcceleration[c]) }
      #expect(row[lane(\.scaleSpeed)] == k.scaleSpeed)
      for c in 0..<4 {
        #expect(row[lane(\.colorSpeed) + c] == k.colorSpeed[c])
        #expect(row[lane(\.contentsRect) + c] == k.contentsRect[c])
      }
      #expect(row[lane(\.sprite)].bitPattern == k.sprite && row[lane(\.cell)].bitPattern == k.cell)
      #expect(row[lane(\.compactSpriteCell)].bitPattern == k.sprite | k.cell << 16)
      #expect(table[i] == k)
    }
    // The other way: row 2 rewritten at the header's lanes.
    let row = table.rows + 2 * ParticleConstantsTable.rowFloats
    for c in 0..<3 { row[lane(\.halfAcceleration) + c] = 100 + Float(c) }
    row[lane(\.scaleSpeed)] = 200
    for c in 0..<4 {
      row[lane(\.colorSpeed) + c] = 300 + Float(c)
      row[lane(\.contentsRect) + c] = 400 + Float(c)
    }
    row[lane(\.sprite)] = Float(bitPattern: 7)
    row[lane(\.cell)] = Float(bitPattern: 1)
    #expect(
      table[2]
        == ParticleConstants(
          halfAcceleration: SIMD3(100, 101, 102), scaleSpeed: 200, colorSpeed: SIMD4(300, 301, 302, 303),
          contentsRect: SIMD4(400, 401, 402, 403), sprite: 7, cell: 1))

    let rows = UnsafePointer<Float>(table.rows)
    let w = ParticleConstantsTable.rowFloats
    let k = LaneConstants(rows: (rows + 3 * w, rows + 2 * w, rows + w, rows))
    for (l, i) in [3, 2, 1, 0].enumerated() {
      let expected = table[i]
      let r = rows + i * w
      #expect(SIMD3(k.hx[l], k.hy[l], k.hz[l]) == expected.halfAcceleration)
      #expect(k.scaleSpeed[l] == expected.scaleSpeed)
      #expect(SIMD4(k.colorSpeedR[l], k.colorSpeedG[l], k.colorSpeedB[l], k.colorSpeedA[l]) == expected.colorSpeed)
      #expect(SIMD4(k.rectX[l], k.rectY[l], k.rectW[l], k.rectH[l]) == expected.contentsRect)
      #expect(k.sprite[l].bitPattern == expected.sprite && k.cell[l].bitPattern == expected.cell)
      #expect(k.spriteCell16[l].bitPattern == r[lane(\.compactSpriteCell)].bitPattern)
    }
  }

  /// Every field of the birth slot, by name: the header's constant, the C
  /// struct's member, and the Swift property.
  static func slotFields() -> [(String, Int, PartialKeyPath<Slot>, WritableKeyPath<GPUBirthSlot, UInt32>)] {
    [
      ("birthKeyLow", SLEET_SLOT_BIRTH_KEY_LOW, \.birthKeyLow, \.birthKeyLow),
      ("birthKeyHigh", SLEET_SLOT_BIRTH_KEY_HIGH, \.birthKeyHigh, \.birthKeyHigh),
      ("deathKeyLow", SLEET_SLOT_DEATH_KEY_LOW, \.deathKeyLow, \.deathKeyLow),
      ("deathKeyHigh", SLEET_SLOT_DEATH_KEY_HIGH, \.deathKeyHigh, \.deathKeyHigh),
      ("birthHigh", SLEET_SLOT_BIRTH_HIGH, \.birthHigh, \.birthHigh.bits),
      ("birthLow", SLEET_SLOT_BIRTH_LOW, \.birthLow, \.birthLow.bits),
      ("inverseLifetime", SLEET_SLOT_INVERSE_LIFETIME, \.inverseLifetime, \.inverseLifetime.bits),
      ("constantsRow", SLEET_SLOT_CONSTANTS_ROW, \.constantsRow, \.constantsRow),
      ("positionX", SLEET_SLOT_POSITION_X, \.positionX, \.positionX.bits),
      ("positionY", SLEET_SLOT_POSITION_Y, \.positionY, \.positionY.bits),
      ("positionZ", SLEET_SLOT_POSITION_Z, \.positionZ, \.positionZ.bits),
      ("scale", SLEET_SLOT_SCALE, \.scale, \.scale.bits),
      ("velocityX", SLEET_SLOT_VELOCITY_X, \.velocityX, \.velocityX.bits),
      ("velocityY", SLEET_SLOT_VELOCITY_Y, \.velocityY, \.velocityY.bits),
      ("velocityZ", SLEET_SLOT_VELOCITY_Z, \.velocityZ, \.velocityZ.bits),
      ("spin", SLEET_SLOT_SPIN, \.spin, \.spin.bits),
      ("red", SLEET_SLOT_RED, \.red, \.red.bits),
      ("green", SLEET_SLOT_GREEN, \.green, \.green.bits),
      ("blue", SLEET_SLOT_BLUE, \.blue, \.blue.bits),
      ("alpha", SLEET_SLOT_ALPHA, \.alpha, \.alpha.bits),
      ("idLow", SLEET_SLOT_ID_LOW, \.idLow, \.idLow),
      ("idHigh", SLEET_SLOT_ID_HIGH, \.idHigh, \.idHigh),
      ("lifetime", SLEET_SLOT_LIFETIME, \.lifetime, \.lifetime.bits),
      ("reserved", SLEET_SLOT_RESERVED, \.reserved, \.reserved),
    ]
  }

  /// std430 packs a struct of 4-byte scalars in order, each at the next
  /// 4-byte boundary, the array stride their total: the slot's fields are
  /// 4 bytes each, at 0, 4, 8, …, and the Swift struct's stride is their
  /// total.
  @Test func birthSlotIsStd430Packed() {
    let fields = Self.slotFields()
    let offsets = fields.map(\.1).sorted()
    #expect(offsets == Array(stride(from: 0, to: 4 * fields.count, by: 4)))
    #expect(
      MemoryLayout<GPUBirthSlot>.size == 4 * fields.count && MemoryLayout<GPUBirthSlot>.stride == 4 * fields.count)
    #expect(MemoryLayout<Slot>.alignment == 4)
  }

  /// The slot's fields written through Swift are at the header's offsets,
  /// bytes written there come back through Swift, and the sizes agree.
  @Test func birthSlotFieldsAreAtTheHeadersOffsets() {
    let fields = Self.slotFields()
    #expect(MemoryLayout<GPUBirthSlot>.size == MemoryLayout<Slot>.size)
    #expect(MemoryLayout<GPUBirthSlot>.stride == SLEET_SLOT_BYTES && GPUBirthSlot.byteCount == SLEET_SLOT_BYTES)
    #expect(Set(fields.map(\.1)).count == fields.count)
    #expect(fields.count * 4 == SLEET_SLOT_BYTES)
    var slot = BirthRing.emptySlot
    for (i, (name, constant, cField, swiftField)) in fields.enumerated() {
      #expect(constant == Self.offset(cField), "\(name)")
      slot[keyPath: swiftField] = 0x4100_0000 + UInt32(i)
    }
    withUnsafeBytes(of: slot) { bytes in
      for (i, (name, constant, _, _)) in fields.enumerated() {
        #expect(bytes.load(fromByteOffset: constant, as: UInt32.self) == 0x4100_0000 + UInt32(i), "\(name)")
      }
    }
    var written = BirthRing.emptySlot
    withUnsafeMutableBytes(of: &written) { bytes in
      for (i, (_, constant, _, _)) in fields.enumerated() {
        bytes.storeBytes(of: 0x4200_0000 + UInt32(i), toByteOffset: constant, as: UInt32.self)
      }
    }
    for (i, (name, _, _, swiftField)) in fields.enumerated() {
      #expect(written[keyPath: swiftField] == 0x4200_0000 + UInt32(i), "\(name)")
    }
  }
}

extension Float {
  /// The bit pattern, writable: a `Float` field seen as a `UInt32` one.
  fileprivate var bits: UInt32 {
    get { bitPattern }
    set { self = Float(bitPattern: newValue) }
  }
}

extension ParticleInstance {
  /// Whether every field has the same bits.
  fileprivate func bitsEqual(_ other: ParticleInstance) -> Bool {
    withUnsafeBytes(of: self) { a in withUnsafeBytes(of: other) { b in a.elementsEqual(b) } }
  }
}
