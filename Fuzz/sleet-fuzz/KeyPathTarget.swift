import SleetKit

/// `Emitter.KeyPath` and key-path reads and writes. Input: the key path up
/// to a 0 byte, then a byte choosing the emitter and one the value's kind,
/// then the value. Checked:
/// - a parsed path prints as the text it was parsed from, and reparses equal;
/// - reading then writing back leaves the emitter unchanged (documented:
///   get-then-set is the identity);
/// - a successful write leaves a valid emitter (the setter checks values as
///   the effect reader does), reads back as a fixed point, and an effect with
///   that write as a timed change is accepted unless the path is a timing
///   property or a life-curve behavior's key.
enum KeyPathTarget {
  /// The presets' emitters and a synthetic one nested 6 deep.
  static let emitters: [Emitter] = {
    var list = Effect.presetNames.compactMap { try? Effect.preset(named: $0).emitter }
    var deep = EmitterCell(name: "a")
    for level in 0..<5 {
      var parent = EmitterCell(name: level % 2 == 0 ? "b" : "a")
      parent.emitterCells = [deep, EmitterCell(name: "c")]
      deep = parent
    }
    var emitter = Emitter()
    emitter.emitterCells = [deep, EmitterCell(name: "a")]
    list.append(emitter)
    // Behaviors of every kind on the layer and a cell.
    var withBehaviors = Emitter()
    withBehaviors.emitterBehaviors = [
      .wave(WaveBehavior(name: "sway", force: SIMD3(100, 0, 0), frequency: 0.5)),
      .attractor(AttractorBehavior(name: "pull", stiffness: 80, radius: 30, position: SIMD2(50, 60))),
      .colorOverLife(ColorOverLifeBehavior(name: "fade", colors: [.white, .clear], locations: [0, 1])),
    ]
    var cell = EmitterCell(name: "a")
    cell.emitterBehaviors = [
      .drag(DragBehavior(name: "brake", drag: 1.5)),
      .simpleAttractor(SimpleAttractorBehavior(name: "s", stiffness: 3)),
      .valueOverLife(ValueOverLifeBehavior(name: "grow", keyPath: .scale, values: [0.2, 1, 0.5])),
      .alignToMotion(AlignToMotionBehavior(name: "align", rotation: 0.25)),
    ]
    withBehaviors.emitterCells = [cell]
    list.append(withBehaviors)
    return list
  }()

  /// Whether `text` names a key of a life-curve behavior (`valueOverLife`,
  /// `colorOverLife`, `alignToMotion`) of `emitter`: read at time 0 only,
  /// so a timed change of it is refused by rule.
  static func namesLifeCurveKey(_ text: String, of emitter: Emitter) -> Bool {
    guard let path = try? Emitter.KeyPath(text), let name = path.behaviorName else { return false }
    let behaviors =
      path.cellNames.isEmpty ? emitter.emitterBehaviors : emitter.cell(named: path.cellNames)?.emitterBehaviors ?? []
    return behaviors.first { $0.name == name }.map { !$0.isForce } ?? false
  }

  static func run(_ bytes: [UInt8]) {
    var input = ByteReader(bytes)
    let text = String(decoding: input.field(), as: UTF8.self)
    var emitter = emitters[input.int(in: 0...(emitters.count - 1))]
    let value = propertyValue(&input)

    if let path = try? Emitter.KeyPath(text) {
      fuzzCheck(path.description == text, "'\(text)' parses to a path printed '\(path)'")
      fuzzCheck((try? Emitter.KeyPath(path.description)) == path, "'\(text)' does not reparse")
    }
    if let current = try? emitter.value(forKeyPath: text) {
      var copy = emitter
      do throws(KeyPathError) {
        try copy.setValue(current, forKeyPath: text)
      } catch {
        fuzzCheck(false, "writing back the value read at '\(text)' fails: \(error)")
      }
      fuzzCheck(copy == emitter, "get-then-set at '\(text)' changes the emitter")
    }
    let before = emitter
    do throws(KeyPathError) {
      try emitter.setValue(value, forKeyPath: text)
    } catch {
      fuzzCheck(emitter == before, "a failed write at '\(text)' changed the emitter")
      return
    }
    do throws(EffectValidationError) {
      try Effect(emitter: emitter).validate(includingSprites: false)
    } catch {
      fuzzCheck(false, "writing \(value) at '\(text)' leaves an invalid emitter: \(error)")
    }
    guard let stored = try? emitter.value(forKeyPath: text) else {
      fuzzCheck(false, "'\(text)' cannot be read after a write")
      return
    }
    var again = emitter
    try? again.setValue(stored, forKeyPath: text)
    fuzzCheck(again == emitter, "the value read back at '\(text)' does not write back to itself")

    // The same write as a timed change (timing properties are refused by rule).
    let change = PropertyChange(time: 1, keyPath: text, value: value)
    let timing =
      ["beginTime", "duration", "speed", "timeOffset"].contains { text.hasSuffix($0) } || text == "seed"
      || namesLifeCurveKey(text, of: before)
    do throws(EffectValidationError) {
      let effect = try Effect(emitter: before, changes: [change])
      fuzzCheck(!timing, "a timed change of '\(text)' was accepted")
      fuzzCheck(effect.emitter(at: 2) == emitter, "the change at '\(text)' applies differently")
    } catch {
      fuzzCheck(timing, "the timed change \(value) at '\(text)' was refused: \(error)")
    }
  }

  /// A value of the kind the next byte chooses, from the bytes after it.
  static func propertyValue(_ input: inout ByteReader) -> PropertyValue {
    func number(_ input: inout ByteReader) -> Double {
      var bits: UInt64 = 0
      for _ in 0..<8 { bits = bits << 8 | UInt64(input.byte()) }
      // Small integers half the time, any bit pattern the other half.
      return bits >> 63 == 0 ? Double(Int64(bitPattern: bits) % 1000) / 4 : Double(bitPattern: bits)
    }
    switch input.byte() % 4 {
    case 0: return .number(number(&input))
    case 1: return .bool(input.byte() & 1 == 1)
    case 2: return .string(String(decoding: input.rest(), as: UTF8.self))
    default:
      let count = input.int(in: 0...5)
      return .vector((0..<count).map { _ in number(&input) })
    }
  }
}
