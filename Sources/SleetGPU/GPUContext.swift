import CEGL
import CGLES

/// Why the GPU path cannot run.
public enum GPUError: Error, Hashable, Sendable, CustomStringConvertible {
  /// EGL has no surfaceless platform (`EGL_MESA_platform_surfaceless`): no
  /// Mesa EGL (Debian's libegl-mesa0) is installed.
  case surfacelessPlatformUnavailable
  /// An EGL call failed; `call` names it, `code` is `eglGetError()`.
  case egl(call: String, code: Int32)
  /// No OpenGL ES 3.1 context could be made (no driver: Debian's
  /// libgl1-mesa-dri provides llvmpipe).
  case noOpenGLES31(code: Int32)
  /// A shader pass did not compile or link; `log` is the driver's log.
  case shader(pass: Int, log: String)
  /// An OpenGL ES call failed; `code` is `glGetError()`.
  case gl(during: String, code: UInt32)
  /// A buffer is larger than the driver lets a shader bind
  /// (`GL_MAX_SHADER_STORAGE_BLOCK_SIZE`).
  case bufferTooLarge(bytes: Int, limit: Int)
  /// The effect has emitter behaviors, which the shader does not evaluate
  /// (it evaluates the closed form of a cell without them); `cells` are the
  /// paths of the cells they act on.
  case behaviorsNotSupported(cells: [String])

  public var description: String {
    switch self {
    case .surfacelessPlatformUnavailable:
      "no GPU: EGL has no surfaceless platform (install Mesa's libegl-mesa0 and libgl1-mesa-dri)"
    case .egl(let call, let code): "no GPU: \(call) failed with EGL error 0x\(String(code, radix: 16))"
    case .noOpenGLES31(let code):
      "no GPU: no OpenGL ES 3.1 context (EGL error 0x\(String(code, radix: 16)); install libgl1-mesa-dri)"
    case .shader(let pass, let log): "the particle shader's pass \(pass) failed to build: \(log)"
    case .gl(let during, let code): "OpenGL ES error 0x\(String(code, radix: 16)) during \(during)"
    case .bufferTooLarge(let bytes, let limit):
      "a GPU buffer of \(bytes) bytes exceeds the driver's shader storage limit of \(limit) bytes"
    case .behaviorsNotSupported(let cells):
      "emitter behaviors act on \(cells.map { "'\($0)'" }.joined(separator: ", ")); the GPU path does not evaluate"
        + " behaviors: render on the CPU (without --gpu)"
    }
  }
}

/// An OpenGL ES 3.1 context on EGL's surfaceless display
/// (`EGL_PLATFORM_SURFACELESS_MESA`): no window, no X or Wayland, so it runs
/// headless, on Mesa's llvmpipe when there is no GPU.
///
/// Single-owner (not `Sendable`): every user of the context makes it current
/// on the calling thread for the duration of a call (``withCurrent(_:)``)
/// and releases it after, so the owner may move between threads.
public final class GPUContext {
  let display: EGLDisplay
  let context: EGLContext
  /// `GL_RENDERER` (e.g. "llvmpipe (LLVM 15.0.6, 256 bits)": software).
  public private(set) var renderer = ""
  /// `GL_VERSION`.
  public private(set) var version = ""

  /// Opens the surfaceless display and makes an OpenGL ES 3.1 context.
  /// - Throws: ``GPUError`` naming what is missing.
  public init() throws(GPUError) {
    let clientExtensions = eglQueryString(nil, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? ""
    guard clientExtensions.contains("EGL_MESA_platform_surfaceless") else { throw .surfacelessPlatformUnavailable }
    guard let display = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil) else {
      throw .egl(call: "eglGetPlatformDisplay", code: eglGetError())
    }
    var major: EGLint = 0
    var minor: EGLint = 0
    guard eglInitialize(display, &major, &minor) == EGL_TRUE else {
      throw .egl(call: "eglInitialize", code: eglGetError())
    }
    guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGL_TRUE else {
      throw .egl(call: "eglBindAPI", code: eglGetError())
    }
    let configAttributes: [EGLint] = [
      EGLint(EGL_RENDERABLE_TYPE), EGLint(EGL_OPENGL_ES3_BIT), EGLint(EGL_SURFACE_TYPE), EGLint(EGL_PBUFFER_BIT),
      EGLint(EGL_NONE),
    ]
    var config: EGLConfig?
    var configs: EGLint = 0
    if eglChooseConfig(display, configAttributes, &config, 1, &configs) != EGL_TRUE || configs == 0 {
      config = nil  // EGL_NO_CONFIG_KHR (EGL_KHR_no_config_context)
    }
    let contextAttributes: [EGLint] = [
      EGLint(EGL_CONTEXT_MAJOR_VERSION), 3, EGLint(EGL_CONTEXT_MINOR_VERSION), 1, EGLint(EGL_NONE),
    ]
    guard let context = eglCreateContext(display, config, nil, contextAttributes) else {
      throw .noOpenGLES31(code: eglGetError())
    }
    self.display = display
    self.context = context
    try withCurrent { () throws(GPUError) in
      renderer = String(cString: glGetString(GLenum(GL_RENDERER)))
      version = String(cString: glGetString(GLenum(GL_VERSION)))
    }
  }

  deinit {
    eglMakeCurrent(display, nil, nil, nil)
    eglDestroyContext(display, context)
    // The display is process-wide (every context on this platform shares
    // it), so it is not terminated.
  }

  /// Runs `body` with the context current on this thread, then releases it.
  /// - Throws: ``GPUError/egl(call:code:)`` if the context cannot be made
  ///   current (another thread holds it), or what `body` throws.
  public func withCurrent<T>(_ body: () throws(GPUError) -> T) throws(GPUError) -> T {
    guard eglMakeCurrent(display, nil, nil, context) == EGL_TRUE else {
      throw .egl(call: "eglMakeCurrent", code: eglGetError())
    }
    defer { eglMakeCurrent(display, nil, nil, nil) }
    return try body()
  }
}
