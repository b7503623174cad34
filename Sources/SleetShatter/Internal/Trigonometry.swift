// Glibc (not Foundation) provides the trigonometry the shatter styles need.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// cos(π·e) in `Double`, exact at e = 0, ½ and 1 (where `cos(Double.pi * e)`
/// would leave 6e−17 and a card at rest would keep a nonzero depth).
internal func _cosPi(_ e: Double) -> Double {
  if e == 0 { return 1 }
  if e == 0.5 { return 0 }
  if e == 1 { return -1 }
  return cos(Double.pi * e)
}
/// sin(π·e) in `Double`, exact at e = 0, ½ and 1.
internal func _sinPi(_ e: Double) -> Double {
  if e == 0 || e == 1 { return 0 }
  if e == 0.5 { return 1 }
  return sin(Double.pi * e)
}
/// cos and sin of an angle in radians, in `Double`.
@inline(__always) internal func _cos(_ x: Double) -> Double { cos(x) }
@inline(__always) internal func _sin(_ x: Double) -> Double { sin(x) }
