/* Sphere (seed 000): centred on the frame's origin. Particles closer than
 * radius + thickness to the centre are pushed out radially. */
#include "shapes.h"

cloth_status cloth_add_sphere(cloth_t *cloth, const float center[3], float radius, cloth_collider_id *out)
{
    if (cloth_busy(cloth)) {
        return CLOTH_ERR_BUSY;
    }
    if (cloth == NULL || center == NULL || out == NULL || !cloth_finite3(center) || !(radius > 0.0f) ||
        !isfinite(radius)) {
        return CLOTH_ERR_INVALID_ARGUMENT;
    }
    cloth_collider shape = {0};
    shape.kind = CLOTH_COLLIDER_SPHERE;
    shape.size[0] = radius;
    for (int k = 0; k < 3; ++k) {
        shape.to.p[k] = center[k];
    }
    (void)cloth_quat_accept(NULL, shape.to.q);
    return cloth_collider_add(cloth, &shape, out);
}

bool cloth_shape_sphere(const cloth_collider *c, const float p[3], float out[3], float n[3])
{
    const float reach = c->size[0] + c->grown;
    const float d2 = cloth_dot3(p, p);
    if (!(d2 < reach * reach)) {
        return false;
    }
    const float d = sqrtf(d2);
    if (d > 0.0f) {
        n[0] = p[0] / d;
        n[1] = p[1] / d;
        n[2] = p[2] / d;
    } else { /* at the very centre every direction is nearest: leave along the frame's +y */
        n[0] = 0.0f;
        n[1] = 1.0f;
        n[2] = 0.0f;
    }
    for (int k = 0; k < 3; ++k) {
        out[k] = n[k] * reach;
    }
    return true;
}
