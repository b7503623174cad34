import SleetMath

extension ParticleStore {
  /// Redraws the live lanes of block `b` whose cell has behaviors: the rows
  /// `out[o + lane]` that the closed form wrote (instance, affine, tracked
  /// z) are overwritten with the state after the behaviors
  /// (``CellTree/behaviorState(of:at:)``). Lanes of other cells keep the
  /// closed form's bits. Integrated motion resumes from each particle's
  /// cached grid point (``CellTree/integrators``, the same bits).
  ///
  /// Invariants: `alive` is the block's live-lane mask at `t`; `out` has
  /// rows `o..<o + 8` for the block's lanes (the target itself, or the
  /// block's scratch).
  /// - Complexity: O(live lanes × ``BehaviorProgram/state(of:at:mass:cache:)``).
  func applyBehaviors(
    block b: Int, alive: SIMD8<Int64>, at t: Double, tree: CellTree, into out: EvaluationTarget, at o: Int
  ) {
    // A block's lanes are mostly of one cell: its program is looked up
    // (and retained) once per run of lanes of the same cell.
    var cell = UInt32.max
    var cellProgram: BehaviorProgram?
    for lane in 0..<8 where alive[lane] != 0 {
      let r = record(at: b * 8 + lane)
      if r.cell != cell {
        cell = r.cell
        cellProgram = tree.nodes[Int(cell)].behaviors
      }
      guard let program = cellProgram else { continue }
      let mass = program.mass(of: r, segment: tree.segment(at: r.birthTime))
      write(program.state(of: r, at: t, mass: mass, cache: tree.integrators), of: r, at: t, into: out, row: o + lane)
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
