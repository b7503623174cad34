import SleetKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `sleet import FILE.swift|FILE.m|-`: `CAEmitterLayer` setup code as an
/// effect file (docs/import.md).
struct ImportCommand: SleetCommand {
  static let path = ["import"]
  static let summary = "turn CAEmitterLayer/CAEmitterCell setup code (Swift, Objective-C) into an effect file"
  static let about = """
    usage: sleet import FILE.swift|FILE.m|- [--out FILE.json [--force]] [--size WxH] [--sprites DIR] [--strict]

    Reads emitter setup code (Swift or Objective-C; - reads it piped in),
    runs what it understands — layer and cell properties in dot syntax and
    [obj setX:], emitterCells (nested), behaviors and private keys through
    setValue(_:forKey:), CABasicAnimation/CAKeyframeAnimation added to the
    layer, helpers that return a cell, for-in loops over literal arrays —
    and prints the emitter as a canonical effect file (format 1), or writes
    it to --out atomically.

    View geometry (bounds, frame, UIScreen.main.bounds) is read for --size;
    values that depend on it become the effect's parameters width and height.
    UIImage(named: "x") becomes DIR/x.png with --sprites when that file
    exists, else a built-in sprite chosen by the image's (or the cell's) name.

    Everything not translated is reported on stderr as FILE:LINE with the
    line and the reason; with --strict that is an error (exit 2, nothing
    written). Exit status: 0 written, 1 the output could not be written,
    2 bad input (no emitter layer, an invalid value, --strict). See
    docs/import.md.

    """

  static func run(_ arguments: inout Arguments, output: CommandOutput) throws(CommandError) {
    let out = try arguments.value(OptionTable.exportOut)
    if let out, out != "-" { try OutputCheck.checkParentFolder(out, flag: "--out") }
    let force = try arguments.flag(OptionTable.exportForce)
    let size = try SizeOption.parse(&arguments, OptionTable.importSize)
    let spriteFolder = try arguments.value(OptionTable.sprites)
    let strict = try arguments.flag(OptionTable.strict)
    guard let file = arguments.positional() else { throw .usage("missing the source FILE.swift, FILE.m or -") }
    try arguments.finish()
    if let spriteFolder {
      var info = stat()
      guard stat(spriteFolder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
        throw .usage("--sprites: '\(spriteFolder)' is not a folder")
      }
    }
    let name = file == "-" ? "standard input" : file
    let bytes: [UInt8]
    do throws(InputFileError) {
      bytes =
        try file == "-"
        ? output.readStandardInput(SleetLimits.jsonFileBytes) : InputFile.read(file, limit: SleetLimits.jsonFileBytes)
    } catch {
      throw .usage(
        "cannot read \(file == "-" ? "standard input" : "'\(file)'"): \(error.reason(kind: "imported code"))")
    }
    var options = ImportOptions(
      summary: "Imported from \(file == "-" ? "standard input" : FileOutput.split(file).name)")
    if let size { options.size = ImportSize(width: size.width, height: size.height) }
    if let spriteFolder { options.spriteFolder = spritePath(spriteFolder, out: out) }
    let result: ImportResult
    do throws(ImportError) {
      result = try EffectImporter.importEffect(from: String(decoding: bytes, as: UTF8.self), options: options)
    } catch {
      throw .usage(error.line == 0 ? "\(name): \(error.reason)" : "\(name):\(error.line): \(error.reason)")
    }
    for note in result.notes {
      let place = note.line == 0 ? name : "\(name):\(note.line)"
      output.printError("\(place): \(note.reason)" + (note.text.isEmpty ? "" : "\n    \(note.text)"))
    }
    let untranslated = result.untranslated.count
    if strict && untranslated > 0 {
      throw .usage(
        "\(name): \(untranslated) \(untranslated == 1 ? "statement was" : "statements were") not translated (--strict); nothing written"
      )
    }
    if let out, out != "-" {
      try OutputCheck.checkFile(
        out, inputs: file == "-" ? [] : [CommandInput(flag: "FILE", path: file)], force: force, flag: "--out")
      let (folder, outName) = FileOutput.split(out)
      FileOutput.removeStaleTemporaries(inFolder: folder) { $0 == outName }
      do throws(FileOutputError) {
        try result.effect.writeJSON(toFile: out)
      } catch {
        throw .failure(error.description)
      }
      output.printError("wrote \(out)")
    } else {
      output.standardOutput(result.effect.jsonString())
    }
  }

  /// The sprite folder as the effect file must name it: sprite paths are
  /// read relative to the effect file's folder, so a relative folder is
  /// made absolute unless the file is written to the current folder or
  /// printed.
  static func spritePath(_ folder: String, out: String?) -> String {
    guard !folder.hasPrefix("/"), let out, out != "-", FileOutput.split(out).folder != "." else { return folder }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return folder }
    let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return cwd + "/" + folder
  }
}
