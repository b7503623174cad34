import CSleetKernels
import SleetGPU
import SleetParticles
import Testing

/// The shader's generated declarations against `sleet_layout.h`, read from
/// the shader's text as a GLSL compiler would lay them out: `struct Birth`'s
/// members at their std430 offsets (4-byte scalars packed in order) are the
/// members of `sleet_gpu_birth_slot` at the C compiler's offsets, with the
/// same scalar types; `constantsRow` and `constantsCell` take each field of
/// the constants row from the lanes of `sleet_constants_row`. Needs no GPU.
@Suite("Shader layouts agree with sleet_layout.h")
struct ShaderLayoutAgreementTests {
  typealias Slot = sleet_gpu_birth_slot
  typealias Row = sleet_constants_row

  /// The text between `open` and the next `close` after it.
  static func section(_ text: String, from open: String, to close: String) -> Substring? {
    guard let start = text.range(of: open) else { return nil }
    guard let end = text.range(of: close, range: start.upperBound..<text.endIndex) else { return nil }
    return text[start.upperBound..<end.lowerBound]
  }

  /// The members of GLSL struct `name` in `text`: (type, name) in order.
  static func members(ofStruct name: String, in text: String) -> [(type: String, name: String)] {
    guard let body = section(text, from: "struct \(name) {", to: "};") else { return [] }
    return body.split(separator: ";").compactMap { declaration in
      let words = declaration.split(whereSeparator: \.isWhitespace)
      return words.count == 2 ? (String(words[0]), String(words[1])) : nil
    }
  }

  /// Each field of the C slot: its byte offset and whether it is an
  /// unsigned integer (else a float), by name.
  static func cSlotFields() -> [String: (offset: Int, isUInt: Bool)] {
    func field<T>(_ path: KeyPath<Slot, T>) -> (offset: Int, isUInt: Bool) {
      (MemoryLayout<Slot>.offset(of: path)!, T.self == UInt32.self)
    }
    return [
      "birthKeyLow": field(\.birthKeyLow), "birthKeyHigh": field(\.birthKeyHigh),
      "deathKeyLow": field(\.deathKeyLow), "deathKeyHigh": field(\.deathKeyHigh),
      "birthHigh": field(\.birthHigh), "birthLow": field(\.birthLow),
      "inverseLifetime": field(\.inverseLifetime), "constantsRow": field(\.constantsRow),
      "positionX": field(\.positionX), "positionY": field(\.positionY), "positionZ": field(\.positionZ),
      "scale": field(\.scale), "velocityX": field(\.velocityX), "velocityY": field(\.velocityY),
      "velocityZ": field(\.velocityZ), "spin": field(\.spin), "red": field(\.red), "green": field(\.green),
      "blue": field(\.blue), "alpha": field(\.alpha), "idLow": field(\.idLow), "idHigh": field(\.idHigh),
      "lifetime": field(\.lifetime), "reserved": field(\.reserved),
    ]
  }

  @Test(arguments: [1, 2, 3])
  func birthStructIsTheCSlot(pass: Int) {
    let members = Self.members(ofStruct: "Birth", in: ParticleShader.source(pass: pass))
    let c = Self.cSlotFields()
    #expect(members.count == c.count)
    var offset = 0
    for member in members {
      // std430: a 4-byte scalar at the next 4-byte boundary.
      #expect(member.type == "uint" || member.type == "float", "\(member.name)")
      #expect(c[member.name]?.offset == offset, "\(member.name) at \(offset)")
      #expect(c[member.name]?.isUInt == (member.type == "uint"), "\(member.name)")
      offset += 4
    }
    #expect(offset == MemoryLayout<Slot>.size && offset == MemoryLayout<GPUBirthSlot>.stride)
  }

  /// The lane each generated `kN.c` term reads: 4·N + (x, y, z, w).
  static func lanes(_ expression: Substring) -> [Int] {
    var out: [Int] = []
    var rest = expression[...]
    while let k = rest.firstRange(of: "k") {
      rest = rest[k.upperBound...]
      let digits = rest.prefix { $0.isNumber }
      guard let vec4 = Int(digits) else { continue }
      rest = rest.dropFirst(digits.count)
      guard rest.first == ".", let component = rest.dropFirst().first,
        let c = "xyzw".firstIndex(of: component)
      else { continue }
      out.append(4 * vec4 + "xyzw".distance(from: "xyzw".startIndex, to: c))
    }
    return out
  }

  /// The constants row's fields come from the C row's lanes, and each row is
  /// read at the C row's stride.
  @Test func constantsRowReadsTheCRowsLanes() {
    let text = ParticleShader.source(pass: 3)
    func lane(_ path: PartialKeyPath<Row>) -> Int { MemoryLayout<Row>.offset(of: path)! / 4 }
    let expected: [String: (type: String, lanes: [Int])] = [
      "halfAcceleration": ("vec3", (0..<3).map { lane(\.halfAcceleration) + $0 }),
      "scaleSpeed": ("float", [lane(\.scaleSpeed)]),
      "colorSpeed": ("vec4", (0..<4).map { lane(\.colorSpeed) + $0 }),
      "contentsRect": ("vec4", (0..<4).map { lane(\.contentsRect) + $0 }),
      "sprite": ("uint", [lane(\.sprite)]), "cell": ("uint", [lane(\.cell)]),
      "compactSpriteCell": ("uint", [lane(\.compactSpriteCell)]),
    ]
    let members = Self.members(ofStruct: "ConstantsRow", in: text)
    #expect(members.map(\.name).sorted() == expected.keys.sorted())
    let vec4s = MemoryLayout<Row>.size / 16
    guard let function = Self.section(text, from: "ConstantsRow constantsRow(uint row) {", to: "}") else {
      Issue.record("no constantsRow function")
      return
    }
    for k in 0..<vec4s {
      #expect(function.contains("vec4 k\(k) = constantsRows[row * \(vec4s)u + \(k)u];"), "k\(k)")
    }
    guard let arguments = Self.section(String(function), from: "return ConstantsRow(", to: ");") else {
      Issue.record("no constructor in constantsRow")
      return
    }
    // The constructor's arguments in member order, split at the top level.
    var depth = 0
    var split: [Substring] = []
    var start = arguments.startIndex
    for i in arguments.indices {
      switch arguments[i] {
      case "(": depth += 1
      case ")": depth -= 1
      case "," where depth == 0:
        split.append(arguments[start..<i])
        start = arguments.index(after: i)
      default: break
      }
    }
    split.append(arguments[start...])
    #expect(split.count == members.count)
    for (member, argument) in zip(members, split) {
      #expect(member.type == expected[member.name]?.type, "\(member.name)")
      #expect(Self.lanes(argument) == expected[member.name]?.lanes, "\(member.name): \(argument)")
      #expect(argument.contains("floatBitsToUint") == (member.type == "uint"), "\(member.name)")
    }
    guard let cell = Self.section(text, from: "uint constantsCell(uint row) {", to: "}") else {
      Issue.record("no constantsCell function")
      return
    }
    let cellVec4 = lane(\.cell) / 4
    #expect(cell.contains("vec4 k\(cellVec4) = constantsRows[row * \(vec4s)u + \(cellVec4)u];"))
    #expect(Self.lanes(cell.split(separator: "return").last ?? "") == [lane(\.cell)])
  }
}
