/*
 * XPBD on a grid cloth (the method is described in xpbd.c): the springs are
 * the stencil families, solved as runs along the rows by the vector kernel of
 * kernels/xpbd_span.inl, and the sweep is split into blocks of rows for threads.
 *
 * Order of a sweep. The rows are cut into blocks of B >= 2 rows; a block
 * owns the springs whose first end lies in its rows, and those reach at most
 * 2 rows down, into the next block only. So blocks two apart share no
 * particle: the sweep solves the even blocks (in parallel), then the odd
 * ones. Within a block the rows go top to bottom, and in each row every
 * family in table order: a family that stays in the row ((0, 1), (0, 2))
 * in two colours, by (c / dc) mod 2, the others as one run each. That is
 * Gauss-Seidel row after row, so a correction travels down a whole block in
 * one sweep, which a hanging cloth needs; B depends on the grid only, never
 * on the thread count, which is what makes the bits the same on any number
 * of threads. The substep's predict and finish ride on the first and the
 * last colour pass (see solve_blocks()), so a substep is 2 x iterations
 * parallel passes and each block is predicted, swept and finished while it
 * is in cache.
 *
 * The displacement since the start of the substep (see xpbd.c for why the
 * solve works on it rather than on the positions) lives in the velocity
 * arrays during the substep: the velocity is not needed until the end, when
 * it is that displacement over h. So a grid cloth needs no scratch at all
 * with one iteration, and one lambda per spring with more.
 */
#include "xpbd_grid.h"
#include "springs.h"

#include "platform/target.h"

#include <string.h>

struct grid_pass;
typedef void span_fn(const struct grid_pass *p, uint32_t begin, uint32_t end);

/* A family that takes part in the substep: the kernel's arguments for its
 * springs, all but the row's (rows r with r + dr < rows have such springs,
 * their first ends in columns [c0, c1)). Made once per substep rather than
 * for every row. */
typedef struct pass_family {
    uint32_t index; /* in cloth_grid_families */
    bool edges;     /* its border springs count half (solve_halved()) */
    uint32_t dr, c0, c1;
    xpbd_span span;
} pass_family;

typedef struct grid_pass {
    const cloth_t *cloth;
    const cloth_step_view *view;
    const xpbd_grid_solver *solver;
    float gx, gy, gz, h, decay, inv_h;
    uint32_t block_rows, blocks, parity;
    bool first_pass, last_pass; /* the sweep's first colour pass predicts, its last finishes */
    span_fn *predict, *finish;  /* their loops at the cloth's vector level */
    uint32_t families;          /* in table order */
    pass_family family[CLOTH_GRID_FAMILIES];
} grid_pass;

/* The loops below take their arrays as restrict parameters: GCC 12 does not
 * vectorise them when the restrict pointers are locals read from a struct.
 * Each is built for every vector level (platform/target.h); the copies give
 * the same bits. */

/* Velocity to predicted displacement without forces. `+ 0.0f` is the forced
 * loop's w f, which is then +0: it turns a g m of -0 (a pin under a negative
 * g, or a -0 component of g) into +0 as that loop does, so a zero velocity
 * keeps the same sign and the bits are the same (test_stats). Without
 * -ffast-math no compiler drops it. */
static CLOTH_INLINE_ALWAYS void predict_free(float *restrict vx, float *restrict vy, float *restrict vz,
                                             const float *restrict w, uint32_t begin, uint32_t end, const float g[3],
                                             float h, float d)
{
    const float gx = g[0], gy = g[1], gz = g[2];
    for (uint32_t i = begin; i < end; ++i) {
        const float m = (float)(w[i] > 0.0f);
        const float dm = m * d + (1.0f - m); /* d for a free particle, 1 for a pin, exactly */
        vx[i] = (vx[i] * dm + (gx * m + 0.0f) * h) * h;
        vy[i] = (vy[i] * dm + (gy * m + 0.0f) * h) * h;
        vz[i] = (vz[i] * dm + (gz * m + 0.0f) * h) * h;
    }
}

/* The same with the force arrays; a pin (w = 0) moves by its own velocity:
 * no gravity, no decay. */
static CLOTH_INLINE_ALWAYS void predict_forced(float *restrict vx, float *restrict vy, float *restrict vz,
                                               const float *restrict w, const float *restrict fx,
                                               const float *restrict fy, const float *restrict fz, uint32_t begin,
                                               uint32_t end, const float g[3], float h, float d)
{
    const float gx = g[0], gy = g[1], gz = g[2];
    for (uint32_t i = begin; i < end; ++i) {
        const float m = (float)(w[i] > 0.0f);
        const float dm = m * d + (1.0f - m); /* d for a free particle, 1 for a pin, exactly */
        vx[i] = (vx[i] * dm + (gx * m + w[i] * fx[i]) * h) * h;
        vy[i] = (vy[i] * dm + (gy * m + w[i] * fy[i]) * h) * h;
        vz[i] = (vz[i] * dm + (gz * m + w[i] * fz[i]) * h) * h;
    }
}

/* The substep's end for particles [begin, end): move by the displacement,
 * which over h is the new velocity. */
static CLOTH_INLINE_ALWAYS void finish_arrays(float *restrict x, float *restrict y, float *restrict z,
                                              float *restrict vx, float *restrict vy, float *restrict vz,
                                              uint32_t begin, uint32_t end, float inv_h)
{
    for (uint32_t i = begin; i < end; ++i) {
        x[i] += vx[i];
        y[i] += vy[i];
        z[i] += vz[i];
        vx[i] *= inv_h;
        vy[i] *= inv_h;
        vz[i] *= inv_h;
    }
}

static CLOTH_INLINE_ALWAYS void predict_body(const grid_pass *p, uint32_t begin, uint32_t end)
{
    const cloth_step_view *s = p->view;
    const float g[3] = {p->gx, p->gy, p->gz};
    if (s->fx == NULL) {
        predict_free(s->vx, s->vy, s->vz, s->inv_mass, begin, end, g, p->h, p->decay);
    } else {
        predict_forced(s->vx, s->vy, s->vz, s->inv_mass, s->fx, s->fy, s->fz, begin, end, g, p->h, p->decay);
    }
}

static void predict_plain(const grid_pass *p, uint32_t begin, uint32_t end)
{
    predict_body(p, begin, end);
}

static CLOTH_INLINE_ALWAYS void finish_body(const grid_pass *p, uint32_t begin, uint32_t end)
{
    const cloth_step_view *s = p->view;
    finish_arrays(s->x, s->y, s->z, s->vx, s->vy, s->vz, begin, end, p->inv_h);
}

static void finish_plain(const grid_pass *p, uint32_t begin, uint32_t end)
{
    finish_body(p, begin, end);
}

#if CLOTH_TARGET_X86
CLOTH_TARGET_AVX2 static void predict_avx2(const grid_pass *p, uint32_t begin, uint32_t end)
{
    predict_body(p, begin, end);
}

CLOTH_TARGET_AVX512 static void predict_avx512(const grid_pass *p, uint32_t begin, uint32_t end)
{
    predict_body(p, begin, end);
}

CLOTH_TARGET_AVX2 static void finish_avx2(const grid_pass *p, uint32_t begin, uint32_t end)
{
    finish_body(p, begin, end);
}

CLOTH_TARGET_AVX512 static void finish_avx512(const grid_pass *p, uint32_t begin, uint32_t end)
{
    finish_body(p, begin, end);
}
#endif

/* The substep's start for particles [begin, end): each velocity becomes
 * the displacement it predicts, each pin's start is dated back by its own
 * motion (so that the spring damping sees a moving pin move, see xpbd.c),
 * and their lambdas start at 0. */
static void predict_span(const grid_pass *p, uint32_t begin, uint32_t end)
{
    const cloth_step_view *s = p->view;
    const cloth_t *cloth = p->cloth;
    p->predict(p, begin, end);
    for (uint32_t k = 0; k < cloth->pin_count; ++k) {
        const uint32_t i = cloth->pins[k].index;
        if (i >= begin && i < end) {
            s->x[i] -= s->vx[i];
            s->y[i] -= s->vy[i];
            s->z[i] -= s->vz[i];
        }
    }
    const xpbd_grid_solver *solver = p->solver;
    if (solver->lambda != NULL) {
        for (size_t slot = 0; slot * solver->stride < solver->lambda_count; ++slot) {
            memset(solver->lambda + slot * solver->stride + begin, 0, (size_t)(end - begin) * sizeof(float));
        }
    }
}

/* Row r of a structural family whose border springs count half (a
 * material's grid, cloth_family_edges()): the row in up to three pieces,
 * a half-stiff one at twice the compliance. */
static void solve_halved(const grid_pass *p, const pass_family *f, uint32_t r, uint32_t row_start)
{
    cloth_subrun piece[3];
    const uint32_t n = cloth_family_edges(p->cloth, f->index, r, row_start + f->c0, row_start + f->c1, piece);
    for (uint32_t m = 0; m < n; ++m) {
        xpbd_span span = f->span;
        span.row_start = row_start;
        span.begin = piece[m].begin;
        span.end = piece[m].end;
        span.alpha_tilde = span.alpha_tilde / piece[m].scale;
        p->solver->kernel(&span);
        if (span.mask_shift != XPBD_SPAN_ALL) {
            span.parity = 1u;
            p->solver->kernel(&span);
        }
    }
}

/* Every spring whose first end is in row r. */
static void solve_row(const grid_pass *p, uint32_t r)
{
    const uint32_t row_start = r * p->cloth->cols;
    for (uint32_t k = 0; k < p->families; ++k) {
        const pass_family *f = &p->family[k];
        if (r + f->dr >= p->cloth->rows) {
            continue;
        }
        if (f->edges) {
            solve_halved(p, f, r, row_start);
            continue;
        }
        xpbd_span span = f->span;
        span.row_start = row_start;
        span.begin = row_start + f->c0;
        span.end = row_start + f->c1;
        p->solver->kernel(&span);
        if (span.mask_shift != XPBD_SPAN_ALL) {
            span.parity = 1u;
            p->solver->kernel(&span);
        }
    }
}

/* The particles of block b, or none past the last block. */
static void block_particles(const grid_pass *p, uint32_t b, uint32_t *begin, uint32_t *end)
{
    const uint32_t rows = p->cloth->rows, cols = p->cloth->cols;
    const uint32_t first = b < p->blocks ? b * p->block_rows : rows;
    const uint32_t last = first + p->block_rows < rows ? first + p->block_rows : rows;
    *begin = first * cols;
    *end = last * cols;
}

static void predict_block(const grid_pass *p, uint32_t b)
{
    uint32_t begin, end;
    block_particles(p, b, &begin, &end);
    predict_span(p, begin, end);
}

static void finish_block(const grid_pass *p, uint32_t b)
{
    uint32_t begin, end;
    block_particles(p, b, &begin, &end);
    p->finish(p, begin, end);
}

/* Items are the blocks of one colour: item k is block b = 2 k + parity.
 *
 * The substep's predict and finish ride on the sweep, so that each block is
 * touched while it is in cache and the threads meet twice less per substep.
 * Block b's springs reach into block b + 1 only. In the first pass (even
 * blocks) block b predicts itself and the odd block below, which no other
 * spring of that pass touches. After the last pass (odd blocks) block b and
 * the even block below are final: the even one's springs ran in the pass
 * before and only b's reach into it. Block 0 is final after the even pass
 * and is finished with block 1; a cloth of one block has no odd pass and
 * finishes in its even one. Every particle is predicted and finished once,
 * by the same operations as a separate pass, so the bits do not change. */
static void solve_blocks(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const grid_pass *p = ctx;
    const uint32_t rows = p->cloth->rows;
    for (uint32_t k = begin; k < end; ++k) {
        const uint32_t b = 2u * k + p->parity;
        if (p->first_pass) {
            predict_block(p, b);
            predict_block(p, b + 1u);
        }
        const uint32_t first = b * p->block_rows;
        const uint32_t last = first + p->block_rows < rows ? first + p->block_rows : rows;
        for (uint32_t r = first; r < last; ++r) {
            solve_row(p, r);
        }
        if (p->last_pass) {
            if (p->parity == 0u) {
                finish_block(p, b); /* the only block */
                continue;
            }
            if (b == 1u) {
                finish_block(p, 0u);
            }
            finish_block(p, b);
            finish_block(p, b + 1u);
        }
    }
}

cloth_status cloth_xpbd_grid_step(const xpbd_grid_solver *solver, const cloth_step_view *s)
{
    const cloth_t *cloth = s->cloth;
    const float h = s->h;
    /* every field but the family table, whose first p.families entries
     * are filled below: the table is large next to a small cloth's
     * springs, and this runs every substep */
    grid_pass p;
    p.families = 0u;
    p.parity = 0u;
    p.first_pass = false;
    p.last_pass = false;
    p.cloth = cloth;
    p.view = s;
    p.solver = solver;
    p.gx = s->gravity[0];
    p.gy = s->gravity[1];
    p.gz = s->gravity[2];
    p.h = h;
    p.decay = s->velocity_decay;
    p.inv_h = 1.0f / h;
    p.block_rows = cloth_grid_block_rows(cloth->rows);
    p.predict = predict_plain;
    p.finish = finish_plain;
#if CLOTH_TARGET_X86
    if (cloth->simd >= CLOTH_SIMD_AVX512) {
        p.predict = predict_avx512;
        p.finish = finish_avx512;
    } else if (cloth->simd >= CLOTH_SIMD_AVX2) {
        p.predict = predict_avx2;
        p.finish = finish_avx2;
    }
#endif
    uint32_t slot = 0; /* the lambdas: one array per active family, in table order */
    for (uint32_t f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
        if (!cloth_family_active(cloth, f)) {
            continue;
        }
        float *lambda = solver->lambda != NULL ? solver->lambda + (size_t)slot * solver->stride : NULL;
        ++slot;
        const cloth_grid_family *fam = &cloth_grid_families[f];
        const cloth_spring_type t = fam->type;
        const float kh2 = cloth->stiffness[t] * h * h;
        /* alpha~ = L0 / (k h^2); infinite when k = 0 or so small the
         * spring cannot act, and such a family is skipped */
        const float alpha_tilde = kh2 > 0.0f ? cloth->family_rest[f] * (1.0f / kh2) : INFINITY;
        uint32_t begin, end, di;
        if (!isfinite(alpha_tilde) || !cloth_family_row(cloth, f, 0u, &begin, &end, &di)) {
            continue; /* off, or no row has such a spring */
        }
        pass_family *pf = &p.family[p.families++];
        pf->index = f;
        pf->edges = cloth->edge_halving && t == CLOTH_SPRING_STRUCTURAL;
        pf->dr = (uint32_t)fam->dr;
        pf->c0 = begin;
        pf->c1 = end;
        xpbd_span *span = &pf->span;
        memset(span, 0, sizeof *span);
        span->x = s->x;
        span->y = s->y;
        span->z = s->z;
        span->w = s->inv_mass;
        span->ux = s->vx;
        span->uy = s->vy;
        span->uz = s->vz;
        span->lambda = lambda;
        span->scale = cloth->kscale;
        span->di = di;
        span->mask_shift = fam->dr > 0 ? XPBD_SPAN_ALL : fam->dc == 1 ? 0u : 1u;
        span->rest = cloth->family_rest[f];
        span->alpha_tilde = alpha_tilde;
        /* capped so that an absurd beta freezes the springs' rates
         * instead of making inf * 0 */
        span->gamma = fminf(cloth->spring_damping[t] / h, 1e30f);
        span->one_plus_gamma = 1.0f + span->gamma;
    }

    p.blocks = (cloth->rows + p.block_rows - 1u) / p.block_rows;
    const uint32_t min_blocks = cloth_grid_min_blocks(p.block_rows, cloth->cols);
    for (uint32_t it = 0; it < s->iterations; ++it) {
        for (p.parity = 0u; p.parity < 2u; ++p.parity) {
            const uint32_t items = (p.blocks + 1u - p.parity) / 2u;
            if (items == 0u) {
                continue; /* one block: no odd pass */
            }
            p.first_pass = it == 0u && p.parity == 0u;
            p.last_pass = it + 1u == s->iterations && (p.parity == 1u || p.blocks == 1u);
            cloth_parallel_for(cloth, solve_blocks, items, min_blocks, &p);
        }
    }
    return CLOTH_OK;
}
