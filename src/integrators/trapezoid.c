/*
 * Seed 000's trapezoid rule: the velocity as in Euler, the position with the
 * mean of the old and new velocity.
 *     v' = (v + (g + w f) h) d,   x' = x + (v + v') h / 2
 * Exact for constant acceleration; not symplectic (see the header).
 */
#include "cloth_internal.h"
#include "integrators/integrators.h"

static cloth_status trapezoid_step(void *user, void *state, const cloth_step_view *s)
{
    (void)user;
    (void)state;
    const float h = s->h, half_h = 0.5f * s->h, d = s->velocity_decay;
    const float gx = s->gravity[0], gy = s->gravity[1], gz = s->gravity[2];
    for (uint32_t i = 0; i < s->count; ++i) {
        const float w = s->inv_mass[i], m = cloth_gravity_mask(w);
        float ox = s->vx[i], oy = s->vy[i], oz = s->vz[i];
        float vx = (ox + (gx * m + w * s->fx[i]) * h) * d;
        float vy = (oy + (gy * m + w * s->fy[i]) * h) * d;
        float vz = (oz + (gz * m + w * s->fz[i]) * h) * d;
        s->vx[i] = vx;
        s->vy[i] = vy;
        s->vz[i] = vz;
        s->x[i] += (ox + vx) * half_h;
        s->y[i] += (oy + vy) * half_h;
        s->z[i] += (oz + vz) * half_h;
    }
    return CLOTH_OK;
}

const cloth_integrator_vtable cloth_integrator_trapezoid = {
    "trapezoid", CLOTH_INTEGRATOR_WANTS_SPRING_FORCES, NULL, NULL, trapezoid_step, NULL};
