import Dispatch
import SleetKitC
import SleetKitCHeader
import Synchronization
import Testing

/// What sleetkit.h promises about threads: different handles may be used on
/// different threads at once, systems may be made from one effect
/// concurrently, and a plan may be read concurrently. Each thread's output
/// must be what the same calls give on one thread.
@Suite("C API thread safety")
struct ThreadSafetyTests {
  /// A system of `effect` with seed `i` stepped through a few times, a
  /// transition evaluated at a few times, and the shared plan's tiles: every
  /// output as bytes, and every status.
  static func work(_ effect: OpaquePointer, _ plan: OpaquePointer, _ i: Int) -> (bytes: [UInt8], statuses: [Int32]) {
    var error = sleet_error()
    var statuses: [Int32] = []
    var out: [UInt8] = []
    var options = sleet_system_options()
    sleet_system_options_init(&options)
    options.seed = UInt32(i)
    options.has_seed = 1
    var system: OpaquePointer?
    statuses.append(sleet_system_create(effect, &options, &system, &error))
    var transition: OpaquePointer?
    statuses.append(sleet_transition_create("glassBreak", nil, 300, 500, nil, &transition, &error))
    for step in 0..<20 {
      let time = Double(step) * 0.75 + Double(i) * 0.1
      var count = 0
      var written = 0
      statuses.append(sleet_system_advance(system, time, &error))
      statuses.append(sleet_system_render(system, &count, &error))
      var instances = [sleet_particle_instance](repeating: .init(), count: count)
      statuses.append(sleet_system_copy_instances(system, &instances, count, &written, &error))
      out += bytes(instances)
      statuses.append(sleet_transition_evaluate(transition, time / 10, &count, &error))
      var layers = [sleet_transition_layer](repeating: .init(), count: count)
      statuses.append(sleet_transition_copy_layers(transition, &layers, count, &written, &error))
      out += bytes(layers)
    }
    var tiles = [sleet_checkerboard_tile](repeating: .init(), count: 220)
    var written = 0
    statuses.append(sleet_checkerboard_copy_tiles(plan, &tiles, tiles.count, &written, &error))
    out += bytes(tiles)
    sleet_transition_destroy(transition)
    sleet_system_destroy(system)
    return (out, statuses)
  }

  @Test func differentHandlesOnDifferentThreadsGiveTheSerialResults() throws {
    let effect = try ParticleAPITests.snowEffect()
    defer { sleet_effect_destroy(effect) }
    var plan: OpaquePointer?
    #expect(sleet_checkerboard_create(390, 844, nil, &plan, nil) == SLEET_OK)
    defer { sleet_checkerboard_destroy(plan) }
    let threads = 4
    let serial = (0..<threads).map { Self.work(effect, plan!, $0) }
    // Handles cross to the workers as addresses (pointers are not Sendable).
    let addresses = (Int(bitPattern: effect), Int(bitPattern: plan))
    let parallel = Mutex<[Int: (bytes: [UInt8], statuses: [Int32])]>([:])
    DispatchQueue.concurrentPerform(iterations: threads) { i in
      let result = Self.work(OpaquePointer(bitPattern: addresses.0)!, OpaquePointer(bitPattern: addresses.1)!, i)
      parallel.withLock { $0[i] = result }
    }
    let results = parallel.withLock { $0 }
    for i in 0..<threads {
      let result = try #require(results[i])
      #expect(serial[i].statuses.allSatisfy { $0 == SLEET_OK })
      #expect(result.statuses == serial[i].statuses)
      #expect(result.bytes == serial[i].bytes, "thread \(i)")
    }
    #expect(serial[0].bytes != serial[1].bytes, "the seeds differ")
  }
}
