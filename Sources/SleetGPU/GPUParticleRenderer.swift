import CGLES
import SleetParticles

/// A ``BirthDeltaStream``'s ring on the GPU and the closed-form shader
/// (``ParticleShader``) run over it through OpenGL ES 3.1: upload each step's
/// births (``upload(_:)``), evaluate at the stream's time (``evaluate(_:)``,
/// ``render(into:)``).
///
/// Buffers (shader storage, bindings as in the shader): 0 the ring,
/// `capacity` × 96 bytes; 1 the constants table, 64 bytes a row (uploaded
/// once); 2 the group sums; 3 the instances, `capacity` × 64 bytes; 4 the
/// sort keys, `capacity` × 16 bytes.
///
/// Single-owner (not `Sendable`), like its ``GPUContext``.
public final class GPUParticleRenderer {
  /// The EGL display and OpenGL ES context the shader runs in.
  public let context: GPUContext
  /// The birth-delta stream whose ring this renderer mirrors on the GPU.
  public let stream: BirthDeltaStream
  private var programs: [GLuint] = []
  private var buffers = [GLuint](repeating: 0, count: 5)
  private let groupsCapacity: Int
  /// `GL_MAX_SHADER_STORAGE_BLOCK_SIZE`.
  public let maximumBufferBytes: Int

  /// Builds the shader's three passes and the buffers for `stream`'s ring,
  /// uploads the constants table.
  /// - Throws: ``GPUError``: no EGL/GLES (from a new ``GPUContext``), a
  ///   shader build failure, a GL error.
  public init(stream: BirthDeltaStream, context: GPUContext? = nil) throws(GPUError) {
    let context = try Self.context(context)
    self.context = context
    self.stream = stream
    let groupsCapacity = (stream.capacity + ParticleShader.groupSize - 1) / ParticleShader.groupSize + 1
    self.groupsCapacity = groupsCapacity
    let constants = stream.constantsRows
    let capacity = stream.capacity
    var programs: [GLuint] = []
    var buffers = [GLuint](repeating: 0, count: 5)
    var limit: GLint64 = 0
    try context.withCurrent { () throws(GPUError) in
      for pass in 1...3 { programs.append(try Self.build(pass: pass)) }
      glGetInteger64v(GLenum(GL_MAX_SHADER_STORAGE_BLOCK_SIZE), &limit)
      glGenBuffers(5, &buffers)
      let sizes = [capacity * 96, constants.count * 4, groupsCapacity * 4, capacity * 64, capacity * 16]
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
  }

  deinit {
    let (programs, buffers) = (self.programs, self.buffers)
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
            GLenum(GL_SHADER_STORAGE_BUFFER), slot * 96, range.count * 96, bytes.baseAddress! + range.lowerBound * 96)
        }
      }
      try Self.check("upload")
    }
  }

  /// Runs the three passes for the frame `p` describes and returns the
  /// number of instances written (read back: 4 bytes). Blocks until the GPU
  /// is done.
  /// - Throws: ``GPUError/bufferTooLarge(bytes:limit:)`` when the ring does
  ///   not fit the driver's shader storage limit; a GL error.
  @discardableResult
  public func dispatch(_ p: GPUFrameParameters) throws(GPUError) -> Int {
    precondition(p.capacity == stream.capacity, "the parameters belong to another ring")
    let ringBytes = stream.capacity * 96
    if ringBytes > maximumBufferBytes { throw .bufferTooLarge(bytes: ringBytes, limit: maximumBufferBytes) }
    guard p.ringCount > 0 else { return 0 }
    let groups = (p.ringCount + ParticleShader.groupSize - 1) / ParticleShader.groupSize
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
    let n = try dispatch(p)
    var out = GPUEvaluation(
      instances: Array(repeating: ParticleInstance.zero, count: n), ids: Array(repeating: 0, count: n),
      depths: Array(repeating: 0, count: n))
    guard n > 0 else { return out }
    try context.withCurrent { () throws(GPUError) in
      try Self.read(buffers[3], offset: 0, bytes: n * 64) { source in
        out.instances.withUnsafeMutableBytes { $0.copyMemory(from: source) }
      }
      try Self.read(buffers[4], offset: 0, bytes: n * 16) { keys in
        let words = keys.bindMemory(to: UInt32.self)
        for i in 0..<n {
          out.ids[i] = UInt64(words[4 * i + 1]) << 32 | UInt64(words[4 * i])
          out.depths[i] = Float(bitPattern: words[4 * i + 2])
        }
      }
    }
    return out
  }

  /// Fills `frame` as ``ParticleSystem/render(into:)`` does, from the GPU's
  /// evaluation at the stream's current time (the render order's sort, when
  /// the mode needs one, runs on the host: ``BirthDeltaStream/finishFrame(_:parameters:into:)``).
  public func render(into frame: inout ParticleFrame) throws(GPUError) {
    let p = stream.frameParameters()
    stream.finishFrame(try evaluate(p), parameters: p, into: &frame)
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

  private static func build(pass: Int) throws(GPUError) -> GLuint {
    let shader = glCreateShader(GLenum(GL_COMPUTE_SHADER))
    defer { glDeleteShader(shader) }
    ParticleShader.source(pass: pass).withCString { source in
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
    return String(cString: buffer)
  }
}

extension ParticleInstance {
  /// Every field zero (a filler for read-back).
  static let zero = ParticleInstance(
    x: 0, y: 0, z: 0, scale: 0, color: .zero, contentsRect: .zero, rotation: 0, normalizedAge: 0, sprite: 0, cell: 0)
}
