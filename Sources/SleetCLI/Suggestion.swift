/// "Did you mean …?" for mistyped commands and options: the closest candidate
/// by edit distance.
enum Suggestion {
  /// The candidate nearest to `word` (optimal string alignment distance:
  /// insertions, deletions, substitutions and swaps of neighbours cost 1),
  /// when it is at most 2 edits away and fewer edits than half the word;
  /// ties go to the alphabetically first. Case is ignored.
  /// - Complexity: O(candidates × |word| × |candidate|).
  static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
    let limit = Swift.min(2, Swift.max(1, (word.count - 1) / 2))
    var best: (distance: Int, name: String)?
    for candidate in candidates {
      // The distance is at least the difference in length: skip before
      // paying |word|·|candidate| for a word that cannot match.
      guard abs(word.count - candidate.count) <= limit else { continue }
      let d = distance(word.lowercased(), candidate.lowercased())
      guard d <= limit else { continue }
      if best == nil || d < best!.distance || (d == best!.distance && candidate < best!.name) {
        best = (d, candidate)
      }
    }
    return best?.name
  }

  /// The optimal string alignment distance between `a` and `b`.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty || b.isEmpty { return a.count + b.count }
    var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        d[i][j] = Swift.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          d[i][j] = Swift.min(d[i][j], d[i - 2][j - 2] + 1)
        }
      }
    }
    return d[a.count][b.count]
  }
}
