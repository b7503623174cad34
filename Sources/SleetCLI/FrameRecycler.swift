import SleetKit
import Synchronization

/// Frames an output is done with, handed to the next batch to draw into.
///
/// A frame of 1080×1920 px is 33 MB of Float pixels: allocated afresh, it
/// is mapped and every page is faulted in and zeroed by the kernel, which
/// costs more than drawing a light frame. A long render instead cycles
/// through the frames of a few batches. Correct whatever holds a recycled
/// frame: `RGBAImage` is a value, so a frame still referenced elsewhere is
/// copied when drawn into, never changed under its holder.
final class FrameRecycler: Sendable {
  private let spare = Mutex<[RGBAImage]>([])
  /// The most frames kept for reuse.
  let capacity: Int

  init(capacity: Int) { self.capacity = capacity }

  /// A `width × height` frame filled with `background`: a spare frame of
  /// that size when there is one, otherwise a new one.
  func frame(width: Int, height: Int, background: ColorRGBA) -> RGBAImage {
    if var image = spare.withLock({ $0.popLast() }), image.width == width, image.height == height {
      image.clear(to: background)
      return image
    }
    return RGBAImage(width: width, height: height, background: background)
  }

  /// Keeps `frames` (up to ``capacity`` in all) for later ``frame(width:height:background:)`` calls.
  func recycle(_ frames: [RGBAImage]) {
    spare.withLock { spare in spare.append(contentsOf: frames.prefix(max(0, capacity - spare.count))) }
  }
}
