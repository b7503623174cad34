import SleetKitCHeader
import SleetParticles
import Testing

/// The header's structs, as the Swift compiler imports them, have the sizes
/// and offsets sleetkit.h documents, and the instance structs have exactly
/// the Swift types' layout: SleetKitC copies frames into them byte for byte.
/// (The header checks the same offsets with _Static_assert for C compilers.)
@Suite("C API layout")
struct LayoutTests {
  @Test func fullInstanceIsTheSwiftInstance() {
    typealias C = sleet_particle_instance
    typealias S = ParticleInstance
    #expect(MemoryLayout<C>.size == 64 && MemoryLayout<C>.stride == 64)
    #expect(MemoryLayout<S>.size == 64 && MemoryLayout<S>.stride == 64)
    let fields: [(PartialKeyPath<C>, PartialKeyPath<S>, Int)] = [
      (\C.x, \S.x, 0), (\C.y, \S.y, 4), (\C.z, \S.z, 8), (\C.scale, \S.scale, 12), (\C.color, \S.color, 16),
      (\C.contents_rect, \S.contentsRect, 32), (\C.rotation, \S.rotation, 48),
      (\C.normalized_age, \S.normalizedAge, 52), (\C.sprite, \S.sprite, 56), (\C.cell, \S.cell, 60),
    ]
    for (c, s, offset) in fields {
      #expect(MemoryLayout<C>.offset(of: c) == offset, "\(c)")
      #expect(MemoryLayout<S>.offset(of: s) == offset, "\(s)")
    }
    // The same bytes read as the C struct give the Swift fields.
    let instance = ParticleInstance(
      x: 1, y: -2, z: 3.5, scale: 0.25, color: SIMD4(0.1, 0.2, 0.3, 0.4), contentsRect: SIMD4(0, 0.5, 0.5, 0.5),
      rotation: -1.5, normalizedAge: 0.75, sprite: ParticleInstance.noSprite, cell: 9)
    let c = unsafeBitCast(instance, to: C.self)
    #expect(c.x == 1 && c.y == -2 && c.z == 3.5 && c.scale == 0.25)
    #expect(c.color.0 == 0.1 && c.color.3 == 0.4 && c.contents_rect.1 == 0.5 && c.contents_rect.3 == 0.5)
    #expect(c.rotation == -1.5 && c.normalized_age == 0.75 && c.sprite == SLEET_NO_SPRITE && c.cell == 9)
  }

  @Test func compactInstanceIsTheSwiftCompactInstance() {
    typealias C = sleet_compact_particle_instance
    typealias S = CompactParticleInstance
    #expect(MemoryLayout<C>.size == 32 && MemoryLayout<C>.stride == 32)
    #expect(MemoryLayout<S>.size == 32 && MemoryLayout<S>.stride == 32)
    let fields: [(PartialKeyPath<C>, PartialKeyPath<S>, Int)] = [
      (\C.x, \S.x, 0), (\C.y, \S.y, 4), (\C.z, \S.z, 8), (\C.scale, \S.scale, 12), (\C.rotation, \S.rotation, 16),
      (\C.normalized_age, \S.normalizedAge, 20), (\C.color, \S.color, 24), (\C.sprite, \S.sprite, 28),
      (\C.cell, \S.cell, 30),
    ]
    for (c, s, offset) in fields {
      #expect(MemoryLayout<C>.offset(of: c) == offset, "\(c)")
      #expect(MemoryLayout<S>.offset(of: s) == offset, "\(s)")
    }
    let full = ParticleInstance(
      x: 1, y: 2, z: 3, scale: 4, color: SIMD4(0, 1, 0.5, 0.25), contentsRect: SIMD4(0, 0, 1, 1), rotation: 5,
      normalizedAge: 0.5, sprite: ParticleInstance.noSprite, cell: 7)
    let c = unsafeBitCast(CompactParticleInstance(full), to: C.self)
    #expect(c.color.0 == 0 && c.color.1 == 255 && c.color.2 == 128 && c.color.3 == 64)
    #expect(UInt32(c.sprite) == SLEET_COMPACT_NO_SPRITE && c.cell == 7 && c.rotation == 5 && c.normalized_age == 0.5)
  }

  @Test func otherStructsHaveTheDocumentedOffsets() {
    typealias L = sleet_transition_layer
    #expect(MemoryLayout<L>.size == 192 && MemoryLayout<L>.stride == 192)
    let layer: [(PartialKeyPath<L>, Int)] = [
      (\L.transform, 0), (\L.corners, 64), (\L.texture_corners, 96), (\L.color, 128), (\L.mask, 144),
      (\L.opacity, 176), (\L.depth, 180), (\L.content, 184), (\L.has_mask, 188),
    ]
    for (field, offset) in layer { #expect(MemoryLayout<L>.offset(of: field) == offset, "\(field)") }
    typealias T = sleet_checkerboard_tile
    #expect(MemoryLayout<T>.size == 24)
    #expect(MemoryLayout<T>.offset(of: \T.duration) == 8 && MemoryLayout<T>.offset(of: \T.row) == 20)
    #expect(MemoryLayout<sleet_error>.size == 4 + Int(SLEET_ERROR_MESSAGE_SIZE))
  }
}
