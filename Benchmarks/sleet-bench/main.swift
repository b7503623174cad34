// sleet-bench: SleetKit's self-written benchmark harness.
// The suite API and how to add a suite: Benchmark.swift. Method: docs/benchmarks.md.
import SleetKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let usage = """
  usage: sleet-bench [--quick] [--filter SUBSTRING] [--json FILE] [--help]

    --quick            small sizes and short samples (the whole run takes < 1 minute; CI)
    --filter SUBSTRING run only the groups whose "suite/group" name contains SUBSTRING
                       (case-insensitive), e.g. --filter project-tiles or --filter n=65536
    --json FILE        also write every result, with raw samples, as JSON to FILE
                       (written to a temporary file, then renamed)
    --help             print this help

  Build for measuring (debug numbers are meaningless):
    swift build -c release --product sleet-bench && .build/release/sleet-bench
  AVX2+FMA build:
    swift build -c release --product sleet-bench -Xswiftc -target-cpu -Xswiftc haswell \\
      --scratch-path .build-haswell && .build-haswell/release/sleet-bench
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
    case "--filter": options.filter = try value("--filter")
    case "--json": options.jsonPath = try value("--json")
    default: throw .usage("sleet-bench: unknown argument '\(arguments[k])'")
    }
    k += 1
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
print("sleet-bench\(options.quick ? " --quick" : "")")
environment.print()
let probe = BandwidthProbe(quick: options.quick)
let firstProbe = probe.measure(samples: options.quick ? 5 : 10)
print(
  "\(pad("bandwidthProbe:", 24))copy \(format(firstProbe.copyGBps)) GB/s, triad \(format(firstProbe.triadGBps)) GB/s "
    + "(\(BandwidthProbe.method), \(firstProbe.bytes >> 20) MiB arrays; re-measured before every group whose "
    + "byte model exceeds 32 MiB, since neighbours change the available bandwidth)")
print("Times are per call of a case; ratios are of medians (×scalar > 1 means faster than scalar).")

var runner = BenchmarkRunner(options: options, environment: environment, probe: probe, latestProbe: firstProbe)
if runner.run() == 0, let filter = options.filter {
  printError("sleet-bench: no group matches --filter '\(filter)'")
  exit(2)
}
print("")
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
