#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The sanitizer this test process was built with (`swift test
/// --sanitize=address|thread`), found from the runtime's exported entry
/// point; nil in a normal build.
///
/// Tests that run foreign programs against SleetKit's own instrumented
/// binaries use it: a C program or Python loading an instrumented
/// `libSleetKitC.so` needs the sanitizer's runtime, which only an
/// instrumented executable brings, and ThreadSanitizer's runtime dies with
/// SIGBUS under a small `ulimit -f` (its shadow memory is file-backed). Those
/// tests are skipped under a sanitizer, with this as the reason; they run in
/// every normal `swift test` (docs/reliability.md, "Sanitizers").
public let activeSanitizer: String? = {
  let handle = dlopen(nil, RTLD_NOW)
  defer { if let handle { dlclose(handle) } }
  if dlsym(handle, "__tsan_init") != nil { return "ThreadSanitizer" }
  if dlsym(handle, "__asan_init") != nil { return "AddressSanitizer" }
  return nil
}()
