/* Infinite plane (seed 000's floor): particles less than the thickness in
 * front of it are pushed out along its normal. */
#include "cloth_internal.h"

bool cloth_contact_plane(const cloth_collider *c, const float x[3], float n[3], float *depth)
{
    float dist = (x[0] - c->p[0]) * c->n[0] + (x[1] - c->p[1]) * c->n[1] + (x[2] - c->p[2]) * c->n[2] -
                 c->thickness;
    if (!(dist < 0.0f)) {
        return false;
    }
    n[0] = c->n[0];
    n[1] = c->n[1];
    n[2] = c->n[2];
    *depth = -dist;
    return true;
}
