// The colour conversion of SleetVideo's frames (YUVConversion.swift calls
// it): premultiplied Float RGBA pixels straight to planar BT.709 YUV(A),
// limited range, in one pass. The formula, its rounding and its precision
// are documented on `_YUVConversion` in Sources/SleetVideo/YUVConversion.swift;
// the tests compare every sample with a Double twin of that formula.
//
// Why C: four pixels are transposed into one vector per channel and the
// results packed to bytes; Swift builds those SIMD transposes and its
// Float-to-integer vector conversions lane by lane (see the particle
// kernels' header, Sources/CSleetKernels/sleet_kernels.h). Here each step is
// one `__builtin_shufflevector` or `__builtin_convertvector` on Clang's
// generic vectors, so the header compiles for any target.
//
// Nothing is linked: a header-only module. Editing it: touch the Swift files
// that import it (SwiftPM does not rebuild them for a header change).
#ifndef SLEET_YUV_H
#define SLEET_YUV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

// Every product and sum rounds on its own (no fused multiply-add), so the
// vector body and the repeated-pixel edges give the same bits on any target.
#pragma STDC FP_CONTRACT OFF

typedef float sleet_yuv_f4 __attribute__((ext_vector_type(4)));
typedef int32_t sleet_yuv_i4 __attribute__((ext_vector_type(4)));
typedef uint8_t sleet_yuv_b4 __attribute__((ext_vector_type(4)));
typedef uint16_t sleet_yuv_h4 __attribute__((ext_vector_type(4)));

// BT.709's luma weights.
#define SLEET_YUV_KR 0.2126f
#define SLEET_YUV_KB 0.0722f
#define SLEET_YUV_KG (1.0f - SLEET_YUV_KR - SLEET_YUV_KB)

static inline sleet_yuv_f4 sleet_yuv_select(sleet_yuv_i4 mask, sleet_yuv_f4 yes, sleet_yuv_f4 no) {
  return (sleet_yuv_f4)(((sleet_yuv_i4)yes & mask) | ((sleet_yuv_i4)no & ~mask));
}

// ⌊v + 0.5⌋ for v in [0, 2³¹ − 1): truncation of a non-negative value.
static inline sleet_yuv_i4 sleet_yuv_round(sleet_yuv_f4 v) {
  return __builtin_convertvector(v + 0.5f, sleet_yuv_i4);
}

// The straight colour and clamped alpha of four pixels (16 floats, r g b a
// each), one lane a pixel: α = clamp(a, 0, 1), c' = clamp(c, 0, α)·(1/α), 0
// when α = 0; NaN counts as 0 (every comparison with it is false).
static inline void sleet_yuv_straight4(
  const float *pixels, sleet_yuv_f4 *r, sleet_yuv_f4 *g, sleet_yuv_f4 *b, sleet_yuv_f4 *a
) {
  sleet_yuv_f4 p0, p1, p2, p3;
  memcpy(&p0, pixels, 16);
  memcpy(&p1, pixels + 4, 16);
  memcpy(&p2, pixels + 8, 16);
  memcpy(&p3, pixels + 12, 16);
  sleet_yuv_f4 rg01 = __builtin_shufflevector(p0, p1, 0, 4, 1, 5);
  sleet_yuv_f4 rg23 = __builtin_shufflevector(p2, p3, 0, 4, 1, 5);
  sleet_yuv_f4 ba01 = __builtin_shufflevector(p0, p1, 2, 6, 3, 7);
  sleet_yuv_f4 ba23 = __builtin_shufflevector(p2, p3, 2, 6, 3, 7);
  sleet_yuv_f4 zero = 0.0f, one = 1.0f;
  sleet_yuv_f4 alpha = __builtin_shufflevector(ba01, ba23, 2, 3, 6, 7);
  alpha = sleet_yuv_select(alpha > zero, alpha, zero);
  alpha = sleet_yuv_select(alpha > one, one, alpha);
  sleet_yuv_i4 visible = alpha > zero;
  sleet_yuv_f4 inverse = sleet_yuv_select(visible, one / sleet_yuv_select(visible, alpha, one), zero);
  sleet_yuv_f4 c[3] = {
    __builtin_shufflevector(rg01, rg23, 0, 1, 4, 5),
    __builtin_shufflevector(rg01, rg23, 2, 3, 6, 7),
    __builtin_shufflevector(ba01, ba23, 0, 1, 4, 5),
  };
  for (int k = 0; k < 3; k++) {
    sleet_yuv_f4 v = sleet_yuv_select(c[k] > zero, c[k], zero);
    c[k] = sleet_yuv_select(v > alpha, alpha, v) * inverse;
  }
  *r = c[0];
  *g = c[1];
  *b = c[2];
  *a = alpha;
}

// Y' = kr·r + kg·g + kb·b.
static inline sleet_yuv_f4 sleet_yuv_luma(sleet_yuv_f4 r, sleet_yuv_f4 g, sleet_yuv_f4 b) {
  return SLEET_YUV_KR * r + SLEET_YUV_KG * g + SLEET_YUV_KB * b;
}

// Four pixels of a row starting at x, the last pixel repeated past the
// row's end (x + 3 > last).
static inline const float *sleet_yuv_four(const float *row, ptrdiff_t x, ptrdiff_t width, float scratch[16]) {
  if (x + 4 <= width) return row + 4 * x;
  for (ptrdiff_t k = 0; k < 4; k++) {
    ptrdiff_t i = x + k < width ? x + k : width - 1;
    memcpy(scratch + 4 * k, row + 4 * i, 16);
  }
  return scratch;
}

// Stores the first n (1…4) lanes.
static inline void sleet_yuv_store_b4(uint8_t *to, sleet_yuv_b4 v, ptrdiff_t n) {
  if (n >= 4) { memcpy(to, &v, 4); return; }
  for (ptrdiff_t k = 0; k < n; k++) to[k] = v[k];
}

static inline void sleet_yuv_store_h4(uint16_t *to, sleet_yuv_h4 v, ptrdiff_t n) {
  if (n >= 4) { memcpy(to, &v, 8); return; }
  for (ptrdiff_t k = 0; k < n; k++) to[k] = v[k];
}

// Kernel: 8-bit 4:2:0 (yuv420p; yuva420p when `alpha` is not NULL),
// outWidth × outHeight, of a width × height image of premultiplied Float
// RGBA (`pixels`, rows of 4·width floats); columns and rows past the image
// repeat its last ones (padding to an even size). Strides are in bytes.
// Invariants: 1 ≤ width ≤ outWidth, 1 ≤ height ≤ outHeight; the luma and
// alpha planes hold outHeight rows of outWidth bytes, the chroma planes
// ⌈outHeight/2⌉ rows of ⌈outWidth/2⌉; no alignment required. Chroma is that
// of the block's mean straight colour, summed as (p00 + p01) + (p10 + p11);
// an odd last column or row counts twice.
static inline void sleet_yuv420_from_premultiplied(
  const float *pixels, ptrdiff_t width, ptrdiff_t height, ptrdiff_t outWidth, ptrdiff_t outHeight,
  uint8_t *luma, ptrdiff_t lumaStride, uint8_t *cb, ptrdiff_t cbStride,
  uint8_t *cr, ptrdiff_t crStride, uint8_t *alpha, ptrdiff_t alphaStride
) {
  float scratch0[16], scratch1[16];
  for (ptrdiff_t y0 = 0; y0 < outHeight; y0 += 2) {
    ptrdiff_t y1 = y0 + 1 < outHeight ? y0 + 1 : y0;
    const float *row0 = pixels + 4 * width * (y0 < height ? y0 : height - 1);
    const float *row1 = pixels + 4 * width * (y1 < height ? y1 : height - 1);
    for (ptrdiff_t x = 0; x < outWidth; x += 4) {
      ptrdiff_t n = outWidth - x < 4 ? outWidth - x : 4;
      sleet_yuv_f4 r0, g0, b0, a0, r1, g1, b1, a1;
      sleet_yuv_straight4(sleet_yuv_four(row0, x, width, scratch0), &r0, &g0, &b0, &a0);
      sleet_yuv_straight4(sleet_yuv_four(row1, x, width, scratch1), &r1, &g1, &b1, &a1);
      sleet_yuv_b4 l0 = __builtin_convertvector(sleet_yuv_round(16.0f + 219.0f * sleet_yuv_luma(r0, g0, b0)), sleet_yuv_b4);
      sleet_yuv_b4 l1 = __builtin_convertvector(sleet_yuv_round(16.0f + 219.0f * sleet_yuv_luma(r1, g1, b1)), sleet_yuv_b4);
      sleet_yuv_store_b4(luma + lumaStride * y0 + x, l0, n);
      if (y1 != y0) sleet_yuv_store_b4(luma + lumaStride * y1 + x, l1, n);
      if (alpha) {
        sleet_yuv_store_b4(alpha + alphaStride * y0 + x, __builtin_convertvector(sleet_yuv_round(255.0f * a0), sleet_yuv_b4), n);
        if (y1 != y0)
          sleet_yuv_store_b4(alpha + alphaStride * y1 + x, __builtin_convertvector(sleet_yuv_round(255.0f * a1), sleet_yuv_b4), n);
      }
      // Two blocks: lanes 0 and 1 (2 and 3 repeat them).
      sleet_yuv_f4 mr = (__builtin_shufflevector(r0, r0, 0, 2, 0, 2) + __builtin_shufflevector(r0, r0, 1, 3, 1, 3))
        + (__builtin_shufflevector(r1, r1, 0, 2, 0, 2) + __builtin_shufflevector(r1, r1, 1, 3, 1, 3));
      sleet_yuv_f4 mg = (__builtin_shufflevector(g0, g0, 0, 2, 0, 2) + __builtin_shufflevector(g0, g0, 1, 3, 1, 3))
        + (__builtin_shufflevector(g1, g1, 0, 2, 0, 2) + __builtin_shufflevector(g1, g1, 1, 3, 1, 3));
      sleet_yuv_f4 mb = (__builtin_shufflevector(b0, b0, 0, 2, 0, 2) + __builtin_shufflevector(b0, b0, 1, 3, 1, 3))
        + (__builtin_shufflevector(b1, b1, 0, 2, 0, 2) + __builtin_shufflevector(b1, b1, 1, 3, 1, 3));
      mr = mr * 0.25f;
      mg = mg * 0.25f;
      mb = mb * 0.25f;
      sleet_yuv_f4 my = sleet_yuv_luma(mr, mg, mb);
      sleet_yuv_b4 u = __builtin_convertvector(sleet_yuv_round(128.0f + 224.0f * ((mb - my) / 1.8556f)), sleet_yuv_b4);
      sleet_yuv_b4 v = __builtin_convertvector(sleet_yuv_round(128.0f + 224.0f * ((mr - my) / 1.5748f)), sleet_yuv_b4);
      ptrdiff_t blocks = (n + 1) / 2;
      uint8_t *cbRow = cb + cbStride * (y0 / 2) + x / 2;
      uint8_t *crRow = cr + crStride * (y0 / 2) + x / 2;
      cbRow[0] = u[0];
      crRow[0] = v[0];
      if (blocks > 1) {
        cbRow[1] = u[1];
        crRow[1] = v[1];
      }
    }
  }
}

// Kernel: 10-bit 4:4:4 with alpha (yuva444p10le: the low 10 bits of native
// 16-bit words), outWidth × outHeight, of a width × height image of
// premultiplied Float RGBA, padded as the 4:2:0 kernel pads. Strides are in
// bytes. Invariants: 1 ≤ width ≤ outWidth, 1 ≤ height ≤ outHeight; each
// plane holds outHeight rows of outWidth 16-bit samples, each row 2-byte
// aligned.
static inline void sleet_yuva444p10_from_premultiplied(
  const float *pixels, ptrdiff_t width, ptrdiff_t height, ptrdiff_t outWidth, ptrdiff_t outHeight,
  uint8_t *luma, ptrdiff_t lumaStride, uint8_t *cb, ptrdiff_t cbStride,
  uint8_t *cr, ptrdiff_t crStride, uint8_t *alpha, ptrdiff_t alphaStride
) {
  float scratch[16];
  for (ptrdiff_t y = 0; y < outHeight; y++) {
    const float *row = pixels + 4 * width * (y < height ? y : height - 1);
    uint16_t *l = (uint16_t *)(luma + lumaStride * y);
    uint16_t *u = (uint16_t *)(cb + cbStride * y);
    uint16_t *v = (uint16_t *)(cr + crStride * y);
    uint16_t *a = (uint16_t *)(alpha + alphaStride * y);
    for (ptrdiff_t x = 0; x < outWidth; x += 4) {
      ptrdiff_t n = outWidth - x < 4 ? outWidth - x : 4;
      sleet_yuv_f4 r, g, b, al;
      sleet_yuv_straight4(sleet_yuv_four(row, x, width, scratch), &r, &g, &b, &al);
      sleet_yuv_f4 yp = sleet_yuv_luma(r, g, b);
      sleet_yuv_store_h4(l + x, __builtin_convertvector(sleet_yuv_round(64.0f + 876.0f * yp), sleet_yuv_h4), n);
      sleet_yuv_store_h4(u + x, __builtin_convertvector(sleet_yuv_round(512.0f + 896.0f * ((b - yp) / 1.8556f)), sleet_yuv_h4), n);
      sleet_yuv_store_h4(v + x, __builtin_convertvector(sleet_yuv_round(512.0f + 896.0f * ((r - yp) / 1.5748f)), sleet_yuv_h4), n);
      sleet_yuv_store_h4(a + x, __builtin_convertvector(sleet_yuv_round(1023.0f * al), sleet_yuv_h4), n);
    }
  }
}

#endif
