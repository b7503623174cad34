// sleet-bench: the benchmark harness API.
//
// HOW TO ADD A SUITE (about 30 lines, in a new file `BenchmarkRunner+Particles.swift`):
//
//   extension BenchmarkRunner {
//     static var particles: BenchmarkSuite { BenchmarkSuite(name: "particles") { scale in
//       scale.sizes([1_000, 65_536, 1_048_576]).map { n in
//         BenchmarkGroup(
//           name: "update n=\(n)", items: n,
//           byteModel: ByteModel(bytesPerItem: 132, "33 floats read+written per particle"),
//           baseline: "naive", reference: nil
//         ) {
//           // Setup: runs untimed, once per group, right before it is measured; whatever
//           // the closures capture is released when the group is done.
//           let system = ParticleBench(count: n)
//           return [
//             BenchmarkCase("naive") { system.updateNaive() },
//             BenchmarkCase("simd") { system.updateSIMD(); blackHole(system.checksum) },
//           ]
//         }
//       }
//     } }
//   }
//
// and add `particles` to `BenchmarkRunner.suites` in BenchmarkRunner.swift (one line).
// BenchmarkRunner+Random.swift is a complete suite of that size to copy from.
//
// The runner then, for each group: runs the setup, warms every case up, calibrates the
// iterations per sample so a sample takes ≥ 10 ms (≥ 1 ms with --quick), takes ≥ 10
// samples with the cases interleaved (A B C A B C …), and prints min / median / p90 /
// max per call, ns per item (a case may declare its own item count and byte model),
// items/s, GB/s under the byte model, that as a percentage of the same-process STREAM
// copy probe (re-measured right before any group streaming more than 32 MiB, as
// neighbours change the bandwidth), and the ratio of median ns per item to the
// `baseline` case (the naive path) and to the `reference` case (the BLAS path).
// `--filter SUBSTRING` selects the groups whose "suite/group" name contains it (all the
// cases of a group run together since they are compared); `--quick` selects
// `scale.quick == true` (keep the whole quick run under a minute: small sizes only).
// `--dry-run` builds every group at every size and calls each case once, untimed (CI);
// a setup that throws fails its group, the others still run, and the exit status is 1.
//
// Rules for bodies: do all allocation in the setup; pass results to `blackHole` (or
// write them to memory the setup allocated) so the optimiser cannot delete the work;
// a body must be repeatable (same work every call).

/// What one processed item moves to and from memory, for GB/s and %-of-bandwidth.
///
/// Counted STREAM-style: bytes the algorithm must read plus bytes it must write,
/// without write-allocate traffic (the probe is counted the same way).
struct ByteModel {
  var bytesPerItem: Double
  var description: String

  init(bytesPerItem: Double, _ description: String) {
    self.bytesPerItem = bytesPerItem
    self.description = description
  }
}

/// One timed path: a name (`"scalar"`, `"simd"`, `"blas"`, `"naive"`…) and a body
/// that processes the group's `items` once per call.
struct BenchmarkCase {
  var path: String
  /// Items one call processes when it differs from the group's (e.g. the C
  /// baseline's own steady-state alive count); nil: the group's `items`.
  var items: Int?
  /// Bytes per item under this path's own byte model (a different design
  /// moves different bytes); nil: the group's byte model.
  var byteModel: ByteModel?
  var body: () -> Void

  init(_ path: String, items: Int? = nil, byteModel: ByteModel? = nil, _ body: @escaping () -> Void) {
    self.path = path
    self.items = items
    self.byteModel = byteModel
    self.body = body
  }
}

/// Paths that compute the same thing on the same data, measured interleaved.
struct BenchmarkGroup {
  /// e.g. `update n=65536`; printed as `suite/name` and matched by `--filter`.
  var name: String
  /// Items processed by one call of a case body (particles, tiles, points…).
  var items: Int
  var byteModel: ByteModel
  /// The case the speed-ups are relative to (the naive path); nil for none.
  var baseline: String?
  /// A second case to report ratios against (the BLAS path); nil for none.
  var reference: String?
  /// Extra lines `numerator / denominator` printed under the table: the ratio
  /// of the two cases' median ns per item (< 1: the numerator is faster).
  var timeRatios: [(numerator: String, denominator: String)] = []
  /// What one item is when it is a unit people count per second (`"frame"`):
  /// the table is then followed by a line with each case's items per second
  /// (1 / median per item), e.g. frames per second.
  var itemName: String? = nil
  /// For calls that last seconds (a whole export): this many samples of
  /// one call each, with no warm-up or calibration call; nil: the usual
  /// warm-up, ≥ 10 ms samples and ≥ 10 of them.
  var fixedSamples: Int? = nil
  /// Lines printed under the table once the cases are measured (what the
  /// setup's state recorded while they ran: a per-stage time split).
  var notes: (() -> [String])? = nil
  /// Untimed setup returning the cases; called once, just before measuring.
  /// A throw (a harness bug, e.g. an effect over the particle budget) fails
  /// this group only: the run goes on and exits non-zero at the end.
  var setup: () throws -> [BenchmarkCase]

  init(
    name: String, items: Int, byteModel: ByteModel, baseline: String?, reference: String?,
    timeRatios: [(numerator: String, denominator: String)] = [], itemName: String? = nil,
    fixedSamples: Int? = nil, notes: (() -> [String])? = nil, setup: @escaping () throws -> [BenchmarkCase]
  ) {
    self.name = name
    self.items = items
    self.byteModel = byteModel
    self.baseline = baseline
    self.reference = reference
    self.timeRatios = timeRatios
    self.itemName = itemName
    self.fixedSamples = fixedSamples
    self.notes = notes
    self.setup = setup
  }
}

/// A setup that found its data wrong: the group fails with this message.
struct BenchmarkSetupError: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) { self.description = description }
}

/// How big a run is: the full run, `--quick` for CI, `--dry-run` (every size,
/// no timing) or the `--plot` cost curve.
struct BenchmarkScale {
  var quick: Bool
  /// `--dry-run`: every size (quick is false), each case run once, untimed.
  var dryRun = false
  /// `--plot`: suites that draw the cost curve add their extra sizes.
  var plot = false

  /// The sizes to run: all of `sizes` normally, only those ≤ 65,536 with `--quick`.
  func sizes(_ sizes: [Int]) -> [Int] {
    quick ? sizes.filter { $0 <= 65_536 } : sizes
  }
}

/// A named family of groups, built lazily for a scale.
struct BenchmarkSuite {
  var name: String
  var groups: (BenchmarkScale) -> [BenchmarkGroup]

  init(name: String, groups: @escaping (BenchmarkScale) -> [BenchmarkGroup]) {
    self.name = name
    self.groups = groups
  }
}

/// Keeps a value alive as far as the optimiser can tell.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// Untimed-setup helper: an owned, 64-byte-aligned buffer of trivial values that is
/// freed when the last closure capturing it goes away.
final class BenchmarkBuffer<Element> {
  let buffer: UnsafeMutableBufferPointer<Element>

  init(count: Int, initializer: (Int) -> Element) {
    let raw = UnsafeMutableRawPointer.allocate(
      byteCount: max(1, count) * MemoryLayout<Element>.stride, alignment: 64)
    let p = raw.bindMemory(to: Element.self, capacity: max(1, count))
    for i in 0..<count { (p + i).initialize(to: initializer(i)) }
    buffer = UnsafeMutableBufferPointer(start: p, count: count)
  }

  var readOnly: UnsafeBufferPointer<Element> { UnsafeBufferPointer(buffer) }

  deinit {
    UnsafeMutableRawPointer(buffer.baseAddress!).deallocate()
  }
}
