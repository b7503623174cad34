import CPNG
import SleetCLI
import SleetKit

/// Seed corpora and dictionaries, generated from the package itself so they
/// follow it: the presets, the property and enum names, the commands' help
/// texts. Fuzz/run.sh adds the files it finds (the preset sources, small
/// test images, and Fuzz/regressions/TARGET: every crash input found so far).
enum FuzzSeeds {
  static func seeds(for target: FuzzTarget) -> [[UInt8]] {
    switch target {
    case .effectJSON: effectSeeds()
    case .png: pngSeeds()
    case .apng: apngSeeds()
    case .keyPath: keyPathSeeds()
    case .gesture: gestureSeeds()
    case .cli: cliSeeds()
    }
  }

  static func dictionary(for target: FuzzTarget) -> [[UInt8]] {
    let words: [String]
    switch target {
    case .effectJSON: words = effectWords().map { "\"\($0)\"" } + jsonTokens
    case .keyPath: words = effectWords() + ["emitterCells.", ".emitterCells.", "."]
    case .gesture:
      words =
        [
          "samples", "time", "timestamp", "translationX", "translationY", "velocityX", "velocityY", "locationX",
          "locationY", "state", "began", "changed", "ended",
        ].map { "\"\($0)\"" } + jsonTokens
    case .cli: words = cliWords()
    case .png:
      words = ["IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "sRGB", "iCCP", "cHRM", "sBIT", "bKGD", "acTL", "fcTL"]
    case .apng: words = []
    }
    return words.map { Array($0.utf8) }
  }

  static let jsonTokens = [
    "{", "}", "[", "]", ":", ",", "true", "false", "null", "-0.0", "1e39", "3.4028235e38", "1e-46", "4294967296",
    "0.1", "-1", "\\u0000", "\\ud800", "\\ud83d\\ude00",
  ]

  /// Every key and enum value an effect file can hold.
  static func effectWords() -> [String] {
    var words = [
      "format", "summary", "parameters", "emitterCells", "changes", "name", "time", "keyPath", "value",
      "minimum", "maximum", "bindings", "factor", "offset",
    ]
    words += Emitter.LayerProperty.allCases.map(\.rawValue) + Emitter.CellProperty.allCases.map(\.rawValue)
    words += ["emitterBehaviors", "type", "duration", "timingFunction", "keyTimes", "values", "light"]
    words += EmitterBehavior.types + Emitter.BehaviorKey.allCases.map(\.rawValue)
    words += ValueOverLifeProperty.allCases.map(\.rawValue) + AttractorType.allCases.map(\.rawValue)
    words += ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"]
    words += EmitterShape.allCases.map(\.rawValue) + EmitterMode.allCases.map(\.rawValue)
    words += RenderMode.allCases.map(\.rawValue) + EmitterCell.filterNames + SpriteReference.builtInNames
    for name in Effect.presetNames {
      guard let effect = try? Effect.preset(named: name) else { continue }
      words += effect.parameters.map(\.name)
      var cells = effect.emitter.emitterCells
      while let cell = cells.popLast() {
        if let n = cell.name { words.append(n) }
        cells += cell.emitterCells
      }
    }
    return Array(Set(words)).sorted()
  }

  // MARK: Effect files

  static func effectSeeds() -> [[UInt8]] {
    var texts = Effect.presetNames.compactMap { try? Effect.preset(named: $0).jsonString() }
    texts += [
      #"{"format": 1}"#,
      #"{"format": 1, "birthRate": 2, "emitterShape": "circle", "emitterSize": [10, 20], "renderMode": "additive"}"#,
      #"""
      {"format": 1, "summary": "s",
       "parameters": {"rate": {"value": 2, "minimum": 0, "maximum": 10,
         "bindings": [{"keyPath": "emitterCells.a.birthRate", "factor": 5, "offset": 0}]}},
       "emitterCells": [{"name": "a", "birthRate": 10, "lifetime": 2, "color": [1, 0.5, 0, 1],
         "contents": "spark", "contentsRect": [0, 0, 0.5, 0.5],
         "emitterCells": [{"name": "b", "birthRate": 3, "lifetime": 0.5, "beginTime": 0.1, "duration": 0.3}]}],
       "changes": [{"time": 1, "keyPath": "emitterCells.a.birthRate", "value": 0},
                   {"time": 0.5, "keyPath": "emitterCells.a.emitterCells.b.color", "value": [0, 1, 0]}]}
      """#,
      #"{"format": 1, "emitterCells": [{"emitterCells": [{"emitterCells": [{"name": "x"}]}]}]}"#,
      #"""
      {"format": 1,
       "emitterBehaviors": [{"type": "wave", "name": "sway", "force": [100, 0, 0], "frequency": 0.5},
         {"type": "attractor", "name": "pull", "stiffness": 80, "radius": 30, "position": [50, 60], "falloff": -1},
         {"type": "colorOverLife", "colors": [[1, 1, 1, 0], [1, 1, 1]], "locations": [0, 1]}],
       "emitterCells": [{"name": "a", "birthRate": 10, "lifetime": 2, "mass": 2, "massRange": 1,
         "emitterBehaviors": [{"type": "drag", "name": "brake", "drag": 1.5},
           {"type": "valueOverLife", "keyPath": "scale", "values": [0.2, 1, 0.5], "additive": true},
           {"type": "simpleAttractor", "name": "s", "stiffness": 3}, {"type": "alignToMotion", "rotation": 0.25}]}],
       "changes": [{"time": 0, "keyPath": "emitterBehaviors.pull.stiffness", "value": 5, "duration": 1.2,
                    "timingFunction": "easeOut"},
                   {"time": 1, "keyPath": "emitterCells.a.emitterBehaviors.brake.drag", "duration": 2,
                    "keyTimes": [0, 0.5, 1], "values": [1, 3, 0.5], "timingFunction": [0.1, 0, 0.9, 1]},
                   {"time": 2, "keyPath": "emitterBehaviors.sway.force.x", "value": 10}]}
      """#,
    ]
    return texts.map { Array($0.utf8) }
  }

  // MARK: PNG

  /// Small images in every format libpng's simplified API writes: grey,
  /// grey + alpha, RGB, RGBA, 16-bit linear, colour-mapped (palette).
  static func pngSeeds() -> [[UInt8]] {
    var seeds: [[UInt8]] = []
    let formats: [UInt32] = [
      0, UInt32(PNG_FORMAT_FLAG_ALPHA), UInt32(PNG_FORMAT_FLAG_COLOR),
      UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA),
      UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA | PNG_FORMAT_FLAG_LINEAR),
      UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_COLORMAP),
    ]
    for (k, format) in formats.enumerated() {
      for (w, h) in [(1, 1), (5, 3)] {
        if let png = writePNG(width: w, height: h, format: format, seed: k) { seeds.append(png) }
      }
    }
    seeds.append(PNGFile.encode(RGBAImage(straightRGBA8: [255, 0, 0, 128, 0, 0, 0, 0], width: 2, height: 1)))
    return seeds
  }

  static func writePNG(width: Int, height: Int, format: UInt32, seed: Int) -> [UInt8]? {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    image.width = UInt32(width)
    image.height = UInt32(height)
    image.format = format
    let colormapped = format & UInt32(PNG_FORMAT_FLAG_COLORMAP) != 0
    let channels =
      (format & UInt32(PNG_FORMAT_FLAG_COLOR) != 0 ? 3 : 1) + (format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0 ? 1 : 0)
    let bytesPerSample = format & UInt32(PNG_FORMAT_FLAG_LINEAR) != 0 ? 2 : 1
    let rowBytes = colormapped ? width : width * channels * bytesPerSample
    let pixels = (0..<(rowBytes * height)).map {
      UInt8(truncatingIfNeeded: $0 &* 29 &+ seed &* 7) % (colormapped ? 4 : 255)
    }
    var colormap: [UInt8] = [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]
    if colormapped { image.colormap_entries = 4 }
    var size = 0
    let measured = pixels.withUnsafeBytes { p in
      colormap.withUnsafeMutableBytes { map in
        png_image_write_to_memory(
          &image, nil, &size, 0, p.baseAddress, Int32(rowBytes), colormapped ? map.baseAddress : nil)
      }
    }
    guard measured != 0 else { return nil }
    var out = [UInt8](repeating: 0, count: size)
    let written = out.withUnsafeMutableBytes { dst in
      pixels.withUnsafeBytes { p in
        colormap.withUnsafeMutableBytes { map in
          png_image_write_to_memory(
            &image, dst.baseAddress, &size, 0, p.baseAddress, Int32(rowBytes), colormapped ? map.baseAddress : nil)
        }
      }
    }
    guard written != 0 else { return nil }
    return Array(out[..<size])
  }

  // MARK: APNG, key paths, gestures

  static func apngSeeds() -> [[UInt8]] {
    [
      [],
      [3, 2, 1, 6, 0, 0, 0, 1, 0, 30],
      [11, 11, 4, 9, 2, 1, 0, 1, 0, 30, 4, 0xD2, 0x00, 0x33, 1, 0, 0, 10] + (0..<64).map { UInt8($0 * 4) },
    ]
  }

  static func keyPathSeeds() -> [[UInt8]] {
    let paths = [
      "birthRate", "emitterPosition", "emitterSize.width", "emitterShape", "seed", "beginTime",
      "emitterCells.rocket.birthRate", "emitterCells.rocket.emitterCells.spark.color",
      "emitterCells.rocket.emitterCells.spark.color.red", "emitterCells.snow.contents",
      "emitterCells.b.emitterCells.a.emitterCells.b.contentsRect.size.width", "emitterCells.a.name",
      "emitterBehaviors.pull.stiffness", "emitterBehaviors.sway.force.x", "emitterCells.a.emitterBehaviors.brake.drag",
      "emitterCells.a.emitterBehaviors.grow.values", "emitterBehaviors.fade.locations",
    ]
    var seeds: [[UInt8]] = []
    for (i, path) in paths.enumerated() {
      // Path, 0, emitter, kind, value.
      seeds.append(Array(path.utf8) + [0, UInt8(i), UInt8(i % 4)] + [0, 0, 0, 0, 0, 0, 0, 12, 0x40, 0x10, 0, 0])
    }
    return seeds
  }

  static func gestureSeeds() -> [[UInt8]] {
    let texts = [
      #"{"samples": [{"time": 0, "translationX": 0}]}"#,
      #"{"samples": [{"time": 0, "translationX": 0}, {"time": 0.1, "translationX": 40}, {"time": 0.25, "translationX": 300}]}"#,
      #"{"samples": [{"time": 1, "translationX": 200}, {"time": 1.5, "translationX": 150}]}"#,
      #"{"samples": [{"translationX": -5, "time": 0.5}, {"time": 0.6, "translationX": 1e3}]}"#,
      #"{"samples": [{"timestamp": 5021.25, "translationX": 0, "state": "began"}, {"timestamp": 5021.3, "translationX": -64.5, "translationY": 3, "velocityX": -1290, "state": 2}]}"#,
      #"{"samples": [{"time": 0, "translationX": -0.0, "locationX": 380, "locationY": 400, "velocityY": 0}, {"time": 0.2, "translationX": -300}]}"#,
    ]
    return texts.map { Array($0.utf8) }
  }

  // MARK: Command lines

  static func cliSeeds() -> [[UInt8]] {
    func line(_ command: Int, _ words: [String]) -> [UInt8] {
      [UInt8(command)] + Array(words.joined(separator: "\u{0}").utf8)
    }
    return [
      line(0, ["--help"]), line(0, ["particles"]), line(0, ["render", "snow", "--out", "x.png"]),
      line(1, []), line(2, ["--json"]), line(3, ["snow", "--width", "400"]),
      line(3, ["fireworks", "--parameter", "x=3", "--out", "out.json"]),
      line(4, ["effect.json"]), line(4, ["bad.json"]), line(4, ["deep.json"]), line(4, ["zero.json"]),
      line(4, ["folder.json"]), line(4, ["sprite.json"]),
      line(5, ["--size", "390x844", "--divisor", "10", "--json"]),
      line(6, ["--size", "320x480", "--time", "0.4", "--style", "glassBreak", "--seed", "3"]),
      line(7, ["--effect", "snow", "--time", "2", "--format", "json"]),
      line(7, ["--effect", "changes.json", "--time", "1.5", "--step", "0.1", "--threads", "2"]),
      line(8, ["--effect", "fireworks", "--duration", "3", "--interval", "1", "--budget", "100", "--cap"]),
      line(9, ["--style", "tilt3D", "--size", "390x844", "--progress", "0.5", "--json"]),
      line(
        9,
        [
          "--style", "zoom", "--size", "390x844", "--time", "0.2", "--image-rect", "1,2,30,40", "--target-rect",
          "0,0,390,390",
        ]),
    ]
  }

  /// Command words, every option the help texts mention, preset and style
  /// names, the fixtures' names.
  static func cliWords() -> [String] {
    var words = Set<String>()
    for command in SleetCommandLine.commands {
      command.path.forEach { words.insert($0) }
      var option = ""
      for c in command.help + " " {
        if c == "-" || c.isLetter {
          option.append(c)
        } else {
          if option.hasPrefix("--"), option.count > 2 { words.insert(option) }
          option = ""
        }
      }
    }
    words.formUnion(Effect.presetNames)
    words.formUnion(TransitionStyle.allCases.map(\.rawValue))
    words.formUnion(["push", "pop", "present", "dismiss", "csv", "json", "390x844", "1e9", "-1", "nan", "--", "-h"])
    words.formUnion(CLITarget.fixtures().keys)
    words.formUnion(["folder.json", "zero.json"])
    return words.sorted()
  }
}
