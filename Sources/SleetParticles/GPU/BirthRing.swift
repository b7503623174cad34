import CSleetKernels

/// A CPU copy of the GPU ring of a ``BirthDeltaStream``, and the reference
/// evaluation of it: the naive closed form, one slot at a time, which is
/// what the shader computes (`docs/gpu.md`). Evaluated with the `Double` age
/// the CPU uses, it gives `render(into:)`'s instances bit for bit (tested:
/// `BirthDeltaStreamTests`); the shader is compared with it.
public struct BirthRing: Sendable {
  /// The slots, `capacity` of them (stale outside the valid window).
  public private(set) var slots: [GPUBirthSlot]

  /// An empty ring of `capacity` slots.
  public init(capacity: Int) {
    precondition(capacity > 0, "a ring has at least one slot")
    slots = Array(repeating: Self.emptySlot, count: capacity)
  }

  /// Writes `delta`'s slots where the GPU buffer gets them.
  /// - Complexity: O(`delta.slots.count`).
  public mutating func apply(_ delta: BirthDelta) {
    for (slot, range) in delta.uploadRanges(capacity: slots.count) {
      for i in range { slots[slot + i - range.lowerBound] = delta.slots[i] }
    }
  }

  /// The live, drawn particles of the window `p` names, at `p`'s time, in
  /// ring order (reversed for `oldestLast`): per slot, alive by the death
  /// rule and its cell not hidden; age `Float(t − birthTime)` in `Double`
  /// as the CPU computes it; then the closed form (`ClosedForm`).
  /// - Complexity: O(`p.ringCount`).
  public func evaluate(_ p: GPUFrameParameters, constants: [Float]) -> GPUEvaluation {
    precondition(p.capacity == slots.count, "the parameters belong to a ring of another capacity")
    var out = GPUEvaluation(instances: [], ids: [], depths: [])
    for j in 0..<p.ringCount {
      let s = slots[(p.ringStart + j) % p.capacity]
      guard s.isAlive(atKey: p.timeKey) else { continue }
      // The row's fields at the lanes of `sleet_constants_row`.
      let row = Int(s.constantsRow) * ParticleConstantsTable.rowFloats
      @inline(__always) func lanes3(_ lane: Int) -> SIMD3<Float> {
        SIMD3(constants[row + lane], constants[row + lane + 1], constants[row + lane + 2])
      }
      @inline(__always) func lanes4(_ lane: Int) -> SIMD4<Float> {
        SIMD4(constants[row + lane], constants[row + lane + 1], constants[row + lane + 2], constants[row + lane + 3])
      }
      let cell = constants[row + SLEET_ROW_CELL].bitPattern
      if p.hiddenCells[Int(cell >> 5)] >> (cell & 31) & 1 != 0 { continue }
      let a = Float(p.localTime - s.birthTime)
      let h = lanes3(SLEET_ROW_HALF_ACCELERATION)
      let position = ClosedForm.position(
        s.position, s.velocity, h, age: SIMD3(repeating: a), ageSquared: SIMD3(repeating: a * a))
      let colorSpeed = lanes4(SLEET_ROW_COLOR_SPEED)
      out.instances.append(
        ParticleInstance(
          x: position.x, y: position.y, z: p.flattensDepth ? 0 : position.z,
          scale: ClosedForm.scale(s.scale, constants[row + SLEET_ROW_SCALE_SPEED], age: a),
          color: ClosedForm.color(s.color, colorSpeed, age: SIMD4(repeating: a)),
          contentsRect: lanes4(SLEET_ROW_CONTENTS_RECT),
          rotation: ClosedForm.rotation(s.spin, age: a),
          normalizedAge: ClosedForm.normalizedAge(age: a, inverseLifetime: s.inverseLifetime),
          sprite: constants[row + SLEET_ROW_SPRITE].bitPattern, cell: cell))
      out.ids.append(s.id)
      out.depths.append(position.z)
    }
    if p.reversesOrder {
      out.instances.reverse()
      out.ids.reverse()
      out.depths.reverse()
    }
    return out
  }

  /// A slot that is never alive (both keys 0).
  static let emptySlot = GPUBirthSlot(
    birthKeyLow: 0, birthKeyHigh: 0, deathKeyLow: 0, deathKeyHigh: 0, birthHigh: 0, birthLow: 0,
    inverseLifetime: 0, constantsRow: 0, positionX: 0, positionY: 0, positionZ: 0, scale: 0, velocityX: 0,
    velocityY: 0, velocityZ: 0, spin: 0, red: 0, green: 0, blue: 0, alpha: 0, idLow: 0, idHigh: 0, lifetime: 0,
    reserved: 0)
}
