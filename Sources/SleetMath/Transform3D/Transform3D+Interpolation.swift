// TEMPORARY local placeholder (not committed): replaced by the helper's decomposition.
extension Transform3D {
  public func interpolated(to other: Transform3D, fraction: Double) -> Transform3D {
    let f = Float(fraction)
    return Transform3D(row1: row1 + (other.row1 - row1) * f, row2: row2 + (other.row2 - row2) * f, row3: row3 + (other.row3 - row3) * f, row4: row4 + (other.row4 - row4) * f)
  }
}
