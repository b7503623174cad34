/// The cells of a frame on which behaviors act, by reference: copying an
/// ``EvaluationTarget`` (once or twice per block of the lane-by-lane path)
/// copies one reference, not each of the tree's arrays.
final class BehaviorCells: Sendable {
  let tree: CellTree

  init(_ tree: CellTree) {
    self.tree = tree
  }
}

extension CellTree {
  /// Whether behaviors act on some cell's particles.
  var hasBehaviors: Bool { nodes.contains { $0.behaviors != nil } }

  /// The key-path prefix of the behaviors of the cell at `cellPath`
  /// (`rocket.spark` → `emitterCells.rocket.emitterCells.spark.emitterBehaviors.`).
  static func behaviorKeyPathPrefix(cellPath: String) -> String {
    "emitterCells." + cellPath.split(separator: ".").joined(separator: ".emitterCells.") + ".emitterBehaviors."
  }

  /// The drawn state of particle `r` at emitter time `t` after its cell's
  /// behaviors (``BehaviorProgram/state(of:at:mass:cache:)``); nil when none
  /// acts on its cell (its state is then ``ClosedForm``'s).
  /// - Complexity: as ``BehaviorProgram/state(of:at:mass:cache:)``.
  func behaviorState(of r: BirthRecord, at t: Double) -> BehaviorState? {
    guard let program = nodes[Int(r.cell)].behaviors else { return nil }
    return program.state(
      of: r, at: t, mass: program.mass(of: r, segment: segment(at: r.birthTime)), cache: integrators)
  }

  /// The drawn state of particle `r` at emitter time `t`: after its cell's
  /// behaviors, or the closed form's.
  func drawnState(of r: BirthRecord, at t: Double) -> BehaviorState {
    if let state = behaviorState(of: r, at: t) { return state }
    let a = Float(t - r.birthTime)
    return BehaviorState(
      position: r.position(age: a), velocity: r.velocity(age: a), scale: r.scale(age: a),
      rotation: r.rotation(age: a), color: r.color(age: a))
  }
}
