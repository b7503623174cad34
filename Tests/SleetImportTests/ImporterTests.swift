import Foundation
import SleetParticles
import Testing

@testable import SleetImport

/// The parts of the importer one at a time: expressions, constants,
/// geometry, sprites, changes and errors (docs/import.md).
@Suite("sleet import: expressions, geometry, sprites, changes, errors")
struct ImporterTests {
  /// The effect `body` builds, its cell named "c" set up by `cell` lines.
  func importCell(_ lines: String, layer: String = "") throws -> (EmitterCell, ImportResult) {
    let source = """
      let l = CAEmitterLayer()
      let c = CAEmitterCell()
      c.name = "c"
      \(lines)
      l.emitterCells = [c]
      \(layer)
      """
    let result = try EffectImporter.importEffect(from: source)
    return (try #require(result.effect.emitter.emitterCells.first), result)
  }

  @Test func numbersConstantsAndArithmetic() throws {
    let (cell, result) = try importCell(
      """
      c.birthRate = 10.0f + 1e1 * 2
      c.lifetime = CGFloat(3) / 2
      c.velocity = -(4 - 1) * -2
      c.emissionLongitude = Float.pi
      c.emissionLatitude = CGFloat.pi / 4
      c.emissionRange = M_PI_2
      c.spin = .pi * 2
      c.spinRange = Double.pi
      c.scale = 0x10 / 32
      c.beginTime = 1_000.5
      c.xAcceleration = 7 % 4
      """)
    #expect(result.untranslated.isEmpty)
    #expect(cell.birthRate == 30 && cell.lifetime == 1.5 && cell.velocity == 6)
    #expect(cell.emissionLongitude == Float.pi && cell.emissionLatitude == Float(Double.pi / 4))
    #expect(cell.emissionRange == 1.5707964 && cell.spin == 6.2831855 && cell.spinRange == 3.1415927)
    #expect(cell.scale == 0.5 && cell.beginTime == 1000.5 && cell.xAcceleration == 3)
  }

  @Test func constantsInBothSpellings() throws {
    for (swift, objc, shape) in [
      (".line", "kCAEmitterLayerLine", EmitterShape.line), (".sphere", "kCAEmitterLayerSphere", .sphere),
    ] {
      for spelling in [swift, objc, "CAEmitterLayerEmitterShape\(swift)"] {
        let source = "let l = CAEmitterLayer()\nl.emitterShape = \(spelling)\nl.renderMode = kCAEmitterLayerBackToFront"
        let effect = try EffectImporter.importEffect(from: source).effect
        #expect(effect.emitter.emitterShape == shape && effect.emitter.renderMode == .backToFront)
      }
      _ = objc
    }
  }

  @Test func colours() throws {
    for (expression, rgba) in [
      ("UIColor.red.cgColor", SIMD4<Float>(1, 0, 0, 1)),
      ("UIColor(red: 1, green: 0.5, blue: 0.25, alpha: 0.5).cgColor", SIMD4(1, 0.5, 0.25, 0.5)),
      ("[UIColor colorWithRed:0 green:1 blue:0 alpha:1].CGColor", SIMD4(0, 1, 0, 1)),
      ("UIColor.systemBlue.cgColor", SIMD4(0, Float(122.0 / 255), 1, 1)),
      ("[UIColor systemOrangeColor].CGColor", SIMD4(1, Float(149.0 / 255), 0, 1)),
      ("UIColor.white.withAlphaComponent(0.3).cgColor", SIMD4(1, 1, 1, 0.3)),
      ("[[UIColor blackColor] colorWithAlphaComponent:0.5].CGColor", SIMD4(0, 0, 0, 0.5)),
      ("UIColor(white: 0.25, alpha: 1).cgColor", SIMD4(0.25, 0.25, 0.25, 1)),
      ("NSColor(red: 0, green: 0, blue: 1, alpha: 1).cgColor", SIMD4(0, 0, 1, 1)),
    ] {
      let (cell, result) = try importCell("c.color = \(expression)")
      #expect(result.untranslated.isEmpty, "\(expression)")
      #expect(cell.color.vector == rgba, "\(expression)")
    }
  }

  @Test func viewGeometryBecomesParameters() throws {
    let source = """
      let l = CAEmitterLayer()
      l.emitterPosition = CGPoint(x: UIScreen.main.bounds.midX, y: self.view.bounds.size.height - 100)
      l.emitterSize = CGSizeMake([UIScreen mainScreen].bounds.size.width, view.frame.height / 4)
      """
    let result = try EffectImporter.importEffect(
      from: source, options: ImportOptions(size: ImportSize(width: 400, height: 800)))
    #expect(result.effect.emitter.emitterPosition == SIMD2(200, 700))
    #expect(result.effect.emitter.emitterSize == SIMD2(400, 200))
    let names = result.effect.parameters.map(\.name)
    #expect(names == ["height", "width"])
    let resized = try result.effect.settingParameters(["width": 100, "height": 80])
    #expect(resized.emitter.emitterPosition == SIMD2(50, -20))
    #expect(resized.emitter.emitterSize == SIMD2(100, 20))
  }

  @Test func geometryOfBothSidesIsKeptAsItsValueAndReported() throws {
    let source = "let l = CAEmitterLayer()\nl.emitterZPosition = bounds.width + bounds.height"
    let result = try EffectImporter.importEffect(from: source)
    #expect(result.effect.emitter.emitterZPosition == 390 + 844)
    #expect(result.effect.parameters.isEmpty)
    #expect(result.untranslated.map(\.line) == [2])
    #expect(result.untranslated[0].reason.contains("both the view's width and height"))
  }

  @Test func spritesFromAFolderOrBuiltIn() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sleet-import-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(FileManager.default.createFile(atPath: folder + "/flake.png", contents: Data([0])))
    let source = """
      let l = CAEmitterLayer()
      let a = CAEmitterCell()
      a.contents = UIImage(named: "flake")?.cgImage
      let b = CAEmitterCell()
      b.contents = UIImage(named: "glow_dot")?.cgImage
      let d = CAEmitterCell()
      d.contents = UIImage(named: "img_01")?.cgImage
      l.emitterCells = [a, b, d]
      """
    let found = try EffectImporter.importEffect(from: source, options: ImportOptions(spriteFolder: folder))
    #expect(found.effect.emitter.emitterCells.map { $0.contents?.name } == [folder + "/flake.png", "spark", "disc"])
    #expect(found.notes.map(\.line) == [5, 7] && found.notes.allSatisfy { $0.kind == .substitution })
    let builtIn = try EffectImporter.importEffect(from: source)
    #expect(builtIn.effect.emitter.emitterCells.map { $0.contents?.name } == ["snowflake", "spark", "disc"])
  }

  @Test func basicAnimationThatIsRemovedReturnsToTheModelValue() throws {
    let source = """
      let l = CAEmitterLayer()
      let c = CAEmitterCell()
      c.name = "c"
      c.birthRate = 50
      l.emitterCells = [c]
      let a = CABasicAnimation(keyPath: "emitterCells.c.birthRate")
      a.fromValue = 0
      a.byValue = 100
      a.duration = 2
      a.beginTime = CACurrentMediaTime() + 1
      l.add(a, forKey: "grow")
      """
    let changes = try EffectImporter.importEffect(from: source).effect.changes
    let path = "emitterCells.c.birthRate"
    #expect(
      changes == [
        PropertyChange(time: 1, keyPath: path, value: 0),
        PropertyChange(time: 1, keyPath: path, value: 100, duration: 2),
        PropertyChange(time: 3, keyPath: path, value: 50),
      ])
  }

  @Test func animationsOfOtherPropertiesAreReportedNotGuessed() throws {
    let source = """
      let l = CAEmitterLayer()
      let move = CABasicAnimation(keyPath: "emitterPosition")
      move.toValue = NSValue(cgPoint: CGPoint(x: 10, y: 10))
      l.add(move, forKey: nil)
      """
    let result = try EffectImporter.importEffect(from: source)
    #expect(result.effect.changes.isEmpty)
    #expect(result.untranslated.map(\.line) == [4])
  }

  @Test func delayedCodeBecomesChanges() throws {
    let source = """
      CAEmitterLayer *l = [CAEmitterLayer layer];
      CAEmitterCell *c = [CAEmitterCell emitterCell];
      c.name = @"c";
      c.birthRate = 20;
      l.emitterCells = @[c];
      dispatch_after(dispatch_time(DISPATCH_TIME_NOW, (int64_t)(1.5 * NSEC_PER_SEC)), dispatch_get_main_queue(), ^{
          c.birthRate = 0;
          l.emitterPosition = CGPointMake(5, 6);
      });
      """
    let result = try EffectImporter.importEffect(from: source)
    #expect(result.untranslated.isEmpty)
    #expect(result.effect.emitter.emitterCells[0].birthRate == 20)
    #expect(
      result.effect.changes == [
        PropertyChange(time: 1.5, keyPath: "emitterCells.c.birthRate", value: 0),
        PropertyChange(time: 1.5, keyPath: "emitterPosition", value: .vector([5, 6])),
      ])
  }

  @Test func errorsNameTheLine() {
    #expect(throws: ImportError.self) { try EffectImporter.importEffect(from: "let c = CAEmitterCell()") }
    do {
      _ = try EffectImporter.importEffect(
        from: "let l = CAEmitterLayer()\nlet c = CAEmitterCell()\nc.birthRate = -3\nl.emitterCells = [c]")
      Issue.record("a negative birth rate was imported")
    } catch {
      #expect(error.line == 3)
      #expect(error.description == "line 3: emitterCells[0].birthRate: must be ≥ 0, got -3")
    }
  }

  @Test func tokenizerReadsBothLanguages() {
    let tokens = SourceTokenizer.tokens("#import <UIKit/UIKit.h>\ncell.name = @\"a\\\"b\"; /* x\ny */ x = 10.0f // c\n")
    #expect(tokens.map(\.text) == ["cell", ".", "name", "=", "a\"b", ";", "x", "=", "10.0f"])
    #expect(tokens.map(\.line) == [2, 2, 2, 2, 2, 2, 3, 3, 3])
    #expect(
      SourceParser.number("10.0f") == 10 && SourceParser.number("1e3") == 1000 && SourceParser.number("0x1F") == 31)
  }

  @Test func siblingsSharingANameKeepTheFirst() throws {
    let source = """
      let l = CAEmitterLayer()
      func piece(_ color: UIColor) -> CAEmitterCell {
        let c = CAEmitterCell()
        c.name = "confetti"
        c.birthRate = 5
        c.color = color.cgColor
        return c
      }
      l.emitterCells = [UIColor.red, .green, .blue].map { piece($0) }
      l.setValue(9, forKeyPath: "emitterCells.confetti.birthRate")
      """
    let result = try EffectImporter.importEffect(from: source)
    let cells = result.effect.emitter.emitterCells
    #expect(cells.map(\.name) == ["confetti", nil, nil])
    #expect(cells.map(\.birthRate) == [9, 5, 5])
    #expect(result.untranslated.isEmpty)
    #expect(result.notes.map(\.line) == [4] && result.notes[0].kind == .substitution)
  }

  @Test func geometryBelowAnUnnamedCellIsKeptAndReported() throws {
    let source = """
      let l = CAEmitterLayer()
      let parent = CAEmitterCell()
      let child = CAEmitterCell()
      child.name = "child"
      child.velocity = bounds.width / 2
      parent.emitterCells = [child]
      l.emitterCells = [parent]
      """
    let result = try EffectImporter.importEffect(from: source)
    #expect(result.effect.parameters.isEmpty)
    #expect(result.effect.emitter.emitterCells[0].emitterCells[0].velocity == 195)
    #expect(result.untranslated.map(\.line) == [5])
    #expect(result.untranslated[0].reason.contains("its cell (or one above it) has no name"))
  }

  @Test func anAnimationFromTheValueSetNeedsNoChangeOfItsOwn() throws {
    let source = """
      let l = CAEmitterLayer()
      l.birthRate = 0.1
      let a = CABasicAnimation(keyPath: "birthRate")
      a.fromValue = 0.1
      a.toValue = 0.7
      a.duration = 2
      a.fillMode = .both
      a.isRemovedOnCompletion = false
      l.add(a, forKey: nil)
      """
    let changes = try EffectImporter.importEffect(from: source).effect.changes
    #expect(changes == [PropertyChange(time: 0, keyPath: "birthRate", value: 0.7, duration: 2)])
  }

}
