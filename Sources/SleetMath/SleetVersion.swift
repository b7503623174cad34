/// SleetKit's version (semantic versioning).
public enum SleetVersion {
  public static let string = "0.1.0"
}
