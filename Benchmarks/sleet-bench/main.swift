// sleet-bench: SleetKit's self-written benchmark harness.
// The suite API and how to add a suite: Benchmark.swift. Method: docs/benchmarks.md.
import SleetKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let usage = """
  usage: sleet-bench [--quick | --dry-run] [--filter SUBSTRING] [--json FILE] [--plot FILE.png] [--help]

    --quick            small sizes and short samples (the whole run takes < 1 minute; CI)
    --dry-run          build every group's setup at every size (the 1M/4M groups too)
                       and call each case once, untimed, freeing each group before the
                       next: catches a broken group cheaply (CI); no probe, no figures
    --filter SUBSTRING run only the groups whose "suite/group" name contains SUBSTRING
                       (case-insensitive), e.g. --filter project-tiles or --filter n=65536;
                       a trailing $ anchors it at the end: --filter 'frame n=10000$'
    --json FILE        also write every result, with raw samples, as JSON to FILE
                       (written to a temporary file, then renamed)
    --plot FILE.png    measure only the particles/vs-c-baseline groups at 1k…4M live
                       particles and draw ns per particle against the live count
                       (SleetKit, the C baseline, the naive path) into FILE.png
    --help             print this help

  Build for measuring (debug numbers are meaningless):
    swift build -c release --product sleet-bench && .build/release/sleet-bench
  AVX2+FMA build (-Xcc compiles the C baseline for the same CPU):
    swift build -c release --product sleet-bench -Xswiftc -target-cpu -Xswiftc haswell \\
      -Xcc -march=haswell --scratch-path .build-haswell && .build-haswell/release/sleet-bench
  Particle cost curve (issue 9):
    .build/release/sleet-bench --plot docs/images/particles-cost-curve.png
  """

func parseOptions(_ arguments: [String]) throws(HarnessError) -> BenchmarkRunner.Options? {
  var options = BenchmarkRunner.Options()
  var k = 0
  func value(_ flag: String) throws(HarnessError) -> String {
    k += 1
    guard k < arguments.count, !arguments[k].hasPrefix("--") else {
      throw .usage("sleet-bench: \(flag) needs a value")
    }
    return arguments[k]
  }
  while k < arguments.count {
    switch arguments[k] {
    case "--help", "-h": return nil
    case "--quick": options.quick = true
    case "--dry-run": options.dryRun = true
    case "--plot": options.plotPath = try value("--plot")
    case "--filter": options.filter = try value("--filter")
    case "--json": options.jsonPath = try value("--json")
    default: throw .usage("sleet-bench: unknown argument '\(arguments[k])'")
    }
    k += 1
  }
  if options.dryRun && (options.quick || options.jsonPath != nil || options.plotPath != nil) {
    throw .usage("sleet-bench: --dry-run measures nothing; it takes no --quick, --json or --plot")
  }
  return options
}

func debugWarning() {
  guard Environment.isDebugBuild else { return }
  print(
    """
    ************************************************************************
    *  WARNING: sleet-bench was built in DEBUG. These numbers are useless. *
    *  Build with: swift build -c release --product sleet-bench            *
    ************************************************************************
    """)
}

let options: BenchmarkRunner.Options
do {
  guard let parsed = try parseOptions(Array(CommandLine.arguments.dropFirst())) else {
    print(usage)
    exit(0)
  }
  options = parsed
} catch {
  printError("\(error)\n\n\(usage)")
  exit(2)
}

debugWarning()
// OpenBLAS's thread count is the program's to choose, not the library's: one
// thread unless the user set OPENBLAS_NUM_THREADS (see BLASInfo). Read the
// default first so the environment report shows both.
let openblasDefaultThreads = BLASInfo.threadCount
BLASInfo.useSingleThreadedBLAS()
let environment = Environment.current(openblasDefaultThreads: openblasDefaultThreads)
print("sleet-bench\(options.quick ? " --quick" : "")\(options.dryRun ? " --dry-run" : "")")
environment.print()
var probe: BandwidthProbe? = nil
var firstProbe = BandwidthProbe.Result(bytes: 0, copyGBps: .nan, triadGBps: .nan)
if options.dryRun {
  print("Dry run: every group at every size, each case called once, nothing timed.")
} else {
  let measuringProbe = BandwidthProbe(quick: options.quick)
  firstProbe = measuringProbe.measure(samples: options.quick ? 5 : 10)
  probe = measuringProbe
  print(
    "\(pad("bandwidthProbe:", 24))copy \(format(firstProbe.copyGBps)) GB/s, triad \(format(firstProbe.triadGBps)) GB/s, "
      + "copy with 2 threads \(format(firstProbe.copy2tGBps)) GB/s "
      + "(\(BandwidthProbe.method), \(firstProbe.bytes >> 20) MiB arrays; re-measured before every group whose "
      + "byte model exceeds 32 MiB, since neighbours change the available bandwidth)")
  print("Times are per call of a case; ratios are of median ns per item (×scalar > 1 means faster than scalar).")
}

let runStart = Clock.seconds()
var runner = BenchmarkRunner(options: options, environment: environment, probe: probe, latestProbe: firstProbe)
if runner.run() == 0, let filter = options.filter {
  printError("sleet-bench: no group matches --filter '\(filter)'")
  exit(2)
}
print("")
if options.dryRun {
  print("dry run: \(duration(Clock.seconds() - runStart)), peak resident memory \(peakResidentMiB()) MiB")
}
debugWarning()
if let path = options.jsonPath {
  do {
    try runner.writeJSON(to: path)
    print("wrote \(path)")
  } catch {
    printError("sleet-bench: \(error)")
    exit(1)
  }
}
if let path = options.plotPath {
  do {
    try BenchmarkPlot(records: runner.records, environment: environment).write(to: path)
    print("wrote \(path)")
  } catch {
    printError("sleet-bench: \(error)")
    exit(1)
  }
}
if !runner.failures.isEmpty {
  printError("sleet-bench: \(runner.failures.count) group(s) failed:")
  for failure in runner.failures { printError("  \(failure)") }
  exit(1)
}

/// The process's peak resident set (getrusage ru_maxrss, KiB on Linux), in MiB.
func peakResidentMiB() -> Int {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return usage.ru_maxrss / 1024
}
