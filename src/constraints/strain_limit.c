/*
 * Strain limiting (Provot 1995), once per step after the last substep: a few
 * Gauss-Seidel passes that shorten every structural and shear spring longer
 * than (1 + max_strain) times its rest length (constraints.h).
 *
 * Nearly every spring is within the limit, so a pass is mostly a test of
 * squared lengths (no square root). On a grid the test runs over a family's
 * springs in a row 8 or 16 at a time, and the springs found too long in a
 * vector are shortened together. That needs the springs of a vector to share
 * no particle: true across rows, and along a row for every other spring, so
 * a row's own springs go in two colours, the even ones (from the row's
 * start), then the odd ones. The plain C path takes the same order, and
 * every path gives its bits.
 *
 * Threads: a grid's rows are cut into blocks (fine_block_rows()); the even
 * blocks run in parallel, then the odd ones. A block's springs reach at
 * most two rows below it, into the next block only, so blocks of one colour
 * share no particle and the order within each block is fixed: the same bits
 * at any thread count. A mesh's springs run in their list order on the
 * calling thread.
 *
 * On a grid each pass starts with a sweep of coarse levels
 * (strain_levels.c), which carries a correction across the cloth in one
 * pass; the spring loops themselves are in strain_kernels.c.
 */
#include "strain_kernels.h"
#include "auto.h"
#include "constraints/constraints.h"
#include "springs.h"

#include "kernels/kernels.h"

#include <string.h>

typedef struct limit_pass {
    const cloth_t *cloth;
    limit_ctx c;
    float scale; /* 1 + max_strain */
    uint32_t block_rows;
    uint32_t colour; /* 0: even blocks, 1: odd */
} limit_pass;

static bool limited(cloth_spring_type type)
{
    return type == CLOTH_SPRING_STRUCTURAL || type == CLOTH_SPRING_SHEAR;
}

/* Rows per block of the fine pass: the XPBD sweep's blocks, but never fewer
 * than 16 rows. A pass leaves its largest error on the first row of each
 * even block: that row is solved with its block, then the last row of the
 * odd block above pulls it back and stretches the spring below it, and
 * longer blocks have fewer such rows (docs/performance.md, figures behind
 * the code). The number of blocks still
 * depends on the grid only, so the bits do not change with the threads;
 * from 241 rows up this is cloth_grid_block_rows() itself. */
static uint32_t fine_block_rows(uint32_t rows)
{
    const uint32_t b = cloth_grid_block_rows(rows);
    return b < 16u ? 16u : b;
}

/* Items are the blocks of one colour: item k is block 2 k + colour. */
static void limit_blocks(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const limit_pass *pass = ctx;
    const cloth_t *cloth = pass->cloth;
    for (uint32_t k = begin; k < end; ++k) {
        const uint32_t r0 = (2u * k + pass->colour) * pass->block_rows;
        const uint32_t r1 = r0 + pass->block_rows < cloth->rows ? r0 + pass->block_rows : cloth->rows;
        for (uint32_t r = r0; r < r1; ++r) {
            for (uint32_t f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
                uint32_t b, e, di;
                if (!limited(cloth_grid_families[f].type) || !cloth_family_active(cloth, f) ||
                    !cloth_family_row(cloth, f, r, &b, &e, &di)) {
                    continue;
                }
                const float lim = pass->scale * cloth->family_rest[f];
                if (cloth_grid_families[f].dr > 0) {
                    cloth_limit_across(&pass->c, b, e, di, lim);
                } else if (di == 1u) { /* along the row: the even springs, then the odd ones */
                    cloth_limit_along(&pass->c, b, e, lim);
                } else { /* no such family is limited today; in order, to be safe */
                    cloth_limit_in_order(&pass->c, b, e, di, lim);
                }
            }
        }
    }
}

void cloth_strain_limit_apply(cloth_t *cloth, float dt, uint32_t first, uint32_t passes)
{
    if (passes == 0u) {
        return;
    }
    cloth_particles *p = &cloth->p;
    limit_pass pass;
    memset(&pass, 0, sizeof pass);
    pass.cloth = cloth;
    pass.scale = 1.0f + cloth->max_strain * (cloth->strain_passes_auto ? 1.0f - CLOTH_LIMIT_MARGIN : 1.0f);
    float *const pos[3] = {p->x, p->y, p->z}, *const vel[3] = {p->vx, p->vy, p->vz};
    cloth_limit_ctx_init(&pass.c, cloth, pos, vel, p->w, 1.0f / dt);
    if (cloth->tris != NULL) {
        for (uint32_t it = first; it < first + passes; ++it) {
            if (it < cloth->strain_level_sweeps) {
                cloth_mesh_levels_apply(cloth, pass.scale, pass.c.inv_dt);
            }
            cloth_mesh_limit_pass(cloth, &pass.c, pass.scale);
        }
        return;
    }
    pass.block_rows = fine_block_rows(cloth->rows);
    const uint32_t blocks = (cloth->rows + pass.block_rows - 1u) / pass.block_rows;
    const uint32_t min_blocks = cloth_grid_min_blocks(pass.block_rows, cloth->cols);
    for (uint32_t it = first; it < first + passes; ++it) {
        if (it < cloth->strain_level_sweeps) {
            cloth_strain_levels_apply(cloth, pass.scale, pass.c.inv_dt);
        }
        for (uint32_t colour = 0; colour < 2u; ++colour) {
            pass.colour = colour;
            /* blocks colour, colour + 2, ...: (blocks - colour + 1) / 2 of them */
            const uint32_t items = (blocks - colour + 1u) / 2u;
            if (items > 0u) {
                cloth_parallel_for(cloth, limit_blocks, items, min_blocks, &pass);
            }
        }
    }
}

/* The positions the limit starts from (cloth_particles::lx): 3 arrays in
 * one block, padded to whole SIMD lanes as the particle arrays are. */
static size_t from_stride(const cloth_t *cloth)
{
    const size_t lanes = CLOTH_ALIGN / sizeof(float);
    return ((size_t)cloth->count + lanes - 1u) / lanes * lanes;
}

static cloth_status from_alloc(cloth_t *cloth)
{
    if (cloth->p.lx != NULL) {
        return CLOTH_OK;
    }
    const size_t stride = from_stride(cloth);
    float *block = cloth_mem_alloc(&cloth->alloc, 3u * stride * sizeof(float));
    if (block == NULL) {
        return CLOTH_ERR_OUT_OF_MEMORY;
    }
    cloth->p.lx = block;
    cloth->p.ly = block + stride;
    cloth->p.lz = block + 2u * stride;
    return CLOTH_OK;
}

void cloth_strain_limit_free(cloth_t *cloth)
{
    if (cloth->p.lx != NULL) {
        cloth_mem_free(&cloth->alloc, cloth->p.lx, 3u * from_stride(cloth) * sizeof(float));
        cloth->p.lx = cloth->p.ly = cloth->p.lz = NULL;
    }
}

cloth_status cloth_do_set_strain_limit(cloth_t *cloth, float max_strain, uint32_t passes)
{
    if (cloth == NULL || !(max_strain >= 0.0f && max_strain <= 10.0f) || passes > CLOTH_MAX_ITERATIONS) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    const bool automatic = passes == 0u && max_strain > 0.0f;
    if (passes == 0u && !automatic) {
        cloth_strain_levels_free(cloth);
    } else {
        const bool had_from = cloth->p.lx != NULL;
        /* the automatic passes' held friction needs where they began (step.c) */
        cloth_status st = automatic ? from_alloc(cloth) : CLOTH_OK;
        if (st == CLOTH_OK) {
            st = cloth_strain_levels_alloc(cloth);
        }
        if (st != CLOTH_OK) {
            if (!had_from) {
                cloth_strain_limit_free(cloth); /* as it was */
            }
            return st;
        }
    }
    if (!automatic) {
        cloth_strain_limit_free(cloth);
    }
    cloth->max_strain = max_strain;
    cloth->strain_passes = passes;
    cloth->strain_passes_auto = automatic;
    return CLOTH_OK;
}

cloth_status cloth_set_strain_limit(cloth_t *cloth, float max_strain, uint32_t passes)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    return cloth_do_set_strain_limit(cloth, max_strain, passes);
}

cloth_status cloth_get_strain_limit(const cloth_t *cloth, float *max_strain, uint32_t *passes)
{
    if (cloth == NULL || max_strain == NULL || passes == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *max_strain = cloth->max_strain;
    *passes = cloth->strain_passes;
    return CLOTH_OK;
}

cloth_status cloth_set_strain_level_sweeps(cloth_t *cloth, uint32_t sweeps)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || sweeps > CLOTH_MAX_ITERATIONS) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth->strain_level_sweeps = sweeps;
    return CLOTH_OK;
}

cloth_status cloth_get_strain_level_sweeps(const cloth_t *cloth, uint32_t *sweeps)
{
    if (cloth == NULL || sweeps == NULL) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    *sweeps = cloth->strain_level_sweeps;
    return CLOTH_OK;
}

/* The worst strain: per worker, the largest squared length over squared
 * rest length of the structural and shear springs of some rows. */
typedef struct worst_pass {
    const cloth_t *cloth;
    const cloth_kernels *kernels;
    float ratio2[CLOTH_MAX_THREADS];
} worst_pass;

static void worst_rows(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    worst_pass *pass = ctx;
    const cloth_t *cloth = pass->cloth;
    const cloth_particles *p = &cloth->p;
    float top = pass->ratio2[worker % CLOTH_MAX_THREADS];
    for (uint32_t r = begin; r < end; ++r) {
        for (uint32_t f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
            uint32_t b, e, di;
            if (!limited(cloth_grid_families[f].type) || !cloth_family_active(cloth, f) ||
                !cloth_family_row(cloth, f, r, &b, &e, &di)) {
                continue;
            }
            const float rest = cloth->family_rest[f];
            top = pass->kernels->ratio2(p->x, p->y, p->z, b, e, di, 1.0f / (rest * rest), top);
        }
    }
    pass->ratio2[worker % CLOTH_MAX_THREADS] = top;
}

/* The strain of the largest of the workers' squared length ratios. */
static float worst_of(const cloth_t *cloth, const float ratio2[CLOTH_MAX_THREADS])
{
    float top = 0.0f;
    for (uint32_t k = 0; k < CLOTH_MAX_THREADS; ++k) {
        top = ratio2[k] > top ? ratio2[k] : top;
    }
    /* NaN compares false and leaves top; the finite check catches it */
    return top > 0.0f ? sqrtf(top) - 1.0f : (cloth->count > 0u ? -1.0f : 0.0f);
}

/* The worst of a mesh's springs [first, end): per worker, the largest
 * squared length over squared rest length, in items of
 * CLOTH_PARTICLES_PER_ITEM springs. */
typedef struct mesh_worst_pass {
    const cloth_t *cloth;
    uint32_t first, end;
    float ratio2[CLOTH_MAX_THREADS];
} mesh_worst_pass;

static void worst_springs(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    mesh_worst_pass *pass = ctx;
    const cloth_t *cloth = pass->cloth;
    const cloth_particles *p = &cloth->p;
    const uint32_t *ij = cloth->spring_ij;
    uint32_t from, to;
    cloth_item_particles(begin, end, pass->end - pass->first, CLOTH_PARTICLES_PER_ITEM, &from, &to);
    float top = pass->ratio2[worker % CLOTH_MAX_THREADS];
    for (uint32_t s = pass->first + from; s < pass->first + to; ++s) {
        const uint32_t i = ij[2u * s], j = ij[2u * s + 1u];
        const float dx = p->x[j] - p->x[i], dy = p->y[j] - p->y[i], dz = p->z[j] - p->z[i];
        const float rest = cloth->spring_rest[s];
        const float r = (dx * dx + dy * dy + dz * dz) / (rest * rest);
        /* a spring of no rest length has no strain to speak of */
        top = rest > 0.0f && r > top ? r : top;
    }
    pass->ratio2[worker % CLOTH_MAX_THREADS] = top;
}

float cloth_mesh_worst_strain(cloth_t *cloth, uint32_t first, uint32_t end)
{
    mesh_worst_pass pass;
    memset(&pass, 0, sizeof pass);
    pass.cloth = cloth;
    pass.first = first;
    pass.end = end;
    const uint32_t items = (end - first + CLOTH_PARTICLES_PER_ITEM - 1u) / CLOTH_PARTICLES_PER_ITEM;
    cloth_parallel_for(cloth, worst_springs, items, 1u, &pass);
    return worst_of(cloth, pass.ratio2);
}

float cloth_strain_limit_worst(cloth_t *cloth)
{
    if (cloth->tris != NULL) {
        return cloth_mesh_worst_strain(cloth, cloth->type_begin[CLOTH_SPRING_STRUCTURAL],
                                       cloth->type_begin[CLOTH_SPRING_SHEAR + 1]);
    }
    worst_pass pass;
    memset(&pass, 0, sizeof pass);
    pass.cloth = cloth;
    pass.kernels = cloth_kernels_at(cloth->simd);
    const uint32_t min_rows = (CLOTH_PARTICLES_PER_RANGE + cloth->cols - 1u) / cloth->cols;
    cloth_parallel_for(cloth, worst_rows, cloth->rows, min_rows, &pass);
    return worst_of(cloth, pass.ratio2);
}
