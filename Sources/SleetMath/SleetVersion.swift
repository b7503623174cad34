/// SleetKit's version (semantic versioning).
public enum SleetVersion {
  /// `major.minor.patch`, as `sleet --version` and `sleetkit_version()` print it.
  public static let string = "0.1.0"
}
