/// A value keyed over a particle's normalised life u = age / lifetime, as
/// `valueOverLife` and `colorOverLife` key it: piecewise linear between
/// (locations[i], values[i]), held at the first value before the first
/// location and at the last after the last.
///
/// ```
/// value(u)      = values[i] + (values[i+1] − values[i])·(u − l[i]) / (l[i+1] − l[i])   l[i] ≤ u < l[i+1]
/// integral(u)   = ∫₀ᵘ value(x) dx        exact: a sum of trapezoids and one partial piece
/// ```
///
/// In `Double`: the values are the definition's `Float`s widened exactly,
/// and each result is correctly rounded per operation (a few ulps of
/// `Double` in all, far below the `Float` the particle state is drawn in).
struct KeyedCurve: Hashable, Sendable {
  /// Non-decreasing, in [0, 1], one per value.
  let locations: [Double]
  let values: [Double]
  /// integral(locations[i]), so ``integral(to:)`` is O(log n).
  let integralsAtLocations: [Double]

  /// The curve of `values` at `locations` (evenly spaced from 0 to 1 when
  /// nil; a single value is keyed at 0 and held).
  /// - Precondition: `values` is not empty; `locations`, when given, has one
  ///   increasing location in [0, 1] per value (the effect's validation; an
  ///   equal pair would be a step, taken at its location).
  init(values: [Float], locations: [Float]?) {
    precondition(!values.isEmpty, "a keyed curve needs a value")
    let n = values.count
    let locations = locations.map { $0.map(Double.init) } ?? (0..<n).map { n == 1 ? 0 : Double($0) / Double(n - 1) }
    precondition(locations.count == n, "one location per value")
    self.locations = locations
    self.values = values.map(Double.init)
    var integrals = [Double](repeating: 0, count: n)
    integrals[0] = self.values[0] * locations[0]
    for i in 1..<max(n, 1) {
      integrals[i] = integrals[i - 1] + (locations[i] - locations[i - 1]) * (self.values[i - 1] + self.values[i]) / 2
    }
    integralsAtLocations = integrals
  }

  /// The curve's keys as ``Keys`` for `body` (valid only inside it).
  @inline(__always)
  func withKeys<R>(_ body: (Keys) -> R) -> R {
    locations.withUnsafeBufferPointer { l in
      values.withUnsafeBufferPointer { v in
        integralsAtLocations.withUnsafeBufferPointer { i in
          body(Keys(count: l.count, locations: l.baseAddress!, values: v.baseAddress!, integrals: i.baseAddress!))
        }
      }
    }
  }

  /// The keyed value at `u` (``Keys/value(at:)``).
  /// - Complexity: O(log n).
  func value(at u: Double) -> Double { withKeys { $0.value(at: u) } }

  /// d value / du at `u` (``Keys/slope(at:)``).
  /// - Complexity: O(log n).
  func slope(at u: Double) -> Double { withKeys { $0.slope(at: u) } }

  /// ∫₀ᵘ value(x) dx, for u ≥ 0 (``Keys/integral(to:)``).
  /// - Complexity: O(log n).
  func integral(to u: Double) -> Double { withKeys { $0.integral(to: u) } }

  /// A curve's keys read through pointers: the one implementation of the
  /// curve's arithmetic, for ``KeyedCurve`` (its arrays) and for a
  /// ``BehaviorProgram`` (its buffers, so a particle's state copies and
  /// retains no array).
  ///
  /// Invariants: `count` ≥ 1 for keys that are read, and each pointer
  /// addresses `count` Doubles (locations, values, integral at each
  /// location) that outlive the value. Every read is at an index in 0..<count: ``piece(containing:)``
  /// returns i in −1..<count, and i + 1 is read only when i < count − 1.
  struct Keys {
    let count: Int
    let locations: UnsafePointer<Double>
    let values: UnsafePointer<Double>
    let integrals: UnsafePointer<Double>

    /// The index i of the last location ≤ u, or −1 before the first.
    /// - Complexity: O(log n).
    @inline(__always)
    func piece(containing u: Double) -> Int {
      var lo = -1
      var hi = count - 1
      while lo < hi {
        let mid = (lo + hi + 1) / 2
        if locations[mid] <= u { lo = mid } else { hi = mid - 1 }
      }
      return lo
    }

    /// The keyed value at `u`.
    /// - Complexity: O(log n).
    func value(at u: Double) -> Double {
      value(at: u, piece: piece(containing: u))
    }

    /// The keyed value at `u` in piece `i` = ``piece(containing:)`` of `u`
    /// (of these locations, or of equal ones).
    /// - Complexity: O(1).
    @inline(__always)
    func value(at u: Double, piece i: Int) -> Double {
      if i < 0 { return values[0] }
      if i == count - 1 { return values[i] }
      let span = locations[i + 1] - locations[i]
      // A zero-length piece is a step, taken at its location.
      guard span > 0 else { return values[i + 1] }
      return values[i] + (values[i + 1] - values[i]) * ((u - locations[i]) / span)
    }

    /// d value / du at `u`: the slope of the piece containing u (its right
    /// derivative at a location), 0 outside the locations.
    /// - Complexity: O(log n).
    func slope(at u: Double) -> Double {
      let i = piece(containing: u)
      guard i >= 0, i < count - 1 else { return 0 }
      let span = locations[i + 1] - locations[i]
      return span > 0 ? (values[i + 1] - values[i]) / span : 0
    }

    /// ∫₀ᵘ value(x) dx, for u ≥ 0.
    /// - Complexity: O(log n).
    func integral(to u: Double) -> Double {
      let i = piece(containing: u)
      if i < 0 { return values[0] * u }
      if i == count - 1 { return integrals[i] + values[i] * (u - locations[i]) }
      return integrals[i] + (u - locations[i]) * (values[i] + value(at: u)) / 2
    }
  }
}
