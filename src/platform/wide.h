/*
 * The width-generic vector layer: a float vector `wf` of WIDE_LANES lanes,
 * a mask `wm`, and the operations the kernels use, for one width per
 * translation unit. A kernel is written once over these (the .inl files of src/kernels/) and
 * compiled once per width by src/kernels/wide_<lanes>.c, which defines
 * CLOTH_WIDE before including this header:
 *
 *   CLOTH_WIDE  lanes  instructions                     compiled with
 *   1           1      plain C                          the library's flags
 *   4           4      SSE2 (x86-64) or NEON (AArch64)  the library's flags
 *   8           8      AVX2                             -mavx2
 *   16          16     AVX-512 F, VL, DQ, BW            -mavx512f -mavx512vl ...
 *
 * Same bits at every width: each operation is one IEEE operation per lane
 * (add, sub, mul, div and sqrt are correctly rounded everywhere; nothing is
 * fused, the library is built with -ffp-contract=off), comparisons are the
 * ordered/unordered forms that match C's `<`, `>`, `<=`, `!(a > b)` and `!=`
 * on NaN, a select copies bits, `wf_neg` flips the sign bit as C's unary minus
 * does, `wf_max(a, b)` is C's `a > b ? a : b` and `wf_min(a, b)` its
 * `a < b ? a : b` (x86's maxps, minps; a compare
 * and a select on NEON). `wf_unzip` and `wf_zip` only move floats: they
 * deal 2 WIDE_LANES consecutive floats into the first and second ends of
 * springs (x, x + 1), or with `pairs` (x, x + 2) in groups of four (two
 * lanes and up), and back, in whatever lane order suits the width;
 * `wf_even` (the even floats of lo:hi) and `wf_interleave` (a0 b0 a1 b1
 * ...) keep the order. So a kernel that computes every lane the same
 * way gives the plain C bits at every width; conditions only choose
 * between computed values.
 *
 * Packing moves the lanes a mask picks (bit l for lane l) to the front,
 * in lane order, and unpacking puts them back: `wperm_pack(bits)` and
 * `wperm_unpack(bits)` make the move once for several vectors,
 * `wf_pack_store` writes the picked lanes to p[0 ..) (p must have room for
 * WIDE_LANES floats), `wf_unpack` spreads a packed vector over the picked
 * lanes (0 in the others), `wf_store_bits` stores the lanes of a bit mask,
 * and `wi_nonzero_bits` gives the bits of the first n int32 that are not 0.
 *
 * Records: `wf_gather4` reads the 4-float records rec[4 idx[l] ..] (16-byte
 * aligned) of WIDE_LANES indices and gives their first, second, third and
 * fourth floats as four vectors, lane l from idx[l]; `wf_scatter4_n` writes
 * the first n lanes of four vectors back as records (the indices of those
 * lanes must differ). A particle's (x, y, z, w) is one load instead of
 * four gathers.
 *
 * Names carry the width (WIDE(f) is f_w8 in the AVX2 unit), so the units
 * link into one library and kernels/kernels.h gathers them into tables.
 */
#ifndef CLOTHSIM_PLATFORM_WIDE_H
#define CLOTHSIM_PLATFORM_WIDE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define WIDE_CAT2(a, b) a##_w##b
#define WIDE_CAT(a, b) WIDE_CAT2(a, b)
#define WIDE(name) WIDE_CAT(name, CLOTH_WIDE)
#define WIDE_LANES CLOTH_WIDE

#if defined(__GNUC__) || defined(__clang__)
#define WIDE_INLINE static inline __attribute__((always_inline))
#else
#define WIDE_INLINE static inline
#endif

#if CLOTH_WIDE == 1 /* ------------------------------------------------------ */
#include <math.h>

typedef float wf;
typedef bool wm;

WIDE_INLINE wf wf_set1(float v) { return v; }
WIDE_INLINE wf wf_load(const float *p) { return *p; }
WIDE_INLINE void wf_store(float *p, wf v) { *p = v; }
WIDE_INLINE wf wf_add(wf a, wf b) { return a + b; }
WIDE_INLINE wf wf_sub(wf a, wf b) { return a - b; }
WIDE_INLINE wf wf_mul(wf a, wf b) { return a * b; }
WIDE_INLINE wf wf_div(wf a, wf b) { return a / b; }
WIDE_INLINE wf wf_sqrt(wf a) { return sqrtf(a); }
WIDE_INLINE wf wf_neg(wf a) { return -a; }
WIDE_INLINE wm wm_lt(wf a, wf b) { return a < b; }
WIDE_INLINE wm wm_gt(wf a, wf b) { return a > b; }
WIDE_INLINE wm wm_ngt(wf a, wf b) { return !(a > b); }
WIDE_INLINE wm wm_ne(wf a, wf b) { return a != b; }
WIDE_INLINE wm wm_le(wf a, wf b) { return a <= b; }
WIDE_INLINE wm wm_and(wm a, wm b) { return a && b; }
WIDE_INLINE wm wm_or(wm a, wm b) { return a || b; }
WIDE_INLINE wf wf_sel(wm m, wf a, wf b) { return m ? a : b; }
WIDE_INLINE wf wf_max(wf a, wf b) { return a > b ? a : b; }
WIDE_INLINE wf wf_min(wf a, wf b) { return a < b ? a : b; }
WIDE_INLINE float wf_hmax(wf a) { return a; }
WIDE_INLINE float wf_hmin(wf a) { return a; }
WIDE_INLINE bool wm_any(wm m) { return m; }
WIDE_INLINE bool wm_all(wm m) { return m; }
/* one lane holds one spring (x, x + 1); a pair of springs needs two */
WIDE_INLINE void wf_unzip(bool pairs, wf lo, wf hi, wf *i, wf *j)
{
    (void)pairs;
    *i = lo;
    *j = hi;
}
WIDE_INLINE void wf_zip(bool pairs, wf i, wf j, wf *lo, wf *hi)
{
    (void)pairs;
    *lo = i;
    *hi = j;
}
WIDE_INLINE wf wf_even(wf lo, wf hi)
{
    (void)hi;
    return lo;
}
WIDE_INLINE void wf_interleave(wf a, wf b, wf *lo, wf *hi)
{
    *lo = a;
    *hi = b;
}
WIDE_INLINE uint32_t wm_count(wm m) { return m ? 1u : 0u; }
/* lanes k < n (n >= 1): with one lane, the lane */
WIDE_INLINE wm wm_first(uint32_t n) { return n > 0u; }
/* n is 0 or 1: 0 reads nothing (and gives 0), as the wider masked loads */
WIDE_INLINE wf wf_load_n(const float *p, uint32_t n) { return n > 0u ? *p : 0.0f; }
WIDE_INLINE void wf_store_n(float *p, uint32_t n, wf v)
{
    if (n > 0u) {
        *p = v;
    }
}

/* records of 4 floats (x, y, z, w), record k at rec + 4 k */
WIDE_INLINE void wf_gather4(const float *rec, const uint32_t *idx, wf out[4])
{
    const float *r = rec + 4u * (size_t)idx[0];
    out[0] = r[0];
    out[1] = r[1];
    out[2] = r[2];
    out[3] = r[3];
}
WIDE_INLINE void wf_scatter4_n(float *rec, const uint32_t *idx, const wf in[4], uint32_t n)
{
    if (n == 0u) {
        return;
    }
    float *r = rec + 4u * (size_t)idx[0];
    r[0] = in[0];
    r[1] = in[1];
    r[2] = in[2];
    r[3] = in[3];
}

#elif CLOTH_WIDE == 4 && defined(__SSE2__) /* ---------------------------------- */
#include <emmintrin.h>

typedef __m128 wf;
typedef __m128 wm; /* all ones or all zeros per lane */

WIDE_INLINE wf wf_set1(float v) { return _mm_set1_ps(v); }
WIDE_INLINE wf wf_load(const float *p) { return _mm_loadu_ps(p); }
WIDE_INLINE void wf_store(float *p, wf v) { _mm_storeu_ps(p, v); }
WIDE_INLINE wf wf_add(wf a, wf b) { return _mm_add_ps(a, b); }
WIDE_INLINE wf wf_sub(wf a, wf b) { return _mm_sub_ps(a, b); }
WIDE_INLINE wf wf_mul(wf a, wf b) { return _mm_mul_ps(a, b); }
WIDE_INLINE wf wf_div(wf a, wf b) { return _mm_div_ps(a, b); }
WIDE_INLINE wf wf_sqrt(wf a) { return _mm_sqrt_ps(a); }
WIDE_INLINE wf wf_neg(wf a) { return _mm_xor_ps(a, _mm_set1_ps(-0.0f)); }
WIDE_INLINE wm wm_lt(wf a, wf b) { return _mm_cmplt_ps(a, b); }
WIDE_INLINE wm wm_gt(wf a, wf b) { return _mm_cmpgt_ps(a, b); }
WIDE_INLINE wm wm_ngt(wf a, wf b) { return _mm_cmpngt_ps(a, b); }
WIDE_INLINE wm wm_ne(wf a, wf b) { return _mm_cmpneq_ps(a, b); }
WIDE_INLINE wm wm_le(wf a, wf b) { return _mm_cmple_ps(a, b); }
WIDE_INLINE wm wm_and(wm a, wm b) { return _mm_and_ps(a, b); }
WIDE_INLINE wm wm_or(wm a, wm b) { return _mm_or_ps(a, b); }
WIDE_INLINE wf wf_sel(wm m, wf a, wf b) { return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b)); }
WIDE_INLINE wf wf_max(wf a, wf b) { return _mm_max_ps(a, b); }
WIDE_INLINE wf wf_min(wf a, wf b) { return _mm_min_ps(a, b); }
WIDE_INLINE bool wm_any(wm m) { return _mm_movemask_ps(m) != 0; }
WIDE_INLINE bool wm_all(wm m) { return _mm_movemask_ps(m) == 0xf; }
WIDE_INLINE void wf_unzip(bool pairs, wf lo, wf hi, wf *i, wf *j)
{
    if (pairs) {
        *i = _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(1, 0, 1, 0));
        *j = _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 2, 3, 2));
    } else {
        *i = _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
        *j = _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
    }
}
WIDE_INLINE void wf_zip(bool pairs, wf i, wf j, wf *lo, wf *hi)
{
    if (pairs) {
        *lo = _mm_shuffle_ps(i, j, _MM_SHUFFLE(1, 0, 1, 0));
        *hi = _mm_shuffle_ps(i, j, _MM_SHUFFLE(3, 2, 3, 2));
    } else {
        *lo = _mm_unpacklo_ps(i, j);
        *hi = _mm_unpackhi_ps(i, j);
    }
}
WIDE_INLINE wf wf_even(wf lo, wf hi) { return _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)); }
WIDE_INLINE void wf_interleave(wf a, wf b, wf *lo, wf *hi)
{
    *lo = _mm_unpacklo_ps(a, b);
    *hi = _mm_unpackhi_ps(a, b);
}
WIDE_INLINE uint32_t wm_count(wm m) { return (uint32_t)__builtin_popcount((unsigned)_mm_movemask_ps(m)); }
WIDE_INLINE wm wm_first(uint32_t n)
{
    const __m128i lane = _mm_setr_epi32(0, 1, 2, 3);
    return _mm_castsi128_ps(_mm_cmpgt_epi32(_mm_set1_epi32(n < 4u ? (int)n : 4), lane));
}
/* SSE2 has no masked load or store: the tail goes through a buffer */
WIDE_INLINE wf wf_load_n(const float *p, uint32_t n)
{
    if (n >= 4u) {
        return _mm_loadu_ps(p);
    }
    float t[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    memcpy(t, p, n * sizeof(float));
    return _mm_loadu_ps(t);
}
WIDE_INLINE void wf_store_n(float *p, uint32_t n, wf v)
{
    if (n >= 4u) {
        _mm_storeu_ps(p, v);
        return;
    }
    float t[4];
    _mm_storeu_ps(t, v);
    memcpy(p, t, n * sizeof(float));
}

WIDE_INLINE void wf_gather4(const float *rec, const uint32_t *idx, wf out[4])
{
    __m128 r0 = _mm_load_ps(rec + 4u * (size_t)idx[0]), r1 = _mm_load_ps(rec + 4u * (size_t)idx[1]);
    __m128 r2 = _mm_load_ps(rec + 4u * (size_t)idx[2]), r3 = _mm_load_ps(rec + 4u * (size_t)idx[3]);
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    out[0] = r0;
    out[1] = r1;
    out[2] = r2;
    out[3] = r3;
}
WIDE_INLINE void wf_scatter4_n(float *rec, const uint32_t *idx, const wf in[4], uint32_t n)
{
    __m128 r[4] = {in[0], in[1], in[2], in[3]};
    _MM_TRANSPOSE4_PS(r[0], r[1], r[2], r[3]);
    for (uint32_t l = 0; l < n && l < 4u; ++l) {
        _mm_store_ps(rec + 4u * (size_t)idx[l], r[l]);
    }
}

#elif CLOTH_WIDE == 4 && defined(__aarch64__) /* -------------------------------- */
#include <arm_neon.h>

typedef float32x4_t wf;
typedef uint32x4_t wm;

WIDE_INLINE wf wf_set1(float v) { return vdupq_n_f32(v); }
WIDE_INLINE wf wf_load(const float *p) { return vld1q_f32(p); }
WIDE_INLINE void wf_store(float *p, wf v) { vst1q_f32(p, v); }
WIDE_INLINE wf wf_add(wf a, wf b) { return vaddq_f32(a, b); }
WIDE_INLINE wf wf_sub(wf a, wf b) { return vsubq_f32(a, b); }
WIDE_INLINE wf wf_mul(wf a, wf b) { return vmulq_f32(a, b); }
WIDE_INLINE wf wf_div(wf a, wf b) { return vdivq_f32(a, b); }
WIDE_INLINE wf wf_sqrt(wf a) { return vsqrtq_f32(a); }
WIDE_INLINE wf wf_neg(wf a) { return vnegq_f32(a); }
WIDE_INLINE wm wm_lt(wf a, wf b) { return vcltq_f32(a, b); }
WIDE_INLINE wm wm_gt(wf a, wf b) { return vcgtq_f32(a, b); }
WIDE_INLINE wm wm_ngt(wf a, wf b) { return vmvnq_u32(vcgtq_f32(a, b)); }
WIDE_INLINE wm wm_ne(wf a, wf b) { return vmvnq_u32(vceqq_f32(a, b)); }
WIDE_INLINE wm wm_le(wf a, wf b) { return vcleq_f32(a, b); }
WIDE_INLINE wm wm_and(wm a, wm b) { return vandq_u32(a, b); }
WIDE_INLINE wm wm_or(wm a, wm b) { return vorrq_u32(a, b); }
WIDE_INLINE wf wf_sel(wm m, wf a, wf b) { return vbslq_f32(m, a, b); }
/* vmaxq_f32 answers NaN for a NaN and +0 for (-0, +0): not C's a > b ? a : b */
WIDE_INLINE wf wf_max(wf a, wf b) { return vbslq_f32(vcgtq_f32(a, b), a, b); }
WIDE_INLINE wf wf_min(wf a, wf b) { return vbslq_f32(vcltq_f32(a, b), a, b); }
WIDE_INLINE bool wm_any(wm m) { return vmaxvq_u32(m) != 0u; }
WIDE_INLINE bool wm_all(wm m) { return vminvq_u32(m) != 0u; }
WIDE_INLINE void wf_unzip(bool pairs, wf lo, wf hi, wf *i, wf *j)
{
    if (pairs) {
        *i = vcombine_f32(vget_low_f32(lo), vget_low_f32(hi));
        *j = vcombine_f32(vget_high_f32(lo), vget_high_f32(hi));
    } else {
        *i = vuzp1q_f32(lo, hi);
        *j = vuzp2q_f32(lo, hi);
    }
}
WIDE_INLINE void wf_zip(bool pairs, wf i, wf j, wf *lo, wf *hi)
{
    if (pairs) {
        *lo = vcombine_f32(vget_low_f32(i), vget_low_f32(j));
        *hi = vcombine_f32(vget_high_f32(i), vget_high_f32(j));
    } else {
        *lo = vzip1q_f32(i, j);
        *hi = vzip2q_f32(i, j);
    }
}
WIDE_INLINE wf wf_even(wf lo, wf hi) { return vuzp1q_f32(lo, hi); }
WIDE_INLINE void wf_interleave(wf a, wf b, wf *lo, wf *hi)
{
    *lo = vzip1q_f32(a, b);
    *hi = vzip2q_f32(a, b);
}
WIDE_INLINE uint32_t wm_count(wm m) { return vaddvq_u32(vshrq_n_u32(m, 31)); }
WIDE_INLINE wm wm_first(uint32_t n)
{
    static const uint32_t lane[4] = {0u, 1u, 2u, 3u};
    return vcgtq_u32(vdupq_n_u32(n < 4u ? n : 4u), vld1q_u32(lane));
}
WIDE_INLINE wf wf_load_n(const float *p, uint32_t n)
{
    if (n >= 4u) {
        return vld1q_f32(p);
    }
    float t[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    memcpy(t, p, n * sizeof(float));
    return vld1q_f32(t);
}
WIDE_INLINE void wf_store_n(float *p, uint32_t n, wf v)
{
    if (n >= 4u) {
        vst1q_f32(p, v);
        return;
    }
    float t[4];
    vst1q_f32(t, v);
    memcpy(p, t, n * sizeof(float));
}

/* four rows of four floats to four columns */
WIDE_INLINE void wide_transpose4(wf r[4])
{
    const float32x4x2_t a = vtrnq_f32(r[0], r[1]), b = vtrnq_f32(r[2], r[3]);
    r[0] = vcombine_f32(vget_low_f32(a.val[0]), vget_low_f32(b.val[0]));
    r[1] = vcombine_f32(vget_low_f32(a.val[1]), vget_low_f32(b.val[1]));
    r[2] = vcombine_f32(vget_high_f32(a.val[0]), vget_high_f32(b.val[0]));
    r[3] = vcombine_f32(vget_high_f32(a.val[1]), vget_high_f32(b.val[1]));
}
WIDE_INLINE void wf_gather4(const float *rec, const uint32_t *idx, wf out[4])
{
    for (uint32_t l = 0; l < 4u; ++l) {
        out[l] = vld1q_f32(rec + 4u * (size_t)idx[l]);
    }
    wide_transpose4(out);
}
WIDE_INLINE void wf_scatter4_n(float *rec, const uint32_t *idx, const wf in[4], uint32_t n)
{
    wf r[4] = {in[0], in[1], in[2], in[3]};
    wide_transpose4(r);
    for (uint32_t l = 0; l < n && l < 4u; ++l) {
        vst1q_f32(rec + 4u * (size_t)idx[l], r[l]);
    }
}

#elif CLOTH_WIDE == 8 && defined(__AVX2__) /* ---------------------------------- */
#include <immintrin.h>

typedef __m256 wf;
typedef __m256 wm;

WIDE_INLINE wf wf_set1(float v) { return _mm256_set1_ps(v); }
WIDE_INLINE wf wf_load(const float *p) { return _mm256_loadu_ps(p); }
WIDE_INLINE void wf_store(float *p, wf v) { _mm256_storeu_ps(p, v); }
WIDE_INLINE wf wf_add(wf a, wf b) { return _mm256_add_ps(a, b); }
WIDE_INLINE wf wf_sub(wf a, wf b) { return _mm256_sub_ps(a, b); }
WIDE_INLINE wf wf_mul(wf a, wf b) { return _mm256_mul_ps(a, b); }
WIDE_INLINE wf wf_div(wf a, wf b) { return _mm256_div_ps(a, b); }
WIDE_INLINE wf wf_sqrt(wf a) { return _mm256_sqrt_ps(a); }
WIDE_INLINE wf wf_neg(wf a) { return _mm256_xor_ps(a, _mm256_set1_ps(-0.0f)); }
WIDE_INLINE wm wm_lt(wf a, wf b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
WIDE_INLINE wm wm_gt(wf a, wf b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
WIDE_INLINE wm wm_ngt(wf a, wf b) { return _mm256_cmp_ps(a, b, _CMP_NGT_UQ); }
WIDE_INLINE wm wm_ne(wf a, wf b) { return _mm256_cmp_ps(a, b, _CMP_NEQ_UQ); }
WIDE_INLINE wm wm_le(wf a, wf b) { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
WIDE_INLINE wm wm_and(wm a, wm b) { return _mm256_and_ps(a, b); }
WIDE_INLINE wm wm_or(wm a, wm b) { return _mm256_or_ps(a, b); }
WIDE_INLINE wf wf_sel(wm m, wf a, wf b) { return _mm256_blendv_ps(b, a, m); }
WIDE_INLINE wf wf_max(wf a, wf b) { return _mm256_max_ps(a, b); }
WIDE_INLINE wf wf_min(wf a, wf b) { return _mm256_min_ps(a, b); }
WIDE_INLINE bool wm_any(wm m) { return _mm256_movemask_ps(m) != 0; }
WIDE_INLINE bool wm_all(wm m) { return _mm256_movemask_ps(m) == 0xff; }
/* within each 128-bit half, as the 4-lane ones: lane k of i holds float
 * (0, 2, 8, 10, 4, 6, 12, 14)[k] of lo:hi, or (0, 1, 8, 9, 4, 5, 12, 13)
 * for pairs */
WIDE_INLINE void wf_unzip(bool pairs, wf lo, wf hi, wf *i, wf *j)
{
    if (pairs) {
        *i = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(1, 0, 1, 0));
        *j = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 2, 3, 2));
    } else {
        *i = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
        *j = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
    }
}
WIDE_INLINE void wf_zip(bool pairs, wf i, wf j, wf *lo, wf *hi)
{
    if (pairs) {
        *lo = _mm256_shuffle_ps(i, j, _MM_SHUFFLE(1, 0, 1, 0));
        *hi = _mm256_shuffle_ps(i, j, _MM_SHUFFLE(3, 2, 3, 2));
    } else {
        *lo = _mm256_unpacklo_ps(i, j);
        *hi = _mm256_unpackhi_ps(i, j);
    }
}
/* in order across the halves, unlike wf_unzip and wf_zip */
WIDE_INLINE wf wf_even(wf lo, wf hi)
{
    return _mm256_permutevar8x32_ps(_mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)),
                                    _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7));
}
WIDE_INLINE void wf_interleave(wf a, wf b, wf *lo, wf *hi)
{
    const __m256 l = _mm256_unpacklo_ps(a, b), h = _mm256_unpackhi_ps(a, b);
    *lo = _mm256_permute2f128_ps(l, h, 0x20);
    *hi = _mm256_permute2f128_ps(l, h, 0x31);
}
WIDE_INLINE uint32_t wm_count(wm m) { return (uint32_t)__builtin_popcount((unsigned)_mm256_movemask_ps(m)); }
WIDE_INLINE __m256i wide_lanes8(uint32_t n)
{
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n < 8u ? (int)n : 8), lane);
}
WIDE_INLINE wm wm_first(uint32_t n) { return _mm256_castsi256_ps(wide_lanes8(n)); }
/* vmaskmovps is slow on AMD (a store most of all): a whole vector (n a
 * constant 8 where inlined) takes the plain instruction */
WIDE_INLINE wf wf_load_n(const float *p, uint32_t n)
{
    return n >= 8u ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, wide_lanes8(n));
}
WIDE_INLINE void wf_store_n(float *p, uint32_t n, wf v)
{
    if (n >= 8u) {
        _mm256_storeu_ps(p, v);
    } else {
        _mm256_maskstore_ps(p, wide_lanes8(n), v);
    }
}
/* AVX2 has no compress or expand: a permutation worked out from the lane
 * bits does both (lane `rank` of the packed vector is lane l of the wide
 * one), one nibble per lane */
typedef __m256i wperm;
WIDE_INLINE void wide_perms8(uint32_t bits, __m256i *pack, __m256i *unpack)
{
    uint32_t from = 0u, to = 0u, rank = 0u;
    for (uint32_t b = bits; b != 0u; b &= b - 1u) {
        const uint32_t l = (uint32_t)__builtin_ctz(b);
        from |= l << (4u * rank);
        to |= rank << (4u * l);
        ++rank;
    }
    const __m256i shift = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28), low3 = _mm256_set1_epi32(7);
    *pack = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32((int)from), shift), low3);
    *unpack = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32((int)to), shift), low3);
}
WIDE_INLINE wperm wperm_pack(uint32_t bits)
{
    __m256i pack, unpack;
    wide_perms8(bits, &pack, &unpack);
    return pack;
}
WIDE_INLINE wperm wperm_unpack(uint32_t bits)
{
    __m256i pack, unpack;
    wide_perms8(bits, &pack, &unpack);
    return unpack;
}
WIDE_INLINE void wf_pack_store(float *p, wperm pack, wf v) { _mm256_storeu_ps(p, _mm256_permutevar8x32_ps(v, pack)); }
WIDE_INLINE wf wf_unpack(wperm unpack, wf packed) { return _mm256_permutevar8x32_ps(packed, unpack); }
WIDE_INLINE void wf_store_bits(float *p, uint32_t bits, wf v)
{
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    _mm256_maskstore_ps(p, _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)bits), bit), bit), v);
}
WIDE_INLINE uint32_t wi_nonzero_bits(const int32_t *p, uint32_t n)
{
    const __m256i v = n >= 8u ? _mm256_loadu_si256((const __m256i *)(const void *)p) : _mm256_maskload_epi32(p, wide_lanes8(n));
    const uint32_t zero = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, _mm256_setzero_si256())));
    return ~zero & (n >= 8u ? 0xffu : (1u << n) - 1u);
}

/* four rows of four floats to four columns, in each 128-bit half */
WIDE_INLINE void wide_transpose4(wf r[4])
{
    const wf t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpacklo_ps(r[2], r[3]);
    const wf t2 = _mm256_unpackhi_ps(r[0], r[1]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    r[0] = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0));
    r[1] = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2));
    r[2] = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(1, 0, 1, 0));
    r[3] = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(3, 2, 3, 2));
}
/* row l holds record idx[l] in its low half and idx[l + 4] in its high one */
WIDE_INLINE void wf_gather4(const float *rec, const uint32_t *idx, wf out[4])
{
    for (uint32_t l = 0; l < 4u; ++l) {
        const __m128 lo = _mm_load_ps(rec + 4u * (size_t)idx[l]), hi = _mm_load_ps(rec + 4u * (size_t)idx[l + 4u]);
        out[l] = _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
    }
    wide_transpose4(out);
}
WIDE_INLINE void wf_scatter4_n(float *rec, const uint32_t *idx, const wf in[4], uint32_t n)
{
    wf r[4] = {in[0], in[1], in[2], in[3]};
    wide_transpose4(r);
    for (uint32_t l = 0; l < n && l < 4u; ++l) {
        _mm_store_ps(rec + 4u * (size_t)idx[l], _mm256_castps256_ps128(r[l]));
    }
    for (uint32_t l = 4u; l < n && l < 8u; ++l) {
        _mm_store_ps(rec + 4u * (size_t)idx[l], _mm256_extractf128_ps(r[l - 4u], 1));
    }
}

#elif CLOTH_WIDE == 16 && defined(__AVX512F__) && defined(__AVX512VL__) && defined(__AVX512DQ__) && \
    defined(__AVX512BW__) /* ---------------------------------------------------- */
#include <immintrin.h>

typedef __m512 wf;
typedef __mmask16 wm;

WIDE_INLINE wf wf_set1(float v) { return _mm512_set1_ps(v); }
WIDE_INLINE wf wf_load(const float *p) { return _mm512_loadu_ps(p); }
WIDE_INLINE void wf_store(float *p, wf v) { _mm512_storeu_ps(p, v); }
WIDE_INLINE wf wf_add(wf a, wf b) { return _mm512_add_ps(a, b); }
WIDE_INLINE wf wf_sub(wf a, wf b) { return _mm512_sub_ps(a, b); }
WIDE_INLINE wf wf_mul(wf a, wf b) { return _mm512_mul_ps(a, b); }
WIDE_INLINE wf wf_div(wf a, wf b) { return _mm512_div_ps(a, b); }
WIDE_INLINE wf wf_sqrt(wf a) { return _mm512_sqrt_ps(a); }
WIDE_INLINE wf wf_neg(wf a) { return _mm512_xor_ps(a, _mm512_set1_ps(-0.0f)); }
WIDE_INLINE wm wm_lt(wf a, wf b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
WIDE_INLINE wm wm_gt(wf a, wf b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
WIDE_INLINE wm wm_ngt(wf a, wf b) { return _mm512_cmp_ps_mask(a, b, _CMP_NGT_UQ); }
WIDE_INLINE wm wm_ne(wf a, wf b) { return _mm512_cmp_ps_mask(a, b, _CMP_NEQ_UQ); }
WIDE_INLINE wm wm_le(wf a, wf b) { return _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ); }
WIDE_INLINE wm wm_and(wm a, wm b) { return (wm)(a & b); }
WIDE_INLINE wm wm_or(wm a, wm b) { return (wm)(a | b); }
WIDE_INLINE wf wf_sel(wm m, wf a, wf b) { return _mm512_mask_blend_ps(m, b, a); }
WIDE_INLINE wf wf_max(wf a, wf b) { return _mm512_max_ps(a, b); }
WIDE_INLINE wf wf_min(wf a, wf b) { return _mm512_min_ps(a, b); }
WIDE_INLINE bool wm_any(wm m) { return m != 0; }
WIDE_INLINE bool wm_all(wm m) { return m == 0xffff; }
/* across the two vectors by index: lane k of i holds float 2k of lo:hi
 * (4 (k / 2) + k % 2 for pairs), j the one after it (two after it) */
WIDE_INLINE void wf_unzip(bool pairs, wf lo, wf hi, wf *i, wf *j)
{
    if (pairs) {
        const __m512i first = _mm512_setr_epi32(0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29);
        *i = _mm512_permutex2var_ps(lo, first, hi);
        *j = _mm512_permutex2var_ps(lo, _mm512_add_epi32(first, _mm512_set1_epi32(2)), hi);
    } else {
        const __m512i first = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
        *i = _mm512_permutex2var_ps(lo, first, hi);
        *j = _mm512_permutex2var_ps(lo, _mm512_add_epi32(first, _mm512_set1_epi32(1)), hi);
    }
}
WIDE_INLINE void wf_zip(bool pairs, wf i, wf j, wf *lo, wf *hi)
{
    /* float t came from lane t / 2 of i or j (t odd), or for pairs lane
     * (t / 4) 2 + t % 2 of i (t % 4 < 2) or of j; +16 picks j */
    if (pairs) {
        *lo = _mm512_permutex2var_ps(i, _mm512_setr_epi32(0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23), j);
        *hi = _mm512_permutex2var_ps(i, _mm512_setr_epi32(8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31),
                                     j);
    } else {
        *lo = _mm512_permutex2var_ps(i, _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23), j);
        *hi = _mm512_permutex2var_ps(i, _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31),
                                     j);
    }
}
WIDE_INLINE wf wf_even(wf lo, wf hi)
{
    return _mm512_permutex2var_ps(lo, _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30), hi);
}
WIDE_INLINE void wf_interleave(wf a, wf b, wf *lo, wf *hi)
{
    *lo = _mm512_permutex2var_ps(a, _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23), b);
    *hi = _mm512_permutex2var_ps(a, _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31),
                                 b);
}
WIDE_INLINE uint32_t wm_count(wm m) { return (uint32_t)__builtin_popcount((unsigned)m); }
WIDE_INLINE wm wm_first(uint32_t n) { return (wm)(n >= 16u ? 0xffffu : (1u << n) - 1u); }
WIDE_INLINE wf wf_load_n(const float *p, uint32_t n) { return _mm512_maskz_loadu_ps(wm_first(n), p); }
WIDE_INLINE void wf_store_n(float *p, uint32_t n, wf v) { _mm512_mask_storeu_ps(p, wm_first(n), v); }
typedef __mmask16 wperm; /* compress and expand take the lane bits themselves */
WIDE_INLINE wperm wperm_pack(uint32_t bits) { return (wperm)bits; }
WIDE_INLINE wperm wperm_unpack(uint32_t bits) { return (wperm)bits; }
/* compress, then a plain store: the compressing store is slow on some CPUs */
WIDE_INLINE void wf_pack_store(float *p, wperm pack, wf v) { _mm512_storeu_ps(p, _mm512_maskz_compress_ps(pack, v)); }
WIDE_INLINE wf wf_unpack(wperm unpack, wf packed) { return _mm512_maskz_expand_ps(unpack, packed); }
WIDE_INLINE void wf_store_bits(float *p, uint32_t bits, wf v) { _mm512_mask_storeu_ps(p, (wm)bits, v); }
WIDE_INLINE uint32_t wi_nonzero_bits(const int32_t *p, uint32_t n)
{
    const __m512i v = _mm512_maskz_loadu_epi32(wm_first(n), p);
    return (uint32_t)_mm512_test_epi32_mask(v, v);
}

/* four rows of four floats to four columns, in each 128-bit quarter */
WIDE_INLINE void wide_transpose4(wf r[4])
{
    const wf t0 = _mm512_unpacklo_ps(r[0], r[1]), t1 = _mm512_unpacklo_ps(r[2], r[3]);
    const wf t2 = _mm512_unpackhi_ps(r[0], r[1]), t3 = _mm512_unpackhi_ps(r[2], r[3]);
    r[0] = _mm512_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0));
    r[1] = _mm512_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2));
    r[2] = _mm512_shuffle_ps(t2, t3, _MM_SHUFFLE(1, 0, 1, 0));
    r[3] = _mm512_shuffle_ps(t2, t3, _MM_SHUFFLE(3, 2, 3, 2));
}
/* row l holds record idx[l + 4 q] in its quarter q */
WIDE_INLINE void wf_gather4(const float *rec, const uint32_t *idx, wf out[4])
{
    for (uint32_t l = 0; l < 4u; ++l) {
        wf row = _mm512_castps128_ps512(_mm_load_ps(rec + 4u * (size_t)idx[l]));
        row = _mm512_insertf32x4(row, _mm_load_ps(rec + 4u * (size_t)idx[l + 4u]), 1);
        row = _mm512_insertf32x4(row, _mm_load_ps(rec + 4u * (size_t)idx[l + 8u]), 2);
        out[l] = _mm512_insertf32x4(row, _mm_load_ps(rec + 4u * (size_t)idx[l + 12u]), 3);
    }
    wide_transpose4(out);
}
WIDE_INLINE void wf_scatter4_n(float *rec, const uint32_t *idx, const wf in[4], uint32_t n)
{
    wf r[4] = {in[0], in[1], in[2], in[3]};
    wide_transpose4(r);
    for (uint32_t l = 0; l < n && l < 16u; ++l) {
        const wf row = r[l & 3u];
        __m128 q;
        switch (l >> 2) {
        case 0: q = _mm512_castps512_ps128(row); break;
        case 1: q = _mm512_extractf32x4_ps(row, 1); break;
        case 2: q = _mm512_extractf32x4_ps(row, 2); break;
        default: q = _mm512_extractf32x4_ps(row, 3); break;
        }
        _mm_store_ps(rec + 4u * (size_t)idx[l], q);
    }
}

#else
#error "CLOTH_WIDE: 1, 4 (SSE2 or AArch64 NEON), 8 (-mavx2) or 16 (-mavx512f -mavx512vl -mavx512dq -mavx512bw)"
#endif

#if CLOTH_WIDE <= 4
/* One and four lanes: SSE2 and NEON have no variable permutation of
 * floats, and a group of four is moved as cheaply through the lanes in
 * memory. */
typedef uint32_t wperm;
WIDE_INLINE wperm wperm_pack(uint32_t bits) { return bits; }
WIDE_INLINE wperm wperm_unpack(uint32_t bits) { return bits; }
WIDE_INLINE void wf_pack_store(float *p, wperm pack, wf v)
{
    float lane[WIDE_LANES];
    wf_store(lane, v);
    uint32_t rank = 0u;
    for (uint32_t b = pack; b != 0u; b &= b - 1u) {
        p[rank++] = lane[__builtin_ctz(b)];
    }
}
WIDE_INLINE wf wf_unpack(wperm unpack, wf packed)
{
    float in[WIDE_LANES], out[WIDE_LANES];
    wf_store(in, packed);
    uint32_t rank = 0u;
    for (uint32_t l = 0; l < WIDE_LANES; ++l) {
        out[l] = 0.0f;
        if ((unpack >> l) & 1u) {
            out[l] = in[rank++];
        }
    }
    return wf_load(out);
}
WIDE_INLINE void wf_store_bits(float *p, uint32_t bits, wf v)
{
    float lane[WIDE_LANES];
    wf_store(lane, v);
    for (uint32_t b = bits; b != 0u; b &= b - 1u) {
        const uint32_t l = (uint32_t)__builtin_ctz(b);
        p[l] = lane[l];
    }
}
WIDE_INLINE uint32_t wi_nonzero_bits(const int32_t *p, uint32_t n)
{
    uint32_t bits = 0u;
    for (uint32_t l = 0; l < n && l < WIDE_LANES; ++l) {
        bits |= (uint32_t)(p[l] != 0) << l;
    }
    return bits;
}
#endif

#if CLOTH_WIDE > 1
/* The largest lane, folded in lane order as the plain C loop would
 * (a > b ? a : b); every width gives the same value for lanes that hold no
 * NaN, whatever their order. */
WIDE_INLINE float wf_hmax(wf a)
{
    float lane[WIDE_LANES];
    wf_store(lane, a);
    float top = lane[0];
    for (uint32_t k = 1; k < WIDE_LANES; ++k) {
        top = lane[k] > top ? lane[k] : top;
    }
    return top;
}

/* The smallest lane, folded the same way. */
WIDE_INLINE float wf_hmin(wf a)
{
    float lane[WIDE_LANES];
    wf_store(lane, a);
    float bottom = lane[0];
    for (uint32_t k = 1; k < WIDE_LANES; ++k) {
        bottom = lane[k] < bottom ? lane[k] : bottom;
    }
    return bottom;
}
#endif

/* Floats p .. p + 2 WIDE_LANES - 1 (the first n of them; the rest read as 0)
 * dealt into springs' first and second ends (wf_unzip), and back, writing
 * the first n only. */
WIDE_INLINE void wf_unzip_load_n(bool pairs, const float *p, uint32_t n, wf *i, wf *j)
{
    const uint32_t n_lo = n < WIDE_LANES ? n : WIDE_LANES, n_hi = n > WIDE_LANES ? n - WIDE_LANES : 0u;
    wf_unzip(pairs, wf_load_n(p, n_lo), wf_load_n(p + WIDE_LANES, n_hi), i, j);
}

WIDE_INLINE void wf_zip_store_n(bool pairs, float *p, uint32_t n, wf i, wf j)
{
    const uint32_t n_lo = n < WIDE_LANES ? n : WIDE_LANES, n_hi = n > WIDE_LANES ? n - WIDE_LANES : 0u;
    wf lo, hi;
    wf_zip(pairs, i, j, &lo, &hi);
    wf_store_n(p, n_lo, lo);
    wf_store_n(p + WIDE_LANES, n_hi, hi);
}

/* Where lane k's spring starts among the 2 WIDE_LANES floats wf_unzip deals
 * (0, 1, 2 ... dealt as the floats are: small integers, exact in float),
 * for the lanes of a tail that are in play. */
WIDE_INLINE wf wf_unzip_first(bool pairs)
{
    static const float iota[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                   16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    wf first, second;
    wf_unzip(pairs, wf_load(iota), wf_load(iota + WIDE_LANES), &first, &second);
    return first;
}

#endif /* CLOTHSIM_PLATFORM_WIDE_H */
