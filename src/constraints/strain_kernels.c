/*
 * The strain limit's loops over runs of springs (strain_kernels.h): plain C,
 * and AVX2 and AVX-512 copies picked at run time that give its bits.
 */
#include "strain_kernels.h"

#include "platform/lanes.h"
#include "platform/target.h"
#include "platform/vec3.h"

/* Shorten spring (i, j) to `lim` if it is longer (lim2 = lim * lim). */
static inline void shorten(const limit_ctx *c, uint32_t i, uint32_t j, float lim, float lim2)
{
    const float dx = c->x[j] - c->x[i], dy = c->y[j] - c->y[i], dz = c->z[j] - c->z[i];
    const float len2 = dx * dx + dy * dy + dz * dz;
    const float wi = c->w[i], wj = c->w[j], wsum = wi + wj;
    if (!(len2 > lim2) || wsum == 0.0f) {
        return; /* within the limit (or NaN, which the step's check catches), or two pins */
    }
    const float len = sqrtf(len2);
    const float k = (len - lim) / (len * wsum);
    const float ix = wi * k * dx, iy = wi * k * dy, iz = wi * k * dz;
    const float jx = wj * k * dx, jy = wj * k * dy, jz = wj * k * dz;
    c->x[i] += ix;
    c->y[i] += iy;
    c->z[i] += iz;
    c->x[j] -= jx;
    c->y[j] -= jy;
    c->z[j] -= jz;
    if (c->vx == NULL) {
        return;
    }
    /* as if the move had been made over the step: momentum is kept */
    c->vx[i] += ix * c->inv_dt;
    c->vy[i] += iy * c->inv_dt;
    c->vz[i] += iz * c->inv_dt;
    c->vx[j] -= jx * c->inv_dt;
    c->vy[j] -= jy * c->inv_dt;
    c->vz[j] -= jz * c->inv_dt;
}

/* The springs (p, p + di), p in [begin, end), in order: every one
 * (stride 1), or those with p - begin of one parity (stride 2). */
static void plain_loop(const limit_ctx *c, uint32_t begin, uint32_t end, uint32_t di, float lim, float lim2,
                       uint32_t stride, uint32_t colour)
{
    for (uint32_t p = begin; p < end; ++p) {
        if (stride == 1u || ((p - begin) & 1u) == colour) {
            shorten(c, p, p + di, lim, lim2);
        }
    }
}

static void run_plain(const limit_ctx *c, uint32_t begin, uint32_t end, uint32_t di, float lim, float lim2)
{
    plain_loop(c, begin, end, di, lim, lim2, 1u, 0u);
}

#if CLOTH_TARGET_X86
/* The vector paths compute what shorten() does, operation for operation
 * (no contraction: -ffp-contract=off), so they give its bits. The springs
 * in play in one vector share no particle: across rows a spring's ends lie
 * in two rows, and along a row the loops take one colour at a time and
 * split the row into first and second ends (along_avx2(), along_avx512()).
 * So a vector's springs are shortened at once, each lane as shorten()
 * would, and the lanes out of play or within the limit are left as they
 * were. */
/* What shorten() moves 8 springs by: the first ends + ki d, the second
 * ends - kj d, in the lanes m. */
typedef struct moves8 {
    __m256 ki, kj, m;
} moves8;

/* The moves of the lanes in play that are over the limit, as shorten()
 * computes them; false if none is. */
__attribute__((target("avx2"), always_inline)) static inline bool moves_of8(__m256 len2, __m256 wi, __m256 wj,
                                                                            __m256 play, __m256 l, __m256 l2,
                                                                            moves8 *mv)
{
    __m256 m = _mm256_and_ps(play, _mm256_cmp_ps(len2, l2, _CMP_GT_OQ));
    if (_mm256_movemask_ps(m) == 0) {
        return false;
    }
    const __m256 wsum = _mm256_add_ps(wi, wj);
    mv->m = _mm256_and_ps(m, _mm256_cmp_ps(wsum, _mm256_setzero_ps(), _CMP_NEQ_UQ));
    const __m256 len = _mm256_sqrt_ps(len2);
    const __m256 k = _mm256_div_ps(_mm256_sub_ps(len, l), _mm256_mul_ps(len, wsum));
    mv->ki = _mm256_mul_ps(wi, k);
    mv->kj = _mm256_mul_ps(wj, k);
    return true;
}

/* What the AVX2 loops hold for a whole run. */
typedef struct limit256 {
    __m256 l, l2, inv_dt;
} limit256;

/* The springs (i, i + di) of a run across rows for i = p .. p + 7, those
 * in `live`; `full`: all 8, with plain loads and stores (a constant where
 * inlined: run_avx2 has a loop for whole vectors and one masked last). */
__attribute__((target("avx2"), always_inline)) static inline void across8(const limit_ctx *c, const limit256 *k,
                                                                            uint32_t p, uint32_t di, __m256i live,
                                                                            bool full)
{
    const uint32_t q = p + di;
    float *const pos[3] = {c->x, c->y, c->z}, *const vel[3] = {c->vx, c->vy, c->vz};
    __m256 xi[3], xj[3], d[3];
    for (int a = 0; a < 3; ++a) {
        xi[a] = cloth_load8(pos[a] + p, live, full);
        xj[a] = cloth_load8(pos[a] + q, live, full);
        d[a] = _mm256_sub_ps(xj[a], xi[a]);
    }
    const __m256 len2 = cloth_dot3_256(d[0], d[1], d[2], d[0], d[1], d[2]);
    const __m256 wi = cloth_load8(c->w + p, live, full), wj = cloth_load8(c->w + q, live, full);
    moves8 mv;
    if (!moves_of8(len2, wi, wj, _mm256_castsi256_ps(live), k->l, k->l2, &mv)) {
        return;
    }
    for (int a = 0; a < 3; ++a) {
        const __m256 mi = _mm256_mul_ps(mv.ki, d[a]), mj = _mm256_mul_ps(mv.kj, d[a]);
        cloth_store8(pos[a] + p, live, full, _mm256_blendv_ps(xi[a], _mm256_add_ps(xi[a], mi), mv.m));
        cloth_store8(pos[a] + q, live, full, _mm256_blendv_ps(xj[a], _mm256_sub_ps(xj[a], mj), mv.m));
        if (vel[a] != NULL) {
            const __m256 vi = cloth_load8(vel[a] + p, live, full), vj = cloth_load8(vel[a] + q, live, full);
            const __m256 ni = _mm256_add_ps(vi, _mm256_mul_ps(mi, k->inv_dt));
            const __m256 nj = _mm256_sub_ps(vj, _mm256_mul_ps(mj, k->inv_dt));
            cloth_store8(vel[a] + p, live, full, _mm256_blendv_ps(vi, ni, mv.m));
            cloth_store8(vel[a] + q, live, full, _mm256_blendv_ps(vj, nj, mv.m));
        }
    }
}

__attribute__((target("avx2"))) static void run_avx2(const limit_ctx *ctx, uint32_t begin, uint32_t end, uint32_t di,
                                                     float lim, float lim2)
{
    /* A copy whose address never leaves: the stores cannot reach it, so
     * its pointers stay in registers rather than being read again after
     * every store (as in kernels/xpbd_span.inl). */
    const limit_ctx copy = *ctx;
    const limit_ctx *c = &copy;
    const limit256 k = {_mm256_set1_ps(lim), _mm256_set1_ps(lim2), _mm256_set1_ps(c->inv_dt)};
    uint32_t p = begin;
    for (; end - p >= 8u; p += 8u) {
        across8(c, &k, p, di, _mm256_set1_epi32(-1), true);
    }
    if (p < end) {
        across8(c, &k, p, di, cloth_lanes8(end - p), false);
    }
}

/* Along a row in AVX2, 8 springs of one colour at a time: the 16 particles
 * from w (w - begin = colour mod 2) hold springs (w + 2m, w + 2m + 1),
 * split into first and second ends by in-lane shuffles (lane k of the split
 * holds the spring at w + off[k], off = 0 2 8 10 4 6 12 14) and joined back
 * for the store, as along_avx512() does with 16. Masking every other lane
 * of a stride-1 vector instead did half the work per vector, and its loads
 * of the second ends read what the store before them had just written in
 * part, which the CPU cannot forward and waits for. */
__attribute__((target("avx2"), always_inline)) static inline void split8(const float *p, __m256i mlo, __m256i mhi,
                                                                           bool full, __m256 *i, __m256 *j)
{
    const __m256 lo = cloth_load8(p, mlo, full), hi = cloth_load8(p + 8, mhi, full);
    *i = _mm256_shuffle_ps(lo, hi, 0x88); /* (2, 0, 2, 0) in each half */
    *j = _mm256_shuffle_ps(lo, hi, 0xdd); /* (3, 1, 3, 1) */
}

__attribute__((target("avx2"), always_inline)) static inline void join8(float *p, __m256i mlo, __m256i mhi, bool full,
                                                                          __m256 i, __m256 j)
{
    cloth_store8(p, mlo, full, _mm256_unpacklo_ps(i, j));
    cloth_store8(p + 8, mhi, full, _mm256_unpackhi_ps(i, j));
}

__attribute__((target("avx2"), always_inline)) static inline void along16(const limit_ctx *c, const limit256 *k,
                                                                            uint32_t w, __m256i mlo, __m256i mhi,
                                                                            __m256i live, bool full)
{
    float *const pos[3] = {c->x, c->y, c->z}, *const vel[3] = {c->vx, c->vy, c->vz};
    __m256 xi[3], xj[3], d[3];
    for (int a = 0; a < 3; ++a) {
        split8(pos[a] + w, mlo, mhi, full, &xi[a], &xj[a]);
        d[a] = _mm256_sub_ps(xj[a], xi[a]);
    }
    const __m256 len2 = cloth_dot3_256(d[0], d[1], d[2], d[0], d[1], d[2]);
    __m256 wi, wj;
    split8(c->w + w, mlo, mhi, full, &wi, &wj);
    moves8 mv;
    if (!moves_of8(len2, wi, wj, _mm256_castsi256_ps(live), k->l, k->l2, &mv)) {
        return;
    }
    for (int a = 0; a < 3; ++a) {
        const __m256 mi = _mm256_mul_ps(mv.ki, d[a]), mj = _mm256_mul_ps(mv.kj, d[a]);
        join8(pos[a] + w, mlo, mhi, full, _mm256_blendv_ps(xi[a], _mm256_add_ps(xi[a], mi), mv.m),
              _mm256_blendv_ps(xj[a], _mm256_sub_ps(xj[a], mj), mv.m));
        if (vel[a] == NULL) {
            continue;
        }
        __m256 vi, vj;
        split8(vel[a] + w, mlo, mhi, full, &vi, &vj);
        const __m256 ni = _mm256_add_ps(vi, _mm256_mul_ps(mi, k->inv_dt));
        const __m256 nj = _mm256_sub_ps(vj, _mm256_mul_ps(mj, k->inv_dt));
        join8(vel[a] + w, mlo, mhi, full, _mm256_blendv_ps(vi, ni, mv.m), _mm256_blendv_ps(vj, nj, mv.m));
    }
}

__attribute__((target("avx2"))) static void along_avx2(const limit_ctx *ctx, uint32_t begin, uint32_t end, float lim,
                                                       float lim2, uint32_t colour)
{
    const limit_ctx copy = *ctx; /* as in run_avx2 */
    const limit_ctx *c = &copy;
    const limit256 k = {_mm256_set1_ps(lim), _mm256_set1_ps(lim2), _mm256_set1_ps(c->inv_dt)};
    uint32_t w = begin + colour;
    /* 16 particles wholly in the run (w .. end belong to it) hold 8 springs */
    const __m256i all = _mm256_set1_epi32(-1);
    for (; w < end && end + 1u - w >= 16u; w += 16u) {
        along16(c, &k, w, all, all, all, true);
    }
    if (w < end) {
        const uint32_t room = end + 1u - w;
        const __m256i off = _mm256_setr_epi32(0, 2, 8, 10, 4, 6, 12, 14);
        const __m256i live = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(end - w)), off); /* w + off < end */
        along16(c, &k, w, cloth_lanes8(room), cloth_lanes8(room > 8u ? room - 8u : 0u), live, false);
    }
}

/* What run_avx512 and along_avx512 hold for a whole run. */
typedef struct limit512 {
    __m512 l, l2, inv_dt;
    __m512i even, odd, join_lo, join_hi; /* along: the split and join of 32 floats */
} limit512;

__attribute__((target("avx512f"), always_inline)) static inline void limit512_of(const limit_ctx *c, float lim,
                                                                                  float lim2, limit512 *k)
{
    k->l = _mm512_set1_ps(lim);
    k->l2 = _mm512_set1_ps(lim2);
    k->inv_dt = _mm512_set1_ps(c->inv_dt);
    k->even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    k->odd = _mm512_add_epi32(k->even, _mm512_set1_epi32(1));
    k->join_lo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    k->join_hi = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
}

/* shorten()'s factors for the lanes of m (over the limit): ki and kj, the
 * moves of the first and second ends per unit of the spring vector;
 * returns m without the springs between two pins. */
__attribute__((target("avx512f"), always_inline)) static inline __mmask16 moves_of16(__m512 len2, __m512 wi,
                                                                                    __m512 wj, __mmask16 m,
                                                                                    const limit512 *k, __m512 *ki,
                                                                                    __m512 *kj)
{
    const __m512 wsum = _mm512_add_ps(wi, wj);
    m = _mm512_mask_cmp_ps_mask(m, wsum, _mm512_setzero_ps(), _CMP_NEQ_UQ);
    const __m512 len = _mm512_sqrt_ps(len2);
    const __m512 f = _mm512_div_ps(_mm512_sub_ps(len, k->l), _mm512_mul_ps(len, wsum)); /* shorten()'s k */
    *ki = _mm512_mul_ps(wi, f);
    *kj = _mm512_mul_ps(wj, f);
    return m;
}

/* The springs (i, i + di) of a run across rows for i = p .. p + 15, those
 * in `live`. Whole vectors pass a constant mask, which the compiler turns
 * into plain loads. */
__attribute__((target("avx512f"), always_inline)) static inline void across16(const limit_ctx *c, const limit512 *k,
                                                                                 uint32_t p, uint32_t di,
                                                                                 __mmask16 live)
{
    const uint32_t q = p + di;
    float *const pos[3] = {c->x, c->y, c->z}, *const vel[3] = {c->vx, c->vy, c->vz};
    __m512 xi[3], xj[3], d[3];
    for (int a = 0; a < 3; ++a) {
        xi[a] = _mm512_maskz_loadu_ps(live, pos[a] + p);
        xj[a] = _mm512_maskz_loadu_ps(live, pos[a] + q);
        d[a] = _mm512_sub_ps(xj[a], xi[a]);
    }
    const __m512 len2 = cloth_dot3_512(d[0], d[1], d[2], d[0], d[1], d[2]);
    __mmask16 m = _mm512_mask_cmp_ps_mask(live, len2, k->l2, _CMP_GT_OQ);
    if (m == 0) {
        return;
    }
    const __m512 wi = _mm512_maskz_loadu_ps(live, c->w + p), wj = _mm512_maskz_loadu_ps(live, c->w + q);
    __m512 ki, kj;
    m = moves_of16(len2, wi, wj, m, k, &ki, &kj);
    for (int a = 0; a < 3; ++a) {
        /* masked stores: only the lanes in `m` are written */
        const __m512 mi = _mm512_mul_ps(ki, d[a]), mj = _mm512_mul_ps(kj, d[a]);
        _mm512_mask_storeu_ps(pos[a] + p, m, _mm512_add_ps(xi[a], mi));
        _mm512_mask_storeu_ps(pos[a] + q, m, _mm512_sub_ps(xj[a], mj));
        if (vel[a] != NULL) {
            const __m512 vi = _mm512_maskz_loadu_ps(live, vel[a] + p), vj = _mm512_maskz_loadu_ps(live, vel[a] + q);
            _mm512_mask_storeu_ps(vel[a] + p, m, _mm512_add_ps(vi, _mm512_mul_ps(mi, k->inv_dt)));
            _mm512_mask_storeu_ps(vel[a] + q, m, _mm512_sub_ps(vj, _mm512_mul_ps(mj, k->inv_dt)));
        }
    }
}

__attribute__((target("avx512f"))) static void run_avx512(const limit_ctx *ctx, uint32_t begin, uint32_t end,
                                                          uint32_t di, float lim, float lim2)
{
    const limit_ctx copy = *ctx; /* as in run_avx2 */
    const limit_ctx *c = &copy;
    limit512 k;
    limit512_of(c, lim, lim2, &k);
    uint32_t p = begin;
    for (; end - p >= 16u; p += 16u) {
        across16(c, &k, p, di, 0xffffu);
    }
    /* the last lanes masked (a coarse level's rows are short, so a scalar
     * tail would be much of the run) */
    if (p < end) {
        across16(c, &k, p, di, cloth_lanes16(end - p));
    }
}

/* Along a row in AVX-512, 16 springs of one colour at a time: the 32
 * particles from w (w - begin = colour mod 2) hold springs (w + 2m,
 * w + 2m + 1), m < 16, whose first and second ends are split into two
 * vectors and joined back for the store. Unlike a stride-1 vector with
 * every other lane masked off, no load reads what the store before it
 * wrote in part, which the CPU cannot forward and waits for. Same
 * arithmetic per lane as shorten(). */
__attribute__((target("avx512f"), always_inline)) static inline void along32(const limit_ctx *c, const limit512 *k,
                                                                                uint32_t w, __mmask16 mlo,
                                                                                __mmask16 mhi, __mmask16 live)
{
    float *const pos[3] = {c->x, c->y, c->z}, *const vel[3] = {c->vx, c->vy, c->vz};
    __m512 xi[3], xj[3], d[3];
    for (int a = 0; a < 3; ++a) {
        const __m512 lo = _mm512_maskz_loadu_ps(mlo, pos[a] + w), hi = _mm512_maskz_loadu_ps(mhi, pos[a] + w + 16);
        xi[a] = _mm512_permutex2var_ps(lo, k->even, hi);
        xj[a] = _mm512_permutex2var_ps(lo, k->odd, hi);
        d[a] = _mm512_sub_ps(xj[a], xi[a]);
    }
    const __m512 len2 = cloth_dot3_512(d[0], d[1], d[2], d[0], d[1], d[2]);
    __mmask16 m = _mm512_mask_cmp_ps_mask(live, len2, k->l2, _CMP_GT_OQ);
    if (m == 0) {
        return;
    }
    const __m512 wlo = _mm512_maskz_loadu_ps(mlo, c->w + w), whi = _mm512_maskz_loadu_ps(mhi, c->w + w + 16);
    const __m512 wi = _mm512_permutex2var_ps(wlo, k->even, whi), wj = _mm512_permutex2var_ps(wlo, k->odd, whi);
    __m512 ki, kj;
    m = moves_of16(len2, wi, wj, m, k, &ki, &kj);
    for (int a = 0; a < 3; ++a) {
        const __m512 mi = _mm512_mul_ps(ki, d[a]), mj = _mm512_mul_ps(kj, d[a]);
        const __m512 ni = _mm512_mask_add_ps(xi[a], m, xi[a], mi), nj = _mm512_mask_sub_ps(xj[a], m, xj[a], mj);
        _mm512_mask_storeu_ps(pos[a] + w, mlo, _mm512_permutex2var_ps(ni, k->join_lo, nj));
        _mm512_mask_storeu_ps(pos[a] + w + 16, mhi, _mm512_permutex2var_ps(ni, k->join_hi, nj));
        if (vel[a] == NULL) {
            continue;
        }
        const __m512 vlo = _mm512_maskz_loadu_ps(mlo, vel[a] + w);
        const __m512 vhi = _mm512_maskz_loadu_ps(mhi, vel[a] + w + 16);
        __m512 vi = _mm512_permutex2var_ps(vlo, k->even, vhi), vj = _mm512_permutex2var_ps(vlo, k->odd, vhi);
        vi = _mm512_mask_add_ps(vi, m, vi, _mm512_mul_ps(mi, k->inv_dt));
        vj = _mm512_mask_sub_ps(vj, m, vj, _mm512_mul_ps(mj, k->inv_dt));
        _mm512_mask_storeu_ps(vel[a] + w, mlo, _mm512_permutex2var_ps(vi, k->join_lo, vj));
        _mm512_mask_storeu_ps(vel[a] + w + 16, mhi, _mm512_permutex2var_ps(vi, k->join_hi, vj));
    }
}

__attribute__((target("avx512f"))) static void along_avx512(const limit_ctx *ctx, uint32_t begin, uint32_t end,
                                                            float lim, float lim2, uint32_t colour)
{
    const limit_ctx copy = *ctx; /* as in run_avx2 */
    const limit_ctx *c = &copy;
    limit512 k;
    limit512_of(c, lim, lim2, &k);
    uint32_t w = begin + colour;
    /* 32 particles wholly in the run (w .. end belong to it) hold 16 springs */
    for (; w < end && end + 1u - w >= 32u; w += 32u) {
        along32(c, &k, w, 0xffffu, 0xffffu, 0xffffu);
    }
    if (w < end) {
        const uint32_t room = end + 1u - w;
        const __mmask16 mlo = cloth_lanes16(room);
        const __mmask16 mhi = cloth_lanes16(room > 16u ? room - 16u : 0u);
        const uint32_t springs = (end - w + 1u) / 2u; /* w + 2m < end */
        along32(c, &k, w, mlo, mhi, cloth_lanes16(springs));
    }
}
#endif

/* A row's own springs of one colour in the plain loop. */
static void along_plain(const limit_ctx *c, uint32_t begin, uint32_t end, float lim, float lim2, uint32_t colour)
{
    plain_loop(c, begin, end, 1u, lim, lim2, 2u, colour);
}

void cloth_limit_ctx_init(limit_ctx *c, const cloth_t *cloth, float *const pos[3], float *const vel[3],
                          const float *w, float inv_dt)
{
    c->x = pos[0];
    c->y = pos[1];
    c->z = pos[2];
    c->vx = vel[0];
    c->vy = vel[1];
    c->vz = vel[2];
    c->w = w;
    c->inv_dt = inv_dt;
    c->run = run_plain;
    c->along = along_plain;
#if CLOTH_TARGET_X86
    if (cloth->simd >= CLOTH_SIMD_AVX512) {
        c->run = run_avx512;
        c->along = along_avx512;
    } else if (cloth->simd >= CLOTH_SIMD_AVX2) {
        c->run = run_avx2;
        c->along = along_avx2;
    }
#else
    (void)cloth;
#endif
}

void cloth_limit_across(const limit_ctx *c, uint32_t begin, uint32_t end, uint32_t di, float lim)
{
    c->run(c, begin, end, di, lim, lim * lim);
}

void cloth_limit_along(const limit_ctx *c, uint32_t begin, uint32_t end, float lim)
{
    for (uint32_t colour = 0; colour < 2u; ++colour) {
        c->along(c, begin, end, lim, lim * lim, colour);
    }
}

void cloth_limit_in_order(const limit_ctx *c, uint32_t begin, uint32_t end, uint32_t di, float lim)
{
    run_plain(c, begin, end, di, lim, lim * lim);
}

void cloth_limit_spring(const limit_ctx *c, uint32_t i, uint32_t j, float lim)
{
    shorten(c, i, j, lim, lim * lim);
}
