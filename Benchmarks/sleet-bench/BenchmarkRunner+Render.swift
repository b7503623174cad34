import SleetKit

/// The preview renderer on the `sleet demo` scenes: one frame per call at the
/// demo's size (390×844 pt at 0.5 px/pt = 195×422 px), so items/s is frames/s.
/// The particle and shatter frames are computed in the setup; a call clears
/// the image and rasterises. Cases: `serial` (one band, calling thread, the
/// baseline) and `parallel` (16-row bands on `concurrentPerform`, bit-identical
/// output). Byte model: the 195×422 × 16 B framebuffer cleared and written once.
extension BenchmarkRunner {
  static var render: BenchmarkSuite {
    BenchmarkSuite(name: "render") { _ in
      let (width, height, scale) = (195, 422, Float(0.5))
      let frameBytes = ByteModel(bytesPerItem: Double(width * height * 16), "195×422 px × 16 B framebuffer written")
      // Particle scenes at the times the demo shows them in full swing.
      let particleScenes: [(name: String, time: Double)] = [("snow", 46), ("fireworks", 4), ("confetti", 5)]
      var groups = particleScenes.map { scene in
        BenchmarkGroup(
          name: "\(scene.name) frame 195x422", items: 1, byteModel: frameBytes, baseline: "serial", reference: nil
        ) {
          let effect = try Effect.preset(named: scene.name)
          let system = try benchmarkSystem(effect, suite: "render")
          system.seek(to: scene.time)
          var frame = ParticleFrame()
          system.render(into: &frame)
          let sprites = SpriteLibrary(pixelsPerPoint: scale)
          let box = ImageBox(RGBAImage(width: width, height: height))
          let particles = frame
          func draw(_ options: RasterOptions) {
            box.image.clear(to: .black)
            do {
              try Renderer(pixelsPerPoint: scale, options: options).render(
                particles, into: &box.image, sprites: sprites)
            } catch {
              fatalError("render suite: \(error)")
            }
            blackHole(box.image[0, 0])
          }
          draw(.serial)  // resolves and caches the sprites
          return [
            BenchmarkCase("serial") { draw(.serial) },
            BenchmarkCase("parallel") { draw(RasterOptions()) },
          ]
        }
      }
      groups.append(
        BenchmarkGroup(
          name: "checkerboard frame 195x422", items: 1, byteModel: frameBytes, baseline: "serial", reference: nil
        ) {
          let transition = ShatterTransition(style: .checkerboard, width: 390, height: 844)
          let frame = transition.frame(at: transition.endTime / 2)
          let from = DemoPicture.first.image(width: width, height: height)
          let to = DemoPicture.second.image(width: width, height: height)
          let box = ImageBox(RGBAImage(width: width, height: height))
          func draw(_ options: RasterOptions) {
            Renderer(pixelsPerPoint: scale, options: options).render(frame, from: from, to: to, into: &box.image)
            blackHole(box.image[0, 0])
          }
          return [
            BenchmarkCase("serial") { draw(.serial) },
            BenchmarkCase("parallel") { draw(RasterOptions()) },
          ]
        })
      return groups
    }
  }
}

/// A framebuffer the cases reuse (allocated in the setup).
private final class ImageBox {
  var image: RGBAImage
  init(_ image: RGBAImage) { self.image = image }
}
