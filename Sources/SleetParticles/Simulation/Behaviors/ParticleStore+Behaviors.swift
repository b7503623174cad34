import SleetMath

extension ParticleStore {
  /// Redraws the live lanes of block `b` whose cell has behaviors: the rows
  /// `out[o + lane]` that the closed form wrote (instance, affine, tracked
  /// z) are overwritten with the state after the behaviors
  /// (``CellTree/behaviorState(of:at:)``). Lanes of other cells keep the
  /// closed form's bits. The lanes whose motion is integrated are
  /// integrated side by side (``BehaviorProgram/integratedMotion(_:into:)``,
  /// the same bits).
  ///
  /// Invariants: `alive` is the block's live-lane mask at `t`; `out` has
  /// rows `o..<o + 8` for the block's lanes (the target itself, or the
  /// block's scratch).
  /// - Complexity: O(live lanes × ``BehaviorProgram/state(of:at:mass:)``).
  func applyBehaviors(
    block b: Int, alive: SIMD8<Int64>, at t: Double, tree: CellTree, into out: EvaluationTarget, at o: Int
  ) {
    withUnsafeTemporaryAllocation(of: IntegratedLane.self, capacity: 8) { lanes in
      withUnsafeTemporaryAllocation(of: (SIMD3<Double>, SIMD3<Double>).self, capacity: 8) { motions in
        // Each lane's record is read once: a lane of closed-form motion is
        // drawn at once, an integrated one after its lanes' integration.
        var integratedLane = SIMD8<Int32>(repeating: -1)
        var integrated = 0
        for lane in 0..<8 where alive[lane] != 0 {
          let r = record(at: b * 8 + lane)
          guard let program = tree.nodes[Int(r.cell)].behaviors else { continue }
          let mass = program.mass(of: r, segment: tree.segment(at: r.birthTime))
          if case .integrated = program.motion {
            (lanes.baseAddress! + integrated).initialize(
              to: IntegratedLane(program: program, record: r, mass: mass, age: t - r.birthTime))
            integratedLane[integrated] = Int32(lane)
            integrated += 1
          } else {
            write(program.state(of: r, at: t, mass: mass), of: r, at: t, into: out, row: o + lane)
          }
        }
        guard integrated > 0 else { return }
        defer { lanes.baseAddress!.deinitialize(count: integrated) }
        BehaviorProgram.integratedMotion(
          UnsafeBufferPointer(start: lanes.baseAddress!, count: integrated), into: motions.baseAddress!)
        for k in 0..<integrated {
          let r = lanes[k].record
          let s = lanes[k].program.state(of: r, at: t, position: motions[k].0, velocity: motions[k].1)
          write(s, of: r, at: t, into: out, row: o + Int(integratedLane[k]))
        }
      }
    }
  }

  /// Writes state `s` of particle `r` at `t` to row `row` of `out`
  /// (instance, affine, tracked z).
  private func write(_ s: BehaviorState, of r: BirthRecord, at t: Double, into out: EvaluationTarget, row: Int) {
    let a = Float(t - r.birthTime)
    let instance = ParticleInstance(
      x: s.position.x, y: s.position.y, z: out.flattensDepth ? 0 : s.position.z, scale: s.scale, color: s.color,
      contentsRect: r.contentsRect, rotation: s.rotation,
      normalizedAge: ClosedForm.normalizedAge(age: a, inverseLifetime: 1 / r.lifetime), sprite: r.sprite,
      cell: r.cell)
    if let compact = out.compact {
      compact[row] = CompactParticleInstance(instance)
    } else {
      out.instances[row] = instance
    }
    if let affines = out.affines {
      let (sine, cosine) = FastTrig.sinCos(SIMD4(repeating: s.rotation))
      let sc = s.scale * cosine[0]
      let ss = s.scale * sine[0]
      affines[row] = AffineTransform2D(a: sc, b: ss, c: -ss, d: sc, tx: s.position.x, ty: s.position.y)
    }
    if out.writesSortKeys { out.depths[row] = s.position.z }
  }
}
