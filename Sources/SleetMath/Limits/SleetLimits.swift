/// Every size limit SleetKit and the `sleet` tool enforce on untrusted input,
/// in one place: change a number here and every reader, command and message
/// follows (docs/reliability.md lists them with the error each gives).
///
/// Each limit exists so that a hostile or careless input gets a clear error
/// naming the limit instead of exhausting memory, time or the stack:
///
/// | limit | value | checked by |
/// |---|---|---|
/// | ``imageSide`` | 8192 px | PNG reading (sprites, pictures), every command's output size |
/// | ``imagePixels`` | 2²⁵ px (8K UHD fits) | the same places |
/// | ``frames`` | 100 000 | `sleet` animation and folder outputs |
/// | ``cellDepth`` | 16 levels | every effect (files, code, `ParticleSystem`) |
/// | ``jsonFileBytes`` | 16 MiB | effect files, gesture files |
/// | ``pngFileBytes`` | 256 MiB | PNG files |
/// | ``jsonNesting`` | 64 levels | every JSON document read |
///
/// The particle budget (`ParticleSystemConfiguration.budget`) and the cell
/// count (`Effect.maximumCells`, fixed by the particle id layout) are limits
/// of the simulation, documented with it.
public enum SleetLimits {
  /// The largest width or height of an image, in pixels: of a PNG file read
  /// (sprites, `--from`/`--to` pictures) and of any image `sleet` renders.
  public static let imageSide = 8192

  /// The most pixels in one image (width × height), read or rendered:
  /// 2²⁵ = 33 554 432, which holds 8K UHD (7680 × 4320). A rendered frame
  /// takes 16 bytes a pixel (`RGBAImage`), so 512 MiB at the limit.
  public static let imagePixels = 1 << 25

  /// The most frames `sleet` writes into one animation or folder. Memory
  /// does not limit it (frames stream to disk); time and disk do: 100 000
  /// frames are about an hour of rendering at 390×844 and several GB.
  public static let frames = 100_000

  /// The deepest nesting of sub-cells: a top-level cell is at depth 1, its
  /// sub-cells at depth 2, …. At this depth an effect file nests its JSON
  /// 2 × 16 + 2 levels deep, well inside ``jsonNesting``, so every valid
  /// effect can be written as a file and read back.
  public static let cellDepth = 16

  /// The largest JSON file read (effect files, gesture files): 16 MiB.
  public static let jsonFileBytes = 16 << 20

  /// The largest PNG file read: 256 MiB (an image at ``imagePixels`` stored
  /// uncompressed is 128 MiB).
  public static let pngFileBytes = 256 << 20

  /// The deepest nesting of arrays and objects in a JSON document, so that a
  /// hostile file cannot exhaust the parser's stack.
  public static let jsonNesting = 64

  /// Why an image of `width` × `height` pixels is refused, or nil when it is
  /// within ``imageSide`` and ``imagePixels``: "6240×13504 px: at most 8192
  /// px a side and 33554432 px in all".
  /// - Complexity: O(1).
  public static func imageSizeProblem(width: Int, height: Int) -> String? {
    let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
    guard width > imageSide || height > imageSide || overflow || pixels > imagePixels else { return nil }
    return "\(width)×\(height) px: at most \(imageSide) px a side and \(imagePixels) px in all"
  }

  /// A byte count for messages: `16 MiB`, `300 bytes`.
  package static func byteText(_ bytes: Int) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }
}
