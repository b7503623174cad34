/// The navigation direction of a transition, as in Apple's checkerboard sample:
/// a push sweeps the wave from the top-left corner to the bottom-right, a pop
/// from the bottom-right back to the top-left.
public enum ShatterDirection: String, Hashable, Sendable, CaseIterable, Codable {
  /// `push`: the wave runs from the top-left; `pop`: from the bottom-right.
  case push, pop
}

/// The shatter styles SleetKit provides. All three produce the same per-piece
/// output, so one renderer draws them all.
public enum ShatterStyle: String, Hashable, Sendable, CaseIterable, Codable {
  /// Apple's checkerboard: square tiles flip about their vertical axes.
  case checkerboard
  /// Pieces fly apart, spin, shrink and fade (VCTransitionsLibrary's explode).
  case explode
  /// Irregular shards fall away with ease-in (VariousViewsEffects' glass break).
  case glassBreak
}
