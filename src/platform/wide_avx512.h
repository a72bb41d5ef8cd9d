/*
 * The vector layer at sixteen lanes, AVX-512 F, VL, DQ, BW: part of
 * platform/wide.h, which says what each operation does and includes this
 * file for its width. Include platform/wide.h, not this file.
 */
#ifndef CLOTHSIM_PLATFORM_WIDE_AVX512_H
#define CLOTHSIM_PLATFORM_WIDE_AVX512_H

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

#endif /* CLOTHSIM_PLATFORM_WIDE_AVX512_H */
