import CGLES
import SleetParticles

/// A ``BirthDeltaStream``'s ring on the GPU and the closed-form shader
/// (``ParticleShader``) run over it through OpenGL ES 3.1: upload each step's
/// births (``upload(_:)``), evaluate at the stream's time (``evaluate(_:)``,
/// ``render(into:)``).
///
/// Buffers (shader storage, bindings as in the shader): 0 the ring,
/// `capacity` × ``GPUBirthSlot/byteCount`` bytes; 1 the constants table
/// (rows of `sleet_constants_row`, `Sources/CSleetKernels/sleet_layout.h`;
/// uploaded once); 2 the group sums; 3 the instances, `capacity` × 64 bytes (the
/// compact layout uses the first half); 4 the sort keys, `capacity` × 16
/// bytes.
///
/// **Layouts.** ``render(into:)`` fills the frame's ``ParticleFrame/instances``
/// or, for ``ParticleSystemConfiguration/InstanceLayout/compact``, its
/// ``ParticleFrame/compactInstances`` (``instanceLayout``: by default the
/// stream's system's `configuration.instanceLayout`, as the CPU `render`
/// chooses). The compact pass-3 program writes the 32-byte layout itself, so
/// the read-back is halved too.
///
/// Single-owner (not `Sendable`), like its ``GPUContext``.
public final class GPUParticleRenderer {
  /// The EGL display and OpenGL ES context the shader runs in.
  public let context: GPUContext
  /// The birth-delta stream whose ring this renderer mirrors on the GPU.
  public let stream: BirthDeltaStream
  private var programs: [GLuint] = []
  /// Pass 3 for the compact layout, built on first use.
  private var compactProgram: GLuint?
  /// Which instances ``render(into:)`` fills: ``ParticleFrame/instances``
  /// (`.full`) or ``ParticleFrame/compactInstances`` (`.compact`).
  public let instanceLayout: ParticleSystemConfiguration.InstanceLayout
  private var buffers = [GLuint](repeating: 0, count: 5)
  private let groupsCapacity: Int
  /// `GL_MAX_SHADER_STORAGE_BLOCK_SIZE`.
  public let maximumBufferBytes: Int

  /// Builds the shader's three passes and the buffers for `stream`'s ring,
  /// uploads the constants table. `instanceLayout` (default: the stream's
  /// system's `configuration.instanceLayout`) is what ``render(into:)``
  /// fills.
  /// - Throws: ``GPUError``: no EGL/GLES (from a new ``GPUContext``), a
  ///   shader build failure, a GL error; an effect with emitter behaviors
  ///   (``GPUError/behaviorsNotSupported(cells:)``), checked first.
  public init(
    stream: BirthDeltaStream, context: GPUContext? = nil,
    instanceLayout: ParticleSystemConfiguration.InstanceLayout? = nil
  ) throws(GPUError) {
    let behaviorCells = stream.system.behaviorCellPaths
    guard behaviorCells.isEmpty else { throw .behaviorsNotSupported(cells: behaviorCells) }
    let context = try Self.context(context)
    self.context = context
    self.instanceLayout = instanceLayout ?? stream.system.configuration.instanceLayout
    self.stream = stream
    let groupsCapacity = (stream.capacity + ParticleShader.groupSize - 1) / ParticleShader.groupSize + 1
    self.groupsCapacity = groupsCapacity
    let constants = stream.constantsRows
    let capacity = stream.capacity
    var programs: [GLuint] = []
    var buffers = [GLuint](repeating: 0, count: 5)
    var limit: GLint64 = 0
    try context.withCurrent { () throws(GPUError) in
      for pass in 1...3 { programs.append(try Self.build(pass: pass, layout: .full)) }
      glGetInteger64v(GLenum(GL_MAX_SHADER_STORAGE_BLOCK_SIZE), &limit)
      glGenBuffers(5, &buffers)
      let sizes = [
        capacity * GPUBirthSlot.byteCount, constants.count * 4, groupsCapacity * 4, capacity * 64, capacity * 16,
      ]
      for (i, buffer) in buffers.enumerated() {
        glBindBuffer(GLenum(GL_SHADER_STORAGE_BUFFER), buffer)
        glBufferData(GLenum(GL_SHADER_STORAGE_BUFFER), sizes[i], nil, GLenum(GL_DYNAMIC_DRAW))
      }
      glBindBuffer(GLenum(GL_SHADER_STORAGE_BUFFER), buffers[1])
      constants.withUnsafeBytes { glBufferSubData(GLenum(GL_SHADER_STORAGE_BUFFER), 0, $0.count, $0.baseAddress) }
      try Self.check("buffer allocation")
    }
    self.programs = programs
    self.buffers = buffers
    maximumBufferBytes = Int(limit)
    if self.instanceLayout == .compact { _ = try compactPass() }
  }

  deinit {
    let (programs, buffers) = (self.programs + (compactProgram.map { [$0] } ?? []), self.buffers)
    try? context.withCurrent { () throws(GPUError) in
      for p in programs { glDeleteProgram(p) }
      glDeleteBuffers(GLsizei(buffers.count), buffers)
    }
  }

  /// Writes `delta`'s slots into the GPU ring (one or two `glBufferSubData`
  /// calls: O(births) bytes).
  public func upload(_ delta: BirthDelta) throws(GPUError) {
    let ranges = delta.uploadRanges(capacity: stream.capacity)
    guard !ranges.isEmpty else { return }
    try context.withCurrent { () throws(GPUError) in
      glBindBuffer(GLenum(GL_SHADER_STORAGE_BUFFER), buffers[0])
      delta.slots.withUnsafeBytes { bytes in
        for (slot, range) in ranges {
          glBufferSubData(
            GLenum(GL_SHADER_STORAGE_BUFFER), slot * GPUBirthSlot.byteCount, range.count * GPUBirthSlot.byteCount,
            bytes.baseAddress! + range.lowerBound * GPUBirthSlot.byteCount)
        }
      }
      try Self.check("upload")
    }
  }

  /// Runs the three passes for the frame `p` describes, pass 3 writing
  /// instances in `layout` (64 or 32 bytes each, at the start of the instance
  /// buffer), and returns the number of instances written (read back:
  /// 4 bytes). Blocks until the GPU is done.
  /// - Throws: ``GPUError/bufferTooLarge(bytes:limit:)`` when the ring does
  ///   not fit the driver's shader storage limit; a GL error.
  @discardableResult
  public func dispatch(
    _ p: GPUFrameParameters, layout: ParticleSystemConfiguration.InstanceLayout = .full
  ) throws(GPUError) -> Int {
    precondition(p.capacity == stream.capacity, "the parameters belong to another ring")
    let ringBytes = stream.capacity * GPUBirthSlot.byteCount
    if ringBytes > maximumBufferBytes { throw .bufferTooLarge(bytes: ringBytes, limit: maximumBufferBytes) }
    guard p.ringCount > 0 else { return 0 }
    let groups = (p.ringCount + ParticleShader.groupSize - 1) / ParticleShader.groupSize
    let programs = layout == .compact ? [self.programs[0], self.programs[1], try compactPass()] : self.programs
    return try context.withCurrent { () throws(GPUError) -> Int in
      for (binding, buffer) in buffers.enumerated() {
        glBindBufferBase(GLenum(GL_SHADER_STORAGE_BUFFER), GLuint(binding), buffer)
      }
      let flags = (p.flattensDepth ? 1 : 0) | (p.reversesOrder ? 2 : 0)
      for (i, program) in programs.enumerated() {
        glUseProgram(program)
        glUniform2ui(
          glGetUniformLocation(program, "timeKey"), GLuint(truncatingIfNeeded: p.timeKey),
          GLuint(truncatingIfNeeded: p.timeKey >> 32))
        glUniform2f(glGetUniformLocation(program, "timeSplit"), p.timeHigh, p.timeLow)
        glUniform4ui(
          glGetUniformLocation(program, "ring"), GLuint(p.ringStart), GLuint(p.ringCount), GLuint(p.capacity),
          GLuint(flags))
        glUniform1uiv(glGetUniformLocation(program, "hiddenCells"), 8, p.hiddenCells)
        glDispatchCompute(i == 1 ? 1 : GLuint(groups), 1, 1)
        glMemoryBarrier(GLbitfield(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT))
      }
      var total: UInt32 = 0
      try Self.read(buffers[2], offset: groups * 4, bytes: 4) { total = $0.load(as: UInt32.self) }
      try Self.check("dispatch")
      return Int(total)
    }
  }

  /// ``dispatch(_:)`` and the read-back of the instances and sort keys: the
  /// live, drawn particles at `p`'s time in ring order (reversed for
  /// `oldestLast`), as ``BirthRing/evaluate(_:constants:)`` gives them.
  public func evaluate(_ p: GPUFrameParameters) throws(GPUError) -> GPUEvaluation {
    let (instances, ids, depths) = try readBack(count: try dispatch(p), filler: ParticleInstance.zero)
    return GPUEvaluation(instances: instances, ids: ids, depths: depths)
  }

  /// The first `count` instances of the instance buffer (`Instance`'s
  /// stride: 64 or 32 bytes, the layout pass 3 wrote) and their sort keys
  /// (ids and tracked z), read back after a dispatch.
  private func readBack<Instance: BitwiseCopyable>(
    count n: Int, filler: Instance
  ) throws(GPUError) -> (instances: [Instance], ids: [UInt64], depths: [Float]) {
    var instances = Array(repeating: filler, count: n)
    var ids = [UInt64](repeating: 0, count: n)
    var depths = [Float](repeating: 0, count: n)
    guard n > 0 else { return (instances, ids, depths) }
    try context.withCurrent { () throws(GPUError) in
      try Self.read(buffers[3], offset: 0, bytes: n * MemoryLayout<Instance>.stride) { source in
        instances.withUnsafeMutableBytes { $0.copyMemory(from: source) }
      }
      try readSortKeys(n, ids: &ids, depths: &depths)
    }
    return (instances, ids, depths)
  }

  /// Reads the first `n` sort keys into `ids` and `depths` (count `n`; the
  /// context is current).
  private func readSortKeys(_ n: Int, ids: inout [UInt64], depths: inout [Float]) throws(GPUError) {
    try Self.read(buffers[4], offset: 0, bytes: n * 16) { keys in
      let words = keys.bindMemory(to: UInt32.self)
      for i in 0..<n {
        ids[i] = UInt64(words[4 * i + 1]) << 32 | UInt64(words[4 * i])
        depths[i] = Float(bitPattern: words[4 * i + 2])
      }
    }
  }

  /// The compact pass-3 program, built on first use.
  private func compactPass() throws(GPUError) -> GLuint {
    if let compactProgram { return compactProgram }
    let program = try context.withCurrent { () throws(GPUError) -> GLuint in
      try Self.build(pass: 3, layout: .compact)
    }
    compactProgram = program
    return program
  }

  /// Every field zero (a filler for read-back).
  private static let zeroCompact = CompactParticleInstance(ParticleInstance.zero)

  /// ``dispatch(_:layout:)`` with the compact pass and the read-back of the
  /// 32-byte instances and sort keys: as ``evaluate(_:)``, each instance
  /// packed as ``CompactParticleInstance/init(_:)`` packs the full one
  /// (`docs/gpu.md`).
  public func evaluateCompact(_ p: GPUFrameParameters) throws(GPUError) -> GPUCompactEvaluation {
    let (instances, ids, depths) = try readBack(count: try dispatch(p, layout: .compact), filler: Self.zeroCompact)
    return GPUCompactEvaluation(instances: instances, ids: ids, depths: depths)
  }

  /// Fills `frame` as ``ParticleSystem/render(into:)`` does, from the GPU's
  /// evaluation at the stream's current time, in ``instanceLayout`` (the
  /// render order's sort, when the mode needs one, runs on the host:
  /// ``BirthDeltaStream/finishFrame(_:parameters:into:)``).
  public func render(into frame: inout ParticleFrame) throws(GPUError) {
    let p = stream.frameParameters()
    guard instanceLayout == .compact else {
      stream.finishFrame(try evaluate(p), parameters: p, into: &frame)
      return
    }
    let e = try evaluateCompact(p)
    let n = e.instances.count
    guard p.needsHostSort else {
      // Already in render order: finishFrame fills the tables and the
      // batch from an evaluation of no instances (its batch is then
      // missing, added here).
      stream.finishFrame(GPUEvaluation(instances: [], ids: [], depths: []), parameters: p, into: &frame)
      frame.compactInstances = e.instances
      frame.ids = e.ids
      if n > 0 {
        frame.batches = [DrawBatch(range: 0..<n, blendMode: p.renderMode == .additive ? .additive : .sourceOver)]
      }
      return
    }
    // The CPU's own sort (ids, then tracked z), applied to full instances
    // that carry only their evaluation index (in `sprite`): the order is
    // the full layout's by construction.
    var carriers = Array(repeating: ParticleInstance.zero, count: n)
    for i in 0..<n { carriers[i].sprite = UInt32(i) }
    stream.finishFrame(GPUEvaluation(instances: carriers, ids: e.ids, depths: e.depths), parameters: p, into: &frame)
    frame.compactInstances.removeAll(keepingCapacity: true)
    frame.compactInstances.reserveCapacity(n)
    for carrier in frame.instances { frame.compactInstances.append(e.instances[Int(carrier.sprite)]) }
    frame.instances.removeAll()
  }

  /// Waits for every queued GPU command (for timing).
  public func finish() throws(GPUError) {
    try context.withCurrent { () throws(GPUError) in glFinish() }
  }

  /// `given`, or a new context.
  private static func context(_ given: GPUContext?) throws(GPUError) -> GPUContext {
    if let given { return given }
    return try GPUContext()
  }

  // MARK: - GL helpers (the context is current)

  private static func read(
    _ buffer: GLuint, offset: Int, bytes: Int, _ body: (UnsafeRawBufferPointer) -> Void
  ) throws(GPUError) {
    glBindBuffer(GLenum(GL_SHADER_STORAGE_BUFFER), buffer)
    guard let p = glMapBufferRange(GLenum(GL_SHADER_STORAGE_BUFFER), offset, bytes, GLbitfield(GL_MAP_READ_BIT))
    else { throw .gl(during: "glMapBufferRange", code: glGetError()) }
    body(UnsafeRawBufferPointer(start: p, count: bytes))
    glUnmapBuffer(GLenum(GL_SHADER_STORAGE_BUFFER))
  }

  private static func check(_ during: String) throws(GPUError) {
    let code = glGetError()
    if code != GLenum(GL_NO_ERROR) { throw .gl(during: during, code: code) }
  }

  private static func build(
    pass: Int, layout: ParticleSystemConfiguration.InstanceLayout
  ) throws(GPUError) -> GLuint {
    let shader = glCreateShader(GLenum(GL_COMPUTE_SHADER))
    defer { glDeleteShader(shader) }
    ParticleShader.source(pass: pass, layout: layout).withCString { source in
      var pointer: UnsafePointer<GLchar>? = source
      glShaderSource(shader, 1, &pointer, nil)
    }
    glCompileShader(shader)
    var ok: GLint = 0
    glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &ok)
    if ok == 0 { throw .shader(pass: pass, log: log { glGetShaderInfoLog(shader, $0, nil, $1) }) }
    let program = glCreateProgram()
    glAttachShader(program, shader)
    glLinkProgram(program)
    glGetProgramiv(program, GLenum(GL_LINK_STATUS), &ok)
    if ok == 0 {
      let text = log { glGetProgramInfoLog(program, $0, nil, $1) }
      glDeleteProgram(program)
      throw .shader(pass: pass, log: text)
    }
    return program
  }

  private static func log(_ get: (GLsizei, UnsafeMutablePointer<GLchar>) -> Void) -> String {
    var buffer = [GLchar](repeating: 0, count: 4096)
    buffer.withUnsafeMutableBufferPointer { get(4095, $0.baseAddress!) }
    // The log is NUL-terminated within the 4095 bytes the driver may write.
    let text = buffer.prefix { $0 != 0 }.map { UInt8(truncatingIfNeeded: $0) }
    return String(decoding: text, as: UTF8.self)
  }
}

extension ParticleInstance {
  /// Every field zero (a filler for read-back).
  static let zero = ParticleInstance(
    x: 0, y: 0, z: 0, scale: 0, color: .zero, contentsRect: .zero, rotation: 0, normalizedAge: 0, sprite: 0, cell: 0)
}

/// The live particles of the ring evaluated at one time in the compact
/// layout (``GPUParticleRenderer/evaluateCompact(_:)``), in ring order
/// (reversed for `oldestLast`), like `GPUEvaluation` for full instances.
public struct GPUCompactEvaluation: Sendable {
  /// The drawn particles, 32 bytes each.
  public var instances: [CompactParticleInstance]
  /// `ids[i]` is the ``ParticleID`` raw value of `instances[i]`.
  public var ids: [UInt64]
  /// `depths[i]` is the tracked z of `instances[i]` (the `backToFront` key).
  public var depths: [Float]

  /// An evaluation from its three parallel arrays.
  /// - Precondition: the arrays have the same count.
  public init(instances: [CompactParticleInstance], ids: [UInt64], depths: [Float]) {
    precondition(ids.count == instances.count && depths.count == instances.count, "parallel arrays")
    self.instances = instances
    self.ids = ids
    self.depths = depths
  }
}
