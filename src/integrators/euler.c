/*
 * Symplectic (semi-implicit) Euler, seed 002: the velocity is updated first
 * and the position moves with the new velocity.
 *     v' = (v + (g + w f) h) d,   x' = x + v' h,   d = exp(-c h)
 */
#include "cloth_internal.h"
#include "integrators/integrators.h"

static cloth_status euler_step(void *user, void *state, const cloth_step_view *s)
{
    (void)user;
    (void)state;
    const float h = s->h, d = s->velocity_decay;
    const float gx = s->gravity[0], gy = s->gravity[1], gz = s->gravity[2];
    for (uint32_t i = 0; i < s->count; ++i) {
        const float w = s->inv_mass[i], m = cloth_gravity_mask(w);
        float vx = (s->vx[i] + (gx * m + w * s->fx[i]) * h) * d;
        float vy = (s->vy[i] + (gy * m + w * s->fy[i]) * h) * d;
        float vz = (s->vz[i] + (gz * m + w * s->fz[i]) * h) * d;
        s->vx[i] = vx;
        s->vy[i] = vy;
        s->vz[i] = vz;
        s->x[i] += vx * h;
        s->y[i] += vy * h;
        s->z[i] += vz * h;
    }
    return CLOTH_OK;
}

const cloth_integrator_vtable cloth_integrator_euler = {
    "explicit-euler", CLOTH_INTEGRATOR_WANTS_SPRING_FORCES, NULL, NULL, euler_step, NULL};
