/*
 * Position-based dynamics with Jacobi strain limiting (seed 004).
 *
 *   predict   v' = (v + (g + w f) h) d,  x* = x + v' h
 *   project   `iterations` Jacobi passes: every spring proposes moving its
 *             ends toward its rest length, split by inverse mass and scaled by
 *             the family's constraint stiffness; each particle then moves to
 *             (sum of its proposals + a x) / (n + a), a = the Jacobi weight,
 *             computed as x + (sum of corrections) / (n + a)
 *   velocity  v = (x_final - x) / h, from the displacement kept apart
 *
 * Jacobi rather than Gauss-Seidel: every spring reads the positions of the
 * previous pass, so the result does not depend on the order springs are
 * visited in, and a pass is one data-parallel sweep.
 */
#include "cloth_internal.h"
#include "platform/target.h"
#include "integrators/integrators.h"
#include "springs.h"

#include <string.h>

/* DX..DZ: each particle's displacement over the substep, kept apart from the
 * position so that the velocity d / h does not lose digits to the position's
 * magnitude (x_final - x_start cancels catastrophically far from the origin:
 * 1.5 % of a free fall's speed lost at y = 10 m, 28 % at y = 100 m). */
enum { DX, DY, DZ, SX, SY, SZ, SN, PBD_ARRAYS };

static cloth_status pbd_create(void *user, const cloth_t *cloth, void **out)
{
    (void)user;
    return cloth_scratch_create(cloth, PBD_ARRAYS, out);
}

/* One spring's proposals for both ends, from positions of the last pass,
 * kept as corrections rather than absolute positions: averaging absolute
 * positions rounds x to a multiple of its own ulp every pass, and that
 * rounding would become velocity (a cloth at rest far from the origin would
 * drift). The average is the same: (sum(x + d) + a x) / (n + a) =
 * x + sum(d) / (n + a). */
static inline void propose(const cloth_step_view *s, float *const a[PBD_ARRAYS], uint32_t i, uint32_t j,
                           float rest, float stiffness)
{
    const float wi = s->inv_mass[i], wj = s->inv_mass[j], wsum = wi + wj;
    float dx = s->x[j] - s->x[i], dy = s->y[j] - s->y[i], dz = s->z[j] - s->z[i];
    float len2 = dx * dx + dy * dy + dz * dz;
    float c = 0.0f;
    if (wsum > 0.0f && len2 > 0.0f) {
        float len = sqrtf(len2);
        c = stiffness * (len - rest) / (len * wsum);
    }
    /* i moves toward j by wi c d, j toward i by wj c d */
    a[SX][i] += wi * c * dx;
    a[SY][i] += wi * c * dy;
    a[SZ][i] += wi * c * dz;
    a[SN][i] += 1.0f;
    a[SX][j] -= wj * c * dx;
    a[SY][j] -= wj * c * dy;
    a[SZ][j] -= wj * c * dz;
    a[SN][j] += 1.0f;
}

/* A mesh's springs, each proposing for both its ends. */
static void propose_mesh(const cloth_t *cloth, const cloth_step_view *s, float *const a[PBD_ARRAYS])
{
    for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
        const float k = cloth->constraint_stiffness[t];
        if (k == 0.0f) {
            continue;
        }
        for (uint32_t sp = cloth->type_begin[t]; sp < cloth->type_begin[t + 1]; ++sp) {
            propose(s, a, cloth->spring_ij[2u * sp], cloth->spring_ij[2u * sp + 1u], cloth->spring_rest[sp], k);
        }
    }
}

/*
 * A grid gathers instead: every particle sums the proposals of its own
 * springs, so rows can be split between threads and each run of a family is
 * one loop the compiler vectorises. Each spring is evaluated at both of its
 * ends, with the same operations, so both ends see the same factor. The
 * order of the sums is the one propose() scattered in: family by family, and
 * in each family first the spring the particle ends (it starts a row or a
 * column earlier) and then the one it starts. So the grid path gives the
 * same bits as visiting the springs one by one.
 *
 * One run: particles p in [begin, end) of the spring (p - di, p) (`second`)
 * or (p, p + di); each side is its own loop so that both vectorise. The
 * loops are compiled for the baseline and for AVX2 (platform/simd.c
 * chooses; AVX-512 CPUs take the AVX2 copy, whose 8 lanes suit rows of a few
 * dozen particles better than 16 with a scalar tail). Both copies do the
 * same IEEE operations per particle, so they give the same bits. Restrict
 * parameters: GCC 12 does not vectorise through restrict locals read from a
 * struct.
 */
#define GATHER_PARAMS                                                                                              \
    float *restrict sx, float *restrict sy, float *restrict sz, float *restrict sn, const float *restrict x,     \
        const float *restrict y, const float *restrict z, const float *restrict w, uint32_t begin, uint32_t end, \
        uint32_t di, float rest, float stiffness
#define GATHER_ARGS sx, sy, sz, sn, x, y, z, w, begin, end, di, rest, stiffness

static CLOTH_INLINE_ALWAYS void gather_body(GATHER_PARAMS, bool second)
{
    for (uint32_t p = begin; p < end; ++p) {
        const uint32_t i = second ? p - di : p, j = second ? p : p + di;
        const float wi = w[i], wj = w[j], wsum = wi + wj;
        const float dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];
        const float len2 = dx * dx + dy * dy + dz * dz;
        const bool moves = wsum > 0.0f && len2 > 0.0f;
        const float len = sqrtf(moves ? len2 : 1.0f);
        const float num = stiffness * (len - rest), den = len * (moves ? wsum : 1.0f);
        const float c = moves ? num / den : 0.0f;
        if (second) {
            sx[p] -= wj * c * dx;
            sy[p] -= wj * c * dy;
            sz[p] -= wj * c * dz;
        } else {
            sx[p] += wi * c * dx;
            sy[p] += wi * c * dy;
            sz[p] += wi * c * dz;
        }
        sn[p] += 1.0f;
    }
}

typedef void gather_fn(GATHER_PARAMS);

static void gather_first_plain(GATHER_PARAMS)
{
    gather_body(GATHER_ARGS, false);
}

static void gather_second_plain(GATHER_PARAMS)
{
    gather_body(GATHER_ARGS, true);
}

#if CLOTH_TARGET_X86
CLOTH_TARGET_AVX2 static void gather_first_avx2(GATHER_PARAMS)
{
    gather_body(GATHER_ARGS, false);
}

CLOTH_TARGET_AVX2 static void gather_second_avx2(GATHER_PARAMS)
{
    gather_body(GATHER_ARGS, true);
}
#endif

typedef struct pbd_pass {
    const cloth_t *cloth;
    const cloth_step_view *view;
    float *const *a;
    float weight;
    gather_fn *first, *second; /* gather_body() for each side, at the chosen level */
} pbd_pass;

/* Items are rows: the proposals for every particle of rows [begin, end). */
static void gather_rows(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const pbd_pass *pass = ctx;
    const cloth_t *cloth = pass->cloth;
    const cloth_step_view *s = pass->view;
    float *const *a = pass->a;
    const uint32_t cols = cloth->cols;
    memset(a[SX] + begin * cols, 0, (size_t)(end - begin) * cols * sizeof(float));
    memset(a[SY] + begin * cols, 0, (size_t)(end - begin) * cols * sizeof(float));
    memset(a[SZ] + begin * cols, 0, (size_t)(end - begin) * cols * sizeof(float));
    memset(a[SN] + begin * cols, 0, (size_t)(end - begin) * cols * sizeof(float));
    for (uint32_t r = begin; r < end; ++r) {
        for (uint32_t f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
            const float k = cloth->constraint_stiffness[cloth_grid_families[f].type];
            if (k == 0.0f || !cloth_family_active(cloth, f)) {
                continue;
            }
            const float rest = cloth->family_rest[f];
            cloth_row_runs run;
            cloth_family_row_runs(cloth, f, r, &run);
            pass->second(a[SX], a[SY], a[SZ], a[SN], s->x, s->y, s->z, s->inv_mass, run.end_begin, run.end_end, run.di,
                         rest, k);
            pass->first(a[SX], a[SY], a[SZ], a[SN], s->x, s->y, s->z, s->inv_mass, run.start_begin, run.start_end,
                        run.di, rest, k);
        }
    }
}

/* Items are CLOTH_PARTICLES_PER_ITEM particles: each moves to the weighted
 * average of its proposals (see the top). */
static void average(uint32_t begin, uint32_t end, uint32_t worker, void *ctx)
{
    (void)worker;
    const pbd_pass *pass = ctx;
    const cloth_step_view *s = pass->view;
    float *const *a = pass->a;
    const float weight = pass->weight;
    cloth_item_particles(begin, end, s->count, CLOTH_PARTICLES_PER_ITEM, &begin, &end);
    for (uint32_t i = begin; i < end; ++i) {
        float n = a[SN][i] + weight;
        if (s->inv_mass[i] == 0.0f || n == 0.0f) {
            continue; /* pinned, or no springs and no weight: nothing to average */
        }
        float inv = 1.0f / n;
        float cx = a[SX][i] * inv, cy = a[SY][i] * inv, cz = a[SZ][i] * inv;
        s->x[i] += cx;
        s->y[i] += cy;
        s->z[i] += cz;
        a[DX][i] += cx;
        a[DY][i] += cy;
        a[DZ][i] += cz;
    }
}

static cloth_status pbd_step(void *user, void *state, const cloth_step_view *s)
{
    (void)user;
    float *const *a = ((cloth_scratch *)state)->a;
    const cloth_t *cloth = s->cloth;
    const float h = s->h, d = s->velocity_decay, weight = cloth->jacobi_weight;
    const float gx = s->gravity[0], gy = s->gravity[1], gz = s->gravity[2];
    const size_t bytes = (size_t)s->count * sizeof(float);
    const uint32_t items = (s->count + CLOTH_PARTICLES_PER_ITEM - 1u) / CLOTH_PARTICLES_PER_ITEM;

    for (uint32_t i = 0; i < s->count; ++i) {
        const float w = s->inv_mass[i], m = cloth_gravity_mask(w);
        float dx = (s->vx[i] + (gx * m + w * s->fx[i]) * h) * d * h;
        float dy = (s->vy[i] + (gy * m + w * s->fy[i]) * h) * d * h;
        float dz = (s->vz[i] + (gz * m + w * s->fz[i]) * h) * d * h;
        a[DX][i] = dx;
        a[DY][i] = dy;
        a[DZ][i] = dz;
        s->x[i] += dx;
        s->y[i] += dy;
        s->z[i] += dz;
    }
    pbd_pass pass = {cloth, s, a, weight, gather_first_plain, gather_second_plain};
#if CLOTH_TARGET_X86
    if (cloth->tris == NULL && cloth->simd >= CLOTH_SIMD_AVX2) {
        pass.first = gather_first_avx2;
        pass.second = gather_second_avx2;
    }
#endif
    /* rows per range: at least CLOTH_PARTICLES_PER_RANGE particles each */
    const uint32_t min_rows = cloth->tris == NULL ? (CLOTH_PARTICLES_PER_RANGE + cloth->cols - 1u) / cloth->cols : 1u;
    for (uint32_t it = 0; it < s->iterations; ++it) {
        if (cloth->tris == NULL) {
            cloth_parallel_for(cloth, gather_rows, cloth->rows, min_rows, &pass);
        } else {
            for (int k = SX; k <= SN; ++k) {
                memset(a[k], 0, bytes);
            }
            propose_mesh(cloth, s, a);
        }
        cloth_parallel_for(cloth, average, items, 1u, &pass);
    }
    const float inv_h = 1.0f / h;
    for (uint32_t i = 0; i < s->count; ++i) {
        s->vx[i] = a[DX][i] * inv_h;
        s->vy[i] = a[DY][i] * inv_h;
        s->vz[i] = a[DZ][i] * inv_h;
    }
    return CLOTH_OK;
}

const cloth_integrator_vtable cloth_integrator_pbd = {"pbd", 0u, pbd_create, cloth_scratch_destroy, pbd_step, NULL};
