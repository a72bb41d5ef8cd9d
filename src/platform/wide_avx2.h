/*
 * The vector layer at eight lanes, AVX2: part of platform/wide.h, which says
 * what each operation does and includes this file for its width. Include
 * platform/wide.h, not this file.
 */
#ifndef CLOTHSIM_PLATFORM_WIDE_AVX2_H
#define CLOTHSIM_PLATFORM_WIDE_AVX2_H

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
/* vmaskmovps is slow on AMD, a store most of all, and a load of what it
 * stored waits for it: a whole vector (n a constant 8 where inlined) takes
 * the plain instruction, and a part of one is stored lane by lane from a
 * buffer. A masked load is kept: copying lane by lane into a buffer and
 * loading that measured slower. */
WIDE_INLINE wf wf_load_n(const float *p, uint32_t n)
{
    return n >= 8u ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, wide_lanes8(n));
}
WIDE_INLINE void wf_store_n(float *p, uint32_t n, wf v)
{
    if (n >= 8u) {
        _mm256_storeu_ps(p, v);
    } else {
        float lane[8];
        _mm256_storeu_ps(lane, v);
        for (uint32_t k = 0; k < n; ++k) {
            p[k] = lane[k];
        }
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

#endif /* CLOTHSIM_PLATFORM_WIDE_AVX2_H */
