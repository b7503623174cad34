import Testing

@testable import SleetParticles

/// Every finite time gives the right particles or is refused up front by
/// `supports(time:)` with the limit in `maximumLocalTime`; stepping costs what
/// is alive, not what was born since the last frame.
@Suite("Time limits and step cost")
struct TimeLimitTests {
  /// A file that passes validation: 10¹⁵ births a second living 10⁻¹² s, so
  /// about 1000 alive at any time.
  func denseEffect() -> Effect {
    testEffect([testCell("dense", birthRate: 1e15, lifetime: 1e-12)])
  }

  @Test func limitIsTheSmallerOfTheIdAndResolutionBounds() throws {
    let dense = try ParticleSystem(effect: denseEffect())
    // Resolution: L·2⁴⁶ with L = Float(1e-12); ids: 2⁵⁶/R·(1 − 10⁻⁶).
    let resolution = Double(Float(1e-12)) * 0x1p46
    let ids = 0x1p56 / Double(Float(1e15)) * (1 - 1e-6)
    #expect(resolution < ids)
    #expect(dense.maximumLocalTime == resolution)
    #expect(dense.supports(time: 70))
    #expect(!dense.supports(time: 73))  // trapped in ParticleID.topLevel before
    #expect(dense.supports(time: -1e300))  // before the start: nothing, exactly

    let snow = try ParticleSystem(effect: Effect.preset(named: "snow"))
    #expect(!snow.supports(time: 1e16))
    #expect(!snow.supports(time: 1e18))
    #expect(snow.supports(time: 1e6))
    let silent = try ParticleSystem(effect: testEffect([testCell("off", birthRate: 0, lifetime: 1)]))
    #expect(silent.maximumLocalTime == .infinity)
  }

  @Test func layerTimingMapsTheLimitToParentTime() throws {
    // Local t = (T − 100)·2: T = 100 + limit/2 is the last supported time.
    let effect = testEffect([testCell("dense", birthRate: 1e15, lifetime: 1e-12)]) {
      $0.beginTime = 100
      $0.speed = 2
    }
    let system = try ParticleSystem(effect: effect)
    #expect(system.supports(time: 100 + system.maximumLocalTime / 2 - 1))
    #expect(!system.supports(time: 100 + system.maximumLocalTime / 2 + 1))
  }

  @Test func denseEffectNearTheLimitHasItsLiveParticles() throws {
    let system = try ParticleSystem(effect: denseEffect())
    system.seek(to: 60)
    // R·L = 1000 births in the last lifetime; time resolution at 60 s is
    // ulp(60) ≈ 7·10⁻¹⁵ s, so the count is right to a few dozen.
    #expect(abs(system.liveCount - 1000) < 50)
  }

  @Test func longStepsCostOnlyWhatIsStillAlive() throws {
    // Before: stepping 0 → 0.5 → 1 enumerated 10¹⁵ births (minutes); now
    // each step enumerates the last lifetime only, and matches seeking.
    let stepped = try ParticleSystem(effect: denseEffect())
    for t in [0, 0.5, 1.0, 10, 15] { stepped.advance(to: t) }
    let sought = try ParticleSystem(effect: denseEffect())
    sought.seek(to: 15)
    #expect(stepped.particles() == sought.particles())
    #expect(abs(sought.liveCount - 1000) < 50)
  }

  @Test func longStepsSkipDeadSubCellBirthsToo() throws {
    let effect = fireworksLikeEffect()
    let stepped = try ParticleSystem(effect: effect)
    for t in [0, 0.5, 7.0, 300.25] { stepped.advance(to: t) }
    let sought = try ParticleSystem(effect: effect)
    sought.seek(to: 300.25)
    #expect(stepped.particles() == sought.particles())
    #expect(!sought.particles().isEmpty)
  }
}
