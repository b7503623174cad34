import Glibc
import Testing
import _SleetTestSupport

@testable import SleetMath

/// The limits in one place (SleetLimits) and the bounded input reader every
/// file reader uses (docs/reliability.md, "Limits").
@Suite("limits and bounded input files")
struct LimitsTests {
  @Test func theLimitsAreTheDocumentedNumbers() {
    #expect(SleetLimits.imageSide == 8192)
    #expect(SleetLimits.imagePixels == 33_554_432)
    #expect(SleetLimits.frames == 100_000)
    #expect(SleetLimits.cellDepth == 16)
    #expect(SleetLimits.jsonFileBytes == 16 << 20 && SleetLimits.pngFileBytes == 256 << 20)
    #expect(SleetLimits.jsonNesting == 64 && JSONParser.maximumDepth == SleetLimits.jsonNesting)
    // Every effect within the cell depth nests its JSON within the parser's
    // limit: cells at depth d are objects at JSON depth 2d, their vector
    // properties arrays below them.
    #expect(2 * SleetLimits.cellDepth + 2 < SleetLimits.jsonNesting)
  }

  @Test func imageSizesAreCheckedBySideAndByPixelCount() {
    #expect(SleetLimits.imageSizeProblem(width: 8192, height: 4096) == nil)
    #expect(SleetLimits.imageSizeProblem(width: 7680, height: 4320) == nil)  // 8K UHD
    #expect(SleetLimits.imageSizeProblem(width: 1, height: 8192) == nil)
    let message = "px: at most 8192 px a side and 33554432 px in all"
    #expect(SleetLimits.imageSizeProblem(width: 8193, height: 1) == "8193×1 \(message)")
    #expect(SleetLimits.imageSizeProblem(width: 8192, height: 4097) == "8192×4097 \(message)")
    // `sleet demo --scale 16` (390×844 pt).
    #expect(SleetLimits.imageSizeProblem(width: 6240, height: 13504) == "6240×13504 \(message)")
    // No overflow in the product.
    #expect(SleetLimits.imageSizeProblem(width: Int.max, height: Int.max) != nil)
  }

  @Test func byteCountsReadAsUnits() {
    #expect(SleetLimits.byteText(16 << 20) == "16 MiB")
    #expect(SleetLimits.byteText(4096) == "4 KiB")
    #expect(SleetLimits.byteText(1000) == "1000 bytes")
  }

  @Test func inputFilesAreReadWholeUpToTheLimit() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let path = folder + "/ten"
    let file = try #require(fopen(path, "wb"))
    fputs("0123456789", file)
    fclose(file)
    #expect(try InputFile.read(path, limit: 10) == Array("0123456789".utf8))
    #expect(throws: InputFileError.tooLarge(limit: 9)) { try InputFile.read(path, limit: 9) }
    #expect(try InputFile.read("/dev/null", limit: 0) == [])
  }

  @Test func aFileLargerThanTheLimitIsRefusedFromItsSizeWithoutReading() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    // A sparse file of 1 GiB: refused from fstat, nothing read or allocated.
    let path = folder + "/sparse"
    let fd = open(path, O_CREAT | O_WRONLY, 0o644)
    #expect(fd >= 0 && ftruncate(fd, 1 << 30) == 0)
    close(fd)
    #expect(throws: InputFileError.tooLarge(limit: 1 << 20)) { try InputFile.read(path, limit: 1 << 20) }
  }

  @Test func endlessDevicesFoldersAndMissingFilesAreErrors() throws {
    // /dev/zero never ends: the reader stops one byte past the limit.
    #expect(throws: InputFileError.tooLarge(limit: 100_000)) { try InputFile.read("/dev/zero", limit: 100_000) }
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    #expect(throws: InputFileError.unreadable(reason: "Is a directory")) { try InputFile.read(folder, limit: 10) }
    #expect(throws: InputFileError.unreadable(reason: "No such file or directory")) {
      try InputFile.read(folder + "/none", limit: 10)
    }
    #expect(
      InputFileError.tooLarge(limit: 16 << 20).reason(kind: "effect files")
        == "larger than 16 MiB, the limit for effect files (SleetLimits)")
  }
}
