import SleetMath
import SleetShatter

extension Transition {
  /// The shatter styles: the batched ``ShatterTransition`` evaluates into the
  /// frame's ``ShatterFrame`` scratch, then the pieces become layers:
  ///
  /// 1. the backdrop: opaque black (checkerboard) or the whole to screen
  ///    (explode, glass break), as ``ShatterBackdrop`` says;
  /// 2. every piece in ascending depth, ties in piece order
  ///    (``ShatterFrame/drawOrder(into:)``), with its face's screen, its
  ///    texture corners, transform, projected corners, opacity and depth.
  ///    Pieces with a corner behind the eye (NaN) or fully transparent are
  ///    left out: they draw nothing.
  func _shatter(
    at time: Double, into frame: inout TransitionFrame, backend: TransformBackend, threads: Int
  ) {
    var pieces = frame._shatter!
    frame._shatter = nil  // keep the scratch uniquely referenced while it is written
    defer { frame._shatter = pieces }
    shatter!.evaluate(at: time, into: &pieces, backend: backend, threads: threads)
    frame.isComplete = pieces.isComplete
    let container = Rect(x: 0, y: 0, width: width, height: height)
    switch pieces.backdrop {
    case .black: frame.layers.append(_LayerGeometry.flat(.color(.black), frame: container))
    case .toSnapshot: frame.layers.append(_LayerGeometry.flat(.toScreen, frame: container))
    }
    pieces.drawOrder(into: &frame._order)
    let c = pieces.corners, t = pieces.textureCorners
    for index in frame._order {
      let i = Int(index)
      let state = pieces.pieces[i]
      let k = 4 * i
      let corners = Quad2D(topLeft: c[k], topRight: c[k + 1], bottomRight: c[k + 2], bottomLeft: c[k + 3])
      guard corners.isFinite, state.opacity > 0 else { continue }
      frame.layers.append(
        TransitionLayer(
          content: state.face == .from ? .fromScreen : .toScreen,
          textureCorners: Quad2D(topLeft: t[k], topRight: t[k + 1], bottomRight: t[k + 2], bottomLeft: t[k + 3]),
          corners: corners, transform: pieces.transforms[i], opacity: state.opacity, depth: state.depth))
    }
  }
}
