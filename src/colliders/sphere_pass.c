/*
 * The sphere's own pass over a range of particles. The general pass
 * (collide.c) brings each particle into the collider's frame and calls the
 * shape through a pointer, which on a cloth draped over a ball costs more
 * than a sweep of the springs. The sphere's response is a kernel of the
 * vector layer (kernels/sphere.inl), run at the cloth's vector level; this
 * file reads the collider once and skips the chunks nowhere near it.
 */
#include "shapes.h"

#include "kernels/kernels.h"

/* Chunks with no particle inside the sphere are skipped after one cheap
 * pass; on a typical cloth most of it is nowhere near the ball. */
#define SPHERE_CHUNK 64u

uint32_t cloth_sphere_apply_range(cloth_t *cloth, const cloth_collider *c, uint32_t begin, uint32_t end)
{
    cloth_particles *p = &cloth->p;
    cloth_sphere_args a;
    a.x = p->x;
    a.y = p->y;
    a.z = p->z;
    a.vx = p->vx;
    a.vy = p->vy;
    a.vz = p->vz;
    a.w = p->w;
    a.reach = c->size[0] + c->thickness;
    a.reach2 = a.reach * a.reach;
    a.mu = c->friction;
    a.lag = cloth->friction_lag;
    a.hold_dt = cloth->limit_dt;
    a.lx = p->lx;
    a.ly = p->ly;
    a.lz = p->lz;
    for (int k = 0; k < 3; ++k) {
        a.c[k] = c->at.p[k];
        a.up[k] = c->m[3 * k + 1];
        a.v[k] = c->v[k];
        a.spin[k] = c->w[k];
        a.g[k] = cloth->gravity[k];
    }
    const cloth_kernels *kern = cloth_kernels_at(cloth->simd);
    uint32_t hits = 0u;
    for (uint32_t i0 = begin; i0 < end; i0 += SPHERE_CHUNK) {
        const uint32_t i1 = end - i0 < SPHERE_CHUNK ? end : i0 + SPHERE_CHUNK;
        if (kern->sphere_near(&a, i0, i1)) {
            hits += kern->sphere(&a, i0, i1);
        }
    }
    return hits;
}
