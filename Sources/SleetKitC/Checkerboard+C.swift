// The sleet_checkerboard functions of sleetkit.h.
import SleetKitCHeader
import SleetShatter

/// The object behind a `sleet_checkerboard *`. Immutable: any thread may
/// read it concurrently.
final class CheckerboardHandle: CHandle {
  override class var typeName: String { "sleet_checkerboard" }
  let plan: CheckerboardPlan

  init(_ plan: CheckerboardPlan) {
    self.plan = plan
  }
}

@c @implementation
public func sleet_checkerboard_options_init(_ options: UnsafeMutablePointer<sleet_checkerboard_options>?) {
  guard let options else { return }
  options.pointee = sleet_checkerboard_options(
    direction: nil, divisor: Int32(CheckerboardPlan.defaultDivisor), duration: CheckerboardPlan.defaultDuration,
    spacing: CheckerboardPlan.defaultSpacing)
}

@c @implementation
public func sleet_checkerboard_create(
  _ width: Double, _ height: Double, _ options: UnsafePointer<sleet_checkerboard_options>?,
  _ outPlan: UnsafeMutablePointer<OpaquePointer?>?, _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let out = try required(outPlan, "out_plan")
    var o = sleet_checkerboard_options()
    sleet_checkerboard_options_init(&o)
    if let options { o = options.pointee }
    var direction = ShatterDirection.push
    if let name = o.direction {
      let text = try string(name, "options.direction")
      guard let d = ShatterDirection(rawValue: text) else {
        throw .invalid("options.direction must be \"push\" or \"pop\", got \"\(text)\"")
      }
      direction = d
    }
    let divisor = Int(o.divisor)
    // CheckerboardPlan.init traps on what validate throws for: check first.
    do throws(ShatterPlanError) {
      try CheckerboardPlan.validate(
        width: width, height: height, divisor: divisor, duration: o.duration, spacing: o.spacing)
    } catch {
      throw .invalid(error.description)
    }
    let plan = CheckerboardPlan(
      width: width, height: height, direction: direction, divisor: divisor, duration: o.duration, spacing: o.spacing)
    out.pointee = CheckerboardHandle(plan).retainedPointer()
  }
}

@c @implementation
public func sleet_checkerboard_destroy(_ plan: OpaquePointer?) {
  destroy(plan, CheckerboardHandle.self)
}

@c @implementation
public func sleet_checkerboard_get_info(
  _ plan: OpaquePointer?, _ outInfo: UnsafeMutablePointer<sleet_checkerboard_info>?,
  _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let plan = try handle(plan, CheckerboardHandle.self, "plan").plan
    try required(outInfo, "out_info").pointee = sleet_checkerboard_info(
      tile_side: plan.slice, tile_duration: plan.tileDuration, end_time: plan.endTime, duration: plan.duration,
      columns: plan.columns, rows: plan.rows, tile_count: plan.tileCount)
  }
}

@c @implementation
public func sleet_checkerboard_copy_tiles(
  _ plan: OpaquePointer?, _ buffer: UnsafeMutablePointer<sleet_checkerboard_tile>?, _ capacity: Int,
  _ outWritten: UnsafeMutablePointer<Int>?, _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let plan = try handle(plan, CheckerboardHandle.self, "plan").plan
    let written = try required(outWritten, "out_written")
    let capacity = count(capacity)
    if capacity > 0 && buffer == nil { throw .null("buffer (with capacity \(capacity))") }
    let n = min(plan.tileCount, capacity)
    if let buffer {
      // Row-major, computed tile by tile (no allocation). Safe: the buffer
      // holds `capacity` ≥ n tiles.
      for i in 0..<n {
        let (row, column) = i.quotientAndRemainder(dividingBy: plan.columns)
        buffer[i] = sleet_checkerboard_tile(
          delay: plan.delay(column: column, row: row), duration: plan.duration(column: column, row: row),
          column: Int32(column), row: Int32(row))
      }
    }
    written.pointee = n
    if n < plan.tileCount {
      throw CFailure(SLEET_ERROR_CAPACITY, "capacity \(capacity) is less than the \(plan.tileCount) tiles to copy")
    }
  }
}
