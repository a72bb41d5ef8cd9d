/* Sphere collider (seed 000): particles inside radius + thickness are pushed
 * out radially. */
#include "cloth_internal.h"

bool cloth_contact_sphere(const cloth_collider *c, const float x[3], float n[3], float *depth)
{
    const float reach = c->radius + c->thickness;
    float dx = x[0] - c->p[0], dy = x[1] - c->p[1], dz = x[2] - c->p[2];
    float d2 = dx * dx + dy * dy + dz * dz;
    if (!(d2 < reach * reach)) {
        return false;
    }
    float d = sqrtf(d2);
    if (d > 0.0f) {
        n[0] = dx / d;
        n[1] = dy / d;
        n[2] = dz / d;
    } else { /* at the very centre any direction is nearest; leave upward */
        n[0] = 0.0f;
        n[1] = 1.0f;
        n[2] = 0.0f;
    }
    *depth = reach - d;
    return true;
}
