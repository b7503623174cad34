import Glibc
import SleetMath
import SleetParticles
import Synchronization
import Testing
import _SleetTestSupport

@testable import SleetPreview

/// A format for testing ``AnimationFileWriter``: a frame is the red byte of
/// its first pixel. The file is a 4-byte frame-count placeholder, then a
/// byte per frame, then `0xFF`; ``finish(into:)`` writes the count over the
/// placeholder. Preparation sleeps longer for earlier frames, so under
/// parallel preparation later frames tend to finish first.
private struct RedByteEncoder: AnimationEncoder {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let width = 2
  let height = 2
  var frameCount = 0
  /// The frame whose encoding fails, if any.
  var failingFrame: Int?
  /// Whether ``finish(into:)`` fails.
  var failsToFinish = false
  /// How many images were prepared, on any thread.
  let prepared = PreparationCount()

  var framePreparation: @Sendable (RGBAImage) -> UInt8 {
    { [prepared] image in
      let red = image.straightRGBA8()[0]
      usleep(UInt32(255 - Int(red)) * 40)
      prepared.value.add(1, ordering: .relaxed)
      return red
    }
  }

  func start(into output: inout AnimationOutput) { output.bytes += [0, 0, 0, 0] }

  mutating func encode(_ frame: UInt8, delay: FrameDelay, into output: inout AnimationOutput) throws(Failure) {
    if frameCount == failingFrame { throw Failure(description: "frame \(frameCount) refused") }
    output.bytes.append(frame)
    frameCount += 1
  }

  func finish(into output: inout AnimationOutput) throws(Failure) {
    if failsToFinish { throw Failure(description: "no trailer") }
    output.bytes.append(0xFF)
    output.overwrite(at: 0, with: [0, 0, 0, UInt8(frameCount)])
  }
}

/// A counter the encoder's copies share.
private final class PreparationCount: Sendable {
  let value = Atomic<Int>(0)
}

@Suite("The animation writer over an encoder")
struct AnimationFileWriterTests {
  /// 2×2 frames whose red byte is the frame's index.
  static func frames(_ range: Range<Int>) -> (images: [RGBAImage], delays: [FrameDelay]) {
    let images = range.map { RGBAImage(width: 2, height: 2, fill: SIMD4(Float($0) / 255, 0, 0, 1)) }
    return (images, Array(repeating: FrameDelay(framesPerSecond: 30), count: range.count))
  }

  @Test func framesAreEncodedInOrderUnderParallelPreparation() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let path = folder + "/a.test"
    let encoder = RedByteEncoder()
    let writer = try AnimationFileWriter(path: path, encoder: encoder)
    for range in [0..<24, 24..<25, 25..<60] {
      let (images, delays) = Self.frames(range)
      try writer.append(contentsOf: images, delays: delays)
      #expect(!folderEntries(folder).contains("a.test"))
    }
    #expect(writer.frameCount == 60)
    #expect(encoder.prepared.value.load(ordering: .relaxed) == 60)
    // The placeholder until finish(), then the count written over it.
    #expect(fileBytes(writer.temporaryPath) == [0, 0, 0, 0] + (0..<60).map { UInt8($0) })
    try writer.finish()
    #expect(folderEntries(folder) == ["a.test"])
    #expect(fileBytes(path) == [0, 0, 0, 60] + (0..<60).map { UInt8($0) } + [0xFF])
  }

  @Test func anEncoderErrorLeavesNoFileAndThePreviousOneIntact() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let path = folder + "/a.test"
    try FileOutput.atomicWrite([1, 2, 3], to: path)

    var failing = RedByteEncoder()
    failing.failingFrame = 7
    let writer = try AnimationFileWriter(path: path, encoder: failing)
    let (first, firstDelays) = Self.frames(0..<5)
    try writer.append(contentsOf: first, delays: firstDelays)
    #expect(folderEntries(folder).count == 2)
    let (second, secondDelays) = Self.frames(5..<10)
    #expect(throws: ImageFileError.cannotWrite(path: path, reason: "frame 7 refused")) {
      try writer.append(contentsOf: second, delays: secondDelays)
    }
    #expect(folderEntries(folder) == ["a.test"])
    #expect(fileBytes(path) == [1, 2, 3])

    var unfinished = RedByteEncoder()
    unfinished.failsToFinish = true
    let other = try AnimationFileWriter(path: path, encoder: unfinished)
    try other.append(contentsOf: first, delays: firstDelays)
    #expect(throws: ImageFileError.cannotWrite(path: path, reason: "no trailer")) { try other.finish() }
    #expect(folderEntries(folder) == ["a.test"])
    #expect(fileBytes(path) == [1, 2, 3])
  }

  @Test func anUnwritableFolderFailsBeforeAnyFrame() {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let path = folder + "/missing/a.test"
    #expect {
      _ = try AnimationFileWriter(path: path, encoder: RedByteEncoder())
    } throws: { error in
      guard case .cannotWrite(let named, let reason) = error as? ImageFileError else { return false }
      return named == path && reason.hasPrefix("cannot create a temporary file")
    }
    #expect(folderEntries(folder).isEmpty)
  }
}
