extension ParticleSystem {
  /// The RK4 steps (``FixedStepIntegrator/stepCount(from:age:step:)`` from
  /// birth) that drawing the live set at the current time integrates with
  /// the integrator's cache off: the sum over the live particles whose
  /// cell's motion is integrated (``BehaviorProgram/Motion/integrated``); 0
  /// before the first seek or step. A benchmark divides a frame's time by
  /// it. Exact for forces without breakpoints (the benchmark's); a
  /// particle whose life spans breakpoints takes one more partial step per
  /// breakpoint.
  /// - Complexity: O(live particles).
  package var integratedStepCount: Int {
    guard let t = localTime else { return 0 }
    var steps = 0
    for r in liveRecords() {
      guard let program = tree.nodes[Int(r.cell)].behaviors, program.isIntegrated else { continue }
      steps += FixedStepIntegrator.stepCount(from: 0, age: t - r.birthTime)
    }
    return steps
  }
}
