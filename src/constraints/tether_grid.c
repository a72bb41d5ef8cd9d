/*
 * The tether pass on a grid with at most K pins, which keeps no table: every
 * free particle is tethered to all the pins, at rest distances its row and
 * column give (grid_rest, tethers.h). A float test over each row finds the
 * few particles that may be outside, and only those are gathered into the
 * float batches (tether_batch.c) or sent to the exact path (tether_exact.c).
 * The loops are plain C built again for AVX2 and AVX-512 (platform/target.h),
 * with hand-written gathers for those levels; every level gives the same bits.
 */
#include "tethers.h"

#include "platform/lanes.h"

#include <float.h>
#include <string.h>

/*
 * The grid path. Most particles in most substeps are well inside their
 * tethers, and the projection leaves those alone; a float test over a row
 * finds the few that may not be, and only those go on: into a batch (one or
 * two pins) or to cloth_tether_constrain_exact() (three or four).
 *
 * The test flags a particle when |x - x_p|^2 > lim for some pin p, where lim
 * is `(1 - m) scale^2 d0^2` evaluated in float as a quadratic in the column
 * offset dc: d0^2 = s2 dc^2 + cross dr dc + s2 dr^2 (grid_rest). It must
 * never miss a particle the exact test `|x - x_p|^2 > (scale d0)^2` (double,
 * d0 and scale d0 rounded to float) would catch:
 * - |x - x_p|^2 in float is within 6u of the exact value (u = 2^-24: the
 *   differences are correctly rounded, every term of the sum is >= 0);
 * - (scale d0)^2 with its two float roundings is >= scale^2 d0^2 (1 - 4u);
 * - lim's terms are rounded (coefficients, dc, products, sums), 12u of the
 *   size of the terms; the middle term can cancel the others by a factor up
 *   to kappa = (1 + c) / (1 - c), c = |cross| / (2 s2) = |cos| of the angle
 *   between the axes, so 12u kappa of lim.
 * m = 32u (1 + kappa) covers 6u + 4u + 12u kappa with room. The batches'
 * own test, |x - x_p|^2 > (scale d0)^2 all in float, compares the very float
 * |x - x_p|^2 the flag test computes (same operations) with a float
 * (scale d0)^2 >= scale^2 d0^2 (1 - 5u), so it is covered too. The bound needs
 * the values near lim to be normal floats and lim finite over the grid;
 * outside that range (absurd spacings, nearly parallel axes) every free
 * particle takes the exact path, which is always right.
 */
#define CHUNK 128u

static void grid_pins_init(const cloth_t *cloth, float scale, grid_pins *g)
{
    memset(g, 0, sizeof *g);
    g->n = cloth->pin_count;
    uint32_t index[K];
    float unused[K];
    cloth_tether_clear_list(index, unused);
    for (uint32_t k = 0; k < g->n; ++k) {
        index[k] = cloth->pins[k].index;
    }
    cloth_tether_order_by_index(index, unused);
    for (uint32_t k = 0; k < g->n; ++k) {
        const uint32_t p = index[k];
        g->index[k] = p;
        g->row[k] = (int32_t)(p / cloth->cols);
        g->col[k] = (int32_t)(p % cloth->cols);
        g->x[k] = cloth->p.x[p];
        g->y[k] = cloth->p.y[p];
        g->z[k] = cloth->p.z[p];
        g->vx[k] = cloth->p.vx[p];
        g->vy[k] = cloth->p.vy[p];
        g->vz[k] = cloth->p.vz[p];
    }
    cloth_tether_grid_terms(cloth, &g->s2, &g->cross);
    const double c = g->s2 > 0.0 ? fabs(g->cross) / (2.0 * g->s2) : 1.0;
    const double u = 0x1p-24;
    g->exact_only = true;
    if (!(c <= 0.999) || !isfinite(g->s2)) {
        return;
    }
    const double kappa = (1.0 + c) / (1.0 - c);
    const double scale2 = (double)scale * (double)scale * (1.0 - 32.0 * u * (1.0 + kappa));
    g->a = scale2 * g->s2;
    g->b = scale2 * g->cross;
    const double extent2 = (double)cloth->rows * cloth->rows + (double)cloth->cols * cloth->cols;
    g->exact_only = !(g->a * (1.0 - c) >= 0x1p-90 && g->a * (1.0 + c) * extent2 <= 0x1p100);
}

/* Flags of the particles [i, i + len) of row r starting at column c0; true
 * if any is flagged. N pins, a constant where inlined, so the inner loop
 * unrolls and the loop over particles vectorises. */
static CLOTH_INLINE_ALWAYS bool flag_span(const cloth_particles *pt, const grid_pins *g, uint32_t n, int32_t r,
                                          int32_t c0, uint32_t i, uint32_t len, int32_t *flag)
{
    float b[K], e[K];
    const float a = (float)g->a;
    for (uint32_t k = 0; k < n; ++k) {
        const double dr = (double)(r - g->row[k]);
        b[k] = (float)(g->b * dr);
        e[k] = (float)(g->a * dr * dr);
    }
    const float *restrict x = pt->x + i, *restrict y = pt->y + i, *restrict z = pt->z + i, *restrict w = pt->w + i;
    int32_t any = 0; /* int32_t flags, not chars: a loop storing chars would take 16 lanes at a time */
    for (uint32_t j = 0; j < len; ++j) {
        float worst = -FLT_MAX;
        for (uint32_t k = 0; k < n; ++k) {
            const float dc = (float)(c0 + (int32_t)j - g->col[k]);
            const float dx = x[j] - g->x[k], dy = y[j] - g->y[k], dz = z[j] - g->z[k];
            const float excess = (dx * dx + dy * dy + dz * dz) - ((a * dc + b[k]) * dc + e[k]);
            worst = excess > worst ? excess : worst;
        }
        const int32_t f = (int32_t)(worst > 0.0f) & (int32_t)(w[j] != 0.0f);
        flag[j] = f;
        any |= f;
    }
    return any != 0;
}

/* A flagged particle i at row r, column c, on a grid with one or two pins:
 * into the batch, which is the test for being outside. */
static void grid_push(lanes *b, cloth_particles *pt, uint32_t i, uint32_t r, uint32_t c)
{
    const uint32_t j = cloth_tether_lanes_load(b, pt, i);
    b->row[j] = (double)r;
    b->col[j] = (double)c;
    b->n = j + 1u;
    if (b->n == LANES) {
        cloth_tether_lanes_flush(b, pt);
    }
}

/* A flagged particle i at row r, column c, on a grid with three or four
 * pins: its pins as the table would list them, then the exact path. */
static void grid_constrain(cloth_t *cloth, const grid_pins *g, float scale, uint32_t i, uint32_t r, uint32_t c)
{
    uint32_t pin[K];
    float rest[K];
    cloth_tether_clear_list(pin, rest);
    for (uint32_t k = 0; k < g->n; ++k) {
        const double dc = (double)c - (double)g->col[k], dr = (double)r - (double)g->row[k];
        pin[k] = g->index[k];
        rest[k] = grid_rest(g->s2, g->cross, dc, dr);
    }
    cloth_tether_constrain_exact(&cloth->p, i, pin, rest, scale);
}

static CLOTH_INLINE_ALWAYS bool flag_body(const cloth_particles *pt, const grid_pins *g, int32_t r, int32_t c,
                                          uint32_t i, uint32_t len, int32_t *flag)
{
    switch (g->n) {
    case 1u:
        return flag_span(pt, g, 1u, r, c, i, len, flag);
    case 2u:
        return flag_span(pt, g, 2u, r, c, i, len, flag);
    case 3u:
        return flag_span(pt, g, 3u, r, c, i, len, flag);
    default:
        return flag_span(pt, g, (uint32_t)K, r, c, i, len, flag);
    }
}

static bool flag_plain(const cloth_particles *pt, const grid_pins *g, int32_t r, int32_t c, uint32_t i, uint32_t len,
                       int32_t *flag)
{
    return flag_body(pt, g, r, c, i, len, flag);
}

#if CLOTH_TARGET_X86
CLOTH_TARGET_AVX2 static bool flag_avx2(const cloth_particles *pt, const grid_pins *g, int32_t r, int32_t c,
                                        uint32_t i, uint32_t len, int32_t *flag)
{
    return flag_body(pt, g, r, c, i, len, flag);
}

CLOTH_TARGET_AVX512 static bool flag_avx512(const cloth_particles *pt, const grid_pins *g, int32_t r, int32_t c,
                                            uint32_t i, uint32_t len, int32_t *flag)
{
    return flag_body(pt, g, r, c, i, len, flag);
}
#endif

#if CLOTH_TARGET_X86
/* cloth_tether_fill_and_solve() over whole vectors: its loops are
 * vectorised with a scalar tail, so the lanes up to a multiple of 16 become
 * particles at the origin, on row and column 0, which the loops solve and
 * nothing writes back. */
static void solve_padded(lanes *b)
{
    const uint32_t n = b->n, padded = (n + 15u) & ~15u;
    for (uint32_t j = n; j < padded; ++j) {
        b->x[j] = b->y[j] = b->z[j] = b->vx[j] = b->vy[j] = b->vz[j] = 0.0f;
        b->row[j] = b->col[j] = 0.0;
    }
    b->n = padded;
    cloth_tether_fill_and_solve(b);
    b->n = n;
}

/* The lanes of the first n that the float batch left to the exact path
 * (rare: ill-conditioned pairs of balls); then the batch is empty. */
static void finish_exact(lanes *b, cloth_particles *pt, uint32_t n)
{
    int32_t any = 0; /* a loop without a branch, which vectorises */
    for (uint32_t j = 0; j < n; ++j) {
        any |= b->exact[j];
    }
    for (uint32_t j = 0; any != 0 && j < n; ++j) {
        if (b->exact[j] != 0) {
            cloth_tether_exact_lane(b, pt, j);
        }
    }
    b->n = 0u;
    b->groups = 0u;
}

/* The grid path's copying in and out with AVX-512: a chunk's flagged
 * particles go into the batch 16 at a time, compressed out of the vectors
 * that hold them, and come back expanded into the same vectors, where
 * grid_push() and cloth_tether_lanes_flush() copy one float at a time (most
 * of the tether pass where few particles are past their tethers). The lanes and their order are grid_push()'s,
 * so the solve gives the same bits. A batch is flushed when 16 more might not fit,
 * so it may run with fewer than LANES lanes; lanes are independent. */
CLOTH_TARGET_AVX512 static void grid_flush_avx512(lanes *b, cloth_particles *pt)
{
    const uint32_t n = b->n;
    solve_padded(b);
    float *const to[6] = {pt->x, pt->y, pt->z, pt->vx, pt->vy, pt->vz};
    const float *const from[6] = {b->x, b->y, b->z, b->vx, b->vy, b->vz};
    uint32_t off = 0u; /* the group's first lane */
    for (uint32_t g = 0; g < b->groups; ++g) {
        const __mmask16 m = b->group_mask[g];
        const uint32_t k = (uint32_t)__builtin_popcount(m), at = b->group_at[g];
        const __mmask16 lanes_of = cloth_lanes16(k);
        const __m512i ex = _mm512_maskz_expand_epi32(m, _mm512_maskz_loadu_epi32(lanes_of, b->exact + off));
        const __mmask16 keep = (__mmask16)(m & ~_mm512_test_epi32_mask(ex, ex)); /* the exact path writes the others */
        for (int a = 0; a < 6; ++a) {
            const __m512 v = _mm512_maskz_expand_ps(m, _mm512_maskz_loadu_ps(lanes_of, from[a] + off));
            _mm512_mask_storeu_ps(to[a] + at, keep, v);
        }
        off += k;
    }
    finish_exact(b, pt, n);
}

/* The particles [i, i + len) of row r from column c whose flag is set. */
CLOTH_TARGET_AVX512 static void grid_gather_avx512(lanes *b, cloth_particles *pt, uint32_t i, uint32_t r,
                                                   uint32_t c, uint32_t len, const int32_t *flag)
{
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const float *const from[6] = {pt->x, pt->y, pt->z, pt->vx, pt->vy, pt->vz};
    float *const to[6] = {b->x, b->y, b->z, b->vx, b->vy, b->vz};
    const __m512d row = _mm512_set1_pd((double)r);
    for (uint32_t j0 = 0; j0 < len; j0 += 16u) {
        const __mmask16 in = cloth_lanes16(len - j0);
        const __m512i f = _mm512_maskz_loadu_epi32(in, flag + j0);
        const __mmask16 m = _mm512_test_epi32_mask(f, f);
        if (m == 0u) {
            continue;
        }
        if (b->n + 16u > LANES) {
            grid_flush_avx512(b, pt);
        }
        const uint32_t n = b->n, at = i + j0;
        for (int a = 0; a < 6; ++a) {
            _mm512_storeu_ps(to[a] + n, _mm512_maskz_compress_ps(m, _mm512_maskz_loadu_ps(in, from[a] + at)));
        }
        const __m512i index = _mm512_add_epi32(_mm512_set1_epi32((int)at), lane);
        _mm512_storeu_si512(b->index + n, _mm512_maskz_compress_epi32(m, index));
        const __m512i col = _mm512_maskz_compress_epi32(m, _mm512_add_epi32(_mm512_set1_epi32((int)(c + j0)), lane));
        _mm512_storeu_pd(b->col + n, _mm512_cvtepi32_pd(_mm512_castsi512_si256(col)));
        _mm512_storeu_pd(b->col + n + 8u, _mm512_cvtepi32_pd(_mm512_extracti64x4_epi64(col, 1)));
        _mm512_storeu_pd(b->row + n, row);
        _mm512_storeu_pd(b->row + n + 8u, row);
        b->group_at[b->groups] = at;
        b->group_mask[b->groups] = m;
        ++b->groups;
        b->n = n + (uint32_t)__builtin_popcount(m);
    }
}

/* The same with AVX2, 8 particles a group: AVX2 has no compress or expand,
 * so each group's two permutations are worked out from its mask. */
CLOTH_TARGET_AVX2 static void group_perms8(uint32_t m, __m256i *pick, __m256i *put)
{
    uint32_t from = 0u, to = 0u, rank = 0u;
    for (uint32_t bits = m; bits != 0u; bits &= bits - 1u) {
        const uint32_t l = (uint32_t)__builtin_ctz(bits);
        from |= l << (4u * rank); /* lane `rank` of the batch takes lane l */
        to |= rank << (4u * l);   /* and lane l takes it back */
        ++rank;
    }
    const __m256i shift = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28), low3 = _mm256_set1_epi32(7);
    *pick = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32((int)from), shift), low3);
    *put = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32((int)to), shift), low3);
}

CLOTH_TARGET_AVX2 static void grid_flush_avx2(lanes *b, cloth_particles *pt)
{
    const uint32_t n = b->n;
    solve_padded(b);
    float *const to[6] = {pt->x, pt->y, pt->z, pt->vx, pt->vy, pt->vz};
    const float *const from[6] = {b->x, b->y, b->z, b->vx, b->vy, b->vz};
    uint32_t off = 0u; /* the group's first lane */
    for (uint32_t g = 0; g < b->groups; ++g) {
        const uint32_t m = b->group_mask[g], k = (uint32_t)__builtin_popcount(m), at = b->group_at[g];
        __m256i pick, put;
        group_perms8(m, &pick, &put);
        const __m256i lanes_of = cloth_lanes8(k);
        const __m256i ex = _mm256_permutevar8x32_epi32(_mm256_maskload_epi32(b->exact + off, lanes_of), put);
        const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        const __m256i in = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)m), bit), bit);
        const __m256i keep = _mm256_and_si256(_mm256_cmpeq_epi32(ex, _mm256_setzero_si256()), in);
        for (int a = 0; a < 6; ++a) {
            const __m256 v = _mm256_permutevar8x32_ps(_mm256_maskload_ps(from[a] + off, lanes_of), put);
            _mm256_maskstore_ps(to[a] + at, keep, v);
        }
        off += k;
    }
    finish_exact(b, pt, n);
}

CLOTH_TARGET_AVX2 static void grid_gather_avx2(lanes *b, cloth_particles *pt, uint32_t i, uint32_t r, uint32_t c,
                                               uint32_t len, const int32_t *flag)
{
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const float *const from[6] = {pt->x, pt->y, pt->z, pt->vx, pt->vy, pt->vz};
    float *const to[6] = {b->x, b->y, b->z, b->vx, b->vy, b->vz};
    const __m256d row = _mm256_set1_pd((double)r);
    for (uint32_t j0 = 0; j0 < len; j0 += 8u) {
        const __m256i in = cloth_lanes8(len - j0);
        const __m256i f = _mm256_maskload_epi32(flag + j0, in);
        const __m256i on = _mm256_cmpgt_epi32(f, _mm256_setzero_si256());
        const uint32_t m = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(on));
        if (m == 0u) {
            continue;
        }
        if (b->n + 8u > LANES) {
            grid_flush_avx2(b, pt);
        }
        __m256i pick, put;
        group_perms8(m, &pick, &put);
        const uint32_t n = b->n, at = i + j0;
        for (int a = 0; a < 6; ++a) {
            _mm256_storeu_ps(to[a] + n, _mm256_permutevar8x32_ps(_mm256_maskload_ps(from[a] + at, in), pick));
        }
        const __m256i index = _mm256_add_epi32(_mm256_set1_epi32((int)at), lane);
        _mm256_storeu_si256((__m256i *)(void *)(b->index + n), _mm256_permutevar8x32_epi32(index, pick));
        const __m256i col = _mm256_permutevar8x32_epi32(_mm256_add_epi32(_mm256_set1_epi32((int)(c + j0)), lane), pick);
        _mm256_storeu_pd(b->col + n, _mm256_cvtepi32_pd(_mm256_castsi256_si128(col)));
        _mm256_storeu_pd(b->col + n + 4u, _mm256_cvtepi32_pd(_mm256_extracti128_si256(col, 1)));
        _mm256_storeu_pd(b->row + n, row);
        _mm256_storeu_pd(b->row + n + 4u, row);
        b->group_at[b->groups] = at;
        b->group_mask[b->groups] = (uint16_t)m;
        ++b->groups;
        b->n = n + (uint32_t)__builtin_popcount(m);
    }
}
#endif

void cloth_tether_grid_range(cloth_t *cloth, const struct cloth_tethers *t, uint32_t begin, uint32_t end)
{
    const float scale = t->scale;
    grid_pins g;
    grid_pins_init(cloth, scale, &g);
    lanes batch;
    cloth_tether_lanes_init(&batch, g.n, cloth, &g);
    int32_t flag[CHUNK];
    const uint32_t cols = cloth->cols;
#if CLOTH_TARGET_X86
    const bool wide = g.n <= 2u && cloth->simd >= CLOTH_SIMD_AVX2; /* grid_gather_avx512(), _avx2() */
#endif
    for (uint32_t i = begin; i < end;) {
        const uint32_t r = i / cols, c = i % cols;
        uint32_t len = cols - c < end - i ? cols - c : end - i;
        len = len < CHUNK ? len : CHUNK;
        bool any;
        if (g.exact_only) {
            for (uint32_t j = 0; j < len; ++j) {
                flag[j] = (int32_t)(cloth->p.w[i + j] != 0.0f);
            }
            any = true;
        } else {
#if CLOTH_TARGET_X86
            any = cloth->simd >= CLOTH_SIMD_AVX512 ? flag_avx512(&cloth->p, &g, (int32_t)r, (int32_t)c, i, len, flag)
                  : cloth->simd >= CLOTH_SIMD_AVX2 ? flag_avx2(&cloth->p, &g, (int32_t)r, (int32_t)c, i, len, flag)
                                               : flag_plain(&cloth->p, &g, (int32_t)r, (int32_t)c, i, len, flag);
#else
            any = flag_plain(&cloth->p, &g, (int32_t)r, (int32_t)c, i, len, flag);
#endif
        }
#if CLOTH_TARGET_X86
        if (any && wide) {
            if (cloth->simd >= CLOTH_SIMD_AVX512) {
                grid_gather_avx512(&batch, &cloth->p, i, r, c, len, flag);
            } else {
                grid_gather_avx2(&batch, &cloth->p, i, r, c, len, flag);
            }
            any = false;
        }
#endif
        if (any) {
            /* the flagged columns, listed without a branch per particle:
             * whether one is flagged is as good as random to the predictor */
            uint32_t picked[CHUNK], m = 0u;
            for (uint32_t j = 0; j < len; ++j) {
                picked[m] = j;
                m += (uint32_t)flag[j];
            }
            for (uint32_t k = 0; k < m; ++k) {
                const uint32_t j = picked[k];
                if (g.n <= 2u) {
                    grid_push(&batch, &cloth->p, i + j, r, c + j);
                } else {
                    grid_constrain(cloth, &g, scale, i + j, r, c + j);
                }
            }
        }
        i += len;
    }
#if CLOTH_TARGET_X86
    if (wide) {
        if (cloth->simd >= CLOTH_SIMD_AVX512) {
            grid_flush_avx512(&batch, &cloth->p);
        } else {
            grid_flush_avx2(&batch, &cloth->p);
        }
        return;
    }
#endif
    if (g.n <= 2u) {
        cloth_tether_lanes_flush(&batch, &cloth->p);
    }
}
