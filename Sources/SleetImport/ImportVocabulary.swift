/// The names the importer knows: Core Animation's constants in both
/// spellings, UIKit's and AppKit's colours, and the properties of each kind
/// of object (docs/import.md, "What is understood").
enum ImportVocabulary {
  static let shapes: Set<String> = ["point", "line", "rectangle", "circle", "cuboid", "sphere"]
  static let modes: Set<String> = ["points", "outline", "surface", "volume"]
  static let renderModes: Set<String> = ["unordered", "oldestFirst", "oldestLast", "backToFront", "additive"]
  static let filters: Set<String> = ["linear", "nearest", "trilinear"]
  static let timingNames: Set<String> = ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"]
  static let fillModes: Set<String> = ["forwards", "backwards", "both", "removed"]

  /// The Swift type names whose static members are these constants.
  static let constantTypes: Set<String> = [
    "CAEmitterLayerEmitterShape", "CAEmitterLayerEmitterMode", "CAEmitterLayerRenderMode",
    "CALayerContentsFilter", "CAMediaTimingFunctionName", "CAMediaTimingFillMode",
  ]

  /// An Objective-C constant's value: `kCAEmitterLayerLine` → `line`,
  /// `kCAMediaTimingFunctionEaseOut` → `easeOut`, `kCAFilterNearest` →
  /// `nearest`, `kCAFillModeForwards` → `forwards`.
  static func objectiveCConstant(_ name: String) -> String? {
    for prefix in ["kCAEmitterLayer", "kCAMediaTimingFunction", "kCAFilter", "kCAFillMode"]
    where name.hasPrefix(prefix) && name.count > prefix.count {
      var rest = String(name.dropFirst(prefix.count))
      let first = rest.removeFirst()
      let value = String(first).lowercased() + rest
      let known = shapes.union(modes).union(renderModes).union(filters).union(timingNames).union(fillModes)
      return known.contains(value) ? value : nil
    }
    return nil
  }

  /// Whether `name` is a constant written as an implicit member (`.line`).
  static func isConstant(_ name: String) -> Bool {
    shapes.contains(name) || modes.contains(name) || renderModes.contains(name) || filters.contains(name)
      || timingNames.contains(name) || fillModes.contains(name)
  }

  // MARK: - Colours

  /// UIKit's fixed colours (`UIColor.red`, `[UIColor orangeColor]`), as
  /// UIKit documents their components.
  static let fixedColors: [String: (Double, Double, Double, Double)] = [
    "black": (0, 0, 0, 1), "white": (1, 1, 1, 1), "clear": (0, 0, 0, 0),
    "red": (1, 0, 0, 1), "green": (0, 1, 0, 1), "blue": (0, 0, 1, 1),
    "cyan": (0, 1, 1, 1), "yellow": (1, 1, 0, 1), "magenta": (1, 0, 1, 1),
    "orange": (1, 0.5, 0, 1), "purple": (0.5, 0, 0.5, 1), "brown": (0.6, 0.4, 0.2, 1),
    "gray": (0.5, 0.5, 0.5, 1), "lightGray": (2.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0, 1),
    "darkGray": (1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0, 1),
  ]

  /// The system colours in light mode, sRGB, as Apple's Human Interface
  /// Guidelines list them (0–255).
  static let systemColors: [String: (Double, Double, Double)] = [
    "systemRed": (255, 59, 48), "systemOrange": (255, 149, 0), "systemYellow": (255, 204, 0),
    "systemGreen": (52, 199, 89), "systemMint": (0, 199, 190), "systemTeal": (48, 176, 199),
    "systemCyan": (50, 173, 230), "systemBlue": (0, 122, 255), "systemIndigo": (88, 86, 214),
    "systemPurple": (175, 82, 222), "systemPink": (255, 45, 85), "systemBrown": (162, 132, 94),
    "systemGray": (142, 142, 147), "systemGray2": (174, 174, 178), "systemGray3": (199, 199, 204),
    "systemGray4": (209, 209, 214), "systemGray5": (229, 229, 234), "systemGray6": (242, 242, 247),
  ]

  /// The colour named `name` (`red`, `systemBlue`), or nil.
  static func color(named name: String) -> ImportValue? {
    if let (r, g, b, a) = fixedColors[name] { return .color(r: r, g: g, b: b, a: a) }
    if let (r, g, b) = systemColors[name] { return .color(r: r / 255, g: g / 255, b: b / 255, a: 1) }
    return nil
  }

  /// An Objective-C colour factory's colour: `redColor` → red,
  /// `systemBlueColor` → systemBlue.
  static func color(selector: String) -> ImportValue? {
    guard selector.hasSuffix("Color") else { return nil }
    return color(named: String(selector.dropLast(5)))
  }

  /// RGB of a hue, saturation and brightness in [0, 1] (UIKit's
  /// `init(hue:saturation:brightness:alpha:)`).
  static func rgb(hue: Double, saturation s: Double, brightness v: Double) -> (Double, Double, Double) {
    let h = (hue - hue.rounded(.down)) * 6
    let i = Int(h) % 6
    let f = h - h.rounded(.down)
    let p = v * (1 - s)
    let q = v * (1 - s * f)
    let t = v * (1 - s * (1 - f))
    switch i {
    case 0: return (v, t, p)
    case 1: return (q, v, p)
    case 2: return (p, v, t)
    case 3: return (p, q, v)
    case 4: return (t, p, v)
    default: return (v, p, q)
    }
  }

  // MARK: - Properties

  /// The layer's number properties (their JSON keys), and which are 64-bit.
  static let layerNumbers: Set<String> = [
    "birthRate", "lifetime", "velocity", "scale", "spin", "emitterZPosition", "emitterDepth", "beginTime", "speed",
    "timeOffset",
  ]
  /// The cell's number properties.
  static let cellNumbers: Set<String> = [
    "birthRate", "lifetime", "lifetimeRange", "velocity", "velocityRange", "xAcceleration", "yAcceleration",
    "zAcceleration", "mass", "massRange", "emissionLatitude", "emissionLongitude", "emissionRange", "scale",
    "scaleRange", "scaleSpeed", "spin", "spinRange", "redRange", "greenRange", "blueRange", "alphaRange",
    "redSpeed", "greenSpeed", "blueSpeed", "alphaSpeed", "contentsScale", "minificationFilterBias", "beginTime",
    "duration", "speed", "timeOffset",
  ]
  /// Properties stored as `Double` (the rest are `Float`).
  static let doubleProperties: Set<String> = ["beginTime", "duration", "timeOffset"]

  /// The keys of each behavior type (besides `name` and `enabled`), in the
  /// effect format's spelling, with how their values are written.
  enum BehaviorKeyKind { case number, vector3, point, string, bool, numbers, colors }
  static let behaviorKeys: [String: [String: BehaviorKeyKind]] = [
    "wave": ["force": .vector3, "frequency": .number],
    "drag": ["drag": .number],
    "attractor": [
      "attractorType": .string, "stiffness": .number, "radius": .number, "position": .point, "zPosition": .number,
      "orientationLatitude": .number, "orientationLongitude": .number, "falloff": .number,
      "falloffDistance": .number,
    ],
    "simpleAttractor": ["stiffness": .number, "radius": .number, "position": .point, "falloff": .number],
    "valueOverLife": ["keyPath": .string, "values": .numbers, "locations": .numbers, "additive": .bool],
    "colorOverLife": ["colors": .colors, "locations": .numbers],
    "alignToMotion": ["rotation": .number, "preservesDepth": .bool],
  ]

  /// Properties of the view or its layer that do not change what the
  /// emitter draws in its own layer, accepted without a note.
  static let inertViewProperties: Set<String> = [
    "clipsToBounds", "userInteractionEnabled", "isUserInteractionEnabled", "masksToBounds",
    "translatesAutoresizingMaskIntoConstraints", "autoresizingMask", "needsDisplayOnBoundsChange",
    "contentsScale",
  ]
}
