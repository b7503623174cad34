// The classic SoA particle design (fenbf/particles: ParticleData with one
// glm::vec4 array per attribute, one pass per updater, kill by moving the last
// alive particle into the hole), in C11, as issue 9's baseline.
//
// Layout. Seven vec4 float streams of capacity N: position, colour, start
// colour, end colour, velocity, acceleration, time (x = remaining life,
// y = lifetime, z = normalised age 1 − x·w, w = 1/lifetime, so the colour
// mix needs no division). They live in ONE slab: stream k starts at
// k·(round_up(16·N, 4096) + 320) bytes. Why one slab and not seven mallocs:
// glibc serves each large malloc with its own mmap, so seven separate arrays
// would all start at the same offset modulo 4 KiB, and a pass that reads one
// stream and writes another then suffers 4 KiB aliasing (false store-to-load
// dependencies) and L1 set conflicts, several times slower
// (docs/performance-design.md). With the 320 B (five cache lines) stagger
// the streams start at 0, 320, …, 1920 mod 4096: distinct page offsets and
// distinct L1 sets, whatever the allocator does. The slab is 4096-aligned, so
// every stream is 64-byte aligned (320 is a multiple of 64).
//
// Frame (dt = 1/60 in the benchmark), one pass per step as the C++ design:
//   1. zero the acceleration of all N slots (the C++ design resets every slot);
//   2. time: x −= dt, z = 1 − x·w; x < 0 kills: the last alive particle's seven
//      vec4 are copied into the slot and the count decremented;
//   3. colour = mix(start, end, z);
//   4. Euler in three passes: acc += g·dt; vel += acc·dt; pos += vel·dt,
//      g = (0, −15, 0, 0);
//   5. emit ⌊rate·dt⌋ particles (rate = 0.25·N per second) at the end:
//      position in a small box, colours and velocity uniform in fixed ranges,
//      lifetime uniform in [3, 4] s, from a xorshift64* generator seeded fixed.
// With lifetimes averaging 3.5 s the steady state holds 0.875·N particles.
//
// Floating point is not relaxed (no -ffast-math): the compiler may contract
// a·b + c into an FMA only where the target has one (the haswell build), as
// Clang's default -ffp-contract=on allows within one expression.
#include "CParticleBaseline.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  float x, y, z, w;
} vec4;
// The passes over whole streams treat a vec4 array as 4n contiguous floats.
_Static_assert(sizeof(vec4) == 4 * sizeof(float), "vec4 must have no padding");

enum { stream_count = 7, page_bytes = 4096, stagger_bytes = 320 };

struct cpb_system {
  // Stream pointers into `slab`. They never alias each other (disjoint
  // ranges of one allocation), which the passes state with `restrict`.
  vec4 *pos, *col, *start_col, *end_col, *vel, *acc, *time;
  size_t capacity;
  size_t alive;
  size_t births_per_second;  // 0.25·capacity, as an integer count per second
  uint64_t rng;
  void *slab;
  size_t slab_bytes;
};

// xorshift64* (Marsaglia; Vigna's multiplier): three shifts and a multiply,
// ample for effect randomness and far cheaper than the frame's memory traffic.
static inline uint64_t next_u64(uint64_t *state) {
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545F4914F6CDD1DULL;
}

// Uniform in [lo, hi): the top 24 bits give every float in [0, 1) on a 2⁻²⁴ grid.
static inline float uniform(uint64_t *state, float lo, float hi) {
  float u = (float)(next_u64(state) >> 40) * (1.0f / 16777216.0f);
  return lo + (hi - lo) * u;
}

cpb_system *cpb_create(size_t max_particles, uint64_t seed) {
  if (max_particles == 0 || max_particles > (SIZE_MAX / 2) / (sizeof(vec4) * stream_count)) return NULL;
  cpb_system *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  size_t stream_bytes = (max_particles * sizeof(vec4) + page_bytes - 1) / page_bytes * page_bytes;
  size_t stride = stream_bytes + stagger_bytes;
  // aligned_alloc needs a size that is a multiple of the alignment.
  size_t total = (stride * stream_count + page_bytes - 1) / page_bytes * page_bytes;
  s->slab = aligned_alloc(page_bytes, total);
  if (!s->slab) {
    free(s);
    return NULL;
  }
  // Touch every page once now, so the first timed frames do not pay page faults.
  memset(s->slab, 0, total);
  char *base = s->slab;
  vec4 **streams[stream_count] = {&s->pos, &s->col, &s->start_col, &s->end_col, &s->vel, &s->acc, &s->time};
  for (int k = 0; k < stream_count; k++) *streams[k] = (vec4 *)(void *)(base + (size_t)k * stride);
  s->slab_bytes = total;
  s->capacity = max_particles;
  s->births_per_second = max_particles / 4;
  s->rng = seed ? seed : 0x9E3779B97F4A7C15ULL;  // xorshift's state must not be 0
  return s;
}

void cpb_destroy(cpb_system *system) {
  if (!system) return;
  free(system->slab);
  free(system);
}

size_t cpb_alive(const cpb_system *system) { return system->alive; }
size_t cpb_capacity(const cpb_system *system) { return system->capacity; }
size_t cpb_slab_bytes(const cpb_system *system) { return system->slab_bytes; }

double cpb_position_y_sum(const cpb_system *system) {
  double sum = 0;
  for (size_t i = 0; i < system->alive; i++) sum += system->pos[i].y;
  return sum;
}

// --- The passes. Each is a separate non-inlined function over restrict
// pointers, as each updater is a separate loop in the C++ design; restrict
// lets the compiler vectorise without run-time overlap checks.

__attribute__((noinline)) static void zero_acceleration(vec4 *restrict acc, size_t n) {
  memset(acc, 0, n * sizeof(vec4));
}

// Returns the new alive count. Not vectorisable (the kill moves data and
// shortens the loop), as in the C++ design. Unlike fenbf's loop, which
// continues with i + 1 after a kill and so skips ageing the moved-in
// particle for one frame, slot i is examined again: same cost, correct ages.
__attribute__((noinline)) static size_t update_time(
  vec4 *restrict pos, vec4 *restrict col, vec4 *restrict start_col, vec4 *restrict end_col,
  vec4 *restrict vel, vec4 *restrict acc, vec4 *restrict time, size_t alive, float dt
) {
  size_t i = 0;
  while (i < alive) {
    time[i].x -= dt;
    time[i].z = 1.0f - time[i].x * time[i].w;
    if (time[i].x < 0.0f) {
      size_t last = --alive;
      pos[i] = pos[last];
      col[i] = col[last];
      start_col[i] = start_col[last];
      end_col[i] = end_col[last];
      vel[i] = vel[last];
      acc[i] = acc[last];
      time[i] = time[last];
    } else {
      i++;
    }
  }
  return alive;
}

// Vectorisation. The C++ design gets one 4-lane SIMD operation per vec4
// (glm::simdVec4). Left alone, Clang's loop vectoriser instead puts four
// particles in a register lane by lane (scalar loads and unpack shuffles,
// slower); so the loops over whole streams are written over flat floats
// (contiguous: 4 lanes in SSE2, 8 in AVX2), and the loops that mix a
// per-particle scalar into a vec4 are left to the SLP vectoriser, which
// makes each particle one 4-lane operation.

__attribute__((noinline)) static void update_colour(
  vec4 *restrict col, const vec4 *restrict start_col, const vec4 *restrict end_col, const vec4 *restrict time,
  size_t n
) {
#if defined(__clang__)
#pragma clang loop vectorize(disable) interleave(disable)
#endif
  for (size_t i = 0; i < n; i++) {
    float t = time[i].z;
    col[i].x = start_col[i].x + (end_col[i].x - start_col[i].x) * t;
    col[i].y = start_col[i].y + (end_col[i].y - start_col[i].y) * t;
    col[i].z = start_col[i].z + (end_col[i].z - start_col[i].z) * t;
    col[i].w = start_col[i].w + (end_col[i].w - start_col[i].w) * t;
  }
}

__attribute__((noinline)) static void euler_acceleration(vec4 *restrict acc, vec4 g_dt, size_t n) {
#if defined(__clang__)
#pragma clang loop vectorize(disable) interleave(disable)
#endif
  for (size_t i = 0; i < n; i++) {
    acc[i].x += g_dt.x;
    acc[i].y += g_dt.y;
    acc[i].z += g_dt.z;
    acc[i].w += g_dt.w;
  }
}

// out += rate·dt over all four lanes of n particles: 4n contiguous floats.
__attribute__((noinline)) static void euler_integrate(vec4 *restrict out, const vec4 *restrict rate, float dt, size_t n) {
  float *restrict o = &out->x;
  const float *restrict r = &rate->x;
  for (size_t k = 0; k < 4 * n; k++) o[k] += r[k] * dt;
}

// Generators of the C++ design (box position, basic colour, basic velocity,
// basic time), fused into one loop per new particle: births are ≈ 0.5 % of the
// alive set per frame, so their layout matters little.
static void emit(cpb_system *restrict s, size_t count) {
  size_t begin = s->alive;
  size_t end = begin + count;
  if (end > s->capacity) end = s->capacity;
  uint64_t rng = s->rng;
  for (size_t i = begin; i < end; i++) {
    s->pos[i] = (vec4){uniform(&rng, -0.05f, 0.05f), uniform(&rng, -0.05f, 0.05f), uniform(&rng, -0.05f, 0.05f), 1.0f};
    vec4 c0 = {uniform(&rng, 0.7f, 1.0f), uniform(&rng, 0.7f, 1.0f), uniform(&rng, 0.7f, 1.0f), 1.0f};
    s->start_col[i] = c0;
    s->end_col[i] = (vec4){uniform(&rng, 0.5f, 1.0f), uniform(&rng, 0.0f, 0.2f), uniform(&rng, 0.0f, 0.2f), 0.0f};
    s->col[i] = c0;
    s->vel[i] = (vec4){uniform(&rng, -0.5f, 0.5f), uniform(&rng, 0.5f, 3.5f), uniform(&rng, -0.5f, 0.5f), 0.0f};
    float life = uniform(&rng, 3.0f, 4.0f);
    s->time[i] = (vec4){life, life, 0.0f, 1.0f / life};
  }
  s->rng = rng;
  s->alive = end;
}

void cpb_frame(cpb_system *system, float dt) {
  cpb_system *s = system;
  zero_acceleration(s->acc, s->capacity);
  s->alive = update_time(s->pos, s->col, s->start_col, s->end_col, s->vel, s->acc, s->time, s->alive, dt);
  size_t n = s->alive;
  update_colour(s->col, s->start_col, s->end_col, s->time, n);
  euler_acceleration(s->acc, (vec4){0.0f, -15.0f * dt, 0.0f, 0.0f}, n);
  euler_integrate(s->vel, s->acc, dt, n);
  euler_integrate(s->pos, s->vel, dt, n);
  // ⌊rate·dt⌋ in float, as the C++ emitter computes it (dt·emitRate).
  emit(s, (size_t)((float)s->births_per_second * dt));
}

const char *cpb_build_summary(void) {
  return ""
#if defined(__OPTIMIZE__)
         "optimised"
#else
         "NOT optimised"
#endif
#if defined(__AVX512F__)
         ", AVX-512F"
#endif
#if defined(__AVX2__)
         ", AVX2"
#endif
#if defined(__FMA__)
         ", FMA"
#endif
#if defined(__AVX__)
         ", AVX"
#endif
#if defined(__SSE4_2__)
         ", SSE4.2"
#endif
#if !defined(__AVX__) && !defined(__SSE4_2__) && defined(__SSE2__)
         ", SSE2 only"
#endif
      ;
}
