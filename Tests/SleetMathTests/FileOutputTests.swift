import Glibc
import Testing
import _SleetTestSupport

@testable import SleetMath

/// The package's one atomic writer: temporary siblings renamed into place,
/// their names, and the removal of those a killed writer left.
@Suite("atomic file output")
struct FileOutputTests {
  @Test func atomicWriterFixesUpAndRenamesOnlyOnCommit() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let path = folder + "/f.bin"
    let file = try AtomicFileWriter(path: path)
    try file.write([1, 2, 3, 4])
    try file.write([9], at: 1)
    try file.write([5])
    #expect(file.count == 5)
    #expect(fileBytes(path) == nil)
    try file.commit()
    #expect(fileBytes(path) == [1, 9, 3, 4, 5])
    var info = stat()
    #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o644)
    #expect(folderEntries(folder) == ["f.bin"])
  }

  @Test func temporaryNamesAreRecognisedAndStaleOnesRemoved() throws {
    #expect(FileOutput.parseTemporaryName(".snow.apng.tmp-123-aB3xYz")! == ("snow.apng", 123))
    #expect(FileOutput.parseTemporaryName(".a.tmp-b.tmp-7-abcdef")! == ("a.tmp-b", 7))
    for name in [
      "snow.apng", ".snow.apng", ".snow.apng.tmp-abcdef", ".x.tmp-1-abc", ".tmp-1-abcdef", ".x.tmp-0-abcdef",
    ] {
      #expect(FileOutput.parseTemporaryName(name) == nil, "\(name)")
    }
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    // A process that has exited: its pid is free (until reused).
    let child = exitedProcessID()
    let dead = ".a.png.tmp-\(child)-abcdef"
    let live = ".a.png.tmp-\(getpid())-abcdef"
    let other = ".b.png.tmp-\(child)-abcdef"
    for name in [dead, live, other, "a.png"] { try FileOutput.atomicWrite([0], to: folder + "/" + name) }
    #expect(FileOutput.removeStaleTemporaries(inFolder: folder) { $0 == "a.png" } == 1)
    #expect(folderEntries(folder) == [live, other, "a.png"].sorted())
  }
}
