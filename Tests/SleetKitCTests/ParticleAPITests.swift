import Foundation
import SleetKitC
import SleetKitCHeader
import SleetMath
import SleetParticles
import Testing
import _SleetTestSupport

/// The effect and particle-system functions, called in-process: their
/// output against the Swift API's, and every error path (a status and a
/// message, never a trap).
@Suite("C API: effects and particle systems")
struct ParticleAPITests {
  /// An effect handle from JSON text, or the failure's status and message.
  static func effect(json: String) -> (OpaquePointer?, sleet_status, String) {
    var error = sleet_error()
    var effect: OpaquePointer?
    let bytes = Array(json.utf8)
    let status = bytes.withUnsafeBufferPointer {
      $0.withMemoryRebound(to: CChar.self) { sleet_effect_create_from_json($0.baseAddress, $0.count, &effect, &error) }
    }
    #expect(error.status == status)
    return (effect, status, message(error))
  }

  static func snowEffect() throws -> OpaquePointer {
    var error = sleet_error()
    var effect: OpaquePointer?
    #expect(sleet_effect_create_from_file(snowFile, &effect, &error) == SLEET_OK, "\(message(error))")
    #expect(sleet_effect_set_parameter(effect, "width", SnowCase.width, &error) == SLEET_OK, "\(message(error))")
    return try #require(effect)
  }

  static func system(_ effect: OpaquePointer, _ configure: (inout sleet_system_options) -> Void = { _ in })
    throws -> OpaquePointer
  {
    var options = sleet_system_options()
    sleet_system_options_init(&options)
    options.seed = SnowCase.seed
    options.has_seed = 1
    configure(&options)
    var error = sleet_error()
    var system: OpaquePointer?
    #expect(sleet_system_create(effect, &options, &system, &error) == SLEET_OK, "\(message(error))")
    return try #require(system)
  }

  /// Renders and copies (count first, then fill) the full instances.
  static func instances(_ system: OpaquePointer) -> [sleet_particle_instance] {
    var error = sleet_error()
    var count = 0
    #expect(sleet_system_render(system, &count, &error) == SLEET_OK)
    var out = [sleet_particle_instance](repeating: sleet_particle_instance(), count: count)
    var written = -1
    #expect(sleet_system_copy_instances(system, &out, count, &written, &error) == SLEET_OK, "\(message(error))")
    #expect(written == count)
    return out
  }

  @Test func versionIsTheLibraryVersion() {
    #expect(String(cString: sleet_version()) == SleetVersion.string)
  }

  @Test func framesAreTheSwiftAPIsBitForBit() throws {
    let expected = try swiftSnowFrames()
    let effect = try Self.snowEffect()
    defer { sleet_effect_destroy(effect) }
    let full = try Self.system(effect)
    let stepping = try Self.system(effect) { $0.threads = 3 }
    let compact = try Self.system(effect) { $0.layout = SLEET_LAYOUT_COMPACT }
    defer { [full, stepping, compact].forEach(sleet_system_destroy) }
    var error = sleet_error()
    for (n, time) in SnowCase.times.enumerated() {
      #expect(sleet_system_seek(full, time, &error) == SLEET_OK)
      #expect(firstDifference(bytes(Self.instances(full)), expected.full[n], stride: 64) == nil, "t = \(time)")
      #expect(sleet_system_advance(stepping, time, &error) == SLEET_OK)
      #expect(firstDifference(bytes(Self.instances(stepping)), expected.full[n], stride: 64) == nil, "t = \(time)")

      #expect(sleet_system_advance(compact, time, &error) == SLEET_OK)
      var count = 0
      #expect(sleet_system_render(compact, &count, &error) == SLEET_OK)
      var small = [sleet_compact_particle_instance](repeating: .init(), count: count)
      var written = 0
      #expect(sleet_system_copy_compact_instances(compact, &small, count, &written, &error) == SLEET_OK)
      #expect(firstDifference(bytes(small), expected.compact[n], stride: 32) == nil, "t = \(time)")
    }
    #expect(expected.full.last!.count > 64 * 100, "the last frame has particles")
  }

  @Test func theEffectsOwnSeedIsUsedWithoutHasSeed() throws {
    let text = try String(contentsOfFile: snowFile, encoding: .utf8)
    let (effect, status, text2) = Self.effect(json: text)
    #expect(status == SLEET_OK, "\(text2)")
    defer { sleet_effect_destroy(effect) }
    let system = try Self.system(try #require(effect)) { $0.has_seed = 0 }
    defer { sleet_system_destroy(system) }
    var error = sleet_error()
    #expect(sleet_system_seek(system, 12, &error) == SLEET_OK)
    let swift = try ParticleSystem(effect: Effect(json: text))
    swift.seek(to: 12)
    var frame = ParticleFrame()
    swift.render(into: &frame)
    #expect(bytes(Self.instances(system)) == bytes(frame.instances))
  }

  @Test func tablesAndBlendModeAreTheFrames() throws {
    let json = """
      {"format": 1, "renderMode": "additive", "emitterCells": [
        {"name": "rocket", "birthRate": 2, "lifetime": 3, "contents": "spark", "contentsScale": 2,
         "emitterCells": [{"name": "trail", "birthRate": 5, "lifetime": 1}]},
        {"name": "dust", "birthRate": 3, "lifetime": 2, "contents": "snowflake"}]}
      """
    let (made, status, text) = Self.effect(json: json)
    #expect(status == SLEET_OK, "\(text)")
    let effect = try #require(made)
    defer { sleet_effect_destroy(effect) }
    let system = try Self.system(effect)
    defer { sleet_system_destroy(system) }
    var error = sleet_error()
    var count = 0
    // Before the first render the tables are empty.
    #expect(sleet_system_sprite_count(system, &count, &error) == SLEET_OK && count == 0)
    #expect(sleet_system_seek(system, 2, &error) == SLEET_OK)
    let instances = Self.instances(system)
    let swift = try ParticleSystem(effect: Effect(json: json))
    swift.seek(to: 2)
    var frame = ParticleFrame()
    swift.render(into: &frame)
    #expect(bytes(instances) == bytes(frame.instances))

    var blend: Int32 = -1
    #expect(sleet_system_blend_mode(system, &blend, &error) == SLEET_OK && blend == SLEET_BLEND_ADDITIVE)
    #expect(sleet_system_sprite_count(system, &count, &error) == SLEET_OK && count == frame.sprites.count)
    var name = [CChar](repeating: 0, count: 64)
    for (i, sprite) in frame.sprites.enumerated() {
      var length = 0
      #expect(sleet_system_sprite_name(system, i, &name, name.count, &length, &error) == SLEET_OK)
      #expect(string(name) == sprite.name && length == sprite.name.utf8.count)
      var scale: Float = 0
      #expect(sleet_system_sprite_contents_scale(system, i, &scale, &error) == SLEET_OK)
      #expect(scale == frame.spriteContentsScales[i])
    }
    #expect(sleet_system_cell_count(system, &count, &error) == SLEET_OK && count == 3)
    var paths: [String] = []
    for i in 0..<count {
      var length = 0
      // Ask the length first (size 0), then fill.
      #expect(sleet_system_cell_path(system, i, nil, 0, &length, &error) == SLEET_OK)
      var buffer = [CChar](repeating: 1, count: length + 1)
      #expect(sleet_system_cell_path(system, i, &buffer, buffer.count, nil, &error) == SLEET_OK)
      paths.append(string(buffer))
    }
    #expect(paths == frame.cellPaths && paths == ["rocket", "rocket.trail", "dust"])
  }

  @Test func badJSONIsAnErrorNamingTheProblem() {
    let cases: [(String, String)] = [
      ("{\"format\": 1,", "invalid JSON at line 1, column 14"),
      ("[1, 2]", "expected the effect (a JSON object), got an array"),
      ("{\"format\": 2}", "format: unsupported version 2"),
      (
        "{\"format\": 1, \"emitterCells\": [{\"name\": \"a\", \"lifetime\": \"long\"}]}",
        "emitterCells[0].lifetime: expected a number, got the string 'long'"
      ),
      ("{\"format\": 1, \"emiterCells\": []}", "emiterCells"),
      (
        "{\"format\": 1, \"emitterCells\": [{\"name\": \"a\"}], "
          + "\"changes\": [{\"time\": 1, \"keyPath\": \"emitterCells.b.birthRate\", \"value\": 1}]}",
        "changes[0].keyPath"
      ),
      ("", "invalid JSON at line 1"),
    ]
    for (json, needle) in cases {
      let (effect, status, text) = Self.effect(json: json)
      #expect(status == SLEET_ERROR_INVALID_EFFECT, "\(json)")
      #expect(effect == nil)
      #expect(text.contains(needle), "\(json) → \(text)")
    }
  }

  @Test func unreadableFilesAreFileErrors() throws {
    let folder = makeTemporaryFolder(prefix: "sleet-capi")
    defer { removeTree(folder) }
    var error = sleet_error()
    var effect: OpaquePointer?
    #expect(sleet_effect_create_from_file(folder + "/missing.json", &effect, &error) == SLEET_ERROR_FILE)
    #expect(message(error) == "cannot read '\(folder)/missing.json': No such file or directory")
    #expect(sleet_effect_create_from_file(folder, &effect, &error) == SLEET_ERROR_FILE, "\(message(error))")
    let bad = folder + "/bad.json"
    try "{\"format\": 1, \"birthRate\": -2}".write(toFile: bad, atomically: true, encoding: .utf8)
    #expect(sleet_effect_create_from_file(bad, &effect, &error) == SLEET_ERROR_INVALID_EFFECT)
    #expect(message(error).hasPrefix("birthRate: must be ≥ 0"), "\(message(error))")
    let invalidUTF8: [CChar] = [CChar(bitPattern: 0xFF), 0x61, 0]
    #expect(sleet_effect_create_from_file(invalidUTF8, &effect, &error) == SLEET_ERROR_INVALID_ARGUMENT)
    #expect(message(error) == "path is not valid UTF-8")
    #expect(effect == nil)
  }

  @Test func nullArgumentsAreReportedNotDereferenced() throws {
    var error = sleet_error()
    var effect: OpaquePointer?
    var count = 0
    #expect(sleet_effect_create_from_json(nil, 0, &effect, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(message(error) == "json is NULL")
    #expect(sleet_effect_create_from_json("{}", 2, nil, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(message(error) == "out_effect is NULL")
    #expect(sleet_effect_create_from_file(nil, &effect, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(sleet_effect_set_parameter(nil, "width", 1, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(sleet_system_create(nil, nil, &effect, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(message(error) == "effect is NULL")
    for call in [sleet_system_seek, sleet_system_advance] {
      #expect(call(nil, 1, &error) == SLEET_ERROR_NULL_ARGUMENT && message(error) == "system is NULL")
      // And without an error record: the status alone.
      #expect(call(nil, 1, nil) == SLEET_ERROR_NULL_ARGUMENT)
    }
    #expect(sleet_system_render(nil, &count, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(sleet_system_copy_instances(nil, nil, 0, &count, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(sleet_system_copy_compact_instances(nil, nil, 0, &count, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(sleet_system_blend_mode(nil, nil, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(sleet_system_sprite_count(nil, &count, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(sleet_system_sprite_name(nil, 0, nil, 0, nil, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(sleet_system_sprite_contents_scale(nil, 0, nil, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(sleet_system_cell_count(nil, &count, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(sleet_system_cell_path(nil, 0, nil, 0, nil, &error) == SLEET_ERROR_NULL_ARGUMENT)
    // NULL is ignored by the destroy and init functions.
    sleet_effect_destroy(nil)
    sleet_system_destroy(nil)
    sleet_system_options_init(nil)

    let snow = try Self.snowEffect()
    defer { sleet_effect_destroy(snow) }
    let system = try Self.system(snow)
    defer { sleet_system_destroy(system) }
    #expect(sleet_system_render(system, nil, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(message(error) == "out_count is NULL")
    #expect(sleet_system_copy_instances(system, nil, 0, nil, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(message(error) == "out_written is NULL")
    #expect(sleet_system_copy_instances(system, nil, 5, &count, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(message(error) == "buffer (with capacity 5) is NULL")
    #expect(sleet_effect_set_parameter(snow, nil, 1, &error) == SLEET_ERROR_NULL_ARGUMENT)
    #expect(message(error) == "name is NULL")
  }

  @Test func handlesOfTheWrongKindAreRefused() throws {
    let effect = try Self.snowEffect()
    defer { sleet_effect_destroy(effect) }
    let system = try Self.system(effect)
    defer { sleet_system_destroy(system) }
    var error = sleet_error()
    var out: OpaquePointer?
    #expect(sleet_system_seek(effect, 1, &error) == SLEET_ERROR_INVALID_ARGUMENT)
    #expect(message(error) == "system is a sleet_effect, not a sleet_system")
    #expect(sleet_system_create(system, nil, &out, &error) == SLEET_ERROR_INVALID_ARGUMENT)
    #expect(message(error) == "effect is a sleet_system, not a sleet_effect")
    // Destroying through the wrong function is ignored: both stay usable.
    sleet_effect_destroy(system)
    sleet_system_destroy(effect)
    #expect(sleet_system_seek(system, 1, &error) == SLEET_OK)
    #expect(sleet_effect_set_parameter(effect, "width", 300, &error) == SLEET_OK)
  }

  @Test func timesMustBeFiniteAndWithinTheLimit() throws {
    let effect = try Self.snowEffect()
    defer { sleet_effect_destroy(effect) }
    let system = try Self.system(effect)
    defer { sleet_system_destroy(system) }
    var error = sleet_error()
    for time in [Double.nan, .infinity, -.infinity, -Double.nan, .signalingNaN] {
      for call in [sleet_system_seek, sleet_system_advance] {
        #expect(call(system, time, &error) == SLEET_ERROR_INVALID_ARGUMENT, "\(time)")
        #expect(message(error).hasPrefix("time must be finite, got "), "\(message(error))")
      }
    }
    for time in [1e300, Double.greatestFiniteMagnitude] {
      #expect(sleet_system_seek(system, time, &error) == SLEET_ERROR_TIME_OUT_OF_RANGE)
      #expect(message(error).contains("past this effect's limit of"), "\(message(error))")
    }
    // Any time before the start is fine and shows nothing.
    for time in [-1e300, -Double.greatestFiniteMagnitude, -0.0] {
      #expect(sleet_system_seek(system, time, &error) == SLEET_OK, "\(time): \(message(error))")
      #expect(Self.instances(system).isEmpty)
    }
    // The failed calls left the system usable.
    #expect(sleet_system_advance(system, 20, &error) == SLEET_OK && !Self.instances(system).isEmpty)
  }

  @Test func aSmallCapacityGetsThePrefixAndAnError() throws {
    let effect = try Self.snowEffect()
    defer { sleet_effect_destroy(effect) }
    let system = try Self.system(effect)
    defer { sleet_system_destroy(system) }
    var error = sleet_error()
    #expect(sleet_system_seek(system, 30, &error) == SLEET_OK)
    let all = Self.instances(system)
    #expect(all.count > 10)
    var some = [sleet_particle_instance](repeating: .init(), count: 10)
    var written = 0
    #expect(sleet_system_copy_instances(system, &some, 10, &written, &error) == SLEET_ERROR_CAPACITY)
    #expect(message(error) == "capacity 10 is less than the \(all.count) instances to copy")
    #expect(written == 10 && bytes(some) == bytes(Array(all.prefix(10))))
    // Capacity 0 with no buffer: nothing written, the same error.
    #expect(sleet_system_copy_instances(system, nil, 0, &written, &error) == SLEET_ERROR_CAPACITY && written == 0)
    // A capacity above the count (even SIZE_MAX) writes the count.
    var room = [sleet_particle_instance](repeating: .init(), count: all.count)
    #expect(sleet_system_copy_instances(system, &room, Int(bitPattern: UInt.max), &written, &error) == SLEET_OK)
    #expect(written == all.count && bytes(room) == bytes(all))
    // The wrong copy function for the layout.
    var compact = [sleet_compact_particle_instance](repeating: .init(), count: 1)
    #expect(sleet_system_copy_compact_instances(system, &compact, 1, &written, &error) == SLEET_ERROR_WRONG_LAYOUT)
    // Strings: too small a buffer gets "" and the length.
    var name = [CChar](repeating: 65, count: 4)
    var length = 0
    #expect(sleet_system_sprite_name(system, 0, &name, 4, &length, &error) == SLEET_ERROR_CAPACITY)
    #expect(name[0] == 0 && length == "snowflake".utf8.count)
    #expect(sleet_system_sprite_name(system, 1, &name, 4, &length, &error) == SLEET_ERROR_INVALID_ARGUMENT)
    #expect(message(error) == "index 1 is past the end of the 1 sprites")
    #expect(sleet_system_cell_path(system, -1, &name, 4, &length, &error) == SLEET_ERROR_INVALID_ARGUMENT)
  }

  @Test func optionsAreChecked() throws {
    let effect = try Self.snowEffect()
    defer { sleet_effect_destroy(effect) }
    var options = sleet_system_options()
    sleet_system_options_init(&options)
    #expect(options.threads == 1 && options.layout == SLEET_LAYOUT_FULL && options.budget == 4_000_000)
    #expect(options.has_seed == 0)
    let cases: [((inout sleet_system_options) -> Void, sleet_status, String)] = [
      ({ $0.threads = 0 }, SLEET_ERROR_INVALID_ARGUMENT, "options.threads must be in 1…1024, got 0"),
      ({ $0.threads = -3 }, SLEET_ERROR_INVALID_ARGUMENT, "options.threads"),
      ({ $0.threads = 5000 }, SLEET_ERROR_INVALID_ARGUMENT, "options.threads"),
      ({ $0.layout = 2 }, SLEET_ERROR_INVALID_ARGUMENT, "options.layout must be SLEET_LAYOUT_FULL (0)"),
      ({ $0.budget = 0 }, SLEET_ERROR_INVALID_ARGUMENT, "options.budget must be in 1…2147483647, got 0"),
      ({ $0.budget = 1 << 40 }, SLEET_ERROR_INVALID_ARGUMENT, "options.budget"),
      ({ $0.budget = 10 }, SLEET_ERROR_INVALID_EFFECT, "over the budget of 10"),
    ]
    for (change, status, needle) in cases {
      var o = options
      change(&o)
      var error = sleet_error()
      var system: OpaquePointer?
      #expect(sleet_system_create(effect, &o, &system, &error) == status, "\(needle)")
      #expect(message(error).contains(needle), "\(message(error))")
      #expect(system == nil)
    }
  }

  @Test func parametersAreCheckedByName() throws {
    let effect = try Self.snowEffect()
    defer { sleet_effect_destroy(effect) }
    var error = sleet_error()
    #expect(sleet_effect_set_parameter(effect, "width", 0.5, &error) == SLEET_ERROR_INVALID_ARGUMENT)
    #expect(message(error) == "parameters.width: must be ≥ 1, got 0.5")
    #expect(sleet_effect_set_parameter(effect, "width", .nan, &error) == SLEET_ERROR_INVALID_ARGUMENT)
    #expect(sleet_effect_set_parameter(effect, "depth", 1, &error) == SLEET_ERROR_INVALID_ARGUMENT)
    #expect(message(error) == "parameters.depth: no such parameter (parameters: width)")
  }

  @Test func longMessagesAreCutAtACharacterBoundary() throws {
    let effect = try Self.snowEffect()
    defer { sleet_effect_destroy(effect) }
    var error = sleet_error()
    // "parameters.x" is 12 bytes, then 2-byte characters: 1023 bytes would
    // end in the middle of one, so the message ends before it.
    let name = "x" + String(repeating: "é", count: 700)
    #expect(sleet_effect_set_parameter(effect, name, 1, &error) == SLEET_ERROR_INVALID_ARGUMENT)
    let raw = withUnsafeBytes(of: error.message) { Array($0.prefix { $0 != 0 }) }
    #expect(raw.count == 1022)
    #expect(String(validating: raw, as: UTF8.self) == "parameters.x" + String(repeating: "é", count: 505))
  }
}
