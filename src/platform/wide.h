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
#include "wide_1.h"
#elif CLOTH_WIDE == 4 && defined(__SSE2__) /* ---------------------------------- */
#include "wide_sse2.h"
#elif CLOTH_WIDE == 4 && defined(__aarch64__) /* -------------------------------- */
#include "wide_neon.h"
#elif CLOTH_WIDE == 8 && defined(__AVX2__) /* ---------------------------------- */
#include "wide_avx2.h"
#elif CLOTH_WIDE == 16 && defined(__AVX512F__) && defined(__AVX512VL__) && defined(__AVX512DQ__) && \
    defined(__AVX512BW__) /* ---------------------------------------------------- */
#include "wide_avx512.h"
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
