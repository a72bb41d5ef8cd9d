/*
 * Position Verlet with drag, seed 001:
 *     x' = x + d (x - x_prev) + (g + w f) h^2,   d = exp(-c h)
 * kept in velocity form, x - x_prev = v h, so that h may change from one step
 * to the next without the error a stored x_prev would then carry:
 *     x' = x + (d v + a h) h,   v' = (x' - x) / h = d v + a h
 */
#include "cloth_internal.h"
#include "integrators/integrators.h"

static cloth_status verlet_step(void *user, void *state, const cloth_step_view *s)
{
    (void)user;
    (void)state;
    const float h = s->h, d = s->velocity_decay;
    const float gx = s->gravity[0], gy = s->gravity[1], gz = s->gravity[2];
    for (uint32_t i = 0; i < s->count; ++i) {
        const float w = s->inv_mass[i], m = cloth_gravity_mask(w);
        float vx = d * s->vx[i] + (gx * m + w * s->fx[i]) * h;
        float vy = d * s->vy[i] + (gy * m + w * s->fy[i]) * h;
        float vz = d * s->vz[i] + (gz * m + w * s->fz[i]) * h;
        s->x[i] += vx * h;
        s->y[i] += vy * h;
        s->z[i] += vz * h;
        s->vx[i] = vx;
        s->vy[i] = vy;
        s->vz[i] = vz;
    }
    return CLOTH_OK;
}

const cloth_integrator_vtable cloth_integrator_verlet = {
    "verlet", CLOTH_INTEGRATOR_WANTS_SPRING_FORCES, NULL, NULL, verlet_step, NULL};
