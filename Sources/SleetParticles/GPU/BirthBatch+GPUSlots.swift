extension BirthBatch {
  /// Writes the ``GPUBirthSlot`` of every lane among the first `count` that
  /// is alive at local time `t` to `out`, in lane order, and returns how
  /// many it wrote: the batch kernel of the births-only stream's one-cell
  /// path (``ParticleSystem/appendAliveBirthSlots(after:at:into:records:)``).
  ///
  /// **Twin:** lane l's slot is bit for bit
  /// `GPUBirthSlot(record(l, p, node: node, birthTime: times[l]), constantsRow: constantsRow)`,
  /// written only when that record's ``BirthRecord/isAlive(at:)`` holds at
  /// `t` (a lane whose lifetime is ≤ 0 or NaN fails it, as it is skipped
  /// there). Tested lane by lane against that scalar path
  /// (`GPUSlotBatchTests`), and through the stream against the full-system
  /// source (`BirthsOnlyStreamTests`).
  ///
  /// **Why a batch kernel:** per record, a birth's slot costs several times
  /// its sampling: a 64-byte record per lane, an ulp search for the death
  /// time, a table look-up for the constants row and the slot's 24 scalar
  /// stores.
  /// Here the keys, the split birth time, `1 / lifetime` and the death time
  /// are eight lanes at once; only a lane whose death time `b + l` is not
  /// already the exact first dead time (see below) takes the scalar
  /// search.
  ///
  /// **Death time, vector part:** for each lane, with b the birth time and
  /// l the lifetime widened to `Double`, T = fl(b + l) is the answer of
  /// ``GPUBirthSlot/firstDeadTime(birthTime:lifetime:)`` exactly when
  /// fl(T − b) ≥ l and fl(T⁻ − b) < l, T⁻ being the next `Double` below T
  /// (that function's two loops then stop at once). T⁻ is
  /// `Double(bitPattern: T.bits − 1)`, which holds for finite T > 0 only,
  /// so lanes with T ≤ 0 or T not finite take the scalar search as well.
  ///
  /// **Memory:** `out` has room for 8 slots (all eight are written, then
  /// the alive ones moved to the front) and does not alias the batch.
  /// `constantsRow` is the row of the batch's cell and segment (one
  /// parameter set serves all lanes); `node` is the top-level cell.
  /// - Precondition: `count` in 1…8.
  @inline(__always)
  func writeAliveSlots(
    times: SIMD8<Double>, count: Int, at t: Double, node: Int, constantsRow: UInt32,
    to out: UnsafeMutablePointer<GPUBirthSlot>
  ) -> Int {
    precondition(count >= 1 && count <= 8, "a batch has 1…8 lanes")
    let life = SIMD8<Double>(lowHalf: SIMD4<Double>(lifetime.lowHalf), highHalf: SIMD4<Double>(lifetime.highHalf))
    // BirthRecord.isAlive(at:): age in [0, lifetime), in Double.
    let age = SIMD8<Double>(repeating: t) - times
    let alive = (age .>= 0) .& (age .< life)
    var mask = 0
    for l in 0..<count where alive[l] { mask |= 1 << l }
    guard mask != 0 else { return 0 }

    let birthKeys = Self.orderedKeys(times)
    // The death time: fl(b + l), accepted where it is already the first
    // dead time (see above); the other lanes get the scalar search.
    let death = times + life
    let below = unsafeBitCast(unsafeBitCast(death, to: SIMD8<UInt64>.self) &- 1, to: SIMD8<Double>.self)
    let exact =
      (death .> 0) .& (death .< .infinity) .& ((death - times) .>= life) .& ((below - times) .< life)
    var deathKeys = Self.orderedKeys(death)
    for l in 0..<count where mask & 1 << l != 0 && !exact[l] {
      deathKeys[l] = GPUBirthSlot.orderedKey(GPUBirthSlot.firstDeadTime(birthTime: times[l], lifetime: lifetime[l]))
    }
    let high = SIMD8<Float>(lowHalf: SIMD4<Float>(times.lowHalf), highHalf: SIMD4<Float>(times.highHalf))
    let highWide = SIMD8<Double>(lowHalf: SIMD4<Double>(high.lowHalf), highHalf: SIMD4<Double>(high.highHalf))
    let lowWide = times - highWide
    let low = SIMD8<Float>(lowHalf: SIMD4<Float>(lowWide.lowHalf), highHalf: SIMD4<Float>(lowWide.highHalf))
    let inverse = 1 / lifetime

    let cell = UInt64(node) << 56
    @inline(__always) func slot(_ l: Int) -> GPUBirthSlot {
      let id = cell | UInt64(first &+ l)
      return GPUBirthSlot(
        birthKeyLow: UInt32(truncatingIfNeeded: birthKeys[l]),
        birthKeyHigh: UInt32(truncatingIfNeeded: birthKeys[l] >> 32),
        deathKeyLow: UInt32(truncatingIfNeeded: deathKeys[l]),
        deathKeyHigh: UInt32(truncatingIfNeeded: deathKeys[l] >> 32),
        birthHigh: high[l], birthLow: low[l], inverseLifetime: inverse[l], constantsRow: constantsRow,
        positionX: x[l], positionY: y[l], positionZ: z[l], scale: scale[l],
        velocityX: vx[l], velocityY: vy[l], velocityZ: vz[l], spin: spin[l],
        red: red[l], green: green[l], blue: blue[l], alpha: alpha[l],
        idLow: UInt32(truncatingIfNeeded: id), idHigh: UInt32(truncatingIfNeeded: id >> 32),
        lifetime: lifetime[l], reserved: 0)
    }
    // All eight lanes with constant lane numbers, so each lane read is a
    // register shuffle: a variable lane number made LLVM spill every vector
    // to the stack and reload one scalar per field (a store-forwarding
    // stall per slot). Then the dead lanes are squeezed out.
    out[0] = slot(0)
    out[1] = slot(1)
    out[2] = slot(2)
    out[3] = slot(3)
    out[4] = slot(4)
    out[5] = slot(5)
    out[6] = slot(6)
    out[7] = slot(7)
    if mask == (1 << count) - 1 { return count }
    var written = 0
    for l in 0..<count where mask & 1 << l != 0 {
      if written != l { out[written] = out[l] }
      written += 1
    }
    return written
  }

  /// ``GPUBirthSlot/orderedKey(_:)`` of eight times: the sign bit flipped
  /// for non-negative values, every bit for negative ones, as one XOR with
  /// `0 − sign | 1 << 63` (all ones for a negative value). Arithmetic, not
  /// `replacing(with:where:)`: SSE2 has no 64-bit lane compare, and that
  /// select became a store and reload per lane (the kernel's hottest
  /// lines in the first version).
  @inline(__always)
  static func orderedKeys(_ t: SIMD8<Double>) -> SIMD8<UInt64> {
    // Same size (64 bytes) and lane order: the lanes' bit patterns.
    let bits = unsafeBitCast(t, to: SIMD8<UInt64>.self)
    return bits ^ ((0 &- (bits &>> 63)) | (1 << 63))
  }
}
