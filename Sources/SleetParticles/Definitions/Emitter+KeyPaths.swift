// PLACEHOLDER (replaced by the key-path work of issue 3 before anything lands).
extension Emitter {
  /// Sets the property named by a Core Animation key path.
  public mutating func setValue(_ value: PropertyValue, forKeyPath keyPath: String) throws(KeyPathError) {
    throw KeyPathError(keyPath: keyPath, reason: "key paths are not supported yet")
  }
}
