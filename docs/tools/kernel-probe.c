// kernel-probe: the particle frame's C block loop alone, on synthetic blocks.
//
// sleet-bench measures whole frames through the Swift API; this probe calls
// sleet_evaluate_blocks8 (Sources/CSleetKernels/sleet_kernels.h) straight
// from C, so that a change to the header, or an ablation of one of its parts
// (a transpose, the colour packing, a store), can be timed in seconds without
// rebuilding the package. docs/performance-design.md ("The floor of the missed
// issue-9 targets") holds what its ablations showed.
//
// The blocks: `slots` lanes of one constants row (one cell, as the
// steady-state benchmark effect), births spread evenly over the 4 s before
// t = 10 s, oldest first, lifetimes uniform in [3, 4] s (a fixed LCG), so
// about 87 % of the lanes are alive and the oldest quarter of the blocks is
// partly alive, as in `particles/vs-c-baseline`; with --all-alive, births
// over the last 3 s only (every lane alive). The surely-alive bounds are
// ParticleStore's: the block's earliest death d less 10⁻¹²·max(1, |d|).
// Output rows start `--offset` bytes past a 4096-byte boundary (48: where a
// Swift array's large buffer starts).
//
// Build and run (the same flags as the package's release build of the
// header: clang -O2; -march=haswell for the haswell build; without it, the
// portable build's AVX2 copy is what --avx2-copy runs):
//   clang -O2 -Wno-psabi -I Sources/CSleetKernels -I Sources/CSIMDBuildTarget -o .build/kernel-probe docs/tools/kernel-probe.c
//   .build/kernel-probe 11400 --avx2-copy
//   clang -O2 -march=haswell -Wno-psabi -I Sources/CSleetKernels -I Sources/CSIMDBuildTarget -o .build/kernel-probe-haswell docs/tools/kernel-probe.c
//   .build/kernel-probe-haswell 11400
//
// Prints the lowest time of `--rounds` calls (default 1000) in ns per live
// particle and per block, and an FNV-1a hash of the rows written (an
// ablation that changes the output shows it; a rearrangement that keeps the
// bits does not).
//
// usage: kernel-probe SLOTS [--offset BYTES] [--affines] [--compact]
//                           [--all-alive] [--avx2-copy] [--huge] [--rounds N]
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

#include "shim.h"  // CSIMDBuildTarget: sleet_cpu_has_avx2
#include "sleet_kernels.h"

// With --huge, the slab and output buffers are 2 MiB aligned, whole 2 MiB
// pages, and advised for transparent huge pages (Linux; granted where
// /sys/kernel/mm/transparent_hugepage/enabled is `always` or `madvise`).
static int hugePages = 0;

static void *allocateBuffer(size_t bytes) {
  if (!hugePages) return aligned_alloc(4096, (bytes + 4095) & ~(size_t)4095);
  size_t huge = (size_t)2 << 20, rounded = (bytes + huge - 1) & ~(huge - 1);
  void *p = aligned_alloc(huge, rounded);
  if (p) madvise(p, rounded, MADV_HUGEPAGE);
  return p;
}

static double nowNanoseconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static uint64_t lcgState = 0x9E3779B97F4A7C15u;

// Uniform in [0, 1): the top 24 bits of a 64-bit LCG (Knuth's MMIX constants).
static float nextUnit(void) {
  lcgState = lcgState * 6364136223846793005u + 1442695040888963407u;
  return (float)(lcgState >> 40) / 16777216.0f;
}

static uint64_t fnv1a(uint64_t h, const unsigned char *bytes, long count) {
  for (long i = 0; i < count; i++) h = (h ^ bytes[i]) * 1099511628211u;
  return h;
}

static void usage(void) {
  fprintf(stderr, "usage: kernel-probe SLOTS [--offset BYTES] [--affines] [--compact] [--all-alive] [--avx2-copy] "
                  "[--huge] [--rounds N]\n");
  exit(2);
}

int main(int argc, char **argv) {
  if (argc < 2) usage();
  long slots = atol(argv[1]), offset = 48, rounds = 1000;
  int affines = 0, compact = 0, allAlive = 0, avx2Copy = 0;
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--offset") && i + 1 < argc) offset = atol(argv[++i]);
    else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atol(argv[++i]);
    else if (!strcmp(argv[i], "--affines")) affines = 1;
    else if (!strcmp(argv[i], "--compact")) compact = 1;
    else if (!strcmp(argv[i], "--all-alive")) allAlive = 1;
    else if (!strcmp(argv[i], "--avx2-copy")) avx2Copy = 1;
    else if (!strcmp(argv[i], "--huge")) hugePages = 1;
    else usage();
  }
  long blocks = slots / 8;
  slots = 8 * blocks;
  if (blocks < 1 || offset < 0 || offset % 16 != 0 || rounds < 1) {
    fprintf(stderr, "kernel-probe: SLOTS must be at least 8, --offset a multiple of 16, --rounds at least 1\n");
    return 2;
  }
  if (avx2Copy && !sleet_cpu_has_avx2()) {
    fprintf(stderr, "kernel-probe: --avx2-copy: this CPU has no AVX2\n");
    return 2;
  }

  // The slab: 512-byte blocks of sixteen 32-byte slots (ParticleStore's
  // layout): birth (two slots of Double), lifetime, row index, p0 xyz, v0
  // xyz, scale, spin, colour rgba.
  const double t = 10.0, window = allAlive ? 3.0 : 4.0;
  char *slab = allocateBuffer(blocks * 512);
  double *aliveBefore = malloc(blocks * sizeof(double));
  long live = 0;
  for (long b = 0; b < blocks; b++) {
    char *p = slab + 512 * b;
    double earliestDeath = 1e300;
    for (int l = 0; l < 8; l++) {
      double birth = t - window + window * (double)(8 * b + l) / (double)(8 * blocks);
      float lifetime = 3.0f + nextUnit();
      unsigned row = 0;
      memcpy(p + 8 * l, &birth, 8);
      memcpy(p + 64 + 4 * l, &lifetime, 4);
      memcpy(p + 96 + 4 * l, &row, 4);
      for (int s = 4; s < 16; s++) {
        float v = nextUnit();
        memcpy(p + 32 * s + 4 * l, &v, 4);
      }
      if (t - birth < (double)lifetime) live++;
      if (birth + lifetime < earliestDeath) earliestDeath = birth + lifetime;
    }
    double magnitude = earliestDeath < 0 ? -earliestDeath : earliestDeath;
    aliveBefore[b] = earliestDeath - 1e-12 * (magnitude > 1 ? magnitude : 1);
  }
  // One constants row: h xyz, scale speed, colour speed rgba, contentsRect,
  // sprite and cell (bit patterns), compact sprite·cell.
  const float row[16] = {0, -7.5f, 0, -0.1f, 0.1f, -0.1f, 0.05f, -0.2f, 0, 0, 1, 1, 0, 0, 0, 0};

  char *rowsBuffer = allocateBuffer(blocks * 512 + 4096);
  char *affineBuffer = allocateBuffer(blocks * 192 + 4096);
  char *out = rowsBuffer + offset;
  sleet_run_target target = {compact ? 0 : out, compact ? out : 0, affines ? affineBuffer : 0, 0, 0, 0};

  double best = 1e300;
  long written = 0;
  for (long r = 0; r < rounds; r++) {
    double start = nowNanoseconds();
    if (avx2Copy)
      sleet_evaluate_blocks8_avx2(slab, 0, blocks, t, row, aliveBefore, blocks, target, &written);
    else
      sleet_evaluate_blocks8(slab, 0, blocks, t, row, aliveBefore, blocks, target, &written);
    double elapsed = nowNanoseconds() - start;
    if (elapsed < best) best = elapsed;
  }
  if (written != live) {
    fprintf(stderr, "kernel-probe: wrote %ld rows for %ld live lanes\n", written, live);
    return 1;
  }
  uint64_t hash = fnv1a(1469598103934665603u, (const unsigned char *)out, written * (compact ? 32 : 64));
  if (affines) hash = fnv1a(hash, (const unsigned char *)affineBuffer, written * 24);
  printf(
      "slots %ld, live %ld, %s%s, rows at %ld mod 4096: %.3f ns a live particle, %.1f ns a block (lowest of %ld); "
      "hash %016llx\n",
      slots, live, compact ? "compact rows" : "instances", affines ? " and affines" : "", offset, best / live,
      best / blocks, rounds, (unsigned long long)hash);
  return 0;
}
