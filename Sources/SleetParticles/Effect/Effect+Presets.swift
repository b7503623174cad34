import Foundation

// The built-in presets are effect files (format 1) in the package resources
// (Sources/SleetParticles/Presets/NAME.json); they are data, not code.

extension Effect {
  /// The names of the built-in presets, sorted; empty only if the package's
  /// resource bundle is missing or unreadable (a packaging error, which
  /// ``preset(named:parameters:)`` reports).
  /// - Complexity: O(presets) (the folder is listed once).
  public static var presetNames: [String] {
    switch presetListing {
    case .success(let names): names
    case .failure: []
    }
  }

  /// The folder listing, read once: the resources cannot change while the
  /// program runs.
  private static let presetListing: Result<[String], EffectFormatError> = Result(catching: {
    () throws(EffectFormatError) -> [String] in
    try presetNames(inFolder: presetFolder)
  })

  /// The `.json` files in `folder` without their extension, sorted.
  /// - Throws: `EffectFormatError` (path "") when `folder` is nil (the
  ///   resource bundle has no `Presets`) or cannot be listed.
  /// - Complexity: O(files in the folder).
  static func presetNames(inFolder folder: URL?) throws(EffectFormatError) -> [String] {
    guard let folder else {
      throw EffectFormatError(
        path: "", reason: "cannot list built-in presets: the resource bundle has no 'Presets' folder")
    }
    let files: [String]
    do {
      files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    } catch {
      throw EffectFormatError(
        path: "", reason: "cannot list built-in presets in '\(folder.path)': \(error.localizedDescription)")
    }
    return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
  }

  /// A built-in preset by name, with its parameters at their stored values
  /// or set to `parameters` (e.g. `["width": 1024]` for `snow`).
  ///
  ///     let snow = try Effect.preset(named: "snow", parameters: ["width": 430])
  ///
  /// - Throws: `EffectFormatError` for an unknown preset or unreadable
  ///   package resources (path "") or a bad parameter (path `parameters.NAME`).
  /// - Complexity: O(file size).
  public static func preset(named name: String, parameters: [String: Double] = [:]) throws(EffectFormatError)
    -> Effect
  {
    let presetNames = try presetListing.get()
    guard presetNames.contains(name), let folder = presetFolder else {
      var reason = "no preset named '\(name)' (presets: \(presetNames.joined(separator: ", ")))"
      if let near = closestName(to: name, in: presetNames) { reason += "; did you mean '\(near)'?" }
      throw EffectFormatError(path: "", reason: reason)
    }
    let file = folder.appendingPathComponent(name + ".json").path
    let effect: Effect
    do throws(EffectFormatError) {
      effect = try Effect(contentsOfFile: file)
    } catch {
      // A broken built-in preset is a packaging bug, but say which file.
      throw EffectFormatError(path: error.path, reason: "\(error.reason) (in preset '\(name)')")
    }
    return parameters.isEmpty ? effect : try effect.settingParameters(parameters)
  }

  private static var presetFolder: URL? {
    Bundle.module.url(forResource: "Presets", withExtension: nil)
  }
}

extension Effect {
  /// What command lines accept as an effect: a preset name (`snow`) or the
  /// path of an effect file (anything ending in `.json` or containing '/').
  /// `parameters` are set as ``settingParameters(_:)`` does.
  ///
  ///     let effect = try Effect(presetOrFile: arguments.effect, parameters: ["width": 430])
  ///
  /// - Throws: `EffectFormatError`: an unknown preset, an unreadable or
  ///   invalid file, or a bad parameter.
  /// - Complexity: O(file size).
  public init(presetOrFile argument: String, parameters: [String: Double] = [:]) throws(EffectFormatError) {
    if argument.hasSuffix(".json") || argument.contains("/") {
      let effect = try Effect(contentsOfFile: argument)
      self = parameters.isEmpty ? effect : try effect.settingParameters(parameters)
    } else {
      self = try Effect.preset(named: argument, parameters: parameters)
    }
  }
}
