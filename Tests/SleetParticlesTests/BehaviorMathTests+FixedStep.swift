import Testing

@testable import SleetParticles

/// ``FixedStepIntegrator`` against ``AxisMotion``'s closed form on the
/// linear laws, and its determinism.
extension BehaviorMathTests {
  /// Three axes in one: the integrator's acceleration and the closed form per axis.
  private static func integrate(
    _ axes: [Axis], age a: Double, step h: Double = FixedStepIntegrator.step
  ) -> (position: SIMD3<Double>, velocity: SIMD3<Double>) {
    FixedStepIntegrator.state(
      position: SIMD3(axes[0].p0, axes[1].p0, axes[2].p0), velocity: SIMD3(axes[0].v0, axes[1].v0, axes[2].v0),
      age: a, step: h
    ) { p, v, t in
      SIMD3(axes[0].acceleration(p.x, v.x, t), axes[1].acceleration(p.y, v.y, t), axes[2].acceleration(p.z, v.z, t))
    }
  }

  /// The largest position error over a 5-second life, sampled at 60 Hz.
  private static func largestError(_ axes: [Axis], step h: Double = FixedStepIntegrator.step) -> Double {
    var largest = 0.0
    for frame in 1...300 {
      let a = Double(frame) / 60
      let integrated = integrate(axes, age: a, step: h).position
      for (axis, value) in zip(axes, [integrated.x, integrated.y, integrated.z]) {
        largest = max(largest, abs(value - axis.state(at: a).position))
      }
    }
    return largest
  }

  static let springAxes = [
    Axis(p0: 50, v0: 200, λ: 2, κ: 80, c: 0),
    Axis(p0: -20, v0: -100, g: 300, λ: 2, κ: 80, c: 10),
    Axis(p0: 0, v0: 40, g: 300, λ: 2, κ: 80, c: -30),
  ]
  static let waveAxes = [
    Axis(
      p0: 0, v0: 50, λ: 2,
      waves: [
        WaveTerm(amplitude: 100, profile: WaveProfile(frequency: 0.5)),
        WaveTerm(amplitude: 60, profile: WaveProfile(frequency: 3)),
      ], T0: 1.25),
    Axis(p0: 0, v0: -80, g: 300, λ: 2, T0: 1.25),
    Axis(p0: 0, v0: 0, λ: 2, waves: [WaveTerm(amplitude: -40, profile: WaveProfile(frequency: 1.5))], T0: 1.25),
  ]

  /// At h = 1/240 s the integrator stays within its documented error of the
  /// closed form (drag 2 + spring 80 + gravity 300: ≤ 5·10⁻⁶ points, 3.0·10⁻⁶
  /// measured; drag 2 + waves: ≤ 10⁻⁸ points, 3.1·10⁻⁹ measured), and the error
  /// is fourth order in h.
  @Test func fixedStepMatchesClosedFormOnLinearLaws() {
    let spring = Self.largestError(Self.springAxes)
    let waves = Self.largestError(Self.waveAxes)
    #expect(spring <= 5e-6, "spring: \(spring)")
    #expect(waves <= 1e-8, "waves: \(waves)")
    let halved = Self.largestError(Self.springAxes, step: FixedStepIntegrator.step / 2)
    #expect(spring / halved > 12 && spring / halved < 20, "order: \(spring) / \(halved)")
  }

  /// A law outside the closed form (a spring that weakens with distance, whose
  /// stiffness changes over time): the acceleration the determinism tests use.
  private static func nonlinear(_ p: SIMD3<Double>, _ v: SIMD3<Double>, _ t: Double) -> SIMD3<Double> {
    let r = SIMD3(195, 422, -70) - p
    let d = (r * r).sum().squareRoot()
    let stiffness = 80 - 75 * min(t / 1.2, 1)
    let magnitude = stiffness * max(0, d - 30) - 2.9 * max(0, d - 300)
    return (d > 0 ? magnitude / d * r : .zero) - 1.5 * v + SIMD3(0, 300, 0)
  }

  /// state == resume(from: 0) bit for bit; resuming from any returned grid
  /// state reaches the same bits as integrating from birth, whatever the
  /// stepping; the grid point returned is the last one ≤ a.
  @Test func fixedStepIsAPureFunctionOfAge() {
    let p0 = SIMD3<Double>(10, 20, 0)
    let v0 = SIMD3<Double>(300, -450, 25)
    let h = FixedStepIntegrator.step
    for steps in [[1.0 / 60], [1.0 / 7], [0.013, 0.29, 1.0 / 240], [0.5]] {
      var cache = (gridPoint: 0, position: p0, velocity: v0)
      var a = 0.0
      var index = 0
      while a < 3 {
        a += steps[index % steps.count]
        index += 1
        let fromBirth = FixedStepIntegrator.state(position: p0, velocity: v0, age: a, acceleration: Self.nonlinear)
        let viaResume = FixedStepIntegrator.resume(
          from: 0, position: p0, velocity: v0, age: a, acceleration: Self.nonlinear)
        let resumed = FixedStepIntegrator.resume(
          from: cache.gridPoint, position: cache.position, velocity: cache.velocity, age: a,
          acceleration: Self.nonlinear)
        #expect(fromBirth.position == viaResume.position && fromBirth.velocity == viaResume.velocity, "age \(a)")
        #expect(fromBirth.position == resumed.position && fromBirth.velocity == resumed.velocity, "age \(a)")
        #expect(resumed.gridPoint == viaResume.gridPoint)
        #expect(resumed.gridPosition == viaResume.gridPosition && resumed.gridVelocity == viaResume.gridVelocity)
        #expect(Double(resumed.gridPoint) * h <= a && Double(resumed.gridPoint + 1) * h > a, "age \(a)")
        cache = (resumed.gridPoint, resumed.gridPosition, resumed.gridVelocity)
      }
    }
    // On a grid point the state is the grid state (no partial step).
    let onGrid = FixedStepIntegrator.resume(
      from: 0, position: p0, velocity: v0, age: Double(96) * h, acceleration: Self.nonlinear)
    #expect(onGrid.gridPoint == 96 && onGrid.position == onGrid.gridPosition && onGrid.velocity == onGrid.gridVelocity)
  }

  @Test func fixedStepGridAndStepCount() {
    let h = FixedStepIntegrator.step
    for k in 0...2000 {
      let a = Double(k) * h
      #expect(FixedStepIntegrator.gridPoint(atOrBefore: a) == k)
      #expect(FixedStepIntegrator.gridPoint(atOrBefore: a.nextDown) == max(k - 1, 0) || k == 0)
      #expect(FixedStepIntegrator.stepCount(from: 0, age: a) == k)
      #expect(FixedStepIntegrator.stepCount(from: 0, age: a + h / 3) == k + 1)
    }
    #expect(FixedStepIntegrator.stepCount(from: 100, age: 101.5 * h) == 2)
    var evaluations = 0
    _ = FixedStepIntegrator.state(position: .zero, velocity: .one, age: 10.5 * h) { _, _, _ in
      evaluations += 1
      return .zero
    }
    #expect(evaluations == 4 * 11)
  }
}
