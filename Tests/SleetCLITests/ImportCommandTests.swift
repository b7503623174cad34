import Foundation
import SleetKit
import Synchronization
import Testing
import _SleetTestSupport

@testable import SleetCLI

/// `sleet import` (docs/import.md): output, the report, --strict, standard
/// input, and the snow article against the `snow` preset.
@Suite("sleet import")
struct ImportCommandTests {
  static let article = """
    CAEmitterCell *cell = [CAEmitterCell emitterCell];
    cell.contents = (id)[UIImage imageNamed:@"favorite_hl"].CGImage;
    cell.name = @"snow";
    cell.lifetime = 10.0f;
    cell.lifetimeRange = 100.0;
    cell.birthRate = 10;
    cell.velocity = 10.0f;
    cell.velocityRange = 10.0f;
    cell.emissionRange = M_PI_2;
    cell.yAcceleration = 2;
    cell.scale = 0.5f;
    cell.scaleRange = 0.02;
    _emitterLayer = [CAEmitterLayer layer];
    _emitterLayer.emitterShape = kCAEmitterLayerLine;
    _emitterLayer.emitterMode = kCAEmitterLayerSurface;
    _emitterLayer.emitterSize = CGSizeMake(self.bounds.size.width * 2, 100);
    _emitterLayer.renderMode = kCAEmitterLayerOldestFirst;
    _emitterLayer.emitterCells = @[cell];
    _emitterLayer.emitterPosition = CGPointMake(100, -40);
    """

  func withFolder(_ body: (String) throws -> Void) rethrows {
    let folder = makeTemporaryFolder(prefix: "sleet-import")
    defer { removeTree(folder) }
    try body(folder)
  }

  func write(_ text: String, to path: String) throws {
    try FileOutput.atomicWrite(Array(text.utf8), to: path)
  }

  /// Runs `sleet` with `input` as standard input.
  func runWithInput(_ arguments: [String], input: String = "") -> (status: Int32, out: String, err: String) {
    let out = Mutex(""), err = Mutex("")
    var output = CommandOutput(
      standardOutput: { s in out.withLock { $0 += s } }, standardError: { s in err.withLock { $0 += s } })
    output.readStandardInput = { (_: Int) throws(InputFileError) in Array(input.utf8) }
    let status = SleetCommandLine.run(arguments, output: output)
    return (status, out.withLock { $0 }, err.withLock { $0 })
  }

  @Test func theArticleRendersTheSameFramesAsTheSnowPreset() throws {
    try withFolder { folder in
      try write(Self.article, to: folder + "/snow.m")
      let r = runWithInput(["import", folder + "/snow.m", "--out", folder + "/snow.json"])
      #expect(r.status == 0)
      #expect(r.err.contains("snow.m:2: image 'favorite_hl' is not available"))
      #expect(r.err.hasSuffix("wrote \(folder)/snow.json\n"))
      #expect(runWithInput(["validate", folder + "/snow.json"]).status == 0)
      for time in ["4", "30"] {
        let a = runWithInput([
          "render", folder + "/snow.json", "--time", time, "--scale", "0.5", "--out", folder + "/a\(time).png",
        ])
        let b = runWithInput(["render", "snow", "--time", time, "--scale", "0.5", "--out", folder + "/b\(time).png"])
        #expect(a.status == 0 && b.status == 0)
        let pa = try #require(fileBytes(folder + "/a\(time).png"))
        #expect(pa == fileBytes(folder + "/b\(time).png"))
      }
    }
  }

  @Test func printsToStandardOutputAndReadsStandardInput() throws {
    let r = runWithInput(["import", "-", "--size", "430x932"], input: Self.article)
    #expect(r.status == 0)
    let effect = try Effect(json: r.out)
    #expect(effect.summary == "Imported from standard input")
    #expect(effect.emitter.emitterSize == SIMD2(860, 100))
    #expect(effect.parameters.map(\.value) == [430])
    #expect(r.err.hasPrefix("standard input:2: image 'favorite_hl'"))
  }

  @Test func reportsUntranslatedLinesAndStrictRefusesThem() throws {
    try withFolder { folder in
      let source = Self.article + "\n_emitterLayer.opacity = 0.5;\ncell.style = nil;\n"
      try write(source, to: folder + "/snow.m")
      let lenient = runWithInput(["import", folder + "/snow.m"])
      #expect(lenient.status == 0)
      #expect(
        lenient.err.contains(
          "snow.m:20: 'opacity' of CAEmitterLayer is not an emitter property: not imported\n    _emitterLayer.opacity = 0.5;\n"
        ))
      #expect(lenient.err.contains("snow.m:21: 'style' is not a CAEmitterCell property SleetKit has: not imported"))
      let strict = runWithInput(["import", folder + "/snow.m", "--strict", "--out", folder + "/snow.json"])
      #expect(strict.status == 2)
      #expect(strict.out.isEmpty)
      #expect(strict.err.contains("snow.m: 2 statements were not translated (--strict); nothing written"))
      #expect(!FileManager.default.fileExists(atPath: folder + "/snow.json"))
      // A sprite stand-in alone is not untranslated code.
      try write(Self.article, to: folder + "/plain.m")
      #expect(runWithInput(["import", folder + "/plain.m", "--strict"]).status == 0)
    }
  }

  @Test func spritesFolderAndUsageErrors() throws {
    try withFolder { folder in
      try write(Self.article, to: folder + "/snow.m")
      try PNGFile.write(DemoPicture.first.image(width: 4, height: 4), to: folder + "/favorite_hl.png")
      let r = runWithInput(["import", folder + "/snow.m", "--sprites", folder])
      #expect(r.status == 0 && r.err.isEmpty)
      #expect(try Effect(json: r.out).emitter.emitterCells[0].contents?.name == folder + "/favorite_hl.png")
      #expect(runWithInput(["import", folder + "/snow.m", "--sprites", folder + "/none"]).status == 2)
      #expect(runWithInput(["import", folder + "/missing.m"]).status == 2)
      #expect(runWithInput(["import"]).status == 2)
      #expect(runWithInput(["import", folder + "/snow.m", "--size", "0x5"]).status == 2)
      try write("let c = CAEmitterCell()\n", to: folder + "/nolayer.swift")
      let none = runWithInput(["import", folder + "/nolayer.swift"])
      #expect(none.status == 2 && none.err.contains("the code creates no CAEmitterLayer"))
      try write("{}", to: folder + "/exists.json")
      let refused = runWithInput(["import", folder + "/snow.m", "--out", folder + "/exists.json"])
      #expect(refused.status == 2)
      #expect(runWithInput(["import", folder + "/snow.m", "--out", folder + "/exists.json", "--force"]).status == 0)
    }
  }

  /// Effect files read sprite paths relative to their own folder: a relative
  /// --sprites folder is written absolute when the file goes elsewhere.
  @Test func spriteFolderIsWrittenAsTheEffectFileWillReadIt() {
    #expect(ImportCommand.spritePath("/abs/assets", out: "sub/x.json") == "/abs/assets")
    #expect(ImportCommand.spritePath("assets", out: nil) == "assets")
    #expect(ImportCommand.spritePath("assets", out: "-") == "assets")
    #expect(ImportCommand.spritePath("assets", out: "x.json") == "assets")
    let absolute = ImportCommand.spritePath("assets", out: "sub/x.json")
    #expect(absolute.hasPrefix("/") && absolute.hasSuffix("/assets") && absolute != "/assets")
  }

}
