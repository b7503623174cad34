// Eight consecutive top-level births of one cell, sampled at once: the C
// kernel behind SleetParticles' `BirthBatch` (BirthBatch.swift), which calls
// it for every batch of births, and behind `ParticleStore.appendSampledBlock`,
// which samples a batch alive in every lane straight into a slab block
// (sleet_sample_block8, further down). Eight births of one sub-cell from one
// parent have a kernel of their own, sleet_sample_children8 (its section
// below), built from the same pieces.
//
// What it computes, per lane l (birth first + l), exactly as the scalar
// `BirthSampler.topLevel` does (BirthBatchTests compares them over every
// shape × mode, cone ranges and multipliers):
//
//   words      Philox4x32-10 blocks 0…3 of RandomStream(seed | key << 32,
//              stream: first + l): key (seed, key), counter (b, 0, low 32
//              bits of the index, high 32 bits)
//   uniform    u = (float)(w >> 8) · 2⁻²⁴                   (exact)
//   attribute  (mean + (u − 0.5)·range)·multiplier           (lifetime,
//              speed, scale, spin; the colour without a multiplier)
//   direction  the cone of Emission.cone: cos β = 1 − u·(1 − cos(range/2)),
//              sin β = √max(0, 1 − cos²β), ψ = 2π·v (sleet_sincos8),
//              dir = axis·cos β + (e₁·cos ψ + e₂·sin ψ)·sin β
//   velocity   dir · speed
//   position   the shape's point for the shapes that need no branch per lane
//              (SLEET_BIRTH_SHAPE_*); for the others the caller computes it
//              from the four shape words the kernel leaves in `shapeWords`
//
// Why C: Swift's `SIMD8` code for this batch spills about 1.5 KB of stack,
// splits the cone's sines into 4-lane halves with scalar pieces
// (`vextractps`, `vmulss`), and broadcasts each parameter per use; here
// each line below is one 8-lane operation (two `ymm` halves for the
// 64-bit Philox lanes). Same contract as sleet_kernels.h: Clang's generic
// vectors (any target), contraction off, nothing reassociated, so the same
// IEEE operations in the same order as the Swift twin, lane by lane.
//
// Editing this header: see sleet_kernels.h (SwiftPM does not rebuild
// importers when only a header changes; touch the Swift files that import
// CSleetKernels).
#ifndef SLEET_BIRTHS_H
#define SLEET_BIRTHS_H

#include "sleet_kernels.h"

#pragma clang fp contract(off)

// Where a lane's position comes from (Emission.position's shapes × modes).
enum {
  // point; circle and sphere in points mode: the centre (+ 0, so −0 → +0)
  SLEET_BIRTH_SHAPE_CENTER = 0,
  // line, points mode: an end, x = centre ± width/2 by word 13 < 0.5
  SLEET_BIRTH_SHAPE_LINE_ENDS = 1,
  // line, other modes: x = centre + (u − 0.5)·width
  SLEET_BIRTH_SHAPE_LINE = 2,
  // rectangle, surface and volume modes: x and y
  SLEET_BIRTH_SHAPE_RECTANGLE = 3,
  // cuboid, volume mode: x, y and z
  SLEET_BIRTH_SHAPE_CUBOID = 4,
  // everything else: x = y = z = 0; the caller computes the point per lane
  // from shapeWords (words 10…13)
  SLEET_BIRTH_SHAPE_PER_LANE = 5,
};

// One cell's parameters for one segment (CellParameters and its layer),
// flattened once per cell and segment by the caller.
typedef struct {
  float lifetime, lifetimeRange, lifetimeMultiplier;
  float velocity, velocityRange, velocityMultiplier;
  float scale, scaleRange, scaleMultiplier;
  float spin, spinRange, spinMultiplier;
  float color[4], colorRange[4];
  // The cone: its axis and the axis's basis (Emission.basis), the full
  // angle and cos(min(range, 2π)/2).
  float axis[3], e1[3], e2[3];
  float coneRange, cosHalfRange;
  // The cell's emission angles (EmissionAngles): a sub-cell's cone axis is
  // its parent's direction of motion turned by them, per lane
  // (sleet_sample_children8).
  float cosLongitude, sinLongitude, cosLatitude, sinLatitude;
  // The emitter's position, size and depth.
  float center[3], width, height, depth;
  unsigned seed, key;
  int shape;  // SLEET_BIRTH_SHAPE_*
  // Whether Philox blocks 2 and 3 are read (unread words stay 0).
  int needsBlock2, needsBlock3;
  // Philox's 20 round keys of (seed, key), each in four 64-bit lanes: set
  // by sleet_birth_params_set_round_keys once the seed and key are.
  unsigned long long roundKeys[20][4];
} sleet_birth_params;

// The eight lanes of a batch, attribute by attribute (BirthBatch's fields).
// Float arrays, not sleet_float8: Swift does not import a struct aligned to
// 32 bytes.
typedef struct {
  float lifetime[8], speed[8], scale[8], spin[8];
  float red[8], green[8], blue[8], alpha[8];
  float x[8], y[8], z[8];
  float vx[8], vy[8], vz[8];
  // Uniforms of words 10, 11, 12, 13 (Emission.position's u.x…u.w); 0 for
  // a block not computed.
  float shapeWords[4][8];
} sleet_birth_lanes;

typedef unsigned long long sleet_u64x4 __attribute__((vector_size(32)));
typedef unsigned int sleet_uint4 __attribute__((vector_size(16)));

SLEET_INLINE sleet_u64x4 sleet_splat_u64x4(unsigned long long v) { return (sleet_u64x4){v, v, v, v}; }

// Philox4x32-10 of four lanes with counters (b, 0, c2[l], c3[l]) under the
// key whose schedule is `roundKeys` (sleet_philox_round_keys):
// Philox4x32.block, lane by lane. Each 32-bit word lives in the
// low half of a 64-bit lane, so each round's two 32×32→64 products are one
// `pmuludq` per two (SSE2) or four (AVX2) lanes, with no shuffles.
//
// Invariant: only the low 32 bits of a lane are the word; the high bits are
// don't-care (a previous product's high word). They never reach a low word:
// products read their inputs through `& low` (folded into `pmuludq`, which
// reads the low halves), a product's high word is `p >> 32` of that exact
// product, and xor is bitwise. Four lanes at a time, so that a block's state
// fits in eight of SSE2's sixteen `xmm` registers (a design choice, not
// measured against eight lanes).
SLEET_INLINE void sleet_philox4x4(
    unsigned b, sleet_u64x4 c2, sleet_u64x4 c3, const sleet_u64x4 roundKeys[20], sleet_uint4 out[4]) {
  const sleet_u64x4 low = sleet_splat_u64x4(0xFFFFFFFFull);
  const sleet_u64x4 m0 = sleet_splat_u64x4(0xD2511F53u), m1 = sleet_splat_u64x4(0xCD9E8D57u);
  sleet_u64x4 x0 = sleet_splat_u64x4(b), x1 = sleet_splat_u64x4(0), x2 = c2, x3 = c3;
#pragma clang loop unroll(full)
  for (unsigned r = 0; r < 10; r++) {
    sleet_u64x4 p0 = (x0 & low) * m0, p1 = (x2 & low) * m1;
    x0 = (p1 >> 32) ^ x1 ^ roundKeys[2 * r];
    x2 = (p0 >> 32) ^ x3 ^ roundKeys[2 * r + 1];
    x1 = p1;
    x3 = p0;
  }
  out[0] = __builtin_convertvector(x0, sleet_uint4);
  out[1] = __builtin_convertvector(x1, sleet_uint4);
  out[2] = __builtin_convertvector(x2, sleet_uint4);
  out[3] = __builtin_convertvector(x3, sleet_uint4);
}

// The 20 round keys of key (k0, k1), each in every lane: Philox's key
// schedule, (k0, k1) + r·(0x9E3779B9, 0xBB67AE85) mod 2³² for rounds r =
// 0…9.
SLEET_INLINE void sleet_philox_round_keys(unsigned k0, unsigned k1, sleet_u64x4 roundKeys[20]) {
#pragma clang loop unroll(full)
  for (unsigned r = 0; r < 10; r++) {
    roundKeys[2 * r] = sleet_splat_u64x4(k0 + r * 0x9E3779B9u);
    roundKeys[2 * r + 1] = sleet_splat_u64x4(k1 + r * 0xBB67AE85u);
  }
}

// Fills p->roundKeys from p->seed and p->key, once per cell and segment
// (the caller flattens the parameters that often). Why in the parameters:
// computed inside each round, the keys are an `lea`, a `vmovq` and a
// `vpbroadcastq` each, in every Philox block; copied from here once per
// batch, they cost the least (docs/performance-design.md).
static inline void sleet_birth_params_set_round_keys(sleet_birth_params *p) {
  sleet_u64x4 keys[20];
  sleet_philox_round_keys(p->seed, p->key, keys);
  __builtin_memcpy(p->roundKeys, keys, sizeof keys);
}

// Block b's four words of the eight streams index0 (lanes 0…3) and index1
// (lanes 4…7) as uniforms in [0, 1) (RandomStream.unitFloat).
SLEET_INLINE void sleet_stream_uniforms8(
    unsigned b, sleet_u64x4 index0, sleet_u64x4 index1, const sleet_u64x4 roundKeys[20], sleet_float8 u[4]) {
  sleet_uint4 low[4], high[4];
  sleet_philox4x4(b, index0 & sleet_splat_u64x4(0xFFFFFFFFull), index0 >> 32, roundKeys, low);
  sleet_philox4x4(b, index1 & sleet_splat_u64x4(0xFFFFFFFFull), index1 >> 32, roundKeys, high);
#pragma clang loop unroll(full)
  for (int w = 0; w < 4; w++) {
    sleet_uint8 word = __builtin_shufflevector(low[w], high[w], 0, 1, 2, 3, 4, 5, 6, 7);
    // < 2²⁴, so the signed conversion is exact.
    u[w] = __builtin_convertvector((sleet_int8)(word >> 8), sleet_float8) * sleet_splat(0x1p-24f);
  }
}

// Block b's four words of births first…first + 7 (streams first + l).
SLEET_INLINE void sleet_birth_uniforms8(
    unsigned b, unsigned long long first, const sleet_u64x4 roundKeys[20], sleet_float8 u[4]) {
  sleet_stream_uniforms8(
      b, sleet_splat_u64x4(first) + (sleet_u64x4){0, 1, 2, 3}, sleet_splat_u64x4(first) + (sleet_u64x4){4, 5, 6, 7},
      roundKeys, u);
}

// Lane-wise IEEE square root (Swift's `squareRoot()`: NaN stays NaN).
SLEET_INLINE sleet_float8 sleet_sqrt8(sleet_float8 x) {
#if __has_builtin(__builtin_elementwise_sqrt)
  return __builtin_elementwise_sqrt(x);
#else
  sleet_float8 r;
#pragma clang loop unroll(full)
  for (int l = 0; l < 8; l++) r[l] = __builtin_sqrtf(x[l]);
  return r;
#endif
}

// Lane-wise (x >= 0 ? x : 0).squareRoot(): NaN and negative lanes give +0
// (−0 passes through: √−0 = −0, as Swift's max(0, x) then squareRoot()).
SLEET_INLINE sleet_float8 sleet_sqrt_of_positive_part8(sleet_float8 x) {
  return sleet_sqrt8(sleet_select(x >= sleet_splat(0), x, sleet_splat(0)));
}

// Emission.cone of eight lanes, open cone (p->coneRange > 0): directions
// `d` around the lanes' unit axes with their bases (Emission.basis) for the
// cone's words u (cos β) and v (ψ):
//
//   cos β = 1 − u·(1 − cos(range/2)),  sin β = √max(0, 1 − cos²β),
//   ψ = 2π·v (sleet_sincos8),  d = axis·cos β + (e₁·cos ψ + e₂·sin ψ)·sin β
SLEET_INLINE void sleet_cone8(
    const sleet_birth_params *p, const sleet_float8 axis[3], const sleet_float8 e1[3], const sleet_float8 e2[3],
    sleet_float8 u, sleet_float8 v, sleet_float8 d[3]) {
  sleet_float8 cosBeta = sleet_splat(1) - u * sleet_splat(1 - p->cosHalfRange);
  sleet_float8 sinBeta = sleet_sqrt_of_positive_part8(sleet_splat(1) - cosBeta * cosBeta);
  float sine[8], cosine[8];
  // 2·Float.pi: Swift's Float.pi is π rounded toward zero (0x1.921fb4p+1).
  sleet_sincos8(sleet_splat(0x1.921fb4p+2f) * v, sine, cosine);
  sleet_float8 sinPsi = sleet_load8((const char *)sine), cosPsi = sleet_load8((const char *)cosine);
#pragma clang loop unroll(full)
  for (int c = 0; c < 3; c++) d[c] = axis[c] * cosBeta + (e1[c] * cosPsi + e2[c] * sinPsi) * sinBeta;
}

// The eight lanes of a batch in registers: sleet_birth_lanes's fields as
// vectors. C only (Swift does not import a struct of 32-byte vectors).
typedef struct {
  sleet_float8 lifetime, speed, scale, spin;
  sleet_float8 red, green, blue, alpha;
  sleet_float8 x, y, z;
  sleet_float8 vx, vy, vz;
  sleet_float8 shapeWords[4];
} sleet_birth_values8;

// Samples births first…first + 7 of the cell `p` into `out` (see the top of
// this header); sleet_sample_births8 and sleet_sample_block8 and their AVX2
// copies below call it. Lanes
// are independent: a caller with fewer births ignores the rest; a lane whose
// lifetime is ≤ 0 is a birth that never exists.
//
// Invariants: `p` and `out` are valid (no alignment needed beyond the
// types'); first + 7 does not overflow 64 bits (the caller keeps indices
// below 2⁵⁶).
SLEET_INLINE void sleet_sample_births8_values(
    const sleet_birth_params *p, unsigned long long first, sleet_birth_values8 *out) {
  sleet_float8 half = sleet_splat(0.5f), zero = sleet_splat(0);
  sleet_float8 u[4];
  // A local copy: the parameters are not 32-byte aligned (Swift does not
  // import such a struct), and loading the keys from them inside the rounds
  // is slower than copying them once.
  sleet_u64x4 roundKeys[20];
  __builtin_memcpy(roundKeys, p->roundKeys, sizeof roundKeys);
  sleet_birth_uniforms8(0, first, roundKeys, u);
  out->lifetime = (sleet_splat(p->lifetime) + (u[0] - half) * sleet_splat(p->lifetimeRange)) *
                   sleet_splat(p->lifetimeMultiplier);
  sleet_float8 speed = (sleet_splat(p->velocity) + (u[1] - half) * sleet_splat(p->velocityRange)) *
                       sleet_splat(p->velocityMultiplier);
  out->speed = speed;
  out->scale = (sleet_splat(p->scale) + (u[2] - half) * sleet_splat(p->scaleRange)) * sleet_splat(p->scaleMultiplier);
  out->spin = (sleet_splat(p->spin) + (u[3] - half) * sleet_splat(p->spinRange)) * sleet_splat(p->spinMultiplier);
  sleet_birth_uniforms8(1, first, roundKeys, u);
  out->red = sleet_splat(p->color[0]) + (u[0] - half) * sleet_splat(p->colorRange[0]);
  out->green = sleet_splat(p->color[1]) + (u[1] - half) * sleet_splat(p->colorRange[1]);
  out->blue = sleet_splat(p->color[2]) + (u[2] - half) * sleet_splat(p->colorRange[2]);
  out->alpha = sleet_splat(p->color[3]) + (u[3] - half) * sleet_splat(p->colorRange[3]);

  // Words 8…11: the cone's (u, v), the shape's first two; 12, 13: the
  // shape's last two (z, discrete choice).
  sleet_float8 b2[4] = {zero, zero, zero, zero}, b3[4] = {zero, zero, zero, zero};
  if (p->needsBlock2) sleet_birth_uniforms8(2, first, roundKeys, b2);
  if (p->needsBlock3) sleet_birth_uniforms8(3, first, roundKeys, b3);

  sleet_float8 d[3];  // the direction's x, y, z
  if (p->coneRange > 0) {
    const sleet_float8 axis[3] = {sleet_splat(p->axis[0]), sleet_splat(p->axis[1]), sleet_splat(p->axis[2])};
    const sleet_float8 e1[3] = {sleet_splat(p->e1[0]), sleet_splat(p->e1[1]), sleet_splat(p->e1[2])};
    const sleet_float8 e2[3] = {sleet_splat(p->e2[0]), sleet_splat(p->e2[1]), sleet_splat(p->e2[2])};
    sleet_cone8(p, axis, e1, e2, b2[0], b2[1], d);
  } else {
#pragma clang loop unroll(full)
    for (int c = 0; c < 3; c++) d[c] = sleet_splat(p->axis[c]);
  }
  out->vx = d[0] * speed;
  out->vy = d[1] * speed;
  out->vz = d[2] * speed;

  sleet_float8 cx = sleet_splat(p->center[0]), cy = sleet_splat(p->center[1]), cz = sleet_splat(p->center[2]);
  sleet_float8 w = sleet_splat(p->width);
  switch (p->shape) {
  case SLEET_BIRTH_SHAPE_CENTER:
    out->x = cx + zero;
    out->y = cy + zero;
    out->z = cz + zero;
    break;
  case SLEET_BIRTH_SHAPE_LINE_ENDS:
    out->x = cx + sleet_select(b3[1] < half, sleet_splat(-p->width / 2), sleet_splat(p->width / 2));
    out->y = cy + zero;
    out->z = cz + zero;
    break;
  case SLEET_BIRTH_SHAPE_LINE:
    out->x = cx + (b2[2] - half) * w;
    out->y = cy + zero;
    out->z = cz + zero;
    break;
  case SLEET_BIRTH_SHAPE_RECTANGLE:
    out->x = cx + (b2[2] - half) * w;
    out->y = cy + (b2[3] - half) * sleet_splat(p->height);
    out->z = cz + zero;
    break;
  case SLEET_BIRTH_SHAPE_CUBOID:
    out->x = cx + (b2[2] - half) * w;
    out->y = cy + (b2[3] - half) * sleet_splat(p->height);
    out->z = cz + (b3[0] - half) * sleet_splat(p->depth);
    break;
  default:
    out->x = zero;
    out->y = zero;
    out->z = zero;
    break;
  }
  out->shapeWords[0] = b2[2];
  out->shapeWords[1] = b2[3];
  out->shapeWords[2] = b3[0];
  out->shapeWords[3] = b3[1];
}

// A batch's values stored lane array by lane array into `out`.
SLEET_INLINE void sleet_store_birth_lanes8(const sleet_birth_values8 *v, sleet_birth_lanes *out) {
  const sleet_float8 fields[14] = {v->lifetime, v->speed, v->scale, v->spin, v->red, v->green, v->blue,
                                   v->alpha,    v->x,     v->y,     v->z,    v->vx,  v->vy,    v->vz};
  float *to[14] = {out->lifetime, out->speed, out->scale, out->spin, out->red, out->green, out->blue,
                   out->alpha,    out->x,     out->y,     out->z,    out->vx,  out->vy,    out->vz};
#pragma clang loop unroll(full)
  for (int f = 0; f < 14; f++) sleet_store8(to[f], fields[f]);
#pragma clang loop unroll(full)
  for (int w = 0; w < 4; w++) sleet_store8(out->shapeWords[w], v->shapeWords[w]);
}

SLEET_INLINE void sleet_sample_births8_body(
    const sleet_birth_params *p, unsigned long long first, sleet_birth_lanes *out) {
  sleet_birth_values8 v;
  sleet_sample_births8_values(p, first, &v);
  sleet_store_birth_lanes8(&v, out);
}

// Samples births first…first + 7 (sleet_sample_births8_values) and, when
// every lane is a birth alive at `t` — 0 ≤ t − times[l] < lifetime, in
// `double`, ParticleStore's alive test — writes them as one fresh slab
// block at `block` (a sleet_slab_block: birth times, lifetime, constants
// row `row` in every lane, position, velocity, scale, spin, colour), and
// the block's earliest end of life, min over lanes of
// times[l] + lifetime (in lane order, as ParticleStore.appendBlock), at
// `*death`; returns 1. Otherwise writes the batch into `lanes`, for the
// caller's record-by-record path, and returns 0, writing neither the block
// nor `*death` (a lifetime ≤ 0 or NaN fails the alive test).
//
// Why: written through Swift, the batch goes from the kernel's struct into
// eight-lane fields, through the alive test, then into the block, a large
// share of a birth's time. And why `lanes` only on failure: its 576 bytes,
// stored and read back for the block, are work the common case (all alive)
// does not need.
//
// Invariants: p->shape is not SLEET_BIRTH_SHAPE_PER_LANE (the kernel's
// positions are final); `times` holds 8 doubles; `block` has
// SLEET_SLAB_BLOCK_BYTES writable bytes that no other pointer here aliases.
SLEET_INLINE int sleet_sample_block8_body(
    const sleet_birth_params *p, unsigned long long first, const double *times, double t, unsigned row,
    void *block, sleet_birth_lanes *lanes, double *death) {
  sleet_birth_values8 v;
  sleet_sample_births8_values(p, first, &v);
  sleet_double8 birth;
  __builtin_memcpy(&birth, times, sizeof birth);
  sleet_double8 now = {t, t, t, t, t, t, t, t};
  sleet_double8 age = now - birth;
  sleet_double8 life = __builtin_convertvector(v.lifetime, sleet_double8);
  sleet_long8 alive = (age >= 0) & (age < life);
  if (!__builtin_reduce_and(alive)) {
    sleet_store_birth_lanes8(&v, lanes);
    return 0;
  }
  char *b = (char *)block;
  const int slot = SLEET_SLAB_SLOT_BYTES;
  __builtin_memcpy(b + SLEET_SLAB_BIRTH_TIME, &birth, sizeof birth);
  sleet_store8(b + SLEET_SLAB_LIFETIME, v.lifetime);
  sleet_uint8 rows = {row, row, row, row, row, row, row, row};
  __builtin_memcpy(b + SLEET_SLAB_CONSTANTS_ROW, &rows, sizeof rows);
  sleet_store8(b + SLEET_SLAB_POSITION, v.x);
  sleet_store8(b + SLEET_SLAB_POSITION + slot, v.y);
  sleet_store8(b + SLEET_SLAB_POSITION + 2 * slot, v.z);
  sleet_store8(b + SLEET_SLAB_VELOCITY, v.vx);
  sleet_store8(b + SLEET_SLAB_VELOCITY + slot, v.vy);
  sleet_store8(b + SLEET_SLAB_VELOCITY + 2 * slot, v.vz);
  sleet_store8(b + SLEET_SLAB_SCALE, v.scale);
  sleet_store8(b + SLEET_SLAB_SPIN, v.spin);
  sleet_store8(b + SLEET_SLAB_COLOR, v.red);
  sleet_store8(b + SLEET_SLAB_COLOR + slot, v.green);
  sleet_store8(b + SLEET_SLAB_COLOR + 2 * slot, v.blue);
  sleet_store8(b + SLEET_SLAB_COLOR + 3 * slot, v.alpha);
  sleet_double8 end = birth + life;
  double d = end[0];
#pragma clang loop unroll(full)
  for (int l = 1; l < 8; l++) d = end[l] < d ? end[l] : d;
  *death = d;
  return 1;
}

// ---------------------------------------------------------------------------
// Eight births of one sub-cell from one parent, sampled at once: the kernel
// behind ChildBirthBatch.swift. Per lane l, exactly as the scalar
// `BirthSampler.child` does (ChildBirthBatchTests compares them bit for bit):
//
//   words      Philox4x32-10 blocks 0…2 of stream streams[l] (the birth key
//              of the child's id; block 2 only for an open cone)
//   age        a = (float)(times[l] − parent birth time)  (double subtract)
//   parent     its closed form at a (BirthRecord.position/velocity/scale/
//              color(age:)): P = (p0 + v0·a) + h·(a·a),  V = v0 + h·(a + a),
//              S = max(0, s0 + s'·a),  C = clamp(c0 + c'·a, 0, 1)
//   base       V / |V| (|V|² summed x, y, z in order), (1, 0, 0) when
//              |V| is not > 0
//   axis       Emission.axis(base:angles:): base turned by the longitude in
//              xy, times cos(latitude), + (0, 0, sin(latitude)); normalised
//              when base.z ≠ 0 and the length is > 0
//   direction  the cone (sleet_cone8) around the axis, with the axis's
//              basis (Emission.basis, per lane)
//   attribute  as the top-level kernel; scale × S, colour × C
//   position   P
//
// Lanes are independent: a caller with fewer births ignores the rest.
// Invariants: `p`, `parent`, `out` valid; `streams` and `times` hold 8
// values each.

// A sub-cell's parent: the fields of its BirthRecord the closed form reads.
typedef struct {
  double birthTime;
  float position[3], velocity[3], halfAcceleration[3];
  float scale, scaleSpeed;
  float color[4], colorSpeed[4];
} sleet_parent_record;

// Emission.basis of eight unit axes `a`: e₁ = normalise((−a.y, a.x, 0))
// unless |a.z| ≥ 0.999 (or NaN), then normalise((0, a.z, −a.y)); e₂ = a × e₁.
SLEET_INLINE void sleet_basis8(const sleet_float8 a[3], sleet_float8 e1[3], sleet_float8 e2[3]) {
  sleet_float8 zero = sleet_splat(0);
  sleet_float8 magnitude = (sleet_float8)((sleet_uint8)a[2] & 0x7FFFFFFFu);
  sleet_int8 first = (sleet_int8)(magnitude < sleet_splat(0.999f));
  sleet_float8 minusY = (sleet_float8)((sleet_uint8)a[1] ^ 0x80000000u);
  e1[0] = sleet_select(first, minusY, zero);
  e1[1] = sleet_select(first, a[0], a[2]);
  e1[2] = sleet_select(first, zero, minusY);
  sleet_float8 length = sleet_sqrt8((e1[0] * e1[0] + e1[1] * e1[1]) + e1[2] * e1[2]);
#pragma clang loop unroll(full)
  for (int c = 0; c < 3; c++) e1[c] = e1[c] / length;
  e2[0] = a[1] * e1[2] - a[2] * e1[1];
  e2[1] = a[2] * e1[0] - a[0] * e1[2];
  e2[2] = a[0] * e1[1] - a[1] * e1[0];
}

SLEET_INLINE void sleet_sample_children8_values(
    const sleet_birth_params *p, const sleet_parent_record *parent, const unsigned long long *streams,
    const double *times, sleet_birth_values8 *out) {
  sleet_float8 half = sleet_splat(0.5f), zero = sleet_splat(0), one = sleet_splat(1);
  sleet_u64x4 index0, index1;
  __builtin_memcpy(&index0, streams, sizeof index0);
  __builtin_memcpy(&index1, streams + 4, sizeof index1);
  sleet_u64x4 roundKeys[20];
  __builtin_memcpy(roundKeys, p->roundKeys, sizeof roundKeys);

  // The parent at each lane's age.
  sleet_double8 birth;
  __builtin_memcpy(&birth, times, sizeof birth);
  double pb = parent->birthTime;
  sleet_double8 parentBirth = {pb, pb, pb, pb, pb, pb, pb, pb};
  sleet_float8 a = __builtin_convertvector(birth - parentBirth, sleet_float8);
  sleet_float8 aa = a * a;
  sleet_float8 position[3], velocity[3];
#pragma clang loop unroll(full)
  for (int c = 0; c < 3; c++) {
    sleet_float8 h = sleet_splat(parent->halfAcceleration[c]);
    position[c] = (sleet_splat(parent->position[c]) + sleet_splat(parent->velocity[c]) * a) + h * aa;
    velocity[c] = sleet_splat(parent->velocity[c]) + h * (a + a);
  }
  sleet_float8 parentScale = sleet_splat(parent->scale) + sleet_splat(parent->scaleSpeed) * a;
  parentScale = sleet_select(parentScale < zero, zero, parentScale);
  sleet_float8 parentColor[4];
#pragma clang loop unroll(full)
  for (int c = 0; c < 4; c++) {
    sleet_float8 v = sleet_splat(parent->color[c]) + sleet_splat(parent->colorSpeed[c]) * a;
    v = sleet_select(v < zero, zero, v);
    parentColor[c] = sleet_select(v > one, one, v);
  }

  // The cone's axis: the parent's direction of motion, turned by the cell's
  // emission angles (Emission.axis).
  sleet_float8 speedOfParent =
      sleet_sqrt8((velocity[0] * velocity[0] + velocity[1] * velocity[1]) + velocity[2] * velocity[2]);
  sleet_int8 moving = (sleet_int8)(speedOfParent > zero);
  sleet_float8 base[3] = {
      sleet_select(moving, velocity[0] / speedOfParent, one), sleet_select(moving, velocity[1] / speedOfParent, zero),
      sleet_select(moving, velocity[2] / speedOfParent, zero)};
  sleet_float8 cosLongitude = sleet_splat(p->cosLongitude), sinLongitude = sleet_splat(p->sinLongitude);
  sleet_float8 cosLatitude = sleet_splat(p->cosLatitude);
  sleet_float8 axis[3] = {
      (base[0] * cosLongitude - base[1] * sinLongitude) * cosLatitude + zero,
      (base[0] * sinLongitude + base[1] * cosLongitude) * cosLatitude + zero,
      base[2] * cosLatitude + sleet_splat(p->sinLatitude)};
  sleet_float8 length = sleet_sqrt8((axis[0] * axis[0] + axis[1] * axis[1]) + axis[2] * axis[2]);
  sleet_int8 normalises = (sleet_int8)(base[2] != zero) & (sleet_int8)(length > zero);
#pragma clang loop unroll(full)
  for (int c = 0; c < 3; c++) axis[c] = sleet_select(normalises, axis[c] / length, axis[c]);

  sleet_float8 u[4];
  sleet_stream_uniforms8(0, index0, index1, roundKeys, u);
  out->lifetime = (sleet_splat(p->lifetime) + (u[0] - half) * sleet_splat(p->lifetimeRange)) *
                  sleet_splat(p->lifetimeMultiplier);
  sleet_float8 speed = (sleet_splat(p->velocity) + (u[1] - half) * sleet_splat(p->velocityRange)) *
                       sleet_splat(p->velocityMultiplier);
  out->speed = speed;
  out->scale = ((sleet_splat(p->scale) + (u[2] - half) * sleet_splat(p->scaleRange)) * sleet_splat(p->scaleMultiplier)) *
               parentScale;
  out->spin = (sleet_splat(p->spin) + (u[3] - half) * sleet_splat(p->spinRange)) * sleet_splat(p->spinMultiplier);
  sleet_stream_uniforms8(1, index0, index1, roundKeys, u);
  out->red = (sleet_splat(p->color[0]) + (u[0] - half) * sleet_splat(p->colorRange[0])) * parentColor[0];
  out->green = (sleet_splat(p->color[1]) + (u[1] - half) * sleet_splat(p->colorRange[1])) * parentColor[1];
  out->blue = (sleet_splat(p->color[2]) + (u[2] - half) * sleet_splat(p->colorRange[2])) * parentColor[2];
  out->alpha = (sleet_splat(p->color[3]) + (u[3] - half) * sleet_splat(p->colorRange[3])) * parentColor[3];

  sleet_float8 d[3];
  if (p->coneRange > 0) {
    sleet_float8 e1[3], e2[3];
    sleet_basis8(axis, e1, e2);
    sleet_stream_uniforms8(2, index0, index1, roundKeys, u);
    sleet_cone8(p, axis, e1, e2, u[0], u[1], d);
  } else {
#pragma clang loop unroll(full)
    for (int c = 0; c < 3; c++) d[c] = axis[c];
  }
  out->vx = d[0] * speed;
  out->vy = d[1] * speed;
  out->vz = d[2] * speed;
  out->x = position[0];
  out->y = position[1];
  out->z = position[2];
#pragma clang loop unroll(full)
  for (int w = 0; w < 4; w++) out->shapeWords[w] = zero;
}

SLEET_INLINE void sleet_sample_children8_body(
    const sleet_birth_params *p, const sleet_parent_record *parent, const unsigned long long *streams,
    const double *times, sleet_birth_lanes *out) {
  sleet_birth_values8 v;
  sleet_sample_children8_values(p, parent, streams, times, &v);
  sleet_store_birth_lanes8(&v, out);
}

// The kernel for the build's target, and its AVX2 copy for the portable
// x86-64 build, run where the CPU has AVX2 (as the block loop's copies in
// sleet_kernels.h; the same code in other builds). Same bits either way
// (BirthBatchTests compares both with the scalar sampler).
static inline void sleet_sample_births8(const sleet_birth_params *p, unsigned long long first, sleet_birth_lanes *out) {
  sleet_sample_births8_body(p, first, out);
}

SLEET_AVX2_COPY static inline void sleet_sample_births8_avx2(
    const sleet_birth_params *p, unsigned long long first, sleet_birth_lanes *out) {
  sleet_sample_births8_body(p, first, out);
}

// The same two copies of sleet_sample_block8_body.
static inline int sleet_sample_block8(
    const sleet_birth_params *p, unsigned long long first, const double *times, double t, unsigned row,
    void *block, sleet_birth_lanes *lanes, double *death) {
  return sleet_sample_block8_body(p, first, times, t, row, block, lanes, death);
}

SLEET_AVX2_COPY static inline int sleet_sample_block8_avx2(
    const sleet_birth_params *p, unsigned long long first, const double *times, double t, unsigned row,
    void *block, sleet_birth_lanes *lanes, double *death) {
  return sleet_sample_block8_body(p, first, times, t, row, block, lanes, death);
}

// The same two copies of sleet_sample_children8_body.
static inline void sleet_sample_children8(
    const sleet_birth_params *p, const sleet_parent_record *parent, const unsigned long long *streams,
    const double *times, sleet_birth_lanes *out) {
  sleet_sample_children8_body(p, parent, streams, times, out);
}

SLEET_AVX2_COPY static inline void sleet_sample_children8_avx2(
    const sleet_birth_params *p, const sleet_parent_record *parent, const unsigned long long *streams,
    const double *times, sleet_birth_lanes *out) {
  sleet_sample_children8_body(p, parent, streams, times, out);
}

#endif
