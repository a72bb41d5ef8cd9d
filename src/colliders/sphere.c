/* Sphere collider (seed 000): particles inside radius + thickness are pushed
 * out radially. */
#include "cloth_internal.h"

void cloth_collider_sphere(const cloth_collider *c, cloth_t *cloth, float h)
{
    (void)h;
    const float reach = c->radius + c->thickness;
    const float reach2 = reach * reach;
    const cloth_particles *p = &cloth->p;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        if (p->w[i] == 0.0f) {
            continue; /* pinned: the host decides where it is */
        }
        float dx = p->x[i] - c->p[0], dy = p->y[i] - c->p[1], dz = p->z[i] - c->p[2];
        float d2 = dx * dx + dy * dy + dz * dz;
        if (!(d2 < reach2)) {
            continue;
        }
        float d = sqrtf(d2);
        float n[3] = {0.0f, 1.0f, 0.0f}; /* a particle at the very centre leaves upward */
        if (d > 0.0f) {
            n[0] = dx / d;
            n[1] = dy / d;
            n[2] = dz / d;
        }
        cloth_collider_resolve(cloth, i, n, reach - d, c->friction);
    }
}
