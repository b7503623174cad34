import Foundation
import SleetParticles

/// Something in the imported code that the effect does not carry, or a
/// choice the importer made for it, with where it is.
public struct ImportNote: Hashable, Sendable, CustomStringConvertible {
  /// What kind of report it is.
  public enum Kind: Hashable, Sendable {
    /// Code that was not translated (or only partly): `--strict` makes it an error.
    case untranslated
    /// A stand-in the importer chose where the format needs one: a built-in
    /// sprite for an image that is not available, no name for a cell whose
    /// name a sibling already has. `--strict` accepts it.
    case substitution
  }

  /// The 1-based line in the source; 0 when the note is about the whole source.
  public var line: Int
  /// The source line, trimmed.
  public var text: String
  /// What was not understood, or what was chosen, and why.
  public var reason: String
  /// Whether the code was not translated or a stand-in was chosen.
  public var kind: Kind

  /// A note about `line` of the source.
  public init(line: Int, text: String, reason: String, kind: Kind = .untranslated) {
    self.line = line
    self.text = text
    self.reason = reason
    self.kind = kind
  }

  /// `line 12: cell.style = …: reason`.
  public var description: String {
    line == 0 ? reason : "line \(line): \(text): \(reason)"
  }
}

/// How code is imported.
public struct ImportOptions: Hashable, Sendable {
  /// The view size the code's geometry (`bounds`, `UIScreen.main.bounds`) is
  /// evaluated for. Default 390 × 844.
  public var size: ImportSize = .standard
  /// A folder of PNG images: `UIImage(named: "x")` becomes `FOLDER/x.png`
  /// when that file exists. Nil: a built-in sprite is chosen.
  public var spriteFolder: String?
  /// The effect's `summary`. Default nil.
  public var summary: String?

  /// Options with the defaults above.
  public init(size: ImportSize = .standard, spriteFolder: String? = nil, summary: String? = nil) {
    self.size = size
    self.spriteFolder = spriteFolder
    self.summary = summary
  }
}

/// What an import produced: the effect and everything reported about it.
public struct ImportResult: Hashable, Sendable {
  /// The effect, valid (it reads back from its `jsonString()` as is).
  public var effect: Effect
  /// What was not translated, and the sprites chosen, in line order.
  public var notes: [ImportNote]

  /// The notes `--strict` refuses: code that was not translated.
  public var untranslated: [ImportNote] { notes.filter { $0.kind == .untranslated } }
}

/// Why code could not be imported at all.
public struct ImportError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The line the problem is on, 0 when it concerns the whole source.
  public var line: Int
  /// What is wrong: `emitterCells[0].birthRate: must be ≥ 0, got -3`, or
  /// that the code creates no emitter layer.
  public var reason: String

  /// An error about `line` of the source (0: the whole source).
  public init(line: Int, reason: String) {
    self.line = line
    self.reason = reason
  }

  /// `line 3: reason`, or the reason alone for line 0.
  public var description: String { line == 0 ? reason : "line \(line): \(reason)" }
}

/// Turns `CAEmitterLayer`/`CAEmitterCell` setup code, Swift or Objective-C,
/// into an ``Effect`` (docs/import.md).
///
///     let result = try EffectImporter.importEffect(from: source)
///     print(result.effect.jsonString())
///     for note in result.notes { print(note) }
public enum EffectImporter {
  /// Imports the emitter the code builds.
  ///
  /// The first `CAEmitterLayer` the code creates is the effect; its cells,
  /// behaviors and the animations added to it are translated. View
  /// geometry becomes the parameters `width` and `height`.
  /// - Throws: ``ImportError`` when the code builds no emitter layer, or
  ///   when what it builds is not a valid effect (a negative birth rate, an
  ///   animation of a property that cannot be animated …).
  /// - Complexity: O(length of the source + statements run).
  public static func importEffect(from source: String, options: ImportOptions = ImportOptions()) throws(ImportError)
    -> ImportResult
  {
    let program = SourceParser.parse(source)
    let interpreter = ImportInterpreter(source: source, size: options.size)
    interpreter.run(program)
    var builder = ImportEffectBuilder(interpreter: interpreter, options: options)
    let effect = try builder.build()
    let notes = interpreter.notes.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
      .map(\.element)
    return ImportResult(effect: effect, notes: notes)
  }
}
