// Glibc (not Foundation) provides the trigonometry the shatter styles need.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// cos(π·e) in `Double`. At e = ½ this is 6e−17, not 0: a card is edge-on to
/// within far less than a Float ulp.
@inline(__always) internal func _cosPi(_ e: Double) -> Double { cos(Double.pi * e) }
/// sin(π·e) in `Double`.
@inline(__always) internal func _sinPi(_ e: Double) -> Double { sin(Double.pi * e) }
/// cos and sin of an angle in radians, in `Double`.
@inline(__always) internal func _cos(_ x: Double) -> Double { cos(x) }
@inline(__always) internal func _sin(_ x: Double) -> Double { sin(x) }
