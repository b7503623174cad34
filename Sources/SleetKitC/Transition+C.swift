// The sleet_transition functions of sleetkit.h.
import SleetKitCHeader
import SleetMath
import SleetTransitions

/// The object behind a `sleet_transition *`: the transition and the frame
/// it evaluates into (the "count first" half; the copy reads it).
final class TransitionHandle: CHandle {
  override class var typeName: String { "sleet_transition" }
  let transition: Transition
  var frame: TransitionFrame

  init(_ transition: Transition) {
    self.transition = transition
    frame = transition.makeFrame()
  }
}

/// A C rect as SleetMath's, or nil for NULL.
private func rect(_ pointer: UnsafePointer<sleet_rect>?) -> Rect? {
  pointer.map { Rect(x: $0.pointee.x, y: $0.pointee.y, width: $0.pointee.width, height: $0.pointee.height) }
}

@c @implementation
public func sleet_transition_create(
  _ style: UnsafePointer<CChar>?, _ direction: UnsafePointer<CChar>?, _ width: Double, _ height: Double,
  _ options: UnsafePointer<sleet_transition_options>?, _ outTransition: UnsafeMutablePointer<OpaquePointer?>?,
  _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let styleName = try string(style, "style")
    let out = try required(outTransition, "out_transition")
    guard let style = TransitionStyle(rawValue: styleName) else {
      let names = TransitionStyle.allCases.map(\.rawValue).joined(separator: ", ")
      throw .invalid("unknown style \"\(styleName)\" (styles: \(names))")
    }
    var chosen: TransitionDirection?
    if let direction {
      let name = try string(direction, "direction")
      guard let d = TransitionDirection(rawValue: name) else {
        let names = TransitionDirection.allCases.map(\.rawValue).joined(separator: ", ")
        throw .invalid("unknown direction \"\(name)\" (directions: \(names))")
      }
      chosen = d
    }
    var swiftOptions = TransitionOptions()
    if let o = options?.pointee {
      swiftOptions = TransitionOptions(
        imageRect: rect(o.image_rect), targetRect: rect(o.target_rect), button: rect(o.button),
        divisor: o.has_divisor != 0 ? Int(o.divisor) : nil, seed: o.has_seed != 0 ? o.seed : nil)
    }
    // Transition.init checks every input (sizes, direction, options) and
    // throws rather than traps.
    let transition: Transition
    do throws(TransitionError) {
      transition = try Transition(
        style: style, direction: chosen, width: width, height: height, options: swiftOptions)
    } catch {
      throw CFailure(SLEET_ERROR_INVALID_TRANSITION, error.description)
    }
    out.pointee = TransitionHandle(transition).retainedPointer()
  }
}

@c @implementation
public func sleet_transition_destroy(_ transition: OpaquePointer?) {
  destroy(transition, TransitionHandle.self)
}

@c @implementation
public func sleet_transition_get_times(
  _ transition: OpaquePointer?, _ outDuration: UnsafeMutablePointer<Double>?,
  _ outEndTime: UnsafeMutablePointer<Double>?, _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let transition = try handle(transition, TransitionHandle.self, "transition").transition
    outDuration?.pointee = transition.duration
    outEndTime?.pointee = transition.endTime
  }
}

@c @implementation
public func sleet_transition_evaluate(
  _ transition: OpaquePointer?, _ time: Double, _ outLayerCount: UnsafeMutablePointer<Int>?,
  _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let box = try handle(transition, TransitionHandle.self, "transition")
    let time = try finite(time, "time")
    let out = try required(outLayerCount, "out_layer_count")
    box.transition.evaluate(at: time, into: &box.frame)
    out.pointee = box.frame.count
  }
}

extension sleet_transition_layer {
  /// The C form of a layer (every field converted exactly: Float stays
  /// Float, Double stays Double).
  init(_ layer: TransitionLayer) {
    self.init()
    let m = layer.transform
    transform = (
      m.row1.x, m.row1.y, m.row1.z, m.row1.w, m.row2.x, m.row2.y, m.row2.z, m.row2.w,
      m.row3.x, m.row3.y, m.row3.z, m.row3.w, m.row4.x, m.row4.y, m.row4.z, m.row4.w
    )
    corners = Self.floats(layer.corners)
    texture_corners = Self.floats(layer.textureCorners)
    switch layer.content {
    case .fromScreen: content = SLEET_CONTENT_FROM_SCREEN
    case .toScreen: content = SLEET_CONTENT_TO_SCREEN
    case .image: content = SLEET_CONTENT_IMAGE
    case .color(let c):
      content = SLEET_CONTENT_COLOR
      color = (c.red, c.green, c.blue, c.alpha)
    }
    if let r = layer.mask {
      has_mask = 1
      mask = sleet_rect(x: r.x, y: r.y, width: r.width, height: r.height)
    }
    opacity = layer.opacity
    depth = layer.depth
  }

  /// TL.x TL.y TR.x TR.y BR.x BR.y BL.x BL.y.
  private static func floats(_ q: Quad2D) -> (Float, Float, Float, Float, Float, Float, Float, Float) {
    (
      q.topLeft.x, q.topLeft.y, q.topRight.x, q.topRight.y, q.bottomRight.x, q.bottomRight.y, q.bottomLeft.x,
      q.bottomLeft.y
    )
  }
}

@c @implementation
public func sleet_transition_copy_layers(
  _ transition: OpaquePointer?, _ buffer: UnsafeMutablePointer<sleet_transition_layer>?, _ capacity: Int,
  _ outWritten: UnsafeMutablePointer<Int>?, _ error: UnsafeMutablePointer<sleet_error>?
) -> sleet_status {
  reporting(error) { () throws(CFailure) in
    let layers = try handle(transition, TransitionHandle.self, "transition").frame.layers
    let written = try required(outWritten, "out_written")
    let capacity = count(capacity)
    if capacity > 0 && buffer == nil { throw .null("buffer (with capacity \(capacity))") }
    let n = min(layers.count, capacity)
    if let buffer {
      // Safe: the buffer holds `capacity` ≥ n layers.
      for i in 0..<n { buffer[i] = sleet_transition_layer(layers[i]) }
    }
    written.pointee = n
    if n < layers.count {
      throw CFailure(SLEET_ERROR_CAPACITY, "capacity \(capacity) is less than the \(layers.count) layers to copy")
    }
  }
}
