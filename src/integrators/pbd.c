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

static void propose_all(const cloth_t *cloth, const cloth_step_view *s, float *const a[PBD_ARRAYS])
{
    if (cloth->tris == NULL) {
        for (uint32_t f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
            const float k = cloth->constraint_stiffness[cloth_grid_families[f].type];
            if (k == 0.0f || !cloth_family_active(cloth, f)) {
                continue;
            }
            uint32_t begin, end, di;
            for (uint32_t r = 0; cloth_family_row(cloth, f, r, &begin, &end, &di); ++r) {
                for (uint32_t i = begin; i < end; ++i) {
                    propose(s, a, i, i + di, cloth->family_rest[f], k);
                }
            }
        }
        return;
    }
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

static cloth_status pbd_step(void *user, void *state, const cloth_step_view *s)
{
    (void)user;
    float *const *a = ((cloth_scratch *)state)->a;
    const cloth_t *cloth = s->cloth;
    const float h = s->h, d = s->velocity_decay, weight = cloth->jacobi_weight;
    const float gx = s->gravity[0], gy = s->gravity[1], gz = s->gravity[2];
    const size_t bytes = (size_t)s->count * sizeof(float);

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
    for (uint32_t it = 0; it < s->iterations; ++it) {
        for (int k = SX; k <= SN; ++k) {
            memset(a[k], 0, bytes);
        }
        propose_all(cloth, s, a);
        for (uint32_t i = 0; i < s->count; ++i) {
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
    const float inv_h = 1.0f / h;
    for (uint32_t i = 0; i < s->count; ++i) {
        s->vx[i] = a[DX][i] * inv_h;
        s->vy[i] = a[DY][i] * inv_h;
        s->vz[i] = a[DZ][i] * inv_h;
    }
    return CLOTH_OK;
}

const cloth_integrator_vtable cloth_integrator_pbd = {"pbd", 0u, pbd_create, cloth_scratch_destroy, pbd_step, NULL};
