/* Infinite plane (seed 000's floor): particles behind the plane moved up by
 * its thickness are pushed out along its normal. */
#include "cloth_internal.h"

void cloth_collider_plane(const cloth_collider *c, cloth_t *cloth, float h)
{
    (void)h;
    const cloth_particles *p = &cloth->p;
    for (uint32_t i = 0; i < cloth->count; ++i) {
        if (p->w[i] == 0.0f) {
            continue;
        }
        float dist = (p->x[i] - c->p[0]) * c->n[0] + (p->y[i] - c->p[1]) * c->n[1] +
                     (p->z[i] - c->p[2]) * c->n[2] - c->thickness;
        if (dist < 0.0f) {
            cloth_collider_resolve(cloth, i, c->n, -dist, c->friction);
        }
    }
}
