/*
 * Relaxation (seed 002's massless cloth): no velocity, no inertia. Each
 * substep moves every free particle toward static equilibrium,
 *     x' = x + (f + m g) / (2 D),   D = sum of k / L0 over its springs,
 * a Jacobi step with weight 1/2 on the spring network: D is the diagonal of
 * the springs' stiffness along their axes, and the weight keeps every mode of
 * the linearised iteration decaying, whatever the stiffness. Velocities are
 * set to zero. A particle without active springs falls by g h^2.
 */
#include "cloth_internal.h"
#include "integrators/integrators.h"
#include "springs.h"

#include <string.h>

enum { DIAG, RELAXATION_ARRAYS };

static cloth_status relaxation_create(void *user, const cloth_t *cloth, void **out)
{
    (void)user;
    return cloth_scratch_create(cloth, RELAXATION_ARRAYS, out);
}

static void add_diagonal(const cloth_t *cloth, float *diag)
{
    memset(diag, 0, (size_t)cloth->count * sizeof(float));
    if (cloth->tris == NULL) {
        for (uint32_t f = 0; f < CLOTH_GRID_FAMILIES; ++f) {
            const float k = cloth->stiffness[cloth_grid_families[f].type];
            if (k == 0.0f || !cloth_family_active(cloth, f)) {
                continue;
            }
            const float kl = k / cloth->family_rest[f];
            uint32_t begin, end, di;
            for (uint32_t r = 0; cloth_family_row(cloth, f, r, &begin, &end, &di); ++r) {
                for (uint32_t i = begin; i < end; ++i) {
                    const float kk = cloth->kscale != NULL ? cloth_spring_k(cloth, k, i, i + di) / cloth->family_rest[f]
                                                           : kl;
                    diag[i] += kk;
                    diag[i + di] += kk;
                }
            }
        }
        return;
    }
    for (int t = 0; t < CLOTH_SPRING_TYPES; ++t) {
        const float k = cloth->stiffness[t];
        for (uint32_t sp = cloth->type_begin[t]; k != 0.0f && sp < cloth->type_begin[t + 1]; ++sp) {
            const uint32_t i = cloth->spring_ij[2u * sp], j = cloth->spring_ij[2u * sp + 1u];
            const float kl = cloth_spring_k(cloth, k, i, j) / cloth->spring_rest[sp];
            diag[i] += kl;
            diag[j] += kl;
        }
    }
}

static cloth_status relaxation_step(void *user, void *state, const cloth_step_view *s)
{
    (void)user;
    float *diag = ((cloth_scratch *)state)->a[DIAG];
    const float h2 = s->h * s->h;
    const float gx = s->gravity[0], gy = s->gravity[1], gz = s->gravity[2];
    add_diagonal(s->cloth, diag);
    for (uint32_t i = 0; i < s->count; ++i) {
        const float w = s->inv_mass[i];
        if (w > 0.0f) {
            if (diag[i] > 0.0f) {
                const float m = 1.0f / w, step = 0.5f / diag[i];
                s->x[i] += (s->fx[i] + m * gx) * step;
                s->y[i] += (s->fy[i] + m * gy) * step;
                s->z[i] += (s->fz[i] + m * gz) * step;
            } else {
                s->x[i] += gx * h2;
                s->y[i] += gy * h2;
                s->z[i] += gz * h2;
            }
        }
        s->vx[i] = 0.0f;
        s->vy[i] = 0.0f;
        s->vz[i] = 0.0f;
    }
    return CLOTH_OK;
}

const cloth_integrator_vtable cloth_integrator_relaxation = {
    "relaxation", CLOTH_INTEGRATOR_WANTS_SPRING_FORCES, relaxation_create, cloth_scratch_destroy,
    relaxation_step, NULL};
