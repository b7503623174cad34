import Testing

@testable import SleetMath

@Suite("Transform3DBatch storage")
struct Transform3DBatchStorageTests {
  @Test func alignmentAndCopyOnWrite() {
    var a = Transform3DBatch(repeating: .identity, count: 5)
    a.withUnsafeBufferPointer { #expect(Int(bitPattern: $0.baseAddress) % 64 == 0) }
    let b = a
    a[2] = .makeTranslation(x: 1, y: 2, z: 3)
    #expect(b[2] == .identity)
    #expect(a[2].m41 == 1)
    #expect(a != b)
    #expect(Transform3DBatch(Array(a)) == a)
  }
}
