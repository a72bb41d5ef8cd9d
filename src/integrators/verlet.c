/*
 * Position Verlet with drag, seed 001:
 *     x' = x + d (x - x_prev) + (g + w f) h^2,   d = exp(-c h)
 * kept in velocity form, x - x_prev = v h, so that h may change from one step
 * to the next without the error a stored x_prev would then carry:
 *     x' = x + (d v + a h) h,   v' = (x' - x) / h = d v + a h
 */
#include "cloth_internal.h"

static void verlet_step(const cloth_view *s)
{
    const float h = s->h, d = s->velocity_decay;
    const float gx = s->gravity[0], gy = s->gravity[1], gz = s->gravity[2];
    for (uint32_t i = 0; i < s->count; ++i) {
        const float w = s->w[i];
        float dx = (d * s->vx[i] + (gx + w * s->fx[i]) * h) * h;
        float dy = (d * s->vy[i] + (gy + w * s->fy[i]) * h) * h;
        float dz = (d * s->vz[i] + (gz + w * s->fz[i]) * h) * h;
        s->x[i] += dx;
        s->y[i] += dy;
        s->z[i] += dz;
        s->vx[i] = dx / h;
        s->vy[i] = dy / h;
        s->vz[i] = dz / h;
    }
}

const cloth_integrator_ops cloth_integrator_verlet = {"verlet", verlet_step};
