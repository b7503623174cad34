import Glibc
import SleetMath
import SleetParticles
import Testing
import _SleetTestSupport

@testable import SleetPreview

@Suite("APNG streamed to disk")
struct APNGStreamTests {
  /// `count` random frames with mixed delays.
  func frames(_ count: Int, width: Int = 11, height: Int = 7) -> (images: [RGBAImage], delays: [FrameDelay]) {
    let images = (0..<count).map { randomOpaqueImage(width: width, height: height, seed: UInt64(70 + $0)) }
    let delays = (0..<count).map { FrameDelay(numerator: UInt16(1 + $0 % 3), denominator: 30) }
    return (images, delays)
  }

  /// The in-memory encoder's bytes for the same frames.
  func reference(_ images: [RGBAImage], _ delays: [FrameDelay], loopCount: UInt32 = 0) -> [UInt8] {
    var encoder = APNGEncoder(width: images[0].width, height: images[0].height, loopCount: loopCount)
    encoder.append(contentsOf: images, delays: delays)
    return encoder.encoded()
  }

  @Test func fileWriterWritesTheEncodersBytesBatchByBatch() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let (images, delays) = frames(7)
    let path = folder + "/a.apng"
    let writer = try APNGFileWriter(path: path, width: 11, height: 7, loopCount: 3)
    // Batches of 3, 1 and 3 frames; the file stays hidden until finish().
    for range in [0..<3, 3..<4, 4..<7] {
      try writer.append(contentsOf: Array(images[range]), delays: Array(delays[range]))
      #expect(folderEntries(folder).count == 1 && !folderEntries(folder).contains("a.apng"))
    }
    #expect(writer.frameCount == 7)
    let temporary = writer.temporaryPath
    #expect(temporary.hasPrefix(folder + "/.a.apng.tmp-\(getpid())-"))
    try writer.finish()
    #expect(folderEntries(folder) == ["a.apng"])
    // The acTL frame count was fixed up: byte for byte the in-memory file.
    #expect(fileBytes(path) == reference(images, delays, loopCount: 3))
  }

  @Test func streamEncoderWithAnAnnouncedCountNeedsNoFixUp() {
    let (images, delays) = frames(5)
    var stream = APNGStreamEncoder(width: 11, height: 7, frameCount: 5)
    var bytes = stream.header()
    bytes += stream.frames(Array(images[0..<2]), delays: Array(delays[0..<2]))
    bytes += stream.frames(Array(images[2...]), delays: Array(delays[2...]))
    bytes += stream.trailer()
    #expect(bytes == reference(images, delays))
    // Without a count the header says 0 frames; the fix-up chunk goes at
    // animationControlOffset.
    var open = APNGStreamEncoder(width: 11, height: 7)
    var patched = open.header()
    patched += open.frames(images, delays: delays) + open.trailer()
    let fix = open.animationControl(frameCount: open.frameCount)
    #expect(Array(patched[46..<66]) != fix)
    patched.replaceSubrange(APNGStreamEncoder.animationControlOffset..<66, with: fix)
    #expect(patched == bytes)
  }

  @Test func anUnfinishedWriterLeavesNothingAndKeepsThePreviousFile() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let path = folder + "/keep.apng"
    try FileOutput.atomicWrite([1, 2, 3], to: path)
    do {
      let writer = try APNGFileWriter(path: path, width: 11, height: 7)
      let (images, delays) = frames(2)
      try writer.append(contentsOf: images, delays: delays)
      #expect(folderEntries(folder).count == 2)
    }  // released without finish()
    #expect(folderEntries(folder) == ["keep.apng"])
    #expect(fileBytes(path) == [1, 2, 3])
    // discard() likewise.
    let writer = try APNGFileWriter(path: path, width: 1, height: 1)
    writer.discard()
    #expect(folderEntries(folder) == ["keep.apng"])
  }
}
