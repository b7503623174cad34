// CParticleBaseline: the classic C++-style SoA particle system (fenbf/particles,
// "Flexible particle system", 2014), rewritten in C11 as the baseline that
// sleet-bench compares SleetKit's particle frame against (issue 9). Used only by
// sleet-bench; not part of any SleetKit product.
#ifndef SLEET_C_PARTICLE_BASELINE_H
#define SLEET_C_PARTICLE_BASELINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An opaque particle system: seven vec4 float streams of capacity max_particles
/// in one padded slab, plus an alive count.
typedef struct cpb_system cpb_system;

/// A system for at most `max_particles` particles (≥ 1), empty, emitting
/// ⌊0.25·max_particles·dt⌋ particles per frame, its PRNG seeded with `seed`.
/// Returns NULL when the slab cannot be allocated.
cpb_system *cpb_create(size_t max_particles, uint64_t seed);

/// Frees the system and its slab (NULL is allowed).
void cpb_destroy(cpb_system *system);

/// One frame of `dt` seconds: zero every acceleration, age and kill, colour,
/// three Euler passes, then emit (see CParticleBaseline.c).
void cpb_frame(cpb_system *system, float dt);

/// Particles alive now.
size_t cpb_alive(const cpb_system *system);

/// Capacity (max_particles).
size_t cpb_capacity(const cpb_system *system);

/// Bytes of the slab (the seven streams with their padding).
size_t cpb_slab_bytes(const cpb_system *system);

/// Sum of the alive particles' position y values: a cheap cross-check that
/// the frames did real work (gravity makes it fall frame by frame).
double cpb_position_y_sum(const cpb_system *system);

/// How this file was compiled, from predefined macros: the optimisation
/// level is not visible as a macro, so this reports __OPTIMIZE__ and the
/// instruction-set macros (__AVX2__, __FMA__, __SSE4_2__ …) the -march or
/// -Xcc flags turned on.
const char *cpb_build_summary(void);

#ifdef __cplusplus
}
#endif

#endif
