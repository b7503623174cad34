// The particle frame's kernels (SleetParticles' ParticleStore+Evaluate.swift
// calls them, in every build): the closed form on eight lanes of a block
// (structure of arrays) and its output as eight rows of the output structs
// (array of structures), through explicit transposes
// (sleet_evaluate_uniform_block8 for lanes that share one constants row,
// sleet_evaluate_gathered_block8 for lanes of several); the block loop over
// runs of blocks, with the alive test and the copy of partly alive
// blocks' live lanes (sleet_evaluate_blocks8, and sleet_evaluate_mixed_blocks8
// for runs of blocks of several rows), with copies of the one-row loop for
// the common targets (sleet_evaluate_blocks8_shaped) and rows 16 bytes past
// a 32-byte boundary written with aligned stores (sleet_store_rows8_offset16);
// and the rotations' sines and cosines for the affines (sleet_sincos16, two
// blocks at a time, and sleet_sincos8: FastTrig's twin). The block loops
// are compiled twice in the portable x86-64 build: for its SSE2 baseline and
// with AVX2, which the caller runs where the CPU has it (see the end).
//
// Why C: to be one straight-line eight-lane kernel. Swift passes `SIMD8`
// values between functions as two 16-byte halves and builds
// `init(lowHalf:highHalf:)`, `evenHalf` and the `Double`-to-`Float`
// conversion lane by lane, so LLVM splits a Swift kernel's vectors into
// pieces, scalarises products and re-matches the transposes as `vinsertps`
// chains (docs/performance-design.md). Here
// each transpose step is one `__builtin_shufflevector` with a constant mask,
// lowered to `vunpcklps`/`vshufps`/`vperm2f128` (AVX) or SSE2 pairs, and the
// arithmetic is Clang's generic vectors, not intrinsics, so the header
// compiles for any target: Swift imports `sleet_float8` as `SIMD8<Float>` and
// inlines these functions. The arithmetic's bits are ClosedForm's (see the
// kernel's comment below).
//
// Nothing is linked: a header-only module, like CSIMDBuildTarget.
//
// The memory layouts the kernels read and write (the slab block, the
// constants row) are defined once, in sleet_layout.h; the kernels use its
// offsets, never numbers of their own.
//
// Editing this header (or sleet_layout.h): SwiftPM does not rebuild the
// Swift modules that import a C header when only the header changed (nor
// for a regular C target's headers). Touch every Swift file that imports
// CSleetKernels (`grep -rl "import CSleetKernels" Sources Tests`), or remove
// `.build`, after each edit, or the tests run the old kernel. CI builds from
// a clean clone.
#ifndef SLEET_KERNELS_H
#define SLEET_KERNELS_H

#include "sleet_layout.h"

// Every helper is always inlined: the block loop is compiled twice in x86-64
// builds without AVX2 (see "Two compilations of the block loop" below), and a
// helper left out of line would be compiled for the baseline and called from
// the AVX2 copy, passing 32-byte vectors through memory.
#define SLEET_INLINE static inline __attribute__((always_inline))

typedef float sleet_float8 __attribute__((vector_size(32)));
typedef float sleet_float4 __attribute__((vector_size(16)));
typedef float sleet_float2 __attribute__((vector_size(8)));
typedef unsigned int sleet_uint8 __attribute__((vector_size(32)));
// Sixteen lanes of float (not half precision): sleet_sincos16.
typedef float sleet_float16 __attribute__((vector_size(64)));
typedef unsigned int sleet_uint16 __attribute__((vector_size(64)));
typedef int sleet_int16 __attribute__((vector_size(64)));
typedef int sleet_int8 __attribute__((vector_size(32)));
typedef double sleet_double8 __attribute__((vector_size(64)));
typedef long long sleet_long8 __attribute__((vector_size(64)));
typedef _Bool sleet_bool8 __attribute__((ext_vector_type(8)));

// a0 b0 a1 b1 | a4 b4 a5 b5 (vunpcklps)
SLEET_INLINE sleet_float8 sleet_unpack_low(sleet_float8 a, sleet_float8 b) {
  return __builtin_shufflevector(a, b, 0, 8, 1, 9, 4, 12, 5, 13);
}
// a2 b2 a3 b3 | a6 b6 a7 b7 (vunpckhps)
SLEET_INLINE sleet_float8 sleet_unpack_high(sleet_float8 a, sleet_float8 b) {
  return __builtin_shufflevector(a, b, 2, 10, 3, 11, 6, 14, 7, 15);
}
// a0 a1 b0 b1 | a4 a5 b4 b5 (vshufps 0x44)
SLEET_INLINE sleet_float8 sleet_pairs_low(sleet_float8 a, sleet_float8 b) {
  return __builtin_shufflevector(a, b, 0, 1, 8, 9, 4, 5, 12, 13);
}
// a2 a3 b2 b3 | a6 a7 b6 b7 (vshufps 0xEE)
SLEET_INLINE sleet_float8 sleet_pairs_high(sleet_float8 a, sleet_float8 b) {
  return __builtin_shufflevector(a, b, 2, 3, 10, 11, 6, 7, 14, 15);
}
// a's low 128 bits, then b's low 128 bits (vperm2f128 0x20)
SLEET_INLINE sleet_float8 sleet_halves_low(sleet_float8 a, sleet_float8 b) {
  return __builtin_shufflevector(a, b, 0, 1, 2, 3, 8, 9, 10, 11);
}
// a's high 128 bits, then b's high 128 bits (vperm2f128 0x31)
SLEET_INLINE sleet_float8 sleet_halves_high(sleet_float8 a, sleet_float8 b) {
  return __builtin_shufflevector(a, b, 4, 5, 6, 7, 12, 13, 14, 15);
}

SLEET_INLINE void sleet_store8(void *to, sleet_float8 v) { __builtin_memcpy(to, &v, sizeof v); }

// The 8×8 transpose of c[0…7] up to its last stage, in quarters of rows:
// u[k] = (c[0…3] of lane k | of lane k + 4), v[k] = (c[4…7] of lane k |
// of lane k + 4). 16 shuffles, none across the 128-bit halves.
SLEET_INLINE void sleet_transpose8x8_quarters(const sleet_float8 c[8], sleet_float8 u[4], sleet_float8 v[4]) {
  sleet_float8 t0 = sleet_unpack_low(c[0], c[1]), t1 = sleet_unpack_high(c[0], c[1]);
  sleet_float8 t2 = sleet_unpack_low(c[2], c[3]), t3 = sleet_unpack_high(c[2], c[3]);
  sleet_float8 t4 = sleet_unpack_low(c[4], c[5]), t5 = sleet_unpack_high(c[4], c[5]);
  sleet_float8 t6 = sleet_unpack_low(c[6], c[7]), t7 = sleet_unpack_high(c[6], c[7]);
  u[0] = sleet_pairs_low(t0, t2), u[1] = sleet_pairs_high(t0, t2);
  u[2] = sleet_pairs_low(t1, t3), u[3] = sleet_pairs_high(t1, t3);
  v[0] = sleet_pairs_low(t4, t6), v[1] = sleet_pairs_high(t4, t6);
  v[2] = sleet_pairs_low(t5, t7), v[3] = sleet_pairs_high(t5, t7);
}

// The 8×8 transpose of c[0…7] into r[0…7]: r[l] = (c[0][l], …, c[7][l]).
// 24 shuffles.
SLEET_INLINE void sleet_transpose8x8(const sleet_float8 c[8], sleet_float8 r[8]) {
  sleet_float8 u[4], v[4];
  sleet_transpose8x8_quarters(c, u, v);
#pragma clang loop unroll(full)
  for (int k = 0; k < 4; k++) {
    r[k] = sleet_halves_low(u[k], v[k]);
    r[k + 4] = sleet_halves_high(u[k], v[k]);
  }
}

// Rows at 16 bytes past a 32-byte boundary.
//
// A Swift array's elements start 32 bytes into its heap object, and glibc's
// malloc returns large blocks (mmap'ed, over 128 KiB: an instance array of
// about 2000 rows and up) 16 bytes past a page boundary, so a frame's
// instance rows start at 48 (mod 64): every 32-byte store of a row then
// crosses a cache line, which makes a block's stores slower than at 0
// (mod 64). Rows that start 16 (mod 32) are therefore written as a 16-byte
// head, 32-byte stores
// that each straddle two rows but never a cache line, and a 16-byte tail:
// the same bytes. With the quarters of the rows in the transposes' (lane k |
// lane k + 4) form, a straddling store joins the last quarter of row l with
// the first of row l + 1: one lane-crossing shuffle or a blend, as many as
// the rows' own last stage would take.

// 16 bytes: the low (`high` 0) or high half of v at `to`.
SLEET_INLINE void sleet_store_half(char *to, sleet_float8 v, int high) {
  sleet_float4 h = high ? __builtin_shufflevector(v, v, 4, 5, 6, 7) : __builtin_shufflevector(v, v, 0, 1, 2, 3);
  __builtin_memcpy(to, &h, sizeof h);
}

// (quarter of row i from a, quarter of row j from b), for quarters in the
// (lane k | lane k + 4) form: row i is half i / 4 of a. Callers pass
// constants, so each call is one shuffle: a blend when the halves stay in
// place, else `vinsertf128`/`vperm2f128`.
SLEET_INLINE sleet_float8 sleet_join_rows(sleet_float8 a, int i, sleet_float8 b, int j) {
  if (i < 4 && j < 4) return __builtin_shufflevector(a, b, 0, 1, 2, 3, 8, 9, 10, 11);
  if (i < 4) return __builtin_shufflevector(a, b, 0, 1, 2, 3, 12, 13, 14, 15);
  if (j < 4) return __builtin_shufflevector(a, b, 4, 5, 6, 7, 8, 9, 10, 11);
  return __builtin_shufflevector(a, b, 4, 5, 6, 7, 12, 13, 14, 15);
}

// Eight consecutive rows of `quarters` 16-byte quarters at `out`, 16 bytes
// past a 32-byte boundary; q[f][k] holds quarter f of rows k and k + 4.
// 2 stores of 16 bytes and 2·quarters − 1 aligned stores of 32 bytes.
// Invariant: 8·16·quarters writable bytes at `out`, and out ≡ 16 (mod 32).
SLEET_INLINE void sleet_store_rows8_offset16(char *out, int quarters, const sleet_float8 q[][4]) {
  sleet_store_half(out, q[0][0], 0);
#pragma clang loop unroll(full)
  for (int l = 0; l < 8; l++) {
#pragma clang loop unroll(full)
    for (int f = 1; f + 1 < quarters; f += 2) {
      sleet_store8(out + 16 * (quarters * l + f), sleet_join_rows(q[f][l & 3], l, q[f + 1][l & 3], l));
    }
    if (l < 7) {
      sleet_store8(
          out + 16 * (quarters * l + quarters - 1),
          sleet_join_rows(q[quarters - 1][l & 3], l, q[0][(l + 1) & 3], l + 1));
    }
  }
  sleet_store_half(out + 16 * (8 * quarters - 1), q[quarters - 1][3], 1);
}

// Whether consecutive rows at `out` take sleet_store_rows8_offset16.
SLEET_INLINE int sleet_rows_offset16(const void *out, char *const *rowsAt) {
  return !rowsAt && ((unsigned long)out & 31) == 16;
}

// Byte `offset` of output row l of a block: row l is at `out + l·stride`
// when `rowsAt` is null (consecutive rows; callers pass a constant null, so
// the sum folds into the stores' addresses), else at `rowsAt[l]` (each
// lane's own row: see sleet_lane_rows).
SLEET_INLINE char *sleet_row_at(void *out, long stride, char *const *rowsAt, long offset, int l) {
  return (rowsAt ? rowsAt[l] : (char *)out + l * stride) + offset;
}

// Writes the 8×8 transpose of columns c0…c7: row l = (c0[l], …, c7[l]) at
// sleet_row_at(out, stride, rowsAt, 0, l). 24 shuffles and 8 stores of 32
// bytes. Invariant: the eight 32-byte rows are writable; no alignment needed
// (unaligned stores).
SLEET_INLINE void sleet_store_transposed8x8(
    void *out, long stride, char *const *rowsAt, sleet_float8 c0, sleet_float8 c1, sleet_float8 c2, sleet_float8 c3,
    sleet_float8 c4, sleet_float8 c5, sleet_float8 c6, sleet_float8 c7) {
  const sleet_float8 c[8] = {c0, c1, c2, c3, c4, c5, c6, c7};
  sleet_float8 r[8];
  sleet_transpose8x8(c, r);
#pragma clang loop unroll(full)
  for (int l = 0; l < 8; l++) sleet_store8(sleet_row_at(out, stride, rowsAt, 0, l), r[l]);
}

// Eight 64-byte ParticleInstance rows at `out` (fields in declaration order):
// (x, y, z, scale, r, g, b, a) | (rect x, y, w, h, rotation, normalizedAge,
// sprite, cell). `rect` holds the shared contentsRect in both halves;
// `spriteCell` holds (sprite, cell) in every pair of lanes (bit patterns,
// copied, never computed on). 38 shuffles and 16 stores of 32 bytes.
// Rows as in sleet_store_transposed8x8 (stride 64); consecutive rows 16
// bytes past a 32-byte boundary through sleet_store_rows8_offset16 (the
// same count of shuffles).
// Invariant: 512 writable bytes at `out`, or 64 at each `rowsAt[l]`; no
// alignment needed.
SLEET_INLINE void sleet_store_instances8(
    void *out, char *const *rowsAt, sleet_float8 x, sleet_float8 y, sleet_float8 z, sleet_float8 scale,
    sleet_float8 r, sleet_float8 g, sleet_float8 b, sleet_float8 a, sleet_float8 rect, sleet_float8 rotation,
    sleet_float8 normalizedAge, sleet_float8 spriteCell) {
  sleet_float8 rn0 = sleet_unpack_low(rotation, normalizedAge);   // lanes 0, 1 | 4, 5
  sleet_float8 rn1 = sleet_unpack_high(rotation, normalizedAge);  // lanes 2, 3 | 6, 7
  sleet_float8 w0 = sleet_pairs_low(rn0, spriteCell), w1 = sleet_pairs_high(rn0, spriteCell);
  sleet_float8 w2 = sleet_pairs_low(rn1, spriteCell), w3 = sleet_pairs_high(rn1, spriteCell);
  if (sleet_rows_offset16(out, rowsAt)) {
    const sleet_float8 c[8] = {x, y, z, scale, r, g, b, a};
    sleet_float8 q[4][4];
    sleet_transpose8x8_quarters(c, q[0], q[1]);
#pragma clang loop unroll(full)
    for (int k = 0; k < 4; k++) q[2][k] = rect;
    q[3][0] = w0, q[3][1] = w1, q[3][2] = w2, q[3][3] = w3;
    sleet_store_rows8_offset16((char *)out, 4, (const sleet_float8(*)[4])q);
    return;
  }
  sleet_store_transposed8x8(out, 64, rowsAt, x, y, z, scale, r, g, b, a);
  sleet_store8(sleet_row_at(out, 64, rowsAt, 32, 0), sleet_halves_low(rect, w0));
  sleet_store8(sleet_row_at(out, 64, rowsAt, 32, 1), sleet_halves_low(rect, w1));
  sleet_store8(sleet_row_at(out, 64, rowsAt, 32, 2), sleet_halves_low(rect, w2));
  sleet_store8(sleet_row_at(out, 64, rowsAt, 32, 3), sleet_halves_low(rect, w3));
  sleet_store8(sleet_row_at(out, 64, rowsAt, 32, 4), sleet_halves_high(rect, w0));
  sleet_store8(sleet_row_at(out, 64, rowsAt, 32, 5), sleet_halves_high(rect, w1));
  sleet_store8(sleet_row_at(out, 64, rowsAt, 32, 6), sleet_halves_high(rect, w2));
  sleet_store8(sleet_row_at(out, 64, rowsAt, 32, 7), sleet_halves_high(rect, w3));
}

// Eight 32-byte CompactParticleInstance rows at `out`: (x, y, z, scale,
// rotation, normalizedAge, colour word, sprite·cell word), the last two as
// bit patterns. Rows as in sleet_store_transposed8x8 (stride 32), or
// through sleet_store_rows8_offset16 as the instances.
// Invariant: 256 writable bytes at `out`, or 32 at each `rowsAt[l]`.
SLEET_INLINE void sleet_store_compact8(
    void *out, char *const *rowsAt, sleet_float8 x, sleet_float8 y, sleet_float8 z, sleet_float8 scale,
    sleet_float8 rotation, sleet_float8 normalizedAge, sleet_float8 color, sleet_float8 spriteCell) {
  if (sleet_rows_offset16(out, rowsAt)) {
    const sleet_float8 c[8] = {x, y, z, scale, rotation, normalizedAge, color, spriteCell};
    sleet_float8 q[2][4];
    sleet_transpose8x8_quarters(c, q[0], q[1]);
    sleet_store_rows8_offset16((char *)out, 2, (const sleet_float8(*)[4])q);
    return;
  }
  sleet_store_transposed8x8(out, 32, rowsAt, x, y, z, scale, rotation, normalizedAge, color, spriteCell);
}

// Eight consecutive 24-byte AffineTransform2D rows at `out`: (a, b, c, d,
// tx, ty) = (sc, ss, −ss, sc, x, y), −ss by flipping the sign bit as scalar
// negation does (0 − ss would turn −0 into +0). 20 shuffles and 6 stores of
// 32 bytes. Invariant: 192 writable bytes at `out`; no alignment needed.
SLEET_INLINE void sleet_store_affines8(
    void *out, sleet_float8 sc, sleet_float8 ss, sleet_float8 x, sleet_float8 y) {
  char *o = (char *)out;
  sleet_float8 nss = (sleet_float8)((sleet_uint8)ss ^ 0x80000000u);
  sleet_float8 p0 = sleet_unpack_low(sc, ss), p1 = sleet_unpack_high(sc, ss);
  sleet_float8 q0 = sleet_unpack_low(nss, sc), q1 = sleet_unpack_high(nss, sc);
  // m_k: (a, b, c, d) of lanes k and k + 4.
  sleet_float8 m0 = sleet_pairs_low(p0, q0), m1 = sleet_pairs_high(p0, q0);
  sleet_float8 m2 = sleet_pairs_low(p1, q1), m3 = sleet_pairs_high(p1, q1);
  // e0: (tx, ty) of lanes 0, 1 | 4, 5; e1: of lanes 2, 3 | 6, 7.
  sleet_float8 e0 = sleet_unpack_low(x, y), e1 = sleet_unpack_high(x, y);
  // Lanes 0–3 fill 96 bytes: abcd₀ | t₀ ab₁, cd₁ t₁ | abcd₂, t₂ ab₃ | cd₃ t₃;
  // lanes 4–7 the next 96 the same way.
  sleet_float8 f = sleet_pairs_low(e0, m1);   // t₀ ab₁ | t₄ ab₅
  sleet_float8 g = sleet_pairs_high(m1, e0);  // cd₁ t₁ | cd₅ t₅
  sleet_float8 h0 = sleet_pairs_low(e1, m3);  // t₂ ab₃ | t₆ ab₇
  sleet_float8 h1 = sleet_pairs_high(m3, e1); // cd₃ t₃ | cd₇ t₇
  sleet_store8(o + 0, sleet_halves_low(m0, f));
  sleet_store8(o + 32, sleet_halves_low(g, m2));
  sleet_store8(o + 64, sleet_halves_low(h0, h1));
  sleet_store8(o + 96, sleet_halves_high(m0, f));
  sleet_store8(o + 128, sleet_halves_high(g, m2));
  sleet_store8(o + 160, sleet_halves_high(h0, h1));
}

// The affines of sleet_store_affines8, lane l's 24 bytes at `rowsAt[l]`:
// a 16-byte store of (a, b, c, d) and an 8-byte store of (tx, ty) each, the
// same values. 12 shuffles and 16 stores. Invariant: 24 writable bytes at
// each `rowsAt[l]`; no alignment needed.
SLEET_INLINE void sleet_store_affines8_lanes(
    char *const *rowsAt, sleet_float8 sc, sleet_float8 ss, sleet_float8 x, sleet_float8 y) {
  sleet_float8 nss = (sleet_float8)((sleet_uint8)ss ^ 0x80000000u);
  sleet_float8 p0 = sleet_unpack_low(sc, ss), p1 = sleet_unpack_high(sc, ss);
  sleet_float8 q0 = sleet_unpack_low(nss, sc), q1 = sleet_unpack_high(nss, sc);
  // m[k]: (a, b, c, d) of lanes k and k + 4; e[k / 2]: (tx, ty) of lanes
  // 0, 1 | 4, 5 and 2, 3 | 6, 7.
  const sleet_float8 m[4] = {
      sleet_pairs_low(p0, q0), sleet_pairs_high(p0, q0), sleet_pairs_low(p1, q1), sleet_pairs_high(p1, q1)};
  const sleet_float8 e[2] = {sleet_unpack_low(x, y), sleet_unpack_high(x, y)};
#pragma clang loop unroll(full)
  for (int k = 0; k < 4; k++) {
    sleet_float4 abcdLow = __builtin_shufflevector(m[k], m[k], 0, 1, 2, 3);
    sleet_float4 abcdHigh = __builtin_shufflevector(m[k], m[k], 4, 5, 6, 7);
    sleet_float8 t = e[k / 2];
    sleet_float2 txtyLow = k % 2 ? __builtin_shufflevector(t, t, 2, 3) : __builtin_shufflevector(t, t, 0, 1);
    sleet_float2 txtyHigh = k % 2 ? __builtin_shufflevector(t, t, 6, 7) : __builtin_shufflevector(t, t, 4, 5);
    __builtin_memcpy(rowsAt[k], &abcdLow, 16);
    __builtin_memcpy(rowsAt[k] + 16, &txtyLow, 8);
    __builtin_memcpy(rowsAt[k + 4], &abcdHigh, 16);
    __builtin_memcpy(rowsAt[k + 4] + 16, &txtyHigh, 8);
  }
}

// ---------------------------------------------------------------------------
// The closed form on eight lanes that share one constants row.
//
// Every value below is ClosedForm (SleetParticles, ClosedForm.swift) with the
// same IEEE operations in the same order, lane by lane, so the same bits as
// the Swift paths and the naive twin (UniformBlockKernelTests and the render
// path agreement tests compare them bit for bit):
//
//   a             = (float)(t − birth)                  (double subtract, one rounding)
//   position      = (p0 + v0·a) + h·(a·a)
//   scale         = s < 0 ? 0 : s,  s = s0 + scaleSpeed·a
//   rotation      = spin·a
//   colour        = c < 0 ? 0 : (c > 1 ? 1 : c),  c = c0 + colourSpeed·a
//   normalisedAge = n > 1 − 2⁻²⁴ ? 1 − 2⁻²⁴ : n,  n = a·(1 / lifetime)
//
// No fused multiply-add: contraction is switched off for this header (Clang
// contracts `a + b·c` by default in C; Swift never does), and nothing here
// reassociates. `-Xcc -ffp-contract=fast` or `-Xcc -ffast-math` on the build
// command overrides the pragma (Clang then fuses 15 products in this kernel):
// do not build SleetKit with them. The clamps are compares and bitwise selects, so −0 and NaN
// pass through as in `x < 0 ? 0 : x`.
#pragma clang fp contract(off)

SLEET_INLINE sleet_float8 sleet_select(sleet_int8 mask, sleet_float8 ifTrue, sleet_float8 ifFalse) {
  return (sleet_float8)(((sleet_int8)ifTrue & mask) | ((sleet_int8)ifFalse & ~mask));
}

SLEET_INLINE sleet_float8 sleet_splat(float v) { return (sleet_float8){v, v, v, v, v, v, v, v}; }

SLEET_INLINE sleet_float16 sleet_splat16(float v) {
  return (sleet_float16){v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v};
}

SLEET_INLINE sleet_float8 sleet_load8(const char *p) {
  sleet_float8 v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

// Where one block's lanes go. `compact` non-null: 32-byte compact rows there
// instead of `instances`; `affines` null: none; `depths` null: no tracked z.
typedef struct {
  void *instances;
  void *compact;
  void *affines;
  float *depths;
  int flattensDepth;
} sleet_block_target;

// Where each lane of a block goes when the lanes do not go to consecutive
// rows: lane l's instance row (or compact row, by the target) at
// `instance[l]`, its affine at `affine[l]`, its tracked z at `depth[l]`
// (the entries for outputs the target does not write are not read). The
// block kernels take it in place of the target's pointers.
typedef struct {
  char *instance[8];
  char *affine[8];
  float *depth[8];
} sleet_lane_rows;

// Lane f (a SLEET_ROW_* lane of sleet_constants_row) of the lanes' constants rows:
// the shared `row`'s, broadcast where it is used, when `uniform`; else
// `k[f]`, one row per lane.
SLEET_INLINE sleet_float8 sleet_row_field(int uniform, const float *row, const sleet_float8 *k, int f) {
  return uniform ? sleet_splat(row[f]) : k[f];
}

// The kernel's body for block `block` (a sleet_slab_block) at emitter time
// `t`. `uniform`: every lane uses the constants row `row` (a
// sleet_constants_row); otherwise `k[f]` holds lane f of each lane's row.
// Callers pass `uniform` as a constant, so each call site compiles one
// branch. The uniform row's fields are broadcast where they are used, not
// into `k` first, which takes fewer cycles in the one-block kernel (llvm-mca
// -mcpu=znver3). `sinCos` as below.
// `lanes` null: the eight rows go to consecutive rows of the target (callers
// pass a constant null, and the addresses fold as before); otherwise each
// lane's rows go where `lanes` says (the target's pointers then only say
// which outputs are written).
SLEET_INLINE void sleet_evaluate_block8_rows(
    const void *block, double t, int uniform, const float *row, const sleet_float8 *k, const void *sinCos,
    sleet_block_target target, const sleet_lane_rows *lanes) {
  const char *p = (const char *)block;
  sleet_double8 birth;
  __builtin_memcpy(&birth, p + SLEET_SLAB_BIRTH_TIME, sizeof birth);
  sleet_double8 now = {t, t, t, t, t, t, t, t};
  sleet_float8 a = __builtin_convertvector(now - birth, sleet_float8);
  sleet_float8 aa = a * a;
  sleet_float8 zero = sleet_splat(0), one = sleet_splat(1);

  // Component c of a vector field: its field offset + c slots.
  const int slot = SLEET_SLAB_SLOT_BYTES, h = SLEET_ROW_HALF_ACCELERATION;
  sleet_float8 x = sleet_load8(p + SLEET_SLAB_POSITION) + sleet_load8(p + SLEET_SLAB_VELOCITY) * a +
                   sleet_row_field(uniform, row, k, h) * aa;
  sleet_float8 y = sleet_load8(p + SLEET_SLAB_POSITION + slot) + sleet_load8(p + SLEET_SLAB_VELOCITY + slot) * a +
                   sleet_row_field(uniform, row, k, h + 1) * aa;
  sleet_float8 z = sleet_load8(p + SLEET_SLAB_POSITION + 2 * slot) +
                   sleet_load8(p + SLEET_SLAB_VELOCITY + 2 * slot) * a + sleet_row_field(uniform, row, k, h + 2) * aa;
  sleet_float8 s = sleet_load8(p + SLEET_SLAB_SCALE) + sleet_row_field(uniform, row, k, SLEET_ROW_SCALE_SPEED) * a;
  s = sleet_select(s < zero, zero, s);
  sleet_float8 rotation = sleet_load8(p + SLEET_SLAB_SPIN) * a;
  sleet_float8 n = a * (one / sleet_load8(p + SLEET_SLAB_LIFETIME));
  sleet_float8 belowOne = sleet_splat(0x1.fffffep-1f);
  n = sleet_select(n > belowOne, belowOne, n);
  sleet_float8 c[4];
  // Unrolled on purpose: inside the block loop the inliner's budget would
  // leave it a loop through a stack array.
#pragma clang loop unroll(full)
  for (int f = 0; f < 4; f++) {
    sleet_float8 v =
        sleet_load8(p + SLEET_SLAB_COLOR + f * slot) + sleet_row_field(uniform, row, k, SLEET_ROW_COLOR_SPEED + f) * a;
    v = sleet_select(v < zero, zero, v);
    c[f] = sleet_select(v > one, one, v);
  }
  if (target.depths && lanes) {
#pragma clang loop unroll(full)
    for (int l = 0; l < 8; l++) *lanes->depth[l] = z[l];
  } else if (target.depths) {
    __builtin_memcpy(target.depths, &z, sizeof z);
  }
  sleet_float8 drawnZ = target.flattensDepth ? zero : z;
  if (target.affines) {
    sleet_float8 sine = sleet_load8((const char *)sinCos), cosine = sleet_load8((const char *)sinCos + 32);
    if (lanes)
      sleet_store_affines8_lanes(lanes->affine, s * cosine, s * sine, x, y);
    else
      sleet_store_affines8(target.affines, s * cosine, s * sine, x, y);
  }
  if (target.compact) {
    // R8G8B8A8_UNORM: 255·c rounded to nearest by adding 1.5·2²³ (exact for
    // 0 ≤ 255·c ≤ 255), the integer then in the low mantissa bits.
    sleet_float8 magic = sleet_splat(12582912.0f), scale = sleet_splat(255);
    sleet_uint8 mask = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    sleet_uint8 word = ((sleet_uint8)(c[0] * scale + magic) & mask) | (((sleet_uint8)(c[1] * scale + magic) & mask) << 8) |
                       (((sleet_uint8)(c[2] * scale + magic) & mask) << 16) |
                       (((sleet_uint8)(c[3] * scale + magic) & mask) << 24);
    sleet_store_compact8(
        target.compact, lanes ? lanes->instance : 0, x, y, drawnZ, s, rotation, n, (sleet_float8)word,
        sleet_row_field(uniform, row, k, SLEET_ROW_COMPACT_SPRITE_CELL));
    return;
  }
  const int r = SLEET_ROW_CONTENTS_RECT, sprite = SLEET_ROW_SPRITE, cell = SLEET_ROW_CELL;
  if (uniform) {
    sleet_float8 rect = {row[r], row[r + 1], row[r + 2], row[r + 3], row[r], row[r + 1], row[r + 2], row[r + 3]};
    sleet_float8 spriteCell = {row[sprite], row[cell], row[sprite], row[cell],
                               row[sprite], row[cell], row[sprite], row[cell]};
    sleet_store_instances8(
        target.instances, lanes ? lanes->instance : 0, x, y, drawnZ, s, c[0], c[1], c[2], c[3], rect, rotation, n,
        spriteCell);
    return;
  }
  char *o = (char *)target.instances;
  char *const *rowsAt = lanes ? lanes->instance : 0;
  sleet_store_transposed8x8(o, 64, rowsAt, x, y, drawnZ, s, c[0], c[1], c[2], c[3]);
  if (lanes) {
    char *secondHalves[8];
#pragma clang loop unroll(full)
    for (int l = 0; l < 8; l++) secondHalves[l] = lanes->instance[l] + 32;
    sleet_store_transposed8x8(
        o, 64, secondHalves, k[r], k[r + 1], k[r + 2], k[r + 3], rotation, n, k[sprite], k[cell]);
  } else {
    sleet_store_transposed8x8(o + 32, 64, 0, k[r], k[r + 1], k[r + 2], k[r + 3], rotation, n, k[sprite], k[cell]);
  }
}

// Evaluates block `block` at emitter time `t`, with the shared constants row
// `row` (a sleet_constants_row) and the lanes' rotation
// sines and cosines `sinCos` (16 floats, sines first; read only when affines
// are written), and writes output rows 0…7 at the target's pointers.
//
// Invariants: `block` and `row` are readable (no alignment assumed: the
// loads are unaligned); each target pointer is null or has 8 writable rows;
// every lane is written, dead ones included (the caller copies out the drawn
// ones when not all are).
SLEET_INLINE void sleet_evaluate_uniform_block8(
    const void *block, double t, const float *row, const void *sinCos, sleet_block_target target) {
  sleet_evaluate_block8_rows(block, t, 1, row, 0, sinCos, target, 0);
}

// sleet_evaluate_uniform_block8 for a block whose lanes may use different
// constants rows: lane l reads row `index[l]` of `rows`, where `index` is
// the block's constantsRow field. Each lane's values are the same IEEE operations on its
// own row as in the uniform kernel, so the same bits as evaluating that lane
// alone (BlockRunKernelTests compares it with the one-block kernel lane by
// lane, and with the Swift lane path on presets). Lanes of two rows take
// each field as a select between the two rows' values; lanes of more rows
// have the eight rows loaded and transposed (two 8×8 transposes, 48
// shuffles). Either way the instance's constant half takes a full transpose.
//
// `lanes` as in sleet_evaluate_block8_rows (null: consecutive rows).
// Invariants: as sleet_evaluate_uniform_block8; every lane's row index is a
// row of `rows`.
SLEET_INLINE void sleet_evaluate_gathered_block8(
    const void *block, double t, const float *rows, const void *sinCos, sleet_block_target target,
    const sleet_lane_rows *lanes) {
  const char *p = (const char *)block;
  sleet_uint8 index;
  __builtin_memcpy(&index, p + SLEET_SLAB_CONSTANTS_ROW, sizeof index);
  // Two rows: lanes of row r0 (lane 0's) or of one other row r1, as in a
  // block of two cells born in turn, or of one cell across a timed change.
  // Each field is then a select between the two rows' broadcast values, the
  // same floats the transposes give (moved, never computed), for 16 selects
  // in place of 48 shuffles. (A uniform block never gets here.)
  unsigned r0 = index[0], r1 = r0;
#pragma clang loop unroll(full)
  for (int l = 7; l > 0; l--) r1 = index[l] != r0 ? index[l] : r1;
  sleet_uint8 splat0 = {r0, r0, r0, r0, r0, r0, r0, r0}, splat1 = {r1, r1, r1, r1, r1, r1, r1, r1};
  sleet_int8 isR1 = (sleet_int8)(index == splat1);
  if (__builtin_reduce_and((sleet_int8)(index == splat0) | isR1) != 0) {
    const float *a = rows + SLEET_ROW_FLOATS * (unsigned long)r0, *b = rows + SLEET_ROW_FLOATS * (unsigned long)r1;
    sleet_float8 k[SLEET_ROW_FLOATS];
#pragma clang loop unroll(full)
    for (int f = 0; f < SLEET_ROW_FLOATS; f++) k[f] = sleet_select(isR1, sleet_splat(b[f]), sleet_splat(a[f]));
    sleet_evaluate_block8_rows(block, t, 0, 0, k, sinCos, target, lanes);
    return;
  }
  sleet_float8 low[8], high[8];
#pragma clang loop unroll(full)
  for (int l = 0; l < 8; l++) {
    const char *row = (const char *)(rows + SLEET_ROW_FLOATS * (unsigned long)index[l]);
    low[l] = sleet_load8(row);
    high[l] = sleet_load8(row + 32);
  }
  sleet_float8 k[SLEET_ROW_FLOATS];
  sleet_transpose8x8(low, k);
  sleet_transpose8x8(high, k + 8);
  sleet_evaluate_block8_rows(block, t, 0, 0, k, sinCos, target, lanes);
}

// FastTrig.sinCos (SleetParticles, FastTrig.swift) of sixteen lanes, stored
// at `sine` and `cosine` (16 writable floats each, no alignment needed),
// operation for operation, so the same bits (contraction is off above; the
// constants are the same decimal literals, each rounded once to `float`, and
// the same `float` divisions for the 1/n! coefficients):
//
//   k = round(x·2/π) by adding 1.5·2²³;  r = x − k·C₁ − k·C₂ − k·C₃
//   sin r, cos r by their Taylor polynomials to r⁹ and r⁸ (Horner)
//   quadrant k mod 4 swaps and negates them
//
// Absolute error ≤ 2·10⁻⁷ for |x| ≤ 10⁴ (FastTrig's tests, against libm).
//
// Why sixteen lanes: each lane's sine is one chain of about 25 dependent
// operations. A 16-lane operation is two 8-lane instructions side by side
// (LLVM splits the type), so two blocks' chains run interleaved, where
// consecutive 8-lane chains leave the out-of-order window short of work
// (docs/performance-design.md). Callers of eight lanes take sleet_sincos8, whose unused half LLVM removes
// after the split (the same 58 instructions as an 8-lane body with AVX).
SLEET_INLINE void sleet_sincos16(sleet_float16 x, float *sine, float *cosine) {
  sleet_float16 magic = sleet_splat16(12582912.0f);  // 1.5·2²³
  sleet_float16 shifted = x * sleet_splat16(0.63661977f) + magic;
  sleet_float16 k = shifted - magic;
  sleet_uint16 quadrant = (sleet_uint16)shifted;  // k mod 4 in its low two bits
  sleet_float16 r = x - k * sleet_splat16(1.5703125f);
  r = r - k * sleet_splat16(4.837512969970703125e-4f);
  r = r - k * sleet_splat16(7.54978995489188216e-8f);
  sleet_float16 r2 = r * r;
  sleet_float16 ps = r2 * sleet_splat16(1.0f / 362880) + sleet_splat16(-1.0f / 5040);
  ps = r2 * ps + sleet_splat16(1.0f / 120);
  ps = r2 * ps + sleet_splat16(-1.0f / 6);
  sleet_float16 s = r + (r * r2) * ps;
  sleet_float16 pc = r2 * sleet_splat16(1.0f / 40320) + sleet_splat16(-1.0f / 720);
  pc = r2 * pc + sleet_splat16(1.0f / 24);
  pc = r2 * pc + sleet_splat16(-0.5f);
  sleet_float16 c = sleet_splat16(1) + r2 * pc;
  // Quadrants 1 and 3 swap sin and cos; 2, 3 negate sin; 1, 2 negate cos,
  // that is where bit 1 of the quadrant differs from bit 0. Bit operations
  // only, so the same bits as FastTrig's selects and negations; in eleven
  // operations where the selects as written there took sixteen.
  sleet_uint16 bit0 = quadrant << 31, sineSign = (quadrant << 30) & 0x80000000u;
  sleet_uint16 swap = (sleet_uint16)((sleet_int16)bit0 >> 31);
  sleet_uint16 sb = (sleet_uint16)s, cb = (sleet_uint16)c;
  sleet_uint16 swapped = (sb ^ cb) & swap;
  sleet_uint16 sineBits = (sb ^ swapped) ^ sineSign;
  sleet_uint16 cosineBits = (cb ^ swapped) ^ (sineSign ^ bit0);
  __builtin_memcpy(sine, &sineBits, sizeof sineBits);
  __builtin_memcpy(cosine, &cosineBits, sizeof cosineBits);
}

// sleet_sincos16 of eight lanes (8 writable floats at each of `sine` and
// `cosine`).
SLEET_INLINE void sleet_sincos8(sleet_float8 x, float *sine, float *cosine) {
  float sines[16], cosines[16];
  sleet_sincos16(__builtin_shufflevector(x, x, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7), sines, cosines);
  __builtin_memcpy(sine, sines, 32);
  __builtin_memcpy(cosine, cosines, 32);
}

// The rotations, spin·(float)(t − birth), of the eight lanes of the block at
// `p` at `now`: the kernel's.
SLEET_INLINE sleet_float8 sleet_rotation8(const char *p, sleet_double8 now) {
  sleet_double8 birth;
  __builtin_memcpy(&birth, p + SLEET_SLAB_BIRTH_TIME, sizeof birth);
  return sleet_load8(p + SLEET_SLAB_SPIN) * __builtin_convertvector(now - birth, sleet_float8);
}

// The sines and cosines of the rotations of `count` consecutive blocks from
// `p` at `now` (sleet_rotation8): `out + 16·k` holds block k's sines, then
// its cosines (all eight lanes, dead ones too). Why a group at a time: chains
// of neighbouring blocks, computed together, run side by side, where one
// inside each block's kernel stands in the way of the next block; two
// blocks at a time through sleet_sincos16.
SLEET_INLINE void sleet_rotation_sincos8(const char *p, long count, sleet_double8 now, float *out) {
  long k = 0;
  for (; k + 1 < count; k += 2, p += 2 * SLEET_SLAB_BLOCK_BYTES) {
    sleet_float8 r0 = sleet_rotation8(p, now), r1 = sleet_rotation8(p + SLEET_SLAB_BLOCK_BYTES, now);
    float sines[16], cosines[16];
    sleet_sincos16(__builtin_shufflevector(r0, r1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), sines, cosines);
    __builtin_memcpy(out + 16 * k, sines, 32);
    __builtin_memcpy(out + 16 * k + 8, cosines, 32);
    __builtin_memcpy(out + 16 * k + 16, sines + 8, 32);
    __builtin_memcpy(out + 16 * k + 24, cosines + 8, 32);
  }
  if (k < count) sleet_sincos8(sleet_rotation8(p, now), out + 16 * k, out + 16 * k + 8);
}

// ---------------------------------------------------------------------------
// The compilations for the portable x86-64 build's AVX2 copies (see "Two
// compilations of the block loop" at the end): `target("avx2")` on x86-64
// without AVX2, nothing elsewhere.
#if defined(__x86_64__) && !defined(__AVX2__)
#define SLEET_AVX2_COPY __attribute__((target("avx2")))
#else
#define SLEET_AVX2_COPY
#endif

// ---------------------------------------------------------------------------
// A run of blocks: the block loop of a frame's pass 2.
//
// Why the loop is here and not in Swift: per block, the alive test is two
// `Double` compares of eight lanes, a mask and a branch; in Swift the
// `SIMD8<Double>` masks come out as pack/shift/extract chains into general
// registers with the block's state spilled around them, and the partly
// alive blocks (the oldest ones, in an effect whose lifetimes vary) copy
// their live lanes one optional-checked field at a time.

// Blocks whose rotation sines and cosines a run computes at a time (see
// sleet_rotation_sincos8).
#define SLEET_SINCOS_GROUP 4

// Where a run's live lanes go, output row 0 first. `instances` and `compact`
// as in sleet_block_target; `ids` and `depths` both null (no sort keys) or
// both set.
typedef struct {
  void *instances;
  void *compact;
  void *affines;
  float *depths;
  unsigned long long *ids;
  int flattensDepth;
} sleet_run_target;

// Row `o` of a run's target as one block's target.
SLEET_INLINE sleet_block_target sleet_block_rows(sleet_run_target target, long o) {
  sleet_block_target out = {
      target.instances ? (char *)target.instances + 64 * o : 0,
      target.compact ? (char *)target.compact + 32 * o : 0,
      target.affines ? (char *)target.affines + 24 * o : 0,
      target.depths ? target.depths + o : 0,
      target.flattensDepth};
  return out;
}

// Bit l set: lane l of the block at `p` is alive at `now`, 0 ≤ t − birth <
// lifetime in `Double` (ParticleStore's alive test, the same compares).
SLEET_INLINE unsigned sleet_alive_lanes8(const char *p, sleet_double8 now) {
  sleet_double8 birth;
  __builtin_memcpy(&birth, p + SLEET_SLAB_BIRTH_TIME, sizeof birth);
  sleet_double8 age = now - birth;
  sleet_double8 life = __builtin_convertvector(sleet_load8(p + SLEET_SLAB_LIFETIME), sleet_double8);
  sleet_long8 alive = (age >= 0) & (age < life);
  return __builtin_bit_cast(unsigned char, __builtin_convertvector(alive, sleet_bool8));
}

// The constants row of lane 0 of the block at `p` (slot 3), and in
// `*uniform` whether all eight lanes use it.
SLEET_INLINE unsigned sleet_first_row8(const char *p, int *uniform) {
  sleet_uint8 rowIndex;
  __builtin_memcpy(&rowIndex, p + SLEET_SLAB_CONSTANTS_ROW, sizeof rowIndex);
  unsigned r0 = rowIndex[0];
  *uniform = __builtin_reduce_and(rowIndex == (sleet_uint8){r0, r0, r0, r0, r0, r0, r0, r0}) != 0;
  return r0;
}

// Evaluates blocks 0, 1, … of `blocks` at emitter time `t`, in order, and
// writes the live lanes to `target` from row 0, in lane order, skipping dead
// lanes and dead blocks: what ParticleStore's pass 2 writes for them.
// `mixedRows` 0: blocks whose lanes (all eight, dead ones included) share
// one constants row, stopping before the first live block of several rows;
// 1: blocks of several rows (the births of several cells in turn, through
// sleet_evaluate_gathered_block8), stopping before the first live block of
// one row. Callers pass a constant: two loops, and the one-row loop has no
// trace of the other (the gathered kernel inlined into it, or a call to it,
// slows the one-row blocks down). Stops after `count` blocks at the latest.
// Returns the blocks done; `*written` receives the rows written. `ids` are
// the store's ids of those blocks' lanes (read only with sort keys); `rows`
// the constants table (rows of sleet_constants_row).
//
// A block whose eight lanes are alive goes straight to the output; any
// other is evaluated into a stack scratch and its live lanes copied out.
// Blocks 0 … fullBlocks − 1 with t below their `aliveBefore` bound
// (ParticleStore's surely-alive bounds; null: none) are alive in every lane
// without testing the lanes: one compare in place of the lanes' test. With
// affines, the rotations' sines and cosines are computed a group of blocks
// ahead (sleet_rotation_sincos8).
//
// Invariants: `count` blocks from `blocks` are readable, and `ids` has 8 per
// block with sort keys; every row index is a row of `rows`; the target has
// as many writable rows as the run's live lanes; with `aliveBefore`, it has
// a bound for each of blocks 0 … fullBlocks − 1, below which t − birth <
// lifetime holds in each of the block's lanes, and `t` is at or after every
// birth in those blocks (as for ParticleStore.isSurelyAlive).
SLEET_INLINE long sleet_evaluate_blocks8_body(
    const void *blocks, const unsigned long long *ids, long count, double t, const float *rows,
    const double *aliveBefore, long fullBlocks, sleet_run_target target, long *written, int mixedRows) {
  const char *p = (const char *)blocks;
  sleet_double8 now = {t, t, t, t, t, t, t, t};
  long o = 0, b = 0;
  // With affines: the sines and cosines of blocks [groupStart, groupEnd),
  // computed for the group that starts at the first live block past the
  // previous group (each block's values depend on that block alone, so
  // where a group starts does not change them).
  _Alignas(32) float sinCos[16 * SLEET_SINCOS_GROUP];
  long groupStart = 0, groupEnd = 0;
  for (; b < count; b++, p += SLEET_SLAB_BLOCK_BYTES) {
    unsigned alive = 0xFF;
    if (!aliveBefore || b >= fullBlocks || !(t < aliveBefore[b])) {
      alive = sleet_alive_lanes8(p, now);
      if (alive == 0) continue;
    }
    int uniform;
    unsigned r0 = sleet_first_row8(p, &uniform);
    if (uniform == mixedRows) break;
    if (target.affines && b >= groupEnd) {
      groupStart = b;
      groupEnd = b + SLEET_SINCOS_GROUP < count ? b + SLEET_SINCOS_GROUP : count;
      sleet_rotation_sincos8(p, groupEnd - b, now, sinCos);
    }
    const float *row = rows + SLEET_ROW_FLOATS * (unsigned long)r0;
    const float *trig = sinCos + 16 * (b - groupStart);
    if (alive == 0xFF) {
      sleet_block_target out = sleet_block_rows(target, o);
      if (mixedRows)
        sleet_evaluate_gathered_block8(p, t, rows, trig, out, 0);
      else
        sleet_evaluate_uniform_block8(p, t, row, trig, out);
      if (target.ids) __builtin_memcpy(target.ids + o, ids + 8 * b, 64);
      o += 8;
      continue;
    }
    _Alignas(64) char rowsScratch[512];
    _Alignas(64) char affinesScratch[192];
    _Alignas(32) float depthsScratch[8];
    sleet_block_target scratch = {
        target.compact ? 0 : rowsScratch, target.compact ? rowsScratch : 0,
        target.affines ? affinesScratch : 0, target.depths ? depthsScratch : 0, target.flattensDepth};
    if (mixedRows)
      sleet_evaluate_gathered_block8(p, t, rows, trig, scratch, 0);
    else
      sleet_evaluate_uniform_block8(p, t, row, trig, scratch);
    for (unsigned m = alive; m != 0; m &= m - 1) {
      int l = __builtin_ctz(m);
      if (target.compact)
        __builtin_memcpy((char *)target.compact + 32 * o, rowsScratch + 32 * l, 32);
      else
        __builtin_memcpy((char *)target.instances + 64 * o, rowsScratch + 64 * l, 64);
      if (target.affines) __builtin_memcpy((char *)target.affines + 24 * o, affinesScratch + 24 * l, 24);
      if (target.ids) target.ids[o] = ids[8 * b + l];
      if (target.depths) target.depths[o] = depthsScratch[l];
      o++;
    }
  }
  *written = o;
  return b;
}

// ---------------------------------------------------------------------------
// Frames drawn in id order, written in that order.
//
// A frame of several cells in `unordered` or `additive` order is drawn by
// id: each cell's particles together, cells in number order (the id's top
// byte), and a top-level cell's particles in birth order, the order they
// have in the store. The loops above write the store's order, which a sort
// by id and a gather of every output row would then put in draw order;
// with the births of two cells in turn, those dominate the frame. Instead,
// pass 1
// counts each cell's live lanes (sleet_count_cells8), a prefix sum in cell
// order gives each cell its first output row, and pass 2 writes every live
// lane at its cell's next row (sleet_evaluate_cells8): a counting sort on
// the cell, done while writing. The caller takes these passes only when
// every cell is top-level: sub-cells' ids are hashes, which the sort would
// have to order anyway.

// The cell number of constants row `r` (its SLEET_ROW_CELL lane: `UInt32`
// bits).
SLEET_INLINE unsigned sleet_row_cell(const float *rows, unsigned r) {
  unsigned cell;
  __builtin_memcpy(&cell, rows + SLEET_ROW_FLOATS * (unsigned long)r + SLEET_ROW_CELL, sizeof cell);
  return cell;
}

// Where each live lane of the block at `p` goes in a frame written in cell
// order: `at[l]` = `cursors[cell]` plus the live lanes of lane l's cell
// before it, and each cursor then moves past its cell's live lanes (`alive`:
// bit l set for a live lane). For a dead lane, `at[l]` is where its cell's
// next live lane would go. Lane by lane, the cursors are read first and
// written last, in lane order, so the last lane of each cell leaves its
// final value, whether that lane is alive or not; no lane waits for
// another's store. (A memory increment per lane would make each wait for
// the previous one to the same cell; a loop a cell at a time mispredicts
// its trips.)
// Invariants: every row index of the block is a row of `rows`; `cursors`
// has an entry for every cell number in `rows`.
SLEET_INLINE void sleet_place_lanes8(const char *p, unsigned alive, const float *rows, long *cursors, long at[8]) {
  const unsigned *laneRow = (const unsigned *)(p + SLEET_SLAB_CONSTANTS_ROW);
  unsigned cellOf[8];
#pragma clang loop unroll(full)
  for (int l = 0; l < 8; l++) cellOf[l] = sleet_row_cell(rows, laneRow[l]);
  sleet_uint8 cells = {cellOf[0], cellOf[1], cellOf[2], cellOf[3], cellOf[4], cellOf[5], cellOf[6], cellOf[7]};
#pragma clang loop unroll(full)
  for (int l = 0; l < 8; l++) {
    sleet_int8 same = (sleet_int8)(cells == (sleet_uint8){0} + cellOf[l]);
    unsigned sameBefore = __builtin_bit_cast(unsigned char, __builtin_convertvector(same, sleet_bool8)) & alive &
                          ((1u << l) - 1);
    at[l] = cursors[cellOf[l]] + __builtin_popcount(sameBefore);
  }
#pragma clang loop unroll(full)
  for (int l = 0; l < 8; l++) cursors[cellOf[l]] = at[l] + ((alive >> l) & 1);
}

// Adds to `counts[cell]` the lanes of each cell alive at `t` in blocks 0 …
// count − 1 of `blocks` (the alive test of sleet_alive_lanes8): a block of
// one row at once, a block of several rows by sleet_place_lanes8 with the
// counts as cursors.
// Invariants: `count` blocks are readable; every row index is a row of
// `rows`; `counts` has an entry for every cell number in `rows`.
SLEET_INLINE void sleet_count_cells8_body(const void *blocks, long count, double t, const float *rows, long *counts) {
  const char *p = (const char *)blocks;
  sleet_double8 now = {t, t, t, t, t, t, t, t};
  for (long b = 0; b < count; b++, p += SLEET_SLAB_BLOCK_BYTES) {
    unsigned alive = sleet_alive_lanes8(p, now);
    if (alive == 0) continue;
    int uniform;
    unsigned r0 = sleet_first_row8(p, &uniform);
    if (uniform) {
      counts[sleet_row_cell(rows, r0)] += __builtin_popcount(alive);
      continue;
    }
    long at[8];
    sleet_place_lanes8(p, alive, rows, counts, at);
  }
}

// The body of sleet_evaluate_cells8: blocks 0 … count − 1 of `blocks` at
// emitter time `t`, every live lane written at row `cursors[cell]` of the
// target, which then moves on by one; blocks of one row and of several rows
// alike (a block whose lanes do not go to eight consecutive rows has each
// lane stored at its own row, sleet_lane_rows). The values and the rows'
// contents are those of sleet_evaluate_blocks8_body; only where each row
// goes differs. With
// `cursors` from a prefix sum of sleet_count_cells8's counts, every cell's
// lanes land in a range of their own, in store order.
//
// Invariants: as sleet_evaluate_blocks8_body; `cursors` has an entry for
// every cell number in `rows`, and the target has a writable row at every
// index the cursors reach.
SLEET_INLINE void sleet_evaluate_cells8_body(
    const void *blocks, const unsigned long long *ids, long count, double t, const float *rows,
    sleet_run_target target, long *cursors) {
  const char *p = (const char *)blocks;
  sleet_double8 now = {t, t, t, t, t, t, t, t};
  _Alignas(32) float sinCos[16 * SLEET_SINCOS_GROUP];
  long groupStart = 0, groupEnd = 0;
  for (long b = 0; b < count; b++, p += SLEET_SLAB_BLOCK_BYTES) {
    unsigned alive = sleet_alive_lanes8(p, now);
    if (alive == 0) continue;
    int uniform;
    unsigned r0 = sleet_first_row8(p, &uniform);
    if (target.affines && b >= groupEnd) {
      groupStart = b;
      groupEnd = b + SLEET_SINCOS_GROUP < count ? b + SLEET_SINCOS_GROUP : count;
      sleet_rotation_sincos8(p, groupEnd - b, now, sinCos);
    }
    const float *trig = sinCos + 16 * (b - groupStart);
    if (uniform && alive == 0xFF) {
      long *cursor = cursors + sleet_row_cell(rows, r0);
      sleet_evaluate_uniform_block8(
          p, t, rows + SLEET_ROW_FLOATS * (unsigned long)r0, trig, sleet_block_rows(target, *cursor));
      if (target.ids) __builtin_memcpy(target.ids + *cursor, ids + 8 * b, 64);
      *cursor += 8;
      continue;
    }
    // Each live lane is stored straight to its row `at[l]`, dead lanes to a
    // stack block nobody reads: no scratch block to copy the lanes out of.
    long at[8];
    if (uniform) {
      long *cursor = cursors + sleet_row_cell(rows, r0);
#pragma clang loop unroll(full)
      for (int l = 0; l < 8; l++) at[l] = *cursor + __builtin_popcount(alive & ((1u << l) - 1));
      *cursor += __builtin_popcount(alive);
    } else {
      sleet_place_lanes8(p, alive, rows, cursors, at);
    }
    _Alignas(64) char unreadRows[512];
    _Alignas(64) char unreadAffines[192];
    _Alignas(32) float unreadDepths[8];
    sleet_lane_rows lanes;
    char *rowBase = target.compact ? (char *)target.compact : (char *)target.instances;
    long rowBytes = target.compact ? 32 : 64;
#pragma clang loop unroll(full)
    for (int l = 0; l < 8; l++) lanes.instance[l] = (alive >> l) & 1 ? rowBase + rowBytes * at[l] : unreadRows + 64 * l;
    if (target.affines) {
#pragma clang loop unroll(full)
      for (int l = 0; l < 8; l++)
        lanes.affine[l] = (alive >> l) & 1 ? (char *)target.affines + 24 * at[l] : unreadAffines + 24 * l;
    }
    if (target.depths) {
#pragma clang loop unroll(full)
      for (int l = 0; l < 8; l++) lanes.depth[l] = (alive >> l) & 1 ? target.depths + at[l] : unreadDepths + l;
    }
    sleet_block_target base = sleet_block_rows(target, 0);
    if (uniform)
      sleet_evaluate_block8_rows(p, t, 1, rows + SLEET_ROW_FLOATS * (unsigned long)r0, 0, trig, base, &lanes);
    else
      sleet_evaluate_gathered_block8(p, t, rows, trig, base, &lanes);
    if (target.ids)
      for (unsigned m = alive; m != 0; m &= m - 1) target.ids[at[__builtin_ctz(m)]] = ids[8 * b + __builtin_ctz(m)];
  }
}

// ---------------------------------------------------------------------------
// The block loops for the common targets.
//
// Which outputs a run writes (instances or compact rows, affines, sort keys)
// is known only at run time, so the loop above tests each target pointer in
// every block, and with all of them possible LLVM keeps values in memory
// across those tests (the general loop spills vectors to the stack between
// its stores). The most common targets get a loop of their own, compiled
// with the outputs they do not write as constant nulls: instances alone
// (`render(into:)`'s default), compact rows alone, and instances with
// affines (`render(into:computesAffines:)`). Any other target (sort keys,
// compact rows with affines) takes the general loop. Same bits either way:
// only which tests are folded differs. What it buys is in
// docs/performance-design.md.

// `target` with the outputs it does not write as constant nulls, for
// `shape` (sleet_target_shape), and its rows' alignment stated: 1
// instances alone, 2 compact rows alone, 5 instances and affines, rows at a
// 32-byte boundary; 3, 4 and 6 the same with rows 16 bytes past one
// (sleet_store_rows8_offset16; the affines' 24-byte rows assume nothing). Row
// o of a run is at 64·o or 32·o bytes, so every block's rows share the
// run's alignment mod 32, and the kernels' test of it folds. 0 leaves the
// target as it is.
SLEET_INLINE sleet_run_target sleet_shaped_target(sleet_run_target target, int shape) {
  if (shape == 0) return target;
  int compact = shape == 2 || shape == 4;
  void *rows = compact ? target.compact : target.instances;
  int aligned = shape == 1 || shape == 2 || shape == 5;
  rows = aligned ? __builtin_assume_aligned(rows, 32) : __builtin_assume_aligned(rows, 32, 16);
  sleet_run_target s = {compact ? 0 : rows, compact ? rows : 0, shape >= 5 ? target.affines : 0, 0, 0,
                        target.flattensDepth};
  return s;
}

// The shape of `target` that has a loop of its own (see
// sleet_shaped_target), or 0.
SLEET_INLINE int sleet_target_shape(sleet_run_target target) {
  if (target.ids || target.depths || (target.affines && target.compact)) return 0;
  void *rows = target.compact ? target.compact : target.instances;
  int aligned;
  switch ((unsigned long)rows & 31) {
  case 0: aligned = 1; break;
  case 16: aligned = 0; break;
  default: return 0;
  }
  if (target.affines) return aligned ? 5 : 6;
  return target.compact ? (aligned ? 2 : 4) : (aligned ? 1 : 3);
}

// sleet_evaluate_blocks8_body through the loop for the target's shape.
SLEET_INLINE long sleet_evaluate_blocks8_shaped(
    const void *blocks, const unsigned long long *ids, long count, double t, const float *rows,
    const double *aliveBefore, long fullBlocks, sleet_run_target target, long *written, int mixedRows) {
  switch (sleet_target_shape(target)) {
#define SLEET_SHAPE_CASE(shape)                                                                                      \
  case shape:                                                                                                        \
    return sleet_evaluate_blocks8_body(                                                                              \
        blocks, ids, count, t, rows, aliveBefore, fullBlocks, sleet_shaped_target(target, shape), written, mixedRows);
    SLEET_SHAPE_CASE(1)
    SLEET_SHAPE_CASE(2)
    SLEET_SHAPE_CASE(3)
    SLEET_SHAPE_CASE(4)
    SLEET_SHAPE_CASE(5)
    SLEET_SHAPE_CASE(6)
#undef SLEET_SHAPE_CASE
  default:
    return sleet_evaluate_blocks8_body(
        blocks, ids, count, t, rows, aliveBefore, fullBlocks, target, written, mixedRows);
  }
}

// ---------------------------------------------------------------------------
// Two compilations of the block loop.
//
// sleet_evaluate_blocks8 is the loop compiled for the build's target.
// sleet_evaluate_blocks8_avx2 is the same loop compiled with AVX2 enabled
// (`target("avx2")`) in x86-64 builds without it — the portable build, whose
// baseline is SSE2, where each eight-lane operation is two four-lane ones and
// the kernel's values spill from sixteen `xmm` registers; in every other
// build it is the same code as sleet_evaluate_blocks8. The caller picks it
// when sleet_cpu_has_avx2() says the CPU and the OS support AVX2.
//
// Same bits either way: the loop is the same IEEE operations in the same
// order (contraction is off, and the AVX2 copy does not enable FMA), only
// the vector width of the instructions differs (BlockRunKernelTests compares
// the two byte for byte).
//
// Invariants: as sleet_evaluate_blocks8_body; the AVX2 copy runs only where
// sleet_cpu_has_avx2() returned 1.

static inline long sleet_evaluate_blocks8(
    const void *blocks, const unsigned long long *ids, long count, double t, const float *rows,
    const double *aliveBefore, long fullBlocks, sleet_run_target target, long *written) {
  return sleet_evaluate_blocks8_shaped(blocks, ids, count, t, rows, aliveBefore, fullBlocks, target, written, 0);
}

SLEET_AVX2_COPY static inline long sleet_evaluate_blocks8_avx2(
    const void *blocks, const unsigned long long *ids, long count, double t, const float *rows,
    const double *aliveBefore, long fullBlocks, sleet_run_target target, long *written) {
  return sleet_evaluate_blocks8_shaped(blocks, ids, count, t, rows, aliveBefore, fullBlocks, target, written, 0);
}

// The loop over blocks of several rows, in the same two copies.
static inline long sleet_evaluate_mixed_blocks8(
    const void *blocks, const unsigned long long *ids, long count, double t, const float *rows,
    const double *aliveBefore, long fullBlocks, sleet_run_target target, long *written) {
  return sleet_evaluate_blocks8_body(blocks, ids, count, t, rows, aliveBefore, fullBlocks, target, written, 1);
}

SLEET_AVX2_COPY static inline long sleet_evaluate_mixed_blocks8_avx2(
    const void *blocks, const unsigned long long *ids, long count, double t, const float *rows,
    const double *aliveBefore, long fullBlocks, sleet_run_target target, long *written) {
  return sleet_evaluate_blocks8_body(blocks, ids, count, t, rows, aliveBefore, fullBlocks, target, written, 1);
}

// The cell-order passes (sleet_count_cells8_body, sleet_evaluate_cells8_body)
// in the same two copies.
static inline void sleet_count_cells8(const void *blocks, long count, double t, const float *rows, long *counts) {
  sleet_count_cells8_body(blocks, count, t, rows, counts);
}

SLEET_AVX2_COPY static inline void sleet_count_cells8_avx2(
    const void *blocks, long count, double t, const float *rows, long *counts) {
  sleet_count_cells8_body(blocks, count, t, rows, counts);
}

static inline void sleet_evaluate_cells8(
    const void *blocks, const unsigned long long *ids, long count, double t, const float *rows,
    sleet_run_target target, long *cursors) {
  sleet_evaluate_cells8_body(blocks, ids, count, t, rows, target, cursors);
}

SLEET_AVX2_COPY static inline void sleet_evaluate_cells8_avx2(
    const void *blocks, const unsigned long long *ids, long count, double t, const float *rows,
    sleet_run_target target, long *cursors) {
  sleet_evaluate_cells8_body(blocks, ids, count, t, rows, target, cursors);
}

#endif
