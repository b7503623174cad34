import SleetMath
import SleetParticles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs suites: measurement, statistics, printing and the JSON report.
/// The API for writing suites is in Benchmark.swift.
struct BenchmarkRunner {
  /// Every suite the harness knows, in run order. Add yours here (one line).
  static var suites: [BenchmarkSuite] {
    [
      transform,
      random,
      shatter,
      render,
      transitions,
      particles,
      behaviors,
      particlesGPU,
      export,
    ]
  }

  var options: Options
  var environment: Environment
  /// nil with --dry-run (its 384 MiB of arrays are not worth allocating there).
  var probe: BandwidthProbe?
  /// The probe result the %copy column divides by: the start-up measurement, or
  /// the re-measurement just before a group that streams more than 32 MiB.
  var latestProbe: BandwidthProbe.Result
  private(set) var records: [Record] = []
  /// Groups that could not run (`suite/group: reason`); the exit status is 1 if any.
  private(set) var failures: [String] = []

  struct Options {
    var filter: String?
    var jsonPath: String?
    var quick = false
    /// Build every group (all sizes) and call each case once, untimed.
    var dryRun = false
    /// Measure the cost-curve groups and draw them into this PNG file.
    var plotPath: String?
  }

  /// One measured case of one group (also one element of the JSON `results`).
  struct Record {
    var suite: String
    var group: String
    var path: String
    var items: Int
    var bytesPerItem: Double
    var byteModel: String
    var iterationsPerSample: Int
    /// Seconds per call, one per sample, in measurement order.
    var samples: [Double]
    var summary: Summary
    var speedupOverBaseline: Double?
    var speedupOverReference: Double?
    /// The same-process copy bandwidth this record is compared with.
    var probeCopyGBps: Double = .nan

    var nsPerItem: Double { summary.median * 1e9 / Double(max(items, 1)) }
    var itemsPerSecond: Double { Double(items) / summary.median }
    var gigabytesPerSecond: Double { Double(items) * bytesPerItem / summary.median / 1e9 }
    var percentOfCopyProbe: Double { gigabytesPerSecond / probeCopyGBps * 100 }
  }

  struct Summary {
    var min: Double
    var median: Double
    var p90: Double
    var max: Double

    init(_ values: [Double]) {
      let s = values.sorted()
      func rank(_ q: Double) -> Double {
        // Nearest-rank percentile.
        s[Swift.min(s.count - 1, Swift.max(0, Int((q * Double(s.count)).rounded(.up)) - 1))]
      }
      min = s.first!
      max = s.last!
      median = s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
      p90 = rank(0.9)
    }
  }

  var sampleCount: Int { options.quick ? 10 : 15 }
  var targetSampleSeconds: Double { options.quick ? 0.001 : 0.010 }

  /// Measures (or, with --dry-run, exercises) every selected group; returns how
  /// many ran, failed groups included.
  mutating func run() -> Int {
    let scale = BenchmarkScale(quick: options.quick, dryRun: options.dryRun, plot: options.plotPath != nil)
    var selected = 0
    for suite in BenchmarkRunner.suites {
      // Filtered by group (all paths of a group always run together: they are
      // compared), before the setup so that skipped groups allocate nothing.
      for group in suite.groups(scale) where matches("\(suite.name)/\(group.name)") {
        selected += 1
        runGroup(suite: suite.name, group: group)
      }
    }
    return selected
  }

  /// One group: setup, then measurement or the dry run. The cases, and all the
  /// data their closures captured, are released when this returns, before the
  /// next group's setup, so a run needs the memory of its largest group only.
  private mutating func runGroup(suite: String, group: BenchmarkGroup) {
    let name = "\(suite)/\(group.name)"
    let setupStart = Clock.seconds()
    let cases: [BenchmarkCase]
    do {
      cases = try group.setup()
    } catch {
      fail(name, "setup failed: \(error)")
      return
    }
    let setupSeconds = Clock.seconds() - setupStart
    if let problem = structuralProblem(group, cases) {
      fail(name, problem)
      return
    }
    if options.dryRun {
      let start = Clock.seconds()
      for c in cases { c.body() }
      print(
        "ok  \(pad(name, 44)) \(cases.count) cases (\(cases.map(\.path).joined(separator: ", "))); "
          + "setup \(duration(setupSeconds)), one call of each \(duration(Clock.seconds() - start))")
    } else {
      measure(suite: suite, group: group, cases: cases)
    }
  }

  /// What would make a group's table meaningless, checked before any timing:
  /// no cases, duplicate paths, or a ratio naming a case the group lacks.
  private func structuralProblem(_ group: BenchmarkGroup, _ cases: [BenchmarkCase]) -> String? {
    let paths = cases.map(\.path)
    if paths.isEmpty { return "the setup returned no cases" }
    if Set(paths).count != paths.count { return "duplicate case names: \(paths)" }
    let named =
      [group.baseline, group.reference].compactMap { $0 }
      + group.timeRatios.flatMap { [$0.numerator, $0.denominator] }
    if let missing = named.first(where: { !paths.contains($0) }) {
      return "no case named '\(missing)' (cases: \(paths.joined(separator: ", ")))"
    }
    if group.items <= 0 || cases.contains(where: { ($0.items ?? group.items) <= 0 }) {
      return "a case processes no items"
    }
    return nil
  }

  private mutating func fail(_ name: String, _ reason: String) {
    failures.append("\(name): \(reason)")
    printError("FAILED \(name): \(reason)")
  }

  private func matches(_ name: String) -> Bool {
    let lowered = name.lowercased()
    // --plot measures only the cost-curve groups (a --filter narrows further).
    if options.plotPath != nil && !lowered.contains(BenchmarkPlot.groupPrefix) { return false }
    guard let filter = options.filter?.lowercased() else { return true }
    // A trailing `$` anchors the filter at the end of the name, so
    // `frame n=10000$` selects that size and not n=100000.
    if filter.hasSuffix("$") { return lowered.hasSuffix(filter.dropLast()) }
    return lowered.contains(filter)
  }

  /// Warm-up, calibration, then `sampleCount` rounds of one sample per case
  /// (A B C A B C …) so slow drifts (frequency, neighbours) hit every path alike.
  private mutating func measure(suite: String, group: BenchmarkGroup, cases: [BenchmarkCase]) {
    if Double(group.items) * group.byteModel.bytesPerItem >= Double(32 << 20), let probe {
      latestProbe = probe.measure(samples: 5)
    }
    var iterations: [Int] = []
    if group.fixedSamples != nil {
      iterations = Array(repeating: 1, count: cases.count)
    } else {
      for c in cases {
        c.body()  // warm-up: page faults, caches, lazy initialisation
        iterations.append(calibrate(c.body))
      }
    }
    var samples = [[Double]](repeating: [], count: cases.count)
    for _ in 0..<(group.fixedSamples ?? sampleCount) {
      for (k, c) in cases.enumerated() {
        let n = iterations[k]
        let start = Clock.seconds()
        for _ in 0..<n { c.body() }
        samples[k].append((Clock.seconds() - start) / Double(n))
      }
    }
    var groupRecords = cases.indices.map { k in
      let model = cases[k].byteModel ?? group.byteModel
      return Record(
        suite: suite, group: group.name, path: cases[k].path, items: cases[k].items ?? group.items,
        bytesPerItem: model.bytesPerItem, byteModel: model.description,
        iterationsPerSample: iterations[k], samples: samples[k], summary: Summary(samples[k]))
    }
    // Ratios of ns per item (of medians per call when the cases process the same items).
    let baseline = groupRecords.first { $0.path == group.baseline }?.nsPerItem
    let reference = groupRecords.first { $0.path == group.reference }?.nsPerItem
    for k in groupRecords.indices {
      // A two-thread case (path ending in -2t) is compared with the
      // two-thread copy: the share of what both cores can move.
      groupRecords[k].probeCopyGBps =
        groupRecords[k].path.hasSuffix("-2t") ? latestProbe.copy2tGBps : latestProbe.copyGBps
      groupRecords[k].speedupOverBaseline = baseline.map { $0 / groupRecords[k].nsPerItem }
      groupRecords[k].speedupOverReference = reference.map { $0 / groupRecords[k].nsPerItem }
    }
    printGroup(group, groupRecords)
    records += groupRecords
  }

  /// Iterations per sample so that one sample lasts at least the target time.
  private func calibrate(_ body: () -> Void) -> Int {
    var n = 1
    while true {
      let start = Clock.seconds()
      for _ in 0..<n { body() }
      let elapsed = Clock.seconds() - start
      if elapsed >= targetSampleSeconds { return n }
      if elapsed < targetSampleSeconds / 100 {
        n *= 10
      } else {
        return max(n, Int((Double(n) * targetSampleSeconds / elapsed * 1.1).rounded(.up)))
      }
    }
  }

  // MARK: Printing

  private func printGroup(_ group: BenchmarkGroup, _ records: [Record]) {
    print("")
    print(
      "\(records[0].suite)/\(group.name)  [\(group.items) items; \(format(group.byteModel.bytesPerItem)) B/item: \(group.byteModel.description); copy probe \(format(latestProbe.copyGBps)) GB/s, 2 threads \(format(latestProbe.copy2tGBps)) GB/s; -2t cases: %copy of the 2-thread probe]"
    )
    let header = [
      pad("path", 8), pad("min", 10, right: true), pad("median", 10, right: true),
      pad("p90", 10, right: true), pad("max", 10, right: true), pad("ns/item", 9, right: true),
      pad("Mitem/s", 9, right: true), pad("GB/s", 7, right: true), pad("%copy", 6, right: true),
      pad(group.baseline.map { "×\($0)" } ?? "-", 9, right: true),
      pad(group.reference.map { "×\($0)" } ?? "-", 8, right: true),
    ]
    for r in records where r.items != group.items || r.byteModel != group.byteModel.description {
      print("  (\(r.path): \(r.items) items; \(format(r.bytesPerItem)) B/item: \(r.byteModel))")
    }
    print("  " + header.joined(separator: " "))
    for r in records {
      let percent = r.percentOfCopyProbe
      let cells = [
        pad(r.path, 8), pad(duration(r.summary.min), 10, right: true),
        pad(duration(r.summary.median), 10, right: true), pad(duration(r.summary.p90), 10, right: true),
        pad(duration(r.summary.max), 10, right: true), pad(format(r.nsPerItem), 9, right: true),
        pad(format(r.itemsPerSecond / 1e6), 9, right: true), pad(format(r.gigabytesPerSecond), 7, right: true),
        pad(format(percent) + "%", 6, right: true),
        pad(r.speedupOverBaseline.map { format($0) + "×" } ?? "-", 9, right: true),
        pad(r.speedupOverReference.map { format($0) + "×" } ?? "-", 8, right: true),
      ]
      print("  " + cells.joined(separator: " "))
    }
    if let unit = group.itemName {
      let rates = records.map { "\($0.path) \(format($0.itemsPerSecond))" }
      print("  \(unit)s per second (1 / median per \(unit)): " + rates.joined(separator: ", "))
    }
    for ratio in group.timeRatios {
      guard let n = records.first(where: { $0.path == ratio.numerator }),
        let d = records.first(where: { $0.path == ratio.denominator })
      else { continue }
      print(
        "  \(ratio.numerator) / \(ratio.denominator) = \(format(n.nsPerItem / d.nsPerItem)) "
          + "(median ns per item \(format(n.nsPerItem)) / \(format(d.nsPerItem)); < 1: \(ratio.numerator) is faster)")
    }
    for line in group.notes?() ?? [] { print("  " + line) }
  }

  // MARK: JSON

  /// Writes the report to a temporary file next to `path`, then renames it into
  /// place, so a reader never sees a half-written file.
  func writeJSON(to path: String) throws(HarnessError) {
    var json = "{\n"
    json += "  \"environment\": {\n"
    let env = environment.fields
    for (k, field) in env.enumerated() {
      json += "    \(quote(field.0)): \(quote(field.1))\(k + 1 < env.count ? "," : "")\n"
    }
    json += "  },\n"
    json +=
      "  \"bandwidthProbe\": {\"bytes\": \(latestProbe.bytes), \"lastCopyGBps\": \(number(latestProbe.copyGBps)), "
    json +=
      "\"lastTriadGBps\": \(number(latestProbe.triadGBps)), \"lastCopy2tGBps\": \(number(latestProbe.copy2tGBps)), \"method\": \(quote(BandwidthProbe.method))},\n"
    json += "  \"quick\": \(options.quick),\n"
    json += "  \"results\": [\n"
    for (k, r) in records.enumerated() {
      json += "    {\"suite\": \(quote(r.suite)), \"group\": \(quote(r.group)), \"path\": \(quote(r.path)), "
      json += "\"items\": \(r.items), \"bytesPerItem\": \(number(r.bytesPerItem)), "
      json += "\"byteModel\": \(quote(r.byteModel)), \"iterationsPerSample\": \(r.iterationsPerSample), "
      json += "\"minSeconds\": \(number(r.summary.min)), \"medianSeconds\": \(number(r.summary.median)), "
      json += "\"p90Seconds\": \(number(r.summary.p90)), \"maxSeconds\": \(number(r.summary.max)), "
      json += "\"nsPerItem\": \(number(r.nsPerItem)), \"itemsPerSecond\": \(number(r.itemsPerSecond)), "
      json += "\"gigabytesPerSecond\": \(number(r.gigabytesPerSecond)), "
      json += "\"probeCopyGBps\": \(number(r.probeCopyGBps)), "
      json += "\"percentOfCopyProbe\": \(number(r.percentOfCopyProbe)), "
      json += "\"speedupOverBaseline\": \(r.speedupOverBaseline.map(number) ?? "null"), "
      json += "\"speedupOverReference\": \(r.speedupOverReference.map(number) ?? "null"), "
      json += "\"samplesSeconds\": [\(r.samples.map(number).joined(separator: ", "))]}"
      json += k + 1 < records.count ? ",\n" : "\n"
    }
    json += "  ]\n}\n"
    let temporary = "\(path).tmp-\(getpid())"
    guard let file = fopen(temporary, "w") else {
      throw .cannotWrite(path: path, reason: String(cString: strerror(errno)))
    }
    let written = json.utf8CString.withUnsafeBufferPointer { fputs($0.baseAddress!, file) }
    let closed = fclose(file)
    guard written >= 0, closed == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw .cannotWrite(path: path, reason: reason)
    }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw .cannotWrite(path: path, reason: reason)
    }
  }
}

enum HarnessError: Error, CustomStringConvertible {
  case cannotWrite(path: String, reason: String)
  case usage(String)

  var description: String {
    switch self {
    case .cannotWrite(let path, let reason): "cannot write --json file '\(path)': \(reason)"
    case .usage(let message): message
    }
  }
}

// MARK: - Small helpers

/// Writes a line to standard error.
func printError(_ message: String) {
  let line = message + "\n"
  _ = line.withCString { write(2, $0, strlen($0)) }
}

enum Clock {
  /// Monotonic time in seconds.
  static func seconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
  }
}

/// Three significant digits, no exponent for the usual ranges.
func format(_ x: Double) -> String {
  guard x.isFinite else { return "\(x)" }
  let a = abs(x)
  let decimals = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3
  var scaled = (x * pow(10, Double(decimals))).rounded()
  let negative = scaled < 0
  scaled = abs(scaled)
  var digits = String(Int64(scaled))
  if decimals > 0 {
    while digits.count <= decimals { digits = "0" + digits }
    digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
  }
  return (negative ? "-" : "") + digits
}

func duration(_ seconds: Double) -> String {
  if seconds >= 1 { return format(seconds) + " s" }
  if seconds >= 1e-3 { return format(seconds * 1e3) + " ms" }
  if seconds >= 1e-6 { return format(seconds * 1e6) + " µs" }
  return format(seconds * 1e9) + " ns"
}

func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
  let n = s.count
  guard n < width else { return s }
  let fill = String(repeating: " ", count: width - n)
  return right ? fill + s : s + fill
}

/// JSON string literal, escaped exactly as the effect-file writer escapes.
private func quote(_ s: String) -> String { JSONText.quoted(s) }

private func number(_ x: Double) -> String {
  x.isFinite ? "\(x)" : "null"
}
