import CSDL2

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The window of `sleet play`: SDL2 (Debian's libsdl2), one streaming
/// texture the frames are copied into, presented at the display's rate. All
/// SDL calls of `sleet` are in this type; ``PlayCommand`` decides what to
/// show.
///
/// SDL reads its usual environment: `SDL_VIDEODRIVER=offscreen` or `dummy`
/// plays without a display (the tests use `dummy`).
final class PlayerWindow {
  private let window: OpaquePointer
  private let renderer: OpaquePointer
  private let texture: OpaquePointer
  let width: Int
  let height: Int
  /// Seconds between the display's refreshes (1/60 when SDL does not know).
  let refreshInterval: Double

  /// What the event queue held.
  enum Input: Equatable {
    /// A key pressed, by SDL key code (``PlayerAction/init(keyCode:)``).
    case key(Int32)
    /// The window was closed.
    case close
  }

  /// Opens a `width × height` window titled `title`.
  /// - Throws: `.failure` naming SDL's reason when there is no display (or
  ///   no video driver), with what to do about it.
  init(title: String, width: Int, height: Int) throws(CommandError) {
    func failure(_ what: String) -> CommandError {
      .failure(
        "cannot open a window: \(what): \(String(cString: SDL_GetError())); without a display, run it under xvfb-run (xvfb-run sleet play …) or with SDL_VIDEODRIVER=offscreen"
      )
    }
    SDL_SetMainReady()
    // Without SDL_VIDEODRIVER, SDL falls back to its offscreen driver when
    // there is no display, and the player would play unseen: only the
    // drivers of a display are tried, and their failure is reported.
    if getenv("SDL_VIDEODRIVER") == nil { SDL_SetHint("SDL_VIDEODRIVER", "x11,wayland,KMSDRM") }
    guard SDL_InitSubSystem(UInt32(SDL_INIT_VIDEO)) == 0 else { throw failure("SDL video") }
    let undefinedPosition = Int32(0x1FFF_0000)  // SDL_WINDOWPOS_UNDEFINED
    // The frame's size, halved until it fits the screen (the frame is then
    // scaled down to the window; resizing scales it, letterboxed).
    var windowWidth = width, windowHeight = height
    var bounds = SDL_Rect()
    if SDL_GetDisplayUsableBounds(0, &bounds) == 0, bounds.w > 0, bounds.h > 0 {
      while windowWidth > Int(bounds.w) || windowHeight > Int(bounds.h) {
        windowWidth = Swift.max(1, windowWidth / 2)
        windowHeight = Swift.max(1, windowHeight / 2)
      }
    }
    guard
      let window = SDL_CreateWindow(
        title, undefinedPosition, undefinedPosition, Int32(windowWidth), Int32(windowHeight),
        SDL_WINDOW_SHOWN.rawValue | SDL_WINDOW_RESIZABLE.rawValue)
    else {
      let error = failure("the window")
      SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
      throw error
    }
    // Accelerated with vsync where there is a GPU; SDL's software renderer
    // otherwise (a virtual display, the offscreen driver).
    guard
      let renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_PRESENTVSYNC.rawValue)
        ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue)
    else {
      let error = failure("a renderer")
      SDL_DestroyWindow(window)
      SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
      throw error
    }
    // Straight RGBA bytes in memory order (ABGR8888 on little-endian machines).
    let format = (1 as UInt32).littleEndian == 1 ? SDL_PIXELFORMAT_ABGR8888.rawValue : SDL_PIXELFORMAT_RGBA8888.rawValue
    guard
      let texture = SDL_CreateTexture(
        renderer, format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(width), Int32(height))
    else {
      let error = failure("a texture")
      SDL_DestroyRenderer(renderer)
      SDL_DestroyWindow(window)
      SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
      throw error
    }
    SDL_RenderSetLogicalSize(renderer, Int32(width), Int32(height))
    // A transparent background shows over the grey the frame is cleared to.
    SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
    var mode = SDL_DisplayMode()
    let rate = SDL_GetWindowDisplayMode(window, &mode) == 0 ? Int(mode.refresh_rate) : 0
    refreshInterval = 1 / Double(rate > 0 ? rate : 60)
    self.window = window
    self.renderer = renderer
    self.texture = texture
    self.width = width
    self.height = height
  }

  deinit {
    SDL_DestroyTexture(texture)
    SDL_DestroyRenderer(renderer)
    SDL_DestroyWindow(window)
    SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
  }

  /// The keys pressed and close requests since the last call, in order.
  func events() -> [Input] {
    var inputs: [Input] = []
    var event = SDL_Event()
    while SDL_PollEvent(&event) != 0 {
      switch event.type {
      case SDL_QUIT.rawValue: inputs.append(.close)
      case SDL_WINDOWEVENT.rawValue where event.window.event == UInt8(SDL_WINDOWEVENT_CLOSE.rawValue):
        inputs.append(.close)
      case SDL_KEYDOWN.rawValue: inputs.append(.key(event.key.keysym.sym))
      default: break
      }
    }
    return inputs
  }

  /// Shows `bytes` (straight RGBA, `width × height`, rows top to bottom) and
  /// presents; with vsync the call returns at the display's next refresh.
  /// - Precondition: `bytes.count == 4 · width · height`.
  func show(_ bytes: [UInt8]) {
    precondition(bytes.count == 4 * width * height, "PlayerWindow.show: a frame of the window's size")
    bytes.withUnsafeBytes { raw in _ = SDL_UpdateTexture(texture, nil, raw.baseAddress, Int32(4 * width)) }
    SDL_SetRenderDrawColor(renderer, 48, 48, 48, 255)
    SDL_RenderClear(renderer)
    SDL_RenderCopy(renderer, texture, nil, nil)
    SDL_RenderPresent(renderer)
  }

  /// Seconds on SDL's monotonic clock.
  static var now: Double { Double(SDL_GetPerformanceCounter()) / Double(SDL_GetPerformanceFrequency()) }

  /// Sleeps `seconds` (whole milliseconds, none when ≤ 0).
  static func sleep(_ seconds: Double) {
    guard seconds > 0.001 else { return }
    SDL_Delay(UInt32(seconds * 1000))
  }
}
