/*
 * Spring forces (seed 000): tension T = k e with strain e = (l - L0) / L0,
 * along the spring, on both ends, plus stiffness-proportional damping.
 *
 * A grid stores no springs: each family is an offset (dr, dc), so a family is
 * a loop over contiguous index ranges, the shape the vectoriser and a
 * row-range thread split want. A mesh lists its springs, sorted by type.
 */
#include "cloth_internal.h"
#include "platform/target.h"
#include "bending.h"
#include "curvature.h"
#include "springs.h"

/* Grouped by type so that cloth_get_springs() lists types in order. */
const cloth_grid_family cloth_grid_families[CLOTH_GRID_FAMILIES] = {
    {0, 1, CLOTH_SPRING_STRUCTURAL, false}, {1, 0, CLOTH_SPRING_STRUCTURAL, false},
    {1, 1, CLOTH_SPRING_SHEAR, false},      {1, -1, CLOTH_SPRING_SHEAR, false},
    {1, 2, CLOTH_SPRING_SHEAR, true},       {1, -2, CLOTH_SPRING_SHEAR, true},
    {2, 1, CLOTH_SPRING_SHEAR, true},       {2, -1, CLOTH_SPRING_SHEAR, true},
    {0, 2, CLOTH_SPRING_BEND, false},       {2, 0, CLOTH_SPRING_BEND, false},
    {2, 2, CLOTH_SPRING_BEND, true},        {2, -2, CLOTH_SPRING_BEND, true},
};

void cloth_springs_rest(cloth_t *cloth, const float u[3], const float v[3], float spacing)
{
    for (int f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
        float dc = (float)cloth_grid_families[f].dc, dr = (float)cloth_grid_families[f].dr;
        double d[3];
        for (int k = 0; k < 3; ++k) {
            d[k] = (double)((dc * u[k] + dr * v[k]) * spacing);
        }
        /* squared in double: a huge spacing (build_grid.c keeps the length
         * itself finite) must not overflow to an infinite rest length */
        cloth->family_rest[f] = (float)sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    }
}

bool cloth_family_active(const cloth_t *cloth, uint32_t f)
{
    return cloth->tris == NULL && (!cloth_grid_families[f].wide || cloth->family_count > 6u);
}

bool cloth_family_row(const cloth_t *cloth, uint32_t f, uint32_t r, uint32_t *begin, uint32_t *end,
                      uint32_t *di)
{
    const cloth_grid_family *fam = &cloth_grid_families[f];
    const uint32_t cols = cloth->cols, dr = (uint32_t)fam->dr;
    const uint32_t adc = (uint32_t)(fam->dc < 0 ? -fam->dc : fam->dc);
    if (r + dr >= cloth->rows || adc >= cols) {
        return false;
    }
    const uint32_t c0 = fam->dc < 0 ? adc : 0u;
    const uint32_t c1 = fam->dc > 0 ? cols - adc : cols;
    *begin = r * cols + c0;
    *end = r * cols + c1;
    *di = (uint32_t)((int32_t)(dr * cols) + fam->dc);
    return true;
}

uint32_t cloth_family_edges_split(const cloth_t *cloth, uint32_t f, uint32_t r, uint32_t begin, uint32_t end,
                                  cloth_subrun out[3])
{
    if (cloth_grid_families[f].dr == 0) { /* along the row: a border row counts half */
        const bool border = r == 0u || r + 1u == cloth->rows;
        out[0] = (cloth_subrun){begin, end, border ? 0.5f : 1.0f};
        return 1u;
    }
    /* down a column: the springs in the first and last column count half;
     * a particle's column is its spring's */
    const uint32_t cols = cloth->cols, row_start = begin - begin % cols;
    const uint32_t left = row_start, right = row_start + cols - 1u;
    uint32_t n = 0;
    uint32_t at = begin;
    if (at == left) {
        out[n++] = (cloth_subrun){at, at + 1u, 0.5f};
        ++at;
    }
    const uint32_t mid_end = end > right ? right : end;
    if (at < mid_end) {
        out[n++] = (cloth_subrun){at, mid_end, 1.0f};
        at = mid_end;
    }
    if (at < end) {
        out[n++] = (cloth_subrun){at, end, 0.5f};
    }
    return n;
}

void cloth_family_row_runs(const cloth_t *cloth, uint32_t f, uint32_t r, cloth_row_runs *out)
{
    const uint32_t dr = (uint32_t)cloth_grid_families[f].dr;
    uint32_t begin, end, di = 0u;
    out->end_begin = out->end_end = out->start_begin = out->start_end = 0u;
    if (r >= dr && cloth_family_row(cloth, f, r - dr, &begin, &end, &di)) {
        out->end_begin = begin + di;
        out->end_end = end + di;
    }
    if (cloth_family_row(cloth, f, r, &begin, &end, &di)) {
        out->start_begin = begin;
        out->start_end = end;
    }
    out->di = di;
}

/* The force of one spring (i, j), added to i and subtracted from j.
 *
 * Damping is stiffness-proportional on the spring's tangent stiffness: along
 * the spring k / L0, across it T / l (a taut string resists sideways motion
 * with its tension). Damping only the length would leave the sideways modes
 * of a stretched cloth undamped, and the trapezoid rule grows every undamped
 * mode. A slack spring's sideways stiffness is negative; it gets no damping
 * across rather than negative damping. */
static inline void spring_force(const cloth_particles *p, uint32_t i, uint32_t j, float rest, float k,
                                float beta)
{
    float dx = p->x[j] - p->x[i], dy = p->y[j] - p->y[i], dz = p->z[j] - p->z[i];
    float len2 = dx * dx + dy * dy + dz * dz;
    if (!(len2 > 0.0f)) {
        return; /* coincident ends have no direction to pull along */
    }
    float len = sqrtf(len2);
    float inv_len = 1.0f / len, inv_rest = 1.0f / rest;
    float ux = dx * inv_len, uy = dy * inv_len, uz = dz * inv_len;
    float rvx = p->vx[j] - p->vx[i], rvy = p->vy[j] - p->vy[i], rvz = p->vz[j] - p->vz[i];
    float along = rvx * ux + rvy * uy + rvz * uz;
    float tension = k * (len - rest) * inv_rest;
    float axial = tension + beta * k * inv_rest * along;
    float across = beta * fmaxf(tension, 0.0f) * inv_len;
    float gx = axial * ux + across * (rvx - along * ux);
    float gy = axial * uy + across * (rvy - along * uy);
    float gz = axial * uz + across * (rvz - along * uz);
    p->fx[i] += gx;
    p->fy[i] += gy;
    p->fz[i] += gz;
    p->fx[j] -= gx;
    p->fy[j] -= gy;
    p->fz[j] -= gz;
}

/*
 * A grid gathers: every particle sums the forces of its own springs, so rows
 * can be split between threads and each run of a family is one loop the
 * compiler vectorises. Each spring is evaluated at both ends with
 * spring_force()'s operations, and the sums go in the order spring_force()
 * scattered them: family by family, and in each family first the spring the
 * particle ends (it starts a row or a column earlier), then the one it
 * starts. So the forces have the same bits as visiting the springs one by
 * one. A spring with coincident ends adds nothing. The loops are compiled
 * for the baseline and for AVX2 (platform/target.h; chosen by
 * platform/simd.c, as PBD's gather), the same operations in each.
 */
#define FORCE_PARAMS                                                                                                 \
    float *restrict fx, float *restrict fy, float *restrict fz, const float *restrict x, const float *restrict y,    \
        const float *restrict z, const float *restrict vx, const float *restrict vy, const float *restrict vz,       \
        uint32_t begin, uint32_t end, uint32_t di, float rest, float k, float beta, const float *restrict ks
#define FORCE_ARGS fx, fy, fz, x, y, z, vx, vy, vz, begin, end, di, rest, k, beta, ks

static CLOTH_INLINE_ALWAYS void force_body(FORCE_PARAMS, bool second)
{
    const float inv_rest = 1.0f / rest;
    for (uint32_t p = begin; p < end; ++p) {
        const uint32_t i = second ? p - di : p, j = second ? p : p + di;
        const float dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];
        const float len2 = dx * dx + dy * dy + dz * dz;
        const bool apart = len2 > 0.0f;
        const float len = sqrtf(apart ? len2 : 1.0f);
        const float inv_len = 1.0f / len;
        const float ux = dx * inv_len, uy = dy * inv_len, uz = dz * inv_len;
        const float rvx = vx[j] - vx[i], rvy = vy[j] - vy[i], rvz = vz[j] - vz[i];
        const float along = rvx * ux + rvy * uy + rvz * uz;
        /* a spring's stiffness takes the mean of its ends' scales */
        const float kk = ks != NULL ? k * (0.5f * (ks[i] + ks[j])) : k;
        const float tension = kk * (len - rest) * inv_rest;
        const float axial = tension + beta * kk * inv_rest * along;
        const float across = beta * (tension > 0.0f ? tension : 0.0f) * inv_len; /* glibc's fmaxf(tension, 0) */
        const float gx = axial * ux + across * (rvx - along * ux);
        const float gy = axial * uy + across * (rvy - along * uy);
        const float gz = axial * uz + across * (rvz - along * uz);
        /* nothing from coincident ends: x - (+0) and x + (-0) are x exactly,
         * -0 included, so the store need not be conditional */
        const float none = second ? 0.0f : -0.0f;
        const float hx = apart ? gx : none, hy = apart ? gy : none, hz = apart ? gz : none;
        if (second) {
            fx[p] -= hx;
            fy[p] -= hy;
            fz[p] -= hz;
        } else {
            fx[p] += hx;
            fy[p] += hy;
            fz[p] += hz;
        }
    }
}

typedef void force_fn(FORCE_PARAMS);

static void force_first_plain(FORCE_PARAMS)
{
    force_body(FORCE_ARGS, false);
}

static void force_second_plain(FORCE_PARAMS)
{
    force_body(FORCE_ARGS, true);
}

#if CLOTH_TARGET_X86
CLOTH_TARGET_AVX2 static void force_first_avx2(FORCE_PARAMS)
{
    force_body(FORCE_ARGS, false);
}

CLOTH_TARGET_AVX2 static void force_second_avx2(FORCE_PARAMS)
{
    force_body(FORCE_ARGS, true);
}
#endif

typedef struct force_pass {
    cloth_t *cloth;
    force_fn *first, *second;
} force_pass;

/* Items are rows: the spring forces on every particle of rows [begin, end). */
static void force_rows(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const force_pass *pass = ctx;
    cloth_t *cloth = pass->cloth;
    cloth_particles *q = &cloth->p;
    for (uint32_t r = begin; r < end; ++r) {
        for (uint32_t f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
            const cloth_spring_type type = cloth_grid_families[f].type;
            const float k = cloth->stiffness[type], beta = cloth->spring_damping[type];
            if (k == 0.0f || !cloth_family_active(cloth, f)) {
                continue;
            }
            const float rest = cloth->family_rest[f];
            cloth_row_runs run;
            cloth_family_row_runs(cloth, f, r, &run);
            cloth_subrun piece[3];
            /* the springs ending in row r lie in row r - dr */
            uint32_t n = cloth_family_edges(cloth, f, r - (uint32_t)cloth_grid_families[f].dr, run.end_begin,
                                            run.end_end, piece);
            for (uint32_t m = 0; m < n; ++m) {
                pass->second(q->fx, q->fy, q->fz, q->x, q->y, q->z, q->vx, q->vy, q->vz, piece[m].begin, piece[m].end,
                             run.di, rest, k * piece[m].scale, beta, cloth->kscale);
            }
            n = cloth_family_edges(cloth, f, r, run.start_begin, run.start_end, piece);
            for (uint32_t m = 0; m < n; ++m) {
                pass->first(q->fx, q->fy, q->fz, q->x, q->y, q->z, q->vx, q->vy, q->vz, piece[m].begin, piece[m].end,
                            run.di, rest, k * piece[m].scale, beta, cloth->kscale);
            }
        }
    }
}

static void accumulate_grid(cloth_t *cloth)
{
    force_pass pass = {cloth, force_first_plain, force_second_plain};
#if CLOTH_TARGET_X86
    if (cloth->simd >= CLOTH_SIMD_AVX2) {
        pass.first = force_first_avx2;
        pass.second = force_second_avx2;
    }
#endif
    const uint32_t min_rows = (CLOTH_PARTICLES_PER_RANGE + cloth->cols - 1u) / cloth->cols;
    cloth_parallel_for(cloth, force_rows, cloth->rows, min_rows, &pass);
}

static void accumulate_mesh(cloth_t *cloth)
{
    for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
        const float k = cloth->stiffness[t], beta = cloth->spring_damping[t];
        if (k == 0.0f) {
            continue;
        }
        for (uint32_t s = cloth->type_begin[t]; s < cloth->type_begin[t + 1]; ++s) {
            const uint32_t i = cloth->spring_ij[2u * s], j = cloth->spring_ij[2u * s + 1u];
            spring_force(&cloth->p, i, j, cloth->spring_rest[s], cloth_spring_k(cloth, k, i, j), beta);
        }
    }
}

void cloth_springs_accumulate(cloth_t *cloth)
{
    if (cloth->tris == NULL) {
        accumulate_grid(cloth);
    } else {
        accumulate_mesh(cloth);
    }
    cloth_bending_accumulate(cloth); /* dihedral hinges (bending.c), when switched on */
    cloth_curvature_accumulate(cloth); /* a material's bending on a grid (curvature.c) */
}

uint32_t cloth_do_spring_count(const cloth_t *cloth)
{
    if (cloth == NULL) {
        return 0u;
    }
    if (cloth->tris != NULL) {
        return cloth->spring_count;
    }
    uint32_t n = 0;
    for (uint32_t f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
        uint32_t begin, end, di;
        for (uint32_t r = 0; cloth_family_active(cloth, f) && cloth_family_row(cloth, f, r, &begin, &end, &di);
             ++r) {
            n += end - begin;
        }
    }
    return n;
}

uint32_t cloth_spring_count(const cloth_t *cloth)
{
    return cloth_do_spring_count(cloth);
}

cloth_status cloth_get_springs(const cloth_t *cloth, uint32_t *pairs, float *rest, cloth_spring_type *types)
{
    if (cloth == NULL || (pairs == NULL && rest == NULL && types == NULL)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    uint32_t s = 0;
    if (cloth->tris != NULL) {
        for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
            for (s = cloth->type_begin[t]; s < cloth->type_begin[t + 1]; ++s) {
                if (pairs != NULL) {
                    pairs[2u * s] = cloth->spring_ij[2u * s];
                    pairs[2u * s + 1u] = cloth->spring_ij[2u * s + 1u];
                }
                if (rest != NULL) {
                    rest[s] = cloth->spring_rest[s];
                }
                if (types != NULL) {
                    types[s] = (cloth_spring_type)t;
                }
            }
        }
        return CLOTH_OK;
    }
    for (uint32_t f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
        uint32_t begin, end, di;
        for (uint32_t r = 0; cloth_family_active(cloth, f) && cloth_family_row(cloth, f, r, &begin, &end, &di);
             ++r) {
            for (uint32_t i = begin; i < end; ++i, ++s) {
                if (pairs != NULL) {
                    pairs[2u * s] = i;
                    pairs[2u * s + 1u] = i + di;
                }
                if (rest != NULL) {
                    rest[s] = cloth->family_rest[f];
                }
                if (types != NULL) {
                    types[s] = cloth_grid_families[f].type;
                }
            }
        }
    }
    return CLOTH_OK;
}
