import COpenBLAS
import SleetMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Every OpenBLAS call SleetKit makes goes through this file (in the manner of
/// swift-system's `Syscalls.swift`): thin wrappers that convert sizes, check them
/// and record each call in the current task's ``_BLAS/Trace`` so tests can
/// assert how many calls an operation made.
///
/// The module never changes OpenBLAS's thread count: it is process-wide state
/// that belongs to the program. Executables choose it at startup with
/// ``BLASInfo/useSingleThreadedBLAS()``.
internal enum _BLAS {
  /// One recorded call: the routine and its problem shape.
  internal struct Call: Hashable, Sendable, CustomStringConvertible {
    var routine: String
    var m: Int
    var n: Int
    var k: Int

    var description: String { "\(routine)(m: \(m), n: \(n), k: \(k))" }
  }

  /// A test-visible call recorder. Bind one with `_BLAS.$trace.withValue(t) { … }`;
  /// calls made by that task (and only that task — tests run in parallel) are appended.
  internal final class Trace: @unchecked Sendable {
    // Safe: `calls` is only touched under `lock`.
    private var _calls: [Call] = []
    private var lock = pthread_mutex_t()

    init() { pthread_mutex_init(&lock, nil) }
    deinit { pthread_mutex_destroy(&lock) }

    var calls: [Call] {
      pthread_mutex_lock(&lock)
      defer { pthread_mutex_unlock(&lock) }
      return _calls
    }

    func record(_ call: Call) {
      pthread_mutex_lock(&lock)
      _calls.append(call)
      pthread_mutex_unlock(&lock)
    }
  }

  @TaskLocal internal static var trace: Trace?

  /// The environment variables through which a user chooses OpenBLAS's
  /// thread count; OpenBLAS reads them itself when it loads
  /// (`OPENBLAS_NUM_THREADS` first, then `GOTO_NUM_THREADS`, then `OMP_NUM_THREADS`).
  internal static let threadVariables = ["OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"]

  /// The first of ``threadVariables`` that is set, with its value.
  internal static var userThreadChoice: (name: String, value: String)? {
    for name in threadVariables {
      if let value = getenv(name) { return (name, String(cString: value)) }
    }
    return nil
  }

  @inline(__always)
  private static func _int32(_ x: Int, _ what: StaticString) -> Int32 {
    precondition(x >= 0 && x <= Int(Int32.max), "SleetBLAS: \(what) = \(x) exceeds the 32-bit BLAS interface")
    return Int32(x)
  }

  /// `C = alpha·op(A)·op(B) + beta·C`, row-major, `op(A)` M×K, `op(B)` K×N.
  static func sgemm(
    transposeA: Bool = false, transposeB: Bool = false, m: Int, n: Int, k: Int,
    alpha: Float = 1, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
    beta: Float = 0, c: UnsafeMutablePointer<Float>, ldc: Int
  ) {
    trace?.record(Call(routine: "sgemm", m: m, n: n, k: k))
    cblas_sgemm(
      CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans,
      _int32(m, "m"), _int32(n, "n"), _int32(k, "k"), alpha, a, _int32(lda, "lda"), b, _int32(ldb, "ldb"),
      beta, c, _int32(ldc, "ldc"))
  }

  /// `y = alpha·A·x + beta·y` for a row-major M×N band matrix `A` with `kl`
  /// sub- and `ku` super-diagonals, stored as M rows of `lda ≥ kl + ku + 1`
  /// floats (row `i` holds `A[i, i−kl … i+ku]`).
  static func sgbmv(
    m: Int, n: Int, kl: Int, ku: Int, alpha: Float = 1, a: UnsafePointer<Float>, lda: Int,
    x: UnsafePointer<Float>, incx: Int, beta: Float = 0, y: UnsafeMutablePointer<Float>, incy: Int
  ) {
    trace?.record(Call(routine: "sgbmv", m: m, n: n, k: kl + ku + 1))
    cblas_sgbmv(
      CblasRowMajor, CblasNoTrans, _int32(m, "m"), _int32(n, "n"), _int32(kl, "kl"), _int32(ku, "ku"),
      alpha, a, _int32(lda, "lda"), x, _int32(incx, "incx"), beta, y, _int32(incy, "incy"))
  }
}

/// The OpenBLAS in use: its build, its thread count, and the one call with
/// which an *executable* chooses that count.
///
/// The thread count is process-wide state of the OpenBLAS library, shared with
/// every other user of OpenBLAS in the process, so the SleetBLAS module never
/// sets it (not on the first BLAS call, not when reporting). A program that
/// links SleetKit as a dependency keeps whatever it, or its user, chose.
public enum BLASInfo {
  /// Pins OpenBLAS to **one thread**, unless the user chose a count through
  /// `OPENBLAS_NUM_THREADS`, `GOTO_NUM_THREADS` or `OMP_NUM_THREADS` (which
  /// OpenBLAS has then already applied; this leaves it alone). Returns whether
  /// it pinned.
  ///
  /// For executables only (`sleet`, `sleet-bench`): call it once at startup,
  /// before any thread runs BLAS work (`openblas_set_num_threads` is not safe
  /// to call while another thread is inside OpenBLAS). Libraries must not call
  /// it.
  ///
  /// Why one thread: the `blas` backend's shapes have K = 4, where packing
  /// dominates, and OpenBLAS's own threading (which switches on above
  /// M·N·K = 262,144, i.e. 16k transform rows) splits work too small to pay
  /// for its threads: on a small machine it runs slower than one thread.
  /// SleetKit parallelises its own work with `concurrentPerform`; nested BLAS
  /// threads would oversubscribe the cores (`docs/architecture.md`, *OpenBLAS
  /// threads belong to the program*).
  /// Only the ``TransformBackend/blas`` backend uses OpenBLAS; its last bits
  /// may depend on OpenBLAS's thread count (its stated tolerance holds for any
  /// count), the `scalar` and `simd` backends never do.
  /// - Complexity: O(1); may start or park OpenBLAS server threads.
  @discardableResult
  public static func useSingleThreadedBLAS() -> Bool {
    guard _BLAS.userThreadChoice == nil else { return false }
    openblas_set_num_threads(1)
    return true
  }

  /// The number of threads OpenBLAS currently uses (`openblas_get_num_threads()`).
  /// Only reads.
  public static var threadCount: Int { Int(openblas_get_num_threads()) }

  /// A one-line description of OpenBLAS's current thread count and who chose
  /// it, for `sleet info` and `sleet-bench`. Only reads: it never changes the
  /// count (see ``useSingleThreadedBLAS()``).
  public static var threadPolicy: String {
    let count = threadCount
    let threads = count == 1 ? "1 thread" : "\(count) threads"
    if let choice = _BLAS.userThreadChoice {
      return "\(threads) (\(choice.name)=\(choice.value))"
    }
    return "\(threads) (no OPENBLAS_NUM_THREADS/GOTO_NUM_THREADS/OMP_NUM_THREADS set; sleet and sleet-bench pin 1)"
  }

  /// OpenBLAS's build description (`openblas_get_config()`), e.g.
  /// `OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Zen MAX_THREADS=64`, or
  /// `unknown`.
  public static var configuration: String {
    openblas_get_config().map { String(cString: $0) } ?? "unknown"
  }

  /// The kernel set OpenBLAS chose for this CPU at load time
  /// (`openblas_get_corename()`, e.g. `Zen` or `Haswell`), or `unknown`.
  public static var coreName: String {
    openblas_get_corename().map { String(cString: $0) } ?? "unknown"
  }
}
