/* Infinite plane (seed 000's floor) through the frame's origin, solid behind
 * its unit normal `axis`. Particles less than the thickness in front of it
 * are moved straight out along the normal. */
#include "shapes.h"

cloth_status cloth_add_plane(cloth_t *cloth, const float point[3], const float normal[3], cloth_collider_id *out)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    cloth_collider shape = {0};
    if (cloth == NULL || point == NULL || normal == NULL || out == NULL || !cloth_finite3(point) ||
        !cloth_normalise3(normal, shape.axis)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    shape.kind = CLOTH_COLLIDER_PLANE;
    for (int k = 0; k < 3; ++k) {
        shape.to.p[k] = point[k];
    }
    (void)cloth_quat_accept(NULL, shape.to.q);
    return cloth_collider_add(cloth, &shape, out);
}

bool cloth_shape_plane(const cloth_collider *c, const float p[3], float out[3], float n[3])
{
    const float gap = cloth_dot3(p, c->axis) - c->grown;
    if (!(gap < 0.0f)) {
        return false;
    }
    for (int k = 0; k < 3; ++k) {
        out[k] = p[k] - gap * c->axis[k];
        n[k] = c->axis[k];
    }
    return true;
}
