import SleetMath

extension ParticleStore {
  /// Redraws the live lanes of block `b` whose cell has behaviors: the rows
  /// `out[o + lane]` that the closed form wrote (instance, affine, tracked
  /// z) are overwritten with the state after the behaviors
  /// (``CellTree/behaviorState(of:at:)``). Lanes of other cells keep the
  /// closed form's bits.
  ///
  /// Invariants: `alive` is the block's live-lane mask at `t`; `out` has
  /// rows `o..<o + 8` for the block's lanes (the target itself, or the
  /// block's scratch).
  /// - Complexity: O(live lanes × ``BehaviorProgram/state(of:at:mass:)``).
  func applyBehaviors(
    block b: Int, alive: SIMD8<Int64>, at t: Double, tree: CellTree, into out: EvaluationTarget, at o: Int
  ) {
    for lane in 0..<8 where alive[lane] != 0 {
      let r = record(at: b * 8 + lane)
      guard let s = tree.behaviorState(of: r, at: t) else { continue }
      let a = Float(t - r.birthTime)
      let instance = ParticleInstance(
        x: s.position.x, y: s.position.y, z: out.flattensDepth ? 0 : s.position.z, scale: s.scale, color: s.color,
        contentsRect: r.contentsRect, rotation: s.rotation,
        normalizedAge: ClosedForm.normalizedAge(age: a, inverseLifetime: 1 / r.lifetime), sprite: r.sprite,
        cell: r.cell)
      if let compact = out.compact {
        compact[o + lane] = CompactParticleInstance(instance)
      } else {
        out.instances[o + lane] = instance
      }
      if let affines = out.affines {
        let (sine, cosine) = FastTrig.sinCos(SIMD4(repeating: s.rotation))
        let sc = s.scale * cosine[0]
        let ss = s.scale * sine[0]
        affines[o + lane] = AffineTransform2D(a: sc, b: ss, c: -ss, d: sc, tx: s.position.x, ty: s.position.y)
      }
      if out.writesSortKeys { out.depths[o + lane] = s.position.z }
    }
  }
}
