import Testing

@testable import SleetMath

@Suite("TimingFunction (CAMediaTimingFunction)")
struct TimingFunctionTests {
  /// A reference solver: 200 bisection steps on x(t), then y(t).
  func reference(_ f: TimingFunction, _ x: Double) -> Double {
    func bez(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
      let u = 1 - t
      return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }
    var lo = 0.0
    var hi = 1.0
    for _ in 0..<200 {
      let mid = (lo + hi) / 2
      if bez(f.x1, f.x2, mid) < x { lo = mid } else { hi = mid }
    }
    return bez(f.y1, f.y2, (lo + hi) / 2)
  }

  @Test func namedCurvesHaveCoreAnimationControlPoints() {
    #expect(TimingFunction.easeInEaseOut == TimingFunction(controlPoints: 0.42, 0, 0.58, 1))
    #expect(TimingFunction.default == TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1))
    #expect(TimingFunction.easeIn == TimingFunction(controlPoints: 0.42, 0, 1, 1))
    #expect(TimingFunction.easeOut == TimingFunction(controlPoints: 0, 0, 0.58, 1))
    #expect(TimingFunction.named.count == 5)
  }

  @Test(arguments: [
    TimingFunction.linear, .easeIn, .easeOut, .easeInEaseOut, .default,
    TimingFunction(controlPoints: 0.9, -0.5, 0.1, 1.5), TimingFunction(controlPoints: 0.9, 0.1, 0.1, 0.9),
  ])
  func accurateToOneMillionth(_ f: TimingFunction) {
    for i in 0...2000 {
      let x = Double(i) / 2000
      #expect(abs(f.value(at: x) - reference(f, x)) < 1e-6, "x = \(x)")
    }
  }

  @Test func endpointsClampingAndSymmetry() {
    let f = TimingFunction.easeInEaseOut
    #expect(f.value(at: 0.0) == 0 && f.value(at: 1.0) == 1)
    #expect(f.value(at: -3.0) == 0 && f.value(at: 7.0) == 1)
    #expect(f.value(at: Double.nan).isNaN)
    #expect(abs(f.value(at: 0.5) - 0.5) < 1e-12)
    for x in stride(from: 0.0, through: 1.0, by: 0.01) {
      #expect(abs(f.value(at: x) + f.value(at: 1 - x) - 1) < 1e-9)
    }
    #expect(TimingFunction.linear.value(at: 0.3) == 0.3 || abs(TimingFunction.linear.value(at: 0.3) - 0.3) < 1e-12)
  }

  @Test func batchEqualsScalar() {
    let inputs = (0..<1000).map { Float($0) / 999 }
    let out = TimingFunction.default.values(at: inputs)
    for (x, y) in zip(inputs, out) {
      #expect(y == TimingFunction.default.value(at: x))
    }
  }
}
