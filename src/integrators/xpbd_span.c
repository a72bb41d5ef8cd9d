/*
 * XPBD's spring run in plain C, AVX2 and AVX-512 (see xpbd_span.h). Each
 * spring, with e = xi - xj at the current displacement u and m = ui - uj:
 *
 *   l = |e|,  num = (L0 - l) l - (alpha~ lambda) l - gamma (e.m)
 *   f = num / (((1 + gamma)(wi + wj) + alpha~) l^2)
 *   lambda += f l,  ui += wi f e,  uj -= wj f e
 *
 * which is dl = (-C - alpha~ lambda - gamma n.m) / ((1 + gamma) w + alpha~)
 * along n = e / l with one division for all of it. A spring with both ends
 * held or coincident ends is left alone. The vector paths compute every
 * lane and keep the result only in the lanes in play, so a spring left out
 * changes nothing, as in the plain loop; that and the same operation order
 * per lane give the same bits on every path. How the lanes are filled (runs
 * between rows, one colour of a row's own springs) is described below.
 */
#include "xpbd_span.h"

#include "cloth_internal.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "platform/lanes.h"
#include "platform/target.h"
#include "platform/vec3.h"

static inline bool in_colour(const xpbd_span *s, uint32_t i)
{
    return s->mask_shift == XPBD_SPAN_ALL || (((i - s->row_start) >> s->mask_shift) & 1u) == s->parity;
}

static void span_scalar(const xpbd_span *s)
{
    const float *x = s->x, *y = s->y, *z = s->z, *w = s->w;
    float *ux = s->ux, *uy = s->uy, *uz = s->uz;
    const float rest = s->rest, at = s->alpha_tilde, gamma = s->gamma, opg = s->one_plus_gamma;
    for (uint32_t i = s->begin; i < s->end; ++i) {
        if (!in_colour(s, i)) {
            continue;
        }
        const uint32_t j = i + s->di;
        const float mx = ux[i] - ux[j], my = uy[i] - uy[j], mz = uz[i] - uz[j];
        const float ex = (x[i] - x[j]) + mx, ey = (y[i] - y[j]) + my, ez = (z[i] - z[j]) + mz;
        const float len2 = (ex * ex + ey * ey) + ez * ez;
        const float wsum = w[i] + w[j];
        if (!(wsum > 0.0f) || !(len2 > 0.0f)) {
            continue;
        }
        const float l = sqrtf(len2);
        const float dot = (ex * mx + ey * my) + ez * mz;
        const float lam = s->lambda != NULL ? s->lambda[i] : 0.0f;
        const float num = ((rest - l) * l - (at * lam) * l) - gamma * dot;
        const float f = num / ((opg * wsum + at) * len2);
        if (s->lambda != NULL) {
            s->lambda[i] = lam + f * l;
        }
        const float pi = w[i] * f, pj = w[j] * f;
        ux[i] = ux[i] + pi * ex;
        uy[i] = uy[i] + pi * ey;
        uz[i] = uz[i] + pi * ez;
        ux[j] = ux[j] - pj * ex;
        uy[j] = uy[j] - pj * ey;
        uz[j] = uz[j] - pj * ez;
    }
}

#if CLOTH_TARGET_X86

/*
 * Both vector paths share one shape. A vector holds springs whose ends are
 * loaded into `ends` (i) and `ends` (j); spring_*() solves every lane in
 * play with the plain loop's operations and returns the lanes it moved,
 * having blended the new u and lambda into those lanes only.
 *
 * Runs between rows (dr > 0) are contiguous: lane k is spring i + k. A
 * row's own families (0, 1) and (0, 2) solve one colour at a time, and one
 * colour is every other spring (dc = 1) or every other pair (dc = 2); the
 * row is then read two vectors at a time and the first and second ends are
 * separated with shuffles, so that every lane holds a spring of the colour
 * instead of half of them being masked off. The shuffles are undone before
 * the store. Within a row no other thread runs (blocks of rows belong to
 * one thread at a time, xpbd_grid.c), so the positions of the row that no
 * spring moved are written back unchanged.
 */

typedef struct ends256 {
    __m256 x, y, z, w, ux, uy, uz;
} ends256;

typedef struct consts256 {
    __m256 zero, one, rest, at, gamma, opg;
} consts256;

__attribute__((target("avx2"), always_inline)) static inline void consts256_of(const xpbd_span *s, consts256 *k)
{
    k->zero = _mm256_setzero_ps();
    k->one = _mm256_set1_ps(1.0f);
    k->rest = _mm256_set1_ps(s->rest);
    k->at = _mm256_set1_ps(s->alpha_tilde);
    k->gamma = _mm256_set1_ps(s->gamma);
    k->opg = _mm256_set1_ps(s->one_plus_gamma);
}

__attribute__((target("avx2"), always_inline)) static inline __m256 spring256(const consts256 *k, ends256 *a,
                                                                                 ends256 *b, __m256 *lam,
                                                                                 __m256 live, bool with_lambda)
{
    const __m256 mx = _mm256_sub_ps(a->ux, b->ux), my = _mm256_sub_ps(a->uy, b->uy), mz = _mm256_sub_ps(a->uz, b->uz);
    const __m256 ex = _mm256_add_ps(_mm256_sub_ps(a->x, b->x), mx);
    const __m256 ey = _mm256_add_ps(_mm256_sub_ps(a->y, b->y), my);
    const __m256 ez = _mm256_add_ps(_mm256_sub_ps(a->z, b->z), mz);
    const __m256 len2 = cloth_dot3_256(ex, ey, ez, ex, ey, ez);
    const __m256 wsum = _mm256_add_ps(a->w, b->w);
    const __m256 on = _mm256_and_ps(
        live, _mm256_and_ps(_mm256_cmp_ps(wsum, k->zero, _CMP_GT_OQ), _mm256_cmp_ps(len2, k->zero, _CMP_GT_OQ)));
    const __m256 l = _mm256_sqrt_ps(len2);
    const __m256 dot = cloth_dot3_256(ex, ey, ez, mx, my, mz);
    /* Without lambdas (one iteration) lambda is 0, so (alpha~ lambda) l is
     * +0 and subtracting it changes no bit: it is left out. */
    __m256 c = _mm256_mul_ps(_mm256_sub_ps(k->rest, l), l);
    if (with_lambda) {
        c = _mm256_sub_ps(c, _mm256_mul_ps(_mm256_mul_ps(k->at, *lam), l));
    }
    const __m256 num = _mm256_sub_ps(c, _mm256_mul_ps(k->gamma, dot));
    const __m256 den =
        _mm256_blendv_ps(k->one, _mm256_mul_ps(_mm256_add_ps(_mm256_mul_ps(k->opg, wsum), k->at), len2), on);
    const __m256 f = _mm256_div_ps(num, den);
    if (with_lambda) {
        *lam = _mm256_blendv_ps(*lam, _mm256_add_ps(*lam, _mm256_mul_ps(f, l)), on);
    }
    const __m256 pi = _mm256_mul_ps(a->w, f), pj = _mm256_mul_ps(b->w, f);
    const __m256 nax = _mm256_add_ps(a->ux, _mm256_mul_ps(pi, ex)), nay = _mm256_add_ps(a->uy, _mm256_mul_ps(pi, ey));
    const __m256 naz = _mm256_add_ps(a->uz, _mm256_mul_ps(pi, ez)), nbx = _mm256_sub_ps(b->ux, _mm256_mul_ps(pj, ex));
    const __m256 nby = _mm256_sub_ps(b->uy, _mm256_mul_ps(pj, ey)), nbz = _mm256_sub_ps(b->uz, _mm256_mul_ps(pj, ez));
    /* Every lane in play, the usual case away from pins and run ends: the
     * blends would keep every new value, and they are a tenth of the work */
    if (_mm256_movemask_ps(on) == 0xff) {
        a->ux = nax;
        a->uy = nay;
        a->uz = naz;
        b->ux = nbx;
        b->uy = nby;
        b->uz = nbz;
        return on;
    }
    a->ux = _mm256_blendv_ps(a->ux, nax, on);
    a->uy = _mm256_blendv_ps(a->uy, nay, on);
    a->uz = _mm256_blendv_ps(a->uz, naz, on);
    b->ux = _mm256_blendv_ps(b->ux, nbx, on);
    b->uy = _mm256_blendv_ps(b->uy, nby, on);
    b->uz = _mm256_blendv_ps(b->uz, nbz, on);
    return on;
}

__attribute__((target("avx2"), always_inline)) static inline void load256(const xpbd_span *s, uint32_t at,
                                                                             __m256i mask, bool full, ends256 *e)
{
    e->x = cloth_load8(s->x + at, mask, full);
    e->y = cloth_load8(s->y + at, mask, full);
    e->z = cloth_load8(s->z + at, mask, full);
    e->w = cloth_load8(s->w + at, mask, full);
    e->ux = cloth_load8(s->ux + at, mask, full);
    e->uy = cloth_load8(s->uy + at, mask, full);
    e->uz = cloth_load8(s->uz + at, mask, full);
}

/* The springs i .. i + 7 of a run, those in `live`; `full`: all 8, with
 * plain loads and stores (a constant where inlined, as in the callers). */
__attribute__((target("avx2"), always_inline)) static inline void run8(const xpbd_span *s, const consts256 *k,
                                                                         uint32_t i, __m256i live, bool full,
                                                                         bool with_lambda)
{
    const uint32_t j = i + s->di;
    ends256 a, b;
    load256(s, i, live, full, &a);
    load256(s, j, live, full, &b);
    __m256 lam = with_lambda ? cloth_load8(s->lambda + i, live, full) : k->zero;
    const __m256i on = _mm256_castps_si256(spring256(k, &a, &b, &lam, _mm256_castsi256_ps(live), with_lambda));
    if (with_lambda) {
        cloth_store8(s->lambda + i, on, full, lam);
    }
    cloth_store8(s->ux + i, on, full, a.ux);
    cloth_store8(s->uy + i, on, full, a.uy);
    cloth_store8(s->uz + i, on, full, a.uz);
    cloth_store8(s->ux + j, on, full, b.ux);
    cloth_store8(s->uy + j, on, full, b.uy);
    cloth_store8(s->uz + j, on, full, b.uz);
}

/* Whole vectors, then the masked last one: with `full` a constant in
 * each loop the compiler drops the test from every load and store. */
__attribute__((target("avx2"), always_inline)) static inline void run_avx2(const xpbd_span *s, bool with_lambda)
{
    consts256 k;
    consts256_of(s, &k);
    uint32_t i = s->begin;
    for (; s->end - i >= 8u; i += 8u) {
        run8(s, &k, i, _mm256_set1_epi32(-1), true, with_lambda);
    }
    if (i < s->end) {
        run8(s, &k, i, cloth_lanes8(s->end - i), false, with_lambda);
    }
}

/* Split the 16 floats at p (lo, hi) into first ends (i) and second ends (j)
 * of one colour, and join them back. dc = 1: pairs (0 1) (2 3) ...; dc = 2:
 * groups (0 1 | 2 3) (4 5 | 6 7) ... of two springs each. _mm256_shuffle_ps
 * works within each 128-bit half, so lane k of i is the spring starting at
 * offset k_off[k] below. */
#define SPLIT1_I 0x88 /* (2, 0, 2, 0) */
#define SPLIT1_J 0xdd /* (3, 1, 3, 1) */
#define SPLIT2_I 0x44 /* (1, 0, 1, 0) */
#define SPLIT2_J 0xee /* (3, 2, 3, 2) */

__attribute__((target("avx2"), always_inline)) static inline void split256(bool pairs, __m256 lo, __m256 hi,
                                                                              __m256 *i, __m256 *j)
{
    if (pairs) {
        *i = _mm256_shuffle_ps(lo, hi, SPLIT2_I);
        *j = _mm256_shuffle_ps(lo, hi, SPLIT2_J);
    } else {
        *i = _mm256_shuffle_ps(lo, hi, SPLIT1_I);
        *j = _mm256_shuffle_ps(lo, hi, SPLIT1_J);
    }
}

__attribute__((target("avx2"), always_inline)) static inline void join256(bool pairs, __m256 i, __m256 j,
                                                                             __m256 *lo, __m256 *hi)
{
    if (pairs) {
        *lo = _mm256_shuffle_ps(i, j, SPLIT2_I);
        *hi = _mm256_shuffle_ps(i, j, SPLIT2_J);
    } else {
        *lo = _mm256_unpacklo_ps(i, j);
        *hi = _mm256_unpackhi_ps(i, j);
    }
}

/* One array's 16 floats at p split into the i and j vectors. */
__attribute__((target("avx2"), always_inline)) static inline void split_load256(bool pairs, const float *p,
                                                                                   __m256i mlo, __m256i mhi,
                                                                                   bool full, __m256 *i, __m256 *j)
{
    split256(pairs, cloth_load8(p, mlo, full), cloth_load8(p + 8, mhi, full), i, j);
}

__attribute__((target("avx2"), always_inline)) static inline void join_store256(bool pairs, float *p, __m256i mlo,
                                                                                   __m256i mhi, bool full, __m256 i,
                                                                                   __m256 j)
{
    __m256 lo, hi;
    join256(pairs, i, j, &lo, &hi);
    cloth_store8(p, mlo, full, lo);
    cloth_store8(p + 8, mhi, full, hi);
}

/* The 16 floats at p (those in mlo, mhi) as 8 springs of one colour,
 * those in `live`; `full` and `pairs` are constants where inlined. */
__attribute__((target("avx2"), always_inline)) static inline void row16(const xpbd_span *s, const consts256 *k,
                                                                          bool pairs, uint32_t p, __m256i mlo,
                                                                          __m256i mhi, __m256i live, bool full,
                                                                          bool with_lambda)
{
    ends256 a, b;
    split_load256(pairs, s->x + p, mlo, mhi, full, &a.x, &b.x);
    split_load256(pairs, s->y + p, mlo, mhi, full, &a.y, &b.y);
    split_load256(pairs, s->z + p, mlo, mhi, full, &a.z, &b.z);
    split_load256(pairs, s->w + p, mlo, mhi, full, &a.w, &b.w);
    split_load256(pairs, s->ux + p, mlo, mhi, full, &a.ux, &b.ux);
    split_load256(pairs, s->uy + p, mlo, mhi, full, &a.uy, &b.uy);
    split_load256(pairs, s->uz + p, mlo, mhi, full, &a.uz, &b.uz);
    __m256 lam = k->zero, lam_j = k->zero;
    if (with_lambda) {
        split_load256(pairs, s->lambda + p, mlo, mhi, full, &lam, &lam_j);
    }
    (void)spring256(k, &a, &b, &lam, _mm256_castsi256_ps(live), with_lambda);
    if (with_lambda) {
        join_store256(pairs, s->lambda + p, mlo, mhi, full, lam, lam_j);
    }
    join_store256(pairs, s->ux + p, mlo, mhi, full, a.ux, b.ux);
    join_store256(pairs, s->uy + p, mlo, mhi, full, a.uy, b.uy);
    join_store256(pairs, s->uz + p, mlo, mhi, full, a.uz, b.uz);
}

__attribute__((target("avx2"), always_inline)) static inline void row_avx2(const xpbd_span *s, bool pairs,
                                                                             bool with_lambda)
{
    /* first end of each lane's spring, from the start of the 16 floats */
    const __m256i first = pairs ? _mm256_setr_epi32(0, 1, 8, 9, 4, 5, 12, 13)
                                : _mm256_setr_epi32(0, 2, 8, 10, 4, 6, 12, 14);
    consts256 k;
    consts256_of(s, &k);
    /* the colour's first spring, then 16 floats (8 springs) per step */
    const uint32_t start = s->row_start + (pairs ? 2u * s->parity : s->parity);
    const uint32_t stop = s->end + s->di; /* one past the last second end */
    uint32_t p = start;
    /* 16 floats wholly in the row hold 8 springs of the colour, all in play */
    const __m256i all = _mm256_set1_epi32(-1);
    for (; p < s->end && stop - p >= 16u; p += 16u) {
        row16(s, &k, pairs, p, all, all, all, true, with_lambda);
    }
    if (p < s->end) {
        const uint32_t room = stop - p;
        const __m256i live =
            _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(s->end - p)), first); /* p + first < end */
        row16(s, &k, pairs, p, cloth_lanes8(room), cloth_lanes8(room > 8u ? room - 8u : 0u), live, false,
              with_lambda);
    }
}

/* Runs between rows and the two kinds of row colour (dc = 1, 2), each
 * built with and without lambdas, so that the tests are made once per run
 * rather than per vector. */
__attribute__((target("avx2"))) static void span_avx2(const xpbd_span *run)
{
    /* A copy whose address never leaves: the kernel's float stores cannot
     * reach it, so its pointers stay in registers instead of being read
     * again after every store. */
    const xpbd_span copy = *run;
    const xpbd_span *s = &copy;
    const bool lambda = s->lambda != NULL;
    if (s->mask_shift == XPBD_SPAN_ALL) {
        if (lambda) {
            run_avx2(s, true);
        } else {
            run_avx2(s, false);
        }
    } else if (s->mask_shift == 1u) { /* pairs: (0, 2) */
        if (lambda) {
            row_avx2(s, true, true);
        } else {
            row_avx2(s, true, false);
        }
    } else if (lambda) {
        row_avx2(s, false, true);
    } else {
        row_avx2(s, false, false);
    }
}

typedef struct ends512 {
    __m512 x, y, z, w, ux, uy, uz;
} ends512;

typedef struct consts512 {
    __m512 zero, one, rest, at, gamma, opg;
} consts512;

__attribute__((target("avx512f"), always_inline)) static inline void consts512_of(const xpbd_span *s, consts512 *k)
{
    k->zero = _mm512_setzero_ps();
    k->one = _mm512_set1_ps(1.0f);
    k->rest = _mm512_set1_ps(s->rest);
    k->at = _mm512_set1_ps(s->alpha_tilde);
    k->gamma = _mm512_set1_ps(s->gamma);
    k->opg = _mm512_set1_ps(s->one_plus_gamma);
}

__attribute__((target("avx512f"), always_inline)) static inline __mmask16 spring512(const consts512 *k, ends512 *a,
                                                                                     ends512 *b, __m512 *lam,
                                                                                     __mmask16 live, bool with_lambda)
{
    const __m512 mx = _mm512_sub_ps(a->ux, b->ux), my = _mm512_sub_ps(a->uy, b->uy), mz = _mm512_sub_ps(a->uz, b->uz);
    const __m512 ex = _mm512_add_ps(_mm512_sub_ps(a->x, b->x), mx);
    const __m512 ey = _mm512_add_ps(_mm512_sub_ps(a->y, b->y), my);
    const __m512 ez = _mm512_add_ps(_mm512_sub_ps(a->z, b->z), mz);
    const __m512 len2 = cloth_dot3_512(ex, ey, ez, ex, ey, ez);
    const __m512 wsum = _mm512_add_ps(a->w, b->w);
    __mmask16 on = _mm512_mask_cmp_ps_mask(live, wsum, k->zero, _CMP_GT_OQ);
    on = _mm512_mask_cmp_ps_mask(on, len2, k->zero, _CMP_GT_OQ);
    const __m512 l = _mm512_sqrt_ps(len2);
    const __m512 dot = cloth_dot3_512(ex, ey, ez, mx, my, mz);
    __m512 c = _mm512_mul_ps(_mm512_sub_ps(k->rest, l), l);
    if (with_lambda) { /* as in spring256 */
        c = _mm512_sub_ps(c, _mm512_mul_ps(_mm512_mul_ps(k->at, *lam), l));
    }
    const __m512 num = _mm512_sub_ps(c, _mm512_mul_ps(k->gamma, dot));
    const __m512 den =
        _mm512_mask_blend_ps(on, k->one, _mm512_mul_ps(_mm512_add_ps(_mm512_mul_ps(k->opg, wsum), k->at), len2));
    const __m512 f = _mm512_div_ps(num, den);
    if (with_lambda) {
        *lam = _mm512_mask_add_ps(*lam, on, *lam, _mm512_mul_ps(f, l));
    }
    const __m512 pi = _mm512_mul_ps(a->w, f), pj = _mm512_mul_ps(b->w, f);
    a->ux = _mm512_mask_add_ps(a->ux, on, a->ux, _mm512_mul_ps(pi, ex));
    a->uy = _mm512_mask_add_ps(a->uy, on, a->uy, _mm512_mul_ps(pi, ey));
    a->uz = _mm512_mask_add_ps(a->uz, on, a->uz, _mm512_mul_ps(pi, ez));
    b->ux = _mm512_mask_sub_ps(b->ux, on, b->ux, _mm512_mul_ps(pj, ex));
    b->uy = _mm512_mask_sub_ps(b->uy, on, b->uy, _mm512_mul_ps(pj, ey));
    b->uz = _mm512_mask_sub_ps(b->uz, on, b->uz, _mm512_mul_ps(pj, ez));
    return on;
}

__attribute__((target("avx512f"), always_inline)) static inline void load512(const xpbd_span *s, uint32_t at,
                                                                                __mmask16 mask, ends512 *e)
{
    e->x = _mm512_maskz_loadu_ps(mask, s->x + at);
    e->y = _mm512_maskz_loadu_ps(mask, s->y + at);
    e->z = _mm512_maskz_loadu_ps(mask, s->z + at);
    e->w = _mm512_maskz_loadu_ps(mask, s->w + at);
    e->ux = _mm512_maskz_loadu_ps(mask, s->ux + at);
    e->uy = _mm512_maskz_loadu_ps(mask, s->uy + at);
    e->uz = _mm512_maskz_loadu_ps(mask, s->uz + at);
}

/* The springs i .. i + 15 of a run, those in `live`. */
__attribute__((target("avx512f"), always_inline)) static inline void run16(const xpbd_span *s, const consts512 *k,
                                                                              uint32_t i, __mmask16 live,
                                                                              bool with_lambda)
{
    const uint32_t j = i + s->di;
    ends512 a, b;
    load512(s, i, live, &a);
    load512(s, j, live, &b);
    __m512 lam = with_lambda ? _mm512_maskz_loadu_ps(live, s->lambda + i) : k->zero;
    const __mmask16 on = spring512(k, &a, &b, &lam, live, with_lambda);
    if (with_lambda) {
        _mm512_mask_storeu_ps(s->lambda + i, on, lam);
    }
    _mm512_mask_storeu_ps(s->ux + i, on, a.ux);
    _mm512_mask_storeu_ps(s->uy + i, on, a.uy);
    _mm512_mask_storeu_ps(s->uz + i, on, a.uz);
    _mm512_mask_storeu_ps(s->ux + j, on, b.ux);
    _mm512_mask_storeu_ps(s->uy + j, on, b.uy);
    _mm512_mask_storeu_ps(s->uz + j, on, b.uz);
}

/* Whole vectors with a constant mask, which the compiler turns into plain
 * loads, then the run's last few springs. */
__attribute__((target("avx512f"), always_inline)) static inline void run_avx512(const xpbd_span *s, bool with_lambda)
{
    consts512 k;
    consts512_of(s, &k);
    uint32_t i = s->begin;
    for (; s->end - i >= 16u; i += 16u) {
        run16(s, &k, i, 0xffffu, with_lambda);
    }
    if (i < s->end) {
        run16(s, &k, i, cloth_lanes16(s->end - i), with_lambda);
    }
}

/* 32 floats at p (two vectors) split into i and j by index vectors over
 * their concatenation, and joined back by the inverse indices. */
typedef struct split512 {
    __m512i i, j, lo, hi; /* gather i, gather j; rebuild the low and high 16 */
} split512;

__attribute__((target("avx512f"), always_inline)) static inline void split_load512(const split512 *sp, const float *p,
                                                                                    __mmask16 mlo, __mmask16 mhi,
                                                                                    __m512 *i, __m512 *j)
{
    const __m512 lo = _mm512_maskz_loadu_ps(mlo, p), hi = _mm512_maskz_loadu_ps(mhi, p + 16);
    *i = _mm512_permutex2var_ps(lo, sp->i, hi);
    *j = _mm512_permutex2var_ps(lo, sp->j, hi);
}

__attribute__((target("avx512f"), always_inline)) static inline void join_store512(const split512 *sp, float *p,
                                                                                    __mmask16 mlo, __mmask16 mhi,
                                                                                    __m512 i, __m512 j)
{
    _mm512_mask_storeu_ps(p, mlo, _mm512_permutex2var_ps(i, sp->lo, j));
    _mm512_mask_storeu_ps(p + 16, mhi, _mm512_permutex2var_ps(i, sp->hi, j));
}

/* The 32 floats at p (those in mlo, mhi) as 16 springs of one colour,
 * those in `live`. */
__attribute__((target("avx512f"), always_inline)) static inline void row32(const xpbd_span *s, const consts512 *k,
                                                                              const split512 *sp, uint32_t p,
                                                                              __mmask16 mlo, __mmask16 mhi,
                                                                              __mmask16 live, bool with_lambda)
{
    ends512 a, b;
    split_load512(sp, s->x + p, mlo, mhi, &a.x, &b.x);
    split_load512(sp, s->y + p, mlo, mhi, &a.y, &b.y);
    split_load512(sp, s->z + p, mlo, mhi, &a.z, &b.z);
    split_load512(sp, s->w + p, mlo, mhi, &a.w, &b.w);
    split_load512(sp, s->ux + p, mlo, mhi, &a.ux, &b.ux);
    split_load512(sp, s->uy + p, mlo, mhi, &a.uy, &b.uy);
    split_load512(sp, s->uz + p, mlo, mhi, &a.uz, &b.uz);
    __m512 lam = k->zero, lam_j = k->zero;
    if (with_lambda) {
        split_load512(sp, s->lambda + p, mlo, mhi, &lam, &lam_j);
    }
    (void)spring512(k, &a, &b, &lam, live, with_lambda);
    if (with_lambda) {
        join_store512(sp, s->lambda + p, mlo, mhi, lam, lam_j);
    }
    join_store512(sp, s->ux + p, mlo, mhi, a.ux, b.ux);
    join_store512(sp, s->uy + p, mlo, mhi, a.uy, b.uy);
    join_store512(sp, s->uz + p, mlo, mhi, a.uz, b.uz);
}

__attribute__((target("avx512f"), always_inline)) static inline void row_avx512(const xpbd_span *s, bool with_lambda)
{
    const bool pairs = s->mask_shift == 1u;
    split512 sp;
    __m512i first; /* first end of each lane's spring, from p */
    if (pairs) {   /* springs (4g + e, 4g + e + 2), e = 0, 1 */
        first = _mm512_setr_epi32(0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29);
        sp.i = first;
        sp.j = _mm512_add_epi32(first, _mm512_set1_epi32(2));
        /* float t of the 32 came from lane (t / 4) * 2 + t % 2 of i (t % 4 < 2) or of j (index + 16) */
        sp.lo = _mm512_setr_epi32(0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
        sp.hi = _mm512_setr_epi32(8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
    } else { /* springs (2m, 2m + 1) */
        first = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
        sp.i = first;
        sp.j = _mm512_add_epi32(first, _mm512_set1_epi32(1));
        sp.lo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
        sp.hi = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    }
    consts512 k;
    consts512_of(s, &k);
    const uint32_t start = s->row_start + (pairs ? 2u * s->parity : s->parity);
    const uint32_t stop = s->end + s->di; /* one past the last second end */
    uint32_t p = start;
    /* 32 floats wholly in the row hold 16 springs of the colour, all in
     * play: constant masks, which the compiler turns into plain loads */
    for (; p < s->end && stop - p >= 32u; p += 32u) {
        row32(s, &k, &sp, p, 0xffffu, 0xffffu, 0xffffu, with_lambda);
    }
    if (p < s->end) {
        const uint32_t room = stop - p;
        const __mmask16 mlo = cloth_lanes16(room);
        const __mmask16 mhi = cloth_lanes16(room > 16u ? room - 16u : 0u);
        const __m512i at = _mm512_add_epi32(_mm512_set1_epi32((int)(p - s->row_start)), first);
        const __mmask16 live = _mm512_cmplt_epi32_mask(at, _mm512_set1_epi32((int)(s->end - s->row_start)));
        row32(s, &k, &sp, p, mlo, mhi, live, with_lambda);
    }
}

/* The two kinds of run, each built with and without lambdas, so that the
 * test is made once per run rather than per vector. */
__attribute__((target("avx512f"))) static void span_avx512(const xpbd_span *run)
{
    const xpbd_span copy = *run; /* as in span_avx2 */
    const xpbd_span *s = &copy;
    const bool lambda = s->lambda != NULL;
    if (s->mask_shift == XPBD_SPAN_ALL) {
        if (lambda) {
            run_avx512(s, true);
        } else {
            run_avx512(s, false);
        }
    } else if (lambda) {
        row_avx512(s, true);
    } else {
        row_avx512(s, false);
    }
}

#endif /* CLOTH_TARGET_X86 */

xpbd_span_fn *cloth_xpbd_span_kernel(cloth_simd level)
{
#if CLOTH_TARGET_X86
    switch (level) {
    case CLOTH_SIMD_AVX512:
        return span_avx512;
    case CLOTH_SIMD_AVX2:
        return span_avx2;
    case CLOTH_SIMD_LANES4:
    case CLOTH_SIMD_SCALAR:
        break;
    }
#else
    (void)level;
#endif
    return span_scalar;
}
