import SleetBLAS
import SleetMath
import SleetShatter
import SleetTransitions
import Testing

// The shatter styles through `Transition`: the layers must be exactly what
// the shatter module's own `ShatterFrame` says, arranged as `docs/semantics.md`
// decides: the backdrop, then the visible pieces in ascending depth (ties in
// piece order). The order is worked out here from the piece streams, not
// with `ShatterFrame.drawOrder`.

@Suite("Shatter styles as transition layers")
struct ShatterStyleLayerTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var style: TransitionStyle
    var direction: TransitionDirection
    var divisor: Int?
    var seed: UInt64?
    var width = 390.0
    var height = 844.0
    var testDescription: String {
      "\(style) \(direction) divisor \(divisor.map(String.init) ?? "default") seed \(seed.map(String.init) ?? "default") \(Int(width))×\(Int(height))"
    }
  }

  static let cases: [Case] = [
    Case(style: .checkerboard, direction: .push),
    Case(style: .checkerboard, direction: .pop),
    Case(style: .checkerboard, direction: .push, divisor: 8, width: 1024, height: 768),
    Case(style: .explode, direction: .push),
    Case(style: .explode, direction: .push, divisor: 6, seed: 7, width: 1024, height: 768),
    Case(style: .glassBreak, direction: .push),
    Case(style: .glassBreak, direction: .push, divisor: 5, seed: 3),
  ]

  static func shatterStyle(_ style: TransitionStyle) -> ShatterStyle {
    switch style {
    case .checkerboard: .checkerboard
    case .explode: .explode
    default: .glassBreak
    }
  }

  /// The same transition made directly in SleetShatter.
  static func reference(_ c: Case) -> ShatterTransition {
    ShatterTransition(
      style: shatterStyle(c.style), width: c.width, height: c.height,
      direction: c.direction == .pop ? .pop : .push, divisor: c.divisor ?? 10, seed: c.seed ?? 0)
  }

  static func transition(_ c: Case) throws -> Transition {
    try Transition(
      style: c.style, direction: c.direction, width: c.width, height: c.height,
      options: TransitionOptions(divisor: c.divisor, seed: c.seed))
  }

  /// Times across the whole transition: before, at 0, inside, at the last
  /// landing (endTime), at D and after.
  static func times(_ t: ShatterTransition) -> [Double] {
    let d = t.duration
    return [-0.5, 0, 0.05 * d, 0.2 * d, 0.35 * d, 0.5 * d, 0.7 * d, 0.9 * d, t.endTime, d, d + 1]
  }

  /// The layers `docs/semantics.md` says a shatter frame becomes, built from
  /// the piece streams: backdrop first; then every piece whose four corners
  /// are finite and whose opacity is positive, sorted by (depth, index).
  static func expectedLayers(_ f: ShatterFrame) -> [TransitionLayer] {
    let container = Quad2D(x: 0, y: 0, width: Float(f.containerWidth), height: Float(f.containerHeight))
    let containerTransform = Transform3D(
      row1: SIMD4(Float(f.containerWidth), 0, 0, 0), row2: SIMD4(0, Float(f.containerHeight), 0, 0),
      row3: SIMD4(0, 0, 1, 0), row4: SIMD4(0, 0, 0, 1))
    let backdrop: TransitionContent = f.backdrop == .black ? .color(.black) : .toScreen
    var layers = [TransitionLayer(content: backdrop, corners: container, transform: containerTransform)]
    var visible: [Int] = []
    for i in 0..<f.count {
      let c = f.corners[(4 * i)..<(4 * i + 4)]
      let finite = c.allSatisfy { $0.x.isFinite && $0.y.isFinite }
      if finite && f.pieces[i].opacity > 0 { visible.append(i) }
    }
    visible.sort { a, b in
      let (da, db) = (f.pieces[a].depth, f.pieces[b].depth)
      return da != db ? da < db : a < b
    }
    for i in visible {
      let piece = f.piece(i)
      let c = piece.cornerArray, t = piece.textureCornerArray
      layers.append(
        TransitionLayer(
          content: piece.face == .from ? .fromScreen : .toScreen,
          textureCorners: Quad2D(topLeft: t[0], topRight: t[1], bottomRight: t[2], bottomLeft: t[3]),
          corners: Quad2D(topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3]),
          transform: piece.transform, opacity: piece.opacity, depth: piece.depth))
    }
    return layers
  }

  /// Bit-for-bit equality of two layers (Float `==` would let 0 equal −0).
  static func sameBits(_ a: TransitionLayer, _ b: TransitionLayer) -> Bool {
    func bits(_ q: Quad2D) -> [UInt32] {
      [q.topLeft, q.topRight, q.bottomRight, q.bottomLeft].flatMap { [$0.x.bitPattern, $0.y.bitPattern] }
    }
    return a.content == b.content && bits(a.corners) == bits(b.corners)
      && bits(a.textureCorners) == bits(b.textureCorners)
      && a.transform.entries.map(\.bitPattern) == b.transform.entries.map(\.bitPattern)
      && a.opacity.bitPattern == b.opacity.bitPattern && a.depth.bitPattern == b.depth.bitPattern
      && a.mask == b.mask
  }

  static func sameBits(_ a: [TransitionLayer], _ b: [TransitionLayer]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { sameBits($0, $1) }
  }

  @Test(arguments: ShatterStyleLayerTests.cases)
  func layersAreTheBackdropThenTheVisiblePiecesInAscendingDepth(_ c: Case) throws {
    let t = try Self.transition(c)
    let s = Self.reference(c)
    #expect(t.duration == s.duration && t.endTime == s.endTime)
    #expect(t.shatter != nil)
    for time in Self.times(s) {
      let frame = t.frame(at: time, backend: .scalar)
      let pieces = s.frame(at: time, backend: .scalar)
      let expected = Self.expectedLayers(pieces)
      #expect(frame.isComplete == pieces.isComplete && frame.time == time, "t = \(time)")
      #expect(frame.count == expected.count, "t = \(time): \(frame.count) layers, expected \(expected.count)")
      #expect(Self.sameBits(frame.layers, expected), "t = \(time)")
      // The backdrop: the black container (checkerboard) or the to screen.
      let backdrop = try #require(frame.layers.first)
      #expect(backdrop.content == (c.style == .checkerboard ? .color(.black) : .toScreen))
      #expect(backdrop.corners == Quad2D(x: 0, y: 0, width: Float(c.width), height: Float(c.height)))
      #expect(backdrop.opacity == 1 && backdrop.depth == 0 && backdrop.mask == nil)
      // The pieces: ascending depth, each with a finite quad and a positive opacity.
      let rest = frame.layers.dropFirst()
      #expect(zip(rest, rest.dropFirst()).allSatisfy { $0.depth <= $1.depth }, "t = \(time)")
      #expect(rest.allSatisfy { $0.corners.isFinite && $0.opacity > 0 && $0.mask == nil }, "t = \(time)")
      #expect(rest.allSatisfy { $0.content == .fromScreen || $0.content == .toScreen }, "t = \(time)")
    }
  }

  /// Facts of the styles that the layer list must show, known without
  /// evaluating: at 0 every piece lies flat on the from screen, so every piece
  /// is a layer, showing the from screen; explode fades each piece to 0, so
  /// at its end only the backdrop is left; the checkerboard ends with every
  /// tile showing the to screen.
  @Test(arguments: ShatterStyleLayerTests.cases)
  func startAndEnd(_ c: Case) throws {
    let t = try Self.transition(c)
    let s = Self.reference(c)
    let n = s.makeFrame().count
    let start = t.frame(at: 0).layers
    #expect(start.count == 1 + n)
    #expect(start.dropFirst().allSatisfy { $0.content == .fromScreen && $0.opacity == 1 })
    let end = t.frame(at: s.duration + 1).layers
    switch c.style {
    case .explode: #expect(end.count == 1)
    case .checkerboard:
      #expect(end.count == 1 + n)
      #expect(end.dropFirst().allSatisfy { $0.content == .toScreen })
    default: #expect(end.count == 1 + n)
    }
  }

  /// The same layers from the two modules for every backend and thread
  /// count, bit for bit; threads never change a bit; `scalar`, `simd` and
  /// `automatic` give the same bits. `blas` is documented to round
  /// differently (FMA, its own summation order: `TransformBackend`), so it is
  /// held to the shatter tests' corner tolerance instead, piece by piece.
  @Test(arguments: ShatterStyleLayerTests.cases)
  func sameBitsForEveryThreadCountAndBackendButBLAS(_ c: Case) throws {
    let t = try Self.transition(c)
    let s = Self.reference(c)
    var reused = t.makeFrame()
    for time in Self.times(s) {
      let reference = t.frame(at: time, backend: .scalar).layers
      for backend in TransformBackend.allCases {
        var single: [TransitionLayer]?
        for threads in [1, 3] {
          var frame = t.makeFrame()
          t.evaluate(at: time, into: &frame, backend: backend, threads: threads)
          let note = "t = \(time) \(backend) threads \(threads)"
          // Cross-module: the shatter module's own frame, same backend and threads.
          var pieces = s.makeFrame()
          s.evaluate(at: time, into: &pieces, backend: backend, threads: threads)
          #expect(Self.sameBits(frame.layers, Self.expectedLayers(pieces)), "ShatterFrame, \(note)")
          // A reused frame gives the same bits as a fresh one.
          t.evaluate(at: time, into: &reused, backend: backend, threads: threads)
          #expect(Self.sameBits(reused.layers, frame.layers), "reused, \(note)")
          // Threads never change a bit.
          if let single { #expect(Self.sameBits(frame.layers, single), "\(note) vs 1 thread") }
          single = frame.layers
          if backend == .blas {
            Self.expectClose(frame.layers, reference, tolerance: 1e-3 + 2e-6 * Float(max(c.width, c.height)), note)
          } else {
            #expect(Self.sameBits(frame.layers, reference), "\(note) vs scalar")
          }
        }
      }
    }
  }

  /// The same pieces (found by their texture corners, which name a piece)
  /// with corners and depth within `tolerance` points, the same face and
  /// opacity; the order ascending in depth either way.
  static func expectClose(
    _ layers: [TransitionLayer], _ reference: [TransitionLayer], tolerance: Float, _ note: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      layers.count == reference.count, "\(note): \(layers.count) layers vs \(reference.count)",
      sourceLocation: sourceLocation)
    guard layers.count == reference.count, let first = layers.first else { return }
    #expect(sameBits(first, reference[0]), "backdrop, \(note)", sourceLocation: sourceLocation)
    var byTexture: [[Float]: TransitionLayer] = [:]
    func key(_ l: TransitionLayer) -> [Float] {
      let q = l.textureCorners
      return [
        q.topLeft.x, q.topLeft.y, q.topRight.x, q.topRight.y, q.bottomRight.x, q.bottomRight.y, q.bottomLeft.x,
        q.bottomLeft.y,
      ]
    }
    for l in reference.dropFirst() { byTexture[key(l)] = l }
    var worst: Float = 0
    for l in layers.dropFirst() {
      guard let r = byTexture[key(l)] else {
        Issue.record(
          "\(note): a piece with texture corners \(key(l)) is not in the reference", sourceLocation: sourceLocation)
        continue
      }
      #expect(l.content == r.content && l.opacity == r.opacity, "\(note)", sourceLocation: sourceLocation)
      let a = [l.corners.topLeft, l.corners.topRight, l.corners.bottomRight, l.corners.bottomLeft]
      let b = [r.corners.topLeft, r.corners.topRight, r.corners.bottomRight, r.corners.bottomLeft]
      for (p, q) in zip(a, b) { worst = max(worst, abs(p.x - q.x), abs(p.y - q.y)) }
      worst = max(worst, abs(l.depth - r.depth))
    }
    #expect(worst <= tolerance, "\(note): differs from scalar by \(worst) pt", sourceLocation: sourceLocation)
    let rest = layers.dropFirst()
    #expect(zip(rest, rest.dropFirst()).allSatisfy { $0.depth <= $1.depth }, "\(note)", sourceLocation: sourceLocation)
  }

  /// Progress p maps to p·D, D the shatter transition's nominal duration.
  @Test func progressMapsOntoTheShatterDuration() throws {
    let t = try Transition(style: .checkerboard, width: 390, height: 844)
    #expect(t.duration == 3.0)
    var frame = t.makeFrame()
    t.evaluate(progress: 0.5, into: &frame)
    #expect(frame.time == 1.5)
    #expect(Self.sameBits(frame.layers, t.frame(at: 1.5).layers))
    t.evaluate(progress: 7, into: &frame)
    #expect(frame.time == 3.0)
    t.evaluate(progress: -1, into: &frame)
    #expect(frame.time == 0)
  }
}
