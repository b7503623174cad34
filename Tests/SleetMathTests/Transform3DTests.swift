import Testing

@testable import SleetMath

/// Entry-wise closeness in absolute terms (entries here are O(1)).
func isClose(_ a: Transform3D, _ b: Transform3D, tolerance: Float = 1e-6) -> Bool {
  zip(a.entries, b.entries).allSatisfy { abs($0 - $1) <= tolerance }
}

@Suite("Transform3D (CATransform3D semantics)")
struct Transform3DTests {
  @Test func identityAndNamedEntries() {
    let t = Transform3D.identity
    #expect(t.isIdentity)
    #expect(t.isAffine)
    #expect(t.m11 == 1 && t.m22 == 1 && t.m33 == 1 && t.m44 == 1)
    #expect(t.entries.reduce(0, +) == 4)
    #expect(MemoryLayout<Transform3D>.size == 64)
    #expect(MemoryLayout<Transform3D>.stride == 64)
  }

  @Test func translationLivesInRowFour() {
    let t = Transform3D.makeTranslation(x: 3, y: -4, z: 5)
    #expect(t.m41 == 3 && t.m42 == -4 && t.m43 == 5)
    #expect(t.projecting(SIMD3(1, 1, 1)) == SIMD3(4, -3, 6))
  }

  @Test func rotationAboutZIsClockwiseOnAYDownScreen() {
    let r = Transform3D.makeRotation(angle: .pi / 2, x: 0, y: 0, z: 1)
    let p = r.projecting(SIMD3(1, 0, 0))!
    #expect(abs(p.x) < 1e-7 && abs(p.y - 1) < 1e-7)
    #expect(abs(r.m12 - 1) < 1e-7 && abs(r.m21 + 1) < 1e-7)
  }

  @Test func rotationByPiAboutYIsDiagonal() {
    let r = Transform3D.makeRotation(angle: .pi, x: 0, y: 1, z: 0)
    let expected = Transform3D.makeScale(x: -1, y: 1, z: -1)
    // Off-diagonal terms are sin(Float.pi) ≈ 1.5e-7 (Float.pi rounds toward zero).
    #expect(isClose(r, expected, tolerance: 2e-7))
  }

  @Test func rotationAxisIsNormalisedAndZeroAxisIsIdentity() {
    let a = Transform3D.makeRotation(angle: 0.7, x: 0, y: 5, z: 0)
    let b = Transform3D.makeRotation(angle: 0.7, x: 0, y: 1, z: 0)
    #expect(isClose(a, b, tolerance: 0))
    #expect(Transform3D.makeRotation(angle: 1, x: 0, y: 0, z: 0) == .identity)
  }

  @Test func concatenationAppliesLeftFirst() {
    // Translate then scale: (1,0,0) → (2,0,0) → (4,0,0).
    let t = Transform3D.makeTranslation(x: 1, y: 0, z: 0)
    let s = Transform3D.makeScale(x: 2, y: 2, z: 2)
    #expect(t.concatenating(s).projecting(SIMD3(1, 0, 0)) == SIMD3(4, 0, 0))
    #expect(s.concatenating(t).projecting(SIMD3(1, 0, 0)) == SIMD3(3, 0, 0))
    // CATransform3DTranslate(t, …) = translation · t.
    #expect(s.translated(x: 1, y: 0, z: 0) == t.concatenating(s))
    #expect(t.scaled(x: 2, y: 2, z: 2) == s.concatenating(t))
    let r = Transform3D.makeRotation(angle: 0.3, x: 1, y: 2, z: 3)
    #expect(t.rotated(angle: 0.3, x: 1, y: 2, z: 3) == r.concatenating(t))
  }

  @Test func inversion() {
    let m = Transform3D.makeRotation(angle: 0.4, x: 1, y: 1, z: 0)
      .concatenating(.makeTranslation(x: 10, y: -3, z: 2))
      .concatenating(.makeScale(x: 2, y: 3, z: 4))
    let inv = try! #require(m.inverse)
    #expect(isClose(m.concatenating(inv), .identity, tolerance: 1e-5))
    let singular = Transform3D.makeScale(x: 1, y: 0, z: 1)
    #expect(singular.inverse == nil)
    #expect(singular.inverted() == singular)
  }

  @Test func affineRoundTrip() {
    let a = AffineTransform2D(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
    let t = Transform3D(a)
    #expect(t.isAffine)
    #expect(t.affineTransform == a)
    #expect(t.projecting(SIMD3(1, 1, 0)).map { SIMD2($0.x, $0.y) } == a.applying(to: SIMD2(1, 1)))
    var p = Transform3D.identity
    p.m34 = -1 / 900
    #expect(!p.isAffine)
  }

  @Test func perspectiveDivideAndBehindTheEye() {
    let p = Transform3D.makePerspective(eyeDistance: 900)
    // w = 1 + z·m34: z = 450 toward the viewer gives w = 0.5, doubling x and y.
    let q = p.projecting(SIMD3(10, 20, 450))!
    #expect(abs(q.x - 20) < 1e-4 && abs(q.y - 40) < 1e-4)
    #expect(p.projecting(SIMD3(10, 20, 900)) == nil)
    #expect(p.projecting(SIMD3(10, 20, 1000)) == nil)
  }
}
