import SleetKit

/// The shatter suite of issue 4: checkerboard frame evaluation at 220, 10k, 100k
/// and 1M tiles on every backend, single-threaded and with 2 threads, against
/// the naive per-tile path (`evaluateNaively`, the baseline of every ratio).
///
/// Work per call: one frame at each of three instants, ¼, ½ and ¾ of the
/// transition, so resting and flipping tiles are both represented (about a
/// sixth of the tiles flip at any instant); `items` counts tile evaluations
/// (3 × tiles). Byte model: the 112 B the output streams must receive per
/// tile — the 64 B transform, 4 × 8 B corners and the 16 B piece state. The
/// per-chunk scratch (16 KiB per worker) stays in L1 and the 64 KiB curve
/// table in L2, so neither is counted; the static texture corners are not
/// touched by an evaluation.
extension BenchmarkRunner {
  static var shatter: BenchmarkSuite {
    BenchmarkSuite(name: "shatter") { scale in
      scale.sizes([220, 10_000, 100_000, 1_000_000]).map { tiles in
        BenchmarkGroup(
          name: "checkerboard n=\(tiles)", items: 3 * tiles,
          byteModel: ByteModel(
            bytesPerItem: 112, "per tile: 64 B transform + 4 × 8 B corners + 16 B state written"),
          baseline: "naive", reference: "scalar"
        ) {
          let transition = CheckerboardTransition(plan: ShatterBenchData.plan(tiles: tiles))
          let box = ShatterBenchData.FrameBox(transition.makeFrame())
          let times = [0.25, 0.5, 0.75].map { $0 * transition.endTime }
          var cases = [
            BenchmarkCase("naive") {
              for t in times { transition.evaluateNaively(at: t, into: &box.frame) }
              blackHole(box.frame.corners[4 * tiles - 1])
            }
          ]
          for threads in [1, 2] {
            for backend in TransformBackend.allCases {
              let name = threads == 1 ? backend.name : "\(backend.name)×\(threads)"
              cases.append(
                BenchmarkCase(name) {
                  for t in times {
                    transition.evaluate(at: t, into: &box.frame, backend: backend, threads: threads)
                  }
                  blackHole(box.frame.corners[4 * tiles - 1])
                })
            }
          }
          return cases
        }
      }
    }
  }
}

/// Shatter benchmark inputs (untimed setup).
enum ShatterBenchData {
  /// A plan with exactly `tiles` tiles: Apple's 390×844 screen (10×22 = 220),
  /// else a grid of 4-point tiles (10k = 100×100, 100k = 500×200, 1M = 1000×1000).
  static func plan(tiles: Int) -> CheckerboardPlan {
    switch tiles {
    case 220: CheckerboardPlan(width: 390, height: 844)
    case 10_000: .grid(columns: 100, rows: 100)
    case 100_000: .grid(columns: 500, rows: 200)
    case 1_000_000: .grid(columns: 1000, rows: 1000)
    default: .grid(columns: tiles, rows: 1)
    }
  }

  /// A frame the benchmark bodies can rewrite in place from an escaping closure.
  final class FrameBox {
    var frame: ShatterFrame
    init(_ frame: ShatterFrame) { self.frame = frame }
  }
}
