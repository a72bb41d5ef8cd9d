/*
 * The tether pass on a grid with at most K pins, which keeps no table: every
 * free particle is tethered to all the pins, at rest distances its row and
 * column give (grid_rest, tethers.h). A float test over each row finds the
 * few particles that may be outside, and only those are gathered into the
 * float batches (tether_batch.c) or sent to the exact path (tether_exact.c).
 * The flag test is plain C built again for AVX2 and AVX-512
 * (platform/target.h); the batch is packed and unpacked by the vector
 * kernels (kernels/tether_pack.inl) at the cloth's width. Every level
 * gives the same bits.
 */
#include "tethers.h"

#include "kernels/kernels.h"
#include "platform/target.h"

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

/* The batch packed by the kernels (kernels/tether_pack.inl): solved, its
 * lanes unpacked back into the particles, then the lanes the float batch
 * left to the exact path (rare: ill-conditioned pairs of balls), and
 * emptied. */
static void grid_flush(lanes *b, const cloth_tether_pack *pack, const cloth_kernels *k, cloth_particles *pt)
{
    const uint32_t n = b->n;
    solve_padded(b);
    k->tether_unpack(pack);
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

static void pack_init(cloth_tether_pack *pack, lanes *b, cloth_particles *pt)
{
    float *const particle[6] = {pt->x, pt->y, pt->z, pt->vx, pt->vy, pt->vz};
    float *const lane[6] = {b->x, b->y, b->z, b->vx, b->vy, b->vz};
    for (int a = 0; a < 6; ++a) {
        pack->particle[a] = particle[a];
        pack->lane[a] = lane[a];
    }
    pack->index = b->index;
    pack->row = b->row;
    pack->col = b->col;
    pack->exact = b->exact;
    pack->group_at = b->group_at;
    pack->group_mask = b->group_mask;
    pack->n = &b->n;
    pack->groups = &b->groups;
    pack->capacity = LANES;
}

void cloth_tether_grid_range(cloth_t *cloth, const struct cloth_tethers *t, uint32_t begin, uint32_t end)
{
    const float scale = t->scale;
    grid_pins g;
    grid_pins_init(cloth, scale, &g);
    lanes batch;
    cloth_tether_lanes_init(&batch, g.n, cloth, &g);
    /* one or two pins: the float batch, packed by the vector kernels;
     * three or four: the exact path, one particle at a time */
    const bool packed = g.n <= 2u;
    const cloth_kernels *kernels = cloth_kernels_at(cloth->simd);
    cloth_tether_pack pack;
    pack_init(&pack, &batch, &cloth->p);
    int32_t flag[CHUNK];
    const uint32_t cols = cloth->cols;
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
        if (any && packed) {
            for (uint32_t j = kernels->tether_pack(&pack, flag, i, r, c, len, 0u); j < len;
                 j = kernels->tether_pack(&pack, flag, i, r, c, len, j)) {
                grid_flush(&batch, &pack, kernels, &cloth->p);
            }
        } else if (any) {
            /* the flagged columns, listed without a branch per particle:
             * whether one is flagged is as good as random to the predictor */
            uint32_t picked[CHUNK], m = 0u;
            for (uint32_t j = 0; j < len; ++j) {
                picked[m] = j;
                m += (uint32_t)flag[j];
            }
            for (uint32_t k = 0; k < m; ++k) {
                const uint32_t j = picked[k];
                grid_constrain(cloth, &g, scale, i + j, r, c + j);
            }
        }
        i += len;
    }
    if (packed) {
        grid_flush(&batch, &pack, kernels, &cloth->p);
    }
}
