// The sleet_system functions of sleetkit.h.
import SleetKitCHeader
import SleetParticles

/// The object behind a `sleet_system *`: the system and the frame it
/// renders into (the "count first" half; the copies read it).
final class SystemHandle: CHandle {
  override class var typeName: String { "sleet_system" }
  let system: ParticleSystem
  var frame = ParticleFrame()

  init(_ system: ParticleSystem) {
    self.system = system
  }

  var isCompact: Bool { system.configuration.instanceLayout == .compact }

  /// The number of instances of the last render.
  var count: Int { isCompact ? frame.compactInstances.count : frame.instances.count }

  /// Moves the system to `time` with `move` after the checks that
  /// `ParticleSystem.seek`/`advance` would otherwise trap on.
  func move(to time: Double, _ move: (ParticleSystem) -> (Double) -> Void) throws(CFailure) {
    let time = try finite(time, "time")
    guard system.supports(time: time) else {
      let local = system.localTime(for: time)
      let when = local == time ? "time \(time) s" : "time \(time) s (local time \(local) s)"
      throw CFailure(
        SLEET_ERROR_TIME_OUT_OF_RANGE, "\(when) is past this effect's limit of \(system.maximumLocalTime) s")
    }
    move(system)(time)
  }
}

/// Most worker threads a system may ask for (a guard against garbage in an
/// options struct, far above any useful count).
private let maximumThreads: Int32 = 1024

@c @implementation
public func sleet_system_options_init(_ options: UnsafeMutablePointer<sleet_system_options>?) {
  guard let options else { return }
  let defaults = ParticleSystemConfiguration()
  options.pointee = sleet_system_options(
    seed: 0, has_seed: 0, threads: Int32(defaults.threads), layout: SLEET_LAYOUT_FULL, budget: Int64(defaults.budget))
}

@c @implementation
public func sleet_system_create(
  _ effect: OpaquePointer?, _ options: UnsafePointer<sleet_system_options>?,
  _ outSystem: UnsafeMutablePointer<OpaquePointer?>?, _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let box = try handle(effect, EffectHandle.self, "effect")
    let out = try required(outSystem, "out_system")
    var o = sleet_system_options()
    sleet_system_options_init(&o)
    if let options { o = options.pointee }
    guard (1...maximumThreads).contains(o.threads) else {
      throw .invalid("options.threads must be in 1…\(maximumThreads), got \(o.threads)")
    }
    guard o.layout == SLEET_LAYOUT_FULL || o.layout == SLEET_LAYOUT_COMPACT else {
      throw .invalid(
        "options.layout must be SLEET_LAYOUT_FULL (0) or SLEET_LAYOUT_COMPACT (1), got \(o.layout)")
    }
    let maximumBudget = ParticleSystemConfiguration.maximumBudget
    guard o.budget >= 1 && o.budget <= Int64(maximumBudget) else {
      throw .invalid("options.budget must be in 1…\(maximumBudget), got \(o.budget)")
    }
    var effect = box.effect
    if o.has_seed != 0 { effect.seed = o.seed }
    let configuration = ParticleSystemConfiguration(
      budget: Int(o.budget), threads: Int(o.threads),
      instanceLayout: o.layout == SLEET_LAYOUT_COMPACT ? .compact : .full)
    let system: ParticleSystem
    do throws(ParticleSystemError) {
      system = try ParticleSystem(effect: effect, configuration: configuration)
    } catch {
      throw CFailure(SLEET_ERROR_INVALID_EFFECT, error.description)
    }
    out.pointee = SystemHandle(system).retainedPointer()
  }
}

@c @implementation
public func sleet_system_destroy(_ system: OpaquePointer?) {
  destroy(system, SystemHandle.self)
}

@c @implementation
public func sleet_system_seek(_ system: OpaquePointer?, _ time: Double, _ error: UnsafeMutablePointer<sleet_error>?)
  -> sleet_status
{
  reporting(error) { () throws(CFailure) in
    try handle(system, SystemHandle.self, "system").move(to: time, ParticleSystem.seek(to:))
  }
}

@c @implementation
public func sleet_system_advance(
  _ system: OpaquePointer?, _ time: Double, _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    try handle(system, SystemHandle.self, "system").move(to: time, ParticleSystem.advance(to:))
  }
}

@c @implementation
public func sleet_system_render(
  _ system: OpaquePointer?, _ outCount: UnsafeMutablePointer<Int>?, _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let box = try handle(system, SystemHandle.self, "system")
    let out = try required(outCount, "out_count")
    box.system.render(into: &box.frame)
    out.pointee = box.count
  }
}

@c @implementation
public func sleet_system_copy_instances(
  _ system: OpaquePointer?, _ buffer: UnsafeMutablePointer<sleet_particle_instance>?, _ capacity: Int,
  _ outWritten: UnsafeMutablePointer<Int>?, _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let box = try handle(system, SystemHandle.self, "system")
    guard !box.isCompact else {
      throw CFailure(
        SLEET_ERROR_WRONG_LAYOUT,
        "the system was made with SLEET_LAYOUT_COMPACT: use sleet_system_copy_compact_instances")
    }
    // ParticleInstance and sleet_particle_instance have the same 64 bytes
    // (the header's offsets; LayoutTests checks every field of both).
    try copyOut(
      box.frame.instances, to: buffer.map(UnsafeMutableRawPointer.init), capacity: capacity, written: outWritten,
      what: "instances")
  }
}

@c @implementation
public func sleet_system_copy_compact_instances(
  _ system: OpaquePointer?, _ buffer: UnsafeMutablePointer<sleet_compact_particle_instance>?, _ capacity: Int,
  _ outWritten: UnsafeMutablePointer<Int>?, _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let box = try handle(system, SystemHandle.self, "system")
    guard box.isCompact else {
      throw CFailure(
        SLEET_ERROR_WRONG_LAYOUT, "the system was made with SLEET_LAYOUT_FULL: use sleet_system_copy_instances")
    }
    // CompactParticleInstance and sleet_compact_particle_instance have the
    // same 32 bytes (LayoutTests).
    try copyOut(
      box.frame.compactInstances, to: buffer.map(UnsafeMutableRawPointer.init), capacity: capacity,
      written: outWritten, what: "instances")
  }
}

@c @implementation
public func sleet_system_blend_mode(
  _ system: OpaquePointer?, _ outBlendMode: UnsafeMutablePointer<Int32>?,
  _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let box = try handle(system, SystemHandle.self, "system")
    let out = try required(outBlendMode, "out_blend_mode")
    // A frame has one batch covering every instance, or none when empty.
    out.pointee = box.frame.batches.first?.blendMode == .additive ? SLEET_BLEND_ADDITIVE : SLEET_BLEND_SOURCE_OVER
  }
}

@c @implementation
public func sleet_system_sprite_count(
  _ system: OpaquePointer?, _ outCount: UnsafeMutablePointer<Int>?, _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let box = try handle(system, SystemHandle.self, "system")
    try required(outCount, "out_count").pointee = box.frame.sprites.count
  }
}

/// Entry `index` of a table, or INVALID_ARGUMENT naming the table's size.
private func entry<T>(_ table: [T], _ index: Int, _ what: String) throws(CFailure) -> T {
  guard index >= 0 && index < table.count else {
    throw .invalid("index \(UInt(bitPattern: index)) is past the end of the \(table.count) \(what)")
  }
  return table[index]
}

@c @implementation
public func sleet_system_sprite_name(
  _ system: OpaquePointer?, _ index: Int, _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int,
  _ outLength: UnsafeMutablePointer<Int>?, _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let box = try handle(system, SystemHandle.self, "system")
    let sprite = try entry(box.frame.sprites, index, "sprites")
    try copyOut(sprite.name, to: buffer, size: size, length: outLength)
  }
}

@c @implementation
public func sleet_system_sprite_contents_scale(
  _ system: OpaquePointer?, _ index: Int, _ outScale: UnsafeMutablePointer<Float>?,
  _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let box = try handle(system, SystemHandle.self, "system")
    let out = try required(outScale, "out_scale")
    out.pointee = try entry(box.frame.spriteContentsScales, index, "sprites")
  }
}

@c @implementation
public func sleet_system_cell_count(
  _ system: OpaquePointer?, _ outCount: UnsafeMutablePointer<Int>?, _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let box = try handle(system, SystemHandle.self, "system")
    try required(outCount, "out_count").pointee = box.frame.cellPaths.count
  }
}

@c @implementation
public func sleet_system_cell_path(
  _ system: OpaquePointer?, _ index: Int, _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int,
  _ outLength: UnsafeMutablePointer<Int>?, _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let box = try handle(system, SystemHandle.self, "system")
    let path = try entry(box.frame.cellPaths, index, "cells")
    try copyOut(path, to: buffer, size: size, length: outLength)
  }
}
