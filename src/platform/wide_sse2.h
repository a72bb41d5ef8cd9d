/*
 * The vector layer at four lanes, SSE2 (x86-64): part of platform/wide.h,
 * which says what each operation does and includes this file for its width.
 * Include platform/wide.h, not this file.
 */
#ifndef CLOTHSIM_PLATFORM_WIDE_SSE2_H
#define CLOTHSIM_PLATFORM_WIDE_SSE2_H

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

#endif /* CLOTHSIM_PLATFORM_WIDE_SSE2_H */
