/*
 * Symplectic (semi-implicit) Euler, seed 002: the velocity is updated first
 * and the position moves with the new velocity.
 *     v' = (v + (g + w f) h) d,   x' = x + v' h,   d = exp(-c h)
 */
#include "cloth_internal.h"

static void euler_step(const cloth_view *s)
{
    const float h = s->h, d = s->velocity_decay;
    const float gx = s->gravity[0], gy = s->gravity[1], gz = s->gravity[2];
    for (uint32_t i = 0; i < s->count; ++i) {
        const float w = s->w[i];
        float vx = (s->vx[i] + (gx + w * s->fx[i]) * h) * d;
        float vy = (s->vy[i] + (gy + w * s->fy[i]) * h) * d;
        float vz = (s->vz[i] + (gz + w * s->fz[i]) * h) * d;
        s->vx[i] = vx;
        s->vy[i] = vy;
        s->vz[i] = vz;
        s->x[i] += vx * h;
        s->y[i] += vy * h;
        s->z[i] += vz * h;
    }
}

const cloth_integrator_ops cloth_integrator_euler = {"explicit-euler", euler_step};
