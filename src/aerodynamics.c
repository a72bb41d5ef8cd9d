/*
 * The air's force on each triangle (seed 001/002's per-triangle wind, made
 * physical; the formula and its coefficients are documented in forces.h):
 *     F = 1/2 rho A (C_d |u_n| + C_l u_t) u_n n,   a third on each corner,
 * with u the corners' mean wind minus their mean velocity. The force uses
 * only the state of this substep, never h, so it is the same force whatever
 * the substep count.
 */
#include "cloth_internal.h"
#include "forces.h"

void cloth_aerodynamics(cloth_t *cloth, const float *wind, size_t stride)
{
    const cloth_air *air = &cloth->air;
    /* 1/2 rho A, with A = |cross| / 2, and a third of it on each corner */
    const float k = air->density / 12.0f;
    if (!(k > 0.0f) || (air->drag == 0.0f && air->lift == 0.0f)) {
        return;
    }
    const float cd = air->drag, cl = air->lift;
    const float *x = cloth->p.x, *y = cloth->p.y, *z = cloth->p.z;
    const float *vx = cloth->p.vx, *vy = cloth->p.vy, *vz = cloth->p.vz;
    float *fx = cloth->p.fx, *fy = cloth->p.fy, *fz = cloth->p.fz;
    const uint32_t tris = cloth_do_triangle_count(cloth);
    for (uint32_t t = 0; t < tris; ++t) {
        uint32_t v[3];
        cloth_triangle(cloth, t, v);
        const uint32_t a = v[0], b = v[1], c = v[2];
        const float e1x = x[b] - x[a], e1y = y[b] - y[a], e1z = z[b] - z[a];
        const float e2x = x[c] - x[a], e2y = y[c] - y[a], e2z = z[c] - z[a];
        const float cx = e1y * e2z - e1z * e2y;
        const float cy = e1z * e2x - e1x * e2z;
        const float cz = e1x * e2y - e1y * e2x;
        const float len = sqrtf(cx * cx + cy * cy + cz * cz);
        if (!(len > 0.0f)) {
            continue; /* a collapsed triangle has no area and no normal */
        }
        const float nx = cx / len, ny = cy / len, nz = cz / len;
        const float *wa = wind + stride * a, *wb = wind + stride * b, *wc = wind + stride * c;
        const float third = 1.0f / 3.0f;
        const float ux = (wa[0] + wb[0] + wc[0]) * third - (vx[a] + vx[b] + vx[c]) * third;
        const float uy = (wa[1] + wb[1] + wc[1]) * third - (vy[a] + vy[b] + vy[c]) * third;
        const float uz = (wa[2] + wb[2] + wc[2]) * third - (vz[a] + vz[b] + vz[c]) * third;
        const float un = ux * nx + uy * ny + uz * nz;
        const float ut2 = ux * ux + uy * uy + uz * uz - un * un;
        const float ut = ut2 > 0.0f ? sqrtf(ut2) : 0.0f;
        /* len = 2 A, so k len = rho A / 6 = (1/2 rho A) / 3 per corner */
        const float f = k * len * (cd * fabsf(un) + cl * ut) * un;
        const float px = f * nx, py = f * ny, pz = f * nz;
        fx[a] += px;
        fy[a] += py;
        fz[a] += pz;
        fx[b] += px;
        fy[b] += py;
        fz[b] += pz;
        fx[c] += px;
        fy[c] += py;
        fz[c] += pz;
    }
}
