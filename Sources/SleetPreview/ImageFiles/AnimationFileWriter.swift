import SleetMath
import SleetParticles

/// An animation written to a file batch by batch by any
/// ``AnimationEncoder``: the bytes go to a temporary file beside the
/// destination as the encoder produces them, and ``finish()`` applies the
/// encoder's last overwrites and renames the file into place (SleetMath's
/// atomic writer: a reader sees the previous file or the complete new one,
/// never a partial one). The temporary file is created first, so an
/// unwritable folder fails before any frame is encoded.
///
/// Each batch is prepared in parallel and encoded in order
/// (``AnimationEncoder``), so memory holds one batch of frames plus what the
/// encoder keeps. Every failure, of the file or of the encoder, is an
/// ``ImageFileError/cannotWrite(path:reason:)`` naming ``path``, after which
/// the temporary file is gone and ``path`` is untouched. A writer released
/// without ``finish()`` removes its temporary file.
///
/// Not thread-safe: one thread appends.
public final class AnimationFileWriter<Encoder: AnimationEncoder> {
  /// The destination.
  public let path: String
  private var encoder: Encoder
  private let file: AtomicFileWriter

  /// Creates the temporary file and writes what precedes the first frame.
  /// - Precondition: `encoder` has encoded nothing yet.
  /// - Throws: ``ImageFileError/cannotWrite(path:reason:)`` naming `path`.
  public init(path: String, encoder: Encoder) throws(ImageFileError) {
    precondition(encoder.frameCount == 0, "AnimationFileWriter: the encoder has encoded frames already")
    self.path = path
    self.encoder = encoder
    do throws(FileOutputError) {
      file = try AtomicFileWriter(path: path)
    } catch {
      throw .cannotWrite(path: path, reason: error.reason)
    }
    try perform { (encoder, output) throws(Encoder.Failure) in try encoder.start(into: &output) }
  }

  /// The number of frames appended so far (the encoder's count).
  public var frameCount: Int { encoder.frameCount }

  /// The temporary file the animation goes to until ``finish()``.
  public var temporaryPath: String { file.temporaryPath }

  /// Prepares `images` in parallel, encodes them in order and writes the
  /// bytes the encoder completes.
  /// - Precondition: every image is the encoder's canvas size;
  ///   `delays.count == images.count`; not finished or discarded.
  /// - Throws: ``ImageFileError/cannotWrite(path:reason:)``; the temporary
  ///   file is then removed.
  /// - Complexity: O(total pixels) work.
  public func append(contentsOf images: [RGBAImage], delays: [FrameDelay]) throws(ImageFileError) {
    try perform { (encoder, output) throws(Encoder.Failure) in
      try encoder.encodeBatch(images, delays: delays, into: &output)
    }
  }

  /// Ends the animation, writes the rest and renames the file over ``path``.
  /// - Precondition: at least one frame.
  /// - Throws: ``ImageFileError/cannotWrite(path:reason:)``; the temporary
  ///   file is then removed and ``path`` is untouched.
  public func finish() throws(ImageFileError) {
    try perform { (encoder, output) throws(Encoder.Failure) in try encoder.finish(into: &output) }
    do throws(FileOutputError) {
      try file.commit()
    } catch {
      throw .cannotWrite(path: path, reason: error.reason)
    }
  }

  /// Removes the temporary file; ``path`` is untouched.
  public func discard() { file.discard() }

  /// Runs one encoder step and writes its output: the appended bytes, then
  /// the overwrites. Any failure removes the temporary file and becomes
  /// ``ImageFileError/cannotWrite(path:reason:)`` with the file's reason
  /// (the failed step and the system's message) or the encoder's.
  private func perform(
    _ step: (inout Encoder, inout AnimationOutput) throws(Encoder.Failure) -> Void
  ) throws(ImageFileError) {
    var output = AnimationOutput()
    do {
      try step(&encoder, &output)
      try file.write(output.bytes)
      for overwrite in output.overwrites { try file.write(overwrite.bytes, at: overwrite.offset) }
    } catch {
      file.discard()
      let reason = (error as? FileOutputError)?.reason ?? String(describing: error)
      throw .cannotWrite(path: path, reason: reason)
    }
  }
}
