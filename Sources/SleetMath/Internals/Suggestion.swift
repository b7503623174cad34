/// "Did you mean …?": the one rule by which the `sleet` tool (commands,
/// options) and the effect reader (keys, key paths, enum values, presets,
/// sprites) pick a suggestion for a mistyped name, so the same typo gets the
/// same answer everywhere (docs/cli.md, "Asking for help").
///
/// The rule: the candidate nearest to the word by optimal string alignment
/// distance (insertions, deletions, substitutions and swaps of neighbours
/// each cost one edit; case is ignored), when it is at most
/// ``maximumEdits`` edits away and fewer edits than the longer of the two
/// has characters (a suggestion keeps something of what was typed, so `xy`
/// never suggests `ab`). Ties go to the alphabetically first candidate, so
/// the answer does not depend on the order the candidates come in.
///
/// `ra` suggests `rain` (two insertions), `redner` suggests `render` (one
/// swap), `x` suggests nothing among longer names.
package enum Suggestion {
  /// The most edits between a word and the candidate suggested for it.
  package static let maximumEdits = 2

  /// The candidate the rule above suggests for `word`, or nil.
  /// - Complexity: O(candidates × |word| × |candidate|) for candidates
  ///   whose length is within ``maximumEdits`` of the word's; O(1) for the
  ///   others (the distance is at least the difference in length), so a long
  ///   hostile word costs nothing per candidate.
  package static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
    let typed = Array(word.lowercased())
    var best: (distance: Int, name: String)?
    for candidate in candidates {
      let other = Array(candidate.lowercased())
      guard abs(typed.count - other.count) <= maximumEdits else { continue }
      let d = distance(typed, other)
      guard d <= maximumEdits, d < Swift.max(typed.count, other.count) else { continue }
      if let found = best, d > found.distance || (d == found.distance && candidate >= found.name) { continue }
      best = (d, candidate)
    }
    return best?.name
  }

  /// The optimal string alignment distance between `a` and `b`, case
  /// included.
  package static func distance(_ a: String, _ b: String) -> Int {
    distance(Array(a), Array(b))
  }

  /// The optimal string alignment distance, three rows at a time:
  /// `row[j]` is the distance between `a[..<i]` and `b[..<j]`.
  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty || b.isEmpty { return a.count + b.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var row = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      row[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        row[j] = Swift.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          row[j] = Swift.min(row[j], beforePrevious[j - 2] + 1)
        }
      }
      (beforePrevious, previous, row) = (previous, row, beforePrevious)
    }
    return previous[b.count]
  }
}
