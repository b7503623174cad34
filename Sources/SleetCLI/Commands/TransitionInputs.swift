import SleetKit

/// The inputs of a transition between two pictures, as `sleet transition
/// render`, `sleet shatter render` and `sleet play --transition` take them:
/// read by one initialiser, made into a ``TransitionScene`` by
/// ``scene(progress:)``.
///
/// The pictures are pixels; `--scale S` (default 1) says how many pixels
/// make a point, so the container is their size ÷ S in points and every
/// geometric input (rects, the button, tilt3D's sheet, a gesture's
/// translations) is in points, as iOS has them (docs/transitions.md,
/// "Screenshots").
struct TransitionInputs {
  var style: TransitionStyle
  var fromPath: String
  var toPath: String
  var direction: TransitionDirection?
  var options: TransitionOptions
  var gesturePath: String?
  var completionSpeed: Double?
  var imagePath: String?
  /// `--scale`: the pictures' pixels per point; nil when not given (1).
  var scale: Double?
  /// `--background`: what shows where no layer draws; nil when not given
  /// (transparent).
  var background: ColorRGBA?

  /// Reads every input but the required ones, which the command has read
  /// (through ``RequiredOptions``, so one error names every missing one).
  init(style: TransitionStyle, fromPath: String, toPath: String, _ arguments: inout Arguments) throws(CommandError) {
    self.style = style
    (self.fromPath, self.toPath) = (fromPath, toPath)
    direction = try TransitionCommandOptions.direction(&arguments)
    options = try TransitionCommandOptions.options(&arguments)
    gesturePath = try arguments.value(OptionTable.gesture)
    completionSpeed = try arguments.number(OptionTable.completionSpeed)
    imagePath = try arguments.value(OptionTable.image)
    scale = try arguments.number(OptionTable.scale)
    background = try RenderOptions.optionalBackground(&arguments)
    if completionSpeed != nil && gesturePath == nil { throw .usage("--completion-speed applies only with --gesture") }
    if imagePath != nil && style != .zoom { throw .usage("--image does not apply to \(style.rawValue)") }
  }

  /// The files read, named by their flags: what an output must not be.
  var inputs: [CommandInput] {
    [("--from", fromPath), ("--to", toPath), ("--image", imagePath), ("--gesture", gesturePath)]
      .compactMap { flag, path in path.map { CommandInput(flag: flag, path: $0) } }
  }

  /// The scene to draw, the replay of `--gesture` (if given) and the notes
  /// to print: the defaults filled in, a picture that looks like a 2× or 3×
  /// screenshot drawn at 1 px/pt, what the gesture file holds that is not
  /// used, and whether the gesture finishes.
  func scene(progress: ProgressHub? = nil) throws(CommandError) -> TransitionSetup {
    let (from, to) = try Self.readPictures(fromPath: fromPath, toPath: toPath)
    let pixelsPerPoint = scale ?? 1
    let width = Double(from.width) / pixelsPerPoint, height = Double(from.height) / pixelsPerPoint
    var notes: [String] = []
    if scale == nil, let note = Self.screenshotNote(width: from.width, height: from.height, path: fromPath) {
      notes.append(note)
    }
    let filled = options.filled(for: style, width: width, height: height)
    notes += Self.defaultNotes(given: options, filled: filled)
    let transition = try TransitionCommandOptions.transition(
      style: style, direction: direction, width: width, height: height, options: filled,
      sizeFlag: scale == nil ? "--from" : "--from ÷ --scale")
    let image = try zoomImage(from: from, transition: transition, pixelsPerPoint: pixelsPerPoint)
    var replay: GestureReplay?
    if let gesture = try readGesture() {
      do throws(GestureError) {
        try gesture.check(drives: transition.direction)
      } catch {
        throw .usage(
          "--gesture \(gesturePath!) with --direction \(transition.direction.rawValue): \(error.description)")
      }
      let interaction = InteractiveTransition(transition, completionSpeed: completionSpeed ?? 1)
      let played = GestureReplay(gesture, extent: transition.width, interaction: interaction)
      if !gesture.ignoredFields.isEmpty {
        notes.append(
          "gesture: ignored \(gesture.ignoredFields.joined(separator: ", ")) (time and translationX drive the transition; the velocity comes from the last two samples)"
        )
      }
      let pan = gesture.direction == .leftward ? "a leftward pan, " : ""
      notes.append(
        "gesture: \(pan)released at progress \(roundedText(played.progress(at: gesture.endTime), places: 3)), velocity \(roundedText(gesture.forwardVelocity, places: 1)) pt/s toward completion: \(played.finishes ? "finishes" : "cancels")"
      )
      replay = played
    }
    let scene = TransitionScene(
      transition: transition, from: from, to: to, image: image, pixelsPerPoint: pixelsPerPoint,
      background: background ?? .clear, progress: progress)
    return TransitionSetup(scene: scene, replay: replay, notes: notes)
  }

  /// The pictures at `fromPath` and `toPath` (`--from`, `--to`), of the same
  /// size and within the image limits.
  static func readPictures(fromPath: String, toPath: String) throws(CommandError) -> (from: RGBAImage, to: RGBAImage) {
    let from = try InputImages.readPicture(fromPath, flag: "--from")
    let to = try InputImages.readPicture(toPath, flag: "--to")
    guard from.width == to.width && from.height == to.height else {
      throw .usage(
        "--from and --to must have the same size: \(fromPath) is \(from.width)×\(from.height), \(toPath) is \(to.width)×\(to.height)"
      )
    }
    try Canvas.checkImageSize(width: from.width, height: from.height, flags: "--from and --to")
    return (from, to)
  }

  /// The zoom style's flying image: `--image`, or cut from the picture it
  /// leaves at the rect it leaves from (points, at `pixelsPerPoint`); nil
  /// for the other styles.
  func zoomImage(from: RGBAImage, transition: Transition, pixelsPerPoint: Double) throws(CommandError) -> RGBAImage? {
    guard transition.style == .zoom else { return nil }
    if let imagePath { return try InputImages.readPicture(imagePath, flag: "--image") }
    let options = transition.options
    let rect = transition.direction == .push ? options.imageRect! : options.targetRect!
    return TransitionScene.crop(from, to: rect, pixelsPerPoint: pixelsPerPoint)
  }

  /// The recorded pan of `--gesture`, if given.
  func readGesture() throws(CommandError) -> PanGesture? {
    guard let gesturePath else { return nil }
    do throws(GestureError) {
      return try PanGesture(contentsOfFile: gesturePath)
    } catch {
      throw .usage("--gesture \(gesturePath): \(error.description)")
    }
  }

  /// One line per rect ``TransitionOptions/filled(for:width:height:)`` added
  /// to `given`, naming its flag and the value used.
  static func defaultNotes(given: TransitionOptions, filled: TransitionOptions) -> [String] {
    let rects: [(String, Rect?, Rect?)] = [
      ("--image-rect", given.imageRect, filled.imageRect), ("--target-rect", given.targetRect, filled.targetRect),
      ("--button", given.button, filled.button),
    ]
    return rects.compactMap { flag, before, after in
      guard before == nil, let after else { return nil }
      let text = [after.x, after.y, after.width, after.height].map { roundedText($0, places: 2) }
        .joined(separator: ",")
      return "\(flag) not given: using the default \(text) (points; docs/transitions.md, \"Default rects\")"
    }
  }

  /// iPhone screens in points, portrait: their screenshots are these sizes
  /// at 2 or 3 pixels per point.
  static let iPhoneScreens: [(width: Int, height: Int)] = [
    (320, 568), (375, 667), (414, 736), (360, 780), (375, 812), (390, 844), (393, 852), (402, 874), (414, 896),
    (428, 926), (430, 932), (440, 956),
  ]

  /// A note when a `width` × `height` picture drawn at 1 px/pt is the size
  /// of an iPhone screenshot at 2 or 3 px/pt (either orientation): without
  /// `--scale` every point-sized input would be a third or half its size.
  static func screenshotNote(width: Int, height: Int, path: String) -> String? {
    for factor in [3, 2] {
      for screen in iPhoneScreens {
        let (w, h) = (screen.width * factor, screen.height * factor)
        guard (width, height) == (w, h) || (width, height) == (h, w) else { continue }
        let points = width == w ? "\(screen.width)×\(screen.height)" : "\(screen.height)×\(screen.width)"
        return
          "\(MessageText.clip(path)) is \(width)×\(height) px, an iPhone screenshot at \(factor) px/pt (\(points) pt): add --scale \(factor) to draw in points as iOS does (at 1 px/pt the container is \(width)×\(height) pt)"
      }
    }
    return nil
  }
}

/// A transition ready to draw: its scene, the replay of its gesture (if
/// any) and the notes ``TransitionInputs/scene(progress:)`` has for the user.
struct TransitionSetup {
  var scene: TransitionScene
  var replay: GestureReplay?
  var notes: [String]
}

/// Options a command cannot run without, read first and checked together
/// so that one error names every missing one.
struct RequiredOptions {
  private var missing: [(flag: String, hint: String?)] = []

  /// `value`, noting `flag` as missing when it is nil (`hint`: what to give,
  /// as "one of …").
  mutating func note<T>(_ value: T?, _ flag: String, hint: String? = nil) -> T? {
    if value == nil { missing.append((flag, hint)) }
    return value
  }

  /// Throws a usage error naming every missing option: "--to B.png is
  /// required", or "--from A.png, --to B.png and --out PATH are required".
  func check() throws(CommandError) {
    guard let first = missing.first else { return }
    if missing.count == 1 {
      throw .usage("\(first.flag) is required" + (first.hint.map { ": \($0)" } ?? ""))
    }
    let flags = missing.map(\.flag)
    var message = flags.dropLast().joined(separator: ", ") + " and \(flags.last!) are required"
    let hints = missing.compactMap { entry in entry.hint.map { "\(entry.flag.split(separator: " ")[0]): \($0)" } }
    if !hints.isEmpty { message += " (" + hints.joined(separator: "; ") + ")" }
    throw .usage(message)
  }
}
